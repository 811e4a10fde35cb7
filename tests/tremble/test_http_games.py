"""Tremble end to end over HTTP, every response checked against openapi.yaml.

Seeded random games picking only listed actions (server and table chance),
views for every seat on the way, the final score, and replay of the game.
"""

from __future__ import annotations

import random

import pytest

import card_db
from service.games import registry
from service.games.objects import ActionObject, JsonObject
from tests.http.conftest import Api

SETUPS = [(2, {"missions": False, "chance": "table"}, 11), (3, {}, 12), (4, {}, 13)]


@pytest.fixture
def real_api():
    from service.app import create_app

    card_db.clear_cache()
    return Api(create_app({"TESTING": True}))


def play(api: Api, players: int, options: JsonObject, seed: int
         ) -> tuple[JsonObject, JsonObject, list[ActionObject]]:
    rng = random.Random(seed)
    setup = {"players": players, "options": options, "seed": seed}
    state: JsonObject = api.post("/v1/games/tremble/new", json=setup).json["state"]
    actions: list[ActionObject] = []
    steps = 0
    while not state["result"]:
        listed = api.post("/v1/games/tremble/legal-actions", json={"state": state}).json
        assert listed["actions"], f"nothing listed at step {steps}"
        if any(p["decision"] == "plan" for p in listed["pending"]):
            planner = str(listed["pending"][0]["player"])
            assert listed["constraints"][planner]["max_ships_per_city"] == 2
        action = rng.choice(listed["actions"])
        if steps % 25 == 0:
            for seat in (None, *range(players)):
                view = api.post("/v1/games/tremble/view", json={"state": state, "player": seat})
                assert view.status_code == 200 and "seed" not in view.json["view"]["chance"]
        applied = api.post("/v1/games/tremble/apply", json={"state": state, "action": action})
        assert applied.status_code == 200, (steps, action, applied.json)
        state = applied.json["state"]
        actions.append({k: v for k, v in action.items() if k != "probability"})
        steps += 1
        assert steps < 5000
    return setup, state, actions


@pytest.mark.parametrize("players,options,seed", SETUPS)
def test_tre_28_seeded_random_tremble_games_over_http(real_api, players, options, seed):
    """TRE-28: the game ends when the city deck is played out; replay agrees."""
    assert "tremble" in registry.GAME_IDS
    setup, final, actions = play(real_api, players, options, seed)
    outcome = real_api.post("/v1/games/tremble/score", json={"state": final}).json
    assert outcome["finished"] is True and outcome["winners"]
    if options.get("missions", True):
        assert all("missions" in s["breakdown"] for s in outcome["scores"])
    replayed = real_api.post("/v1/games/tremble/replay", json={"setup": setup, "actions": actions})
    assert replayed.status_code == 200 and replayed.json["state"] == final


def test_tre_14_illegal_order_is_422_naming_the_clause_and_changes_nothing(real_api):
    """TRE-14: a plan naming a ship not in hand → 422 with the clause."""
    state = real_api.post("/v1/games/tremble/new",
                          json={"players": 2, "seed": 4, "options": {"missions": False}}).json["state"]
    while state["phase"] != "plan":
        listed = real_api.post("/v1/games/tremble/legal-actions", json={"state": state}).json
        state = real_api.post("/v1/games/tremble/apply",
                              json={"state": state, "action": listed["actions"][0]}).json["state"]
    bad = {"type": "plan", "player": 0, "orders": [{"ship": "S-CRUISER#4", "slot": 1}]}
    r = real_api.post("/v1/games/tremble/apply", json={"state": state, "action": bad})
    assert r.status_code == 422 and r.json["rule"] == "TRE-14"
    check = real_api.post("/v1/games/tremble/check", json={"state": state, "action": bad}).json
    assert check == {"legal": False, "rule": "TRE-14", "reason": r.json["detail"]}
    ok = {"type": "plan", "player": 0, "orders": []}
    assert real_api.post("/v1/games/tremble/apply",
                         json={"state": state, "action": ok}).status_code == 200
