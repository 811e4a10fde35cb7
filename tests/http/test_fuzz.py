"""Bad input never produces a 500: random bodies and corrupted states (hypothesis).

Every answer must be JSON (200) or problem+json with a 4xx status.  Run
against every registered game: a state from a short random game is corrupted
at one random place (a value replaced by random JSON, a key dropped, a list
item duplicated), and sent to each endpoint.
"""

from __future__ import annotations

import json
import random

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.games import registry
from tests.contract import json_paths
from tests.size import sized
from tests.wsgi import QuickResponse

VERBS = ("legal-actions", "apply", "check", "score", "view")
ALLOWED = {200, 400, 404, 413, 415, 422}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(1 << 70), max_value=1 << 70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children,
                                                                      max_size=4),
    max_leaves=12)


def assert_handled(r: QuickResponse) -> None:
    assert r.status_code in ALLOWED, (r.status_code, r.get_data(as_text=True)[:800])
    if r.status_code == 200:
        assert r.mimetype == "application/json"
    else:
        assert r.mimetype == "application/problem+json"
        assert r.json["status"] == r.status_code


@pytest.fixture(scope="module")
def fuzz_client():
    import card_db
    from service.app import create_app

    card_db.clear_cache()
    return create_app({"TESTING": True}).test_client()


@pytest.fixture(scope="module")
def sample_states(fuzz_client):
    """A few states per game, from short seeded random games over HTTP."""
    out = {}
    for game in registry.all_games():
        rng = random.Random(1)
        state = fuzz_client.post(f"/v1/games/{game.id}/new",
                                 json={"players": game.min_players, "seed": 1}).json["state"]
        states = [state]
        for _ in range(8):
            actions = fuzz_client.post(f"/v1/games/{game.id}/legal-actions",
                                       json={"state": state}).json["actions"]
            if not actions:
                break
            state = fuzz_client.post(f"/v1/games/{game.id}/apply",
                                     json={"state": state, "action": rng.choice(actions)}).json["state"]
            states.append(state)
        out[game.id] = states
    return out




def corrupt(state, rng: random.Random, junk):
    """A deep copy of ``state`` with one random place broken."""
    state = orjson.loads(orjson.dumps(state))
    paths = list(json_paths(state))
    path = rng.choice(paths)
    parent = state
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    how = rng.randrange(3)
    if how == 0 or not isinstance(parent, (dict, list)):
        parent[last] = junk
    elif how == 1:
        del parent[last]
    elif isinstance(parent, list):
        parent.append(parent[last])
    else:
        parent[str(junk)[:8] or "x"] = parent[last]
    return state


@settings(max_examples=sized(150, least=20), deadline=None, suppress_health_check=list(HealthCheck))
@given(verb=st.sampled_from(VERBS + ("new", "replay")), body=json_values)
def test_random_bodies_are_handled(fuzz_client, verb, body):
    for game_id in registry.GAME_IDS:
        r = fuzz_client.post(f"/v1/games/{game_id}/{verb}", data=json.dumps(body),
                             content_type="application/json")
        assert_handled(r)


@settings(max_examples=sized(150, least=20), deadline=None, suppress_health_check=list(HealthCheck))
@given(verb=st.sampled_from(VERBS + ("new", "replay")), fields=st.dictionaries(
    st.sampled_from(["state", "action", "player", "players", "options", "seed", "card_set",
                     "setup", "actions"]), json_values, max_size=4))
def test_random_envelopes_are_handled(fuzz_client, verb, fields):
    for game_id in registry.GAME_IDS:
        r = fuzz_client.post(f"/v1/games/{game_id}/{verb}", json=fields)
        assert_handled(r)


@settings(max_examples=sized(300, least=20), deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 1 << 30), junk=json_values, verb=st.sampled_from(VERBS))
def test_corrupted_states_are_handled(fuzz_client, sample_states, seed, junk, verb):
    rng = random.Random(seed)
    for game_id, states in sample_states.items():
        state = rng.choice(states)
        broken = corrupt(state, rng, junk)
        body = {"state": broken}
        if verb in ("apply", "check"):
            actions = fuzz_client.post(f"/v1/games/{game_id}/legal-actions",
                                       json={"state": state}).json["actions"]
            body["action"] = rng.choice(actions) if actions else {"type": "pass", "player": 0}
        if verb == "view":
            body["player"] = rng.choice([None, 0, 1])
        r = fuzz_client.post(f"/v1/games/{game_id}/{verb}", json=body)
        assert_handled(r)


@settings(max_examples=sized(200, least=20), deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 1 << 30), junk=json_values)
def test_corrupted_actions_are_handled(fuzz_client, sample_states, seed, junk):
    rng = random.Random(seed)
    for game_id, states in sample_states.items():
        state = rng.choice(states)
        actions = fuzz_client.post(f"/v1/games/{game_id}/legal-actions",
                                   json={"state": state}).json["actions"]
        if not actions:
            continue
        action = corrupt(rng.choice(actions), rng, junk)
        for verb in ("apply", "check"):
            assert_handled(fuzz_client.post(f"/v1/games/{game_id}/{verb}",
                                            json={"state": state, "action": action}))
