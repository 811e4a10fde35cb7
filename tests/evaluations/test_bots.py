"""Baseline bots: the greedy bot always plays a listed action and beats the
random bot where one-step lookahead sees the score move."""

from __future__ import annotations

import random

import pytest

from service.evaluations.kinds import prepare
from service.evaluations.runner import run_inline
from service.games.bots import GreedyBot, bot_named
from service.games.chance import CHANCE
from service.games.playout import RandomBot
from service.games.registry import GAME_IDS, get_game


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_greedy_plays_only_listed_actions(game_id):
    game = get_game(game_id)
    state, _ = game.new_game(2, None, seed=9)
    greedy, rng = GreedyBot(), random.Random(3)
    for _ in range(60):
        if state["result"] is not None:
            break
        who = min(p["player"] for p in state["pending"] if p["player"] != CHANCE)
        action = greedy.choose(game, state, who, rng)
        assert action in game.legal_actions(state, who)
        state, _ = game.apply(state, action)


@pytest.mark.parametrize("game_id, playouts", [("tremble", 30), ("raiders", 12),
                                               ("kozyablo", 30)])
def test_greedy_beats_random(game_id, playouts):
    game = get_game(game_id)
    state, _ = game.new_game(2, None, seed=3)
    kind, plan = prepare({"game": game_id, "kind": "playouts", "state": state,
                          "params": {"playouts": playouts, "seed": 5,
                                     "bots": ["greedy", "random"], "player": 0}})
    result = run_inline(kind.name, plan)
    greedy, rand = result["win_rate"]
    assert greedy["wins"] > 2 * rand["wins"], result["win_rate"]
    assert result["scores"][0]["mean"] >= result["scores"][1]["mean"]


def test_bot_names():
    assert isinstance(bot_named("random"), RandomBot)
    assert isinstance(bot_named("greedy"), GreedyBot)
    with pytest.raises(KeyError):
        bot_named("oracle")
