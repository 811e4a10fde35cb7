"""Signed states (``service.signing``): sign on the way out, verify on the way in."""

from __future__ import annotations

import hashlib
import hmac

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.games import registry
from service.games.objects import JsonObject
from tests.contract import json_paths
from tests.size import sized
from tests.wsgi import client_of

from .conftest import Poster, walk

PROBLEMS = "/problems/"


@pytest.fixture
def signed(make_client):
    return make_client(STATE_KEYS="key-2026,key-2025")


def _new(client: Poster, game_id: str = "raiders") -> JsonObject:
    game = registry.get_game(game_id)
    new: JsonObject = client.post(f"/v1/games/{game_id}/new",
                                  json={"players": game.min_players, "seed": 3}).json
    return new


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_every_returned_state_is_signed_with_the_first_key(signed, game_id):
    state = _new(signed, game_id)["state"]
    bare = {k: v for k, v in state.items() if k != "signature"}
    expected = hmac.new(b"key-2026", orjson.dumps(bare, option=orjson.OPT_SORT_KEYS),
                        hashlib.sha256).hexdigest()
    assert state["signature"] == "hmac-sha256:" + expected
    action = signed.post(f"/v1/games/{game_id}/legal-actions", json={"state": state}).json["actions"][0]
    r = signed.post(f"/v1/games/{game_id}/apply", json={"state": state, "action": action})
    assert r.status_code == 200 and r.json["state"]["signature"].startswith("hmac-sha256:")
    replayed = signed.post(f"/v1/games/{game_id}/replay", json={
        "setup": {"players": registry.get_game(game_id).min_players, "seed": 3},
        "actions": [action] if action["player"] != "chance" else []}).json
    assert replayed["state"]["signature"].startswith("hmac-sha256:")


@pytest.mark.parametrize("verb", ["legal-actions", "score", "view", "check", "apply"])
def test_an_altered_state_is_refused_with_bad_signature(signed, verb):
    state = _new(signed)["state"]
    action = signed.post("/v1/games/raiders/legal-actions", json={"state": state}).json["actions"][0]
    altered = {**state, "turn": state["turn"] + 1}
    body = {"state": altered, "action": action, "player": 0}
    body = {k: body[k] for k in {"legal-actions": ["state"], "score": ["state"],
                                 "view": ["state", "player"], "check": ["state", "action"],
                                 "apply": ["state", "action"]}[verb]}
    r = signed.post(f"/v1/games/raiders/{verb}", json=body)
    assert r.status_code == 403 and r.mimetype == "application/problem+json"
    assert r.json["type"] == PROBLEMS + "bad-signature"
    body["state"] = state
    assert signed.post(f"/v1/games/raiders/{verb}", json=body).status_code == 200


def test_a_garbled_signature_is_refused(signed):
    state = _new(signed)["state"]
    for junk in ("nope", 7, "hmac-sha256:" + "0" * 64):
        r = signed.post("/v1/games/raiders/score", json={"state": {**state, "signature": junk}})
        assert r.status_code == 403 and r.json["type"] == PROBLEMS + "bad-signature", junk


def test_old_keys_still_verify(make_client):
    old = make_client(STATE_KEYS="key-2025")
    state = _new(old)["state"]
    rotated = make_client(STATE_KEYS="key-2026,key-2025")
    r = rotated.post("/v1/games/raiders/score", json={"state": state},
                     headers={"Referee-Require-Signed": "true"})
    assert r.status_code == 200
    dropped = make_client(STATE_KEYS="key-2026")
    r = dropped.post("/v1/games/raiders/score", json={"state": state})
    assert r.status_code == 403


def test_unsigned_states_are_accepted_unless_required(signed, make_client):
    state = {k: v for k, v in _new(signed)["state"].items() if k != "signature"}
    assert signed.post("/v1/games/raiders/score", json={"state": state}).status_code == 200
    r = signed.post("/v1/games/raiders/score", json={"state": state},
                    headers={"Referee-Require-Signed": "true"})
    assert r.status_code == 400 and r.json["type"] == PROBLEMS + "unsigned-state"
    strict = make_client(STATE_KEYS="key-2026", REQUIRE_SIGNED=True)
    r = strict.post("/v1/games/raiders/score", json={"state": state})
    assert r.status_code == 400 and r.json["type"] == PROBLEMS + "unsigned-state"


def test_require_signed_from_the_environment(monkeypatch, make_client):
    monkeypatch.setenv("REFEREE_STATE_KEYS", "env-key")
    monkeypatch.setenv("REFEREE_REQUIRE_SIGNED", "1")
    client = make_client()
    state = _new(client)["state"]
    assert client.post("/v1/games/raiders/score", json={"state": state}).status_code == 200
    del state["signature"]
    assert client.post("/v1/games/raiders/score", json={"state": state}).status_code == 400


def test_without_keys_nothing_is_signed_and_a_signature_is_ignored(make_client):
    client = make_client()
    state = _new(client)["state"]
    assert "signature" not in state
    r = client.post("/v1/games/raiders/score", json={"state": {**state, "signature": "x"}})
    assert r.status_code == 200
    r = client.post("/v1/games/raiders/score", json={"state": state},
                    headers={"Referee-Require-Signed": "true"})
    assert r.status_code == 400 and "no state keys" in r.json["detail"]


def test_evaluations_verify_signed_states(signed):
    s = _new(signed, "tremble")["state"]
    body = {"game": "tremble", "kind": "playouts", "params": {"playouts": 2, "seed": 1}}
    r = signed.post("/v1/evaluations", json={**body, "state": {**s, "turn": 5}})
    assert r.status_code == 403
    r = signed.post("/v1/evaluations", json={**body, "state": s})
    assert r.status_code == 202, r.json




@pytest.fixture(scope="module")
def signed_states():
    from service.app import create_app

    client = client_of(create_app({"TESTING": True, "STATE_KEYS": "fuzz-key"}))
    out: list[tuple[str, JsonObject]] = []
    for game_id in registry.GAME_IDS:
        out.extend((game_id, s) for s in walk(client, game_id, 4, 12)[::3])
    return client, out


@settings(max_examples=sized(150, least=20), deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_alteration_of_a_signed_state_is_refused(signed_states, data):
    """With signatures required, changing any one value of a signed state (or
    dropping it, or adding a key anywhere) is never accepted: 403, or 400
    ``unsigned-state`` when the signature itself went."""
    client, states = signed_states
    game_id, state = states[data.draw(st.integers(0, len(states) - 1), label="state index")]
    broken = orjson.loads(orjson.dumps(state))
    path = data.draw(st.sampled_from(list(json_paths(broken))))
    parent = broken
    for key in path[:-1]:
        parent = parent[key]
    how = data.draw(st.sampled_from(["replace", "drop", "add"]))
    old = parent[path[-1]]
    if how == "replace":
        new = data.draw(st.one_of(st.integers(-3, 1 << 40), st.text(max_size=6), st.none(),
                                  st.booleans()).filter(lambda v: v != old or type(v) is not type(old)))
        parent[path[-1]] = new
    elif how == "drop":
        del parent[path[-1]]
    else:
        target = old if isinstance(old, (dict, list)) else parent
        if isinstance(target, dict):
            target["zz-extra"] = 0
        else:
            target.append(0)
    r = client.post(f"/v1/games/{game_id}/score", json={"state": broken},
                    headers={"Referee-Require-Signed": "true"})
    if path == ("signature",) and (how == "drop" or parent.get("signature", 0) is None):
        assert r.status_code == 400 and r.json["type"] == PROBLEMS + "unsigned-state"
    else:
        assert r.status_code == 403, (path, how, r.status_code, r.json)
        assert r.json["type"] == PROBLEMS + "bad-signature"
