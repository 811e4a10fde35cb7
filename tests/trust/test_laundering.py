"""A cheater edits a state, strips its signature and asks the service to sign the result.

The attack (issue 22, item 1), on a server with ``REFEREE_STATE_KEYS`` set and
signatures not required: a two-player Raiders game (seed 15, ``turn_limit: 1``)
that Ann wins 4–0.  Before the last step the cheater moves Ann's holdings to
Bob, deletes ``signature`` and ``chain``, and sends ``end_turn`` to ``apply``.
Before the fix the answer came back signed — a forged state laundered — and
``score`` with ``Referee-Require-Signed: true`` and the tournament standings
credited Bob.

The answer now: a signature certifies that the state descends, through steps
this service adjudicated, from a setup it made (``new``, ``replay``).  An
unsigned input gets an unsigned answer (no ``signature``, no ``seal``, no
``chain``), which every place that requires signed states refuses.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from service.games import registry
from tests.trust.conftest import call

KEY = "launder-test-key"
SEATS = [{"name": "Ann"}, {"name": "Bob"}]
#: Ann captures the market (README's first game), both pass; then the last step
OPENING = [{"type": "capture", "player": 0, "fighter": "C-J", "property": "market"},
           {"type": "pass", "player": 0}, {"type": "pass", "player": 1}]
LAST = {"type": "end_turn", "player": 0}


def _before_the_last_step(url: str) -> dict[Any, Any]:
    r = call(url, "/v1/games/raiders/new",
             {"players": SEATS, "seed": 15, "options": {"turn_limit": 1}})
    assert r.status == 200, r.json
    state = r.json["state"]
    for action in OPENING:
        r = call(url, "/v1/games/raiders/apply", {"state": state, "action": action})
        assert r.status == 200, r.json
        state = r.json["state"]
    return state


def _moved_to_bob(state: dict[Any, Any]) -> dict[Any, Any]:
    players = [dict(p) for p in state["players"]]
    players[1]["holdings"], players[0]["holdings"] = players[0]["holdings"], {}
    return {**{k: v for k, v in state.items() if k not in ("signature", "chain")},
            "players": players}


@pytest.fixture(scope="module")
def signing_server(serve):
    return serve("signing", STATE_KEYS=KEY)


@pytest.fixture(scope="module")
def sealing_server(serve):
    return serve("sealing", SEALING_KEYS=KEY)


def test_the_honest_game_is_won_by_ann_4_to_0(signing_server):
    state = _before_the_last_step(signing_server)
    r = call(signing_server, "/v1/games/raiders/apply", {"state": state, "action": LAST})
    assert r.status == 200 and r.json["state"]["signature"].startswith("hmac-sha256:")
    assert r.json["outcome"]["finished"] and r.json["outcome"]["winners"] == [0]
    assert [s["total"] for s in r.json["outcome"]["scores"]] == [4, 0]


def test_an_edited_unsigned_state_is_adjudicated_but_never_signed(signing_server):
    forged = _moved_to_bob(_before_the_last_step(signing_server))
    r = call(signing_server, "/v1/games/raiders/apply", {"state": forged, "action": LAST})
    assert r.status == 200, r.json  # signatures are not required: the service plays it...
    assert r.json["outcome"]["winners"] == [1]
    final = r.json["state"]
    assert "signature" not in final and "chain" not in final  # ...and certifies nothing
    r = call(signing_server, "/v1/games/raiders/score", {"state": final},
             [("Referee-Require-Signed", "true")])
    assert r.status == 400 and r.type == "/problems/unsigned-state"
    standings = {"players": ["Ann", "Bob"], "rounds": [{"matches": [
        {"players": ["Ann", "Bob"], "games": [{"game": "raiders", "state": final}]}]}]}
    r = call(signing_server, "/v1/tournaments/standings", standings)
    assert r.status == 400 and r.type == "/problems/unsigned-state"


def test_an_edited_plain_state_does_not_come_back_sealed(sealing_server, signing_server):
    forged = _moved_to_bob(_before_the_last_step(signing_server))  # a plain full state
    r = call(sealing_server, "/v1/games/raiders/apply", {"state": forged, "action": LAST})
    assert r.status == 200, r.json
    assert "sealed" not in r.json["state"] and "chain" not in r.json["state"]
    assert r.json["state"]["players"][1]["holdings"]  # as sent: the caller's own plain state


def test_a_signature_kept_beside_an_edit_is_refused(signing_server):
    state = _before_the_last_step(signing_server)
    edited = {**_moved_to_bob(state), "signature": state["signature"], "chain": state["chain"]}
    r = call(signing_server, "/v1/games/raiders/apply", {"state": edited, "action": LAST})
    assert r.status == 403 and r.type == "/problems/bad-signature"


@pytest.mark.parametrize("keys", [{"STATE_KEYS": KEY}, {"SEALING_KEYS": KEY}])
@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_no_route_signs_or_seals_the_successor_of_a_plain_state(make_client, keys, game_id):
    """Every route that answers a state from a state (``apply``, ``apply-chance``), over
    random positions of each game, in server and table chance: a plain input gets an
    answer that is neither signed nor sealed and carries no chain."""
    client = make_client(**keys)
    game, rng = registry.get_game(game_id), random.Random(22)
    for seed in range(3):
        for chance in ("server", "table"):
            state, _ = game.new_game(game.min_players, {"chance": chance}, seed)
            for _ in range(25):
                listed = game.legal_actions(state)
                if not listed:
                    break
                action = {k: v for k, v in rng.choice(listed).items() if k != "probability"}
                if action["player"] == "chance":
                    r = client.post(f"/v1/games/{game_id}/apply-chance",
                                    json={"state": state, "outcomes": [action]})
                else:
                    r = client.post(f"/v1/games/{game_id}/apply",
                                    json={"state": state, "action": action})
                assert r.status_code == 200, r.json
                out = r.json["state"]
                assert not {"signature", "sealed", "chain"} & set(out), (game_id, action)
                state, _ = game.apply(state, action)
