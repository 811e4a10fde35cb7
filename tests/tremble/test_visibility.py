"""Hidden information (TRE-33): determinize gives states no player can tell apart."""

from __future__ import annotations

import random

import pytest

from service.games.playout import RandomBot
from service.games.tremble import GAME


@pytest.mark.parametrize("players,seed", [(3, 21), (5, 22)])
def test_tre_33_determinized_states_look_the_same_to_the_player(players, seed):
    state, _ = GAME.new_game(players, {}, seed)
    rng, step, changed = random.Random(seed), 0, 0
    while state["result"] is None:
        who = min(p["player"] for p in state["pending"])
        state, _ = GAME.apply(state, RandomBot().choose(GAME, state, who, rng))
        step += 1
        if step % 9:
            continue
        for seat in (None, *range(players)):
            twin = GAME.determinize(state, seat, seed=step)
            GAME.validate_state(twin)
            assert GAME.view(twin, seat) == GAME.view(state, seat), (step, seat)
            if seat is not None:
                assert twin["players"][seat] == state["players"][seat]
            changed += twin["ship_deck"] != state["ship_deck"]
    assert changed  # hidden cards really are re-dealt
