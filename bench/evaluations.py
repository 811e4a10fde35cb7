"""Evaluation speed: exact battle odds, and playouts/s on 1 and 2 RQ workers.

Run alone: ``.venv/bin/python -m bench evaluations`` (or, as before,
``.venv/bin/python bench/evaluations.py [playouts]``); needs ``redis-server``
on the PATH — a private one is started on a free port in a temporary
directory and stopped after, as ``tests/conftest.py`` does.

* exact odds — for 2, 3, 4 and 5 fighters, ``battle_odds`` on every distinct
  strength-difference tuple (5 fighters: a sample), as the service answers
  it: after the import-time precompute of every contest of up to 4 fighters,
  so a 5-fighter tuple is its first query (only its top level is solved) and
  2–4 fighters are cache hits.  Median and max per query; plus the precompute
  itself and a cold 5-fighter query (cache cleared first).
* queue floor — the round trip of a no-op RQ job and how many no-op jobs one
  worker drains per second.
* playouts — one ``playouts`` evaluation (Tremble, 3 players, random bots,
  default chunking) submitted through the app and polled until finished,
  with 1 and then 2 real ``rq worker`` processes, twice in turn (the best run
  of each counts); playouts/s and the 2-worker/1-worker ratio.  The floor: the same plan run in this process
  with no queue at all.  The RQ result must equal the in-process one.
"""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repo importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import redis  # noqa: E402
from rq import Queue, Worker  # noqa: E402

from service.evaluations.kinds import prepare  # noqa: E402
from service.evaluations.runner import run_inline  # noqa: E402
from service.games.registry import get_game  # noqa: E402
from service.games.tremble.evaluations import odds  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
RQ = Path(sys.executable).with_name("rq")
DEFAULT_PLAYOUTS = 1600
#: rounds of (1 worker, 2 workers), best of each
ROUNDS = 2


def bench_odds() -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    t = time.perf_counter()
    odds._solve.cache_clear()
    odds._prewarm()
    out["precompute_ms"] = round((time.perf_counter() - t) * 1e3, 2)
    out["precomputed_tuples"] = odds._solve.cache_info().currsize
    per_n = {}
    for n in (2, 3, 4, 5):
        tuples = [(0,) + rest for rest in combinations_with_replacement(range(11), n - 1)]
        if n == 5:
            tuples = tuples[::5]
        times = []
        for diffs in tuples:  # CPU time: other load on the machine does not count
            strengths = [30 - d for d in diffs]
            t = time.process_time()
            odds.battle_odds(strengths)
            times.append(time.process_time() - t)
        per_n[str(n)] = {"queries": len(tuples),
                         "median_ms": round(statistics.median(times) * 1e3, 4),
                         "max_ms": round(max(times) * 1e3, 4)}
    out["fighters"] = per_n
    odds._solve.cache_clear()
    t = time.perf_counter()
    odds.battle_odds([30, 28, 27, 25, 24])
    out["cold_5_fighters_ms"] = round((time.perf_counter() - t) * 1e3, 2)
    odds._prewarm()
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_redis(workdir: str) -> tuple[subprocess.Popen[bytes], str]:
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed (apt-get install -y redis-server)")
    port = free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                             "--appendonly", "no", "--dir", workdir, "--daemonize", "no"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    for _ in range(300):
        try:
            if redis.Redis.from_url(url).ping():
                return proc, url
        except redis.ConnectionError:
            time.sleep(0.05)
    proc.terminate()
    raise RuntimeError("redis-server did not start")


def start_workers(url: str, count: int) -> list[subprocess.Popen[bytes]]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [subprocess.Popen([str(RQ), "worker", "referee", "--url", url, "--name",
                               f"bench-{count}-{k}", "--logging_level", "WARNING",
                               "-w", "workers.worker.RefereeWorker"],
                              cwd=REPO, env=env) for k in range(count)]
    conn = redis.Redis.from_url(url)
    deadline = time.monotonic() + 60
    while len(Worker.all(connection=conn)) < count:
        if time.monotonic() > deadline:
            stop_workers(url, procs)
            raise RuntimeError("rq workers did not register within 60 s")
        time.sleep(0.05)
    return procs


def stop_workers(url: str, procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
    conn = redis.Redis.from_url(url)
    for w in Worker.all(connection=conn):
        w.register_death()


def bench_queue_floor(url: str) -> dict[Any, Any]:
    procs = start_workers(url, 1)
    try:
        q = Queue("referee", connection=redis.Redis.from_url(url))
        trips = []
        for _ in range(20):
            t = time.perf_counter()
            job = q.enqueue("builtins.abs", -1)
            while job.get_status() != "finished":
                time.sleep(0.001)
            trips.append(time.perf_counter() - t)
        n = 200
        t = time.perf_counter()
        jobs = [q.enqueue("builtins.abs", -1) for _ in range(n)]
        while jobs[-1].get_status() != "finished":
            time.sleep(0.005)
        rate = n / (time.perf_counter() - t)
    finally:
        stop_workers(url, procs)
    return {"noop_round_trip_ms": round(statistics.median(trips) * 1e3, 2),
            "noop_jobs_per_s_one_worker": round(rate)}


def bench_playouts(url: str, n: int) -> dict[Any, Any]:
    from service.app import create_app

    state, _ = get_game("tremble").new_game(3, {"missions": False}, seed=5)
    body = {"game": "tremble", "kind": "playouts", "state": state,
            "params": {"playouts": n, "seed": 1, "bots": "random", "player": 0}}
    kind, plan = prepare(body)
    t = time.perf_counter()
    expected = run_inline(kind.name, plan)
    inline = n / (time.perf_counter() - t)
    out = {"game": "tremble", "players": 3, "bots": "random", "playouts": n,
           "chunks": len(kind.chunks(plan)), "chunk_size": plan["chunk_size"],
           "in_process_per_s": round(inline, 1)}
    client = create_app({"TESTING": True, "REDIS_URL": url}).test_client()
    walls: dict[int, list[float]] = {1: [], 2: []}
    for count in (1, 2) * ROUNDS:  # alternate; the best of each: the machine is shared
        procs = start_workers(url, count)
        try:
            t = time.perf_counter()
            location = client.post("/v1/evaluations", json=body).headers["Location"]
            while (status := client.get(location).json)["status"] not in (
                    "finished", "failed", "canceled"):
                time.sleep(0.02)
            wall = time.perf_counter() - t
        finally:
            stop_workers(url, procs)
        if status["status"] != "finished":
            raise RuntimeError(f"the playouts evaluation ended {status['status']}: {status}")
        if status["result"] != expected:
            raise RuntimeError("the RQ result differs from the in-process one")
        walls[count].append(wall)
    for count, runs in walls.items():
        out[f"workers_{count}_per_s"] = round(n / min(runs), 1)
        out[f"workers_{count}_wall_s"] = [round(w, 2) for w in runs]
    out["ratio_2_to_1"] = round(out["workers_2_per_s"] / out["workers_1_per_s"], 3)
    # on a shared 2-core machine the second worker only helps when a core is free
    out["loadavg_1min_after"] = round(os.getloadavg()[0], 2)
    return out


def measure(playouts: int = DEFAULT_PLAYOUTS, log: Callable[[str], None] = print) -> dict[Any, Any]:
    result = {"odds": bench_odds()}
    log(f"  odds: 5 fighters median {result['odds']['fighters']['5']['median_ms']} ms")
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_redis(tmp)
        try:
            result["queue"] = bench_queue_floor(url)
            result["playouts"] = bench_playouts(url, playouts)
            log(f"  playouts: 1 worker {result['playouts']['workers_1_per_s']}/s, "
                f"2 workers {result['playouts']['workers_2_per_s']}/s")
        finally:
            proc.terminate()
            proc.wait(timeout=10)
    return result


if __name__ == "__main__":
    import json

    print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_PLAYOUTS),
                     indent=2))
