"""``service.tournaments.events``: placement points, pod standings and the next round.

The two-seat case with the default points is the Swiss of 1.0.0 (its engine kept as
``swiss_oracle``: ``test_a_duel_event_is_the_swiss_standings``, on random tournaments); pods share
places, draw, take byes only when no table size fits, and seat players of similar
standing together with as few repeat opponents as the search finds (``test_pods``).
"""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from service.games.errors import MalformedInput
from service.tournaments.events import (
    Entry,
    Round,
    Settings,
    Table,
    TournamentEvent,
    evaluate,
    game_places,
    met_before,
    placement_points,
    standings,
    table_places,
    table_plan,
)
from tests.tournaments import swiss_oracle as swiss

POD = Settings(table_size=4)


def pod_round(*tables: tuple[str, ...], byes=(), drops=()) -> Round:
    """Tables whose players finished in the order listed (1, 2, 3…)."""
    return Round([Table(list(t), [list(range(1, len(t) + 1))]) for t in tables],
                 list(byes), list(drops))


# ------------------------------------------------------------------- the duel case is Swiss
def random_swiss(rng: random.Random, count: int, rounds: int) -> tuple[list[str], list[swiss.Round]]:
    players = [f"p{i}" for i in range(count)]
    out = []
    for _ in range(rounds):
        order = players[:]
        rng.shuffle(order)
        byes = [order.pop()] if len(order) % 2 else []
        matches = []
        for a, b in zip(order[::2], order[1::2], strict=True):
            games = [rng.choice([a, b, None]) for _ in range(rng.choice([1, 1, 2, 3]))]
            matches.append(swiss.Match((a, b), games))
        out.append(swiss.Round(matches, byes))
    return players, out


def as_event(players: list[str], rounds: list[swiss.Round]) -> TournamentEvent:
    def places(match: swiss.Match, winner: str | None) -> list[int]:
        return [1, 1] if winner is None else [1, 2] if winner == match.players[0] else [2, 1]

    return TournamentEvent(list(players), Settings(table_size=2), [
        Round([Table(list(m.players), [places(m, w) for w in m.games]) for m in rnd.matches],
              rnd.byes, rnd.drops) for rnd in rounds])


@pytest.mark.parametrize("seed", range(12))
def test_a_duel_event_is_the_swiss_standings(seed):
    rng = random.Random(seed)
    players, rounds = random_swiss(rng, rng.randint(4, 13), rng.randint(1, 5))
    old = swiss.standings(players, rounds)
    new = standings(as_event(players, rounds))
    assert [(s.player, s.rank) for s in old] == [(s.player, s.rank) for s in new]
    for was, now in zip(old, new, strict=True):
        assert (F(was.match_points), was.omw, was.gw, was.ogw) == \
            (now.points, now.opponents_share, now.game_share, now.opponents_game_share)
        assert (was.games, F(was.game_points), was.opponents) == \
            (now.games, now.game_points, now.opponents)


@pytest.mark.parametrize("seed", range(6))
def test_a_duel_event_pairs_as_swiss_does_without_a_bye(seed):
    rng = random.Random(100 + seed)
    players, rounds = random_swiss(rng, 2 * rng.randint(3, 6), rng.randint(1, 3))
    old = swiss.next_round(swiss.standings(players, rounds), rounds)
    _, proposal = evaluate(as_event(players, rounds))
    assert old is not None and proposal is not None
    assert [tuple(t) for t in proposal.tables] == old.pairs and proposal.repeats == 0


# ------------------------------------------------------------------------ places and points
def test_a_game_ranks_its_winners_first_then_by_score():
    outcome = {"winners": [3], "scores": [{"total": 4}, {"total": 9}, {"total": 4},
                                          {"total": 2}]}
    assert game_places(outcome) == [3, 2, 3, 1]  # the winner first, whatever its total


def test_shared_places_share_their_points_and_a_whole_table_tied_is_a_draw():
    assert placement_points([1, 2, 2, 4], POD) == [3, F(3, 2), F(3, 2), 0]
    assert placement_points([2, 1, 2], POD) == [F(1, 2), 3, F(1, 2)]
    assert placement_points([1, 1, 1, 1], POD) == [1, 1, 1, 1]
    custom = Settings(table_size=4, points={4: (F(5), F(3), F(1), F(0))}, draw=F(2))
    assert placement_points([4, 3, 2, 1], custom) == [0, 1, 3, 5]
    assert placement_points([1, 1], custom) == [2, 2]


def test_a_table_of_several_games_ranks_by_players_beaten():
    assert table_places([[1, 2], [1, 2], [2, 1]]) == [1, 2]  # 2-1 in games
    assert table_places([[1, 2, 3], [3, 2, 1]]) == [1, 1, 1]  # 2 beaten each
    assert table_places([[1, 2, 3], [2, 1, 3]]) == [1, 1, 3]


def test_pod_standings_break_ties_by_opponents_share():
    r1 = pod_round(("Ann", "Bob", "Cat", "Dan"), ("Eve", "Fay", "Gus", "Hal"))
    r2 = pod_round(("Bob", "Cat", "Ann", "Eve"), ("Fay", "Dan", "Gus", "Hal"))
    table = standings(TournamentEvent(["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"], POD,
                            [r1, r2]))
    line = {s.player: s for s in table}
    assert {p: s.points for p, s in line.items()} == {
        "Ann": 4, "Bob": 5, "Cat": 3, "Dan": 2, "Eve": 3, "Fay": 5, "Gus": 2, "Hal": 0}
    # Bob and Fay tie on 5; Bob met stronger players (Hal, on 0, counts as the floor)
    assert line["Bob"].opponents_share == F(4 + 3 + 2 + 3 + 4 + 3, 6 * 6)
    assert line["Fay"].opponents_share == (F(1, 2) + F(1, 3) + F(33, 100) + F(1, 3) + F(1, 3)
                                           + F(33, 100)) / 6
    assert [s.player for s in table[:2]] == ["Bob", "Fay"] and table[1].rank == 2
    assert line["Ann"].places == [1, 3] and line["Ann"].possible == 6


# ------------------------------------------------------------------------------ the rounds
def test_the_tables_fit_the_count_and_byes_only_when_no_size_fits():
    assert table_plan(23, POD) == ([4, 4, 4, 4, 4, 3], 0)
    assert table_plan(37, POD) == ([5, 4, 4, 4, 4, 4, 4, 4, 4], 0)
    assert table_plan(6, POD) == ([3, 3], 0)
    assert table_plan(2, POD) == ([], 2)  # no table of 3 to 5 seats two
    assert table_plan(7, Settings(table_size=2)) == ([2, 2, 2], 1)
    assert table_plan(9, Settings(table_size=4, table_sizes=(4,))) == ([4, 4], 1)
    kozyablo = Settings(table_size=4, seats=(2, 4))
    assert table_plan(9, kozyablo) == ([3, 3, 3], 0)


@pytest.mark.parametrize(("rounds", "field"), [
    ([pod_round(("a", "b", "c"), drops=["c"]), pod_round(("a", "b", "c"))],
     "rounds.1.tables.0.players.2"),
    ([pod_round(("a", "b", "c", "a"))], "rounds.0.tables.0.players.3"),
    ([pod_round(("a", "b", "late"))], "rounds.0.tables.0.players.2"),
    ([pod_round(("a", "b", "stranger"))], "rounds.0.tables.0.players.2"),
])
def test_rounds_that_cannot_have_happened_are_refused_naming_the_field(rounds, field):
    with pytest.raises(MalformedInput) as caught:
        standings(TournamentEvent(["a", "b", "c", Entry("late", joins=2)], POD, rounds))
    assert list(caught.value.errors) == [field]


def test_a_late_entry_is_seated_from_its_round():
    event = TournamentEvent(["a", "b", "c", Entry("late", joins=2)], POD, [pod_round(("a", "b", "c"))])
    lines, proposal = evaluate(event)
    assert proposal is not None and sorted(proposal.tables[0]) == ["a", "b", "c", "late"]
    assert {s.player: s.joins for s in lines}["late"] == 2


def test_the_next_round_has_the_fewest_repeats_and_names_them():
    r1 = pod_round(("a", "b", "c", "d"), ("e", "f", "g", "h"))
    lines, proposal = evaluate(TournamentEvent(list("abcdefgh"), POD, [r1]))
    assert proposal is not None
    # any two tables of four hold two pairs of each first-round table: 4 is the least
    assert proposal.repeats == 4
    for players, why in zip(proposal.tables, proposal.explanations, strict=True):
        assert len(why["repeats"]) == 2 and all(r["rounds"] == [1] for r in why["repeats"])
        assert "met in round 1" in why["why"]
    assert sorted(p for t in proposal.tables for p in t) == list("abcdefgh")


def test_a_dropped_player_is_never_seated_again_and_byes_go_to_the_lowest():
    r1 = pod_round(("a", "b", "c", "d"), ("e", "f", "g", "h"), drops=["a"])
    settings = Settings(table_size=4, table_sizes=(4,))
    lines, proposal = evaluate(TournamentEvent(list("abcdefgh"), settings, [r1]))
    assert proposal is not None
    seated = [p for t in proposal.tables for p in t]
    assert "a" not in seated and len(seated) == 4
    assert [b["player"] for b in proposal.byes] == ["h", "d", "g"]  # the lowest first
    assert all("no table sizes (4) seat all 7" in b["why"] for b in proposal.byes)


def test_sixteen_players_in_pods_reach_the_proven_least_repeats_in_six_rounds():
    """16 players, tables of 4, 6 rounds: each meets 18 opponents among 15 others, so
    at least 3 meetings of each are repeats, 16 × 3 / 2 = 24 in all (docs/tournaments.md)."""
    rng = random.Random(5)
    event = TournamentEvent([f"p{i}" for i in range(16)], POD, [])
    for _ in range(6):
        _, proposal = evaluate(event)
        assert proposal is not None
        tables = []
        for players in proposal.tables:
            places = list(range(1, len(players) + 1))
            rng.shuffle(places)
            tables.append(Table(players, [places]))
        event.rounds.append(Round(tables))
    assert sum(len(r) - 1 for r in met_before(event.rounds).values()) == 24
