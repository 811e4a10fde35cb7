"""The RQ worker class for evaluations: everything loaded once, before forking.

RQ's default worker forks a fresh *work horse* per job, and the horse
imports the job function.  For an evaluation that is the engines and the
validated card sets — about half a second, paid again by every chunk.
``RefereeWorker`` loads them in the parent at start-up, so each horse
inherits them already loaded (copy-on-write memory) and a chunk costs its
own work plus RQ's ~11 ms round trip.  Its maintenance (every 15 s) also
retries or fails the jobs of workers that died, even when nobody polls.

Run under ``python -m workers.supervise`` (the Procfile's ``worker`` line),
which starts ``rq worker -w workers.worker.RefereeWorker referee`` processes
and starts a worker again when one exits (a Redis outage makes RQ workers
quit).
"""

from __future__ import annotations

import gc
import os

import rq
from rq import Worker

RQ_MAJOR = int(rq.__version__.split(".")[0])


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


class RefereeWorker(Worker):
    """``rq.Worker`` with the engines and card data preloaded, whose
    maintenance also finds jobs of workers that died (``reap_queue``)."""

    def __init__(self, *args, **kwargs):
        preload()
        # keep the preloaded objects out of the horses' garbage collections,
        # which would otherwise touch (and so copy) every inherited page
        gc.freeze()
        super().__init__(*args, **kwargs)
        self.maintenance_interval = min(self.maintenance_interval, MAINTENANCE_SECONDS)

    @property
    def dequeue_timeout(self) -> int:
        """Wake up from waiting for jobs often enough to run maintenance."""
        return min(super().dequeue_timeout, MAINTENANCE_SECONDS)

    def run_maintenance_tasks(self):
        from service.evaluations.rq_runner import drop_leftovers, reap_queue
        try:  # before RQ's registry cleanup, which would fail such leftovers
            drop_leftovers(self.connection)
        except Exception:  # maintenance must never take the worker down
            self.log.exception("dropping started-registry leftovers failed")
        super().run_maintenance_tasks()
        try:
            reap_queue(self.connection)
        except Exception:
            self.log.exception("evaluation reaper failed")

    # rq/rq#2424 (RQ 2.x, fixed upstream by rq/rq#2466 in RQ 3.0): when the
    # success transaction of ``handle_job_success`` hits a WatchError it is
    # retried, but the first attempt's ``cleanup_execution`` has already
    # dropped ``self.execution``, so the retry no longer removes the job from
    # the started registry.  Keep the execution until the transaction commits.
    if RQ_MAJOR < 3:
        _in_success = False

        def handle_job_success(self, *args, **kwargs):
            self._in_success = True
            try:
                super().handle_job_success(*args, **kwargs)
            finally:
                self._in_success = False
            self.execution = None

        def cleanup_execution(self, *args, **kwargs):
            execution = self.execution
            super().cleanup_execution(*args, **kwargs)
            if self._in_success:
                self.execution = execution  # a WatchError retry needs it again

    def handle_work_horse_killed(self, job, retpid, ret_val, rusage):
        super().handle_work_horse_killed(job, retpid, ret_val, rusage)
        from service.evaluations.rq_runner import record_incident
        how = (f"killed by signal {os.WTERMSIG(ret_val)}" if ret_val and os.WIFSIGNALED(ret_val)
               else f"exited with status {ret_val}")
        try:
            record_incident(self.connection, job, "horse-died",
                            f"the work horse running this job was {how}; "
                            + ("the job was retried" if job.retries_left else "the job failed"),
                            worker=self.name)
        except Exception:
            self.log.exception("recording the incident failed")
