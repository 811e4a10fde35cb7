"""Representative states of every game, taken from seeded random games.

Each game is played once to its end by random bots (``random_playout``'s
bot protocol, chance resolved by the server) from a fixed setup and seed;
the *early*, *middle* and *late* states are the ones at 10 %, 50 % and 90 %
of that game's decisions.  Nothing is committed: the states are generated
at bench time, so they always match the current rules version and card set.

>>> cases = representative_cases("raiders")
>>> [c.stage for c in cases]
['early', 'middle', 'late']
>>> all(c.state["result"] is None for c in cases)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from service.games.base import GameState
from service.games.chance import CHANCE
from service.games.kozyablo.setup import RACE_ORDER
from service.games.objects import ActionObject
from service.games.registry import get_game

#: the setup every bench uses per game: ``(players, options, seed)``
SETUPS: dict[str, tuple[Any, ...]] = {
    # random bots rarely reach Raiders' money goal: a turn limit ends the game
    "raiders": (4, {"turn_limit": 30}, 11),
    "tremble": (4, {}, 11),
    "kozyablo": ([{"race": "pozorki"}, {"race": "kozly"}], {"turn_limit": 60}, 11),
}
STAGES = {"early": 0.10, "middle": 0.50, "late": 0.90}
#: the engine figures play many seeds; where the setup itself varies (races),
#: seed ``k`` takes variant ``k`` so every variant is measured
PLAYER_VARIANTS = {
    "kozyablo": [[{"race": a}, {"race": b}] for a in RACE_ORDER for b in RACE_ORDER],
}


@dataclass
class Case:
    """One state with the action the bench sends to ``apply``."""

    game: str
    stage: str
    step: int           # decisions played before this state
    steps: int          # decisions in the whole game
    state: dict[Any, Any]
    player: int         # the pending seat that acts (``legal-actions`` asks for it)
    action: dict[Any, Any]        # a legal action of ``player`` (``apply`` sends it)
    extra: dict[Any, Any] = field(default_factory=dict)

    def legal_actions_body(self) -> dict[Any, Any]:
        return {"state": self.state, "player": self.player}

    def apply_body(self) -> dict[Any, Any]:
        return {"state": self.state, "action": self.action}


def new_state(game_id: str, seed: int | None = None, vary: bool = False) -> GameState:
    """The bench setup with ``seed`` (default: the setup's); ``vary`` picks the
    players' variant by seed (``PLAYER_VARIANTS``)."""
    players, options, default_seed = SETUPS[game_id]
    seed = default_seed if seed is None else seed
    variants = PLAYER_VARIANTS.get(game_id)
    if vary and variants:
        players = variants[seed % len(variants)]
    return get_game(game_id).new_game(players, options, seed)[0]


def trajectory(game_id: str, seed: int | None = None, vary: bool = False) -> list[tuple[GameState, ActionObject]]:
    """Every ``(state, action)`` of one seeded random game, in order."""
    game = get_game(game_id)
    state = new_state(game_id, seed, vary)
    rng = random.Random(0 if seed is None else seed)
    pairs = []
    while state["result"] is None:
        who = min(p["player"] for p in state["pending"] if p["player"] != CHANCE)
        actions = game.legal_actions(state, who)
        action = actions[rng.randrange(len(actions))]
        pairs.append((state, action))
        state, _ = game.apply(state, action)
    return pairs


def representative_cases(game_id: str) -> list[Case]:
    """The early, middle and late cases of ``game_id``'s seeded bench game."""
    pairs = trajectory(game_id)
    cases = []
    for stage, where in STAGES.items():
        step = min(int(len(pairs) * where), len(pairs) - 1)
        state, action = pairs[step]
        cases.append(Case(game_id, stage, step, len(pairs), state, action["player"], action))
    return cases
