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

Beside it, the service **as operators run it** (``bench.operators``: signing keys, the
rate limit counted in a private ``redis-server``, the same 2 workers, a bot's signed
states each sent ``REPEATS`` times so about half the requests reach a worker that has
not validated the state): per game, the floor, ``legal-actions`` and ``apply`` on pools
of distinct states (``bench.loader.load_pool``), in the same kind of slices.  Its pool
states cannot be sent before they are measured (a worker would know them): a sample of
each pool is checked in process instead (``check_pool``).
"""

from __future__ import annotations

import statistics
import tempfile
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson

from bench import loader, operators
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


def check_pool(game: str, endpoint: str, bodies: list[dict[str, Any]], env: dict[str, str]) -> None:
    """Every 50th body of a pool answers 200 from the service in process, configured as
    the ``operators`` server (the pool itself is sent to that server only when measured)."""
    from service.app import create_app

    config = {"TESTING": True, "ACCESS_LOG": False, "STATE_KEYS": env["REFEREE_STATE_KEYS"]}
    client = create_app(config).test_client()
    for body in bodies[::50]:
        r = client.post(f"/v1/games/{game}/{endpoint}", json=body)
        if r.status_code != 200:
            raise RuntimeError(f"pool {game} {endpoint}: {r.status_code} {r.get_data()[:300]!r}")


def measure(cases: list[Case], seconds: float, log: Callable[[str], None] = print,
            operators_too: bool = True) -> dict[Any, Any]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp, operators.redis_server() as redis_url, \
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
        if operators_too:
            env = operators.operator_env(redis_url)
            with gunicorn(SERVICE_APP, Path(tmp, "operators.log"), env=env) as ops_url:
                rows += measure_operators(sorted({c.game for c in cases}), seconds, floor_url,
                                          ops_url, env, Path(tmp), log)
        for r in rows:
            if r["errors"]:
                raise RuntimeError(f"{r['errors']} failed requests in {r}")
    return {"loader": loader.loader_name(), "connections": loader.CONNECTIONS,
            "seconds_per_measurement": seconds, "rows": rows,
            "operators": {"rate_limit": operators.RATE_LIMIT, "repeats": operators.REPEATS,
                          "pool": operators.POOL,
                          "new_share": round(operators.new_share(operators.REPEATS), 3)}}


def measure_operators(games: list[str], seconds: float, floor_url: str, ops_url: str,
                      env: dict[str, str], tmp: Path, log: Callable[[str], None] = print) -> list[dict[str, Any]]:
    """The ``operators`` rows: per game, the floor, ``legal-actions`` and ``apply`` on pools
    of a bot's signed states, in slices taken in turn, each slice going on in its pool where
    the last one stopped."""
    keys = [env["REFEREE_STATE_KEYS"].encode()]
    rows = []
    for game in games:
        files = {}
        for endpoint in ENDPOINTS:
            bodies = operators.pool(game, endpoint, keys=keys)
            check_pool(game, endpoint, bodies, env)
            files[endpoint] = tmp / f"{game}-{endpoint}.jsonl"
            files[endpoint].write_bytes(b"\n".join(orjson.dumps(b) for b in bodies) + b"\n")
        targets = [("floor", f"{floor_url}/v1/games/{game}/apply", files["apply"])]
        targets += [(e, f"{ops_url}/v1/games/{game}/{e}", files[e]) for e in ENDPOINTS]
        slices: dict[str, list[dict[str, Any]]] = {name: [] for name, _, _ in targets}
        offsets = dict.fromkeys(slices, 0)
        for _ in range(max(1, round(seconds / SLICE_SECONDS))):
            for name, url, path in targets:
                part = loader.load_pool(url, path, SLICE_SECONDS, offsets[name], operators.REPEATS)
                offsets[name] += -(-part["sent"] // operators.REPEATS)
                slices[name].append(part)
        merged = {name: merge(parts) for name, parts in slices.items()}
        floor = merged["floor"]
        body = files["apply"].read_bytes().split(b"\n", 1)[0]
        rows.append({**_row(game, "bot", "floor", body, floor), "config": "operators"})
        for endpoint in ENDPOINTS:
            row = {**_row(game, "bot", endpoint, body, merged[endpoint]), "config": "operators",
                   "states": offsets[endpoint],
                   "wrapped": max(0, offsets[endpoint] - operators.POOL)}
            row["ratio_to_floor"] = round(merged[endpoint]["rps"] / floor["rps"], 3)
            rows.append(row)
        shown = ", ".join(f"{r['endpoint']} {r['rps']:.0f}/s" for r in rows[-3:])
        log(f"  http {game:8} operators: {shown}")
    return rows
