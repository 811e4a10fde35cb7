"""Issue 11 item 6: the queue is capped on RQ as on the embedded runner
(``REFEREE_MAX_QUEUED`` chunks waiting); over it a submission is refused
with 503 ``evaluations-busy`` and ``Retry-After``, and nothing is queued."""

from __future__ import annotations

import redis
from rq import Queue

from service.evaluations.rq_runner import QUEUE

from .test_fanout import ODDS, playouts_request


def test_rq_queue_is_capped(make_app, fresh_redis):
    """No worker runs, so whatever is accepted waits: 64 chunks wait, a second
    64-chunk evaluation would make 128 > 100 and is refused; a one-chunk one
    still fits."""
    client = make_app(fresh_redis, REFEREE_MAX_QUEUED=100).test_client()
    queue = Queue(QUEUE, connection=redis.Redis.from_url(fresh_redis))
    first = client.post("/v1/evaluations", json=playouts_request(640, 10, seed=1))
    assert first.status_code == 202 and first.json["chunks"] == 64
    assert queue.count == 64
    refused = client.post("/v1/evaluations", json=playouts_request(640, 10, seed=2))
    assert refused.status_code == 503, refused.json
    assert refused.headers["Retry-After"] == "10"
    assert refused.mimetype == "application/problem+json"
    assert refused.json["type"].endswith("/evaluations-busy")
    assert "64 chunks are already waiting" in refused.json["detail"]
    assert "REFEREE_MAX_QUEUED" in refused.json["detail"]
    assert queue.count == 64  # nothing of the refused evaluation was queued
    small = client.post("/v1/evaluations", json=ODDS)
    assert small.status_code == 202
    assert queue.count == 65


def test_an_evaluation_larger_than_the_cap_runs_when_nothing_waits(make_app, fresh_redis):
    """The cap bounds what waits, not one evaluation's size (the kinds cap that)."""
    client = make_app(fresh_redis, REFEREE_MAX_QUEUED=10).test_client()
    assert client.post("/v1/evaluations",
                       json=playouts_request(640, 10)).status_code == 202
    assert client.post("/v1/evaluations", json=ODDS).status_code == 503
