"""Steps/s of the rules in-process (``service.engine_api``) against single HTTP calls.

``python -m bench library [--seconds S] [--games g,...]`` (a part of ``make bench``), or
``python -m bench.library``.

A *step* is what a bot does per decision: ``legal-actions`` for the pending player, then
``apply`` of one of its actions.  The same seeded steps (``bench.states.trajectory``: every
``(state, action)`` of a random game, a few seeds per game) are played

* through the library: ``Referee.legal_actions`` + ``Referee.apply``, in this process;
* through HTTP: the two requests in turn, one at a time on one keep-alive connection to
  the service under the Procfile's gunicorn command (``bench.servers``): single calls,
  as a bot that waits for each answer makes them.

Both in the same run, taken in turn in slices (library, HTTP, library, …) so the machine's
load hits both alike; ``ratio`` is the library's steps/s over HTTP's (issue 38: at least
``MIN_RATIO``).  Beside it, ``instructions`` counted by valgrind (``bench.instructions``'s
way: two loops less none, over the sample) per library step and per engine step
(``Game.legal_actions`` + ``Game.apply`` alone): what the library adds to the engine, in
a figure load cannot move.
"""

from __future__ import annotations

import argparse
import http.client
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson

from bench.instructions import COLLECTED, REPO
from bench.servers import SERVICE_APP, gunicorn
from bench.states import trajectory
from service.engine_api import Referee
from service.games.objects import ActionObject

GAMES = ("raiders", "tremble", "kozyablo")
#: issue 38: the library's steps/s over single HTTP calls'
MIN_RATIO = 20.0
SEEDS = 3
SLICE_SECONDS = 1.0
#: the child whose instructions are counted: ``library`` or ``engine`` steps, ``loops`` times
CHILD = """
import sys
from bench.states import trajectory
from service.engine_api import Referee
game_id, how, loops = sys.argv[1], sys.argv[2], int(sys.argv[3])
referee = Referee(game_id)
game = referee.game
pairs = [p for seed in range(3) for p in trajectory(game_id, seed)]
sample = pairs[:: max(1, len(pairs) // 300)]
def step(state, action):
    if how == "library":
        referee.legal_actions(state, action["player"])
        referee.apply(state, action)
    else:
        game.legal_actions(state, action["player"])
        game.apply(state, action)
for state, action in sample[:3]:
    step(state, action)
for _ in range(loops):
    for state, action in sample:
        step(state, action)
print(len(sample))
"""

Pairs = list[tuple[dict[str, Any], ActionObject]]


def pairs_of(game_id: str) -> Pairs:
    return [(dict(s), a) for seed in range(SEEDS) for s, a in trajectory(game_id, seed)]


def library_steps(referee: Referee, pairs: Pairs) -> Callable[[float], tuple[int, float]]:
    """Steps through the library for about ``seconds``: ``(steps, seconds)``."""
    def run(seconds: float) -> tuple[int, float]:
        steps, begin = 0, time.perf_counter()
        while time.perf_counter() - begin < seconds:
            for state, action in pairs:
                referee.legal_actions(state, action["player"])
                referee.apply(state, action)
                steps += 1
        return steps, time.perf_counter() - begin
    return run


def http_steps(base: str, game_id: str, pairs: Pairs) -> Callable[[float], tuple[int, float]]:
    """Steps as single HTTP calls on one keep-alive connection: ``(steps, seconds)``."""
    where = urlsplit(base)
    connection = http.client.HTTPConnection(where.hostname or "127.0.0.1", where.port)
    headers = {"Content-Type": "application/json"}
    bodies = [(orjson.dumps({"state": s, "player": a["player"]}),
               orjson.dumps({"state": s, "action": a})) for s, a in pairs]

    def call(verb: str, body: bytes) -> None:
        connection.request("POST", f"/v1/games/{game_id}/{verb}", body, headers)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"{verb}: {response.status}")

    def run(seconds: float) -> tuple[int, float]:
        steps, begin = 0, time.perf_counter()
        while time.perf_counter() - begin < seconds:
            for listing, applying in bodies:
                call("legal-actions", listing)
                call("apply", applying)
                steps += 1
                if time.perf_counter() - begin >= seconds:
                    break
        return steps, time.perf_counter() - begin
    return run


def instructions(game_id: str, how: str) -> int | None:
    """Instructions per step (valgrind), ``None`` without valgrind."""
    if shutil.which("valgrind") is None:
        return None

    def count(loops: int) -> tuple[int, int]:
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
                 sys.executable, "-c", CHILD, game_id, how, str(loops)],
                cwd=REPO, capture_output=True, text=True, check=True,
                env={"PYTHONHASHSEED": "0", "PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"})
        found = COLLECTED.search(out.stderr)
        if found is None:
            raise RuntimeError(f"no instruction count from valgrind:\n{out.stderr[-2000:]}")
        return int(found.group(1)), int(out.stdout.split()[-1])

    count(0)  # once first: a module changed since its last import is compiled here, not counted
    base, _ = count(0)
    full, size = count(2)
    return round((full - base) / (2 * size))


def measure(games: list[str], seconds: float, log: Callable[[str], None] = print,
            count_instructions: bool = True) -> dict[str, Any]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp, \
            gunicorn(SERVICE_APP, Path(tmp) / "gunicorn.log",
                     env={"REFEREE_ACCESS_LOG": "0"}) as base:
        for game_id in games:
            pairs = pairs_of(game_id)
            referee = Referee(game_id)
            runs = {"library": library_steps(referee, pairs),
                    "http": http_steps(base, game_id, pairs)}
            for run in runs.values():
                run(0.2)  # warm: both the library's memory of states and the server's
            done = {name: [0, 0.0] for name in runs}
            while min(d[1] for d in done.values()) < seconds:
                for name, run in runs.items():
                    steps, secs = run(SLICE_SECONDS)
                    done[name][0] += steps
                    done[name][1] += secs
            rate = {name: d[0] / d[1] for name, d in done.items()}
            row = {"game": game_id, "library_steps_per_s": round(rate["library"]),
                   "http_steps_per_s": round(rate["http"], 1),
                   "ratio": round(rate["library"] / rate["http"], 1), "pairs": len(pairs)}
            if count_instructions:
                row["instructions_per_library_step"] = instructions(game_id, "library")
                row["instructions_per_engine_step"] = instructions(game_id, "engine")
            log(f"library: {game_id} {row}")
            rows.append(row)
    return {"rows": rows, "seconds_per_figure": seconds, "min_ratio": MIN_RATIO}


def markdown(results: dict[str, Any]) -> list[str]:
    lines = ["", "The rules in-process (`service.engine_api`; `bench.library`): steps/s of "
                 "`legal_actions` + `apply`, against the same steps as single HTTP calls to "
                 "gunicorn (one keep-alive connection, one call at a time), same run; "
                 "instructions per step (valgrind) of the library and of the engine alone.", "",
             "| game | library steps/s | HTTP steps/s | ratio | instructions / library step "
             "| instructions / engine step |", "|---|---:|---:|---:|---:|---:|"]
    for r in results["rows"]:
        def n(key: str) -> str:
            value = r.get(key)
            return f"{value:,}" if isinstance(value, int) else "—"
        lines.append(f"| {r['game']} | {r['library_steps_per_s']:,} | {r['http_steps_per_s']:,} "
                     f"| {r['ratio']:g} | {n('instructions_per_library_step')} "
                     f"| {n('instructions_per_engine_step')} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.library", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--no-instructions", action="store_true")
    args = ap.parse_args(argv)
    results = measure(args.games.split(","), args.seconds,
                      lambda m: print(m, file=sys.stderr), not args.no_instructions)
    print("\n".join(markdown(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
