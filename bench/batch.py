"""A batch against the single calls it stands for (issue 38), as ratios in one run.

``python -m bench.batch [--seconds S] [--no-valgrind]`` (``make bench``: the ``batch`` part).

Three figures, each 64 questions asked one call at a time and then in one
``POST /v1/games/<game>/batch``, through the real app in process (``app.test_client()``,
this process's CPU time, best of several rounds taken in turn):

* ``checks``        — 64 ``check``s against one middle state (``bench.states``: the
  listed actions, cycled), the state shared by the batch;
* ``applies``       — 64 candidate ``apply``s on one middle state, shared;
* ``legal_actions`` — 64 ``legal-actions`` on 64 different states of one game (each item
  its own state: nothing shared but the call).

``ratio`` is the singles' time over the batch's.  Beside each, the instructions of both
(valgrind ``callgrind``, ``PYTHONHASHSEED=0``: load on the machine does not move them):
a child that builds the app and the bodies and then makes the calls, less one that only
builds them.

And the neighbours' latency: the Procfile's gunicorn serves; one client makes single
``legal-actions`` calls back to back for ``--seconds`` alone, then as long again while
another client sends 64-item batches of ``check``s back to back.  ``p99_change`` is the
second p99 over the first, less one (a batch is one request of a few ms: it holds one
worker that long, as a single call holds it for less).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson

from bench import servers
from bench.request_costs import CPU, quiet_app
from bench.states import representative_cases, trajectory

GAME = "raiders"
COUNT = 64
FIGURES = ("checks", "applies", "legal_actions")
#: issue 38: each batch against its singles, at least
MIN_RATIOS = {"checks": 20.0, "applies": 4.0, "legal_actions": 2.5}
#: and the concurrent single calls' p99 moves by at most this while batches run
MAX_P99_CHANGE = 0.10
REPO = Path(__file__).resolve().parents[1]


def bodies(game: str = GAME) -> dict[str, tuple[str, list[bytes], bytes]]:
    """figure → (the single calls' route, their 64 bodies, the one batch body)."""
    middle = next(c for c in representative_cases(game) if c.stage == "middle")
    from service.games.registry import get_game

    listed = get_game(game).legal_actions(middle.state, middle.player)
    actions = [listed[i % len(listed)] for i in range(COUNT)]
    line = [state for seed in range(4) for state, _ in trajectory(game, seed)]
    states = [line[i * len(line) // COUNT] for i in range(COUNT)]
    out = {}
    for figure, route in (("checks", "check"), ("applies", "apply")):
        out[figure] = (route, [orjson.dumps({"state": middle.state, "action": a}) for a in actions],
                       orjson.dumps({"state": middle.state, "items": [
                           {"op": route, "action": a} for a in actions]}))
    out["legal_actions"] = ("legal-actions", [orjson.dumps({"state": s}) for s in states],
                            orjson.dumps({"items": [{"op": "legal-actions", "state": s}
                                                    for s in states]}))
    return out


def _calls(client: Any, game: str, route: str, singles: list[bytes], batch: bytes):
    def one_by_one() -> None:
        for raw in singles:
            r = client.post(f"/v1/games/{game}/{route}", data=raw,
                            content_type="application/json")
            assert r.status_code == 200, r.get_data()[:300]

    def at_once() -> None:
        r = client.post(f"/v1/games/{game}/batch", data=batch, content_type="application/json")
        assert r.status_code == 200, r.get_data()[:300]
        assert all(item["status"] == 200 for item in orjson.loads(r.get_data())["items"])
    return one_by_one, at_once


def ratios(rounds: int = 7) -> dict[str, dict[str, float]]:
    """figure → the singles' and the batch's µs, and their ratio (best of ``rounds``)."""
    client = quiet_app().test_client()
    out = {}
    for figure, (route, singles, batch) in bodies().items():
        one_by_one, at_once = _calls(client, GAME, route, singles, batch)
        one_by_one(), at_once()  # warm: compiled specs, states known valid
        single_t, batch_t = [], []
        for _ in range(rounds):
            start = CPU()
            one_by_one()
            single_t.append(CPU() - start)
            start = CPU()
            at_once()
            batch_t.append(CPU() - start)
        s, b = min(single_t) * 1e6, min(batch_t) * 1e6
        out[figure] = {"singles_us": round(s, 1), "batch_us": round(b, 1),
                       "ratio": round(s / b, 2)}
    return out


#: the child counted by valgrind: builds the app and the bodies, warms one figure's calls
#: up, then makes them once more one by one (``singles``), at once (``batch``) or not
#: (``warm``): the difference with ``warm`` is what the calls cost
CHILD = """
import sys
from bench.batch import GAME, _calls, bodies
from bench.request_costs import quiet_app
figure, way = sys.argv[1], sys.argv[2]
one_by_one, at_once = _calls(quiet_app().test_client(), GAME, *bodies()[figure])
one_by_one(), at_once()
if way == "singles":
    one_by_one()
elif way == "batch":
    at_once()
"""


def _instructions(figure: str, way: str) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
             sys.executable, "-c", CHILD, figure, way], cwd=REPO, capture_output=True,
            text=True, check=True,
            env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(REPO),
                 "REFEREE_ACCESS_LOG": "0"})
    for line in done.stderr.splitlines():
        if "Collected :" in line:
            return int(line.rsplit(":", 1)[1])
    raise RuntimeError(f"no instruction count from valgrind:\n{done.stderr[-2000:]}")


def instructions() -> dict[str, dict[str, Any]]:
    """figure → the instructions of its 64 single calls and of its one batch, and their
    ratio (valgrind; two children at a time)."""
    runs = [(f, way) for f in FIGURES for way in ("warm", "singles", "batch")]
    with ThreadPoolExecutor(2) as pool:
        counted = dict(zip(runs, pool.map(lambda r: _instructions(*r), runs), strict=True))
    out: dict[str, dict[str, Any]] = {}
    for figure in FIGURES:
        singles = counted[figure, "singles"] - counted[figure, "warm"]
        batch = counted[figure, "batch"] - counted[figure, "warm"]
        out[figure] = {"singles": singles, "batch": batch, "ratio": round(singles / batch, 2)}
    return out


def _post(url: str, path: str, body: bytes, timeout: float = 30) -> float:
    """Seconds one POST took, on a new connection (as a client without keep-alive)."""
    parts = urlsplit(url)
    start = time.perf_counter()
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    try:
        conn.request("POST", path, body, {"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        assert response.status == 200, response.status
    finally:
        conn.close()
    return time.perf_counter() - start


def _p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def neighbours(seconds: float) -> dict[str, Any]:
    """The p99 of single ``legal-actions`` calls alone and while batches run beside them."""
    made = bodies()
    single = made["legal_actions"][1][COUNT // 2]
    batch = made["checks"][2]
    path = f"/v1/games/{GAME}/legal-actions"
    with tempfile.TemporaryDirectory() as tmp, servers.gunicorn(
            servers.SERVICE_APP, Path(tmp, "gunicorn.log"), {"REFEREE_ACCESS_LOG": "0"}) as url:
        for _ in range(50):  # warm both workers
            _post(url, path, single)
            _post(url, f"/v1/games/{GAME}/batch", batch)

        def probe() -> list[float]:
            out, end = [], time.monotonic() + seconds
            while time.monotonic() < end:
                out.append(_post(url, path, single))
            return out

        alone = probe()
        stop = threading.Event()
        sent = [0]

        def batches() -> None:
            while not stop.is_set():
                _post(url, f"/v1/games/{GAME}/batch", batch)
                sent[0] += 1
        beside = threading.Thread(target=batches, daemon=True)
        beside.start()
        try:
            together = probe()
        finally:
            stop.set()
            beside.join()
    a, b = _p99(alone), _p99(together)
    return {"seconds": seconds, "calls_alone": len(alone), "calls_beside": len(together),
            "batches_beside": sent[0], "p99_alone_ms": round(a * 1000, 2),
            "p99_beside_ms": round(b * 1000, 2), "p99_change": round(b / a - 1, 3)}


def measure(seconds: float = 5.0, valgrind: bool = True) -> dict[str, Any]:
    """Every figure of the module docstring in one run."""
    out: dict[str, Any] = {"game": GAME, "count": COUNT, "ratios": ratios(),
                           "neighbours": neighbours(seconds)}
    if valgrind:
        out["instructions"] = instructions()
    return out


def targets(found: dict[str, Any]) -> list[tuple[str, float, str, bool, str]]:
    """(name, value, goal, met, unit) of each target of issue 38."""
    out = [(f"batch of {COUNT} {figure.replace('_', '-')} / singles", row["ratio"],
            f">= {MIN_RATIOS[figure]:g}", row["ratio"] >= MIN_RATIOS[figure], "×")
           for figure, row in found["ratios"].items()]
    change = found["neighbours"]["p99_change"]
    out.append(("single calls' p99 while batches run", change, f"<= {MAX_P99_CHANGE:+.0%}",
                change <= MAX_P99_CHANGE, "change"))
    return out


def markdown(found: dict[str, Any]) -> list[str]:
    """The batch figures as a table (``bench.report``)."""
    counted = found.get("instructions", {})
    lines = ["| 64 questions | singles µs | batch µs | ratio | singles instr. | batch instr. "
             "| instr. ratio |", "|---|---:|---:|---:|---:|---:|---:|"]
    for figure, row in found["ratios"].items():
        c = counted.get(figure, {})
        lines.append(f"| {figure.replace('_', '-')} | {row['singles_us']:,.0f} | "
                     f"{row['batch_us']:,.0f} | {row['ratio']:.1f}× | "
                     f"{c.get('singles', 0):,} | {c.get('batch', 0):,} | "
                     f"{c.get('ratio', 0):.1f}× |")
    n = found["neighbours"]
    lines += ["", f"Single `legal-actions` p99 {n['p99_alone_ms']} ms alone, "
                  f"{n['p99_beside_ms']} ms beside {n['batches_beside']} batches "
                  f"({n['p99_change']:+.1%})."]
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.batch", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--no-valgrind", action="store_true")
    args = ap.parse_args(argv)
    found = measure(args.seconds, valgrind=not args.no_valgrind)
    print(json.dumps(found, indent=1))
    print("\n".join(markdown(found)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
