"""A cheater reports one real game more than once, or as somebody else's.

The attack (issue 22, item 2): one signed Ann–Bob game, won by Ann, reported
to ``POST /v1/tournaments/standings`` as Cat vs Dan, as Bob's win by listing
him first, in rounds 1 and 2 (Ann got 6 points), and three times in one match.

The answer: a game names who sat in each seat (its setup's ``players[].name``,
inside the state the signature or seal covers, or in the replay's setup), and
the standings check those names against the match; each game has a stable id
(``chain.setup``: the digest of its first state, the same for ``new``'s line and
any replay of it), and a tournament counts it once.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.played import played_game, winners
from tests.trust.conftest import call

KEY = "standings-test-key"
FIELD = "rounds.0.matches.0.games.0"


def seed_won_by(seat: int) -> int:
    return next(s for s in range(1, 200) if winners(s) == (seat,))


@pytest.fixture(scope="module")
def server(serve):
    return serve("standings", STATE_KEYS=KEY)


@pytest.fixture(scope="module")
def ann_beats_bob(server) -> tuple[dict[Any, Any], dict[Any, Any]]:
    """The game as its replay and as the signed final state of that replay."""
    replay = played_game(seed_won_by(0), ("Ann", "Bob"))
    r = call(server, "/v1/games/raiders/replay",
             {"setup": replay["setup"], "actions": replay["actions"]})
    assert r.status == 200 and r.json["outcome"]["winners"] == [0]
    return replay, {"game": "raiders", "state": r.json["state"]}


def _standings(server, players, rounds):
    return call(server, "/v1/tournaments/standings", {"players": players, "rounds": rounds})


def _one(match_players, *games):
    return [{"matches": [{"players": list(match_players), "games": list(games)}]}]


@pytest.mark.parametrize("form", [0, 1], ids=["replay", "signed-state"])
def test_the_game_counts_for_the_players_who_sat_at_it(server, ann_beats_bob, form):
    r = _standings(server, ["Ann", "Bob"], _one(("Ann", "Bob"), ann_beats_bob[form]))
    assert r.status == 200, r.json
    assert [(s["player"], s["match_points"]) for s in r.json["standings"]] == [("Ann", 3),
                                                                              ("Bob", 0)]


@pytest.mark.parametrize("form", [0, 1], ids=["replay", "signed-state"])
def test_credited_to_two_other_players_it_is_refused(server, ann_beats_bob, form):
    r = _standings(server, ["Ann", "Bob", "Cat", "Dan"],
                   _one(("Cat", "Dan"), ann_beats_bob[form]))
    assert r.status == 422 and r.type == "/problems/invalid-tournament"
    assert "'Ann', 'Bob'" in r.json["errors"][FIELD][0]


@pytest.mark.parametrize("form", [0, 1], ids=["replay", "signed-state"])
def test_listing_the_loser_first_does_not_make_him_the_winner(server, ann_beats_bob, form):
    r = _standings(server, ["Ann", "Bob"], _one(("Bob", "Ann"), ann_beats_bob[form]))
    assert r.status == 200, r.json
    points = {s["player"]: s["match_points"] for s in r.json["standings"]}
    assert points == {"Ann": 3, "Bob": 0}


def test_a_game_reused_in_a_second_round_is_refused(server, ann_beats_bob):
    rounds = _one(("Ann", "Bob"), ann_beats_bob[1]) + _one(("Ann", "Bob"), ann_beats_bob[1])
    r = _standings(server, ["Ann", "Bob"], rounds)
    assert r.status == 422, r.json
    assert "already counted at rounds.0.matches.0.games.0" in \
        r.json["errors"]["rounds.1.matches.0.games.0"][0]


def test_a_game_listed_three_times_in_one_match_is_refused(server, ann_beats_bob):
    r = _standings(server, ["Ann", "Bob"], _one(("Ann", "Bob"), *[ann_beats_bob[1]] * 3))
    assert r.status == 422
    assert list(r.json["errors"]) == ["rounds.0.matches.0.games.1"]


def test_the_replay_and_the_signed_state_of_one_game_are_one_game(server, ann_beats_bob):
    r = _standings(server, ["Ann", "Bob"], _one(("Ann", "Bob"), *ann_beats_bob))
    assert r.status == 422
    assert "already counted" in r.json["errors"]["rounds.0.matches.0.games.1"][0]


def test_a_game_whose_seats_are_not_named_is_refused(server):
    game = played_game(seed_won_by(0))
    game["setup"]["players"] = 2  # "Player 1" and "Player 2"
    r = _standings(server, ["Ann", "Bob"], _one(("Ann", "Bob"), game))
    assert r.status == 422 and "'Player 1', 'Player 2'" in r.json["errors"][FIELD][0]


def test_a_seat_name_in_another_spelling_is_the_same_player(server):
    game = played_game(seed_won_by(0), ("ＡＮＮ", "bob"))  # fullwidth and lower case
    r = _standings(server, ["Ann", "Bob"], _one(("Ann", "Bob"), game))
    assert r.status == 200, r.json
    assert r.json["standings"][0]["player"] == "Ann"


def test_two_seats_with_one_name_are_refused_at_setup(server):
    r = call(server, "/v1/games/raiders/new",
             {"players": [{"name": "Ann"}, {"name": "ann"}], "seed": 1})
    assert r.status == 422 and r.type == "/problems/invalid-name"
    assert list(r.json["errors"]) == ["players.1.name"]


def test_the_setup_id_is_the_same_for_new_and_for_a_replay_of_it(server):
    replay = played_game(seed_won_by(0), ("Ann", "Bob"))
    setup = replay["setup"]
    started = call(server, "/v1/games/raiders/new", setup).json["state"]["chain"]
    replayed = call(server, "/v1/games/raiders/replay", {"setup": setup, "actions": []})
    assert replayed.json["state"]["chain"]["setup"] == started["setup"]
    assert replayed.json["state"]["chain"]["game"] != started["game"]  # a line of its own
    other = call(server, "/v1/games/raiders/new", {**setup, "seed": setup["seed"] + 1})
    assert other.json["state"]["chain"]["setup"] != started["setup"]
