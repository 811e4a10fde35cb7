"""What one answer per step costs: instructions per sealed ``apply``, and the register's size.

``python -m bench.spent_steps [--games 1000] [--redis]``

1. **Instructions per sealed ``apply``** (valgrind callgrind, as ``bench.instructions``:
   load cannot move them).  A child process builds the real app with sealing keys, plays a
   sealed Raiders line of 60 steps as the host, then sends every ``(state, action)`` of the
   line to ``apply`` ``loops`` times through the test client; a run with two loops less a
   run with none, over twice the line, is one request.  Three registers: none (the
   register switched off in the app: what a sealed ``apply`` cost before), the embedded
   SQLite file, and Redis (a private ``redis-server`` on loopback; the count is the web
   process's only: Redis's own CPU is its own).  Each loop after the first resends what
   was already applied — the register does the same transaction for a first spend and a
   retry (one ``INSERT … ON CONFLICT … RETURNING``).  The garbage collector is off
   during the loops: a collection that falls in one run and not in the other would
   count as the register.
2. **Size per 1,000 games**: the mean length of the bench's random games of each game
   (``bench.states``), then that many steps of ``--games`` games spent into a fresh SQLite
   file (its size on disk after a checkpoint) and into a fresh Redis (``used_memory``
   before and after).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
CHILD = """
import os, sys
from service.app import create_app
mode, loops, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
config = {"TESTING": True, "ACCESS_LOG": False, "SEALING_KEYS": "bench-key",
          "STEP_REGISTER": path, "REDIS_URL": os.environ.get("BENCH_REDIS_URL") if mode == "redis" else None}
app = create_app(config)
if mode == "none":
    app.extensions["referee"]["step_register"] = None
client = app.test_client()
r = client.post("/v1/games/raiders/new", json={"players": 2, "seed": 5})
state, tokens = r.json["state"], r.json["seat_tokens"]
host = {"Referee-Seat-Token": ", ".join(tokens)}
line = []
for _ in range(60):
    actions = client.post("/v1/games/raiders/legal-actions", json={"state": state}, headers=host).json["actions"]
    if not actions:
        break
    body = {"state": state, "action": actions[0]}
    line.append(body)
    state = client.post("/v1/games/raiders/apply", json=body, headers=host).json["state"]
import gc
gc.collect(); gc.freeze(); gc.disable()  # a collection falling in one run and not the other is not the register
for _ in range(loops):
    for body in line:
        assert client.post("/v1/games/raiders/apply", json=body, headers=host).status_code == 200
print(len(line))
"""
COLLECTED = re.compile(r"Collected : (\d+)")
MODES = ("none", "sqlite", "redis")


def count(mode: str, loops: int, redis_url: str | None) -> tuple[int, int]:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(REPO)}
        if redis_url:
            env["BENCH_REDIS_URL"] = redis_url
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
             sys.executable, "-c", CHILD, mode, str(loops), f"{tmp}/steps.sqlite3"],
            cwd=REPO, capture_output=True, text=True, check=True, env=env)
    found = COLLECTED.search(out.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count from valgrind:\n{out.stderr[-2000:]}")
    return int(found.group(1)), int(out.stdout.split()[-1])


def per_apply(mode: str, redis_url: str | None) -> int:
    base, _ = count(mode, 0, redis_url)
    full, size = count(mode, 2, redis_url)
    return round((full - base) / (2 * size))


def mean_length(game_id: str, games: int = 10) -> float:
    """Actions per game of the bench's seeded random games (``bench.states``: Raiders 4
    players and 30 turns, Kozyablo 60 turns, Tremble to its end)."""
    from bench.states import trajectory

    return sum(len(trajectory(game_id, seed, vary=True)) for seed in range(games)) / games


def sizes(games: int, redis_url: str | None) -> dict[str, object]:
    from service.spent_steps import RedisSteps, SQLiteSteps

    lengths = {g: mean_length(g) for g in ("raiders", "tremble", "kozyablo")}
    steps = round(sum(lengths.values()) / len(lengths))
    rng = random.Random(0)
    out: dict[str, object] = {"mean_steps": {g: round(n, 1) for g, n in lengths.items()},
                              "steps_per_game": steps, "games": games}
    with tempfile.TemporaryDirectory() as tmp:
        path = f"{tmp}/steps.sqlite3"
        register = SQLiteSteps(path, 30 * 86400)
        for _ in range(games):
            game = rng.randbytes(16).hex()
            for step in range(steps):
                register.spend(game, step, rng.randbytes(16))
        db = sqlite3.connect(path)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()
        out["sqlite_bytes"] = os.path.getsize(path)
    if redis_url:
        import redis

        client = redis.Redis.from_url(redis_url)
        client.flushall()
        before = int(client.info("memory")["used_memory"])
        rsteps = RedisSteps(redis_url, 2.0, 30 * 86400)
        for _ in range(games):
            game = rng.randbytes(16).hex()
            for step in range(steps):
                rsteps.spend(game, step, rng.randbytes(16))
        out["redis_bytes"] = int(client.info("memory")["used_memory"]) - before
    return out


def private_redis(tmp: str) -> tuple[subprocess.Popen[bytes], str]:
    from bench.servers import free_port

    port = free_port()
    proc = subprocess.Popen([shutil.which("redis-server") or "redis-server", "--port", str(port),
                             "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", tmp], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    import time

    import redis
    for _ in range(100):
        try:
            if redis.Redis.from_url(url, socket_connect_timeout=0.2).ping():
                break
        except redis.ConnectionError:
            time.sleep(0.05)
    return proc, url


def measure(games: int = 1000, valgrind: bool = True) -> dict[str, object]:
    """Both figures, on a private redis-server; ``valgrind=False``: the sizes only."""
    out: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = private_redis(tmp)
        try:
            if valgrind:
                out["instructions_per_sealed_apply"] = {
                    m: per_apply(m, url if m == "redis" else None) for m in MODES}
            out["size"] = sizes(games, url)
        finally:
            proc.terminate()
            proc.wait()
    return out


def markdown(found: dict[Any, Any]) -> list[str]:
    lines = []
    counts = found.get("instructions_per_sealed_apply")
    if counts:
        lines += ["| register | instructions per sealed apply | added |", "|---|---:|---:|"]
        lines += [f"| {m} | {n:,} | {n - counts['none']:+,} |" for m, n in counts.items()]
    size = found["size"]
    lines.append(f"{size['games']:,} games of {size['steps_per_game']} steps: SQLite "
                 f"{size['sqlite_bytes'] / 1e6:.1f} MB, Redis {size.get('redis_bytes', 0) / 1e6:.1f} MB")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.spent_steps", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--no-valgrind", action="store_true", help="sizes only")
    args = ap.parse_args(argv)
    if not args.no_valgrind and shutil.which("valgrind") is None:
        ap.error("valgrind is not installed (apt-get install valgrind)")
    print("\n".join(markdown(measure(args.games, not args.no_valgrind))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
