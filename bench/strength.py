"""Suggestion strength: the ISMCTS bot against the greedy bot, per game.

``python -m bench.strength [--games g,...] [--count N] [--budgets 8,32,64]
[--fixed 32] [--procs 2] [--no-write]``

Two-player games from the bench setups (``SETUPS``): game ``i`` deals seed
``i // 2`` and seats the search bot at seat ``i % 2``, so every deal is
played from both sides (seats swapped).  The search bot (``SearchBot``, an
iteration budget: deterministic) decides from its own determinizations
only; the greedy bot is ``service.games.bots.GreedyBot``.  A win counts 1,
a shared win ½.  Reported per game and budget: the win rate with its 95%
Wilson interval, and the mean time per suggestion, wall and CPU (the wall
time grows with the machine's load; decisions with a single legal action
are not searched and not timed).  The ``--fixed`` budget is
played ``--count`` games, the other budgets ``--chart-count`` (the chart).
Writes ``bench/results/strength.{json,md,png}``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

from service.evaluations.stats import wilson
from service.games import ismcts
from service.games.bots import GreedyBot
from service.games.chance import CHANCE
from service.games.ismcts import SearchBot
from service.games.objects import JsonObject
from service.games.playout import Bot, choose_chance, next_actor
from service.games.registry import get_game

RESULTS = Path(__file__).parent / "results"
#: two-player setups: (players or per-seat setups by deal, options)
SETUPS: dict[str, tuple[Any, ...]] = {
    "raiders": (2, {"turn_limit": 30}),
    "tremble": (2, {}),
    "kozyablo": (None, {"turn_limit": 60}),
}
GOAL = 0.65
#: the defaults of ``make bench``: games at the fixed budget, the budget, the chart's budgets
COUNT, FIXED, BUDGETS = 200, 32, (8, 32, 64)
MAX_STEPS = 5000


def players_for(game_id: str, deal: int) -> int | list[JsonObject]:
    """The players of a deal (Kozyablo: every pair of races in turn)."""
    players, _ = SETUPS[game_id]
    if players is None:
        from service.games.kozyablo.setup import RACE_ORDER
        pairs = [(a, b) for a in RACE_ORDER for b in RACE_ORDER]
        a, b = pairs[deal % len(pairs)]
        return [{"race": a}, {"race": b}]
    return players


def play_one(job: tuple[str, int, int, dict[Any, Any]]) -> dict[Any, Any]:
    """One game: the search bot at ``seat`` with ``budget`` iterations."""
    game_id, index, budget, tuning = job
    game = get_game(game_id)
    deal, seat = index // 2, index % 2
    state, _ = game.new_game(players_for(game_id, deal), SETUPS[game_id][1], seed=deal)
    rng = random.Random(deal * 7919 + seat)
    bots: dict[int, Bot] = {seat: SearchBot(iterations=budget, **tuning), 1 - seat: GreedyBot()}
    searched, spent, cpu, steps = 0, 0.0, 0.0, 0
    while state["result"] is None and steps < MAX_STEPS:
        who = next_actor(state, rng)
        if who is None:
            break
        if who == CHANCE:
            action = choose_chance(game, state, rng)
        else:
            assert isinstance(who, int)
            timed = who == seat and len(game.legal_actions(state, who)) > 1
            begin, begin_cpu = time.perf_counter(), time.process_time()
            action = bots[who].choose(game, state, who, rng)
            if timed:
                searched += 1
                spent += time.perf_counter() - begin
                cpu += time.process_time() - begin_cpu
        state, _ = game.apply(state, action)
        steps += 1
    winners = game.score(state)["winners"] if state["result"] is not None else []
    score = (1 / len(winners)) if seat in winners else 0.0
    return {"game": game_id, "index": index, "budget": budget, "score": score,
            "searches": searched, "seconds": spent, "cpu_seconds": cpu, "steps": steps}


def summarise(rows: list[dict[Any, Any]]) -> dict[Any, Any]:
    n = len(rows)
    points = sum(r["score"] for r in rows)
    lo, hi = wilson(points, n)
    searches = sum(r["searches"] for r in rows)
    timed = [r for r in rows if "cpu_seconds" in r and r["searches"]]
    return {"games": n, "points": points, "rate": points / n if n else None, "ci95": [lo, hi],
            "ms_per_suggestion": 1000 * sum(r["seconds"] for r in rows) / searches
            if searches else None,
            "cpu_ms_per_suggestion": 1000 * sum(r["cpu_seconds"] for r in timed)
            / sum(r["searches"] for r in timed) if timed else None,
            "cpu_games": len(timed), "suggestions": searches}


def run(games: list[str], count: int, budgets: list[int], fixed: int, procs: int,
        tuning: dict[Any, Any] | None = None, chart_count: int | None = None, rows_path: Path | None = None,
        log=lambda msg: print(msg, file=sys.stderr, flush=True)) -> dict[Any, Any]:
    """Play every game (the fixed budget first); ``rows_path`` gets one JSON
    line per game as it ends."""
    others = chart_count if chart_count is not None else max(2, count // 2)
    order = [fixed] + [b for b in budgets if b != fixed]
    jobs = [(g, i, b, tuning or {}) for b in order for g in games
            for i in range(count if b == fixed else others)]
    begin = time.perf_counter()
    rows: list[dict[Any, Any]] = []
    with multiprocessing.get_context("fork").Pool(procs) as pool:
        for k, row in enumerate(pool.imap_unordered(play_one, jobs, chunksize=1)):
            rows.append(row)
            if rows_path is not None:
                with rows_path.open("a") as sink:
                    sink.write(json.dumps(row) + "\n")
            if (k + 1) % 50 == 0:
                log(f"{k + 1}/{len(jobs)} games, {time.perf_counter() - begin:.0f} s")
    return collect(rows, games, budgets, fixed, tuning, time.perf_counter() - begin)


def collect(rows: list[dict[Any, Any]], games: list[str], budgets: list[int], fixed: int,
            tuning: dict[Any, Any] | None, seconds: float) -> dict[Any, Any]:
    """The result of played games (``rows``) per game and budget."""
    defaults = {"exploration": ismcts.EXPLORATION, "rollout": "per game",
                "rollout_policies": {g: get_game(g).search_rollout for g in games
                                     if get_game(g).search_rollout != "random"},
                "rollout_depth": ismcts.ROLLOUT_DEPTH, "widening": ismcts.WIDENING}
    out: dict[Any, Any] = {"fixed_budget": fixed, "tuning": {**defaults, **(tuning or {})},
                 "budgets": budgets, "goal": GOAL, "seconds": round(seconds, 1), "games": {}}
    for g in games:
        out["games"][g] = {str(b): summarise([r for r in rows if r["game"] == g
                                              and r["budget"] == b]) for b in budgets
                           if any(r["game"] == g and r["budget"] == b for r in rows)}
    return out


def markdown(result: dict[Any, Any]) -> str:
    lines = ["| game | budget (iterations) | games | win rate vs greedy | 95% CI "
             "| ms per suggestion (wall) | CPU ms |", "|---|---|---|---|---|---|---|"]
    for g, per in result["games"].items():
        for b, s in per.items():
            mark = " (fixed)" if int(b) == result["fixed_budget"] else ""
            lines.append(f"| {g} | {b}{mark} | {s['games']} | {s['rate']:.3f} | "
                         f"{s['ci95'][0]:.3f}–{s['ci95'][1]:.3f} | {s['ms_per_suggestion']:.0f} | "
                         + (f"{s['cpu_ms_per_suggestion']:.0f} |"
                            if s.get("cpu_ms_per_suggestion") is not None else "– |"))
    return "\n".join(lines)


def draw(result: dict[Any, Any], path: Path) -> bool:
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2), dpi=110)
    for g, per in result["games"].items():
        budgets = sorted(per, key=int)
        xs = [int(b) for b in budgets]
        ys = [per[b]["rate"] for b in budgets]
        err = [[per[b]["rate"] - per[b]["ci95"][0] for b in budgets],
               [per[b]["ci95"][1] - per[b]["rate"] for b in budgets]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=g)
    ax.axhline(result["goal"], color="#d62728", linestyle="dotted", linewidth=1,
               label=f"goal {result['goal']:.0%}")
    ax.axhline(0.5, color="#9e9e9e", linewidth=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("ISMCTS iterations per suggestion")
    ax.set_ylabel("win rate against the greedy bot")
    ax.set_ylim(0, 1)
    ax.set_title("Suggestion bot vs greedy, 2 players, seats swapped (95% Wilson intervals)",
                 fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.strength", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=",".join(SETUPS))
    ap.add_argument("--count", type=int, default=COUNT, help="games at the fixed budget")
    ap.add_argument("--budgets", default=",".join(map(str, BUDGETS)))
    ap.add_argument("--fixed", type=int, default=FIXED)
    ap.add_argument("--chart-count", type=int, default=None,
                    help="games at the other budgets (default count // 2)")
    ap.add_argument("--rows", type=Path, default=None, help="append each game as a JSON line")
    ap.add_argument("--from-rows", type=Path, nargs="+", default=None,
                    help="summarise the games of --rows files instead of playing (a game "
                         "played again, by game, index and budget, counts once: the last)")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--tuning", default="{}", help="JSON: search() keywords (exploration, "
                    "rollout, rollout_depth, value_scale)")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args(argv)
    budgets = sorted({int(b) for b in args.budgets.split(",")} | {args.fixed})
    games = [g for g in args.games.split(",") if g]
    if args.from_rows:
        played = {}
        for path in args.from_rows:
            for line in path.read_text().splitlines():
                row = json.loads(line)
                played[row["game"], row["index"], row["budget"]] = row
        result = collect(list(played.values()), games, budgets, args.fixed,
                         json.loads(args.tuning), 0.0)
    else:
        result = run(games, args.count, budgets, args.fixed, args.procs, json.loads(args.tuning),
                     args.chart_count, args.rows)
    print(markdown(result))
    if not args.no_write:
        write(result)
    return 0


def write(result: dict[Any, Any]) -> None:
    """``bench/results/strength.{json,md,png}``."""
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "strength.json").write_text(json.dumps(result, indent=1) + "\n")
    (RESULTS / "strength.md").write_text(markdown(result) + "\n")
    draw(result, RESULTS / "strength.png")


if __name__ == "__main__":
    sys.exit(main())
