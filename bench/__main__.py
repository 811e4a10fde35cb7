"""``python -m bench [parts...] [--seconds S] [--games g,...] [--quick] [--no-write]``

Parts: ``http``, ``requests``, ``engine``, ``validation``, ``evaluations``, ``strength``,
``steps``, ``library``, ``batch`` (default: all nine; ``http``: the service as benched and
as operators run it, ``bench.operators``; ``requests``: ``bench.request_instructions``,
instructions per request of each configuration, with valgrind; ``steps``:
``bench.spent_steps``, the register of spent steps; ``library``: ``bench.library``, the
rules in-process against single HTTP calls; ``batch``: ``bench.batch``, batches against
the single calls they stand for; ``engine`` includes ``bench.engine_steps``, a playout step
per game against Raiders').  Writes ``bench/results/latest.{json,md,png}`` after a full run
(``--no-write`` skips it; a partial run never overwrites them unless
``--write``); the ``strength`` part also writes ``bench/results/strength.*``
(``bench.strength``: the suggestion bot against the greedy bot, about 5
minutes of the run on two cores).
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import shutil
import subprocess
import sys
import time
from typing import Any

from bench import (
    batch,
    chart,
    engine,
    engine_steps,
    evaluations,
    http_load,
    library,
    report,
    request_costs,
    request_instructions,
    spent_steps,
    strength,
    validation,
)
from bench.states import SETUPS, representative_cases

PARTS = ("http", "requests", "engine", "validation", "evaluations", "strength", "steps",
         "library", "batch")


def commit() -> str:
    """The checkout's commit, ``+dirty`` when code under test has local edits
    (``BENCH_COMMIT`` overrides: a run from an exported tree)."""
    if os.environ.get("BENCH_COMMIT"):
        return os.environ["BENCH_COMMIT"]
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, cwd=report.RESULTS.parent.parent, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "service", "schemas",
                                "card_db", "workers"], capture_output=True, text=True,
                               cwd=report.RESULTS.parent.parent).stdout.strip()
        return out + ("+dirty" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("parts", nargs="*", choices=[*PARTS, []], default=[],
                    help="what to measure (default: everything)")
    ap.add_argument("--seconds", type=float, default=float(os.environ.get("BENCH_SECONDS", 5)),
                    help="seconds per HTTP figure (default 5, env BENCH_SECONDS)")
    ap.add_argument("--games", default=",".join(SETUPS), help="comma-separated game ids")
    ap.add_argument("--playouts", type=int, default=evaluations.DEFAULT_PLAYOUTS,
                    help="playouts in the RQ scaling figure")
    ap.add_argument("--quick", action="store_true", help="fewer samples (a smoke run)")
    ap.add_argument("--write", action="store_true", help="write results even for a partial run")
    ap.add_argument("--no-write", action="store_true", help="print only")
    args = ap.parse_args(argv)
    parts = args.parts or list(PARTS)
    games = [g for g in args.games.split(",") if g]
    unknown = set(games) - set(SETUPS)
    if unknown:
        ap.error(f"unknown games: {', '.join(sorted(unknown))}")

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    begin = time.perf_counter()
    results: dict[Any, Any] = {"meta": {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "python": platform.python_version(), "cpus": os.cpu_count(), "commit": commit(),
        "command": "make bench" if not argv and len(sys.argv) == 1
        else "python -m bench " + " ".join(argv if argv is not None else sys.argv[1:]),
        "setups": {g: {"players": SETUPS[g][0], "options": SETUPS[g][1], "seed": SETUPS[g][2]}
                   for g in games}}}
    cases = [c for g in games for c in representative_cases(g)]
    results["meta"]["cases"] = [{"game": c.game, "stage": c.stage, "step": c.step,
                                 "of": c.steps, "action": c.action["type"]} for c in cases]
    load = {"start": [round(x, 2) for x in os.getloadavg()]}
    if "http" in parts:
        log(f"HTTP: {len(cases)} states × (floor, legal-actions, apply), {args.seconds:g} s each")
        results["http"] = http_load.measure(cases, args.seconds, log)
    if "requests" in parts and shutil.which("valgrind"):
        log("requests: instructions per request of each configuration (valgrind)")
        results["request_instructions"] = request_instructions.measure(games=games)
    if "engine" in parts:
        app = request_costs.quiet_app()
        results["engine"], results["request_costs"] = {}, {}
        for g in games:
            log(f"engine: {g}")
            results["engine"][g] = engine.measure(g, args.quick)
            middle = next(c for c in cases if c.game == g and c.stage == "middle")
            results["request_costs"][g] = request_costs.measure(app, middle, args.quick)
        log("engine: instructions and random-playout steps/s per step, to Raiders'")
        results["engine_steps"] = engine_steps.measure(
            games, valgrind=shutil.which("valgrind") is not None, quick=args.quick)
    if "validation" in parts:
        log("validation: jsonschema_rs, fastjsonschema, validate on the middle states")
        results["validation"] = validation.measure(
            [c for c in cases if c.stage == "middle"], args.quick)
    if "evaluations" in parts:
        log("evaluations: exact odds, RQ playouts on 1 and 2 workers")
        results["evaluations"] = evaluations.measure(args.playouts, log)
    if "strength" in parts:
        count = 20 if args.quick else strength.COUNT
        log(f"strength: the suggestion bot against greedy, {count} games per game at "
            f"{strength.FIXED} iterations")
        results["strength"] = strength.run(games, count, list(strength.BUDGETS), strength.FIXED,
                                           procs=2, log=log)
    if "steps" in parts:
        log("steps: the register of spent steps (valgrind instructions per sealed apply, size)")
        results["spent_steps"] = spent_steps.measure(valgrind=shutil.which("valgrind") is not None)
    if "library" in parts:
        log("library: service.engine_api steps/s against single HTTP calls (and valgrind "
            "instructions per step)")
        results["library"] = library.measure(games, args.seconds, log,
                                             count_instructions=shutil.which("valgrind") is not None)
    if "batch" in parts:
        log("batch: 64 questions one by one and in one batch (time, valgrind instructions), "
            "single calls' p99 beside batches")
        results["batch"] = batch.measure(args.seconds,
                                         valgrind=shutil.which("valgrind") is not None)
    load["end"] = [round(x, 2) for x in os.getloadavg()]
    results["meta"]["loadavg"] = load
    results["targets"] = report.targets(results)
    results["meta"]["bench_seconds"] = round(time.perf_counter() - begin, 1)
    table = report.markdown(results)
    print(table)
    failed = [t["target"] for t in results["targets"] if not t["pass"]]
    print(f"{len(results['targets']) - len(failed)} of {len(results['targets'])} targets met"
          + (f"; not met: {'; '.join(failed)}" if failed else ""))
    full = set(parts) == set(PARTS) and set(games) == set(SETUPS)
    if not args.no_write and (full or args.write):
        report.write(results)
        if "strength" in results:
            strength.write(results["strength"])
        if "http" in results and chart.draw(results, report.RESULTS / "latest.png"):
            log(f"wrote {report.RESULTS}/latest.json, latest.md, latest.png")
        else:
            log(f"wrote {report.RESULTS}/latest.json, latest.md (no chart: pip install -e '.[bench]')")
    return 0


if __name__ == "__main__":
    sys.exit(main())
