"""Forged states and junk actions give precise errors, never unexpected exceptions."""

from __future__ import annotations

import copy
import random
from typing import Any

from service.games.base import GameState
from service.games.errors import RefereeError
from service.games.playout import RandomBot, choose_chance, next_actor
from service.games.registry import get_game

#: the engine as the seam holds it: the bot takes it, and it takes any mapping (a forgery)
GAME = get_game("kozyablo")

JUNK = [{"type": "strike", "player": 0, "unit": "0.x", "targets": ["1.y"]},
        {"type": "move", "player": 0, "from": "a", "to": "b", "units": ["c"]},
        {"type": "use_ability", "player": 1, "source": "zz", "ability": "shadow"},
        {"type": "evade", "player": 0, "card": "q"}, {"type": "defend", "player": 1, "unit": "q"},
        {"type": "decline", "player": 0}, {"type": "pass", "player": 1},
        {"type": "play_card", "player": 0, "card": "0.pz_spark", "target": "x"},
        {"type": "mulligan", "player": 0, "cards": ["0.nothing"]}]


def reached_states(games: int = 8) -> list[GameState]:
    out = []
    for seed in range(games):
        st, _ = GAME.new_game(2, {"turn_limit": 40}, seed)
        rng, bot = random.Random(seed), RandomBot()
        while st["result"] is None:
            out.append(st)
            who = next_actor(st, rng)
            assert who is not None
            a = choose_chance(GAME, st, rng) if isinstance(who, str) else bot.choose(GAME, st, who, rng)
            st, _ = GAME.apply(st, a)
    return out


def mutate(state: GameState, rng: random.Random) -> dict[str, Any]:
    """A deep copy of ``state`` with one random edit, often a forgery."""
    s: dict[str, Any] = copy.deepcopy(dict(state))
    ids = list(s["units"]) + list(s["buildings"])
    secs = list(s["sectors"])
    k = rng.randrange(8)
    if k == 0 and s["units"]:
        s["units"][rng.choice(list(s["units"]))]["sector"] = rng.choice(secs)
    elif k == 1:
        s["phase"] = rng.choice(["setup", "mulligan", "main", "response", "combat", "end"])
    elif k == 2:
        s["phase"] = "combat"
        s["combat"] = {"sector": rng.choice(secs), "attacker": rng.randrange(2),
                       "kind": rng.choice(["attack", "retreat"]),
                       "waiting": ids[:2], "current": rng.choice(ids + [None]),
                       "strikes_left": rng.randrange(2), "area": False,
                       "hits": [{"target": rng.choice(ids + secs + ["x.y"]),
                                 "stage": rng.choice(["evade", "defend"])}]}
    elif k == 3:
        s["phase"] = "response"
        s["declared"] = {"type": rng.choice(["move", "attack", "play_card", "use_ability"]),
                         "player": rng.randrange(2), "sector": rng.choice(secs)}
    elif k == 4 and s["units"]:
        s["units"][rng.choice(list(s["units"]))]["damage"] = rng.randrange(20)
    elif k == 5:
        s["active"] = rng.choice([0, 1, None])
    elif k == 6:
        s["order"] = rng.choice([[], [0, 1], [1, 0]])
    elif k == 7 and s["units"]:
        s["units"][rng.choice(list(s["units"]))]["shadow"] = True
    return s


def test_forged_states_and_junk_actions_never_crash():
    rng = random.Random(7)
    states = reached_states()
    accepted = 0
    for _ in range(400):
        s = mutate(rng.choice(states), rng)
        try:
            try:
                s["pending"] = GAME.compute_pending(s)
            except Exception:  # noqa: BLE001 - a state the next line must refuse
                pass
            GAME.validate_state(s)
        except RefereeError:
            continue
        accepted += 1
        for p in s["pending"]:
            for a in GAME.legal_actions(s, p["player"])[:4]:
                GAME.apply(s, {k: v for k, v in a.items() if k != "probability"})
        for junk in JUNK:
            try:
                GAME.apply(s, junk)
            except RefereeError:
                pass
        GAME.view(s, 0)
        GAME.score(s)
    assert accepted > 100
