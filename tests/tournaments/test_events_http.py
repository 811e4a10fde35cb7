"""``POST /v1/tournaments/events``: pods verified game by game, as the adversary tries them.

A scorekeeper crediting a game to friends, reusing a game in another round, a hand
placement claiming to be verified, a dropped or late player seated, a table the game
cannot seat, a points table that rises; and an event of 256 players.
"""

from __future__ import annotations

from typing import Any

import pytest

from service.app import create_app
from tests import document
from tests.tournaments.played import played_pod, pod_places

KEY = "tournament-test-key"
URL = "/v1/tournaments/events"
POD = ("Ann", "Bob", "Cat", "Dan")
EIGHT = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def seed_with_a_winner(seats: int = 4) -> int:
    return next(s for s in range(1, 60) if sorted(pod_places(s, seats)) != [1] * seats)


def event(*rounds: dict[Any, Any], players=EIGHT, **settings) -> dict[Any, Any]:
    return {"players": list(players), "settings": {"table_size": 4, **settings},
            "rounds": list(rounds)}


def hand(players, placements) -> dict[Any, Any]:
    return {"players": list(players), "placements": [list(g) for g in placements]}


def test_a_replayed_pod_game_places_its_table(client):
    seed = seed_with_a_winner()
    places = pod_places(seed, 4)
    body = event({"tables": [{"players": list(POD), "games": [played_pod(seed, POD)]},
                             hand(("Eve", "Fay", "Gus", "Hal"), [["Fay"], ["Eve"], ["Gus", "Hal"]])]},
                 game="raiders")
    r = client.post(URL, json=body)
    assert r.status_code == 200, r.json
    first, second = r.json["rounds"][0]["tables"]
    assert first["places"] == list(places) and first["verified"] and len(first["games"]) == 1
    assert second["places"] == [2, 1, 3, 3] and second["points"] == [2, 3, 0.5, 0.5]
    assert second["verified"] is False and second["games"] == []
    lines = {line["player"]: line for line in r.json["standings"]}
    assert lines["Fay"]["unverified_tables"] == 1 and lines["Ann"]["unverified_tables"] == 0
    assert r.json["games_verified"] == 1
    assert r.json["settings"]["points"]["4"] == [3, 2, 1, 0]
    nxt = r.json["next_round"]
    assert nxt["round"] == 2 and [len(t["players"]) for t in nxt["tables"]] == [4, 4]
    assert all(t["explanation"]["why"] for t in nxt["tables"])


def test_the_seats_may_be_listed_in_any_order(client):
    seed = seed_with_a_winner()
    places = dict(zip(POD, pod_places(seed, 4), strict=True))
    table = ["Dan", "cat", "Bob", "ANN"]  # other order, other spellings
    r = client.post(URL, json=event({"tables": [{"players": table,
                                                 "games": [played_pod(seed, POD)]}]},
                                    players=POD))
    assert r.status_code == 200, r.json
    result = r.json["rounds"][0]["tables"][0]
    assert result["players"] == ["Dan", "Cat", "Bob", "Ann"]
    assert result["places"] == [places[p] for p in result["players"]]


def test_a_game_credited_to_friends_is_refused_naming_its_seats(client):
    game = played_pod(seed_with_a_winner(), POD)
    body = event({"tables": [{"players": ["Ann", "Bob", "Cat", "Eve"], "games": [game]}]})
    r = client.post(URL, json=body)
    assert r.status_code == 422 and r.json["type"] == "/problems/invalid-tournament"
    assert list(r.json["errors"]) == ["rounds.0.tables.0.games.0.setup.players"]
    assert "'Dan'" in r.json["errors"]["rounds.0.tables.0.games.0.setup.players"][0]


def test_a_game_of_fewer_seats_than_the_table_is_refused(client):
    game = played_pod(seed_with_a_winner(3), ("Ann", "Bob", "Cat"))
    r = client.post(URL, json=event({"tables": [{"players": list(POD), "games": [game]}]},
                                    players=POD))
    assert r.status_code == 422
    assert list(r.json["errors"]) == ["rounds.0.tables.0.games.0.setup.players"]


def test_a_game_reused_in_another_round_counts_once(client):
    game = played_pod(seed_with_a_winner(), POD)
    body = event({"tables": [{"players": list(POD), "games": [game]}]},
                 {"tables": [{"players": list(POD), "games": [played_pod(seed_with_a_winner(),
                                                                         POD)]}]},
                 players=POD)
    r = client.post(URL, json=body)
    assert r.status_code == 422
    assert r.json["errors"] == {"rounds.1.tables.0.games.0": [
        "this game is already counted at rounds.0.tables.0.games.0: a game counts once per "
        "tournament (the same setup, however it is sent)"]}


def test_a_signed_final_state_counts_as_its_replay_and_not_twice(client):
    signed = create_app({"TESTING": True, "STATE_KEYS": KEY}).test_client()
    game = played_pod(seed_with_a_winner(), POD)
    replayed = signed.post("/v1/games/raiders/replay",
                           json={"setup": game["setup"], "actions": game["actions"]})
    assert replayed.status_code == 200
    state = {"game": "raiders", "state": replayed.json["state"]}
    one = signed.post(URL, json=event({"tables": [{"players": list(POD), "games": [state]}]},
                                      players=POD))
    assert one.status_code == 200, one.json
    assert one.json["rounds"][0]["tables"][0]["places"] == list(pod_places(
        seed_with_a_winner(), 4))
    both = signed.post(URL, json=event({"tables": [{"players": list(POD), "games": [game]}]},
                                       {"tables": [{"players": list(POD), "games": [state]}]},
                                       players=POD))
    assert both.status_code == 422 and list(both.json["errors"]) == ["rounds.1.tables.0.games.0"]
    altered = {**replayed.json["state"], "turn": replayed.json["state"]["turn"] + 1}
    forged = signed.post(URL, json=event(
        {"tables": [{"players": list(POD), "games": [{"game": "raiders", "state": altered}]}]},
        players=POD))
    assert forged.status_code == 403


def test_a_hand_placement_cannot_claim_to_be_verified(client):
    table = {**hand(POD, [["Ann"], ["Bob"], ["Cat"], ["Dan"]]), "verified": True}
    r = client.post(URL, json=event({"tables": [table]}, players=POD))
    assert r.status_code == 400
    assert r.json["errors"] == {"rounds.0.tables.0.verified": ["unknown field"]}


def test_a_table_sends_games_or_placements_not_both(client):
    table = {**hand(POD, [["Ann"], ["Bob"], ["Cat"], ["Dan"]]),
             "games": [played_pod(seed_with_a_winner(), POD)]}
    r = client.post(URL, json=event({"tables": [table]}, players=POD))
    assert r.status_code == 400 and "rounds.0.tables.0.games" in r.json["errors"]


@pytest.mark.parametrize(("placements", "field"), [
    ([["Ann"], ["Bob"], ["Cat"]], "rounds.0.tables.0.placements"),          # Dan left out
    ([["Ann"], ["Bob"], ["Cat"], ["Ann", "Dan"]], "rounds.0.tables.0.placements.3"),
    ([["Ann"], ["Bob"], ["Cat"], ["Eve"]], "rounds.0.tables.0.placements.3"),  # not seated
])
def test_hand_placements_name_each_player_of_the_table_once(client, placements, field):
    r = client.post(URL, json=event({"tables": [hand(POD, placements)]}))
    assert r.status_code == 422 and list(r.json["errors"]) == [field]


def test_a_dropped_player_placed_at_a_table_is_refused(client):
    body = event({"tables": [hand(POD, [["Ann"], ["Bob"], ["Cat"], ["Dan"]])],
                  "drops": ["Dan"]},
                 {"tables": [hand(POD, [["Dan"], ["Bob"], ["Cat"], ["Ann"]])]}, players=POD)
    r = client.post(URL, json=body)
    assert r.status_code == 422 and list(r.json["errors"]) == ["rounds.1.tables.0.players.3"]
    assert "never after dropping" in r.json["errors"]["rounds.1.tables.0.players.3"][0]


@pytest.mark.parametrize(("players", "table", "field"), [
    (POD, ("Ann", "Bob", "Cat", "Zed"), "rounds.0.tables.0.players.3"),     # a stranger
    ([*POD[:3], {"name": "Dan", "joins": 2}], POD, "rounds.0.tables.0.players.3"),  # late
])
def test_a_table_whose_players_are_not_the_rounds_is_refused(client, players, table, field):
    r = client.post(URL, json=event({"tables": [hand(table, [[p] for p in table])]},
                                    players=players))
    assert r.status_code == 422 and list(r.json["errors"]) == [field]


def test_a_table_the_game_cannot_seat_is_refused(client):
    five = ("Ann", "Bob", "Cat", "Dan", "Eve")
    r = client.post(URL, json=event({"tables": [hand(five, [[p] for p in five])]},
                                    game="kozyablo"))
    assert r.status_code == 422
    assert r.json["errors"] == {"rounds.0.tables.0.players": [
        "the game seats 2 to 4 players, not 5"]}
    r = client.post(URL, json=event(game="kozyablo", table_size=5))
    assert r.status_code == 422 and list(r.json["errors"]) == ["settings.table_size"]


def test_a_game_of_another_game_than_the_events_is_refused(client):
    game = played_pod(seed_with_a_winner(), POD)
    r = client.post(URL, json=event({"tables": [{"players": list(POD), "games": [game]}]},
                                    game="tremble"))
    assert r.status_code == 422
    assert list(r.json["errors"]) == ["rounds.0.tables.0.games.0.game"]


@pytest.mark.parametrize(("points", "field"), [
    ({"4": [3, 2, 1]}, "settings.points.4"),
    ({"4": [0, 1, 2, 3]}, "settings.points.4"),
    ({"four": [3, 2, 1, 0]}, "settings.points.four"),
])
def test_a_points_table_must_give_each_place_no_more_than_the_one_before(client, points, field):
    r = client.post(URL, json=event(points=points))
    assert r.status_code == 422 and list(r.json["errors"]) == [field]


def test_custom_points_draws_and_byes(client):
    body = event({"tables": [hand(POD, [["Ann", "Bob", "Cat", "Dan"]])], "byes": ["Eve"]},
                 players=[*POD, "Eve"], points={"4": [5, 2, 1, 0]}, draw=2, bye=4,
                 table_sizes=[4])
    r = client.post(URL, json=body)
    assert r.status_code == 200, r.json
    points = {line["player"]: line["points"] for line in r.json["standings"]}
    assert points == {"Ann": 2, "Bob": 2, "Cat": 2, "Dan": 2, "Eve": 4}
    assert r.json["settings"]["points"]["4"] == [5, 2, 1, 0]
    bye = r.json["next_round"]["byes"]
    assert len(bye) == 1 and bye[0]["player"] != "Eve"  # Eve had one; the lowest without


def test_the_old_standings_shape_still_refuses_a_pod_game(client):
    """``/standings`` stays the two-player Swiss (its contract is 1.0.0's); pods go to
    ``/events``."""
    game = played_pod(seed_with_a_winner(), POD)
    r = client.post("/v1/tournaments/standings", json={
        "players": list(POD), "rounds": [{"matches": [{"players": ["Ann", "Bob"],
                                                       "games": [game]}]}]})
    assert r.status_code == 422
    assert r.json["errors"] == {"rounds.0.matches.0.games.0": ["a match game has two players"]}


def test_an_event_of_256_players_seats_everyone_once(client):
    players = [f"Player {i:03d}" for i in range(256)]
    tables = [hand(players[i:i + 4], [[p] for p in players[i:i + 4]]) for i in range(0, 256, 4)]
    r = client.post(URL, json=event({"tables": tables}, players=players))
    assert r.status_code == 200, r.json
    nxt = r.json["next_round"]
    seated = [p for t in nxt["tables"] for p in t["players"]]
    assert sorted(seated) == players and nxt["byes"] == [] and len(nxt["tables"]) == 64
    assert nxt["repeats"] == 0


def test_the_answer_is_what_the_document_says(client):
    """The answer of the documented example, checked against ``EventResponse`` in
    ``openapi.yaml`` (the declaration in ``schemas/tournaments.py``)."""
    import jsonschema_rs

    from schemas.tournaments import event_example

    doc = document.load()
    operation = doc["paths"]["/v1/tournaments/events"]["post"]
    example = operation["requestBody"]["content"]["application/json"]["example"]
    assert example == event_example()
    r = client.post(URL, json=example)
    assert r.status_code == 200, r.json
    schema = {"$ref": "#/components/schemas/EventResponse", "components": doc["components"]}
    validator = jsonschema_rs.validator_for(schema)
    errors = [f"{list(e.instance_path)}: {e.message}" for e in validator.iter_errors(r.json)]
    assert errors == []
    assert r.json["next_round"]["tables"][0]["explanation"]["seated"] in ("standing", "swapped")
