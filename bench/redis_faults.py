"""Redis faults against real processes (issue 24): a frozen Redis, an emptied one.

Everything runs on loopback: a private ``redis-server`` on a free port (never
the machine's 6379), the Procfile's ``web`` line (``bench.servers``) and, for
the emptied Redis, the Procfile's ``worker`` line (``workers.supervise``).

``frozen``: the service with ``REFEREE_RATE_LIMIT`` counting in Redis; Redis
is stopped with ``SIGSTOP`` (it keeps its connections but answers nothing),
then ``POST /v1/games/raiders/new`` is timed one request at a time, then 16 at
once, then Redis gets ``SIGCONT``::

    python -m bench.redis_faults frozen --requests 20

``emptied``: two workers registered, Redis killed and started again empty
(``--save ''``, no append-only file) within 0.3 s; the seconds until
``GET /readyz`` is 200 again (a worker registered and live), per round::

    python -m bench.redis_faults emptied --rounds 3

The tests ``tests/hardening/test_redis_stall.py`` and
``tests/evaluations/test_redis_outage.py::test_workers_register_again_when_redis_comes_back_empty``
drive the same processes with these helpers.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench import servers

RAIDERS_NEW = ("/v1/games/raiders/new", b'{"players": 2, "seed": 1}')


class RedisProcess:
    """A redis-server of our own, no persistence: a restart starts it empty."""

    def __init__(self, workdir: Path, port: int | None = None):
        self.workdir, self.port = workdir, port or servers.free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        import redis

        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed (apt-get install -y redis-server)")
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.workdir)],
            stdout=(self.workdir / "redis.log").open("ab"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        while True:
            try:
                if redis.Redis.from_url(self.url, socket_connect_timeout=0.5).ping():
                    return
            except redis.ConnectionError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.02)

    def freeze(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.thaw()
            self.proc.kill()
            self.proc.wait(timeout=10)


def request(url: str, method: str, path: str, body: bytes | None = None,
            timeout: float = 15) -> tuple[int, float, dict[Any, Any], bytes]:
    """(status, seconds, headers, body) of one request on a new connection;
    status 0 when the client gave up after ``timeout`` seconds."""
    parts = urlsplit(url)
    started = time.perf_counter()
    conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout)
    try:
        conn.request(method, path, body=body,
                     headers={"Content-Type": "application/json"} if body is not None else {})
        r = conn.getresponse()
        data = r.read()
        return r.status, time.perf_counter() - started, \
            {k.lower(): v for k, v in r.getheaders()}, data
    except TimeoutError:
        return 0, time.perf_counter() - started, {}, b""
    finally:
        conn.close()


def concurrently(url: str, count: int, method: str, path: str, body: bytes | None = None,
                 timeout: float = 15) -> list[tuple[int, float, dict[Any, Any], bytes]]:
    out: list[Any] = [None] * count

    def one(i: int) -> None:
        out[i] = request(url, method, path, body, timeout)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


@contextmanager
def web(redis_url: str, log: Path, **env: str):
    """The Procfile's web line on loopback with ``REDIS_URL`` and ``env``."""
    with servers.gunicorn(servers.SERVICE_APP, log, {
            "REDIS_URL": redis_url, "REFEREE_ACCESS_LOG": "0",
            "REFEREE_EVALUATION_STORE": str(log.parent / "evaluations.sqlite3"),
            **env}) as url:
        yield url


def procfile_worker_line() -> str:
    for line in (servers.REPO / "Procfile").read_text().splitlines():
        if line.startswith("worker:"):
            return line.split(":", 1)[1].strip()
    raise RuntimeError("the Procfile has no worker line")


def start_workers(redis_url: str, log: Path, count: int = 2, **env: str) -> subprocess.Popen[bytes]:
    """The Procfile's worker line (``workers.supervise``) with ``count`` workers."""
    environ = {**os.environ, "PYTHONPATH": str(servers.REPO), "REDIS_URL": redis_url,
               "REFEREE_WORKERS": str(count),
               "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}", **env}
    return subprocess.Popen(["sh", "-c", "exec " + procfile_worker_line()], cwd=servers.REPO,
                            env=environ, stdout=log.open("wb"), stderr=subprocess.STDOUT)


def stop_workers(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the supervisor (it stops its workers), SIGKILL after 20 s."""
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def wait_ready(url: str, timeout: float, at_least: int = 1) -> float:
    """Seconds until ``GET /readyz`` is 200 with ``at_least`` workers; raises on timeout."""
    started = time.monotonic()
    while True:
        status, _, _, body = request(url, "GET", "/readyz", timeout=5)
        if status == 200 and json.loads(body)["checks"].get("workers", 0) >= at_least:
            return time.monotonic() - started
        if time.monotonic() - started > timeout:
            raise TimeoutError(f"/readyz not 200 after {timeout} s: {status} {body[:300]!r}")
        time.sleep(0.1)


def measure_frozen(requests: int, tmp: Path) -> dict[Any, Any]:
    redis_server = RedisProcess(tmp)
    redis_server.start()
    try:
        with web(redis_server.url, tmp / "gunicorn.log",
                 REFEREE_RATE_LIMIT="100000/minute") as url:
            warm = [request(url, "POST", *RAIDERS_NEW)[1] for _ in range(requests)]
            redis_server.freeze()
            try:
                one = [request(url, "POST", *RAIDERS_NEW) for _ in range(requests)]
                many = concurrently(url, 16, "POST", *RAIDERS_NEW)
            finally:
                redis_server.thaw()
    finally:
        redis_server.stop()

    def figures(rows: list[dict[Any, Any]]) -> dict[Any, Any]:
        seconds = sorted(r[1] for r in rows)
        return {"statuses": sorted({r[0] for r in rows}),
                "p50_ms": round(statistics.median(seconds) * 1000, 1),
                "max_ms": round(seconds[-1] * 1000, 1)}

    return {"redis up": figures([(200, s) for s in warm]),
            "frozen, one at a time": figures(one), "frozen, 16 at once": figures(many)}


def measure_emptied(rounds: int, tmp: Path) -> list[float]:
    redis_server = RedisProcess(tmp)
    redis_server.start()
    out = []
    workers = start_workers(redis_server.url, tmp / "workers.log")
    try:
        with web(redis_server.url, tmp / "gunicorn.log") as url:
            wait_ready(url, 60, at_least=2)
            for _ in range(rounds):
                redis_server.kill()
                time.sleep(0.2)
                redis_server.start()  # empty: no RDB, no append-only file
                try:
                    out.append(round(wait_ready(url, 120), 1))
                except TimeoutError:
                    out.append(float("inf"))
                    break
                wait_ready(url, 60, at_least=2)
    finally:
        stop_workers(workers)
        redis_server.stop()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.redis_faults", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="fault", required=True)
    frozen = sub.add_parser("frozen", help="request latency while Redis is frozen")
    frozen.add_argument("--requests", type=int, default=20)
    emptied = sub.add_parser("emptied", help="seconds to /readyz 200 after an empty restart")
    emptied.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="redis-faults-") as tmp:
        if args.fault == "frozen":
            print(json.dumps(measure_frozen(args.requests, Path(tmp)), indent=1))
        else:
            print(json.dumps({"seconds until /readyz is 200": measure_emptied(args.rounds,
                                                                              Path(tmp))}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
