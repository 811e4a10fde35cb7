"""Evaluations on RQ: seeded chunk jobs, one aggregating job, a record.

Submitting an evaluation with ``n`` chunks enqueues, on the ``referee``
queue, the chunk jobs ``ev-<id>-<k>`` (``workers.jobs.chunk_job``) and one
aggregating job ``ev-<id>`` (``workers.jobs.aggregate_job``) that depends on
all of them (``Dependency(allow_failure=True)``, so it also runs — and
reports the failure — when a chunk failed).  A kind with a single chunk is
one job (``workers.jobs.single_job``).  A small record
``referee:evaluation:<id>`` remembers the evaluation for ``TOMBSTONE_TTL``,
so an expired id answers 410 instead of 404.

Robustness:

* progress: each chunk writes its share (0..1) into one small hash per
  evaluation, ``referee:evaluation:<id>:progress`` — never into the job
  hashes, which the aggregate's dependency check WATCHes (a write there
  made RQ retry a chunk's success transaction, and RQ 2.12 then left the
  chunk in the started registry: rq/rq#2424); the status averages them;
* an outcome is written once: the first aggregate (or status read) to see
  the evaluation end stores ``referee:evaluation:<id>:outcome`` (``SET NX``)
  and every later read answers it — a finished evaluation can never turn
  "failed", whatever RQ does later with a chunk or the aggregate;
* timeouts: ``job_timeout`` per chunk from the kind's work estimate;
  results and failures are kept ``RESULT_TTL``;
* a dead worker: every running job refreshes a heartbeat key
  ``referee:beat:<job id>`` (TTL ``BEAT_TTL``) from a thread of the work
  horse.  When a job is "started" but its beat has lapsed, its worker died:
  its entry in RQ's StartedJobRegistry is expired at once and RQ's own
  abandoned-job cleanup runs — the chunk is retried once (``Retry(max=1)``)
  or failed, and its dependents are released.  Both a status poll and the
  maintenance of any ``workers.worker.RefereeWorker`` (every 15 s) do this;
  RQ's own maintenance would only after the worker's heartbeat TTL;
* cancellation: a flag key that running chunks check at every progress
  report, and ``job.cancel()`` for the jobs still waiting;
* backpressure: a submission is refused (``Busy``, HTTP 503) when the jobs
  waiting on the queue would pass ``REFEREE_MAX_QUEUED`` (``runner.admit``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import orjson
from redis import Redis
from rq import Queue, Retry
from rq.job import Dependency, Job, JobStatus
from rq.registry import StartedJobRegistry

from service.evaluations.kinds import Kind
from service.evaluations.runner import (
    RESULT_TTL,
    TOMBSTONE_TTL,
    AlreadyOver,
    ExpiredEvaluation,
    UnknownEvaluation,
    admit,
    configured_max_queued,
    evaluation_problem,
    iso,
    new_id,
    status_body,
)

QUEUE = "referee"
BEAT_TTL = 5
BEAT_EVERY = 1.0
#: a started job without a beat for this long after it started has lost its worker
BEAT_GRACE = 3.0
MIN_JOB_TIMEOUT = 60
MAX_JOB_TIMEOUT = 1800
AGGREGATE_TIMEOUT = 120


def record_key(eval_id: str) -> str:
    return f"referee:evaluation:{eval_id}"


def incidents_key(eval_id: str) -> str:
    return f"referee:evaluation:{eval_id}:incidents"


def cancel_key(eval_id: str) -> str:
    return f"referee:evaluation:{eval_id}:cancel"


def progress_key(eval_id: str) -> str:
    return f"referee:evaluation:{eval_id}:progress"


def outcome_key(eval_id: str) -> str:
    return f"referee:evaluation:{eval_id}:outcome"


def store_outcome(connection: Redis, eval_id: str, outcome: dict, ttl: int) -> dict:
    """Record how the evaluation ended unless it already has; the recorded outcome.

    ``outcome`` is ``{"status": "finished", "result": …}`` or
    ``{"status": "failed", "error": problem}``, with ``ended_at``.  The first
    writer wins, so an evaluation's end never changes once reported.
    """
    if connection.set(outcome_key(eval_id), orjson.dumps(outcome), nx=True, ex=ttl):
        return outcome
    return load_outcome(connection, eval_id) or outcome


def load_outcome(connection: Redis, eval_id: str) -> dict | None:
    raw = connection.get(outcome_key(eval_id))
    return orjson.loads(raw) if raw else None


def beat_key(job_id: str) -> str:
    return f"referee:beat:{job_id}"


def main_job_id(eval_id: str) -> str:
    return f"ev-{eval_id}"


def chunk_job_id(eval_id: str, k: int) -> str:
    return f"ev-{eval_id}-{k}"


class RQRunner:
    """Evaluations as RQ jobs on the ``referee`` queue."""

    backend = "rq"

    def __init__(self, url: str, result_ttl: int = RESULT_TTL, max_queued: int | None = None):
        self.connection = Redis.from_url(url)
        self.queue = Queue(QUEUE, connection=self.connection)
        self.result_ttl = result_ttl
        self.max_queued = max_queued or configured_max_queued()

    # ------------------------------------------------------------ submit
    def submit(self, kind: Kind, plan: dict, game: str) -> dict:
        eval_id = new_id()
        chunks = kind.chunks(plan)
        admit(self.queue.count, len(chunks), self.max_queued)  # jobs waiting on the queue
        per_chunk = kind.estimate_seconds(plan) / len(chunks)
        timeout = int(min(MAX_JOB_TIMEOUT, max(MIN_JOB_TIMEOUT, 20 * per_chunk)))
        now = time.time()
        record = {"game": game, "kind": kind.name, "chunks": len(chunks), "submitted_at": now,
                  "result_ttl": self.result_ttl}
        with self.connection.pipeline() as pipe:
            pipe.hset(record_key(eval_id), mapping={k: orjson.dumps(v) for k, v in record.items()})
            pipe.expire(record_key(eval_id), TOMBSTONE_TTL)
            pipe.execute()
        common = {"result_ttl": self.result_ttl, "failure_ttl": self.result_ttl,
                  "retry": Retry(max=1)}
        if len(chunks) == 1:
            self.queue.enqueue("workers.jobs.single_job", eval_id, kind.name, plan,
                               job_id=main_job_id(eval_id), job_timeout=timeout, **common)
        else:
            datas = [Queue.prepare_data("workers.jobs.chunk_job",
                                        (eval_id, kind.name, plan, chunk),
                                        job_id=chunk_job_id(eval_id, k), timeout=timeout,
                                        meta={"chunk": k}, **common)
                     for k, chunk in enumerate(chunks)]
            jobs = self.queue.enqueue_many(datas)
            self.queue.enqueue("workers.jobs.aggregate_job", eval_id, kind.name, plan,
                               [j.id for j in jobs], job_id=main_job_id(eval_id),
                               job_timeout=AGGREGATE_TIMEOUT,
                               depends_on=Dependency(jobs=jobs, allow_failure=True),
                               result_ttl=self.result_ttl, failure_ttl=self.result_ttl)
        return self.status(eval_id)

    # ------------------------------------------------------------ status
    def _record(self, eval_id: str) -> dict:
        raw = self.connection.hgetall(record_key(eval_id)) if _plausible(eval_id) else {}
        if not raw:
            raise UnknownEvaluation(eval_id)
        return {k.decode(): orjson.loads(v) for k, v in raw.items()}

    def _jobs(self, eval_id: str, record: dict) -> tuple[Job | None, list[Job | None]]:
        ids = [main_job_id(eval_id)]
        if record["chunks"] > 1:
            ids += [chunk_job_id(eval_id, k) for k in range(record["chunks"])]
        jobs = Job.fetch_many(ids, connection=self.connection)
        return jobs[0], jobs[1:]

    def status(self, eval_id: str) -> dict:
        record = self._record(eval_id)
        main, chunks = self._jobs(eval_id, record)
        if main is None:
            ended = record.get("ended_at") or record.get("canceled_at")
            raise ExpiredEvaluation(eval_id, iso(ended + self.result_ttl) if ended else None)
        outcome = load_outcome(self.connection, eval_id)
        if outcome is None and reap(self.connection, [main] + [c for c in chunks if c is not None]):
            main, chunks = self._jobs(eval_id, record)
            if main is None:
                raise ExpiredEvaluation(eval_id)
        incidents = [orjson.loads(x) for x in self.connection.lrange(incidents_key(eval_id), 0, -1)]
        started = [j.started_at.timestamp() for j in [main] + chunks
                   if j is not None and j.started_at is not None]
        fields: dict[str, Any] = {"submitted_at": record["submitted_at"],
                                  "started_at": min(started) if started else None,
                                  "incidents": incidents, "chunks": record["chunks"]}
        if outcome is not None:  # recorded once; nothing changes it afterwards
            return self._ended(eval_id, record, outcome, fields,
                               lambda: self._progress(eval_id, main, chunks))
        status = main.get_status(refresh=False)
        canceled_at = record.get("canceled_at")
        # a job stopped by the cancel flag finishes with no result
        if canceled_at is not None and (status != JobStatus.FINISHED
                                        or main.return_value() is None):
            return status_body(eval_id, record["game"], record["kind"], "canceled",
                               self._progress(eval_id, main, chunks), finished_at=canceled_at,
                               expires_at=canceled_at + self.result_ttl, **fields)
        if status in (JobStatus.FINISHED, JobStatus.FAILED):
            ended = main.ended_at.timestamp() if main.ended_at else time.time()
            if status == JobStatus.FINISHED:
                outcome = {"status": "finished", "result": main.return_value(),
                           "ended_at": ended}
            else:
                outcome = {"status": "failed", "error": _job_problem(main), "ended_at": ended}
            outcome = store_outcome(self.connection, eval_id, outcome, self.result_ttl)
            return self._ended(eval_id, record, outcome, fields,
                               lambda: self._progress(eval_id, main, chunks))
        if status in (JobStatus.CANCELED, JobStatus.STOPPED):
            return status_body(eval_id, record["game"], record["kind"], "canceled",
                               self._progress(eval_id, main, chunks), **fields)
        running = status == JobStatus.STARTED or any(
            c is not None and c.get_status(refresh=False) in (
                JobStatus.STARTED, JobStatus.FINISHED, JobStatus.FAILED) for c in chunks)
        return status_body(eval_id, record["game"], record["kind"],
                           "started" if running else "queued",
                           self._progress(eval_id, main, chunks), **fields)

    def _ended(self, eval_id: str, record: dict, outcome: dict, fields: dict,
               progress: Callable[[], float]) -> dict:
        """The status of an evaluation whose outcome is recorded."""
        ended = outcome["ended_at"]
        fields.update(finished_at=ended, expires_at=ended + self.result_ttl)
        if "ended_at" not in record:  # so that a later 410 can say when it expired
            self.connection.hsetnx(record_key(eval_id), "ended_at", orjson.dumps(ended))
        if outcome["status"] == "finished":
            return status_body(eval_id, record["game"], record["kind"], "finished", 1.0,
                               result=outcome["result"], **fields)
        return status_body(eval_id, record["game"], record["kind"], "failed",
                           progress(), error=outcome["error"], **fields)

    def _progress(self, eval_id: str, main: Job, chunks: list[Job | None]) -> float:
        """The mean of the chunks' progress (a finished chunk counts 1)."""
        shares = {int(k): float(v) for k, v in
                  self.connection.hgetall(progress_key(eval_id)).items()}
        parts = chunks if chunks else [main]
        total = 0.0
        for k, job in enumerate(parts):
            if job is not None and job.get_status(refresh=False) == JobStatus.FINISHED:
                total += 1.0
            else:
                total += shares.get(k, 0.0)
        return total / len(parts)

    # ------------------------------------------------------------ cancel
    def cancel(self, eval_id: str) -> dict:
        record = self._record(eval_id)
        main, chunks = self._jobs(eval_id, record)
        if main is None:
            raise ExpiredEvaluation(eval_id)
        status = main.get_status(refresh=False)
        outcome = load_outcome(self.connection, eval_id)
        if record.get("canceled_at") is None:
            if outcome is not None:
                raise AlreadyOver(outcome["status"])
            if status in (JobStatus.FINISHED, JobStatus.FAILED):
                raise AlreadyOver(status.value)
            now = time.time()
            with self.connection.pipeline() as pipe:
                pipe.set(cancel_key(eval_id), b"1", ex=TOMBSTONE_TTL)
                pipe.hset(record_key(eval_id), "canceled_at", orjson.dumps(now))
                pipe.execute()
            for job in [main] + chunks:
                if job is None:
                    continue
                if job.get_status(refresh=True) in (JobStatus.QUEUED, JobStatus.DEFERRED,
                                                    JobStatus.SCHEDULED):
                    try:
                        job.cancel()
                    except Exception:  # finished or canceled meanwhile
                        pass
                self.connection.expire(job.key, self.result_ttl)
        return self.status(eval_id)

    # ------------------------------------------------------------ reaper


def eval_id_of(job_id: str) -> str | None:
    """``ev-<id>`` or ``ev-<id>-<k>`` → ``<id>``."""
    parts = job_id.split("-")
    return parts[1] if len(parts) in (2, 3) and parts[0] == "ev" else None


def record_incident(connection: Redis, job: Job, event: str, detail: str,
                    worker: str | None = None) -> None:
    """Append an incident to the evaluation of ``job`` (``connection`` may be
    a pipeline); jobs of no evaluation are ignored."""
    eval_id = eval_id_of(job.id)
    if eval_id is None:
        return
    connection.rpush(incidents_key(eval_id), orjson.dumps({
        "at": iso(time.time()), "job": job.id, "chunk": job.meta.get("chunk"),
        "worker": worker or job.worker_name, "event": event, "detail": detail}))
    connection.expire(incidents_key(eval_id), TOMBSTONE_TTL)


def reap(connection: Redis, jobs: list[Job]) -> bool:
    """Fail or retry started jobs whose worker died; True if any was found.

    A job is dead when it has been "started" for more than ``BEAT_GRACE``
    seconds and its heartbeat key has lapsed.  Its StartedJobRegistry entry
    is expired at once and RQ's own abandoned-job cleanup does the rest
    (retry while ``retries_left``, else failed; dependents released).  The
    first reaper to claim a dead execution records the incident.
    """
    now = time.time()
    suspects = [j for j in jobs if j.get_status(refresh=False) == JobStatus.STARTED
                and j.started_at is not None and now - j.started_at.timestamp() > BEAT_GRACE]
    if not suspects:
        return False
    with connection.pipeline() as pipe:
        for j in suspects:
            pipe.exists(beat_key(j.id))
        alive = pipe.execute()
    dead = [j for j, a in zip(suspects, alive) if not a]
    claimed = [j for j in dead if connection.set(
        f"referee:reaped:{j.id}:{j.started_at.timestamp()}", b"1", nx=True, ex=TOMBSTONE_TTL)]
    if not claimed:
        return bool(dead)
    registry = StartedJobRegistry(QUEUE, connection=connection)
    ids = {j.id for j in claimed}
    entries = [e for e in connection.zrange(registry.key, 0, -1)
               if e.decode().split(":")[0] in ids]
    with connection.pipeline() as pipe:
        for entry in entries:
            pipe.zadd(registry.key, {entry: 1}, xx=True)
        for j in claimed:
            record_incident(pipe, j, "worker-died",
                            "the worker running this job stopped sending heartbeats; "
                            + ("the job was retried" if j.retries_left else "the job failed"))
        pipe.execute()
    drop_leftovers(connection)  # RQ's cleanup must not take an ended job for abandoned
    registry.cleanup()
    return True


def reap_queue(connection: Redis) -> bool:
    """Worker maintenance: drop the started-registry leftovers of jobs that
    ended (``drop_leftovers``), then ``reap`` every job the ``referee`` queue
    has started."""
    drop_leftovers(connection)
    registry = StartedJobRegistry(QUEUE, connection=connection)
    ids = registry.get_job_ids(cleanup=False)
    jobs = [j for j in Job.fetch_many(ids, connection=connection) if j is not None]
    return reap(connection, jobs)


#: a job in one of these states is not running, whatever the started registry says
ENDED = (JobStatus.FINISHED, JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED)


def drop_leftovers(connection: Redis) -> int:
    """Remove started-registry entries of jobs that have already ended; how many.

    RQ 2.12 can leave a finished job's entry behind (rq/rq#2424, see
    ``workers.worker.RefereeWorker.cleanup_execution``); when such an entry
    expired, RQ's cleanup would take the job for abandoned, fail or re-run it
    and re-run its dependents.  A job is only dropped when its status says it
    ended — a job about to start is "queued", never one of ``ENDED``.
    """
    registry = StartedJobRegistry(QUEUE, connection=connection)
    entries = connection.zrange(registry.key, 0, -1)
    if not entries:
        return 0
    ids = [e.decode().split(":")[0] for e in entries]
    jobs = Job.fetch_many(ids, connection=connection)
    stale = [e for e, j in zip(entries, jobs)
             if j is None or j.get_status(refresh=False) in ENDED]
    if stale:
        connection.zrem(registry.key, *stale)
    return len(stale)


def _plausible(eval_id: str) -> bool:
    return len(eval_id) == 32 and all(c in "0123456789abcdef" for c in eval_id)


def _job_problem(job: Job) -> dict:
    """The problem+json of a failed job: what the job recorded, else its exception."""
    recorded = job.meta.get("problem")
    if recorded:
        return recorded
    result = job.latest_result()
    text = (result.exc_string if result is not None else None) or "the job failed"
    if "AbandonedJobError" in text:
        detail = "the worker running this evaluation died (AbandonedJobError)"
    else:
        detail = text.strip().splitlines()[-1]
    return evaluation_problem(detail)
