"""Every /v1/games endpoint, through the fake ``pebbles`` game (see conftest).

Each response is also checked against openapi.yaml by the ``api`` fixture.
"""

from __future__ import annotations

import copy
from typing import Any

import orjson

from service.games.objects import ActionObject, JsonObject
from tests.http.conftest import Api
from tests.wsgi import QuickResponse


def new_game(api: Api, **body: Any) -> JsonObject:
    body.setdefault("players", 2)
    body.setdefault("seed", 5)
    r = api.post("/v1/games/pebbles/new", json=body)
    assert r.status_code == 200, r.json
    state: JsonObject = r.json["state"]
    return state


def post(api: Api, verb: str, **body: Any) -> QuickResponse:
    return api.post(f"/v1/games/pebbles/{verb}", json=body)


def test_list_and_describe_games(api):
    games = api.get("/v1/games").json["games"]
    assert [g["id"] for g in games] == ["pebbles"]
    one = api.get("/v1/games/pebbles").json
    assert one["players"] == {"min": 2, "max": 4}
    assert one["action_types"] == {"take": "Take one or two pebbles from the heap (PEB-1)."}
    assert {o["name"]: o["default"] for o in one["options"]} == {"chance": "server"}
    assert one["card_sets"] == ["reference"]


def test_cards_whole_set(api):
    r = api.get("/v1/games/pebbles/cards")
    assert r.status_code == 200
    body = r.json
    assert body["count"] == 6 and len(body["cards"]["pebbles"]) == 6
    assert body["card_set"]["id"] == "reference" and body["card_set"]["hash"].startswith("sha256:")
    assert body["tables"] == {"bonuses": {"red": 1, "blue": 2}}
    assert body["meta"]["title"] == "Pebbles test set"


def test_cards_filters_combine_and_repeat(api):
    r = api.get("/v1/games/pebbles/cards?color=red&color=blue&polished=true")
    assert [c["id"] for c in r.json["cards"]["pebbles"]] == ["P1", "P3"]
    assert r.json["filters"] == {"color": "red,blue", "polished": "true"}
    r = api.get("/v1/games/pebbles/cards?weight=3")
    assert [c["id"] for c in r.json["cards"]["pebbles"]] == ["P3", "P6"]


def test_cards_name_search_russian_and_english(api):
    r = api.get("/v1/games/pebbles/cards", query_string={"q": "сАпф"})
    assert [c["id"] for c in r.json["cards"]["pebbles"]] == ["P3"]
    r = api.get("/v1/games/pebbles/cards?q=JAD")
    assert [c["id"] for c in r.json["cards"]["pebbles"]] == ["P6"]
    assert r.json["filters"] == {"q": "JAD"}


def test_cards_unknown_filter_field_is_400_naming_it(api):
    r = api.get("/v1/games/pebbles/cards?colour=red")
    assert r.status_code == 400
    assert "query.colour" in r.json["errors"]
    assert "color" in r.json["errors"]["query.colour"][0]
    # `name` is an object, not a scalar field: filter names with q instead
    assert "query.name" in api.get("/v1/games/pebbles/cards?name=Ruby").json["errors"]


def test_cards_unknown_set_is_404(api):
    r = api.get("/v1/games/pebbles/cards?set=nope")
    assert r.status_code == 404
    assert r.json["type"].endswith("/unknown-card-set") and "reference" in r.json["detail"]


def test_new_with_setups_options_and_seed(api):
    r = api.post("/v1/games/pebbles/new", json={
        "players": [{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy"}],
        "options": {"chance": "table"}, "seed": 99})
    state = r.json["state"]
    assert [p["name"] for p in state["players"]] == ["Ann", "Bo", "Cy"]
    assert state["options"] == {"chance": "table"} and state["chance"]["seed"] == 99
    assert r.json["events"] == []


def test_new_same_seed_same_game(api):
    assert new_game(api, seed=1) == new_game(api, seed=1)


def test_new_bad_player_count_and_option_are_400(api):
    r = api.post("/v1/games/pebbles/new", json={"players": 9})
    assert r.status_code == 400 and r.json["type"].endswith("/invalid-options")
    assert "players" in r.json["errors"]
    r = api.post("/v1/games/pebbles/new", json={"players": 2, "options": {"speed": 3}})
    assert r.status_code == 400 and "options.speed" in r.json["errors"]
    r = api.post("/v1/games/pebbles/new", json={"players": 2, "seed": -1})
    assert r.status_code == 400 and "seed" in r.json["errors"]
    r = api.post("/v1/games/pebbles/new", json={"players": 2, "card_set": "nope"})
    assert r.status_code == 400 and "card_set" in r.json["errors"]


def test_legal_actions_lists_pending_actions_and_constraints(api):
    state = new_game(api)
    r = post(api, "legal-actions", state=state)
    assert r.status_code == 200
    seat = state["current"]
    assert r.json["pending"] == [{"player": seat, "decision": "take"}]
    assert len(r.json["actions"]) == 6 + 15
    assert all(a["player"] == seat and a["type"] == "take" for a in r.json["actions"])
    assert r.json["constraints"] == {str(seat): {"take": {"min": 1, "max": 2, "from": "heap"}}}


def test_legal_actions_for_one_player(api):
    state = new_game(api)
    other = 1 - state["current"]
    r = post(api, "legal-actions", state=state, player=other)
    assert r.json["actions"] == [] and "constraints" not in r.json
    r = post(api, "legal-actions", state=state, player=7)
    assert r.status_code == 422 and r.json["type"] == "/problems/no-such-seat"
    assert "player" in r.json["errors"]


def test_every_listed_action_applies(api):
    state = new_game(api)
    for action in post(api, "legal-actions", state=state).json["actions"]:
        r = post(api, "apply", state=state, action=action)
        assert r.status_code == 200, (action, r.json)


def test_apply_returns_state_events_outcome(api):
    state = new_game(api)
    seat = state["current"]
    action = {"type": "take", "player": seat, "cards": ["P1", "P2"]}
    r = post(api, "apply", state=state, action=action)
    assert r.status_code == 200
    assert r.json["events"] == [{"type": "took", "player": seat, "count": 2}]
    assert r.json["state"]["players"][seat]["hand"] == ["P1", "P2"]
    assert r.json["outcome"]["finished"] is False
    assert r.json["outcome"]["scores"][seat]["total"] == 3


def test_illegal_apply_is_422_with_rule_and_changes_nothing(api):
    state = new_game(api)
    before = copy.deepcopy(state)
    seat = state["current"]
    r = post(api, "apply", state=state, action={"type": "take", "player": 1 - seat, "cards": ["P1"]})
    assert r.status_code == 422
    assert r.mimetype == "application/problem+json"
    assert r.json["rule"] == "PEB-3" and r.json["type"] == "/problems/illegal-action"
    assert r.json["title"] == "Illegal action" and r.json["status"] == 422 and r.json["detail"]
    r = post(api, "apply", state=state, action={"type": "take", "player": seat, "cards": ["P9"]})
    assert r.status_code == 422 and r.json["rule"] == "PEB-1"
    assert state == before
    # the service kept nothing: the same state still has the same legal actions
    assert len(post(api, "legal-actions", state=state).json["actions"]) == 21


def test_check_legal_and_illegal_are_200(api):
    state = new_game(api)
    seat = state["current"]
    r = post(api, "check", state=state, action={"type": "take", "player": seat, "cards": ["P1"]})
    assert r.status_code == 200 and r.json == {"legal": True}
    r = post(api, "check", state=state, action={"type": "take", "player": seat, "cards": ["P1", "P1"]})
    assert r.status_code == 200
    assert r.json == {"legal": False, "rule": "PEB-1", "reason": "take one or two different pebbles"}


def test_check_malformed_action_is_400(api):
    state = new_game(api)
    r = post(api, "check", state=state, action={"type": "juggle", "player": 0})
    assert r.status_code == 400 and "action.type" in r.json["errors"]
    r = post(api, "check", state=state, action={"type": "take", "player": 0, "cards": "P1"})
    assert r.status_code == 400 and r.json["errors"] == {"action.cards": ["must be a list"]}


def test_score(api):
    state = new_game(api)
    r = post(api, "score", state=state)
    assert r.status_code == 200
    assert r.json == {"finished": False, "winners": [],
                      "scores": [{"player": i, "total": 0, "breakdown": {"pebbles": 0}} for i in (0, 1)]}


def test_view_hides_other_hands(api):
    state = new_game(api)
    seat = state["current"]
    state = post(api, "apply", state=state,
                 action={"type": "take", "player": seat, "cards": ["P3"]}).json["state"]
    mine = post(api, "view", state=state, player=seat).json["view"]
    theirs = post(api, "view", state=state, player=1 - seat).json["view"]
    spectator = post(api, "view", state=state, player=None).json["view"]
    assert mine["players"][seat]["hand"] == ["P3"]
    assert theirs["players"][seat] == {"name": f"P{seat}", "hand_count": 1}
    assert "P3" not in orjson.dumps(spectator).decode()
    assert "seed" not in theirs["chance"]
    r = post(api, "view", state=state, player=5)
    assert r.status_code == 422 and "player" in r.json["errors"]  # no-such-seat
    r = post(api, "view", state=state)
    assert r.status_code == 400 and r.json["errors"] == {"player": ["missing required field"]}


def test_a_view_is_not_accepted_as_a_state(api):
    state = new_game(api)
    view = post(api, "view", state=state, player=0).json["view"]
    r = post(api, "legal-actions", state=view)
    assert r.status_code == 400 and "state.view" in r.json["errors"]


def play_to_end(api: Api, setup: JsonObject, pick: int = 0) -> tuple[JsonObject, list[ActionObject]]:
    state: JsonObject = api.post("/v1/games/pebbles/new", json=setup).json["state"]
    actions = []
    while not state["result"]:
        listed = post(api, "legal-actions", state=state).json["actions"]
        action = listed[pick % len(listed)]
        r = post(api, "apply", state=state, action=action)
        assert r.status_code == 200
        state = r.json["state"]
        actions.append(action)
    return state, actions


def test_replay_reproduces_a_game(api):
    setup = {"players": 3, "seed": 11}
    final, actions = play_to_end(api, setup, pick=4)
    r = post(api, "replay", setup=setup, actions=actions)
    assert r.status_code == 200
    assert r.json["state"] == final
    assert r.json["outcome"]["finished"] is True and r.json["outcome"]["winners"] == final["result"]["winners"]
    assert [s["index"] for s in r.json["events"]] == [None, *range(len(actions))]


def test_replay_illegal_step_is_422_with_index_and_rule(api):
    setup = {"players": 2, "seed": 11}
    _, actions = play_to_end(api, setup)
    actions.insert(2, actions[1])  # the same player again, out of turn
    r = post(api, "replay", setup=setup, actions=actions)
    assert r.status_code == 422
    assert r.json["index"] == 2 and r.json["rule"] == "PEB-3"


def test_replay_malformed_step_names_its_index(api):
    r = post(api, "replay", setup={"players": 2}, actions=[{"type": "take", "player": 0, "cards": 5}])
    assert r.status_code == 400 and "actions.0.cards" in r.json["errors"]
    r = post(api, "replay", setup={"players": 2, "colour": 1}, actions=[])
    assert r.status_code == 400 and "setup.colour" in r.json["errors"]


def test_game_over_is_422(api):
    final, _ = play_to_end(api, {"players": 2, "seed": 3})
    r = post(api, "apply", state=final, action={"type": "take", "player": 0, "cards": ["P1"]})
    assert r.status_code == 422 and r.json["rule"] == "PEB-4"
    assert post(api, "legal-actions", state=final).json == {"pending": [], "actions": []}
    assert post(api, "score", state=final).json["finished"] is True


def test_card_filter_texts():
    from service.cards import filterable_fields, matches

    assert matches({"mark": None}, {"mark": ["null"]}, "")
    assert not matches({"mark": "*"}, {"mark": ["null"]}, "")
    assert matches({"starting": True, "cost": 3}, {"starting": ["true"], "cost": ["2", "3"]}, "")
    assert not matches({"abilities": ["fly"]}, {"abilities": ["fly"]}, "")
    assert filterable_fields({"g": [{"id": "a", "mark": None, "x": [1]}, {"id": "b", "mark": "*"}]}) == {
        "id", "mark"}
