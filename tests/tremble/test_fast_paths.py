"""The hot-path shortcuts of the Tremble engine answer exactly as the plain
definitions they replace: card conservation (one set comparison), the ship
draw's outcomes and the copy a draw takes (TRE-12).
"""

from __future__ import annotations

import copy
import random
from itertools import chain
from typing import cast

from service.games.base import conservation_errors
from service.games.chance import CHANCE
from service.games.draft import Draft
from service.games.tremble import GAME
from service.games.tremble.buying import draw, draw_outcomes
from service.games.tremble.cards import Catalogue, design_of
from service.games.tremble.invariants import _every_card_once, cards_in_zones, zones
from service.games.tremble.state_types import TrembleState

CAT = Catalogue.of(GAME.card_set())


def states(seeds: int = 4, every: int = 5) -> list[TrembleState]:
    out = []
    for seed in range(seeds):
        state, _ = GAME.new_game(2 + seed % 4, {"missions": seed % 2 == 0}, seed)
        rng = random.Random(seed)
        step = 0
        while state["result"] is None:
            if step % every == 0:
                out.append(state)
            who = min(p["player"] for p in state["pending"] if p["player"] != CHANCE)
            actions = GAME.legal_actions(state, who)
            state, _ = GAME.apply(state, actions[rng.randrange(len(actions))])
            step += 1
        out.append(state)
    return out


STATES = states()


def test_cards_in_zones_lists_the_named_zones_cards_in_order():
    for state in STATES:
        assert cards_in_zones(state) == list(chain.from_iterable(zones(state).values()))


def test_every_card_once_agrees_with_the_detailed_conservation_check():
    """Duplicates, losses, unknown ids, and a swap of a lost card for a
    duplicate (same count of cards) are all caught, as the detailed check does."""
    rng = random.Random(3)
    for state in STATES:
        assert _every_card_once(state, CAT)
        assert not conservation_errors(zones(state), CAT.all_cards())
        cards = cards_in_zones(state)
        duplicate, lost = rng.sample(cards, 2)
        variants = []
        for zone in ("box", "ship_deck", "city_discard", "mission_deck", "ship_discard"):
            if lost in state[zone]:
                swapped = copy.deepcopy(state)
                swapped[zone].remove(lost)
                swapped[zone].append(duplicate)  # as many cards as the set, one twice
                variants.append(swapped)
        extra = copy.deepcopy(state)
        extra["ship_discard"].append(duplicate)
        unknown = copy.deepcopy(state)
        unknown["box"].append("C-NOWHERE")
        variants += [extra, unknown]
        for bad in variants:
            assert not _every_card_once(bad, CAT)
            assert conservation_errors(zones(bad), CAT.all_cards())


def test_tre12_draw_outcomes_are_the_copies_in_the_deck_each_once():
    """TRE-12: every copy left in the ship deck is one equally likely outcome,
    so a design with two copies left is twice as likely."""
    seen = 0
    for state in STATES:
        assert draw_outcomes(state) == sorted(state["ship_deck"])
        seen += len({design_of(s) for s in state["ship_deck"]}) < len(state["ship_deck"])
    assert seen
    deck_only = cast(TrembleState, {"ship_deck": ["S-B#2", "S-A", "S-B", "S-C#3"]})  # all it reads
    assert draw_outcomes(deck_only) == [
        "S-A", "S-B", "S-B#2", "S-C#3"]


def test_tre12_a_draw_moves_exactly_the_copy_named():
    """TRE-12 (ids): the ``draw_ship`` outcome names the copy that lands in the
    offer, so the offer, the hand and every later action use the same id."""
    checked = 0
    for state in STATES:
        deck = state["ship_deck"]
        if state["phase"] == "over" or not deck:
            continue
        for ship in draw_outcomes(state):
            d = Draft(state)
            draw(d, 0, ship, [])
            assert d.root["players"][0]["offer"] == state["players"][0]["offer"] + [ship]
            assert sorted(d.root["ship_deck"] + [ship]) == sorted(deck)
            assert d.root["players"][0]["to_draw"] == state["players"][0]["to_draw"] - 1
            checked += 1
    assert checked
