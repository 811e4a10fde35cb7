"""The shared playout machinery (service/games/playout.py) on Raiders."""

from __future__ import annotations

from service.games.objects import JsonObject
from service.games.playout import RandomBot, random_playout
from service.games.registry import get_game
from service.games.replay import replay

GAME = get_game("raiders")


def test_table_mode_playout_records_chance_outcomes_and_replays():
    options: JsonObject = {"chance": "table", "turn_limit": 8}
    setup = {"players": 3, "options": options, "seed": 5}
    state, _ = GAME.new_game(3, options, 5)
    final, actions, steps = random_playout(GAME, state, seed=2)
    assert final["result"] is not None and steps == len(actions)
    assert any(a["player"] == "chance" and a["type"] == "deal" for a in actions)
    assert replay(GAME, setup, actions)["state"] == final


def test_max_steps_stops_early_and_bots_per_seat():
    state, _ = GAME.new_game(2, {"turn_limit": 50}, seed=3)
    final, actions, steps = random_playout(GAME, state, seed=1, max_steps=5)
    assert steps == 5 and final["result"] is None

    class EndTurnBot:
        def choose(self, game, state, player, rng):
            listed = game.legal_actions(state, player)
            return next((a for a in listed if a["type"] in ("end_turn", "pass")), listed[0])

    final, actions, _ = random_playout(GAME, state, seed=1, bots=[EndTurnBot(), RandomBot()])
    assert {a["type"] for a in actions if a["player"] == 0} == {"end_turn", "pass"}
    assert final["result"] is not None
    assert final["result"]["reason"] == "turn_limit"
