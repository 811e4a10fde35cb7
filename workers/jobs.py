"""RQ job functions of evaluations (run by ``rq worker referee``).

* ``chunk_job`` — one seeded chunk of an evaluation; its progress goes to
  the evaluation's progress hash (never the job hash, see
  ``service.evaluations.rq_runner``); stops early when the evaluation is
  cancelled, and at once when the evaluation already has an outcome.
* ``aggregate_job`` — runs after every chunk (``depends_on`` with
  ``allow_failure``): the result, or a failure naming the chunk that failed;
  either is recorded as the evaluation's outcome, once.  Run again (RQ may
  re-run dependents), it answers the recorded outcome and changes nothing.
* ``single_job`` — a one-chunk evaluation: the chunk and the aggregate.

A job whose worker died is RQ's to notice and retry (its execution
heartbeat, see ``service.evaluations.rq_runner``): nothing here for it.

Every chunk runs under its CPU deadline in the work horse's CPU time
(``service.evaluations.budget``): a chunk past it stops at its next progress
report, records a ``cpu-deadline`` incident and fails the evaluation with
``evaluation-timeout`` (not retried: it would spend as much again); the
evaluation's other running chunks stop at their next report (it has an
outcome).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from rq import get_current_job
from rq.job import Job, JobStatus
from rq.results import Result

from service.evaluations.budget import CpuDeadline
from service.evaluations.kinds import Cancelled, ChunkTimeout, Progress, get_kind
from service.evaluations.rq_runner import (
    cancel_key,
    failure_reason,
    load_outcome,
    outcome_key,
    progress_key,
    record_incident,
    store_outcome,
)
from service.evaluations.runner import RESULT_TTL, TOMBSTONE_TTL
from service.problems import evaluation_problem, failure_problem

log = logging.getLogger("referee")


def _current_job() -> Job:
    job = get_current_job()
    assert job is not None, "run by an RQ worker"
    return job


class EvaluationFailed(Exception):
    """The evaluation cannot produce a result; ``problem`` says why."""

    def __init__(self, problem: dict[str, Any]):
        super().__init__(problem["detail"])
        self.problem = problem


def _progress(job: Job, eval_id: str, k: int, deadline: CpuDeadline) -> Progress:
    """Chunk ``k``'s progress reporter: its share in the progress hash, then
    the cancel flag and the outcome (one round trip: a chunk of an evaluation
    that already ended, e.g. failed by another chunk, stops too), then its
    CPU deadline."""
    def report(done: int, total: int) -> None:
        with job.connection.pipeline(transaction=False) as pipe:
            pipe.hset(progress_key(eval_id), str(k), done / total if total else 1.0)
            pipe.expire(progress_key(eval_id), TOMBSTONE_TTL)
            pipe.exists(cancel_key(eval_id), outcome_key(eval_id))
            stop = pipe.execute()[-1]
        if stop:
            raise Cancelled()
        deadline.raise_if_past()
    return report


def _deadline(kind_name: str, plan: dict[str, Any], chunk: dict[str, Any],
              k: int) -> CpuDeadline:
    """Chunk ``k``'s CPU deadline, in this work horse's CPU time (one job per horse)."""
    return CpuDeadline(k, get_kind(kind_name).chunk_seconds(plan, chunk), time.process_time)


def _over_budget(job: Job, eval_id: str, exc: ChunkTimeout) -> dict[str, Any]:
    """A chunk past its CPU deadline: the incident, the log line, and the
    evaluation's outcome (failed, ``evaluation-timeout``)."""
    log.warning("evaluation %s: job %s failed: %s", eval_id, job.id, exc)
    record_incident(job.connection, job, "cpu-deadline", str(exc))
    problem = failure_problem(exc)
    job.meta["problem"] = problem
    job.save_meta()
    store_outcome(job.connection, eval_id, {"status": "failed", "error": problem,
                                            "ended_at": time.time()}, _result_ttl(job))
    return {"timeout": str(exc)}


def _result_ttl(job: Job) -> int:
    return job.result_ttl if job.result_ttl is not None and job.result_ttl > 0 else RESULT_TTL


def _answer(outcome: dict[str, Any]) -> Any:
    """What the job answers for the evaluation's recorded outcome: its
    result, or ``EvaluationFailed`` with its problem."""
    if outcome["status"] == "finished":
        return outcome["result"]
    raise EvaluationFailed(outcome["error"])


def _finished(job: Job, eval_id: str, result: Any) -> Any:
    """Record ``result`` as the evaluation's outcome unless one is recorded;
    answer the recorded one."""
    return _answer(store_outcome(job.connection, eval_id,
                                 {"status": "finished", "result": result,
                                  "ended_at": time.time()}, _result_ttl(job)))


def chunk_job(eval_id: str, kind_name: str, plan: dict[str, Any],
              chunk: dict[str, Any]) -> dict[str, Any]:
    job = _current_job()
    kind = get_kind(kind_name)
    if job.connection.exists(cancel_key(eval_id)):
        return {"canceled": True}
    if load_outcome(job.connection, eval_id) is not None:  # a late re-run: nothing to do
        return {"over": True}
    k = job.meta.get("chunk", 0)
    try:
        return {"partial": kind.run_chunk(plan, chunk, _progress(
            job, eval_id, k, _deadline(kind_name, plan, chunk, k)))}
    except Cancelled:
        return {"canceled": True}
    except ChunkTimeout as exc:  # finished, not failed: RQ must not run it again
        return _over_budget(job, eval_id, exc)


def finished_value(chunk: Job) -> dict[str, Any] | None:
    """What a chunk returned, if any run of it finished.

    A worker that stalls past its heartbeat (a paused or starved machine) is
    taken for dead: RQ retries its job elsewhere while the first run may still
    finish.  The job's status is then the last copy's (``started``, or
    ``failed`` if that copy was abandoned in turn), yet a run did finish: its
    result is as good as any (a chunk is a pure function of the plan), so
    the evaluation goes on with it instead of failing.

    A copy that ran on after the evaluation ended returns a marker
    (``{"canceled": True}``, ``{"over": True}``) after the run that finished: a
    run's ``partial`` wins over any marker, whichever came last.
    """
    if chunk.get_status(refresh=False) == JobStatus.FINISHED:
        value: dict[str, Any] = chunk.return_value() or {}
        if "partial" in value:
            return value
    values = [r.return_value or {} for r in chunk.results() if r.type == Result.Type.SUCCESSFUL]
    return next((v for v in values if "partial" in v), values[0] if values else None)


def aggregate_job(eval_id: str, kind_name: str, plan: dict[str, Any],
                  chunk_ids: list[str]) -> Any:
    job = _current_job()
    kind = get_kind(kind_name)
    recorded = load_outcome(job.connection, eval_id)
    if recorded is not None:  # run again by RQ: the evaluation already ended
        return _answer(recorded)
    partials = []
    for k, chunk in enumerate(Job.fetch_many(chunk_ids, connection=job.connection)):
        if chunk is None:
            return _fail(job, eval_id,
                         evaluation_problem(f"chunk {k} has disappeared before aggregation"))
        value = finished_value(chunk)
        if value is None:
            why = failure_reason(chunk, "its worker died")
            return _fail(job, eval_id, evaluation_problem(f"chunk {k} failed: {why}"))
        if value.get("canceled") or "partial" not in value:
            return None
        partials.append(value["partial"])
    try:
        aggregated = kind.aggregate(plan, partials)
    except Exception as exc:
        return _fail(job, eval_id, failure_problem(exc, "aggregation"))
    return _finished(job, eval_id, aggregated)


def single_job(eval_id: str, kind_name: str, plan: dict[str, Any]) -> Any:
    job = _current_job()
    kind = get_kind(kind_name)
    recorded = load_outcome(job.connection, eval_id)
    if recorded is not None:  # run again by RQ: the evaluation already ended
        return _answer(recorded)
    try:
        chunk = kind.chunks(plan)[0]
        result = kind.aggregate(plan, [kind.run_chunk(plan, chunk, _progress(
            job, eval_id, 0, _deadline(kind_name, plan, chunk, 0)))])
    except Cancelled:
        return None
    except ChunkTimeout as exc:
        _over_budget(job, eval_id, exc)
        return None
    except Exception as exc:
        return _fail(job, eval_id, failure_problem(exc))
    return _finished(job, eval_id, result)


def _fail(job: Job, eval_id: str, problem: dict[str, Any]) -> Any:
    """Record the failure as the evaluation's outcome (unless it already has
    one) and fail the job with the recorded problem."""
    job.meta["problem"] = problem
    job.save_meta()
    return _answer(store_outcome(job.connection, eval_id,
                                 {"status": "failed", "error": problem,
                                  "ended_at": time.time()}, _result_ttl(job)))
