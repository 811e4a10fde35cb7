"""CPU seconds per playout step, per game and bot: the constants of the work estimate.

``python -m bench.step_costs [--games g,...] [--playouts N] [--turn-limit T]``

The ``playouts`` kind bounds a job's work by playouts × the steps a playout
can reach × a step's cost (``service.evaluations.playouts.estimate``).  This
measures, for every game, bot and player count, ``N`` playouts of a new game
as a job plays them (a determinization, the bots' playout, the score) with a
turn limit of ``T`` turns where the game has one (RAI-31, KOZ-50), in the
CPU time of this thread (``time.thread_time``: another process on the
machine does not count).  Per game it prints

* ``step``: the most CPU seconds per step of any playout, per bot (a whole
  playout's CPU over its steps, so a short one's determinization counts in
  it: the worst case, not the mean), and the median for comparison;
* ``steps/turn``: the most steps a playout took per turn, per player count
  (``turn_limit`` turns reach at most this × the turns);
* ``steps``: the longest playout (Tremble ends by its deck, no turn limit).

The constants in the games (``Game.step_seconds``, ``Game.turn_steps``,
``Game.playout_steps``) are these figures rounded up (×1.5 on the step cost,
for a slower or busier machine), measured on the reference machine (2 cores).
"""

from __future__ import annotations

import argparse
import statistics
import time

from service.evaluations.playouts import playout_seed
from service.games.bots import BOT_NAMES, bot_named
from service.games.playout import random_playout
from service.games.registry import get_game
from service.limits import MAX_PLAYOUT_STEPS

GAMES = ("raiders", "tremble", "kozyablo")


def measure(game_id: str, bot: str, players: int, playouts: int,
            turn_limit: int) -> list[tuple[float, int, int]]:
    """``(cpu seconds, steps, turns)`` of each playout of a new ``players`` game."""
    game = get_game(game_id)
    names = {o.name for o in game.options}
    options = {"turn_limit": turn_limit} if "turn_limit" in names else {}
    state = game.new_game(players, options, seed=players)[0]
    bots = [bot_named(bot)] * players
    out = []
    for i in range(playouts):
        began = time.thread_time()
        start = game.determinize(state, None, playout_seed(1, i))
        final, _, steps = random_playout(game, start, seed=playout_seed(1, i, 1),
                                         max_steps=MAX_PLAYOUT_STEPS, bots=bots)
        game.score(final)
        out.append((time.thread_time() - began, steps, final["turn"] - state["turn"]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.step_costs", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--playouts", type=int, default=8, help="per bot and player count")
    ap.add_argument("--turn-limit", type=int, default=120)
    args = ap.parse_args(argv)
    for game_id in args.games.split(","):
        game = get_game(game_id)
        per_turn, longest = dict.fromkeys(range(game.min_players, game.max_players + 1), 0.0), 0
        for bot in BOT_NAMES:
            costs = []
            for players in range(game.min_players, game.max_players + 1):
                for cpu, steps, turns in measure(game_id, bot, players, args.playouts,
                                                 args.turn_limit):
                    costs.append(cpu / max(steps, 1))
                    per_turn[players] = max(per_turn[players], steps / max(turns, 1))
                    longest = max(longest, steps)
            print(f"{game_id:9} {bot:7} step: max {max(costs) * 1e3:.3f} ms, "
                  f"median {statistics.median(costs) * 1e3:.3f} ms ({len(costs)} playouts)")
        shown = ", ".join(f"{p}: {s:.2f}" for p, s in per_turn.items())
        print(f"{game_id:9} steps/turn by players: max {shown}; steps: max {longest}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
