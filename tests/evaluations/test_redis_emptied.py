"""Workers register again when Redis comes back empty (issue 24 item 2).

Real processes: a private redis-server without persistence, the Procfile's
``worker`` line (``workers.supervise``, 2 workers) and the Procfile's gunicorn.
Redis is killed and started again empty within 0.3 s.  The workers reconnect
by themselves (RQ retries) and go on taking jobs, but RQ registers a worker
only at its birth: before, ``rq:workers:referee`` stayed empty and ``/readyz``
answered 503 "no RQ worker listens" for as long as the workers ran.  Now each
heartbeat writes the registration again (``RefereeWorker.heartbeat``).
"""

from __future__ import annotations

import json
import time

import orjson
import pytest
import redis

from bench.redis_faults import request, start_workers, stop_workers, wait_ready, web

from .test_fanout import playouts_request

#: /readyz must be 200 again this soon after Redis is back (measured: see
#: docs/operations.md); before, it never was
READY_AGAIN_SECONDS = 30


@pytest.fixture
def empty_redis(private_redis):
    return private_redis


def test_workers_register_again_when_redis_comes_back_empty(empty_redis, tmp_path):
    workers = start_workers(empty_redis.url, tmp_path / "workers.log",
                            REFEREE_WORKER_MAINTENANCE="2")
    try:
        with web(empty_redis.url, tmp_path / "gunicorn.log") as url:
            wait_ready(url, 60, at_least=2)
            empty_redis.kill()
            time.sleep(0.2)
            empty_redis.start()  # no RDB, no append-only file: empty
            assert redis.Redis.from_url(empty_redis.url).dbsize() == 0
            try:
                wait_ready(url, READY_AGAIN_SECONDS)
            except TimeoutError as exc:
                raise AssertionError(
                    f"{exc}\n" + (tmp_path / "workers.log").read_text(errors="replace")[-3000:]
                ) from None
            wait_ready(url, READY_AGAIN_SECONDS, at_least=2)  # both of them
            assert workers.poll() is None  # nobody restarted anything
            # and they work: an evaluation submitted now finishes
            status, _, headers, body = request(url, "POST", "/v1/evaluations",
                                               orjson.dumps(playouts_request(60, 20, seed=3)))
            assert status == 202, body[:300]
            deadline = time.monotonic() + 30
            while True:
                status, _, _, body = request(url, "GET", headers["location"])
                found = json.loads(body)
                if found["status"] in ("finished", "failed"):
                    break
                assert time.monotonic() < deadline, found
                time.sleep(0.1)
            assert found["status"] == "finished", found
    finally:
        stop_workers(workers)
