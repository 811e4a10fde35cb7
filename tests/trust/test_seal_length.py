"""A player measures the length of ``sealed`` to learn what the seal hides.

The attack (issue 34, item 3), on a server with ``REFEREE_SEALING_KEYS``: the
ciphertext was as long as the state, so from one Tremble state seat 1's secret
orders of 0, 1 and 2 ships sealed to 4621, 4665 and 4705 characters beside
byte-identical public parts, and two Kozyablo decks differing by one card to
3997 and 3981: seat 0 counted the ships sent against it, and read the deck list.

The answer: the scheme ``a256gcmsiv`` pads the state before sealing it
(``service.sealing.padded_size``): to a multiple of 1 KiB, and to at least twice
the public parts and 512 bytes — a size the public parts, which are in clear,
decide.  Both attacks now give equal lengths.  A plain 1 KiB rule would not be
enough: the seat names (64 characters, up to 256 bytes each) let whoever calls
``new`` put the state just under a multiple, where one more ship shows
(``test_seat_names_cannot_push_a_state_onto_a_bucket_edge``).

Old ``a256gcm`` seals still open, and the game goes on in the new scheme.
"""

from __future__ import annotations

import base64
import random
from typing import Any

import orjson
import pytest

from service import sealing
from service.games import registry
from service.signing import public_part
from tests.trust.conftest import call

KEY = "seal-length-test-key"
KEYS = sealing.parse_keys(KEY)
HEADER = "Referee-Seat-Token"
TREMBLE_SEED, KOZYABLO_SEED = 11, 5
#: Kozyablo's reference deck of the goats, and the same with one guard changed for a
#: second Word of Letaro (a longer id: the deck list is longer by a few bytes per copy)
GOATS = {"capital": "kz_capital", "sectors": ["gold_mine", "crystal_mine", "energy_source"],
         "cards": ["kz_scout", "kz_scout", "kz_guard", "kz_guard", "kz_guard", "kz_stone_goat",
                   "kz_stone_goat", "kz_catapult", "kz_catapult", "kz_healer", "kz_healer",
                   "kz_hero", "kz_art_horns", "kz_art_beard", "kz_barn", "kz_altar",
                   "kz_word_of_letaro", "kz_stubborn", "kz_curse", "kz_purge", "kz_bleat"]}
OTHER_GOATS = {**GOATS, "cards": [c for c in GOATS["cards"] if c != "kz_guard"]
               + ["kz_guard", "kz_guard", "kz_word_of_letaro"]}


def legacy_seal(state: dict[Any, Any], public: dict[Any, Any], key: sealing.SealingKey) -> dict[Any, Any]:
    """``state`` sealed as the service sealed it before issue 34 (``a256gcm``: AES-256-GCM
    of the bare state, a synthetic nonce): what the attack measured."""
    plain, associated = orjson.dumps(state), orjson.dumps(public, option=orjson.OPT_SORT_KEYS)
    nonce = sealing.synthetic_nonce(key.nonce_key, plain, associated)
    data = base64.urlsafe_b64encode(nonce + key.aead.encrypt(nonce, plain, associated))
    return {**public, "sealed": f"a256gcm:{key.id}:{data.rstrip(b'=').decode()}"}


def _opened(state: dict[Any, Any]) -> dict[Any, Any]:
    return sealing.open_sealed(state, KEYS)


def _public(state: dict[Any, Any]) -> bytes:
    return orjson.dumps({k: v for k, v in state.items() if k != "sealed"},
                        option=orjson.OPT_SORT_KEYS)


def _data_bytes(sealed: dict[Any, Any]) -> int:
    data = sealed["sealed"].split(":")[2]
    return len(base64.urlsafe_b64decode(data + "=" * (-len(data) % 4)))


def _seat1_plans(state: dict[Any, Any]) -> list[dict[Any, Any]]:
    """Seat 1's orders of 0, 1 and 2 of its ships, to one open slot."""
    listed = registry.get_game("tremble").legal_actions(state)
    pair = next(a for a in listed if a["player"] == 1 and a["type"] == "plan"
                and len(a["orders"]) == 2)
    return [{"type": "plan", "player": 1, "orders": pair["orders"][:n]} for n in (0, 1, 2)]


def _next(state: dict[Any, Any], listed: list[dict[Any, Any]], rng: random.Random) -> dict[Any, Any] | None:
    """A random action on the way to seat 1's plan with two ships or more in hand (seat 1
    plans nothing on the way); ``None`` once there."""
    if any(p["player"] == 1 and p.get("decision") == "plan" for p in state["pending"]):
        if len(state["players"][1]["hand"]) >= 2:
            return None
        listed = [a for a in listed if a["player"] != 1 or a.get("orders") == []]
    listed = [a for a in listed if a["player"] != 1 or a["type"] != "plan" or a["orders"] == []]
    return {k: v for k, v in rng.choice(sorted(listed, key=orjson.dumps)).items()
            if k != "probability"}


# --------------------------------------------------------- the attack, for real
@pytest.fixture(scope="module")
def server(serve):
    return serve("sealed", SEALING_KEYS=KEY)


def _host(tokens: list[str]) -> list[tuple[str, str]]:
    return [(HEADER, ", ".join(tokens))]


def _at_seat_1s_plan(server: str) -> tuple[dict[Any, Any], list[str]]:
    """A new sealed game of ``TREMBLE_SEED``, played by the host to seat 1's plan."""
    r = call(server, "/v1/games/tremble/new", {"players": 2, "seed": TREMBLE_SEED})
    assert r.status == 200, r.json
    state, tokens = r.json["state"], r.json["seat_tokens"]
    rng = random.Random(TREMBLE_SEED)
    while True:  # the host's tokens play every seat there
        listed = call(server, "/v1/games/tremble/legal-actions", {"state": state},
                      _host(tokens)).json["actions"]
        action = _next(_opened(state), listed, rng)
        if action is None:
            return state, tokens
        r = call(server, "/v1/games/tremble/apply", {"state": state, "action": action},
                 _host(tokens))
        assert r.status == 200, r.json
        state = r.json["state"]


def _without_chain(state: dict[Any, Any]) -> bytes:
    return orjson.dumps({k: v for k, v in state.items() if k not in ("sealed", "chain")},
                        option=orjson.OPT_SORT_KEYS)


def test_seat_1s_orders_of_0_1_2_ships_seal_to_one_length(server):
    """One sealed step answers one action (``service.spent_steps``), so the three orders
    are given in three games of one seed, played alike to the same position: the same
    state but for the game id in its chain, whose length is fixed."""
    answers = []
    for k in range(3):
        state, tokens = _at_seat_1s_plan(server)
        plan = _seat1_plans(_opened(state))[k]
        answers.append(call(server, "/v1/games/tremble/apply", {"state": state, "action": plan},
                            [(HEADER, tokens[1])]))
    assert [a.status for a in answers] == [200, 200, 200], [a.json for a in answers]
    sealed = [a.json["state"] for a in answers]
    assert len({_without_chain(s) for s in sealed}) == 1  # what seat 0 may see: the same
    assert len({len(_public(s)) for s in sealed}) == 1
    assert [len(_opened(s)["players"][1]["orders"]) for s in sealed] == [0, 1, 2]
    assert len({len(s["sealed"]) for s in sealed}) == 1, [len(s["sealed"]) for s in sealed]
    assert all(s["sealed"].startswith("a256gcmsiv:") for s in sealed)
    # before: the same states sealed the old way were as long as their secrets
    before = [legacy_seal(_opened(s), orjson.loads(_public(s)), KEYS[0]) for s in sealed]
    lengths = [len(s["sealed"]) for s in before]
    assert lengths[0] < lengths[1] < lengths[2], lengths


def test_two_decks_differing_by_one_card_seal_to_one_length(server):
    sealed = []
    for deck in (GOATS, OTHER_GOATS):
        r = call(server, "/v1/games/kozyablo/new",
                 {"players": [{"deck": deck}, {"race": "pozorki"}], "seed": KOZYABLO_SEED})
        assert r.status == 200, r.json
        sealed.append(r.json["state"])
    decks = [sorted(_opened(s)["players"][0]["deck"]) for s in sealed]
    assert decks[0] != decks[1]
    assert len(_public(sealed[0])) == len(_public(sealed[1]))  # the game ids differ, not their length
    assert len(sealed[0]["sealed"]) == len(sealed[1]["sealed"])
    before = [legacy_seal(_opened(s), orjson.loads(_public(s)), KEYS[0]) for s in sealed]
    assert len(before[0]["sealed"]) != len(before[1]["sealed"])


def test_an_old_seal_opens_and_its_successor_is_sealed_anew(server):
    r = call(server, "/v1/games/raiders/new", {"players": 2, "seed": 3})
    state, tokens = r.json["state"], r.json["seat_tokens"]
    old = legacy_seal(_opened(state), orjson.loads(_public(state)), KEYS[0])
    assert old["sealed"].startswith("a256gcm:") and _opened(old) == _opened(state)
    r = call(server, "/v1/games/raiders/legal-actions", {"state": old}, _host(tokens))
    assert r.status == 200 and r.json["actions"], r.json  # the same seat tokens open it
    r = call(server, "/v1/games/raiders/apply", {"state": old, "action": r.json["actions"][0]},
             _host(tokens))
    assert r.status == 200, r.json
    after = r.json["state"]
    assert after["sealed"].startswith("a256gcmsiv:") and after["chain"]["step"] == 1
    r = call(server, "/v1/games/raiders/score", {"state": after})
    assert r.status == 200
    altered = {**old, "turn": old["turn"] + 1}  # an old seal still binds its public parts
    r = call(server, "/v1/games/raiders/score", {"state": altered})
    assert r.status == 403 and r.type == "/problems/bad-seal"


# ----------------------------------------------------------- the breadth, in process
def _sealed(state: dict[Any, Any]) -> dict[Any, Any]:
    return sealing.seal(state, public_part(state), KEYS)


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_the_length_of_a_seal_is_decided_by_its_public_parts(game_id):
    """Over random states of each game, every seat count: the sealed data is the nonce
    and tag and a multiple of 1 KiB, and its size is ``padded_size`` of the public parts
    alone — never the state's own size (no state outgrows the public bound)."""
    game, checked = registry.get_game(game_id), 0
    for seed in range(3):
        for seats in range(game.min_players, game.max_players + 1):
            rng = random.Random(seed)
            state, _ = game.new_game(seats, {}, seed)
            for step in range(120):
                state = {**state, "chain": {"game": "0" * 32, "step": step, "prev": None,
                                            "setup": "1" * 32}}
                sealed = _sealed(state)
                size = _data_bytes(sealed) - sealing.NONCE_BYTES - sealing.TAG_BYTES
                public = len(_public(sealed))
                assert size % sealing.BUCKET == 0
                assert size == sealing.padded_size(0, public), (seed, seats, step)
                assert size == sealing.padded_size(len(orjson.dumps(state)), public)
                checked += 1
                state = {k: v for k, v in state.items() if k != "chain"}
                listed = game.legal_actions(state)
                if not listed:
                    break
                state, _ = game.apply(state, {k: v for k, v in rng.choice(listed).items()
                                              if k != "probability"})
    assert checked > 100


def _tremble_plan_point(names: list[str]) -> dict[Any, Any]:
    game, rng = registry.get_game("tremble"), random.Random(TREMBLE_SEED)
    state, _ = game.new_game([{"name": n} for n in names], {}, TREMBLE_SEED)
    while (action := _next(state, game.legal_actions(state), rng)) is not None:
        state, _ = game.apply(state, action)
    return state


def test_seat_names_cannot_push_a_state_onto_a_bucket_edge():
    """Whoever calls ``new`` names the seats: 64 characters of up to 4 bytes each.  In a
    three-seat Tremble game, under a plain 1 KiB rule some length of seat 0's name puts
    seat 1's orders of 0 and 2 ships on either side of a multiple (4096 bytes); under
    the public bound no length does."""
    game, straddled = registry.get_game("tremble"), []
    for length in range(0, 65, 2):
        names = ["🐐" * length or "Ann", "Bob", "🐐" * 64]
        state = _tremble_plan_point(names)
        states = [game.apply(state, plan)[0] for plan in _seat1_plans(state)]
        sealed = [_sealed(s) for s in states]
        assert len({_public(s) for s in sealed}) == 1
        assert len({len(s["sealed"]) for s in sealed}) == 1, length
        plain = [len(orjson.dumps(s)) for s in states]
        straddled += [length] if len({-(-(p + 1) // sealing.BUCKET) for p in plain}) > 1 else []
    assert straddled, "no name reached a 1 KiB edge: the test shows nothing about the rule"
