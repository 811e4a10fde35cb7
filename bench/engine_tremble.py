"""Tremble engine speed: ``apply`` median and random playouts per second.

Run: ``.venv/bin/python bench/engine_tremble.py [games]``.

* ``apply`` — every (state, action) pair of seeded random games (2–5 players,
  server chance, missions on) is timed on its own (median of a short timed
  loop per pair); the figure is the median over all pairs, with the p90.  The
  floor in the same run is ``copy.deepcopy`` of the same states — what one
  apply would cost without copy-on-write — reported as a ratio.
* playouts — complete random games (``service.games.playout.random_playout``:
  ``legal_actions`` + ``apply`` per step, chance resolved by the server) from
  a new game, per second, for each player count.
"""

from __future__ import annotations

import copy
import random
import statistics
import sys
import time
import timeit

from service.games.playout import random_playout
from service.games.registry import get_game


def recorded_pairs(game, games: int) -> list[tuple[dict, dict]]:
    pairs = []
    for seed in range(games):
        players = 2 + seed % 4
        state, _ = game.new_game(players, {}, seed)
        rng = random.Random(seed)
        while state["result"] is None:
            who = min(p["player"] for p in state["pending"])
            actions = game.legal_actions(state, who)
            action = actions[rng.randrange(len(actions))]
            pairs.append((state, action))
            state, _ = game.apply(state, action)
    return pairs


def per_call_us(fn, number: int = 20) -> float:
    return min(timeit.repeat(fn, number=number, repeat=3)) / number * 1e6


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    game = get_game("tremble")
    pairs = recorded_pairs(game, games)
    sample = pairs[:: max(1, len(pairs) // 1500)]
    apply_us = sorted(per_call_us(lambda s=s, a=a: game.apply(s, a)) for s, a in sample)
    deep_us = sorted(per_call_us(lambda s=s: copy.deepcopy(s), 5) for s, _ in sample[::10])
    med, p90 = statistics.median(apply_us), apply_us[int(0.9 * len(apply_us))]
    floor = statistics.median(deep_us)
    print(f"apply: median {med:.1f} µs, p90 {p90:.1f} µs over {len(sample)} recorded actions")
    print(f"floor (deepcopy of the same states): median {floor:.1f} µs  "
          f"-> apply is {med / floor:.2f}x a deepcopy")
    for players in (2, 3, 4, 5):
        start_states = [game.new_game(players, {}, 1000 + k)[0] for k in range(10)]
        t0 = time.perf_counter()
        steps = 0
        for k, state in enumerate(start_states):
            final, _, n = random_playout(game, state, seed=k)
            assert final["result"] is not None
            steps += n
        dt = time.perf_counter() - t0
        print(f"random playouts, {players} players: {len(start_states) / dt:.1f} games/s "
              f"({steps / len(start_states):.0f} decisions per game, "
              f"{dt / steps * 1e6:.0f} µs per decision incl. legal_actions)")


if __name__ == "__main__":
    main()
