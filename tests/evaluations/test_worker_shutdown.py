"""A warm shutdown never waits on the pubsub thread for long (``RefereeWorker.unsubscribe``).

redis-py 8.2's ``PubSubWorkerThread.stop()`` joins the thread with no bound, and a thread
that has not seen its subscription yet waits in ``get_message`` for RQ's 60 s
``sleep_time``: a worker told to stop right after it started hung for up to a minute
(``test_redis_outage.py::test_readyz_is_not_ready_when_no_worker_listens`` failed 1 in 3).
"""

from __future__ import annotations

import threading
import time

import redis

from workers.worker import RefereeWorker


class StuckThread(threading.Thread):
    """A pubsub thread as redis-py 8.2 has it when the worker stops at once: ``stop()``
    waits for it to end, and it ends 10 s later (a minute in the real case)."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.done = threading.Event()

    def run(self) -> None:
        self.done.wait(10)

    def stop(self, timeout: float | None = None) -> None:
        self.join(timeout)


def test_a_worker_stopping_at_once_waits_a_second_at_most(redis_url):
    worker = RefereeWorker(["referee"], connection=redis.Redis.from_url(redis_url))
    worker.pubsub = worker.connection.pubsub()
    worker.pubsub.subscribe(**{worker.pubsub_channel_name: worker.handle_payload})
    stuck = StuckThread()
    stuck.start()
    worker.pubsub_thread = stuck  # type: ignore[assignment]  # rq declares it None only
    began = time.monotonic()
    try:
        worker.unsubscribe()
        assert time.monotonic() - began < 3  # RefereeWorker waits 1 s (UNSUBSCRIBE_WAIT)
    finally:
        stuck.done.set()
