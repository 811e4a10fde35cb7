"""Real finished games for tournament tests: two-player Raiders replays.

``played_game(seed)`` plays a short game (``turn_limit`` 6, RAI-31; the greedy
bot for both seats, server chance from ``seed``) and returns it as a replay
``{game, setup, actions}`` (its seats named, Ann and Bob unless told) with the winners it ends with: seeds give wins for
either seat and drawn games, all of them verified again by the service.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

TURNS = 6


@cache
def _played(seed: int) -> tuple[dict[Any, Any], tuple[int, ...]]:
    from service.games.bots import bot_named
    from service.games.registry import get_game

    game, bot, rng = get_game("raiders"), bot_named("greedy"), random.Random(seed)
    setup = {"players": 2, "options": {"turn_limit": TURNS}, "seed": seed}
    state, _ = game.new_game(2, setup["options"], seed, "reference")
    actions = []
    while not game.score(state)["finished"]:
        action = bot.choose(game, state, state["pending"][0]["player"], rng)
        actions.append(action)
        state, _ = game.apply(state, action)
    return {"game": "raiders", "setup": setup, "actions": actions}, \
        tuple(game.score(state)["winners"])


def played_game(seed: int, seats: tuple[str, str] = ("Ann", "Bob")) -> dict[Any, Any]:
    """The replay of the game of ``seed`` (a fresh copy), its seats named ``seats``."""
    replay, _ = _played(seed)
    return {**replay, "setup": {**replay["setup"], "players": [{"name": n} for n in seats]},
            "actions": list(replay["actions"])}


def winners(seed: int) -> tuple[int, ...]:
    """The seats that won the game of ``seed`` (both: a drawn game)."""
    return _played(seed)[1]


@cache
def _pod(seed: int, seats: int, turns: int) -> tuple[dict[Any, Any], tuple[int, ...]]:
    from service.games.bots import bot_named
    from service.games.registry import get_game

    game, bot, rng = get_game("raiders"), bot_named("greedy"), random.Random(seed)
    options = {"turn_limit": turns}
    state, _ = game.new_game(seats, options, seed, "reference")
    actions = []
    while not game.score(state)["finished"]:
        action = bot.choose(game, state, state["pending"][0]["player"], rng)
        actions.append(action)
        state, _ = game.apply(state, action)
    from service.tournaments.events import game_places

    return {"game": "raiders", "setup": {"players": seats, "options": options, "seed": seed},
            "actions": actions}, tuple(game_places(game.score(state)))


def played_pod(seed: int, seats: tuple[str, ...], turns: int = 3) -> dict[Any, Any]:
    """A Raiders game of ``len(seats)`` players (the greedy bot in every seat, ``turn_limit``
    ``turns``) as its replay, its seats named ``seats``."""
    replay, _ = _pod(seed, len(seats), turns)
    return {**replay, "setup": {**replay["setup"], "players": [{"name": n} for n in seats]},
            "actions": list(replay["actions"])}


def pod_places(seed: int, seats: int, turns: int = 3) -> tuple[int, ...]:
    """Each seat's place in the pod game of ``seed`` (``events.game_places``)."""
    return _pod(seed, seats, turns)[1]
