"""The RQ worker class for evaluations: everything loaded once, before forking.

RQ's default worker forks a fresh *work horse* per job, and the horse
imports the job function.  For an evaluation that is the engines and the
validated card sets — about half a second, paid again by every chunk.
``RefereeWorker`` loads them in the parent at start-up, so each horse
inherits them already loaded (copy-on-write memory) and a chunk costs its
own work plus RQ's ~11 ms round trip.  A running job's execution heartbeat
(RQ's own) is sent every second and lasts 5 s instead of RQ's 30 s and 90 s,
so RQ's abandoned-job handling — in every worker's maintenance (every 15 s)
and on a status poll — retries or fails the jobs of a worker that died within
seconds, even when nobody polls.

Run under ``python -m workers.supervise`` (the Procfile's ``worker`` line),
which starts ``rq worker -w workers.worker.RefereeWorker referee`` processes
and starts a worker again when one exits (a Redis outage makes RQ workers
quit).
"""

from __future__ import annotations

import gc
import inspect
import os
from typing import Any

from redis.client import Pipeline
from rq import Worker, worker_registration
from rq.job import Job
from rq.registry import clean_registries
from rq.utils import now

from service.evaluations.rq_runner import (
    HEARTBEAT_EVERY,
    HEARTBEAT_TTL,
    abandoned_incident,
    maintenance_lock,
    record_incident,
    requeue_lost_dequeues,
)


def preload() -> None:
    """Import the job functions and every engine; load and check every card set."""
    import card_db
    import workers.jobs  # noqa: F401  (the job functions and what they import)
    from service.evaluations.kinds import all_kinds
    from service.games.registry import all_games

    all_kinds()
    for game in all_games():
        for set_id in card_db.available(game.id):
            card_db.get(game.id, set_id)
        game.new_game(game.min_players, None, seed=0)  # builds per-set lookups


#: seconds between a worker's maintenance runs (RQ's default is 10 minutes);
#: environment ``REFEREE_WORKER_MAINTENANCE``
MAINTENANCE_SECONDS = int(os.environ.get("REFEREE_WORKER_MAINTENANCE") or 15)


#: the longest a worker waits between two attempts to reach Redis again; RQ
#: doubles its wait up to 60 s and, while no job arrives, never resets it, so
#: each outage made the next reconnection (and registration) slower
RECONNECT_SECONDS = 4.0


#: the longest a stopping worker waits for its pubsub thread (seconds; RQ's own join: 1)
UNSUBSCRIBE_WAIT = 1.0


class RefereeWorker(Worker):
    """``rq.Worker`` with the engines and card data preloaded, a short
    execution heartbeat, the incidents of dead workers and work horses
    recorded on their evaluations, and its registration written again by each
    heartbeat (a Redis restarted empty forgets it)."""

    max_connection_wait_time = RECONNECT_SECONDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        preload()
        # keep the preloaded objects out of the horses' garbage collections,
        # which would otherwise touch (and so copy) every inherited page
        gc.freeze()
        super().__init__(*args, **kwargs)
        self.maintenance_interval = min(self.maintenance_interval, MAINTENANCE_SECONDS)
        self.job_monitoring_interval = HEARTBEAT_EVERY
        # RQ leaves it unannotated; its cleanup calls the handler per abandoned job
        self.push_exc_handler(abandoned_incident)  # type: ignore[no-untyped-call]

    @property
    def dequeue_timeout(self) -> int:
        """Wake up from waiting for jobs often enough to run maintenance."""
        return min(super().dequeue_timeout, MAINTENANCE_SECONDS)

    def heartbeat(self, timeout: int | None = None, pipeline: Pipeline | None = None) -> None:
        """RQ's heartbeat, which also writes the worker's registration again.

        RQ registers a worker once, at birth: a Redis restarted empty (no
        append-only file, or a failover to an empty replica) forgets it, RQ's
        heartbeat then keeps only ``last_heartbeat`` in a bare hash, and the
        worker sets (``rq:workers``, ``rq:workers:referee``) stay empty — so
        ``/readyz`` answered 503 "no RQ worker listens" for as long as the
        workers ran (issue 24).  Here every heartbeat (idle: each dequeue
        round; busy: every ``HEARTBEAT_EVERY`` s) writes the worker's hash
        and its set memberships again: idempotent, three more commands.
        """
        super().heartbeat(timeout, pipeline)
        if self.birth_date is None:  # not born yet (RQ beats once before registering)
            return
        connection = pipeline if pipeline is not None else self.connection.pipeline()
        connection.hset(self.key, mapping={**self.serialize(), "state": self.get_state()})
        worker_registration.register(self, connection)
        if pipeline is None:
            connection.execute()

    def unsubscribe(self) -> None:
        """RQ's ``unsubscribe``, its wait bounded: unsubscribe, stop the pubsub thread,
        wait for it at most ``UNSUBSCRIBE_WAIT`` seconds, close.

        redis-py 8.2's ``PubSubWorkerThread.stop()`` joins the thread with no bound, and
        a thread that had not yet seen the subscription waits in ``get_message`` for RQ's
        whole ``sleep_time`` (60 s): a warm shutdown right after the start hung for up
        to a minute (1 in 3 tries of ``tests/evaluations/test_redis_outage.py``'s
        ``test_readyz_is_not_ready_when_no_worker_listens``).  The thread is a daemon:
        it ends with the process."""
        thread = self.pubsub_thread
        if not thread:
            return
        self.log.info("Worker %s: unsubscribing from channel %s", self.name,
                      self.pubsub_channel_name)
        self.pubsub.unsubscribe()
        if "timeout" in inspect.signature(thread.stop).parameters:  # redis-py >= 8.2
            thread.stop(timeout=UNSUBSCRIBE_WAIT)
        else:
            thread.stop()
        thread.join(timeout=UNSUBSCRIBE_WAIT)
        self.pubsub.close()

    def get_heartbeat_ttl(self, job: Job, working_time: float = 0.0) -> int:
        """How long a running job's execution heartbeat lasts: ``HEARTBEAT_TTL``
        (RQ: the monitoring interval + 60 s), so that a job whose worker died
        is found abandoned seconds later."""
        return HEARTBEAT_TTL

    def clean_registries(self) -> None:
        """RQ's maintenance of each queue's registries, made to survive a Redis
        outage: its lock lapses in seconds and is released when a run fails
        (``maintenance_lock``), and a job whose dequeue the outage cut off is
        put back on the queue (``requeue_lost_dequeues``) instead of RQ's
        failing it a minute later."""
        for queue in self.queues:
            if maintenance_lock(queue):
                try:
                    clean_registries(queue, self._exc_handlers)
                    worker_registration.clean_worker_registry(queue)
                    requeue_lost_dequeues(queue)
                finally:
                    queue.release_maintenance_lock()
        self.last_cleaned_at = now()  # type: ignore[assignment]  # RQ declares it None

    def handle_work_horse_killed(self, job: Job, retpid: int, ret_val: int,
                                 rusage: Any) -> None:
        super().handle_work_horse_killed(  # type: ignore[no-untyped-call]  # RQ unannotated
            job, retpid, ret_val, rusage)
        how = (f"killed by signal {os.WTERMSIG(ret_val)}" if ret_val and os.WIFSIGNALED(ret_val)
               else f"exited with status {ret_val}")
        try:
            record_incident(self.connection, job, "horse-died",
                            f"the work horse running this job was {how}; "
                            + ("the job was retried" if job.retries_left else "the job failed"),
                            worker=self.name)
        except Exception:
            self.log.exception("recording the incident failed")
