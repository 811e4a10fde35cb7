"""RQ job functions of evaluations (run by ``rq worker referee``).

* ``chunk_job`` — one seeded chunk of an evaluation; progress in
  ``job.meta["progress"]``; stops early when the evaluation is cancelled.
* ``aggregate_job`` — runs after every chunk (``depends_on`` with
  ``allow_failure``): the result, or a failure naming the chunk that failed.
* ``single_job`` — a one-chunk evaluation: the chunk and the aggregate.

Every job keeps a heartbeat key alive from a thread while it runs (see
``service.evaluations.rq_runner``), so a job whose worker died is noticed in
seconds, not after RQ's worker TTL.
"""

from __future__ import annotations

import threading

from rq import get_current_job
from rq.job import Job, JobStatus

from service.evaluations.kinds import Cancelled, get_kind
from service.evaluations.rq_runner import BEAT_EVERY, BEAT_TTL, beat_key, cancel_key
from service.evaluations.runner import failure_problem


class EvaluationFailed(Exception):
    """The evaluation cannot produce a result; ``problem`` says why."""

    def __init__(self, problem: dict):
        super().__init__(problem["detail"])
        self.problem = problem


class _Heartbeat:
    """Refresh ``referee:beat:<job id>`` every ``BEAT_EVERY`` s while running."""

    def __init__(self, job: Job):
        self.job, self.stop = job, threading.Event()
        self.thread = threading.Thread(target=self._run, name="evaluation-beat", daemon=True)

    def _run(self) -> None:
        key = beat_key(self.job.id)
        while True:
            try:
                self.job.connection.set(key, b"1", ex=BEAT_TTL)
            except Exception:  # a lost beat only makes the job look dead; keep trying
                pass
            if self.stop.wait(BEAT_EVERY):
                return

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=2)
        self.job.connection.delete(beat_key(self.job.id))


def _progress(job: Job, eval_id: str):
    def report(done: int, total: int) -> None:
        job.meta["progress"] = done / total if total else 1.0
        job.save_meta()
        if job.connection.exists(cancel_key(eval_id)):
            raise Cancelled()
    return report


def chunk_job(eval_id: str, kind_name: str, plan: dict, chunk: dict):
    job = get_current_job()
    kind = get_kind(kind_name)
    with _Heartbeat(job):
        if job.connection.exists(cancel_key(eval_id)):
            return {"canceled": True}
        try:
            return {"partial": kind.run_chunk(plan, chunk, _progress(job, eval_id))}
        except Cancelled:
            return {"canceled": True}


def aggregate_job(eval_id: str, kind_name: str, plan: dict, chunk_ids: list[str]):
    job = get_current_job()
    kind = get_kind(kind_name)
    with _Heartbeat(job):
        partials = []
        for k, chunk in enumerate(Job.fetch_many(chunk_ids, connection=job.connection)):
            if chunk is None:
                _fail(job, {"type": "https://referee.dev/problems/evaluation-failed",
                            "title": "Evaluation failed", "status": 500,
                            "detail": f"chunk {k} has disappeared before aggregation"})
            status = chunk.get_status(refresh=False)
            if status != JobStatus.FINISHED:
                result = chunk.latest_result()
                text = (result.exc_string if result is not None else "") or status.value
                why = ("its worker died (AbandonedJobError)" if "AbandonedJobError" in text
                       else text.strip().splitlines()[-1])
                _fail(job, {"type": "https://referee.dev/problems/evaluation-failed",
                            "title": "Evaluation failed", "status": 500,
                            "detail": f"chunk {k} failed: {why}"})
            value = chunk.return_value()
            if value.get("canceled"):
                return None
            partials.append(value["partial"])
        try:
            return kind.aggregate(plan, partials)
        except Exception as exc:
            _fail(job, failure_problem(exc, "aggregation"))


def single_job(eval_id: str, kind_name: str, plan: dict):
    job = get_current_job()
    kind = get_kind(kind_name)
    with _Heartbeat(job):
        try:
            chunk = kind.chunks(plan)[0]
            partial = kind.run_chunk(plan, chunk, _progress(job, eval_id))
            return kind.aggregate(plan, [partial])
        except Cancelled:
            return None
        except Exception as exc:
            _fail(job, failure_problem(exc))


def _fail(job: Job, problem: dict):
    job.meta["problem"] = problem
    job.save_meta()
    raise EvaluationFailed(problem)
