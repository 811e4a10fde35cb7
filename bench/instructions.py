"""Instructions per engine call, counted by valgrind: an A/B that load cannot disturb.

``python -m bench.instructions [--against REV] [--games g,...] [--calls legal_actions,apply]``

Timings on a shared two-core machine move by 5–30 % from run to run, more than
most changes to an engine.  ``valgrind --tool=callgrind`` counts the
instructions a process executes instead: the same count for the same code and
inputs whatever else the machine does (``PYTHONHASHSEED`` is fixed).  Each
figure is the instructions of ``legal_actions`` (or ``apply``) over the
``(state, action)`` pairs of ``bench.engine`` (the same seeded games, the same
sample), per call: a run that makes the calls twice less a run that makes
none, so start-up and building the sample cancel out.

``--against REV`` measures a second checkout (a temporary ``git worktree`` of
``REV``, removed after) the same way, so a change is compared with its base:
``python -m bench.instructions --against HEAD~3``.  Instructions are not
seconds (a cache miss counts once, hardware SHA is invisible to valgrind), but
between two versions of the same Python code they move with its CPU time.

Needs ``valgrind`` (Debian package; ``make bench`` installs it as root).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
GAMES = ("raiders", "tremble", "kozyablo")
CALLS = ("legal_actions", "apply")
#: the child: run by the checkout's own Python code (it may predate this module)
CHILD = """
import sys
from bench.states import trajectory
from service.games.registry import get_game
game_id, call, loops = sys.argv[1], sys.argv[2], int(sys.argv[3])
seeds = {"raiders": 4, "tremble": 3, "kozyablo": 16}[game_id]
game = get_game(game_id)
pairs = [p for seed in range(seeds) for p in trajectory(game_id, seed, vary=True)]
sample = pairs[:: max(1, len(pairs) // 600)]
def run(state, action):
    if call == "apply":
        game.apply(state, action)
    else:
        game.legal_actions(state, action["player"])
for state, action in sample[:3]:
    run(state, action)
for _ in range(loops):
    for state, action in sample:
        run(state, action)
print(len(sample))
"""
COLLECTED = re.compile(r"Collected : (\d+)")


def count(tree: Path, game: str, call: str, loops: int) -> tuple[int, int]:
    """``(instructions, sample size)`` of one child run under callgrind in ``tree``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
             sys.executable, "-c", CHILD, game, call, str(loops)],
            cwd=tree, capture_output=True, text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)})
    found = COLLECTED.search(out.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count from valgrind:\n{out.stderr[-2000:]}")
    return int(found.group(1)), int(out.stdout.split()[-1])


def per_call(tree: Path, game: str, call: str) -> int:
    """Instructions per call: (two loops − none) over twice the sample."""
    base, _ = count(tree, game, call, 0)
    full, size = count(tree, game, call, 2)
    return round((full - base) / (2 * size))


def measure(tree: Path, games: list[str], calls: list[str], jobs: int = 2) -> dict[Any, Any]:
    keys = [(g, c) for g in games for c in calls]
    with ThreadPoolExecutor(jobs) as pool:
        counts = list(pool.map(lambda k: per_call(tree, *k), keys))
    return {f"{g} {c}": n for (g, c), n in zip(keys, counts, strict=True)}


def worktree(rev: str) -> Path:
    path = Path(tempfile.mkdtemp(prefix="bench-against-"))
    subprocess.run(["git", "worktree", "add", "--detach", "--force", str(path), rev],
                   cwd=REPO, check=True, capture_output=True)
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.instructions", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--against", help="a git revision to compare with (a temporary worktree)")
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--calls", default=",".join(CALLS))
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        ap.error("valgrind is not installed (apt-get install valgrind)")
    games, calls = args.games.split(","), args.calls.split(",")
    now = measure(REPO, games, calls)
    before = None
    if args.against:
        tree = worktree(args.against)
        try:
            before = measure(tree, games, calls)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=REPO,
                           capture_output=True)
    print("| call | " + (f"{args.against} | " if before else "") + "this checkout |"
          + (" change |" if before else ""))
    print("|---|" + ("---:|" if before else "") + "---:|" + ("---:|" if before else ""))
    for key, n in now.items():
        if before:
            print(f"| {key} | {before[key]:,} | {n:,} | {(n / before[key] - 1) * 100:+.1f} % |")
        else:
            print(f"| {key} | {n:,} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
