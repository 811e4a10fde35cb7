"""Attack (on the operator): rotate the keys of several instances one at a time (issue 22, item 6).

**What goes wrong.**  Instances behind one load balancer share their keys.
To rotate ``K1`` → ``K2`` the operator restarts them one at a time with
``REFEREE_STATE_KEYS=K2,K1``.  While the rollout runs, instance B (already
``K2,K1``) signs with ``K2``, and the next request of that game lands on
instance A (still ``K1``), which has never heard of ``K2``: 403
``bad-signature`` to an honest player, mid-game (``bad-seal`` with sealing
keys).  The only ways out were an outage or switching signatures off — which
is what a cheater waits for.

**What happens now.**  Verify-only keys (``REFEREE_STATE_KEYS_VERIFY_ONLY``,
``REFEREE_SEALING_KEYS_VERIFY_ONLY``) verify (open) states and never sign
(seal) them.  A rolling rotation (``docs/operations.md``): 1. add ``K2`` as
verify-only everywhere; 2. once every instance runs that, make ``K2`` the
signing key (``K2,K1``) one instance at a time; 3. once the longest-lived state
signed with ``K1`` is gone, drop ``K1``.  Here two real gunicorn instances in
the middle of step 2 — A on ``K1`` + verify-only ``K2``, B on ``K2,K1`` —
play one game with its states bouncing between them, for signing and
sealing keys alike; A still signs with ``K1`` only.  The "before" (A without
the verify-only key) is shown as the reason.  In process: every moment of
the three-step rollout over a fleet keeps every instance accepting every
other's states, which the naive rollout does not; verify-only keys without a
key that signs stop the start.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
from typing import Any

import orjson
import pytest

from service import sealing
from service.app import create_app

from .conftest import call

K1, K2 = "state-key-2025", "state-key-2026"
S1, S2 = "seal-key-2025", "seal-key-2026"
REQUIRED = [("Referee-Require-Signed", "true")]
NEW = "/v1/games/raiders/new"
NEW_GAME = {"players": 2, "seed": 5}


def hmac_of(state: dict[Any, Any], key: str) -> str:
    bare = {k: v for k, v in state.items() if k != "signature"}
    return "hmac-sha256:" + hmac.new(key.encode(), orjson.dumps(bare, option=orjson.OPT_SORT_KEYS),
                                     hashlib.sha256).hexdigest()


def key_id(sealed: dict[Any, Any]) -> str:
    return sealed["sealed"].split(":")[1]


@pytest.fixture(scope="module")
def before(serve):
    """Instance A as it was: ``K1`` (and sealing ``S1``) only."""
    return serve("a-before", STATE_KEYS=K1, SEALING_KEYS=S1)


@pytest.fixture(scope="module")
def signing_pair(serve):
    """(A, B) in the middle of step 2: A on K1 + verify-only K2, B on K2,K1."""
    return (serve("a-signing", STATE_KEYS=K1, STATE_KEYS_VERIFY_ONLY=K2),
            serve("b-signing", STATE_KEYS=f"{K2},{K1}"))


@pytest.fixture(scope="module")
def sealing_pair(serve):
    """(A, B) in the middle of step 2 for sealing keys: A on S1 + verify-only S2, B on S2,S1."""
    return (serve("a-sealing", SEALING_KEYS=S1, SEALING_KEYS_VERIFY_ONLY=S2),
            serve("b-sealing", SEALING_KEYS=f"{S2},{S1}"))


def test_before_an_instance_without_the_new_key_refuses_the_states_it_signed(
        before, signing_pair, sealing_pair):
    """The reason for the feature: mid-rollout, A (``K1``) answers 403 to B's states."""
    signed = call(signing_pair[1], NEW, NEW_GAME).json["state"]
    assert signed["signature"] == hmac_of(signed, K2)
    r = call(before, "/v1/games/raiders/score", {"state": signed})
    assert r.status == 403 and r.type == "/problems/bad-signature", r.json
    sealed = call(sealing_pair[1], NEW, NEW_GAME).json["state"]
    assert key_id(sealed) == sealing.derive(S2.encode()).id
    r = call(before, "/v1/games/raiders/score", {"state": sealed})
    assert r.status == 403 and r.type == "/problems/bad-seal", r.json


@functools.cache
def script(steps: int = 12) -> list[dict[Any, Any]]:
    """The actions of the game ``NEW_GAME`` opens (the first legal one each time), found
    on a plain in-process app: the instances then play them without asking for legal
    actions (which a sealed state may only give a seat's holder)."""
    client = create_app({"TESTING": True, "ACCESS_LOG": False}).test_client()
    state, actions = client.post(NEW, json=NEW_GAME).json["state"], []
    for _ in range(steps):
        listed = client.post("/v1/games/raiders/legal-actions", json={"state": state}).json
        if not listed["actions"]:
            break
        actions.append(listed["actions"][0])
        state = client.post("/v1/games/raiders/apply",
                            json={"state": state, "action": actions[-1]}).json["state"]
    return actions


def bounce(first: str, second: str) -> list[tuple[str, dict[Any, Any]]]:
    """One game whose every request goes to the other instance than the last, signatures
    required; the states as (instance that returned it, state)."""
    r = call(first, NEW, NEW_GAME)
    assert r.status == 200, r.json
    states = [(first, r.json["state"])]
    # a sealed game's host sends every seat's token: issued under one instance's key, they
    # are checked by the other's (service.seats)
    tokens = r.json.get("seat_tokens")
    host = [("Referee-Seat-Token", ", ".join(tokens))] if tokens else []
    for step, action in enumerate(script()):
        url = (second, first)[step % 2]
        r = call(url, "/v1/games/raiders/apply", {"state": states[-1][1], "action": action},
                 [*REQUIRED, *host])
        assert r.status == 200, (step, r.json)
        states.append((url, r.json["state"]))
    return states


@pytest.mark.parametrize("starts", ["a", "b"])
def test_signed_states_bounce_between_the_instances_mid_rotation(signing_pair, starts):
    a, b = signing_pair
    states = bounce(*((a, b) if starts == "a" else (b, a)))
    assert len(states) > 6
    for url, state in states:
        # A signs with K1 only (K2 is verify-only there); B with K2, its first key
        assert state["signature"] == hmac_of(state, K1 if url == a else K2)
    # and each instance scores the other's states, signatures required
    for url, state in states:
        other = b if url == a else a
        assert call(other, "/v1/games/raiders/score", {"state": state}, REQUIRED).status == 200


@pytest.mark.parametrize("starts", ["a", "b"])
def test_sealed_states_bounce_between_the_instances_mid_rotation(sealing_pair, starts):
    a, b = sealing_pair
    states = bounce(*((a, b) if starts == "a" else (b, a)))
    assert len(states) > 6
    for url, state in states:
        assert key_id(state) == sealing.derive((S1 if url == a else S2).encode()).id
    for url, state in states:
        other = b if url == a else a
        r = call(other, "/v1/games/raiders/score", {"state": state}, REQUIRED)
        assert r.status == 200, r.json


def test_an_altered_state_is_still_refused_by_the_verify_only_key(signing_pair, sealing_pair):
    """Verify-only is verification, not a way in: an edit of B's state fails on A."""
    a, b = signing_pair
    state = call(b, NEW, NEW_GAME).json["state"]
    r = call(a, "/v1/games/raiders/score", {"state": {**state, "turn": state["turn"] + 1}})
    assert r.status == 403 and r.type == "/problems/bad-signature"
    a, b = sealing_pair
    sealed = call(b, NEW, NEW_GAME).json["state"]
    r = call(a, "/v1/games/raiders/score", {"state": {**sealed, "turn": sealed["turn"] + 1}})
    assert r.status == 403 and r.type == "/problems/bad-seal"


# ------------------------------------------------------------------ in process
def instance(kind: str, keys: str, verify_only: str = ""):
    """A test client configured with ``kind`` keys (``STATE`` or ``SEALING``)."""
    config = {"TESTING": True, "ACCESS_LOG": False, f"{kind}_KEYS": keys}
    if verify_only:
        config[f"{kind}_KEYS_VERIFY_ONLY"] = verify_only
    return create_app(config).test_client()


def rollout(steps: list[tuple[str, str]], size: int = 3):
    """Every configuration a fleet of ``size`` instances passes through when each step's
    (keys, verify-only) is applied to one instance at a time."""
    fleet = [steps[0]] * size
    yield list(fleet)
    for step in steps[1:]:
        for i in range(size):
            fleet[i] = step
            yield list(fleet)


def fleet_refusals(kind: str, fleet: list[tuple[str, str]]) -> list[tuple[int, int]]:
    """(signer, verifier) pairs of the fleet where the verifier refuses the signer's state."""
    clients = [instance(kind, keys, verify) for keys, verify in fleet]
    states = [c.post(NEW, json=NEW_GAME).json["state"] for c in clients]
    return [(i, j) for i, state in enumerate(states) for j, c in enumerate(clients)
            if c.post("/v1/games/raiders/score", json={"state": state},
                      headers=dict(REQUIRED)).status_code != 200]


@pytest.mark.parametrize("kind, old, new", [("STATE", K1, K2), ("SEALING", S1, S2)])
def test_the_three_step_rollout_never_refuses_a_state_of_the_fleet(kind, old, new):
    steps = [(old, ""), (old, new), (f"{new},{old}", ""), (new, "")]
    for fleet in rollout(steps[:3]):
        assert fleet_refusals(kind, fleet) == [], fleet
    # step 3 (drop the old key) once the states signed with it are gone: the new key
    # signs everywhere by then, so the fleet agrees at every moment of that step too
    for fleet in rollout(steps[2:]):
        assert fleet_refusals(kind, fleet) == [], fleet


@pytest.mark.parametrize("kind, old, new", [("STATE", K1, K2), ("SEALING", S1, S2)])
def test_the_naive_rollout_refuses_states_mid_way(kind, old, new):
    """Without step 1: the instance already on ``new,old`` signs what the others refuse."""
    refused = [fleet_refusals(kind, fleet) for fleet in rollout([(old, ""), (f"{new},{old}", "")])]
    assert any(refused)
    assert refused[1] == [(0, 1), (0, 2)]  # instance 0 switched first; 1 and 2 refuse it


def test_a_verify_only_key_never_signs_nor_seals():
    state = instance("STATE", K1, K2).post(NEW, json=NEW_GAME).json["state"]
    assert state["signature"] == hmac_of(state, K1)
    sealed = instance("SEALING", S1, S2).post(NEW, json=NEW_GAME).json["state"]
    assert key_id(sealed) == sealing.derive(S1.encode()).id


@pytest.mark.parametrize("kind", ["STATE", "SEALING"])
def test_verify_only_keys_without_a_key_that_signs_stop_the_start(kind):
    with pytest.raises(ValueError, match=f"REFEREE_{kind}_KEYS_VERIFY_ONLY is set but "
                                         f"REFEREE_{kind}_KEYS is not"):
        create_app({"TESTING": True, f"{kind}_KEYS_VERIFY_ONLY": "k2"})


def test_the_settings_are_read_from_the_environment(monkeypatch):
    monkeypatch.setenv("REFEREE_STATE_KEYS", K1)
    monkeypatch.setenv("REFEREE_STATE_KEYS_VERIFY_ONLY", f" {K2} ,, ")
    monkeypatch.setenv("REFEREE_SEALING_KEYS", S1)
    monkeypatch.setenv("REFEREE_SEALING_KEYS_VERIFY_ONLY", S2)
    app = create_app({"TESTING": True})
    ext = app.extensions["referee"]
    assert ext["state_keys"] == [K1.encode(), K2.encode()]
    assert [k.id for k in ext["sealing_keys"]] == [sealing.derive(s.encode()).id for s in (S1, S2)]
