"""Kozyablo engine speed: ``apply`` median and random playouts per second.

Run: ``.venv/bin/python bench/engine_kozyablo.py [games]``.

* ``apply`` — every (state, action) pair of seeded random games over all
  race pairings (server chance, ``turn_limit`` 60) is timed on its own
  (best of 3 short loops per pair); the figure is the median over the pairs,
  with the p90.  The floor in the same run is ``copy.deepcopy`` of the same
  states — what one apply would cost without copy-on-write — as a ratio.
* playouts — complete random games (``service.games.playout.random_playout``:
  ``legal_actions`` + ``apply`` per step, chance resolved by the server) from
  new games of every race pairing, per second.  Targets (issue 3): apply
  median ≤ 50 µs, ≥ 30 playouts/s.
"""

from __future__ import annotations

import copy
import random
import statistics
import sys
import time
import timeit

from service.games.kozyablo.setup import RACE_ORDER
from service.games.playout import random_playout
from service.games.registry import get_game

OPTIONS = {"turn_limit": 60}
PAIRINGS = [(a, b) for a in RACE_ORDER for b in RACE_ORDER]


def new(game, k: int, seed: int) -> dict:
    a, b = PAIRINGS[k % len(PAIRINGS)]
    return game.new_game([{"race": a}, {"race": b}], OPTIONS, seed)[0]


def recorded_pairs(game, games: int) -> list[tuple[dict, dict]]:
    pairs = []
    for seed in range(games):
        state = new(game, seed, seed)
        rng = random.Random(seed)
        while state["result"] is None:
            who = min(p["player"] for p in state["pending"] if p["player"] != "chance")
            actions = game.legal_actions(state, who)
            action = actions[rng.randrange(len(actions))]
            pairs.append((state, action))
            state, _ = game.apply(state, action)
    return pairs


def per_call_us(fn, number: int = 20) -> float:
    return min(timeit.repeat(fn, number=number, repeat=3)) / number * 1e6


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    game = get_game("kozyablo")
    pairs = recorded_pairs(game, games)
    sample = pairs[:: max(1, len(pairs) // 1500)]
    apply_us = sorted(per_call_us(lambda s=s, a=a: game.apply(s, a)) for s, a in sample)
    deep_us = sorted(per_call_us(lambda s=s: copy.deepcopy(s), 5) for s, _ in sample[::10])
    med, p90 = statistics.median(apply_us), apply_us[int(0.9 * len(apply_us))]
    floor = statistics.median(deep_us)
    print(f"apply: median {med:.1f} µs, p90 {p90:.1f} µs over {len(sample)} recorded actions")
    print(f"floor (deepcopy of the same states): median {floor:.1f} µs  "
          f"-> apply is {med / floor:.2f}x a deepcopy")
    starts = [new(game, k, 1000 + k) for k in range(len(PAIRINGS) * 2)]
    t0 = time.perf_counter()
    steps = 0
    for k, state in enumerate(starts):
        final, _, n = random_playout(game, state, seed=k)
        assert final["result"] is not None
        steps += n
    dt = time.perf_counter() - t0
    print(f"random playouts (all 16 race pairings, turn_limit 60): "
          f"{len(starts) / dt:.1f} games/s ({steps / len(starts):.0f} decisions per game, "
          f"{dt / steps * 1e6:.0f} µs per decision incl. legal_actions)")


if __name__ == "__main__":
    main()
