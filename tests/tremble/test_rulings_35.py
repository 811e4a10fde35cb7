"""Issue 35: RULING TRE-6a (the starting saucers nobody gets stay in the box; the
ship deck holds only ships without the «стартовая» mark)."""

from __future__ import annotations

import pytest

from service.games.tremble import GAME
from service.games.tremble.cards import design_of

from .builder import CAT, act, new_table


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_tre_6a_unused_starting_saucers_go_to_the_box_never_the_ship_deck(players):
    """RULING TRE-6a: each player holds one starting saucer (TRE-6); the five minus
    that many go back to the box, and the ship deck (TRE-7) is the 30 ships without
    the «стартовая» mark: no draw from it offers a starting saucer."""
    state = new_table(players)
    starting = set(CAT.starting_ships)
    assert len(starting) == 5 and all(CAT.ships[s].get("starting") for s in starting)
    assert [p["hand"] for p in state["players"]] == [[s] for s in CAT.starting_ships[:players]]
    assert sorted(s for s in state["box"] if s in starting) == \
        sorted(CAT.starting_ships[players:])
    assert sorted(state["ship_deck"]) == sorted(CAT.deck_ships) and len(state["ship_deck"]) == 30
    assert not starting & set(state["ship_deck"])
    assert all(not CAT.ships[s].get("starting") for s in state["ship_deck"])
    # the first draw of the buy phase: every outcome is a ship of the deck
    state = GAME.apply(state, act("draw_ships", 0))[0]
    assert state["pending"][0]["decision"] == "draw_ship"
    offered = {o["ship"] for o, _ in GAME.chance_outcomes(state)}
    assert offered == set(CAT.deck_ships) and not offered & starting
    assert {design_of(s) for s in starting} == {"S-START"}
