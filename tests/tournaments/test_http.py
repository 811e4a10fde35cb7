"""``POST /v1/tournaments/standings`` verifies every game before it counts, and
``POST /v1/games/{game}/apply-chance`` enters a dealt hand in one call; the console's
files are served at ``/console``."""

from __future__ import annotations

from typing import Any

import pytest

from service.app import create_app
from tests.tournaments.played import played_game, winners

KEY = "tournament-test-key"


@pytest.fixture
def signed_client():
    return create_app({"TESTING": True, "STATE_KEYS": KEY}).test_client()


def seed_won_by(seat: int, start: int = 1) -> int:
    return next(s for s in range(start, start + 200) if winners(s) == (seat,))


def one_match(game: dict[Any, Any], players=("Ann", "Bob")) -> dict[Any, Any]:
    return {"players": list(players),
            "rounds": [{"matches": [{"players": list(players), "games": [game]}]}]}


def test_replayed_games_decide_the_matches(client):
    a, b = seed_won_by(0), seed_won_by(1)
    body = {"players": ["Ann", "Bob", "Cat", "Dan", "Eve"], "rounds": [{"matches": [
        {"players": ["Ann", "Bob"], "games": [played_game(a)]},   # seat 0 (Ann) wins
        {"players": ["Cat", "Dan"], "games": [played_game(b, ("Cat", "Dan"))]},  # Dan wins
    ], "byes": ["Eve"]}]}
    r = client.post("/v1/tournaments/standings", json=body)
    assert r.status_code == 200, r.json
    points = {line["player"]: line["match_points"] for line in r.json["standings"]}
    assert points == {"Ann": 3, "Bob": 0, "Cat": 0, "Dan": 3, "Eve": 3}
    assert r.json["games_verified"] == 2
    lowest = r.json["standings"][-1]["player"]  # Bob or Cat, by their game-win %
    assert r.json["next_round"]["round"] == 2 and r.json["next_round"]["bye"] == lowest


def test_an_illegal_step_in_a_reported_game_is_a_422_naming_the_game(client):
    game = played_game(seed_won_by(0))
    game["actions"].insert(3, {**game["actions"][0]})  # the first action again, out of place
    r = client.post("/v1/tournaments/standings", json=one_match(game))
    assert r.status_code == 422
    assert r.json["index"] == 3 and r.json["rule"].startswith("RAI-")
    assert r.json["at"] == "rounds.0.matches.0.games.0" and r.json["rule_text"]


def test_an_unfinished_game_is_no_result(client):
    game = played_game(seed_won_by(0))
    game["actions"] = game["actions"][:5]
    r = client.post("/v1/tournaments/standings", json=one_match(game))
    assert r.status_code == 422 and r.json["type"] == "/problems/invalid-tournament"
    assert r.json["errors"] == {"rounds.0.matches.0.games.0": ["the game is not finished"]}


def test_a_signed_result_counts_and_an_altered_or_unsigned_one_does_not(signed_client, client):
    game = played_game(seed_won_by(1))
    replayed = signed_client.post("/v1/games/raiders/replay",
                                  json={"setup": game["setup"], "actions": game["actions"]})
    state = replayed.json["state"]
    assert state["signature"].startswith("hmac-sha256:")
    r = signed_client.post("/v1/tournaments/standings",
                           json=one_match({"game": "raiders", "state": state}))
    assert r.status_code == 200
    assert [line["player"] for line in r.json["standings"]] == ["Bob", "Ann"]
    altered = {**state, "turn": state["turn"] + 1}
    r = signed_client.post("/v1/tournaments/standings",
                           json=one_match({"game": "raiders", "state": altered}))
    assert r.status_code == 403 and r.json["type"] == "/problems/bad-signature"
    bare = {k: v for k, v in state.items() if k != "signature"}
    r = signed_client.post("/v1/tournaments/standings",
                           json=one_match({"game": "raiders", "state": bare}))
    assert r.status_code == 400 and r.json["type"] == "/problems/unsigned-state"
    r = client.post("/v1/tournaments/standings",  # a server without keys trusts no state
                    json=one_match({"game": "raiders", "state": state}))
    assert r.status_code == 400 and r.json["type"] == "/problems/unsigned-state"


def test_an_exported_result_with_its_replay_and_extra_fields_is_accepted(client):
    game = {**played_game(seed_won_by(0)), "outcome": {"finished": True}, "signed": False}
    r = client.post("/v1/tournaments/standings", json=one_match(game))
    assert r.status_code == 200 and r.json["standings"][0]["player"] == "Ann"


@pytest.mark.parametrize("body, field", [
    ({"players": ["Ann"], "rounds": []}, "players"),
    ({"players": ["Ann", "Bob"], "rounds": [{"matches": [{"players": ["Ann"], "games": []}]}]},
     "rounds.0.matches.0.players"),
    ({"players": ["Ann", "Bob"], "rounds": [{"matches": [
        {"players": ["Ann", "Bob"], "games": [{"game": "raiders"}]}]}]},
     "rounds.0.matches.0.games.0"),
])
def test_a_malformed_tournament_is_a_400_naming_the_field(client, body, field):
    r = client.post("/v1/tournaments/standings", json=body)
    assert r.status_code == 400 and field in r.json["errors"], r.json


@pytest.mark.parametrize("body, field", [
    ({"players": ["Ann", "Ann"], "rounds": []}, "players.1"),
    ({"players": ["Ann", "Bob"], "rounds": [{"matches": [], "byes": ["Zed"]}]}, "rounds.0.byes"),
    ({"players": ["Ann", "Bob"], "rounds": [{"matches": [], "drops": ["Bob"]},
                                             {"matches": [], "byes": ["Bob"]}]}, "rounds.1.byes"),
])
def test_rounds_that_cannot_have_happened_are_a_422_naming_the_field(client, body, field):
    r = client.post("/v1/tournaments/standings", json=body, headers={"Accept-Language": "ru"})
    assert r.status_code == 422 and r.json["type"] == "/problems/invalid-tournament"
    assert list(r.json["errors"]) == [field]
    assert r.headers["Content-Language"] == "ru" and r.json["title"] != "Invalid tournament"


def test_a_hand_is_dealt_in_one_call(client):
    from service.http.table import chance_batch_example as example

    body = example()
    r = client.post("/v1/games/raiders/apply-chance", json=body)
    assert r.status_code == 200
    assert [step["index"] for step in r.json["events"]] == list(range(6))
    one_by_one = body["state"]
    for outcome in body["outcomes"]:
        one_by_one = client.post("/v1/games/raiders/apply",
                                 json={"state": one_by_one, "action": outcome}).json["state"]
    assert r.json["state"] == one_by_one


def test_an_impossible_card_stops_the_batch_at_its_index(client):
    from service.http.table import chance_batch_example as example

    body = example()
    body["outcomes"][4] = body["outcomes"][1]  # the same card twice
    r = client.post("/v1/games/raiders/apply-chance", json=body)
    assert r.status_code == 422 and r.json["index"] == 4 and r.json["rule"] == "RAI-4"


def test_a_players_decision_is_not_a_chance_outcome(client):
    from service.http.table import chance_batch_example as example

    body = example()
    body["outcomes"][2] = {"type": "end_turn", "player": 0}
    r = client.post("/v1/games/raiders/apply-chance", json=body)
    assert r.status_code == 400 and list(r.json["errors"]) == ["outcomes.2.player"]


def test_the_console_is_served_with_its_files(client):
    page = client.get("/console")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert 'src="/console/console.js"' in page.text
    assert "connect-src 'self'" in page.headers["Content-Security-Policy"]
    for name, mime in [("console.js", "text/javascript"), ("console.css", "text/css"),
                       ("i18n.js", "text/javascript"), ("chart.js", "text/javascript"),
                       ("api.js", "text/javascript")]:
        r = client.get(f"/console/{name}")
        assert r.status_code == 200 and r.mimetype == mime, name
    r = client.get("/console/secret.py")
    assert r.status_code == 404 and r.mimetype == "application/problem+json"
