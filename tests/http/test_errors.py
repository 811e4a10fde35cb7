"""Every error is application/problem+json with the right status — never HTML, never a 500."""

from __future__ import annotations

import pytest

PROBLEM = "application/problem+json"


def assert_problem(r, status: int, slug: str):
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:500])
    assert r.mimetype == PROBLEM
    body = r.json
    assert body["type"] == f"/problems/{slug}"
    assert body["status"] == status
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and body["detail"]
    return body


@pytest.fixture
def state(api):
    return api.post("/v1/games/pebbles/new", json={"players": 2, "seed": 1}).json["state"]


def test_unknown_game_is_404(api):
    for r in (api.get("/v1/games/chess"), api.get("/v1/games/chess/cards"),
              api.post("/v1/games/chess/new", json={"players": 2})):
        body = assert_problem(r, 404, "unknown-game")
        assert "pebbles" in body["detail"]


def test_unknown_route_is_404_problem(api):
    assert_problem(api.get("/v2/nothing"), 404, "not-found")
    assert_problem(api.post("/v1/games/pebbles/teleport", json={}), 404, "not-found")


@pytest.mark.parametrize("method,path", [
    ("GET", "/v1/games/pebbles/apply"), ("DELETE", "/v1/games/pebbles/new"),
    ("POST", "/v1/games"), ("PUT", "/healthz")])
def test_wrong_method_is_405_with_allow(api, method, path):
    r = api.open(method, path)
    assert_problem(r, 405, "method-not-allowed")
    assert r.headers["Allow"]


def test_body_too_large_is_413(make_api):
    api = make_api(MAX_CONTENT_LENGTH=2000)
    small = api.post("/v1/games/pebbles/new", json={"players": 2, "options": {"chance": "server"}})
    assert small.status_code == 200
    big = {"players": 2, "options": {"pad": "x" * 3000}}
    assert_problem(api.post("/v1/games/pebbles/new", json=big), 413, "payload-too-large")


def test_default_limit_is_one_mib(api, state):
    body = {"state": state, "pad": "x" * (1 << 20)}
    assert_problem(api.post("/v1/games/pebbles/score", json=body), 413, "payload-too-large")
    assert api.app.config["MAX_CONTENT_LENGTH"] == 1 << 20


def test_wrong_content_type_is_415(api, state):
    r = api.post("/v1/games/pebbles/score", data='{"state": {}}', content_type="text/plain")
    assert_problem(r, 415, "unsupported-media-type")
    r = api.post("/v1/games/pebbles/new", data="players=2",
                 content_type="application/x-www-form-urlencoded")
    assert_problem(r, 415, "unsupported-media-type")
    r = api.post("/v1/games/pebbles/new", data='{"players": 2}')
    assert_problem(r, 415, "unsupported-media-type")
    # +json media types are JSON
    r = api.post("/v1/games/pebbles/new", data='{"players": 2}', content_type="application/vnd.x+json")
    assert r.status_code == 200


@pytest.mark.parametrize("raw", [b"{", b"", b"{'players': 2}", b"NaN", b'{"players": 2,}',
                                 b"\xff\xfe", b'{"a": "\\ud800"}'])
def test_malformed_json_is_400(api, raw):
    r = api.post("/v1/games/pebbles/new", data=raw, content_type="application/json")
    body = assert_problem(r, 400, "malformed-request")
    assert "body" in body["errors"]


@pytest.mark.parametrize("raw", [b"[]", b"2", b'"players"', b"null"])
def test_json_that_is_not_an_object_is_400(api, raw):
    r = api.post("/v1/games/pebbles/new", data=raw, content_type="application/json")
    assert assert_problem(r, 400, "malformed-request")["errors"] == {"body": ["must be a JSON object"]}


def test_envelope_schema_errors_name_fields(api, state):
    r = api.post("/v1/games/pebbles/apply", json={"state": state, "acton": {}})
    body = assert_problem(r, 400, "malformed-request")
    assert body["errors"] == {"acton": ["unknown field"], "action": ["missing required field"]}
    r = api.post("/v1/games/pebbles/apply", json={"state": [1], "action": 3})
    body = assert_problem(r, 400, "malformed-request")
    assert set(body["errors"]) == {"state", "action"}
    r = api.post("/v1/games/pebbles/new", json={"players": True})
    assert "players" in assert_problem(r, 400, "malformed-request")["errors"]
    r = api.post("/v1/games/pebbles/new", json={"players": 2, "seed": 1.5})
    assert "seed" in assert_problem(r, 400, "malformed-request")["errors"]


def test_deep_nesting_is_400(api, state):
    for depth in (300, 1024, 5000):
        deep = "[" * depth + "]" * depth
        raw = '{"players": 2, "options": {"x": %s}}' % deep
        r = api.post("/v1/games/pebbles/new", data=raw, content_type="application/json")
        assert r.status_code == 400, depth
        assert r.mimetype == PROBLEM
    # deep inside a state and inside an action
    import orjson
    deep_state = orjson.dumps({"state": {**state, "phase": "__DEEP__"}}).replace(
        b'"__DEEP__"', b"[" * 600 + b"]" * 600)
    r = api.post("/v1/games/pebbles/score", data=deep_state, content_type="application/json")
    assert assert_problem(r, 400, "invalid-state")["errors"]["state.phase"] == ["must be a string"]
    deep_action = orjson.dumps({"state": state, "action": {"type": "take", "player": 0, "cards": "__DEEP__"}}
                               ).replace(b'"__DEEP__"', b"[" * 900 + b"]" * 900)
    r = api.post("/v1/games/pebbles/check", data=deep_action, content_type="application/json")
    assert_problem(r, 400, "malformed-request")


def test_huge_numbers_are_400(api, state):
    for number in ("1e999", "123456789012345678901234567890", "-1e400", "18446744073709551616"):
        raw = '{"players": 2, "seed": %s}' % number
        r = api.post("/v1/games/pebbles/new", data=raw, content_type="application/json")
        assert r.status_code == 400, number
        assert r.mimetype == PROBLEM
    raw = '{"state": %s}' % __import__("json").dumps({**state, "turn": "__N__"})
    raw = raw.replace('"__N__"', "99999999999999999999999")
    r = api.post("/v1/games/pebbles/score", data=raw, content_type="application/json")
    assert assert_problem(r, 400, "invalid-state")["errors"]["state.turn"] == ["must be an integer"]


def test_state_failing_validation_is_400_naming_the_field(api, state):
    broken = {**state, "heap": state["heap"] + ["P1"]}
    r = api.post("/v1/games/pebbles/legal-actions", json={"state": broken})
    body = assert_problem(r, 400, "invalid-state")
    assert body["errors"] == {"state.heap": ["card 'P1' appears more than once"]}
    missing = {k: v for k, v in state.items() if k != "current"}
    r = api.post("/v1/games/pebbles/apply", json={"state": missing, "action": {}})
    assert assert_problem(r, 400, "invalid-state")["errors"] == {"state.current": ["missing required field"]}
    wrong_turn = {**state, "pending": [{"player": 1 - state["current"], "decision": "take"}]}
    r = api.post("/v1/games/pebbles/score", json={"state": wrong_turn})
    assert "state.pending" in assert_problem(r, 400, "invalid-state")["errors"]


def test_incompatible_state_is_400(api, state):
    r = api.post("/v1/games/pebbles/score", json={"state": {**state, "rules_version": "pebbles-0"}})
    assert "state.rules_version" in assert_problem(r, 400, "incompatible-state")["errors"]
    changed = {**state, "card_set": {"id": "reference", "hash": "sha256:0"}}
    r = api.post("/v1/games/pebbles/score", json={"state": changed})
    assert "state.card_set.hash" in assert_problem(r, 400, "incompatible-state")["errors"]
    r = api.post("/v1/games/pebbles/score", json={"state": {**state, "game": "chess"}})
    assert "state.game" in assert_problem(r, 400, "incompatible-state")["errors"]


def test_an_engine_bug_is_a_logged_500_problem(api, state, monkeypatch, caplog):
    from service.games import registry

    def broken(self, state):
        raise ZeroDivisionError("engine bug")
    monkeypatch.setattr(type(registry.get_game("pebbles")), "compute_score", broken)
    r = api.post("/v1/games/pebbles/score", json={"state": state})
    body = assert_problem(r, 500, "internal-error")
    assert "engine bug" not in body["detail"]
    assert "ZeroDivisionError" in caplog.text


def test_many_errors_are_capped(api):
    options = {f"opt{i}": 1 for i in range(5000)}
    r = api.post("/v1/games/pebbles/new", json={"players": 2, "options": options})
    body = assert_problem(r, 400, "invalid-options")
    assert len(body["errors"]) == 51 and body["errors"]["…"] == ["and 4950 more fields"]
    assert len(r.get_data()) < 20_000


def test_invalid_setup_is_422_with_every_violation(api):
    r = api.post("/v1/games/pebbles/new", json={"players": [{"name": ""}, {"name": "Bo"}, {"name": ""}]})
    body = assert_problem(r, 422, "invalid-setup")
    assert body["violations"] == [
        {"rule": "PEB-5", "reason": "a player's name may not be empty", "player": 0},
        {"rule": "PEB-5", "reason": "a player's name may not be empty", "player": 2}]
    r = api.post("/v1/games/pebbles/replay", json={"setup": {"players": [{"name": ""}, {}]}, "actions": []})
    assert assert_problem(r, 422, "invalid-setup")["violations"][0]["rule"] == "PEB-5"
