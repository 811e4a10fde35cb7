"""Each request envelope is declared once (``schemas.envelopes.Envelope``, a shape spec).

Its compiled JSON Schema (jsonschema-rs) answers on the hot path and its
``validate`` names the fields when it refuses: on a fuzzed corpus (valid
envelopes, then fields dropped, added, and replaced by values picked to sit
on every boundary) both must accept and refuse the same envelopes, and a
loaded one has its defaults filled in.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from schemas import envelopes
from service.games import shape
from service.games.errors import MalformedInput
from service.http.body import load_envelope

STATE = {"players": [{"hand": []}], "turn": 1}
ACTION = {"type": "pass", "player": 0}
VALID = {
    envelopes.NEW: [{"players": 2}, {"players": [{"name": "A"}, {}], "options": {"x": 1},
                                            "seed": 7, "card_set": "reference"}],
    envelopes.LEGAL_ACTIONS: [{"state": STATE}, {"state": STATE, "player": "chance"},
                                    {"state": STATE, "player": 1}],
    envelopes.APPLY: [{"state": STATE, "action": ACTION},
                             {"state": STATE, "action": ACTION, "for_player": None},
                             {"state": STATE, "action": ACTION, "for_player": 2}],
    envelopes.CHECK: [{"state": STATE, "action": ACTION}],
    envelopes.SCORE: [{"state": STATE}],
    envelopes.VIEW: [{"state": STATE, "player": 0}, {"state": STATE, "player": None}],
    envelopes.REPLAY: [{"setup": {"players": 2, "seed": 3}, "actions": [ACTION]},
                              {"setup": {"players": [{}]}, "actions": [], "for_player": 1}],
}
#: values on the boundaries of every field kind
ODD = [None, True, False, 0, 1, -1, 15, 16, 17, (1 << 63) - 1, 1 << 63, 7.0, 1.5, "", "x",
       "x" * 64, "x" * 65, "chance", "reference", [], [{}], [{}] * 16, [{}] * 17, [1], [ACTION],
       {}, {"a": 1}, STATE, [[]], ["chance"]]
FIELDS = ["players", "options", "seed", "card_set", "state", "action", "player", "for_player",
          "setup", "actions", "bogus"]


def _mutate(rng: random.Random, value: dict[Any, Any]) -> dict[Any, Any]:
    out = dict(value)
    for _ in range(rng.randint(1, 3)):
        move = rng.random()
        key = rng.choice(FIELDS)
        if move < 0.2 and out:
            out.pop(rng.choice(sorted(out)))
        elif move < 0.3 and isinstance(out.get("setup"), dict):
            out["setup"] = _mutate(rng, out["setup"])
        else:
            out[key] = rng.choice(ODD)
    return out


def _errors(spec, value) -> dict[Any, Any]:
    errors: dict[Any, Any] = {}
    spec.validate(value, "", errors, 0)
    return errors


@pytest.mark.parametrize("envelope", sorted(VALID, key=lambda e: e.name), ids=lambda e: e.name)
def test_compiled_schema_and_validate_agree_on_a_fuzzed_corpus(envelope):
    """Both are strict (``7.0`` is no ``int``); ``check`` then reads ``7.0`` as ``7``."""
    fast = shape.compiled(envelope.spec)
    rng = random.Random(envelope.name)
    corpus = list(VALID[envelope]) + [_mutate(rng, rng.choice(VALID[envelope])) for _ in range(1500)]
    accepted = refused = 0
    for body in corpus:
        assert fast(body) is not _errors(envelope.spec, body), body
        normalised = copy.deepcopy(body)
        shape.integral(normalised)
        errors = _errors(envelope.spec, normalised)
        assert shape.field_errors(envelope.spec, copy.deepcopy(body)) == errors, body
        if not errors:
            accepted += 1
            loaded = load_envelope(envelope, copy.deepcopy(body))
            assert loaded == {**envelope.defaults, **normalised} or "setup" in body, body
        else:
            refused += 1
            with pytest.raises(MalformedInput):
                load_envelope(envelope, copy.deepcopy(body))
    assert accepted >= len(VALID[envelope]) and refused > 100  # the corpus covers both sides


def test_every_request_of_the_hot_path_is_an_envelope_documented_as_declared():
    from service.http import games

    for envelope in (games.NEW, games.LEGAL_ACTIONS, games.APPLY, games.CHECK, games.SCORE,
                     games.VIEW, games.REPLAY):
        assert envelopes.REQUESTS[envelope.name] is envelope
        assert envelope.schema() == envelope.spec.schema()


def test_defaults_are_filled_in_nested_envelopes_too():
    assert envelopes.NEW.load({"players": 2}) == {
        "players": 2, "options": None, "seed": None, "card_set": "reference"}
    assert envelopes.LEGAL_ACTIONS.load({"state": {}}) == {"state": {}, "player": None}
    assert envelopes.REPLAY.load({"setup": {"players": 2}, "actions": []})["setup"] == {
        "players": 2, "options": None, "seed": None, "card_set": "reference"}


def test_an_integral_float_is_an_integer_as_json_schema_says():
    assert envelopes.NEW.load({"players": 2.0, "seed": 7.0})["players"] == 2
    with pytest.raises(MalformedInput) as err:
        envelopes.NEW.load({"players": 2.5})
    assert err.value.errors == {"players": ["must be a player count or a list of player setups"]}


def test_refused_envelopes_name_every_field():
    from service.http import games

    with pytest.raises(MalformedInput) as err:
        load_envelope(games.APPLY, {"state": {}, "actoin": {}})
    assert err.value.errors == {"action": ["missing required field"], "actoin": ["unknown field"]}


def _with_floats(value):
    """``value`` with every integer written as a float (``3`` → ``3.0``), as a client
    whose JSON library has no integers would send it."""
    if isinstance(value, bool) or not isinstance(value, (int, dict, list)):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, dict):
        return {k: _with_floats(v) for k, v in value.items()}
    return [_with_floats(v) for v in value]


def test_integers_written_as_floats_are_those_integers_over_http(real_api):
    """docs/api.md, "Numbers": ``2.0`` is the integer 2 everywhere (JSON Schema's reading,
    the one ``openapi.yaml`` states); the answer writes integers back, and ``2.5`` is refused."""
    r = real_api.post("/v1/games/raiders/new", json={"players": 2.0, "seed": 15.0})
    assert r.status_code == 200, r.json
    state = r.json["state"]
    assert state == real_api.post("/v1/games/raiders/new",
                                  json={"players": 2, "seed": 15}).json["state"]
    action = {"type": "capture", "player": 0.0, "fighter": "C-J", "property": "market"}
    r = real_api.post("/v1/games/raiders/legal-actions", json={
        "state": _with_floats(state), "player": 0.0})
    assert r.status_code == 200 and r.json["pending"] == [{"player": 0, "decision": "turn"}]
    r = real_api.post("/v1/games/raiders/apply", json={
        "state": _with_floats(state), "action": action, "for_player": 1.0})
    assert r.status_code == 200, r.json
    assert b"0.0" not in r.get_data() and b"1.0" not in r.get_data()
    assert r.json["state"] == real_api.post("/v1/games/raiders/apply", json={
        "state": state, "action": {**action, "player": 0}}).json["state"]
    r = real_api.post("/v1/games/raiders/new", json={"players": 2.5})
    assert r.status_code == 400
    assert r.json["errors"] == {"players": ["must be a player count or a list of player setups"]}
    r = real_api.post("/v1/games/raiders/score", json={"state": {**state, "active": 0.5}})
    assert r.status_code == 400 and r.json["errors"] == {"state.active": ["must be an integer"]}
