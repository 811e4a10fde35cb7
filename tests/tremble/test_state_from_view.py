"""TRE-33: a state built from a view alone; a view no Tremble state has is refused.

``state_from_view`` is ``determinize`` from the view (``tests/shared/test_state_from_view.py``
holds the equality).  Here: a malformed view is refused with an ``InvalidState``
(another game or card set: ``IncompatibleState``) naming the field — never a
``KeyError`` — and randomly bent views are refused or built, never crash.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import orjson
import pytest

from service.games.errors import IncompatibleState, InvalidState, MalformedInput
from service.games.tremble import GAME

from .test_robustness import mutate, reached


def a_view(seat=0) -> dict[Any, Any]:
    """A mid-game view: another player holds hidden ships and missions."""
    state = next(s for s in reached(4, 3) if s["phase"] == "plan")
    return orjson.loads(orjson.dumps(GAME.view(state, seat)))


def bent(edit) -> dict[Any, Any]:
    view = a_view()
    edit(view)
    return view


def _count(view, path, by):
    view[path]["count"] += by


def _flown_unflown(view):
    """A hidden ship declared flown into a hand, the counts kept: it did not fly."""
    hidden = GAME.state_from_view(a_view(), 1)["ship_deck"][0]
    view["players"][1]["hand"]["flown"] = [hidden]
    view["ship_deck"]["count"] -= 1
    view["players"][1]["hand"]["count"] += 1


BENT = [
    (lambda v: v.pop("ship_deck"), "view.ship_deck", InvalidState),
    (lambda v: v.pop("view"), "view.view", InvalidState),
    (lambda v: v["players"][1].pop("offer"), "view.players.1.offer", InvalidState),
    (lambda v: v["players"][0].update(hand={"count": 1}), "view.players.0.hand", InvalidState),
    (lambda v: v["view"].update(player=4), "view.view.player", InvalidState),
    (lambda v: _count(v, "ship_deck", 1), "view.ship_deck", InvalidState),
    (lambda v: _count(v, "mission_deck", -1), "view.mission_deck", InvalidState),
    (lambda v: v["piles"][0].update(cards_left=v["piles"][0]["cards_left"] + 1),
     "view.piles.0", InvalidState),
    (lambda v: v["box"].append("C-NOWHERE"), "view.box", InvalidState),
    (lambda v: v["box"].append(v["players"][0]["hand"][0]), "view.players.0.hand",
     InvalidState),
    (lambda v: v["players"][0]["hand"].append(v["slots"][0]), "view.players.0.hand",
     InvalidState),
    (lambda v: v["credit_supply"].pop(), "view", InvalidState),
    (_flown_unflown, "view.players.1.hand.flown", InvalidState),
    (lambda v: v.update(game="raiders"), "view.game", IncompatibleState),
    (lambda v: v["card_set"].update(id="nonexistent"), "view.card_set.id", IncompatibleState),
]


@pytest.mark.parametrize("edit,field,error", BENT)
def test_tre_33_a_malformed_view_is_refused_naming_the_field(edit, field, error):
    with pytest.raises(error) as exc:
        GAME.state_from_view(bent(edit), 7)
    assert field in exc.value.errors, exc.value.errors


def test_tre_33_a_state_is_not_a_view():
    state = next(s for s in reached(4, 3) if s["phase"] == "plan")
    for value in (state, [], None):
        with pytest.raises(InvalidState):
            GAME.state_from_view(value, 7)  # type: ignore[arg-type]


def test_tre_33_bent_views_are_refused_or_built_never_crash():
    rng = random.Random(33)
    states = reached(5, 3)
    built = 0
    for state in rng.sample(states, 15):
        for seat in (None, 0, 2):
            view = orjson.loads(orjson.dumps(GAME.view(state, seat)))
            assert GAME.state_from_view(copy.deepcopy(view), 1) == GAME.determinize(
                state, seat, 1)
            for _ in range(8):
                try:
                    GAME.state_from_view(mutate(view, rng), 1)
                except MalformedInput:
                    continue
                built += 1
    assert built > 0
