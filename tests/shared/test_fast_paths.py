"""The fast paths of the shared validation machinery agree with the slow ones.

``shape.Spec.ok`` must be ``True`` exactly when ``validate`` finds no error,
and ``conservation_errors``' counting shortcut must give the same answer as
walking the zones — on real states of every game and on thousands of
corrupted copies of them (wrong types, out-of-range numbers, long strings,
unknown and missing keys, duplicated, lost and unknown cards).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from service import limits
from service.games import shape
from service.games.base import conservation_errors
from service.games.registry import GAME_IDS, get_game

JUNK = [None, True, False, 0, -1, 1 << 70, 3.5, "", "x" * 300, "chance", [], {}, [None],
        {"k": 1}, [[[]]], "S-Q"]


def slow_errors(spec, value):
    errors: dict[Any, Any] = {}
    spec.validate(value, "state", errors, 0)
    return errors


def states_of(game_id, seeds=2, every=7):
    game = get_game(game_id)
    players = ([{"race": "pozorki"}, {"race": "kozly"}] if game_id == "kozyablo"
               else game.min_players + 1)
    out = []
    for seed in range(seeds):
        options = {} if game_id == "tremble" else {"turn_limit": 30}
        state, _ = game.new_game(players, options, seed)
        rng = random.Random(seed)
        step = 0
        while state["result"] is None and step < 400:
            if step % every == 0:
                out.append(state)
            who = min(p["player"] for p in state["pending"] if p["player"] != "chance")
            actions = game.legal_actions(state, who)
            state, _ = game.apply(state, actions[rng.randrange(len(actions))])
            step += 1
        out.append(state)
    return out


def containers(value, path=()):
    """Every (path, container) inside ``value``."""
    yield path, value
    items = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else ()
    for k, v in items:
        if isinstance(v, (dict, list)):
            yield from containers(v, path + (k,))


def corrupt(state, rng):
    bad = copy.deepcopy(state)
    spots = list(containers(bad))
    _, node = spots[rng.randrange(len(spots))]
    move = rng.randrange(5)
    if isinstance(node, dict) and node:
        key = rng.choice(list(node))
        if move == 0:
            del node[key]
        elif move == 1:
            node["unexpected_" + str(rng.randrange(3))] = rng.choice(JUNK)
        else:
            node[key] = copy.deepcopy(rng.choice(JUNK))
    elif isinstance(node, list) and node:
        i = rng.randrange(len(node))
        if move == 0:
            node.append(copy.deepcopy(node[i]))  # a duplicate card, an extra entry
        elif move == 1:
            del node[i]
        else:
            node[i] = copy.deepcopy(rng.choice(JUNK))
    return bad


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_shape_fast_path_agrees_with_validate(game_id):
    game = get_game(game_id)
    rng = random.Random(7)
    states = states_of(game_id, every=11)
    failing = 0
    for state in states:
        assert game.state_spec.ok(state, 0) and not slow_errors(game.state_spec, state)
        assert shape.compiled(game.state_spec)(state)
        for _ in range(40):
            bad = corrupt(state, rng)
            errors = slow_errors(game.state_spec, bad)
            assert game.state_spec.ok(bad, 0) == (not errors), errors
            assert shape.compiled(game.state_spec)(bad) == (not errors), errors
            assert shape.field_errors(game.state_spec, bad, "state") == errors
            failing += bool(errors)
    assert failing > len(states) * 8  # the corruptions do reach the checks


def test_shape_fast_path_depth_and_bounds():
    nested = shape.Any_()
    for _ in range(limits.MAX_DEPTH + 1):
        nested = shape.ListOf(nested)
    deep: list[Any] = [1]
    for _ in range(limits.MAX_DEPTH + 1):
        deep = [deep]
    for spec, value in [(nested, deep),
                        (shape.ListOf(shape.Str(max_length=2), max_items=2, min_items=1), []),
                        (shape.ListOf(shape.Str(max_length=2), max_items=2), ["a", "b", "c"]),
                        (shape.ListOf(shape.Str(max_length=2)), ["abc"]),
                        (shape.MapOf(shape.Int(), max_items=1), {"a": 1, "b": 2}),
                        (shape.Obj({"a": shape.Int(maximum=3)}), {"a": 4}),
                        (shape.Obj({}, {"a": shape.Bool()}), {"a": 1}),
                        (shape.Obj({}, extra=False), {"z": 1}),
                        (shape.Int(), True), (shape.Enum(1, "a"), True),
                        (shape.OneOf(shape.Int(minimum=0), shape.Enum("chance")), -1)]:
        errors = slow_errors(spec, value)
        assert errors and not spec.ok(value, 0) and shape.field_errors(spec, value, "state") == errors
        assert not shape.compiled(spec)(value)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_action_shapes_fast_path_agrees(game_id):
    game = get_game(game_id)
    rng = random.Random(11)
    seen = set()
    for state in states_of(game_id, seeds=1, every=3):
        for entry in state["pending"]:
            for action in game.legal_actions(state, entry["player"])[:5]:
                spec = game.action_specs[action["type"]]
                seen.add(action["type"])
                assert shape.compiled(spec)(action) and spec.ok(action, 0)
                for _ in range(10):
                    bad = corrupt(action, rng)
                    errors = slow_errors(spec, bad)
                    assert spec.ok(bad, 0) == (not errors) == shape.compiled(spec)(bad), errors
    assert len(seen) >= 3


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_conservation_shortcut_agrees_with_the_walk(game_id):
    rng = random.Random(3)
    cards = [f"C-{i}" for i in range(30)] + ["C-1#2"]
    for _ in range(500):
        pool = cards[:]
        rng.shuffle(pool)
        cuts = sorted(rng.randrange(len(pool) + 1) for _ in range(3))
        zones = {"a": pool[:cuts[0]], "b": pool[cuts[0]:cuts[1]], "c": pool[cuts[1]:]}
        if rng.random() < 0.7:
            zone = rng.choice("abc")
            what = rng.randrange(3)
            if what == 0 and zones[zone]:
                zones[zone].pop(rng.randrange(len(zones[zone])))
            elif what == 1:
                zones[zone].append(rng.choice(cards))
            else:
                zones[zone].append("X-" + str(rng.randrange(3)))
        walked = _walk(zones, cards)
        assert conservation_errors(zones, cards) == walked
        assert conservation_errors({k: iter(v) for k, v in zones.items()}, iter(cards)) == walked


def _walk(zones, expected):
    """The reference: the pre-shortcut algorithm, card by card."""
    expected_counts: dict[Any, Any] = {}
    for card in expected:
        expected_counts[card] = expected_counts.get(card, 0) + 1
    seen: dict[Any, Any] = {}
    errors: dict[Any, Any] = {}
    for path, cards in zones.items():
        for card in cards:
            n = seen.get(card, 0) + 1
            seen[card] = n
            if card not in expected_counts:
                errors.setdefault(path, []).append(f"unknown card {card!r}")
            elif n > expected_counts[card]:
                errors.setdefault(path, []).append(f"card {card!r} appears more than once")
    missing = [c for c, n in expected_counts.items() if seen.get(c, 0) < n]
    if missing:
        errors.setdefault("state", []).append(
            "cards missing from every zone: " + ", ".join(sorted(missing)[:10])
            + (" …" if len(missing) > 10 else ""))
    return errors


def test_tremble_unnamed_zones_hold_the_named_zones_cards():
    """``tremble.invariants._every_card_once`` counts ``cards_in_zones``: the
    same cards as the named ``zones`` that ``conservation_errors`` walks."""
    from itertools import chain

    from service.games.tremble.cards import Catalogue
    from service.games.tremble.invariants import _every_card_once, cards_in_zones, zones

    cat = Catalogue.of(get_game("tremble").card_set())
    rng = random.Random(5)
    checked = 0
    for state in states_of("tremble", seeds=3, every=3):
        named = sorted(chain.from_iterable(zones(state).values()))
        assert sorted(cards_in_zones(state)) == named
        assert _every_card_once(state, cat)
        card = rng.choice(named)
        extra = copy.deepcopy(state)
        extra["ship_discard"].append(card)  # a duplicate
        missing = copy.deepcopy(state)
        for zone in ("box", "ship_deck", "city_discard", "mission_deck"):
            if missing[zone]:
                missing[zone].pop()  # a card lost
                break
        for bad in (extra, missing):
            assert not _every_card_once(bad, cat)
            assert conservation_errors(zones(bad), cat.all_cards())
        checked += 1
    assert checked
