"""Mutated real states are refused with a precise 400, never accepted, never a 500.

States come from seeded random games of every game (over HTTP).  Each
mutation below breaks the state for certain — a card duplicated, dropped or
replaced by another, a wrong type, a negative or huge turn number, deep
nesting, an unknown field, the pending decision handed to the wrong player
— so the only right answer is a 400 problem+json whose ``errors`` name the
place (``tests/http/test_fuzz.py`` sends random corruptions and only checks
that no 500 comes back; this file checks that a broken state is *refused*).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Iterator
from typing import Any

import orjson
import pytest

from service.games import registry
from service.games.objects import JsonObject
from tests.wsgi import client_of

from .conftest import walk

VERBS = ("legal-actions", "score", "check", "apply", "view")


def _paths(value: object, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], object]]:
    yield prefix, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


def _card_slots(cards: Collection[str], state: object) -> list[tuple[tuple[Any, ...], int]]:
    """``(path, index)`` of every card instance standing alone in a list, and that
    appears exactly once in the whole state (so a copy is certainly an extra)."""
    counts = Counter(v for _, v in _paths(state) if isinstance(v, str))
    return [(path, i) for path, value in _paths(state) if isinstance(value, list)
            for i, v in enumerate(value) if isinstance(v, str) and v in cards and counts[v] == 1]


def _at(state: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        state = state[key]
    return state


def mutations(cards: Collection[str], state: JsonObject, rng: random.Random) -> Iterator[tuple[str, Any]]:
    """``(name, mutated state)`` pairs, each certainly broken; ``cards``: the
    game's card instance ids (every card some spectator could not see)."""

    def copy() -> Any:
        return orjson.loads(orjson.dumps(state))

    slots = _card_slots(cards, state)
    if slots:
        path, i = rng.choice(slots)
        s = copy(); lst = _at(s, path); lst.append(lst[i])
        yield "duplicated card", s
        s = copy(); del _at(s, path)[i]
        yield "dropped card", s
        if len(slots) > 1:
            (p2, j) = rng.choice([x for x in slots if x != (path, i)])
            s = copy(); _at(s, path)[i] = _at(state, p2)[j]
            yield "card replaced by another (one twice, one missing)", s
        s = copy(); _at(s, path)[i] = "NO-SUCH-CARD"
        yield "unknown card", s
    s = copy(); s["turn"] = "3"
    yield "wrong type (turn as text)", s
    s = copy(); s["turn"] = -1
    yield "negative turn", s
    s = copy(); s["chance"]["counter"] = -5
    yield "negative chance counter", s
    s = copy(); s["turn"] = 1 << 70
    yield "huge turn", s
    s = copy(); s["players"] = "everyone"
    yield "players not a list", s
    deep: JsonObject = {}
    node = deep
    for _ in range(200):
        node["x"] = {}
        node = node["x"]
    s = copy(); s["options"] = {**s["options"], "deep": deep}
    yield "deep nesting", s
    s = copy(); s["extra_field"] = 1
    yield "unknown top-level field", s
    s = copy(); s["players"][0]["extra_field"] = 1
    yield "unknown field in a player", s
    if s["pending"] and s["pending"][0]["player"] != "chance":
        s = copy()
        who = s["pending"][0]["player"]
        s["pending"][0]["player"] = (who + 1) % len(s["players"])
        if s["pending"] != state["pending"]:
            yield "pending for the wrong player", s


@pytest.fixture(scope="module")
def states():
    from service.app import create_app

    client = client_of(create_app({"TESTING": True}))
    out = {}
    for game_id in registry.GAME_IDS:
        game = registry.get_game(game_id)
        picked = []
        for seed in (1, 2, 3):
            walked = walk(client, game_id, seed, 30, players=game.max_players if seed == 3 else None)
            picked.extend(walked[::6])
        out[game_id] = picked
    return client, out


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_every_broken_state_is_refused_with_the_place_named(states, game_id):
    client, by_game = states
    game = registry.get_game(game_id)
    rng = random.Random(game_id)
    seen: Counter[str] = Counter()
    cards = set().union(*(game.secret_cards(s, None) for s in by_game[game_id]))
    for state in by_game[game_id]:
        action = (client.post(f"/v1/games/{game_id}/legal-actions", json={"state": state})
                  .json["actions"] or [{"type": "pass", "player": 0}])[0]
        for name, broken in mutations(cards, state, rng):
            seen[name] += 1
            verb = rng.choice(VERBS)
            body = {"state": broken}
            if verb in ("check", "apply"):
                body["action"] = action
            if verb == "view":
                body["player"] = 0
            r = client.post(f"/v1/games/{game_id}/{verb}", json=body)
            assert r.status_code == 400, (name, verb, r.status_code, r.get_data(as_text=True)[:300])
            assert r.mimetype == "application/problem+json"
            assert r.json["errors"], (name, r.json)
            assert all(k.startswith("state") for k in r.json["errors"]), (name, r.json["errors"])
    assert seen["duplicated card"] and seen["dropped card"] and seen["unknown card"], seen
