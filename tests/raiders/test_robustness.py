"""Bad or sloppy input never breaks the engine: only the documented errors
(RAI-30 fizzle mode included), and every state reached stays valid."""

from __future__ import annotations

import random

import orjson

from service.games.errors import RefereeError
from service.games.raiders import GAME
from service.games.raiders.state_types import RaidersState
from tests.contract import json_paths

from .builder import act


def _garbage(rng: random.Random, state: RaidersState) -> object:
    """A random action, malformed or illegal more often than not (hence ``object``)."""
    cards = list(state["fighter_deck"]) + [c for p in state["players"] for c in p["hand"]] \
        + list(state["centre"]) + ["S-6#9", "", "zz"]
    seats: list[object] = [*range(len(state["players"])), "chance", -1, 99, None, True]
    kind = rng.choice(["capture", "play_trick", "pass", "end_turn", "draw", "deal", "reveal",
                       "reveal_trump", "nope", 3, None])
    action: dict[str, object] = {"type": kind, "player": rng.choice(seats)}
    values: list[object] = [*cards, 1, None, [], {}]
    for field in ("fighter", "property", "card", "target", "cost_card", "extra"):
        if rng.random() < 0.4:
            action[field] = rng.choice(values)
    return action if rng.random() < 0.95 else rng.choice([None, [], "x", 5])


def test_random_bad_actions_raise_only_referee_errors():
    rng = random.Random(7)
    for seed in range(8):
        options = {"turn_limit": 10, "illegal_play": rng.choice(["reject", "fizzle"])}
        state, _ = GAME.new_game(2 + seed % 5, options, seed=seed)
        while state["result"] is None:
            for _ in range(15):
                action = _garbage(rng, state)
                before = orjson.dumps(state)
                try:
                    after, _ = GAME.apply(state, action)
                except RefereeError:
                    continue
                finally:
                    assert orjson.dumps(state) == before
                GAME.validate_state(orjson.loads(orjson.dumps(after)))
            who = state["pending"][0]["player"]
            actions = GAME.legal_actions(state, who)
            state, _ = GAME.apply(state, actions[rng.randrange(len(actions))])


def test_rai_30_sloppy_players_in_fizzle_mode_keep_the_game_valid():
    """RAI-30: in fizzle mode any trick attempt with a card really in hand is
    accepted; illegal ones fizzle, and the game goes on valid to its end."""
    rng = random.Random(3)
    fizzles = 0
    for seed in range(10):
        state, _ = GAME.new_game(2 + seed % 4, {"turn_limit": 12, "illegal_play": "fizzle"},
                                 seed=seed)
        while state["result"] is None:
            who = state["pending"][0]["player"]
            hand = state["players"][who]["hand"] if who != "chance" else []
            if hand and rng.random() < 0.3:
                targets = [None] + [g for p in state["players"] for g in p["holdings"].values()]
                action = act("play_trick", who, card=rng.choice(hand))
                target = rng.choice(targets)
                if target:
                    action["target"] = target
            else:
                actions = GAME.legal_actions(state, who)
                action = actions[rng.randrange(len(actions))]
            state, events = GAME.apply(state, action)
            fizzles += sum(e["type"] == "fizzled" for e in events)
            GAME.validate_state(state)
    assert fizzles > 20




def test_corrupted_states_are_refused_cleanly_or_work():
    """Any single-leaf corruption of a valid state: ``validate_state`` raises a
    documented 400 error, or the state is usable (listing and applying work)."""
    from service.games.errors import MalformedInput
    rng = random.Random(11)
    junk = ["zz", "S-6", "club", "S-6#2", "", -1, 0, 1, 7, 99, None, True, [], {}, ["S-6"],
            {"card": "zz", "suit": "S"}, {"attacker": 0, "fighter": "zz", "property": "club",
                                          "priority": 0, "passes": 0}]
    for seed in range(6):
        state, _ = GAME.new_game(2 + seed % 3, {"turn_limit": 6}, seed=seed)
        while state["result"] is None:
            paths = list(json_paths(state))
            for _ in range(12):
                path = rng.choice(paths)
                broken = orjson.loads(orjson.dumps(state))
                node = broken
                for key in path[:-1]:
                    node = node[key]
                node[path[-1]] = rng.choice(junk)
                try:
                    GAME.validate_state(broken)
                except MalformedInput:
                    continue
                for entry in broken["pending"]:
                    for action in GAME.legal_actions(broken, entry["player"]):
                        GAME.apply(broken, action)
            who = state["pending"][0]["player"]
            actions = GAME.legal_actions(state, who)
            state, _ = GAME.apply(state, actions[rng.randrange(len(actions))])
