"""Raiders end to end over HTTP, picking only listed actions (issue 2).

Every response is checked against openapi.yaml by the ``real_api`` fixture.
"""

from __future__ import annotations

import random

import pytest

from service.games import registry
from service.games.objects import ActionObject, JsonObject
from tests.http.conftest import Api

SETUPS = [
    (2, {"turn_limit": 25}, 1),
    (3, {"turn_limit": 25, "short_game": True}, 2),
    (4, {"turn_limit": 20, "chance": "table"}, 3),
    (5, {"turn_limit": 15}, 4),
    (6, {"turn_limit": 12, "illegal_play": "fizzle"}, 5),
]


def play(api: Api, players: int, options: JsonObject, seed: int, rng: random.Random
         ) -> tuple[JsonObject, JsonObject, list[ActionObject]]:
    setup = {"players": players, "options": options, "seed": seed}
    r = api.post("/v1/games/raiders/new", json=setup)
    assert r.status_code == 200, r.json
    state: JsonObject = r.json["state"]
    actions: list[ActionObject] = []
    steps = 0
    while not state["result"]:
        listed = api.post("/v1/games/raiders/legal-actions", json={"state": state})
        assert listed.status_code == 200, listed.json
        assert listed.json["actions"], f"nothing listed at step {steps} but the game is not over"
        action = rng.choice(listed.json["actions"])
        if steps % 15 == 0:
            check = api.post("/v1/games/raiders/check", json={"state": state, "action": action})
            assert check.json == {"legal": True}, check.json
            for seat in (None, *range(players)):
                view = api.post("/v1/games/raiders/view", json={"state": state, "player": seat})
                assert view.status_code == 200 and view.json["view"]["view"] == {"player": seat}
                assert "seed" not in view.json["view"]["chance"]
        applied = api.post("/v1/games/raiders/apply", json={"state": state, "action": action})
        assert applied.status_code == 200, (steps, action, applied.json)
        state = applied.json["state"]
        assert applied.json["outcome"] == api.post("/v1/games/raiders/score",
                                                   json={"state": state}).json
        actions.append(action)
        steps += 1
        assert steps < 5000, "the game did not end"
    return setup, state, actions


@pytest.mark.parametrize("players,options,seed", SETUPS)
def test_seeded_random_raiders_games_over_http(real_api, players, options, seed):
    assert "raiders" in registry.GAME_IDS
    setup, final, actions = play(real_api, players, options, seed, random.Random(seed))
    outcome = real_api.post("/v1/games/raiders/score", json={"state": final}).json
    assert outcome["finished"] is True
    replayed = real_api.post("/v1/games/raiders/replay", json={"setup": setup, "actions": actions})
    assert replayed.status_code == 200, replayed.json
    assert replayed.json["state"] == final
    assert len(replayed.json["events"]) == len(actions) + 1


def test_raiders_illegal_action_is_422_naming_the_clause(real_api):
    state = real_api.post("/v1/games/raiders/new", json={"players": 3, "seed": 8}).json["state"]
    listed = real_api.post("/v1/games/raiders/legal-actions", json={"state": state}).json
    action = next(a for a in listed["actions"] if a["player"] != "chance")
    seat = action["player"]
    wrong = {**action, "player": (seat + 1) % 3}
    r = real_api.post("/v1/games/raiders/apply", json={"state": state, "action": wrong})
    assert r.status_code == 422 and r.mimetype == "application/problem+json"
    assert r.json["rule"].startswith("RAI-") and r.json["detail"]
    check = real_api.post("/v1/games/raiders/check", json={"state": state, "action": wrong}).json
    assert check == {"legal": False, "rule": r.json["rule"], "reason": r.json["detail"]}
    # nothing changed: the same state still takes the listed action
    assert real_api.post("/v1/games/raiders/apply",
                         json={"state": state, "action": action}).status_code == 200


def test_raiders_replay_with_an_illegal_step_is_422_with_index(real_api):
    setup, _, actions = play(real_api, 3, {"turn_limit": 6}, 9, random.Random(9))
    before = real_api.post("/v1/games/raiders/replay", json={"setup": setup, "actions": actions[:3]})
    pending = {p["player"] for p in before.json["state"]["pending"]}
    idle = next(seat for seat in range(3) if seat not in pending)
    bad = [*actions[:3], {**actions[3], "player": idle}, *actions[4:]]
    r = real_api.post("/v1/games/raiders/replay", json={"setup": setup, "actions": bad})
    assert r.status_code == 422, r.json
    assert r.json["index"] == 3
    # RAI-26 if the step falls in a capture's response window, else RAI-5a
    assert r.json["rule"] == registry.get_game("raiders").out_of_turn_rule(before.json["state"])


def test_raiders_corrupt_state_is_400(real_api):
    state = real_api.post("/v1/games/raiders/new", json={"players": 2, "seed": 3}).json["state"]
    broken = {**state, "turn": -1}
    r = real_api.post("/v1/games/raiders/legal-actions", json={"state": broken})
    assert r.status_code == 400 and r.json["errors"] == {"state.turn": ["must be at least 0"]}


def test_raiders_reference_cards_filterable(real_api):
    whole = real_api.get("/v1/games/raiders/cards").json
    assert whole["meta"]["reconstructed"] is True
    fighters = whole["cards"]["fighters"]
    suit = fighters[0]["suit"]
    some = real_api.get(f"/v1/games/raiders/cards?suit={suit}").json
    assert some["count"] > 0
    assert all(c.get("suit") == suit for group in some["cards"].values() for c in group)
    assert some["count"] < whole["count"]


def test_raiders_check_reports_a_trick_that_would_fizzle(real_api):
    """RAI-30 ``illegal_play: fizzle``: ``apply`` accepts an illegal trick from a card
    in hand and discards it; ``check`` calls it illegal and names the fizzle
    beforehand, with the clause."""
    new = real_api.post("/v1/games/raiders/new",
                        json={"players": 2, "seed": 15, "options": {"illegal_play": "fizzle"}})
    state = new.json["state"]
    seat = state["pending"][0]["player"]
    card = next(c for c in state["players"][seat]["hand"]
                if not any(a.get("card") == c for a in registry.get_game("raiders")
                           .legal_actions(state, seat) if a["type"] == "play_trick"))
    action = {"type": "play_trick", "player": seat, "card": card}
    check = real_api.post("/v1/games/raiders/check", json={"state": state, "action": action}).json
    assert check["legal"] is False and check["fizzles"] is True
    assert check["rule"].startswith("RAI-") and "no effect" in check["reason"]
    applied = real_api.post("/v1/games/raiders/apply", json={"state": state, "action": action}).json
    fizzled = [e for e in applied["events"] if e["type"] == "fizzled"]
    assert fizzled and fizzled[0]["rule"] == check["rule"]
    assert card in applied["state"]["discard"]
