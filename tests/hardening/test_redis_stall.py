"""A frozen Redis must not hold requests (issue 24 item 1), against real
processes: a private redis-server stopped with ``SIGSTOP`` (its connections
stay open and nothing answers) and the Procfile's gunicorn with the rate limit
counting in it.

Before: every ``POST /v1/games/raiders/new`` — which needs no Redis — took
5 s while Redis was frozen (10 s when concurrent), because the rate limiter
waited on it; evaluation routes had no timeout at all.  Now a Redis call of
the web process lasts at most ``REFEREE_REDIS_TIMEOUT`` (0.5 s), and once one
has not answered, the process stops asking Redis until its probe thread
sees it answer (``service.middleware.RedisBreaker``).  The bounds below
(1 s, and 0.3 s once Redis is known frozen) prove the requests do not wait
on Redis; they are not performance claims.
"""

from __future__ import annotations

import time
from typing import Any

import orjson
import pytest
import redis

from bench.redis_faults import RAIDERS_NEW, concurrently, request, web
from service import rate_limits

#: no request may wait on a frozen Redis this long (it waited 5 s before)
BOUND = 1.0
#: once a process knows Redis is frozen, its requests do not touch Redis at all
KNOWN_FROZEN_BOUND = 0.3


@pytest.fixture
def frozen_redis(private_redis):
    return private_redis


def _counted(redis_url: str) -> int:
    """Requests the rate limiter holds in Redis (moving windows: one sorted set per bucket,
    ``service.rate_limits``)."""
    conn = redis.Redis.from_url(redis_url, socket_timeout=5)
    return sum(conn.zcard(k) for k in conn.scan_iter(rate_limits.KEY_PREFIX + "*"))


def _timed(url: str, label: str) -> list[tuple[int, float, dict[Any, Any], bytes]]:
    rows = []
    for _ in range(8):
        row = request(url, "POST", *RAIDERS_NEW, timeout=15)
        assert row[1] < BOUND, f"{label}: a request waited {row[1]:.2f} s on the frozen Redis"
        rows.append(row)
    return rows


def test_a_frozen_redis_holds_no_request_and_the_limit_fails_open(frozen_redis, tmp_path):
    with web(frozen_redis.url, tmp_path / "gunicorn.log", REFEREE_RATE_LIMIT="10000/minute",
             REFEREE_EVALUATION_RATE_LIMIT="1000/minute") as url:
        for _ in range(4):
            assert request(url, "POST", *RAIDERS_NEW)[0] == 200
        before = _counted(frozen_redis.url)
        assert before >= 4  # the limit counts in Redis
        frozen_redis.freeze()
        try:
            rows = _timed(url, "one at a time")
            assert {r[0] for r in rows} == {200}, rows  # open: counted in memory meanwhile
            # the first request of each gunicorn worker may wait one timeout; no other
            assert sorted(r[1] for r in rows)[-3] < KNOWN_FROZEN_BOUND, [r[1] for r in rows]
            many = concurrently(url, 16, "POST", *RAIDERS_NEW)
            assert {r[0] for r in many} == {200}
            assert max(r[1] for r in many) < BOUND, [round(r[1], 2) for r in many]
            status, seconds, _, _ = request(url, "GET", "/healthz")
            assert status == 200 and seconds < BOUND
            # routes that need Redis answer in about one timeout, 503 problem+json
            status, seconds, headers, body = request(
                url, "POST", "/v1/evaluations",
                orjson.dumps({"game": "tremble", "kind": "tremble.battle_odds",
                              "strengths": [9, 12, 14]}))
            assert status == 503 and seconds < 2 * BOUND, (status, seconds, body[:300])
            assert headers["content-type"] == "application/problem+json"
            assert orjson.loads(body)["type"].endswith("/evaluation-backend-unavailable")
            status, seconds, _, body = request(url, "GET", "/readyz")
            assert status == 503 and seconds < 3 * BOUND, (status, seconds, body[:300])
        finally:
            frozen_redis.thaw()
        # Redis answers again: the counting goes back to Redis once the breaker's probe
        # sees it answer (every RedisBreaker.PROBE_SECONDS)
        deadline = time.monotonic() + 45
        while _counted(frozen_redis.url) <= before:
            assert time.monotonic() < deadline, "the rate limit never counted in Redis again"
            assert request(url, "POST", *RAIDERS_NEW)[0] == 200
            time.sleep(0.25)


def test_a_frozen_redis_with_the_limit_failing_closed_refuses_fast(frozen_redis, tmp_path):
    """``REFEREE_RATE_LIMIT_FAILURE=closed``: while Redis does not answer, limited
    requests are refused at once (429, ``Retry-After``); other routes answer."""
    with web(frozen_redis.url, tmp_path / "gunicorn.log", REFEREE_RATE_LIMIT="10000/minute",
             REFEREE_RATE_LIMIT_FAILURE="closed") as url:
        assert request(url, "POST", *RAIDERS_NEW)[0] == 200
        frozen_redis.freeze()
        try:
            rows = _timed(url, "closed")
            refused = [r for r in rows if r[0] == 429]
            # at most the request of each worker that found Redis frozen was let through
            assert len(refused) >= len(rows) - 2, [r[0] for r in rows]
            status, _, headers, body = refused[-1]
            assert headers["content-type"] == "application/problem+json"
            assert int(headers["retry-after"]) >= 1
            assert "REFEREE_RATE_LIMIT_FAILURE" in orjson.loads(body)["detail"]
            status, seconds, _, _ = request(url, "GET", "/healthz")
            assert status == 200 and seconds < BOUND
        finally:
            frozen_redis.thaw()
        deadline = time.monotonic() + 20  # the probe pings every second
        while request(url, "POST", *RAIDERS_NEW)[0] != 200:
            assert time.monotonic() < deadline, "still refused after Redis came back"
            time.sleep(0.25)
