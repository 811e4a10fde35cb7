"""Hidden information (TRE-33): determinize gives states no player can tell apart."""

from __future__ import annotations

import random

import pytest

from service.games.tremble import GAME


@pytest.mark.parametrize("players,seed", [(3, 21), (5, 22)])
def test_tre_33_determinized_states_look_the_same_to_the_player(players, seed):
    state, _ = GAME.new_game(players, {}, seed)
    rng, step, changed = random.Random(seed), 0, 0
    while state["result"] is None:
        who = min(p["player"] for p in state["pending"])
        listed = GAME.legal_actions(state, who)
        state, _ = GAME.apply(state, listed[rng.randrange(len(listed))])  # as RandomBot picks
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


def test_tre_33_where_the_ships_that_flew_went_is_open():
    """TRE-33 (with TRE-19, TRE-21): the ships of revealed orders were seen by the
    table, and so was where they went — back into a hand (retreat, the winner)
    or onto the discard (the loser's chosen ship).  The view shows them in
    ``flown``; determinize leaves them where they are."""
    from .builder import act, at_plan, plan_all, play, rolls, ship
    from .test_battle import example_battle

    state, _ = example_battle()
    state, _ = play(state, act("battle_choice", 0, choice="fight"),
                    act("battle_choice", 1, choice="fight"))
    state, _ = rolls(state, 10, 6)
    cruiser, tripod = ship(state, 1, "S-CRUISER"), ship(state, 1, "S-TRIPOD-B")
    state, _ = play(state, act("lose_ship", 1, ship=tripod))
    seen = GAME.view(state, 0)
    assert seen["players"][1]["hand"] == {"count": 1, "flown": [cruiser]}
    assert seen["ship_discard"] == {"count": len(state["ship_discard"]), "flown": [tripod]}
    assert not set(GAME.secret_cards(state, 0)) & {cruiser, tripod}
    for seed in range(5):
        twin = GAME.determinize(state, 0, seed=seed)
        assert cruiser in twin["players"][1]["hand"] and tripod in twin["ship_discard"]
        assert GAME.view(twin, 0) == seen
    # a retreat takes the ships back into hand in front of everyone (TRE-19)
    state = at_plan(hands={0: ["S-START", "S-SAUCER"], 1: ["S-CRUISER"]})
    state, _ = plan_all(state, {0: [("S-START", 1)], 1: [("S-CRUISER", 1)]})
    saucer = ship(state, 0, "S-START")
    state, _ = play(state, act("battle_choice", 0, choice="retreat"))
    assert GAME.view(state, 1)["players"][0]["hand"] == {"count": 2, "flown": [saucer]}
    # the ship that stayed home is still only counted
    assert ship(state, 0, "S-SAUCER") not in str(GAME.view(state, 1)["players"][0])
