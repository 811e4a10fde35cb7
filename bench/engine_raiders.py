"""Raiders engine speed: ``apply`` median and random playouts per second.

Run: ``.venv/bin/python bench/engine_raiders.py [games] [turn_limit]``.

* ``apply`` — (state, action) pairs recorded from seeded random games (2–6
  players, server chance, ``turn_limit`` set so random games end) are timed
  one by one (best of 3 short loops per pair); the figure is the median over
  the pairs, with the p90.  The floor in the same run is ``copy.deepcopy`` of
  the same states (what an apply would cost without copy-on-write), given as
  a ratio.  ``legal_actions`` is timed the same way.
* playouts — complete random games (``service.games.playout.random_playout``:
  ``legal_actions`` + ``apply`` per step, chance resolved by the server) from
  a new game with ``turn_limit`` (default 30 turns: random bots rarely reach 36
  money, so the limit ends most games), per second, for 2 and 4 players.
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


def recorded_pairs(game, games: int, turn_limit: int) -> list[tuple[dict, dict]]:
    pairs = []
    for seed in range(games):
        state, _ = game.new_game(2 + seed % 5, {"turn_limit": turn_limit}, seed)
        rng = random.Random(seed)
        while state["result"] is None:
            who = state["pending"][0]["player"]
            actions = game.legal_actions(state, who)
            action = actions[rng.randrange(len(actions))]
            pairs.append((state, action))
            state, _ = game.apply(state, action)
    return pairs


def per_call_us(fn, number: int = 20) -> float:
    return min(timeit.repeat(fn, number=number, repeat=3)) / number * 1e6


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    turn_limit = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    game = get_game("raiders")
    pairs = recorded_pairs(game, games, turn_limit)
    sample = pairs[:: max(1, len(pairs) // 1500)]
    apply_us = sorted(per_call_us(lambda s=s, a=a: game.apply(s, a)) for s, a in sample)
    legal_us = sorted(per_call_us(lambda s=s, a=a: game.legal_actions(s, a["player"]))
                      for s, a in sample)
    deep_us = sorted(per_call_us(lambda s=s: copy.deepcopy(s), 5) for s, _ in sample[::10])
    med, p90 = statistics.median(apply_us), apply_us[int(0.9 * len(apply_us))]
    floor = statistics.median(deep_us)
    print(f"apply: median {med:.1f} µs, p90 {p90:.1f} µs over {len(sample)} recorded actions")
    print(f"legal_actions: median {statistics.median(legal_us):.1f} µs")
    print(f"floor (deepcopy of the same states): median {floor:.1f} µs  "
          f"-> apply is {med / floor:.2f}x a deepcopy")
    for players in (2, 4):
        starts = [game.new_game(players, {"turn_limit": turn_limit}, 1000 + k)[0]
                  for k in range(20)]
        steps = 0
        begin = time.perf_counter()
        for k, state in enumerate(starts):
            _, _, n = random_playout(game, state, seed=k)
            steps += n
        elapsed = time.perf_counter() - begin
        print(f"{players} players, turn_limit {turn_limit}: {len(starts) / elapsed:.0f} "
              f"playouts/s ({steps / len(starts):.0f} actions per game, "
              f"{elapsed / steps * 1e6:.1f} µs per step)")


if __name__ == "__main__":
    main()
