"""Baseline bots for playouts: the random bot and a greedy bot.

``GreedyBot`` scores every legal action with a one-step lookahead: it applies
the action and rates the resulting state for the acting player with the
game's own heuristic (``Game.position_value``; by default the score lead).
The lookahead is played with chance left pending (``chance: table``), so the
bot never sees the dice or card that the action is about to produce — it
rates the position up to the chance node, not its outcome.  Ties are broken
at random with the bot's own seeded generator; decisions with very many
options are rated on a random sample of them.

>>> bot_named("random")                      # doctest: +ELLIPSIS
<service.games.playout.RandomBot object at ...>
>>> bot_named("greedy").name
'greedy'
"""

from __future__ import annotations

import random

from service.games.base import AnyGame, GameState
from service.games.errors import RefereeError
from service.games.objects import JsonObject
from service.games.playout import Bot, RandomBot

BOT_NAMES = ("random", "greedy")
#: the most actions a greedy bot rates per decision (a random sample beyond)
MAX_CANDIDATES = 24


class GreedyBot:
    """One-step lookahead with the game's ``position_value``."""

    name = "greedy"

    def __init__(self, max_candidates: int = MAX_CANDIDATES):
        self.max_candidates = max_candidates

    def choose(self, game: AnyGame, state: GameState, player: int, rng: random.Random) -> JsonObject:
        actions = game.legal_actions(state, player)
        if not actions:
            raise RuntimeError(f"{game.id}: player {player} is pending but has no legal action")
        if len(actions) == 1:
            return actions[0]
        if len(actions) > self.max_candidates:
            actions = rng.sample(actions, self.max_candidates)
        blind = {**state, "chance": {**state["chance"], "mode": "table"}}
        best, best_value = actions[0], None
        for action in actions:
            try:
                after, _ = game.apply(blind, action)
            except RefereeError:  # listed parts of a larger decision (see constraints)
                continue
            value = (game.position_value(after, player), rng.random())
            if best_value is None or value > best_value:
                best, best_value = action, value
        return best


def bot_named(name: str) -> Bot:
    """The bot for a name in ``BOT_NAMES``."""
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot()
    raise KeyError(name)
