"""In-process engine speed: ``apply`` / ``legal_actions`` per call, playouts/s.

* per call — the ``(state, action)`` pairs of seeded random games
  (``bench.states.trajectory``, the bench setup of each game, several seeds)
  are timed one by one: best of 3 short loops per pair, in µs; the figures
  are the median and p99 over the pairs.  ``legal_actions`` is timed on the
  same states for the acting seat.
* playouts — complete random games (``service.games.playout.random_playout``,
  chance resolved by the server) from new games of the bench setup, per
  second on one core.

All times are this process's CPU time (``time.process_time``), so other
load on the machine does not inflate them.

Run one game alone: ``.venv/bin/python -m bench engine --games raiders``.
"""

from __future__ import annotations

import statistics
import time
import timeit
from collections.abc import Callable
from typing import Any

from bench.states import new_state, trajectory
from service.games.playout import random_playout
from service.games.registry import get_game

#: seeds per game for the per-call figures, and playouts per game (Kozyablo:
#: every race pairing, ``bench.states.PLAYER_VARIANTS``)
SEEDS = {"raiders": 4, "tremble": 3, "kozyablo": 16}
PLAYOUTS = {"raiders": 20, "tremble": 16, "kozyablo": 32}
MAX_PAIRS = 600
#: every figure here is CPU time of this process, not wall time: other work on
#: a shared machine slows the wall clock, not the CPU seconds an engine needs
CPU = time.process_time


def per_call_us(fn: Callable[[], object], number: int = 10) -> float:
    return min(timeit.repeat(fn, number=number, repeat=3, timer=CPU)) / number * 1e6


def percentile(sorted_values: list[float], q: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def summary(values: list[float]) -> dict[Any, Any]:
    values = sorted(values)
    return {"median_us": round(statistics.median(values), 2),
            "p99_us": round(percentile(values, 0.99), 2), "n": len(values)}


def playouts(game_id: str, count: int) -> tuple[int, float]:
    """``(decisions, CPU seconds)`` of ``count`` random playouts to the end from new
    games of the bench setup (seeds ``1000 + k``; every Kozyablo race pairing)."""
    game = get_game(game_id)
    starts = [new_state(game_id, 1000 + k, vary=True) for k in range(count)]
    steps = 0
    begin = CPU()
    for k, state in enumerate(starts):
        final, _, n = random_playout(game, state, seed=k)
        assert final["result"] is not None
        steps += n
    return steps, CPU() - begin


def measure(game_id: str, quick: bool = False) -> dict[Any, Any]:
    game = get_game(game_id)
    pairs = [p for seed in range(SEEDS[game_id] // (2 if quick else 1) or 1)
             for p in trajectory(game_id, seed, vary=True)]
    sample = pairs[:: max(1, len(pairs) // MAX_PAIRS)]
    apply_us = [per_call_us(lambda s=s, a=a: game.apply(s, a)) for s, a in sample]
    legal_us = [per_call_us(lambda s=s, a=a: game.legal_actions(s, a["player"]))
                for s, a in sample]
    count = PLAYOUTS[game_id] // (2 if quick else 1)
    steps, elapsed = playouts(game_id, count)
    return {"apply": summary(apply_us), "legal_actions": summary(legal_us),
            "playouts_per_s": round(count / elapsed, 1),
            "playout_decisions": round(steps / count, 1),
            "us_per_decision": round(elapsed / steps * 1e6, 1)}
