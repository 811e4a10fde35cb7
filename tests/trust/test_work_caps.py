"""The work cap is a bound (issue 34, item 5).

The attack: submit playouts that each play far longer than the estimate
assumes — a state whose ``turn_limit`` option is raised, ``params.max_steps``
at its cap, greedy bots — so the job runs for hours on the shared workers
while the service believes it is seconds.

Before: the estimate was playouts × a fixed cost per playout and bot,
measured on 60-turn games: raising ``turn_limit`` and ``max_steps`` left
``Retry-After`` unchanged while real time grew 9–25×, and a job at the greedy
cap needed ~3 h of CPU against the documented 1800 s.  Nothing bounded a
chunk's CPU: only a wall clock of 300 s a chunk (embedded) or 20× the
estimate (RQ).

Now: the estimate bounds the work — playouts × the steps a playout can reach
(``max_steps``, or what the turn limit allows) × the worst measured step cost
of that game and bot (``bench/step_costs.py``); a plan past 1800 s is
refused (400) naming the fields that set it and the cap.  Each chunk runs
under a CPU deadline (its estimate ×2, at most 120 s;
``REFEREE_CHUNK_CPU_SECONDS`` lowers it, as here): a chunk past it stops at
its next progress report and the evaluation fails with
``evaluation-timeout`` naming the chunk, its budget and the CPU it used, on
the embedded runner and on RQ workers (which list a ``cpu-deadline``
incident too).
"""

from __future__ import annotations

import http.client
import time
from typing import Any
from urllib.parse import urlsplit

import orjson
import pytest

from tests.evaluations.conftest import Workers, poll
from tests.trust.conftest import call


def get(url: str, path: str, method: str = "GET") -> tuple[int, dict[Any, Any]]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        conn.request(method, path)
        response = conn.getresponse()
        raw = response.read()
        return response.status, orjson.loads(raw) if raw else {}
    finally:
        conn.close()


def raiders_state(turn_limit: int, players: int = 2) -> dict[Any, Any]:
    from service.games.registry import get_game

    return get_game("raiders").new_game(players, {"turn_limit": turn_limit}, seed=3)[0]


def playouts(state: dict[Any, Any], **params) -> dict[Any, Any]:
    return {"game": "raiders", "kind": "playouts", "state": state,
            "params": {"seed": 1, **params}}


@pytest.fixture(scope="module")
def embedded(serve):
    return serve("caps", CHUNK_CPU_SECONDS="0.3")


def test_raising_the_horizon_raises_the_estimate_and_the_cap_refuses(embedded):
    short = call(embedded, "/v1/evaluations", playouts(raiders_state(10), playouts=60,
                                                      bots="random"))
    long = call(embedded, "/v1/evaluations", playouts(raiders_state(1000), playouts=60,
                                                     bots="random", max_steps=20_000))
    for answer in (short, long):
        assert answer.status == 202, answer.json
        get(embedded, answer.headers["location"], "DELETE")  # the estimate is all we need
    assert int(long.headers["retry-after"]) >= 5 * int(short.headers["retry-after"])
    assert long.json["chunks"] > short.json["chunks"]

    # a job the old estimate accepted (200 × 0.12 s): 200 playouts of up to 20,000 greedy steps
    refused = call(embedded, "/v1/evaluations", playouts(raiders_state(5000), playouts=200,
                                                        max_steps=20_000))
    assert refused.status == 400, refused.json
    assert {"params.playouts", "params.max_steps"} <= set(refused.json["errors"])
    assert "1800 s" in refused.json["errors"]["params.playouts"][0]
    # the state's own turn limit sets the horizon: it is named
    refused = call(embedded, "/v1/evaluations", playouts(raiders_state(300), playouts=1000,
                                                        max_steps=20_000))
    assert refused.status == 400, refused.json
    assert "state.options.turn_limit" in refused.json["errors"]
    # in Russian too
    refused = call(embedded, "/v1/evaluations", playouts(raiders_state(5000), playouts=200,
                                                        max_steps=20_000),
                   [("Accept-Language", "ru")])
    assert "1800 с" in refused.json["errors"]["params.playouts"][0]


def test_a_chunk_past_its_cpu_deadline_fails_the_evaluation_embedded(embedded):
    # one chunk of ~1 s of CPU, against the 0.3 s the server's setting allows
    answer = call(embedded, "/v1/evaluations", playouts(raiders_state(100), playouts=40,
                                                       bots="random", chunk_size=40))
    assert answer.status == 202, answer.json
    deadline = time.monotonic() + 30
    while True:
        status, body = get(embedded, answer.headers["location"])
        if body["status"] in ("finished", "failed") or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert body["status"] == "failed", body
    error = body["error"]
    assert error["type"] == "/problems/evaluation-timeout", error
    assert "chunk 0 used" in error["detail"] and "budget of 0.30 s" in error["detail"], error


def test_a_chunk_past_its_cpu_deadline_fails_the_evaluation_on_rq(redis_url, tmp_path):
    import redis

    from service.app import create_app

    fresh_redis = redis_url
    redis.Redis.from_url(fresh_redis).flushdb()
    pool = Workers(fresh_redis, tmp_path)
    try:
        pool.start("caps-1", REFEREE_CHUNK_CPU_SECONDS="0.3")
        pool.wait_registered(1)
        client = create_app({"TESTING": True, "REDIS_URL": fresh_redis}).test_client()
        # two chunks of ~1 s of CPU each, then one single-chunk evaluation
        for body, chunks in ((playouts(raiders_state(100), playouts=80, bots="random",
                                       chunk_size=40), 2),
                             (playouts(raiders_state(100), playouts=40, bots="random",
                                       chunk_size=40), 1)):
            r = client.post("/v1/evaluations", json=body)
            assert r.status_code == 202, r.json
            assert r.json["chunks"] == chunks
            done = poll(client, r.headers["Location"], timeout=30)
            assert done["status"] == "failed", done
            assert done["error"]["type"] == "/problems/evaluation-timeout", done
            assert "budget of 0.30 s" in done["error"]["detail"], done
            events = [i["event"] for i in done["incidents"]]
            assert "cpu-deadline" in events, done
            incident = done["incidents"][events.index("cpu-deadline")]
            assert "used" in incident["detail"] and incident["chunk"] in (0, 1, None), incident
    finally:
        pool.stop_all()
        redis.Redis.from_url(fresh_redis).flushdb()
