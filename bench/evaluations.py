"""Evaluation speed: exact battle odds, and playouts/s on 1 and 2 RQ workers.

Run: ``PYTHONPATH=. .venv/bin/python bench/evaluations.py [playouts]``
(default 1600 Tremble playouts, random bots, 3 players; needs ``redis-server``
on the PATH — a private one is started on a free port and stopped after).

* exact odds — the import-time precompute (every contest of up to 4
  fighters); the first query of a new five-fighter difference tuple (only
  its top level is solved); and a cached tuple, for 2 and 5 fighters.
  The floor in the same run: the sync HTTP endpoint against the same body
  through a no-op Flask endpoint of the same app (ratio).
* queue floor — the round trip of a no-op RQ job (enqueue → finished) and
  how many no-op jobs one worker drains per second.
* playouts — one ``playouts`` evaluation (default chunking: about 1 s of
  work per chunk) submitted over HTTP and polled until finished, with 1 and
  then 2 worker processes; playouts/s and the 2-worker/1-worker ratio.  The
  floor: the same plan run in this process with no queue at all.
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
from pathlib import Path

import redis
from rq import Queue, Worker
from rq.job import Job

from service.evaluations import odds
from service.evaluations.kinds import prepare
from service.evaluations.runner import run_inline
from service.games.registry import get_game

REPO = Path(__file__).resolve().parents[1]
RQ = Path(sys.executable).with_name("rq")


def per_call(fn, n: int) -> float:
    t = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t) / n


def bench_odds() -> None:
    from itertools import combinations_with_replacement

    t = time.perf_counter()
    odds._solve.cache_clear()
    odds._prewarm()
    print(f"exact odds: import-time precompute of every contest of <= 4 fighters "
          f"({odds._solve.cache_info().currsize} tuples): {(time.perf_counter() - t) * 1e3:.1f} ms")
    cases = {2: [16, 17], 5: [10, 12, 13, 15, 16]}
    fresh = [[30 - d for d in (0,) + rest]
             for rest in combinations_with_replacement(range(11), 4)][::5]
    firsts = []
    for strengths in fresh:
        t = time.perf_counter()
        odds.battle_odds(strengths)
        firsts.append(time.perf_counter() - t)
    print(f"exact odds, 5 fighters, first query of a new strength-difference tuple: median "
          f"{statistics.median(firsts) * 1e3:.3f} ms, max {max(firsts) * 1e3:.3f} ms "
          f"({len(fresh)} distinct tuples)")
    for n, strengths in cases.items():
        odds.battle_odds(strengths)
        warm_t = statistics.median(per_call(lambda: odds.battle_odds(strengths), 2000)
                                   for _ in range(5))
        print(f"exact odds, {n} fighters {strengths}, cached tuple: {warm_t * 1e6:.1f} µs per call")
    from flask import Response

    from service.app import create_app
    app = create_app({"TESTING": True})
    app.add_url_rule("/noop", "noop", lambda: Response(b"{}", mimetype="application/json"),
                     methods=["POST"])
    client = app.test_client()
    for n, strengths in cases.items():
        body = {"strengths": strengths}
        reals, floors = [], []
        for _ in range(7):  # alternate, keep the best of each: the machine is shared
            reals.append(per_call(lambda: client.post("/v1/games/tremble/odds", json=body), 200))
            floors.append(per_call(lambda: client.post("/noop", json=body), 200))
        real, floor = min(reals), min(floors)
        print(f"POST /v1/games/tremble/odds, {n} fighters: {real * 1e6:.0f} µs "
              f"= {real / floor:.2f} × a no-op endpoint ({floor * 1e6:.0f} µs)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis(workdir: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([shutil.which("redis-server"), "--port", str(port), "--bind",
                             "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", workdir],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"redis://127.0.0.1:{port}/0"
    for _ in range(200):
        try:
            if redis.Redis.from_url(url).ping():
                return proc, url
        except redis.ConnectionError:
            time.sleep(0.05)
    raise RuntimeError("redis-server did not start")


def start_workers(url: str, count: int) -> list[subprocess.Popen]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [subprocess.Popen([str(RQ), "worker", "referee", "--url", url, "--name",
                               f"bench-{count}-{k}", "--logging_level", "WARNING",
                               "-w", "workers.worker.RefereeWorker"],
                              cwd=REPO, env=env) for k in range(count)]
    conn = redis.Redis.from_url(url)
    while len(Worker.all(connection=conn)) < count:
        time.sleep(0.05)
    return procs


def stop_workers(url: str, procs: list[subprocess.Popen]) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        p.wait(timeout=30)
    conn = redis.Redis.from_url(url)
    for w in Worker.all(connection=conn):
        w.register_death()


def bench_queue_floor(url: str) -> None:
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
        print(f"no-op RQ job: round trip {statistics.median(trips) * 1e3:.1f} ms (median of 20), "
              f"one worker drains {rate:.0f} jobs/s")
    finally:
        stop_workers(url, procs)


def bench_playouts(url: str, n: int) -> None:
    from service.app import create_app

    state, _ = get_game("tremble").new_game(3, {"missions": False}, seed=5)
    body = {"game": "tremble", "kind": "playouts", "state": state,
            "params": {"playouts": n, "seed": 1, "bots": "random", "player": 0}}
    kind, plan = prepare(body)
    t = time.perf_counter()
    expected = run_inline(kind.name, plan)
    inline = n / (time.perf_counter() - t)
    print(f"playouts in-process, no queue: {inline:.0f} playouts/s "
          f"({len(kind.chunks(plan))} chunks of {plan['chunk_size']})")
    client = create_app({"TESTING": True, "REDIS_URL": url}).test_client()
    rates = {}
    for count in (1, 2):
        procs = start_workers(url, count)
        try:
            t = time.perf_counter()
            location = client.post("/v1/evaluations", json=body).headers["Location"]
            while (status := client.get(location).json)["status"] not in (
                    "finished", "failed", "canceled"):
                time.sleep(0.1)
            wall = time.perf_counter() - t
        finally:
            stop_workers(url, procs)
        assert status["status"] == "finished", status
        assert status["result"] == expected, "the RQ result differs from the in-process one"
        eval_id = location.rsplit("/", 1)[1]
        conn = redis.Redis.from_url(url)
        jobs = [Job.fetch(f"ev-{eval_id}-{k}", connection=conn)
                for k in range(status["chunks"])]
        busy = sum((j.ended_at - j.started_at).total_seconds() for j in jobs)
        rates[count] = n / wall
        print(f"playouts on {count} RQ worker(s): {rates[count]:.0f} playouts/s "
              f"({wall:.2f} s wall, {rates[count] / inline:.2f} × in-process; chunks ran "
              f"{busy:.2f} s in all = {busy / (wall * count):.0%} of the workers' wall time, "
              f"{n / busy:.0f} playouts per busy second)")
    print(f"2 workers / 1 worker: {rates[2] / rates[1]:.2f} "
          f"(machine has {os.cpu_count()} cores, shared)")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1600
    bench_odds()
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_redis(tmp)
        try:
            bench_queue_floor(url)
            bench_playouts(url, n)
        finally:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
