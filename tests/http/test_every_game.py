"""Every registered game through the generic routes, checked against openapi.yaml.

Catches an engine whose real output does not match the shapes it declares
(events of undeclared types, states outside its state spec…).
"""

from __future__ import annotations

import random

import pytest

from service.games import registry


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_game_round_trip_matches_the_documented_shapes(real_api, game_id):
    info = real_api.get(f"/v1/games/{game_id}").json
    assert info["id"] == game_id and "reference" in info["card_sets"]
    assert game_id in [g["id"] for g in real_api.get("/v1/games").json["games"]]
    cards = real_api.get(f"/v1/games/{game_id}/cards").json
    assert cards["count"] > 0
    rng = random.Random(7)
    players = info["players"]["min"]
    for options in ({}, {"chance": "table"}):
        r = real_api.post(f"/v1/games/{game_id}/new",
                          json={"players": players, "seed": 7, "options": options})
        assert r.status_code == 200, r.json
        state = r.json["state"]
        for _ in range(12):
            if state["result"]:
                break
            listed = real_api.post(f"/v1/games/{game_id}/legal-actions", json={"state": state}).json
            action = rng.choice(listed["actions"])
            assert real_api.post(f"/v1/games/{game_id}/check",
                                 json={"state": state, "action": action}).json == {"legal": True}
            r = real_api.post(f"/v1/games/{game_id}/apply", json={"state": state, "action": action})
            assert r.status_code == 200, r.json
            state = r.json["state"]
        for seat in (None, *range(players)):
            assert real_api.post(f"/v1/games/{game_id}/view",
                                 json={"state": state, "player": seat}).status_code == 200
        assert real_api.post(f"/v1/games/{game_id}/score", json={"state": state}).status_code == 200


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_describe_says_which_action_types_answer_each_decision(real_api, game_id):
    """A bot needs no map of its own: each pending ``decision`` is described
    with the action types that may be sent while it is pending, and the
    random-game contract checks hold every engine to it (tests/contract.py, 9)."""
    info = real_api.get(f"/v1/games/{game_id}").json
    decisions = info["decisions"]
    assert decisions and all(decisions.values())
    assert {t for types in decisions.values() for t in types} == set(info["action_types"])
    rng = random.Random(3)
    state = real_api.post(f"/v1/games/{game_id}/new",
                          json={"players": info["players"]["min"], "seed": 3}).json["state"]
    for _ in range(30):
        if state["result"]:
            break
        listed = real_api.post(f"/v1/games/{game_id}/legal-actions", json={"state": state}).json
        for entry in listed["pending"]:
            assert entry["decision"] in decisions
        for action in listed["actions"]:
            entry = next(e for e in listed["pending"] if e["player"] == action["player"])
            assert action["type"] in decisions[entry["decision"]]
        action = rng.choice(listed["actions"])
        state = real_api.post(f"/v1/games/{game_id}/apply",
                              json={"state": state, "action": action}).json["state"]
