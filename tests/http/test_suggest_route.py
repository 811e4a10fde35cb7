"""``POST /v1/games/{game}/suggest``: a bot's move now (issue 15, item 4's synchronous form).

Every answer is checked against ``openapi.yaml`` by the ``real_api`` fixture.
"""

from __future__ import annotations

from typing import Any

import pytest

from service import limits
from service.games.registry import GAME_IDS, get_game
from service.openapi import game_examples


def without_time(answer: dict[Any, Any]) -> dict[Any, Any]:
    return {k: v for k, v in answer.items() if k != "cpu_ms"}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_ranks_exactly_the_players_legal_actions_and_repeats_for_a_seed(real_api, game_id):
    request, _ = game_examples(get_game(game_id))["suggest"]
    state, player = request["state"], request["params"]["player"]
    first = real_api.post(f"/v1/games/{game_id}/suggest", json=request)
    assert first.status_code == 200, first.json
    answer = first.json
    listed = real_api.post(f"/v1/games/{game_id}/legal-actions",
                           json={"state": state, "player": player}).json["actions"]
    assert sorted(map(repr, (r["action"] for r in answer["actions"]))) == \
        sorted(map(repr, listed))
    assert answer["player"] == player and answer["game"] == game_id
    assert answer["iterations"] == 16 == sum(r["visits"] for r in answer["actions"])
    assert answer["best"] == answer["actions"][0]["action"] == \
        answer["principal_line"][0]["action"]
    for row in answer["actions"]:
        if row["visits"]:
            low, high = row["ci95"]
            assert 0 <= low <= row["mean"] <= high <= 1
    assert answer["cpu_ms"] > 0
    again = real_api.post(f"/v1/games/{game_id}/suggest", json=request).json
    assert without_time(again) == without_time(answer)


def test_a_time_budget_alone_answers_within_it(real_api):
    request, _ = game_examples(get_game("kozyablo"))["suggest"]
    params = {"player": request["params"]["player"], "iterations": limits.SYNC_MAX_ITERATIONS,
              "milliseconds": 30}
    r = real_api.post("/v1/games/kozyablo/suggest", json={"state": request["state"],
                                                          "params": params})
    assert r.status_code == 200, r.json
    assert 0 < r.json["iterations"] < limits.SYNC_MAX_ITERATIONS
    assert isinstance(r.json["seed"], int)


@pytest.mark.parametrize("params, field", [
    ({}, "params.player"),
    ({"milliseconds": limits.SYNC_MAX_MILLISECONDS + 1}, "params.milliseconds"),
    ({"iterations": limits.SYNC_MAX_ITERATIONS + 1}, "params.iterations"),
    ({"chunk_size": 4}, "params.chunk_size"),
    ({"exploration": "much"}, "params.exploration"),
    ({"rollout": "clever"}, "params.rollout"),
    ({"player": 9}, "params.player"),  # no such seat (the typed document says so too)
])
def test_refusals_name_the_field(real_api, params, field):
    request, _ = game_examples(get_game("raiders"))["suggest"]
    if params and field != "params.player":  # the pending player, and one wrong field
        params = {"player": request["params"]["player"], **params}
    r = real_api.post("/v1/games/raiders/suggest", json={"state": request["state"],
                                                         "params": params})
    assert r.status_code == 400, r.json
    assert field in r.json["errors"], r.json


def test_a_player_without_a_decision_is_refused_in_their_language(real_api):
    """Ranking the moves of a seat that is not to act breaks the turn order, as an
    action it sent would (RAI-5a): 422 citing the clause, in the reader's language."""
    request, _ = game_examples(get_game("raiders"))["suggest"]
    waiting = 1 - request["params"]["player"]
    r = real_api.post("/v1/games/raiders/suggest", headers={"Accept-Language": "ru"},
                      json={"state": request["state"], "params": {"player": waiting}})
    assert r.status_code == 422, r.json
    assert r.json["rule"] == "RAI-5a"
    assert r.json["detail"] == f"игроку {waiting} сейчас нечего решать"


def test_a_state_of_another_game_is_refused(real_api):
    request, _ = game_examples(get_game("tremble"))["suggest"]
    r = real_api.post("/v1/games/raiders/suggest", json=request)
    assert r.status_code == 400 and "state.game" in r.json["errors"], r.json


def test_a_game_without_determinize_offers_no_suggestions(api):
    """The fake game of the HTTP tests implements no ``determinize``: 404, not a 500."""
    state = api.post("/v1/games/pebbles/new", json={"players": 2, "seed": 1}).json["state"]
    r = api.post("/v1/games/pebbles/suggest", json={"state": state, "params": {"player": 0}})
    assert r.status_code == 404 and r.json["type"] == "/problems/not-found", r.json
    assert "determinize" in r.json["detail"]
