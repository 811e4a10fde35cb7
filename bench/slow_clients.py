"""Slow clients against the Procfile's gunicorn: does the service keep answering?

``python -m bench.slow_clients [--clients 50] [--seconds 30] [--interval 2]
[--gunicorn-args '--worker-class sync']`` serves the service under the
Procfile's ``web`` command on loopback (``--gunicorn-args`` are appended, to
compare worker settings), connects ``--clients`` slow clients — each sends the
headers of a ``POST /v1/games/raiders/new`` announcing a 1,000-byte body, then
the body one byte every ``--interval`` seconds — and meanwhile probes the
service (``GET /healthz`` and ``POST /v1/games/raiders/new``, one after the
other, each with a 5 s timeout).  It prints one JSON summary:

``probes``/``failed``  probes sent / not answered 2xx within the timeout
``p50_ms``/``max_ms``  probe latency (answered probes)
``longest_silence_s``  the longest time without any answered probe
``slow_connected``     slow clients the server still held open at the end
``worker_timeouts``    ``WORKER TIMEOUT`` lines in gunicorn's log

``tests/hardening/test_web_faults.py`` runs the same clients and probes,
shorter, and asserts that probes keep answering.

>>> head = request_head("/v1/games/raiders/new", 1000)
>>> head.startswith(b"POST /v1/games/raiders/new HTTP/1.1\\r\\n"), b"Content-Length: 1000" in head
(True, True)
"""

from __future__ import annotations

import argparse
import http.client
import json
import shlex
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bench import servers

NEW_GAME = b'{"players": 2, "seed": 1}'


def request_head(path: str, length: int, host: str = "127.0.0.1") -> bytes:
    """The request line and headers of a JSON POST whose body is ``length`` bytes."""
    return (f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {length}\r\n\r\n").encode()


class SlowClients:
    """``count`` connections that send a request head, then a body byte every ``interval`` s.

    One thread drips a byte into every open socket per interval; a socket the
    server closed (a failed send) is dropped and counted in ``closed``.
    """

    def __init__(self, url: str, count: int, interval: float = 2.0, body_size: int = 1000,
                 path: str = "/v1/games/raiders/new") -> None:
        parts = urlsplit(url)
        self.address = (parts.hostname, parts.port)
        self.count, self.interval, self.body_size, self.path = count, interval, body_size, path
        self.socks: list[socket.socket] = []
        self.closed = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._drip, daemon=True)

    def __enter__(self) -> SlowClients:
        head = request_head(self.path, self.body_size)
        for _ in range(self.count):
            s = socket.create_connection(self.address, timeout=5)
            s.sendall(head)
            self.socks.append(s)
        self._thread.start()
        return self

    def _drip(self) -> None:
        sent = 0
        while not self._stop.wait(self.interval) and sent < self.body_size - 1:
            sent += 1  # never the last byte: the request stays incomplete
            for s in list(self.socks):
                try:
                    s.sendall(b" ")
                except OSError:
                    self.socks.remove(s)
                    self.closed += 1
                    s.close()

    @property
    def connected(self) -> int:
        return len(self.socks)

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        for s in self.socks:
            s.close()


def probe_once(url: str, timeout: float = 5.0) -> tuple[bool, float]:
    """(answered 2xx, seconds) for ``GET /healthz`` then ``POST .../raiders/new``."""
    parts = urlsplit(url)
    started = time.perf_counter()
    try:
        for method, path, body in (("GET", "/healthz", None),
                                   ("POST", "/v1/games/raiders/new", NEW_GAME)):
            conn = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=timeout)
            try:
                conn.request(method, path, body, {"Content-Type": "application/json"})
                response = conn.getresponse()
                response.read()
                if not 200 <= response.status < 300:
                    return False, time.perf_counter() - started
            finally:
                conn.close()
    except OSError:
        return False, time.perf_counter() - started
    return True, time.perf_counter() - started


def probe_for(url: str, seconds: float, every: float = 0.25, timeout: float = 5.0) -> dict[Any, Any]:
    """Probe for ``seconds`` (one probe at a time, ``every`` s apart); a summary."""
    start = time.monotonic()
    last_answer, silence = start, 0.0
    ok_latencies, failed, sent = [], 0, 0
    while time.monotonic() - start < seconds:
        ok, took = probe_once(url, timeout)
        sent += 1
        now = time.monotonic()
        if ok:
            ok_latencies.append(took)
            silence = max(silence, now - last_answer)
            last_answer = now
        else:
            failed += 1
        time.sleep(every)
    silence = max(silence, time.monotonic() - last_answer)
    ok_latencies.sort()
    return {"probes": sent, "failed": failed,
            "p50_ms": round(ok_latencies[len(ok_latencies) // 2] * 1000, 1) if ok_latencies else None,
            "max_ms": round(ok_latencies[-1] * 1000, 1) if ok_latencies else None,
            "longest_silence_s": round(silence, 2)}


def served(log: Path, extra_args: list[str] | None = None, env: dict[Any, Any] | None = None):
    """The service under the Procfile's gunicorn command (plus ``extra_args``,
    which override it, and ``env``); yield its URL, stop it after."""
    return servers.gunicorn(servers.SERVICE_APP, log, env, extra_args)


def measure(clients: int, seconds: float, interval: float = 2.0,
            extra_args: list[str] | None = None) -> dict[Any, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp, "gunicorn.log")
        with served(log, extra_args) as url:
            with SlowClients(url, clients, interval) as slow:
                summary = probe_for(url, seconds)
                summary["slow_connected"] = slow.connected
        text = log.read_text(errors="replace")
    return {"clients": clients, "seconds": seconds, "interval_s": interval,
            "gunicorn": " ".join(servers.procfile_web()[2:] + list(extra_args or [])),
            **summary, "worker_timeouts": text.count("WORKER TIMEOUT")}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.slow_clients", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--interval", type=float, default=2.0)
    ap.add_argument("--gunicorn-args", default="", help="appended to the Procfile's web command")
    args = ap.parse_args(argv)
    result = measure(args.clients, args.seconds, args.interval, shlex.split(args.gunicorn_args))
    print(json.dumps(result))
    return 0 if result["failed"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
