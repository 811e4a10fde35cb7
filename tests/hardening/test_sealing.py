"""Sealed states (``service.sealing`` through ``service.signing``): hidden parts
encrypted, public parts readable, every state endpoint working on them."""

from __future__ import annotations

import base64
import random
from typing import Any

import orjson
import pytest

from service import sealing
from service.games import registry
from tests.contract import strings_and_keys

PROBLEMS = "/problems/"
KEYS = "seal-2026,seal-2025"
CHANCE_MODES = ("server", "table")


@pytest.fixture
def sealed(make_client):
    return make_client(SEALING_KEYS=KEYS)


@pytest.fixture
def plain(make_client):
    return make_client()


def _opened(state: dict[Any, Any], keys: str = KEYS) -> dict[Any, Any]:
    """The engine state inside a sealed one (its chain dropped)."""
    inner = sealing.open_sealed(state, sealing.parse_keys(keys))
    inner.pop("chain", None)
    return inner


def _numbers(value) -> set[Any]:
    out, stack = set(), [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, int) and not isinstance(v, bool):
            out.add(v)
    return out


def _canonical(value) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def _play(client, game_id: str, chance: str, seed: int, steps: int):
    """New game and ``steps`` random actions over HTTP: (setup, states, actions)."""
    game = registry.get_game(game_id)
    setup = {"players": min(game.min_players + 1, game.max_players), "seed": seed,
             "options": {"chance": chance}}
    r = client.post(f"/v1/games/{game_id}/new", json=setup)
    assert r.status_code == 200, r.json
    rng = random.Random(seed)
    states, actions = [r.json["state"]], []
    for _ in range(steps):
        legal = client.post(f"/v1/games/{game_id}/legal-actions",
                            json={"state": states[-1]}).json["actions"]
        if not legal:
            break
        legal.sort(key=_canonical)  # the engines list in the order of the state's keys, which
        # differ: the test client sends JSON with sorted keys, a sealed state keeps the engine's
        action = {k: v for k, v in rng.choice(legal).items() if k != "probability"}
        r = client.post(f"/v1/games/{game_id}/apply", json={"state": states[-1], "action": action})
        assert r.status_code == 200, r.json
        states.append(r.json["state"])
        actions.append(action)
    return setup, states, actions


@pytest.mark.parametrize("chance", CHANCE_MODES)
@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_a_sealed_state_shows_no_secret_card_seed_or_counter(sealed, game_id, chance):
    game = registry.get_game(game_id)
    _, states, _ = _play(sealed, game_id, chance, 987_654_321_012, 40)  # a seed no count equals
    secrets_seen = 0
    for state in states:
        full = _opened(state)
        public = {k: v for k, v in state.items() if k != "sealed"}
        secret = game.secret_cards(full, None)
        secrets_seen += len(secret)
        assert not secret & strings_and_keys(state), sorted(secret & strings_and_keys(state))
        assert public["chance"] == {"mode": chance}
        assert full["chance"]["seed"] not in _numbers(public)
        assert "view" not in public
        assert {k: v for k, v in public.items() if k != "chain"} == \
            {k: v for k, v in game.view(full, None).items() if k != "view"}
    assert secrets_seen, "no state had a secret card: the test proves nothing"


@pytest.mark.parametrize("chance", CHANCE_MODES)
@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_every_state_endpoint_answers_a_sealed_state_as_the_plain_one(sealed, plain, game_id,
                                                                       chance):
    """The same seeded game played sealed and plain: each endpoint answers the
    same (states compared once opened)."""
    setup, states, actions = _play(sealed, game_id, chance, 6, 25)
    _, plain_states, plain_actions = _play(plain, game_id, chance, 6, 25)
    assert actions == plain_actions
    assert [_opened(s) for s in states] == plain_states
    for state, bare in list(zip(states, plain_states))[::4]:
        for verb, extra in (("legal-actions", {}), ("score", {}), ("view", {"player": None}),
                            ("view", {"player": 0})):
            got = sealed.post(f"/v1/games/{game_id}/{verb}", json={"state": state, **extra})
            want = plain.post(f"/v1/games/{game_id}/{verb}", json={"state": bare, **extra})
            assert got.status_code == want.status_code == 200, (verb, got.json)
            answers = got.json, want.json  # (``.json`` parses anew on each access)
            if verb == "legal-actions":
                for answer in answers:
                    answer["actions"].sort(key=_canonical)
            assert answers[0] == answers[1], verb
        for action in actions[:3]:
            got = sealed.post(f"/v1/games/{game_id}/check", json={"state": state, "action": action})
            want = plain.post(f"/v1/games/{game_id}/check", json={"state": bare, "action": action})
            assert got.status_code == 200 and got.json == want.json
        deciding = [p["player"] for p in bare["pending"] if p["player"] != "chance"]
        if deciding:  # the synchronous suggestion, an iteration budget: the same answer
            params = {"player": deciding[0], "iterations": 6, "seed": 3, "rollout_depth": 1}
            got = sealed.post(f"/v1/games/{game_id}/suggest", json={"state": state, "params": params})
            want = plain.post(f"/v1/games/{game_id}/suggest", json={"state": bare, "params": params})
            assert got.status_code == want.status_code == 200, got.json
            assert {**got.json, "cpu_ms": None} == {**want.json, "cpu_ms": None}
    got = sealed.post(f"/v1/games/{game_id}/replay", json={"setup": setup, "actions": actions})
    want = plain.post(f"/v1/games/{game_id}/replay", json={"setup": setup, "actions": actions})
    assert got.status_code == want.status_code == 200, got.json
    assert "sealed" in got.json["state"] and _opened(got.json["state"]) == want.json["state"]
    assert got.json["events"] == want.json["events"]


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_apply_chance_takes_and_returns_sealed_states(sealed, plain, game_id):
    game = registry.get_game(game_id)
    body = {"players": game.min_players, "seed": 2, "options": {"chance": "table"}}
    state = sealed.post(f"/v1/games/{game_id}/new", json=body).json["state"]
    bare = plain.post(f"/v1/games/{game_id}/new", json=body).json["state"]
    outcomes = []
    for _ in range(3):
        legal = plain.post(f"/v1/games/{game_id}/legal-actions",
                           json={"state": bare, "player": "chance"}).json["actions"]
        if not legal:
            break
        outcomes.append({k: v for k, v in legal[0].items() if k != "probability"})
        bare = plain.post(f"/v1/games/{game_id}/apply",
                          json={"state": bare, "action": outcomes[-1]}).json["state"]
    assert outcomes, "no chance outcome pending in a new table game"
    r = sealed.post(f"/v1/games/{game_id}/apply-chance", json={"state": state, "outcomes": outcomes})
    assert r.status_code == 200, r.json
    assert _opened(r.json["state"]) == bare


def _flip(token: str, at: int) -> str:
    scheme, key_id, data = token.split(":")
    raw = bytearray(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)))
    raw[at] ^= 0x01
    return ":".join((scheme, key_id, base64.urlsafe_b64encode(bytes(raw)).rstrip(b"=").decode()))


@pytest.mark.parametrize("verb", ["legal-actions", "score", "view", "apply"])
def test_a_flipped_byte_or_a_changed_public_field_is_refused(sealed, verb):
    state = sealed.post("/v1/games/raiders/new", json={"players": 2, "seed": 3}).json["state"]
    action = sealed.post("/v1/games/raiders/legal-actions",
                         json={"state": state}).json["actions"][0]
    extra = {"legal-actions": {}, "score": {}, "view": {"player": 0},
             "apply": {"action": action}}[verb]
    for at in (0, 12, 40, -1):  # nonce, ciphertext, tag
        altered = {**state, "sealed": _flip(state["sealed"], at)}
        r = sealed.post(f"/v1/games/raiders/{verb}", json={"state": altered, **extra})
        assert r.status_code == 403 and r.json["type"] == PROBLEMS + "bad-seal", at
    for altered in ({**state, "turn": state["turn"] + 1},
                    {**state, "chance": {"mode": "server", "seed": 1, "counter": 0}},
                    {**state, "chain": {**state["chain"], "step": 5}},
                    {k: v for k, v in state.items() if k != "chain"},
                    {**state, "sealed": "a256gcmsiv:0000000000000000:AAAA"},
                    {**state, "sealed": "a256gcm:0000000000000000:AAAA"},
                    {**state, "sealed": "hmac-sha256:00"}):
        r = sealed.post(f"/v1/games/raiders/{verb}", json={"state": altered, **extra})
        assert r.status_code == 403 and r.json["type"] == PROBLEMS + "bad-seal"
        assert r.mimetype == "application/problem+json"
    assert sealed.post(f"/v1/games/raiders/{verb}",
                       json={"state": state, **extra}).status_code == 200


def test_keys_rotate_the_old_key_still_opens(make_client):
    old = make_client(SEALING_KEYS="seal-2025")
    rotated = make_client(SEALING_KEYS="seal-2026,seal-2025")
    state = old.post("/v1/games/raiders/new", json={"players": 2, "seed": 3}).json["state"]
    rotated.tokens = old.tokens  # the host's seat tokens, issued under the old key, still open
    r = rotated.post("/v1/games/raiders/legal-actions", json={"state": state})
    assert r.status_code == 200
    r = rotated.post("/v1/games/raiders/apply",
                     json={"state": state, "action": r.json["actions"][0]})
    assert r.status_code == 200
    new_id = sealing.parse_keys("seal-2026")[0].id
    assert r.json["state"]["sealed"].split(":")[1] == new_id != state["sealed"].split(":")[1]
    gone = make_client(SEALING_KEYS="seal-2026")  # the old key dropped: its states no longer open
    r = gone.post("/v1/games/raiders/score", json={"state": state})
    assert r.status_code == 403 and r.json["type"] == PROBLEMS + "bad-seal"


def test_a_server_without_sealing_keys_refuses_a_sealed_state_saying_why(sealed, make_client):
    state = sealed.post("/v1/games/raiders/new", json={"players": 2}).json["state"]
    for client in (make_client(), make_client(STATE_KEYS="sign-key")):
        r = client.post("/v1/games/raiders/score", json={"state": state})
        assert r.status_code == 403 and r.json["type"] == PROBLEMS + "bad-seal"
        assert "REFEREE_SEALING_KEYS" in r.json["detail"]


def test_a_sealed_state_counts_as_signed_where_signatures_are_required(make_client, plain):
    strict = make_client(SEALING_KEYS=KEYS, REQUIRE_SIGNED="1")
    state = strict.post("/v1/games/raiders/new", json={"players": 2, "seed": 3}).json["state"]
    assert strict.post("/v1/games/raiders/score", json={"state": state}).status_code == 200
    bare = plain.post("/v1/games/raiders/new", json={"players": 2, "seed": 3}).json["state"]
    r = strict.post("/v1/games/raiders/score", json={"state": bare})
    assert r.status_code == 400 and r.json["type"] == PROBLEMS + "unsigned-state"
    assert "`sealed`" in r.json["detail"]


def test_with_both_kinds_of_keys_states_are_sealed_and_signed_ones_still_accepted(make_client):
    signer = make_client(STATE_KEYS="sign-key")
    both = make_client(STATE_KEYS="sign-key", SEALING_KEYS=KEYS)
    signed = signer.post("/v1/games/raiders/new", json={"players": 2, "seed": 3}).json["state"]
    action = signer.post("/v1/games/raiders/legal-actions",
                         json={"state": signed}).json["actions"][0]
    r = both.post("/v1/games/raiders/apply", json={"state": signed, "action": action})
    assert r.status_code == 200
    out = r.json["state"]
    assert "sealed" in out and "signature" not in out
    assert out["chain"]["step"] == 1 and out["chain"]["game"] == signed["chain"]["game"]
