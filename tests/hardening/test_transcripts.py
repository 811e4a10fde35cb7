"""Hash-chained transcripts (``service.transcripts``) and server-drawn seeds,
over HTTP, with signed and with sealed states."""

from __future__ import annotations

import pytest

from service.games import registry
from service.games.objects import JsonObject

from .conftest import Poster, walk

PROBLEMS = "/problems/"
CONFIGS = {"signed": {"STATE_KEYS": "sign-2026"}, "sealed": {"SEALING_KEYS": "seal-2026"}}


@pytest.fixture(params=sorted(CONFIGS))
def client(request, make_client):
    return make_client(**CONFIGS[request.param])


def _verify(client: Poster, states: list[JsonObject]) -> JsonObject:
    r = client.post("/v1/transcripts/verify", json={"states": states})
    assert r.status_code == 200, r.json
    found: JsonObject = r.json
    return found


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_a_game_played_through_is_one_valid_chain(client, game_id):
    states = walk(client, game_id, 5, 30)
    chains = [s["chain"] for s in states]
    assert chains[0]["step"] == 0 and chains[0]["prev"] is None
    assert [c["step"] for c in chains] == list(range(len(states)))
    assert len({c["game"] for c in chains}) == 1
    found = _verify(client, states[::-1])  # any order
    assert found == {"valid": True, "game": chains[0]["game"], "steps": list(range(len(states))),
                     "forks": [], "breaks": []}


def test_two_actions_applied_to_one_state_are_a_fork_or_refused(client):
    """Signed states (the register keeps no steps of them by default): a second action on
    one state is answered, and the chain shows the fork.  Sealed states: the step answers
    one action (``service.spent_steps``) — every other action is 409 ``step-spent``, so
    there is no fork to find."""
    states = walk(client, "raiders", 3, 4)
    base = states[2]
    actions = client.post("/v1/games/raiders/legal-actions", json={"state": base}).json["actions"]
    replies = [client.post("/v1/games/raiders/apply", json={"state": base, "action": a})
               for a in actions]
    if "sealed" in base:
        refused = [r for r in replies if r.status_code == 409]
        assert refused and all(r.json["type"] == PROBLEMS + "step-spent" for r in refused)
        assert {(r.json["game"], r.json["step"]) for r in refused} == {
            (base["chain"]["game"], base["chain"]["step"])}
        assert all(r.json["state"] == states[3] for r in replies if r.status_code == 200)
        assert _verify(client, states)["valid"]
        return
    other = next(r.json["state"] for r in replies if r.json["state"] != states[3])
    found = _verify(client, [*states, other])
    assert not found["valid"] and found["breaks"] == []
    assert found["forks"] == [{"step": 3, "states": [3, len(states)]}]


def test_the_same_action_sent_again_is_no_fork(client):
    """A retried ``apply`` answers the very same state (signatures and seals are
    deterministic, and so is the engine): no false fork."""
    states = walk(client, "raiders", 8, 1)
    action = client.post("/v1/games/raiders/legal-actions",
                         json={"state": states[1]}).json["actions"][0]
    again = [client.post("/v1/games/raiders/apply", json={"state": states[1], "action": action})
             .json["state"] for _ in range(2)]
    assert again[0] == again[1]
    assert _verify(client, [*states, *again])["valid"]


def test_a_state_from_another_game_or_a_gap_is_a_break(client):
    one = walk(client, "raiders", 3, 3)
    two = walk(client, "raiders", 3, 3)  # same seed and moves, but a game of its own
    found = _verify(client, [*one, two[2]])
    assert not found["valid"]
    assert {"state": None, "reason": "states of more than one game"} in found["breaks"]
    found = _verify(client, [one[0], one[2], one[3]])
    assert found["breaks"] == [{"state": 1, "reason": "its predecessor is not among the states"}]
    assert _verify(client, one[1:])["valid"]  # a collection may start mid-game


def test_apply_chance_counts_its_outcomes_and_replay_counts_its_actions(client):
    game = registry.get_game("raiders")
    setup = {"players": 2, "seed": 4, "options": {"chance": "table"}}
    new = client.post("/v1/games/raiders/new", json=setup).json["state"]
    outcomes, bare = [], game.new_game(2, {"chance": "table"}, 4, "reference")[0]
    for _ in range(5):
        outcome = {k: v for k, v in game.legal_actions(bare, "chance")[0].items()
                   if k != "probability"}
        outcomes.append(outcome)
        bare, _ = game.apply(bare, outcome)
    r = client.post("/v1/games/raiders/apply-chance", json={"state": new, "outcomes": outcomes})
    assert r.status_code == 200, r.json
    after = r.json["state"]
    assert after["chain"]["step"] == 5 and after["chain"]["game"] == new["chain"]["game"]
    assert _verify(client, [new, after])["valid"]
    replayed = client.post("/v1/games/raiders/replay",
                           json={"setup": setup, "actions": outcomes}).json["state"]
    assert replayed["chain"]["step"] == 5 and replayed["chain"]["prev"] is None
    assert replayed["chain"]["game"] != new["chain"]["game"]  # a replay is a line of its own
    assert _verify(client, [replayed])["valid"]


def test_the_chain_is_covered_by_the_signature_or_seal(client):
    state = walk(client, "raiders", 3, 1)[-1]
    forged = {**state, "chain": {**state["chain"], "step": 0}}
    r = client.post("/v1/games/raiders/score", json={"state": forged})
    assert r.status_code == 403 and r.json["type"] in (PROBLEMS + "bad-signature",
                                                      PROBLEMS + "bad-seal")
    r = client.post("/v1/transcripts/verify", json={"states": [state, forged]})
    assert r.status_code == 403 and r.json["index"] == 1


def test_verify_refuses_unsigned_states_naming_the_index(make_client):
    signer = make_client(STATE_KEYS="k")
    states = walk(signer, "raiders", 3, 1)
    bare = {k: v for k, v in states[1].items() if k != "signature"}
    r = signer.post("/v1/transcripts/verify", json={"states": [states[0], bare]})
    assert r.status_code == 400 and r.json["type"] == PROBLEMS + "unsigned-state"
    assert r.json["index"] == 1
    r = make_client().post("/v1/transcripts/verify", json={"states": states})
    assert r.status_code == 400 and r.json["type"] == PROBLEMS + "unsigned-state"
    r = signer.post("/v1/transcripts/verify", json={"states": []})
    assert r.status_code == 400 and "states" in r.json["errors"]


def test_without_keys_no_chain_and_a_chain_sent_is_ignored(make_client):
    plain = make_client()
    signed = walk(make_client(STATE_KEYS="k"), "raiders", 3, 1)[-1]
    state = plain.post("/v1/games/raiders/new", json={"players": 2, "seed": 3}).json["state"]
    assert "chain" not in state
    r = plain.post("/v1/games/raiders/score", json={"state": signed})  # chain stripped too
    assert r.status_code == 200


def test_an_unsigned_state_continues_no_chain(make_client):
    """Only an authenticated state's chain is followed: a client cannot graft one, and the
    answer to an unsigned state is unsigned (docs/trust.md: a signature certifies descent)."""
    client = make_client(STATE_KEYS="k")
    state = walk(client, "raiders", 3, 1)[-1]
    bare = {k: v for k, v in state.items() if k != "signature"}
    action = client.post("/v1/games/raiders/legal-actions", json={"state": bare}).json["actions"][0]
    r = client.post("/v1/games/raiders/apply", json={"state": bare, "action": action})
    assert r.status_code == 200 and "chain" not in r.json["state"]
    assert "signature" not in r.json["state"]


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_server_seeds_refuse_a_client_seed_and_draw_one(make_client, game_id):
    client = make_client(SEALING_KEYS="seal-2026", SERVER_SEEDS="1")
    game = registry.get_game(game_id)
    r = client.post(f"/v1/games/{game_id}/new", json={"players": game.min_players, "seed": 7})
    assert r.status_code == 400 and r.mimetype == "application/problem+json"
    assert list(r.json["errors"]) == ["seed"]
    for body in ({"players": game.min_players}, {"players": game.min_players, "seed": None}):
        r = client.post(f"/v1/games/{game_id}/new", json=body)
        assert r.status_code == 200 and r.json["state"]["chance"] == {"mode": "server"}
    seeded = make_client(SERVER_SEEDS="0").post(
        f"/v1/games/{game_id}/new", json={"players": game.min_players, "seed": 7})
    assert seeded.status_code == 200
