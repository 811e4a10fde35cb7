"""A state is validated once per process (``service.valid_states``), never wrongly skipped.

Each test counts the real ``validate_state`` calls of the Raiders engine with a
fresh memory, so a skipped check and a repeated one are both seen.
"""

from __future__ import annotations

import copy
from typing import Any

import orjson
import pytest

import card_db
from service import valid_states
from service.games import registry
from service.games.objects import JsonObject
from tests.http.conftest import Api
from tests.wsgi import QuickResponse


@pytest.fixture
def checks(monkeypatch):
    """A fresh memory, and the list of states ``validate_state`` really checked."""
    monkeypatch.setattr(valid_states, "KNOWN", valid_states.ValidStates(size=64))
    game = registry.get_game("raiders")
    seen: list[dict[Any, Any]] = []
    real = type(game).validate_state

    def counting(self, state):
        seen.append(state)
        return real(self, state)

    monkeypatch.setattr(type(game), "validate_state", counting)
    return seen


def post(api: Api, path: str, body: JsonObject) -> QuickResponse:
    """As a client does: keys in the order the service sent them (the test
    client's ``json=`` sorts them, which is another state's bytes)."""
    return api.post(path, data=orjson.dumps(body), content_type="application/json")


def new_state(api: Api, seed: int = 3) -> JsonObject:
    r = post(api, "/v1/games/raiders/new", {"players": 2, "seed": seed})
    assert r.status_code == 200, r.json
    state: JsonObject = r.json["state"]
    return state


def test_the_same_state_is_checked_once(real_api, checks):
    state = new_state(real_api)
    body = {"state": copy.deepcopy(state)}
    for _ in range(3):
        assert post(real_api, "/v1/games/raiders/legal-actions", body).status_code == 200
    # `new` returned it: the engine made it, so not even the first request checks it
    assert checks == []


def test_a_state_the_service_returned_is_not_checked_again(real_api, checks):
    state = new_state(real_api)
    action = post(real_api, "/v1/games/raiders/legal-actions", {"state": state}).json["actions"][0]
    after = post(real_api, "/v1/games/raiders/apply", {"state": state, "action": action})
    assert after.status_code == 200
    nxt = after.json["state"]
    assert post(real_api, "/v1/games/raiders/legal-actions", {"state": nxt}).status_code == 200
    assert checks == []


def test_a_state_not_seen_before_is_checked_then_remembered(real_api, checks):
    state = new_state(real_api)
    # forget what `new` returned, in the one object every importer holds
    valid_states.KNOWN.__init__(size=64)  # type: ignore[misc]
    for _ in range(2):
        assert post(real_api, "/v1/games/raiders/score", {"state": state}).status_code == 200
    assert len(checks) == 1


def test_a_changed_state_is_checked_and_refused_though_its_neighbour_is_known(real_api, checks):
    state = new_state(real_api)
    for change in ({"turn": -1}, {"phase": "nonsense"},
                   {"players": [{**state["players"][0], "hand": ["C-6", "C-6"]},
                                state["players"][1]]}):
        bad = {**state, **change}
        r = post(real_api, "/v1/games/raiders/legal-actions", {"state": bad})
        assert r.status_code == 400, (change, r.json)
        assert r.json["type"].endswith("/invalid-state"), r.json
    assert len(checks) == 3


def test_a_float_integer_is_normalised_every_time_not_remembered_as_is(real_api, checks):
    """JSON Schema takes ``1.0`` as the integer 1; validation turns it into ``1``, so
    the float form is never remembered and is checked (and normalised) each time."""
    state = new_state(real_api)
    floated = orjson.dumps({"state": {**state, "turn": float(state["turn"])}})
    assert b'"turn":%d.0' % state["turn"] in floated
    answers = []
    for _ in range(2):
        r = real_api.post("/v1/games/raiders/legal-actions", data=floated,
                          content_type="application/json")
        assert r.status_code == 200, r.json
        answers.append(r.json)
    assert len(checks) == 2
    assert answers[0] == post(real_api, "/v1/games/raiders/legal-actions", {"state": state}).json == answers[1]


def test_new_card_data_forgets_every_remembered_state(real_api, checks):
    state = new_state(real_api)
    post(real_api, "/v1/games/raiders/score", {"state": state})
    assert checks == []
    card_db.clear_cache()
    assert post(real_api, "/v1/games/raiders/score", {"state": state}).status_code == 200
    assert len(checks) == 1


def test_memory_is_bounded_oldest_out_first():
    game = registry.get_game("raiders")
    known = valid_states.ValidStates(size=3)
    states = [game.new_game(2, seed=s)[0] for s in range(5)]
    for s in states:
        known.remember(game, s)
    assert len(known._known) == 3
    known.validate(game, states[0])  # forgotten: checked again
    assert (known.hits, known.misses) == (0, 1)
    known.validate(game, states[4])
    assert known.hits == 1


@pytest.fixture
def signed_api():
    from service.app import create_app

    card_db.clear_cache()
    return create_app({"TESTING": True, "ACCESS_LOG": False, "STATE_KEYS": "k1"}).test_client()


def test_a_signed_state_is_known_by_its_mac_and_sent_once_encoded(signed_api, checks):
    """With keys, the digest of a state is the MAC ``accept`` just checked (no second
    encoding); the answer is the state's canonical encoding with the signature after it."""
    from service import signing

    state = new_state(signed_api)
    action = post(signed_api, "/v1/games/raiders/legal-actions", {"state": state}).json["actions"][0]
    raw = post(signed_api, "/v1/games/raiders/apply", {"state": state, "action": action}).get_data()
    nxt = orjson.loads(raw)["state"]
    assert signing.verified(nxt, [b"k1"], required=True)  # a signature over what it says
    bare = {k: v for k, v in nxt.items() if k != "signature"}
    assert signing.canonical(bare)[:-1] + b',"signature":"' in raw
    for path in ("legal-actions", "score"):  # `apply` returned it: known by its MAC
        assert post(signed_api, f"/v1/games/raiders/{path}", {"state": nxt}).status_code == 200
    assert checks == []
    valid_states.KNOWN.__init__(size=64)  # type: ignore[misc]  # a worker that has not seen it checks it once: emptied in place
    for _ in range(2):
        assert post(signed_api, "/v1/games/raiders/score", {"state": nxt}).status_code == 200
    assert len(checks) == 1


def test_a_known_mac_never_vouches_for_other_content(signed_api, checks):
    """A state altered under a known signature is refused by the MAC check before the
    memory is asked; an unsigned copy of a known signed state is checked, as new."""
    state = new_state(signed_api)
    assert post(signed_api, "/v1/games/raiders/score", {"state": state}).status_code == 200
    altered = {**state, "turn": state["turn"] + 1}
    assert post(signed_api, "/v1/games/raiders/score", {"state": altered}).status_code == 403
    plain = {k: v for k, v in state.items() if k not in ("signature", "chain")}
    assert post(signed_api, "/v1/games/raiders/score", {"state": plain}).status_code == 200
    assert len(checks) == 1 and checks[0] == plain
