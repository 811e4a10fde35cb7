"""A fourth game built by README "How it is built" only (a package, its card
data, one registry line), played through the contract checks and over HTTP."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from service.games.playout import random_playout
from tests.contract import check_random_games

SEEDS = range(40)


def test_the_contract_holds_with_the_server_rolling(dice_duel):
    report = check_random_games(dice_duel, [(2, {}, seed) for seed in SEEDS])
    assert report["games"] == len(SEEDS)


def test_the_contract_holds_with_the_table_rolling(dice_duel):
    check_random_games(dice_duel, [(2, {"chance": "table"}, seed) for seed in SEEDS])


def test_games_end_by_a_bank_at_the_target_after_busts(dice_duel):
    events: Counter = Counter()
    for seed in SEEDS:
        state, _ = dice_duel.new_game(2, seed=seed)
        final, actions, _ = random_playout(dice_duel, state, seed=seed)
        assert final["result"]["winners"] == [final["players"].index(
            max(final["players"], key=lambda p: p["bank"]))]
        replayed = state
        for action in actions:
            replayed, happened = dice_duel.apply(replayed, action)
            events.update(e["type"] for e in happened)
    assert events["bust"] and events["banked"] and events["won"] == len(SEEDS)


def test_the_game_cites_its_own_clauses(dice_duel):
    state, _ = dice_duel.new_game(2, seed=1)
    idle = 1 - state["current"]
    assert dice_duel.check(state, {"type": "bank", "player": idle})["rule"] == "DUEL-6"
    table, _ = dice_duel.new_game(2, {"chance": "table"}, seed=1)
    refused = dice_duel.check(table, {"type": "roll", "player": "chance", "dice": [7, 1]})
    assert refused["rule"] == "DUEL-2" and "dice [7, 1] cannot happen" in refused["reason"]


# ---------------------------------------------------------------------- HTTP
@pytest.fixture
def api(dice_duel_alone):
    from service.app import create_app
    from tests.http.conftest import Api  # every answer checked against the spec

    return Api(create_app({"TESTING": True}))


def post(api, verb: str, body: dict[Any, Any]) -> dict[Any, Any]:
    r = api.post(f"/v1/games/dice_duel/{verb}", json=body)
    assert r.status_code == 200, r.get_data(as_text=True)
    return r.json


def test_it_is_served_beside_the_real_games(dice_duel):
    from service.app import create_app

    listed = create_app({"TESTING": True}).test_client().get("/v1/games").json["games"]
    ids = [g["id"] for g in listed]
    assert ids[-1] == "dice_duel" and {"raiders", "tremble", "kozyablo"} <= set(ids)


def test_it_is_listed_and_described(api):
    assert [g["id"] for g in api.get("/v1/games").json["games"]] == ["dice_duel"]
    described = api.get("/v1/games/dice_duel").json
    assert described["decisions"] == {"roll": ["roll"], "bank_or_roll": ["bank", "roll_again"]}
    assert described["card_sets"] == ["reference"]
    cards = api.get("/v1/games/dice_duel/cards?q=white").json
    assert [d["id"] for d in cards["cards"]["dice"]] == ["white"]
    spec = api.spec
    assert "/v1/games/dice_duel/apply" in spec["paths"] and "DiceDuelState" in \
        spec["components"]["schemas"]


def test_a_game_that_takes_no_views_says_so(api):
    """Without ``state_from_view`` a view is refused naming `view` (every real game takes
    views: ``tests/shared/test_state_from_view.py``)."""
    r = api.post("/v1/games/dice_duel/legal-actions", json={"view": {"view": {"player": 0}}})
    assert r.status_code == 400 and "view" in r.json["errors"], r.json
    assert "does not take views" in r.json["errors"]["view"][0]
    assert api.get("/v1/games/dice_duel").json["takes_views"] is False


def test_a_server_game_over_http(api):
    new = post(api, "new", {"players": [{"name": "Ann"}, {"name": "Bob"}], "seed": 5})
    state, actions = new["state"], []
    while state["result"] is None:
        legal = post(api, "legal-actions", {"state": state})["actions"]
        assert {a["type"] for a in legal} == {"bank", "roll_again"}
        action = legal[0] if state["turn_total"] >= 12 else legal[1]  # bank at 12 or more
        assert post(api, "check", {"state": state, "action": action})["legal"] is True
        state = post(api, "apply", {"state": state, "action": action})["state"]
        actions.append(action)
    score = post(api, "score", {"state": state})
    assert score["finished"] and score["winners"] == state["result"]["winners"]
    view = post(api, "view", {"state": state, "player": 1})["view"]
    assert view["players"] == state["players"] and "seed" not in view["chance"]
    replay = post(api, "replay", {"setup": {"players": 2, "seed": 5}, "actions": actions})
    assert replay["state"]["players"][1]["bank"] == state["players"][1]["bank"]
    idle = 1 - new["state"]["current"]
    wrong = api.post("/v1/games/dice_duel/apply",
                     json={"state": new["state"], "action": {"type": "bank", "player": idle}})
    assert wrong.status_code == 422 and wrong.json["rule"] == "DUEL-6"


def test_a_table_game_over_http(api):
    state = post(api, "new", {"players": 2, "options": {"chance": "table"}, "seed": 1})["state"]
    assert state["pending"] == [{"player": "chance", "decision": "roll"}]
    outcomes = post(api, "legal-actions", {"state": state})["actions"]
    assert len(outcomes) == 36 and {o["probability"] for o in outcomes} == {"1/36"}
    after = post(api, "apply", {"state": state, "action": {
        "type": "roll", "player": "chance", "dice": [6, 5]}})
    assert after["state"]["turn_total"] == 11
    assert after["events"][0] == {"type": "rolled", "player": 0, "dice": [6, 5],
                                  "rule": "DUEL-2"}
    bust = post(api, "apply", {"state": state, "action": {
        "type": "roll", "player": "chance", "dice": [1, 4]}})
    assert bust["state"]["current"] == 1 and [e["type"] for e in bust["events"]] == [
        "rolled", "bust", "turn"]


def test_its_own_operation_is_served_and_documented(api):
    assert post(api, "survival", {"rolls": 2}) == {
        "rolls": 2, "survive_exact": "625/1296", "rule": "DUEL-4"}
    assert api.post("/v1/games/dice_duel/survival", json={"rolls": 0}).status_code == 400
    unknown = api.post("/v1/games/dice_duel/survival", json={"rolls": 1, "card_set": "nope"})
    assert unknown.status_code == 404 and unknown.json["type"] == "/problems/unknown-card-set"
    assert api.get("/v1/games/dice_duel/survival").status_code == 405
    documented = api.spec["paths"]["/v1/games/dice_duel/survival"]["post"]
    assert documented["operationId"] == "dice_duel_survival"
    assert documented["responses"]["200"]["content"]["application/json"]["example"][
        "survive_exact"] == "625/1296"


def test_its_own_evaluation_kind_is_served_and_documented(api):
    """The game declares ``dice_duel.survival`` (``evaluation_kinds``); the evaluations
    route runs it, lists it and documents its request, though nothing shared names it."""
    from tests.evaluations.conftest import poll

    kinds = {k["kind"]: k for k in api.get("/v1/evaluations/kinds").json["kinds"]}
    assert kinds["dice_duel.survival"]["games"] == ["dice_duel"]
    assert {"playouts", "suggest"} <= set(kinds)
    accepted = api.post("/v1/evaluations", json={"game": "dice_duel", "kind": "dice_duel.survival",
                                                 "rolls": 2})
    assert accepted.status_code == 202, accepted.json
    done = poll(api, accepted.headers["Location"])
    assert done["status"] == "finished", done
    assert done["result"] == {"rolls": 2, "survive_exact": "625/1296", "rule": "DUEL-4"}
    missing = api.post("/v1/evaluations", json={"game": "dice_duel", "kind": "dice_duel.survival"})
    assert missing.status_code == 400 and "rolls" in missing.json["errors"]
    documented = api.spec["components"]["schemas"]["EvaluationRequestDiceDuelSurvival"]
    assert documented["properties"]["kind"] == {"const": "dice_duel.survival"}
    assert documented["required"] == ["game", "kind", "rolls"]


def test_a_game_declares_only_its_own_kinds(dice_duel, monkeypatch):
    """A game's kind is for that game, and a kind's name is taken once: either mistake
    stops the kinds from loading, naming the kind (never a silent second kind)."""
    from service.evaluations import kinds
    from service.games.registry import get_game
    from tests.extension.dice_duel.evaluations import Survival

    class Elsewhere(Survival):
        games = ("raiders",)

    monkeypatch.setattr(type(dice_duel), "evaluation_kinds", (Elsewhere(),))
    with pytest.raises(TypeError, match="dice_duel.survival' is not for dice_duel"):
        kinds.all_kinds()
    taken = type(get_game("tremble").evaluation_kinds[0])
    monkeypatch.setattr(type(dice_duel), "evaluation_kinds", (
        type("Again", (taken,), {"games": ("dice_duel",)})(),))
    with pytest.raises(TypeError, match="two evaluation kinds named 'tremble.battle_odds'"):
        kinds.all_kinds()
