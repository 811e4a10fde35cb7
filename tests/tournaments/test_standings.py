"""``/standings``' Swiss (``service.tournaments.swiss``: a duel event of the events model)
checked against tiebreakers computed by hand.

Five players, three rounds, a bye in rounds 1 and 2, Bob drops after round 2:

=====  ===========================  ===========================  ====================
round  match (games: winner; = drawn)                              bye / drop
=====  ===========================  ===========================  ====================
1      Ann–Bob: Ann, Ann (2-0)      Cat–Dan: Dan, Cat, Dan (1-2)  Eve has a bye
2      Ann–Eve: Ann, = (1-0-1)      Bob–Dan: Bob, Dan (1-1)       Cat has a bye; Bob drops
3      Ann–Cat: Cat, Ann, Cat (1-2) Dan–Eve: = (0-0-1)
=====  ===========================  ===========================  ====================

By hand (MW% = match points / 3 × rounds incl. byes; GW% = game points / 3 × games,
a bye one game won; opponents' values raised to 0.33 first):

=====  ==  ======  ===========  =====  =======================  ===================================
who    MP  rounds  games, GP    MW%    opponents                GW%
=====  ==  ======  ===========  =====  =======================  ===================================
Ann    6   3       7, 6+4+3=13  2/3    Bob, Eve, Cat            13/21
Bob    1   2       4, 0+3=3     1/6    Ann, Dan                 3/12
Cat    6   3       7, 3+3+6=12  2/3    Dan, Ann (bye: none)     12/21
Dan    5   3       6, 6+3+1=10  5/9    Cat, Bob, Eve            10/18
Eve    4   3       4, 3+1+1=5   4/9    Ann, Dan (bye: none)     5/12
=====  ==  ======  ===========  =====  =======================  ===================================

Ann and Cat both have 6 points; Cat's OMW% (11/18) beats Ann's (1297/2700), so Cat
leads.  The next round pairs the four left (Bob dropped): Cat has met Ann and Dan, so
Cat–Eve, then Ann–Dan.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from service.games.errors import MalformedInput
from service.tournaments.events import FLOOR, MATCHES, Round, TournamentEvent, checked, ranked
from service.tournaments.swiss import DUEL, Pairing, match, pairing, records, standings_answer

PLAYERS = ["Ann", "Bob", "Cat", "Dan", "Eve"]
ROUNDS = [
    Round([match("Ann", "Bob", ["Ann", "Ann"]), match("Cat", "Dan", ["Dan", "Cat", "Dan"])],
          byes=["Eve"]),
    Round([match("Ann", "Eve", ["Ann", None]), match("Bob", "Dan", ["Bob", "Dan"])],
          byes=["Cat"], drops=["Bob"]),
    Round([match("Ann", "Cat", ["Cat", "Ann", "Cat"]), match("Dan", "Eve", [None])]),
]
assert FLOOR == F(33, 100)
MW = {"Ann": F(2, 3), "Bob": F(1, 6), "Cat": F(2, 3), "Dan": F(5, 9), "Eve": F(4, 9)}
GW = {"Ann": F(13, 21), "Bob": F(3, 12), "Cat": F(12, 21), "Dan": F(10, 18), "Eve": F(5, 12)}
floor = F(33, 100)  # Bob's MW% 1/6 and GW% 1/4 are raised to it for his opponents
EXPECTED = {  # player: (rank, match points, W-D-L-byes, games, game points, OMW, OGW)
    "Cat": (1, 6, (1, 0, 1, 1), 7, 12, (F(5, 9) + F(2, 3)) / 2, (F(10, 18) + F(13, 21)) / 2),
    "Ann": (2, 6, (2, 0, 1, 0), 7, 13, (floor + F(4, 9) + F(2, 3)) / 3,
            (floor + F(5, 12) + F(12, 21)) / 3),
    "Dan": (3, 5, (1, 2, 0, 0), 6, 10, (F(2, 3) + floor + F(4, 9)) / 3,
            (F(12, 21) + floor + F(5, 12)) / 3),
    "Eve": (4, 4, (0, 1, 1, 1), 4, 5, (F(2, 3) + F(5, 9)) / 2, (F(13, 21) + F(10, 18)) / 2),
    "Bob": (5, 1, (0, 1, 1, 0), 4, 3, (F(2, 3) + F(5, 9)) / 2, (F(13, 21) + F(10, 18)) / 2),
}


def duels(players: list[str], rounds: list[Round]) -> TournamentEvent:
    return checked(TournamentEvent(players, DUEL, rounds, MATCHES))


def test_the_hand_computed_standings():
    event = duels(PLAYERS, ROUNDS)
    table, record = ranked(event), records(event)
    assert [s.player for s in table] == ["Cat", "Ann", "Dan", "Eve", "Bob"]
    for line in table:
        rank, points, won, games, game_points, omw, ogw = EXPECTED[line.player]
        wins = record[line.player]
        assert line.rank == rank, line.player
        assert line.points == points, line.player
        assert (wins["wins"], wins["draws"], wins["losses"], line.byes) == won, line.player
        assert (line.games, line.game_points) == (games, game_points), line.player
        assert line.share == MW[line.player], line.player
        assert line.game_share == GW[line.player], line.player
        assert line.opponents_share == omw, line.player
        assert line.opponents_game_share == ogw, line.player
    assert EXPECTED["Ann"][5] == F(1297, 2700) and EXPECTED["Cat"][5] == F(11, 18)


def test_the_answer_rounds_to_four_decimals_and_keeps_the_dropped_player():
    lines = {s["player"]: s for s in standings_answer(duels(PLAYERS, ROUNDS), 0)["standings"]}
    assert lines["Ann"]["omw"] == 0.4804 and lines["Cat"]["omw"] == 0.6111
    assert lines["Ann"]["ogw"] == 0.4394 and lines["Eve"]["gw"] == 0.4167
    assert lines["Bob"]["dropped"] is True and lines["Bob"]["rank"] == 5
    assert lines["Bob"]["opponents"] == ["Ann", "Dan"]
    assert lines["Eve"]["opponents"] == ["Ann", "Dan"]  # the bye is no opponent


def test_the_next_round_pairs_without_rematch_and_leaves_the_dropped_player_out():
    event = duels(PLAYERS, ROUNDS)
    assert pairing(event, ranked(event)) == Pairing([("Cat", "Eve"), ("Ann", "Dan")], None)


def test_after_round_one_the_bye_goes_to_the_lowest_player_and_tied_players_share_a_rank():
    event = duels(PLAYERS, ROUNDS[:1])
    table = ranked(event)
    # Ann and Eve: 3 points, OMW 0.33 (floor; Eve has no opponent), GW 1, OGW 0.33
    assert [(s.player, s.rank) for s in table] == [("Ann", 1), ("Eve", 1), ("Dan", 3),
                                                    ("Cat", 4), ("Bob", 5)]
    # Bob is lowest and has had no bye; Ann–Eve would leave the rematch Dan–Cat
    assert pairing(event, table) == Pairing([("Ann", "Dan"), ("Eve", "Cat")], "Bob")


def test_a_player_who_had_a_bye_is_passed_over_for_the_next_bye():
    event = duels(["a", "b", "c"], [Round([match("a", "b", ["a"])], byes=["c"])])
    table = ranked(event)
    assert [s.player for s in table] == ["a", "c", "b"]
    assert pairing(event, table) == Pairing([("a", "c")], "b")
    event = duels(["a", "b", "c"], [*event.rounds, Round([match("a", "c", ["c"])], byes=["b"])])
    # b and c have had a bye each: a gets this one
    found = pairing(event, ranked(event))
    assert found is not None and found.bye == "a"


def test_no_pairing_left_without_a_rematch_is_none():
    event = duels(["a", "b"], [Round([match("a", "b", ["a"])])])
    assert pairing(event, ranked(event)) is None


@pytest.mark.parametrize("rounds, path, why", [
    ([Round([match("Ann", "Zed", ["Ann"])])], "rounds.0.matches.0.players", "not one of"),
    ([Round([match("Ann", "Bob", ["Ann"])], byes=["Ann"])], "rounds.0.byes", "at most once"),
    ([Round([], drops=["Bob"]), Round([match("Ann", "Bob", ["Ann"])])],
     "rounds.1.matches.0.players", "never after dropping"),
    ([Round([match("Bob", "Cat", ["Cat"]), match("Ann", "ann", ["Ann"])])],
     "rounds.0.matches.1.players", "cannot meet themself"),
])
def test_a_tournament_that_cannot_have_happened_is_refused_naming_the_field(rounds, path, why):
    with pytest.raises(MalformedInput) as refused:
        duels(PLAYERS, rounds)
    assert list(refused.value.errors) == [path] and why in refused.value.errors[path][0]
