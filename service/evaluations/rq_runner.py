"""Evaluations on RQ: seeded chunk jobs, one aggregating job, a record.

Submitting an evaluation with ``n`` chunks enqueues, on the ``referee``
queue, the chunk jobs ``ev-<id>-<k>`` (``workers.jobs.chunk_job``) and one
aggregating job ``ev-<id>`` (``workers.jobs.aggregate_job``) that depends on
all of them (RQ's ``Dependency(allow_failure=True)``, so it also runs — and
reports the failure — when a chunk failed).  A kind with a single chunk is
one job (``workers.jobs.single_job``).  A small record
``referee:evaluation:<id>`` remembers the evaluation for ``TOMBSTONE_TTL``,
so an expired id answers 410 instead of 404 (until it is removed).

What is RQ's and what is ours:

* progress (ours; RQ has none): each chunk writes its share (0..1) into
  one small hash per evaluation, ``referee:evaluation:<id>:progress`` —
  never into the job hashes (``job.meta``), which the aggregate's
  dependency check WATCHes (a write there made RQ retry a chunk's success
  transaction: 9–16 of 128 chunks left behind, docs/operations.md); the
  status averages them;
* an outcome is written once (ours): the first aggregate (or status read)
  to see the evaluation end stores ``referee:evaluation:<id>:outcome``
  (``SET NX``) and every later read answers it — a finished evaluation never
  turns "failed", whatever RQ does later with a chunk or the aggregate;
* timeouts (RQ's): ``job_timeout`` per chunk from the kind's work estimate;
  results and failures are kept ``RESULT_TTL``;
* a dead worker (RQ's): a running job's execution heartbeat is RQ's own,
  sent by its worker every second with a 5 s TTL
  (``workers.worker.RefereeWorker``; RQ's default TTL is 90 s).  RQ's
  abandoned-job handling (``StartedJobRegistry.cleanup``) retries the job
  once (``Retry(max=1)``) or fails it and releases its dependents; ``reap``
  runs it from a status poll, every worker's maintenance runs it too, and
  ``abandoned_incident`` (its exception handler) records the incident
  (a machine kill is retried 4.1–4.6 s later; docs/operations.md);
* a Redis outage (ours, where RQ's handling takes minutes): the queue's
  maintenance lock lasts seconds, not 899 s (``maintenance_lock``), and a
  job whose dequeue was cut off is put back on the queue within seconds
  (``requeue_lost_dequeues``), not failed after a minute;
* cancellation: ``job.cancel()`` (RQ's) for the jobs still waiting,
  ``send_stop_job_command`` (RQ's) for the running ones, and a flag key
  (ours) that a chunk checks when it starts and at every progress report,
  for a job dequeued between the two (the embedded runner's only way);
* backpressure (ours): a submission is refused (``Busy``, HTTP 503) when the
  jobs waiting on the queue would pass ``REFEREE_MAX_QUEUED``
  (``runner.admit``);
* an ``Idempotency-Key`` (ours): ``referee:idempotency:<key digest>`` holds the
  request's digest and the evaluation's id, claimed with ``SET NX`` before anything is
  queued, so concurrent duplicates make one evaluation; the record names the key, so
  ``remove`` frees it; a key whose evaluation is gone or expired is freed when next
  used (compare-and-delete), and every key lapses after ``TOMBSTONE_TTL`` at most;
* whom it answers to (ours): the record keeps the ``runner.Audience`` —
  ``owner`` (a digest of the API key) and ``sealed`` — for as long as the id
  answers at all, so that an expired id is 404, not 410, to anyone else.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import orjson
from redis import Redis
from rq import Queue, Retry
from rq.command import send_stop_job_command
from rq.exceptions import AbandonedJobError, InvalidJobOperation, NoSuchJobError
from rq.job import Dependency, Job, JobStatus
from rq.registry import StartedJobRegistry

from service.evaluations.kinds import Kind
from service.evaluations.runner import (
    OPEN,
    RESULT_TTL,
    TOMBSTONE_TTL,
    AlreadyOver,
    Audience,
    ExpiredEvaluation,
    Idempotency,
    KeyReused,
    UnknownEvaluation,
    admit,
    configured_max_queued,
    iso,
    new_id,
    status_body,
)
from service.limits import MAX_JOB_TIMEOUT, MIN_JOB_TIMEOUT
from service.problems import evaluation_problem

QUEUE = "referee"
#: seconds between the execution heartbeats of a running job, and how long
#: one lasts: a job whose heartbeat lapsed has lost its worker
#: (``workers.worker.RefereeWorker``)
HEARTBEAT_EVERY = 1
HEARTBEAT_TTL = 5
AGGREGATE_TIMEOUT = 120
#: how long a maintenance run holds the queue's lock at most (``maintenance_lock``)
MAINTENANCE_LOCK_SECONDS = 10
#: a job taken from the queue and not started this long after a maintenance
#: run first saw it was lost with its worker's connection (``requeue_lost_dequeues``)
LOST_DEQUEUE_SECONDS = HEARTBEAT_TTL


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


def store_outcome(connection: Redis, eval_id: str, outcome: dict[str, Any], ttl: int) -> dict[str, Any]:
    """Record how the evaluation ended unless it already has; the recorded outcome.

    ``outcome`` is ``{"status": "finished", "result": …}`` or
    ``{"status": "failed", "error": problem}``, with ``ended_at``.  The first
    writer wins, so an evaluation's end never changes once reported.
    """
    if connection.set(outcome_key(eval_id), orjson.dumps(outcome), nx=True, ex=ttl):
        return outcome
    return load_outcome(connection, eval_id) or outcome


def load_outcome(connection: Redis, eval_id: str) -> dict[str, Any] | None:
    raw = connection.get(outcome_key(eval_id))
    return orjson.loads(raw) if raw else None


def idempotency_key(key: str) -> str:
    return f"referee:idempotency:{key}"


#: deletes KEYS[1] only while it still holds ARGV[1] (a key another submission took
#: meanwhile stays)
_DELETE_IF_HELD = ("if redis.call('GET', KEYS[1]) == ARGV[1] then "
                   "return redis.call('DEL', KEYS[1]) end return 0")
#: deletes KEYS[1] only while its value names ARGV[1] (``"id":"<id>"``: ids are unique)
_DELETE_IF_NAMES = ("local v = redis.call('GET', KEYS[1]) "
                    "if v and string.find(v, ARGV[1], 1, true) then "
                    "return redis.call('DEL', KEYS[1]) end return 0")
#: how long a duplicate waits for the evaluation its key names to be queued (the
#: submission that claimed the key queues it within milliseconds)
CLAIM_WAIT_SECONDS = 5.0


def reported_key(eval_id: str) -> str:
    return f"referee:evaluation-reported:{eval_id}"


def main_job_id(eval_id: str) -> str:
    return f"ev-{eval_id}"


def chunk_job_id(eval_id: str, k: int) -> str:
    return f"ev-{eval_id}-{k}"


class RQRunner:
    """Evaluations as RQ jobs on the ``referee`` queue."""

    backend = "rq"

    def __init__(self, url: str, result_ttl: int = RESULT_TTL, max_queued: int | None = None,
                 timeout: float | None = None):
        # ``timeout``: seconds one Redis call may take (``REFEREE_REDIS_TIMEOUT``), so
        # a frozen Redis answers 503 in that time instead of holding the request
        self.connection = Redis.from_url(url, socket_timeout=timeout,
                                         socket_connect_timeout=timeout)
        self.queue = Queue(QUEUE, connection=self.connection)
        self.result_ttl = result_ttl
        self.max_queued = max_queued or configured_max_queued()

    # ------------------------------------------------------------ submit
    def submit(self, kind: Kind, plan: dict[str, Any], game: str,
               audience: Audience = OPEN,
               idempotency: Idempotency | None = None) -> dict[str, Any]:
        eval_id = new_id()
        if idempotency is not None:
            held = self._claim(idempotency, eval_id)
            if held is not None:
                return self._replay(held)
            try:
                return self._submit(eval_id, kind, plan, game, audience, idempotency)
            except BaseException:  # nothing queued: the key is free again
                self.connection.eval(_DELETE_IF_HELD, 1, idempotency_key(idempotency.key),
                                     self._claim_value(idempotency, eval_id))
                raise
        return self._submit(eval_id, kind, plan, game, audience, None)

    @staticmethod
    def _claim_value(idempotency: Idempotency, eval_id: str) -> bytes:
        return orjson.dumps({"request": idempotency.request, "id": eval_id})

    def _claim(self, idempotency: Idempotency, eval_id: str) -> str | None:
        """Claim the key for ``eval_id`` (``None``), or the id of the live evaluation it
        already made (``replayed`` set; ``KeyReused`` for another request)."""
        name, value = idempotency_key(idempotency.key), self._claim_value(idempotency, eval_id)
        for _ in range(3):
            if self.connection.set(name, value, nx=True, ex=TOMBSTONE_TTL):
                return None
            raw = self.connection.get(name)
            if raw is None:  # lapsed meanwhile
                continue
            held = orjson.loads(raw)
            if not self._answers(held["id"]):
                self.connection.eval(_DELETE_IF_HELD, 1, name, raw)
                continue
            if held["request"] != idempotency.request:
                raise KeyReused(held["id"])
            idempotency.replayed = True
            found: str = held["id"]
            return found
        raise KeyReused(eval_id)  # taken and freed again and again: a storm of duplicates

    def _answers(self, eval_id: str) -> bool:
        """Whether the evaluation a key names still answers (not removed, not expired);
        one being queued right now (its record younger than ``CLAIM_WAIT_SECONDS``, or not
        written yet) does."""
        deadline = time.monotonic() + CLAIM_WAIT_SECONDS
        while True:
            try:
                self.status(eval_id)
                return True
            except (UnknownEvaluation, ExpiredEvaluation):
                raw = self.connection.hget(record_key(eval_id), "submitted_at")
                young = raw is None or time.time() - orjson.loads(raw) < CLAIM_WAIT_SECONDS
                if not young or time.monotonic() > deadline:
                    return False
                time.sleep(0.02)

    def _replay(self, eval_id: str) -> dict[str, Any]:
        """The status of the evaluation a duplicate names (queued by now: ``_answers``)."""
        return self.status(eval_id)

    def _submit(self, eval_id: str, kind: Kind, plan: dict[str, Any], game: str,
                audience: Audience, idempotency: Idempotency | None) -> dict[str, Any]:
        chunks = kind.chunks(plan)
        admit(self.queue.count, len(chunks), self.max_queued)  # jobs waiting on the queue
        per_chunk = kind.estimate_seconds(plan) / len(chunks)
        timeout = int(min(MAX_JOB_TIMEOUT, max(MIN_JOB_TIMEOUT, 20 * per_chunk)))
        now = time.time()
        record = {"game": game, "kind": kind.name, "chunks": len(chunks), "submitted_at": now,
                  "result_ttl": self.result_ttl, "owner": audience.owner,
                  "sealed": audience.sealed}
        if idempotency is not None:  # so that ``remove`` frees the key
            record["idempotency"] = idempotency.key
        with self.connection.pipeline() as pipe:
            pipe.hset(record_key(eval_id), mapping={k: orjson.dumps(v) for k, v in record.items()})
            pipe.expire(record_key(eval_id), TOMBSTONE_TTL)
            pipe.execute()
        common: dict[str, Any] = {"result_ttl": self.result_ttl, "failure_ttl": self.result_ttl,
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
    def _record(self, eval_id: str) -> dict[str, Any]:
        raw = self.connection.hgetall(record_key(eval_id)) if _plausible(eval_id) else {}
        if not raw:
            raise UnknownEvaluation(eval_id)
        return {k.decode() if isinstance(k, bytes) else k: orjson.loads(v)
                for k, v in raw.items()}

    def audience(self, eval_id: str) -> Audience:
        record = self._record(eval_id)  # a record of before has neither: it answers to anyone
        return Audience(record.get("owner"), record.get("sealed"))

    def _jobs(self, eval_id: str, record: dict[str, Any]) -> tuple[Job | None, list[Job | None]]:
        ids = [main_job_id(eval_id)]
        if record["chunks"] > 1:
            ids += [chunk_job_id(eval_id, k) for k in range(record["chunks"])]
        jobs = Job.fetch_many(ids, connection=self.connection)
        return jobs[0], jobs[1:]

    def status(self, eval_id: str) -> dict[str, Any]:
        record = self._record(eval_id)
        main, chunks = self._jobs(eval_id, record)
        if main is None:
            ended = record.get("ended_at") or record.get("canceled_at")
            raise ExpiredEvaluation(eval_id, iso(ended + self.result_ttl) if ended else None)
        outcome = load_outcome(self.connection, eval_id)
        if outcome is None and any(j is not None and j.get_status(refresh=False)
                                   == JobStatus.STARTED for j in [main, *chunks]) \
                and reap(self.connection):
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

    def _ended(self, eval_id: str, record: dict[str, Any], outcome: dict[str, Any], fields: dict[str, Any],
               progress: Callable[[], float]) -> dict[str, Any]:
        """The status of an evaluation whose outcome is recorded."""
        ended = outcome["ended_at"]
        fields.update(finished_at=ended, expires_at=ended + self.result_ttl)
        if "ended_at" not in record:  # so that a later 410 can say when it expired
            self.connection.hsetnx(record_key(eval_id), "ended_at", orjson.dumps(ended))
        # RQ writes a job's started_at again as it finalises the job, after a single
        # job stored the outcome: the first value read once it ended is the answer
        fields["started_at"] = self._first(eval_id, record, "started_at", fields["started_at"])
        if outcome["status"] == "finished":
            return status_body(eval_id, record["game"], record["kind"], "finished", 1.0,
                               result=outcome["result"], **fields)
        return status_body(eval_id, record["game"], record["kind"], "failed",
                           progress(), error=outcome["error"], **fields)

    def _first(self, eval_id: str, record: dict[str, Any], name: str, value: Any) -> Any:
        """The value of ``name`` first recorded for the evaluation: ``value`` unless
        one was (``HSETNX``)."""
        if name in record:
            return record[name]
        if self.connection.hsetnx(record_key(eval_id), name, orjson.dumps(value)):
            return value
        return orjson.loads(self.connection.hget(record_key(eval_id), name) or b"null")

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

    # ------------------------------------------------------------ cancel, remove
    def cancel(self, eval_id: str) -> dict[str, Any]:
        record = self._record(eval_id)
        main, chunks = self._jobs(eval_id, record)
        if main is None:
            raise ExpiredEvaluation(eval_id)
        if record.get("canceled_at") is None:
            outcome = load_outcome(self.connection, eval_id)
            if outcome is not None:
                raise AlreadyOver(outcome["status"])
            status = main.get_status(refresh=False)
            if status in (JobStatus.FINISHED, JobStatus.FAILED):
                raise AlreadyOver(status.value)
            self._stop(eval_id, [main, *chunks])
        return self.status(eval_id)

    def _stop(self, eval_id: str, jobs: list[Job | None]) -> None:
        """Cancel the evaluation's waiting jobs and stop its running ones."""
        now = time.time()
        with self.connection.pipeline() as pipe:
            pipe.set(cancel_key(eval_id), b"1", ex=TOMBSTONE_TTL)
            pipe.hset(record_key(eval_id), "canceled_at", orjson.dumps(now))
            pipe.execute()
        for job in jobs:
            if job is None:
                continue
            status = job.get_status(refresh=True)
            try:
                if status in (JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.SCHEDULED):
                    job.cancel()
                elif status == JobStatus.STARTED:
                    send_stop_job_command(self.connection, job.id)
            except (InvalidJobOperation, NoSuchJobError):  # it ended meanwhile
                pass
            self.connection.expire(job.key, self.result_ttl)

    def remove(self, eval_id: str) -> None:
        """Forget the evaluation — its record, result, progress and jobs —
        after stopping it if it still runs; its id then answers 404."""
        record = self._record(eval_id)
        main, chunks = self._jobs(eval_id, record)
        jobs = [main, *chunks]
        if main is not None and record.get("canceled_at") is None \
                and load_outcome(self.connection, eval_id) is None:  # still queued or running
            self._stop(eval_id, jobs)
        for job in jobs:
            if job is None:
                continue
            if job.get_status(refresh=True) == JobStatus.STARTED:
                continue  # being stopped: its worker ends it, the key expires (``_stop``)
            try:
                job.delete()
            except NoSuchJobError:
                pass
        # the cancel flag stays (it expires): a chunk dequeued meanwhile stops at once
        if record.get("idempotency"):
            self.connection.eval(_DELETE_IF_NAMES, 1, idempotency_key(record["idempotency"]),
                                 orjson.dumps({"id": eval_id})[1:-1])
        self.connection.delete(record_key(eval_id), outcome_key(eval_id),
                               progress_key(eval_id), incidents_key(eval_id),
                               reported_key(eval_id))

    def first_report(self, eval_id: str) -> bool:
        """True the first time any process reports this evaluation's end (``SET NX``)."""
        return bool(self.connection.set(reported_key(eval_id), b"1", nx=True,
                                        ex=int(self.result_ttl) + 3600))


# ------------------------------------------------------------------ dead workers
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


def abandoned_incident(job: Job, exc_type: type, exc_value: BaseException, tb: Any) -> None:
    """An RQ exception handler: record ``worker-died`` for a job that RQ's
    abandoned-job handling is about to retry or fail (any other exception
    passes through)."""
    if exc_type is AbandonedJobError:
        record_incident(job.connection, job, "worker-died",
                        "the worker running this job stopped sending heartbeats; "
                        + ("the job was retried" if job.retries_left else "the job failed"))


def maintenance_lock(queue: Queue) -> bool:
    """Take the queue's maintenance lock (RQ's key) for ``MAINTENANCE_LOCK_SECONDS``.

    RQ takes it for 899 s and releases it at the end of the run.  A run
    takes milliseconds, but a holder that loses Redis mid-run never
    releases it, and while it lasts no abandoned job is handled: under load,
    a Redis outage stalled an evaluation past the 45 s the outage test waits.
    """
    return bool(queue.connection.set(queue.registry_cleaning_key, 1, nx=True,
                                     ex=MAINTENANCE_LOCK_SECONDS))


def requeue_lost_dequeues(queue: Queue) -> int:
    """Put back on the queue the jobs a worker's dequeue took but never started.

    A worker's dequeue moves a job into RQ's intermediate queue (``BLMOVE``)
    and its next step moves it into the started registry.  When Redis dies
    between the two — it ran the ``BLMOVE``, the reply never arrived — the
    job stays in the intermediate queue and no worker runs it; RQ fails it a
    minute after its maintenance first saw it.  A job that never started can
    simply run: one still there ``LOST_DEQUEUE_SECONDS`` after a maintenance
    run first saw it goes back to the front of the queue, with a
    ``dequeue-lost`` incident.  (A live worker takes milliseconds between
    the two steps.)  The number put back.
    """
    intermediate = queue.intermediate_queue
    put_back = 0
    for job_id in intermediate.get_job_ids():
        if job_id in queue.started_job_registry:
            continue
        job = queue.fetch_job(job_id)
        if job is None or job.get_status(refresh=False) != JobStatus.QUEUED:
            intermediate.remove(job_id)  # gone, or cancelled meanwhile
            continue
        if intermediate.set_first_seen(job_id):
            continue
        first_seen = intermediate.get_first_seen(job_id)
        if first_seen is None or time.time() - first_seen.timestamp() < LOST_DEQUEUE_SECONDS:
            continue
        intermediate.remove(job_id)
        queue.connection.delete(intermediate.get_first_seen_key(job_id))
        record_incident(queue.connection, job, "dequeue-lost",
                        "a worker took this job from the queue as its Redis connection broke; "
                        "the job was put back on the queue")
        queue.enqueue_job(job, at_front=True)
        put_back += 1
    return put_back


def reap(connection: Redis) -> bool:
    """RQ's abandoned-job handling, now, for the ``referee`` queue: every job
    whose execution heartbeat lapsed is retried or failed and its dependents
    released (``StartedJobRegistry.cleanup``), the incident recorded.  Under
    RQ's maintenance lock of the queue, so it never runs twice at once (a
    worker's maintenance holds it meanwhile: then it is being done).  True
    if any such job was found."""
    registry = StartedJobRegistry(QUEUE, connection=connection)
    if not registry.get_expired_job_ids():
        return False
    queue = Queue(QUEUE, connection=connection)
    if not maintenance_lock(queue):
        return True
    try:
        registry.cleanup(exception_handlers=[abandoned_incident])
    finally:
        queue.release_maintenance_lock()
    return True


def _plausible(eval_id: str) -> bool:
    return len(eval_id) == 32 and all(c in "0123456789abcdef" for c in eval_id)


def _job_problem(job: Job) -> dict[str, Any]:
    """The problem+json of a failed job: what the job recorded, else its exception."""
    recorded: dict[str, Any] | None = job.meta.get("problem")
    if recorded:
        return recorded
    return evaluation_problem(failure_reason(job, "the worker running this evaluation died"))


def failure_reason(job: Job, died: str) -> str:
    """Why a failed job failed, in one line: ``died`` (with RQ's reason) when
    its worker died, else the last line of its exception.

    >>> class Failed:  # what RQ's abandoned-job handling records
    ...     exc_string = "Moved to FailedJobRegistry, due to AbandonedJobError, at 2026-11-23"
    >>> failure_reason(type("J", (), {"latest_result": lambda self: Failed()})(), "it died")
    'it died (AbandonedJobError)'
    """
    result = job.latest_result()
    text = (result.exc_string if result is not None else None) or "the job failed"
    if "AbandonedJobError" in text:
        return f"{died} (AbandonedJobError)"
    return text.strip().splitlines()[-1]
