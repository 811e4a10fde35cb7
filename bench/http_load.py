"""Requests/s of ``legal-actions`` and ``apply`` under gunicorn, against a floor.

The service (``service.app:create_app()``) and the floor
(``bench.floor_app``) each run under the Procfile's gunicorn command
(``bench.servers``).  For every game and stage (``bench.states``): the floor on that stage's
``apply`` body (the larger of the two bodies), ``legal-actions`` and ``apply``
on the service, each loaded by ``bench.loader`` in 1-second slices taken in
turn (floor, legal-actions, apply, floor, …) until each has had the
requested seconds.  Interleaving keeps the floor and the endpoints under the
same background load on a shared machine.
Every body is first sent once and must answer 200.
"""

from __future__ import annotations

import statistics
import tempfile
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from bench import loader
from bench.servers import FLOOR_APP, SERVICE_APP, gunicorn
from bench.states import Case

ENDPOINTS = ("legal-actions", "apply")
#: the floor and the two endpoints take turns in slices this long, so a burst
#: of background load on the shared machine hits all three alike
SLICE_SECONDS = 1.0


def merge(parts: list[dict[Any, Any]]) -> dict[Any, Any]:
    """One figure from several slices: total requests over total time; the
    median of the slices' p50 and p99 latencies."""
    requests = sum(p["requests"] for p in parts)
    secs = sum(p["seconds"] for p in parts)
    return {"requests": requests, "seconds": secs, "rps": requests / secs,
            "p50_us": statistics.median(p["p50_us"] for p in parts),
            "p99_us": statistics.median(p["p99_us"] for p in parts),
            "errors": sum(p["errors"] for p in parts), "slices": len(parts)}


def post(url: str, body: bytes) -> tuple[int, bytes]:
    req = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _row(game: str, stage: str, endpoint: str, body: bytes, result: dict[Any, Any]) -> dict[Any, Any]:
    return {"game": game, "stage": stage, "endpoint": endpoint, "body_bytes": len(body),
            "rps": round(result["rps"], 1), "p50_us": round(result["p50_us"]),
            "p99_us": round(result["p99_us"]), "requests": result["requests"],
            "errors": result["errors"]}


def measure(cases: list[Case], seconds: float, log: Callable[[str], None] = print) -> dict[Any, Any]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp, \
            gunicorn(FLOOR_APP, Path(tmp, "floor.log")) as floor_url, \
            gunicorn(SERVICE_APP, Path(tmp, "service.log")) as app_url:
        bodies = {}
        for case in cases:
            for endpoint in ENDPOINTS:
                body = orjson.dumps(case.apply_body() if endpoint == "apply"
                                    else case.legal_actions_body())
                path = f"/v1/games/{case.game}/{endpoint}"
                for base in (app_url, floor_url):
                    for _ in range(4):  # both workers see every route before timing
                        status, answer = post(base + path, body)
                        if status != 200:
                            raise RuntimeError(f"{base}{path} answered {status}: {answer[:300]!r}")
                bodies[case.game, case.stage, endpoint] = body
        loader.load(floor_url + "/v1/games/warm/up", bodies[cases[0].game, cases[0].stage, "apply"], 1)
        for case in cases:
            targets = [("floor", f"{floor_url}/v1/games/{case.game}/apply",
                        bodies[case.game, case.stage, "apply"])]
            targets += [(e, f"{app_url}/v1/games/{case.game}/{e}", bodies[case.game, case.stage, e])
                        for e in ENDPOINTS]
            slices: dict[str, list[dict[Any, Any]]] = {name: [] for name, _, _ in targets}
            # the Python loader starts processes per call: one long slice each
            slice_s = SLICE_SECONDS if loader.loader_name() == "wrk" else seconds
            for _ in range(max(1, round(seconds / slice_s))):
                for name, url, body in targets:
                    slices[name].append(loader.load(url, body, slice_s))
            merged = {name: merge(parts) for name, parts in slices.items()}
            floor = merged["floor"]
            rows.append(_row(case.game, case.stage, "floor", targets[0][2], floor))
            for name, _, body in targets[1:]:
                row = _row(case.game, case.stage, name, body, merged[name])
                row["ratio_to_floor"] = round(merged[name]["rps"] / floor["rps"], 3)
                rows.append(row)
            shown = ", ".join(f"{r['endpoint']} {r['rps']:.0f}/s" for r in rows[-3:])
            log(f"  http {case.game:8} {case.stage:6}: {shown}")
        for r in rows:
            if r["errors"]:
                raise RuntimeError(f"{r['errors']} failed requests in {r}")
    return {"loader": loader.loader_name(), "connections": loader.CONNECTIONS,
            "seconds_per_measurement": seconds, "rows": rows}
