"""Hand-edited states and actions: a precise error, never a crash (TRE-33 views too).

States reached in seeded random games are mutated at random (values swapped,
items and fields deleted).  ``validate_state`` must refuse a mutated state
with a ``MalformedInput`` family error or accept it; an accepted state must
then view, score, list and apply without any unexpected exception.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from service.games.errors import MalformedInput, RefereeError
from service.games.playout import RandomBot
from service.games.tremble import GAME
from tests.shared.bending import bend

VALUES = [None, 0, 1, 2, 5, -1, 7, 99, "", "S-CRUISER", "C-MOSCOW", "A-UN", [], {}, True,
          "fight", "decide", "roll", "lose", "reward", "battle", "intel", "plan"]


def reached(seed: int, players: int) -> list[dict[Any, Any]]:
    state, _ = GAME.new_game(players, {}, seed)
    rng, out = random.Random(seed), [state]
    while state["result"] is None:
        who = min(p["player"] for p in state["pending"])
        state, _ = GAME.apply(state, RandomBot().choose(GAME, state, who, rng))
        out.append(state)
    return out


def mutate(state: dict[Any, Any], rng: random.Random) -> dict[Any, Any]:
    """One to three random edits of ``state`` (``tests.shared.bending``)."""
    return bend(state, rng, lambda: rng.choice(VALUES + [rng.randint(-3, 30)]))


@pytest.mark.parametrize("seed", [1, 2])
def test_tre_33_mutated_states_are_refused_or_played_never_crash(seed):
    rng = random.Random(seed)
    states = reached(seed, 2 + seed)
    accepted = 0
    for state in rng.sample(states, 40):
        for _ in range(12):
            bent = mutate(state, rng)
            try:
                GAME.validate_state(bent)
            except MalformedInput:
                continue
            accepted += 1
            for seat in (None, *range(len(bent["players"]))):
                GAME.view(bent, seat)
            GAME.score(bent)
            for action in GAME.legal_actions(bent)[:5]:
                try:
                    GAME.apply(bent, action)
                except RefereeError:
                    pass
    assert accepted > 0


def test_tre_14_bad_actions_get_a_field_path_or_a_clause():
    state = reached(3, 2)[5]
    for action in ({"type": "plan"}, {"type": "plan", "player": 0, "orders": "all"},
                   {"type": "buy", "player": 0, "ship": 3, "discard": None},
                   {"type": "nonsense", "player": 0}, [], {"type": "roll", "player": "chance",
                                                            "total": 13}):
        with pytest.raises(MalformedInput):
            GAME.apply(state, action)


def test_tre_12a_a_state_drawing_without_choosing_to_draw_is_invalid():
    """RULING TRE-12a: ships are drawn only after ``draw_ships``; a hand-edited
    state with an offer but no choice to draw (or a decline still buying) is
    refused by ``validate_state`` naming the field."""
    from service.games.errors import InvalidState

    state = GAME.new_game(2, {"missions": False}, seed=2)[0]
    drawn = GAME.apply(state, {"type": "draw_ships", "player": 0})[0]
    GAME.validate_state(drawn)
    for edit, field in ((dict(buy_choice=None), "state.players.0.buy_choice"),
                        (dict(buy_choice="decline"), "state.players.0.buy_choice")):
        bad = {**drawn, "players": [{**drawn["players"][0], **edit}, drawn["players"][1]]}
        with pytest.raises(InvalidState) as exc:
            GAME.validate_state(bad)
        assert field in exc.value.errors, exc.value.errors
    undecided = {**state, "players": [{**state["players"][0], "buy_choice": "decline"},
                                      state["players"][1]]}
    with pytest.raises(InvalidState) as exc:
        GAME.validate_state(undecided)
    assert "state.players.0.bought" in exc.value.errors
