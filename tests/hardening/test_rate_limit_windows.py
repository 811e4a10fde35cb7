"""The moving windows of ``service.rate_limits`` in a real Redis: exact across workers and
threads, one round trip a request, and the limiter's own connection (``Resp``) recovering
what redis-py would (an emptied script cache, a connection Redis dropped).

Before: flask-limiter counted each limit with one Redis call and read its window with
another for the headers; these are the properties the one script must keep.
"""

from __future__ import annotations

import threading

import redis

from service import rate_limits


class Up:
    """A breaker that stays up (a failure is the test's to see)."""

    down = False

    def trip(self, exc: BaseException | None = None) -> None:
        raise AssertionError(f"the limiter tripped its breaker: {exc!r}")


def windows(url: str) -> rate_limits.RedisWindows:
    return rate_limits.RedisWindows(url, 5.0, Up())


def test_two_workers_and_their_threads_never_let_more_through_than_the_limit(redis_url):
    redis.Redis.from_url(redis_url).flushdb()
    limits = rate_limits.parse_limits("general", "50/minute")
    workers = [windows(redis_url), windows(redis_url)]  # two processes' counters
    allowed: list[bool] = []
    lock = threading.Lock()

    def client(worker: rate_limits.RedisWindows) -> None:
        for _ in range(20):
            said = worker.count("addr:10.0.0.1", "games.apply", limits)[0].allowed
            with lock:
                allowed.append(said)

    threads = [threading.Thread(target=client, args=(workers[k % 2],)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(allowed) == 160 and allowed.count(True) == 50
    assert workers[0].count("addr:10.0.0.2", "games.apply", limits)[0].remaining == 49


def test_the_first_limit_that_refuses_stops_the_count(redis_url):
    redis.Redis.from_url(redis_url).flushdb()
    limits = rate_limits.parse_limits("general", "2/minute") + rate_limits.parse_limits("evaluations", "5/hour")
    counter = windows(redis_url)
    said = [counter.count("addr:a", "evaluations.submit", limits) for _ in range(3)]
    assert [[c.allowed for c in s] for s in said] == [[True, True], [True, True], [False]]
    assert said[1][1].remaining == 3 and said[2][0].remaining == 0
    assert 0 < said[2][0].wait <= 60


def test_an_emptied_script_cache_and_a_dropped_connection_are_recovered(redis_url):
    assert rate_limits.Resp.from_url(redis_url, 1.0) is not None  # the fast path is tested
    assert rate_limits.Resp.from_url("rediss://127.0.0.1:1/0", 1.0) is None  # TLS: redis-py
    admin = redis.Redis.from_url(redis_url)
    admin.flushdb()
    limits = rate_limits.parse_limits("general", "10/minute")
    counter = windows(redis_url)
    assert counter.count("addr:b", "r", limits)[0].remaining == 9
    admin.script_flush()
    assert counter.count("addr:b", "r", limits)[0].remaining == 8
    admin.client_kill_filter(_type="normal", skipme=True)
    try:
        counter.count("addr:b", "r", limits)
    except OSError:
        pass  # this one request may fail (the breaker then counts in memory); the next reconnects
    assert counter.count("addr:b", "r", limits)[0].remaining in (6, 7)
