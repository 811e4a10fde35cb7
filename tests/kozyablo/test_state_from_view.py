"""KOZ-1, KOZ-41: a Kozyablo state from a player's own view, with stand-ins (issue 15).

A Kozyablo view cannot give back ``determinize`` (it re-deals from the other
players' card lists, which no view shows: KOZ-1), so ``state_from_view``
fills what the view hides with stand-ins (``views._StandIns``).  The property
proved here, over every seat of the sampled states of
``tests/shared/test_determinize.py`` and of the steered ``hidden_positions``
(creatures and heroes with artifacts in the shadow, KOZ-41/KOZ-21; a card
declared for play, KOZ-16; cards set aside in a mulligan, KOZ-9; fights in a
sector where an enemy hides): the built state answers the viewer's own
decisions as the true state does — pending decisions, legal actions as a set,
constraints, and ``check`` (verdict, clause, reason) of every listed action
and of each made wrong in one field, with ids the viewer cannot see among
the wrong values.  No decision of the viewer reads a stand-in.  What is
refused instead of guessed: an action naming another player's card the view
does not show (the full state would say why it cannot be chosen — "in the
shadow", KOZ-41 — which tells where it is; ``Game.unseen_in_action``), and a
spectator's view (no decisions of its own).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import orjson
import pytest

from service.games.errors import IncompatibleState, InvalidState, MalformedInput
from service.games.kozyablo import GAME
from tests.kozyablo.hidden_positions import hidden_positions
from tests.shared import bending
from tests.shared.test_determinize import sampled_states


def canonical(actions: list[dict[Any, Any]]) -> list[bytes]:
    return sorted(orjson.dumps(a, option=orjson.OPT_SORT_KEYS) for a in actions)


def positions() -> list[dict[Any, Any]]:
    return [orjson.loads(raw) for raw in (*sampled_states("kozyablo"), *hidden_positions())]


def through_json(view: dict[Any, Any]) -> dict[Any, Any]:
    return orjson.loads(orjson.dumps(view))


def verdict(state: dict[Any, Any], action: dict[Any, Any]) -> dict[Any, Any]:
    try:
        return GAME.check(state, action)
    except MalformedInput as exc:  # a wrong value of the wrong shape
        return {"malformed": exc.errors}


def wrong_in_one_field(state: dict[Any, Any], seat: int, action: dict[Any, Any], rng: random.Random) -> list[dict[Any, Any]]:
    """``action`` with one field swapped for ids the viewer cannot see (a creature in the
    shadow, another player's hidden card), one in sight, and nonsense."""
    unseen = [u for u, d in state["units"].items() if d["shadow"] and d["owner"] != seat]
    unseen += [c for s, p in enumerate(state["players"]) if s != seat
               for c in p["hand"] + p["deck"] + p["aside"]]
    in_sight = list(state["units"]) + list(state["sectors"]) + state["players"][seat]["hand"]
    out = []
    for key in sorted(action):
        if key in ("type", "player"):
            continue
        value = action[key]
        swaps = [*rng.sample(unseen, min(2, len(unseen))), rng.choice(in_sight), "nowhere"]
        out += [{**action, key: [s] if isinstance(value, list) else s} for s in swaps]
    return out


def test_koz_41_a_view_gets_the_answers_the_true_state_gives_its_player():
    rng = random.Random(41)
    seen: Counter = Counter()
    for state in positions():
        for seat in range(len(state["players"])):
            view = through_json(GAME.view(state, seat))
            built = GAME.state_from_view(view, 5)
            where = f"seat {seat}, turn {state['turn']}, phase {state['phase']}"
            assert built["pending"] == state["pending"], where
            listed = GAME.legal_actions(state, seat)
            assert canonical(GAME.legal_actions(built, seat)) == canonical(listed), where
            assert GAME.constraints(built, seat) == GAME.constraints(state, seat), where
            tried = rng.sample(listed, min(5, len(listed)))
            for action in list(tried):
                tried += wrong_in_one_field(state, seat, action, rng)
            for action in tried:
                if GAME.unseen_in_action(view, action):  # names a card the view hides
                    seen["refused"] += 1
                    continue
                assert verdict(built, action) == verdict(state, action), (where, action)
                seen["illegal"] += verdict(state, action).get("legal") is False
            seen["seats"] += 1
            seen["pending"] += bool(listed)
            seen["checked"] += len(tried)
            hidden = [d for d in state["units"].values() if d["shadow"] and d["owner"] != seat]
            seen["hidden"] += bool(hidden) and bool(listed)
            seen["hidden artifacts"] += any(d["artifacts"] for d in hidden)
            fight = state["combat"]
            seen["fight by a hidden creature"] += bool(listed) and fight is not None and any(
                d["sector"] == fight["sector"] for d in hidden)
            declared = state["declared"]
            seen["declared card"] += declared is not None and declared["player"] != seat \
                and "card" in declared
            seen["set aside"] += any(p["aside"] for s, p in enumerate(state["players"])
                                     if s != seat)
    assert seen["seats"] > 1500 and seen["pending"] > 500 and seen["checked"] > 15000, seen
    assert seen["illegal"] > 5000 and seen["hidden"] > 100 and seen["hidden artifacts"] > 50, seen
    assert seen["fight by a hidden creature"] > 5 and seen["declared card"] > 10, seen
    assert seen["set aside"] > 5 and seen["refused"] > 1000, seen


def test_koz_1_the_built_state_is_a_function_of_the_view_and_the_seed():
    """Twin states (the true one re-dealt by ``determinize``) look the same to the seat,
    so they build the very same state: nothing but the view is read."""
    built = 0
    for raw in hidden_positions()[::7]:
        state = orjson.loads(raw)
        for seat in range(len(state["players"])):
            view = GAME.view(state, seat)
            mine = orjson.dumps(GAME.state_from_view(through_json(view), 2))
            for twin_seed in (8, 9):
                twin = GAME.determinize(state, seat, twin_seed)
                assert GAME.view(twin, seat) == view
                assert orjson.dumps(GAME.state_from_view(through_json(view), 2)) == mine
                assert orjson.dumps(GAME.state_from_view(GAME.view(twin, seat), 2)) == mine
            built += 1
    assert built > 50


def test_koz_41_stand_ins_are_what_the_view_says_of_the_hidden_cards():
    """A hidden hero with two artifacts: a hero carrying two artifacts it may carry
    (KOZ-21), in the shadow under its number; hand, deck and card list keep their sizes."""
    state = next(orjson.loads(raw) for raw in hidden_positions()
                 if any(d["shadow"] and len(d["artifacts"]) == 2
                        for d in orjson.loads(raw)["units"].values()))
    built = GAME.state_from_view(GAME.view(state, 0), 1)
    hero = next(d for d in built["units"].values() if d["shadow"] and d["artifacts"])
    assert len(hero["artifacts"]) == 2 and hero["shadow_number"] >= 1
    for seat, (b, p) in enumerate(zip(built["players"], state["players"], strict=True)):
        assert [len(b[z]) for z in ("hand", "deck", "aside", "cards")] == \
            [len(p[z]) for z in ("hand", "deck", "aside", "cards")], seat
    ids = [c for p in built["players"] for c in p["cards"]]
    assert len(ids) == len(set(ids))


def test_koz_1_a_spectators_view_is_refused():
    state = orjson.loads(hidden_positions()[5])
    with pytest.raises(InvalidState) as exc:
        GAME.state_from_view(GAME.view(state, None), 1)
    assert "view.view.player" in exc.value.errors


def a_view(seat: int = 0) -> dict[Any, Any]:
    """A view in which another player hides a hero with artifacts and a Sneak."""
    state = next(orjson.loads(raw) for raw in hidden_positions()
                 if sum(d["shadow"] and d["owner"] != seat
                        for d in orjson.loads(raw)["units"].values()) >= 2)
    return through_json(GAME.view(state, seat))


def _hidden(view: dict[Any, Any]) -> str:
    return next(u for u in view["units"] if u.startswith("hidden-"))


def _count(zone: str, by: int):
    def edit(view):
        view["players"][1][zone] += by
    return edit


BENT = [
    (lambda v: v.pop("view"), "view.view", InvalidState),
    (lambda v: v.pop("units"), "view.units", InvalidState),
    (lambda v: v["view"].update(player=3), "view.view.player", InvalidState),
    (lambda v: v["players"][1].update(hand=[]), "view.players.1.hand", InvalidState),
    (lambda v: v["players"][0].pop("deck"), "view.players.0.deck", InvalidState),
    (_count("card_count", 1), "view.players.1.card_count", InvalidState),
    (_count("hand_count", -1), "view.players.1.card_count", InvalidState),
    (lambda v: v["units"].update({"hidden-x": v["units"][_hidden(v)]}), "view.units.hidden-x",
     InvalidState),
    (lambda v: v["units"][_hidden(v)].update(card="1.pz_sneak"),
     "view.units." + _hidden(a_view()) + ".card", InvalidState),
    (lambda v: v["derived"]["production"][0].update(gold=9), "view.derived.production.0.gold",
     InvalidState),
    (lambda v: v.update(game="raiders"), "view.game", IncompatibleState),
    (lambda v: v.update(rules_version="kozyablo/1"), "view.rules_version", IncompatibleState),
    (lambda v: v["card_set"].update(id="nonexistent"), "view.card_set.id", IncompatibleState),
]


@pytest.mark.parametrize("edit,field,error", BENT)
def test_koz_1_a_malformed_view_is_refused_naming_the_field(edit, field, error):
    view = a_view()
    edit(view)
    with pytest.raises(error) as exc:
        GAME.state_from_view(view, 7)
    assert field in exc.value.errors, exc.value.errors


def test_koz_1_a_state_is_not_a_view():
    state = orjson.loads(hidden_positions()[3])
    for value in (state, [], None, "view"):
        with pytest.raises(InvalidState):
            GAME.state_from_view(value, 7)  # type: ignore[arg-type]


VALUES = [None, 0, 1, 3, -1, 99, "", "hidden-1", "hidden-7", "1.pz_sneak", "0.pz_hero",
          "1.gold_mine", "x.y", [], {}, True, "main", "combat"]


def bend(view: dict[Any, Any], rng: random.Random) -> dict[Any, Any]:
    """One to three random edits of ``view`` (``tests.shared.bending``)."""
    return bending.bend(view, rng, VALUES)


def test_koz_1_bent_views_are_refused_or_built_never_crash():
    """A view built or refused (``MalformedInput`` family, naming a field) — never any
    other exception; one that is built is a valid state whose view is the bent view."""
    rng = random.Random(1)
    outcomes: Counter = Counter()
    for raw in rng.sample(hidden_positions(), 40):
        state = orjson.loads(raw)
        for seat in range(len(state["players"])):
            view = through_json(GAME.view(state, seat))
            for _ in range(8):
                bent = bend(view, rng)
                try:
                    built = GAME.state_from_view(bent, 1)
                except MalformedInput as exc:
                    assert exc.errors and all(k.startswith("view") for k in exc.errors), \
                        exc.errors
                    outcomes["refused"] += 1
                    continue
                assert GAME.view(built, seat) == bent
                outcomes["built"] += 1
    assert outcomes["refused"] > 300 and outcomes["built"] > 0, outcomes


def test_koz_41_an_action_naming_a_card_the_view_hides_is_refused():
    """From the full state, a target that is a face-down creature is refused as one
    (KOZ-41); from the view, whose state holds a stand-in there, the action is refused
    naming the field instead — and a card in sight is answered as from the state."""
    for raw in hidden_positions():
        state = orjson.loads(raw)
        seat = state["pending"][0]["player"] if state["pending"] else None
        hidden = [u for u, d in state["units"].items() if d["shadow"] and d["owner"] != seat]
        if seat == "chance" or seat is None or not hidden or state["phase"] != "main":
            continue
        action = {"type": "play_card", "player": seat,
                  "card": state["players"][seat]["hand"][0] if state["players"][seat]["hand"]
                  else f"{seat}.x", "target": hidden[0]}
        view = through_json(GAME.view(state, seat))
        assert list(GAME.unseen_in_action(view, action)) == ["action.target"]
        assert GAME.unseen_in_action(view, {**action, "target": _hidden(view)}) == {}
        return
    raise AssertionError("no main phase with a hidden enemy creature")

