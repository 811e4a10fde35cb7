"""The hot-path shortcuts of the Tremble engine answer exactly as the plain
definitions they replace: card conservation (one set comparison), the ship
draw's outcome weights (one C-level count) and the copy a draw takes (TRE-12).
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from itertools import chain, compress

from service.games.base import conservation_errors
from service.games.chance import CHANCE
from service.games.draft import Draft
from service.games.tremble import GAME
from service.games.tremble.buying import draw, draw_faces
from service.games.tremble.cards import catalog, design_of
from service.games.tremble.invariants import _every_card_once, cards_in_zones, zones

CAT = catalog(GAME.card_set())


def states(seeds=4, every=5):
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


def test_draw_faces_count_each_design_left_in_the_deck():
    """TRE-12: a design with two copies left in the ship deck is twice as likely."""
    seen = 0
    for state in STATES:
        expected = sorted(Counter(design_of(s) for s in state["ship_deck"]).items())
        assert draw_faces(state) == expected
        seen += len(expected) > 1
    assert seen
    assert draw_faces({"ship_deck": ["S-B#2", "S-A", "S-B", "S-C#3"]}) == [
        ("S-A", 1), ("S-B", 2), ("S-C", 1)]


def test_a_draw_takes_the_least_copy_of_the_design():
    """TRE-12: drawing a design moves its least instance id from the deck to the offer."""
    checked = 0
    for state in STATES:
        deck = state["ship_deck"]
        if state["phase"] == "over" or not deck:
            continue
        for face, _ in draw_faces(state):
            expected = min(compress(deck, [design_of(s) == face for s in deck]))
            d = Draft(state)
            draw(d, 0, face, [])
            assert d.root["players"][0]["offer"] == state["players"][0]["offer"] + [expected]
            assert sorted(d.root["ship_deck"] + [expected]) == sorted(deck)
            assert d.root["players"][0]["to_draw"] == state["players"][0]["to_draw"] - 1
            checked += 1
    assert checked
    d = Draft({"ship_deck": ["S-X#10", "S-X#2", "S-Y"], "players": [{"offer": [], "to_draw": 1}]})
    draw(d, 0, "S-X", [])
    assert d.root["players"][0]["offer"] == ["S-X#10"]  # least id as a string
