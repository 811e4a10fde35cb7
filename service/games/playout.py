"""Random playouts and the bot protocol, shared by every game.

A *bot* picks one action for one pending player.  ``random_playout`` plays a
game to its end (or ``max_steps``) with one bot per seat, resolving chance
nodes that are left pending (``chance: table``) by the listed probabilities.
The bots draw from their own seeded ``random.Random``, independent of the
game's chance generator, so the same ``seed`` gives the same playout.

>>> from service.games.registry import get_game
>>> game = get_game("raiders")
>>> state, _ = game.new_game(2, {"turn_limit": 20}, seed=1)
>>> final, actions, steps = random_playout(game, state, seed=7)
>>> final["result"]["finished"], steps == len(actions)
(True, True)
>>> random_playout(game, state, seed=7)[0] == final      # same seed, same game
True"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from service.games.base import AnyGame, GameState
from service.games.chance import CHANCE
from service.games.objects import ActionObject, JsonObject

DEFAULT_MAX_STEPS = 100_000


class Bot(Protocol):
    """Anything that picks an action for ``player`` from ``state``."""

    def choose(self, game: AnyGame, state: GameState, player: int, rng: random.Random) -> JsonObject:
        ...


class RandomBot:
    """Uniform over ``game.legal_actions(state, player)``."""

    def choose(self, game: AnyGame, state: GameState, player: int, rng: random.Random) -> JsonObject:
        actions = game.legal_actions(state, player)
        if not actions:
            raise RuntimeError(f"{game.id}: player {player} is pending but has no legal action")
        return actions[rng.randrange(len(actions))]


def choose_chance(game: AnyGame, state: GameState, rng: random.Random) -> JsonObject:
    """A chance outcome drawn with its exact weight (for ``chance: table``)."""
    outcomes = game.chance_outcomes(state)
    total = sum(w for _, w in outcomes)
    r = rng.randrange(total)
    for action, weight in outcomes:
        if r < weight:
            return action
        r -= weight
    raise AssertionError("unreachable")  # pragma: no cover


def next_actor(state: GameState, rng: random.Random, order: str = "lowest") -> int | str | None:
    """The pending player to act next: chance first, then the lowest seat
    (``order="lowest"``) or a random one among simultaneous deciders."""
    pending = state["pending"]
    if not pending:
        return None
    players: list[int | str] = [p["player"] for p in pending]
    if CHANCE in players:
        return CHANCE
    if order == "random" and len(players) > 1:
        return players[rng.randrange(len(players))]
    return min(players)


def random_playout(game: AnyGame, state: GameState, seed: int, max_steps: int = DEFAULT_MAX_STEPS,
                   bots: Sequence[Bot] | Bot | None = None,
                   order: str = "lowest") -> tuple[GameState, list[ActionObject], int]:
    """Play on from ``state`` until the game ends or ``max_steps`` actions.

    Returns ``(final_state, actions, steps)``; ``actions`` are the actions
    applied in order (chance outcomes included only when they were pending,
    i.e. in table mode), so ``replay`` of the setup plus ``actions``
    reproduces ``final_state``.  ``bots`` is one bot for every seat or a
    sequence indexed by seat (default: ``RandomBot``).
    """
    rng = random.Random(seed)
    if bots is None:
        bots = RandomBot()
    actions: list[ActionObject] = []
    steps = 0
    while state["result"] is None and steps < max_steps:
        who = next_actor(state, rng, order)
        if who is None:
            break
        if isinstance(who, str):  # CHANCE
            action = choose_chance(game, state, rng)
        else:
            bot = bots[who] if isinstance(bots, Sequence) else bots
            action = bot.choose(game, state, who, rng)
        state, _ = game.apply(state, action)
        actions.append(action)
        steps += 1
    return state, actions, steps
