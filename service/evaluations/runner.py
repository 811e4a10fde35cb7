"""Where evaluations run: in-process threads, or RQ workers (``rq_runner``).

Both runners take a validated plan (``kinds.prepare``), split it into the
kind's chunks, run each chunk, aggregate, and answer ``status(id)`` with one
shape (``status_body``):

``{id, game, kind, status, progress, submitted_at, started_at, finished_at,
expires_at, result | error, incidents, chunks}`` — ``status`` is one of
``queued, started, finished, failed, canceled``; ``progress`` runs 0..1;
``error`` is a problem+json object; ``expires_at`` is when a finished,
failed or canceled evaluation is forgotten (then its id answers 410 Gone).

The embedded runner (no ``REDIS_URL``) runs evaluations on a small thread
pool of the process that accepted them and keeps their records in a SQLite
file shared by the processes of one service instance (``store_path``), so
``make run`` (gunicorn, several workers) works on a bare machine.

Both runners refuse a submission when the queue is full (``admit``: at most
``REFEREE_MAX_QUEUED`` chunks waiting, default 256), and both are a
``Runner``: the only thing ``service.http.evaluations`` knows of them.

Both keep a submission's ``Idempotency-Key`` (``Idempotency``) in the store every
process of the service shares — the SQLite file, or Redis — never in one process's
memory: the same key with the same request answers the evaluation it made (concurrent
duplicates included: one job), with another request ``KeyReused``.  A key lasts as
long as its evaluation answers: once that is removed, or expired (``RESULT_TTL`` after
it ended), the key is free again.

Both keep with each record whom it answers to (``Audience``: the digest of the
API key that submitted it, and for a sealed state the game and the seat it
was asked for); ``service.http.evaluations`` checks it before any answer.
"""

from __future__ import annotations

import logging
import math
import os
import sqlite3
import tempfile
import time
import uuid
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any, Protocol

import orjson

from service.evaluations.budget import CpuDeadline
from service.evaluations.kinds import Cancelled, ChunkTimeout, Kind, get_kind
from service.games.messages import N_
from service.problems import evaluation_problem, failure_problem

log = logging.getLogger("referee")

#: how long a finished/failed/canceled evaluation is kept (seconds)
RESULT_TTL = 3600
#: how long an expired id still answers 410 rather than 404 (seconds)
TOMBSTONE_TTL = 7 * 24 * 3600
#: the longest one chunk may run before it is failed (seconds)
CHUNK_TIMEOUT = 300
#: the most chunks that may wait (accepted, not yet started) in one service,
#: on either runner; environment ``REFEREE_MAX_QUEUED`` (see ``admit``)
DEFAULT_MAX_QUEUED = 256
#: seconds a refused client is told to wait (``Retry-After``)
BUSY_RETRY_AFTER = 10


@dataclass(frozen=True)
class Audience:
    """Whom an evaluation answers to (``service.http.evaluations`` checks it).

    ``owner``: a digest of the API key that submitted it (never the key), or
    ``None`` when it was submitted without API keys configured — then its id
    is a bearer capability.  ``sealed``: for an evaluation of a sealed state,
    ``{"game": chain.game, "seats": n, "seat": k | "all"}`` — the token of the
    seat it was asked for (``all``: the host's) is needed to read it.
    """

    owner: str | None = None
    sealed: dict[str, Any] | None = None


#: an evaluation that answers to whoever holds its id (no API keys, no sealed state)
OPEN = Audience()


@dataclass
class Idempotency:
    """A submission's ``Idempotency-Key``, as the runners keep it.

    ``key``: a digest of the key within its scope (the submitting API key's, or the
    service's without API keys), never the key; ``request``: a digest of the request
    body.  The runner sets ``replayed`` when it answers an evaluation it already had.
    """

    key: str
    request: str
    replayed: bool = False


class KeyReused(Exception):
    """The ``Idempotency-Key`` already made an evaluation of another request (HTTP 422)."""


class Runner(Protocol):
    """Where evaluations run: ``EmbeddedRunner`` or ``rq_runner.RQRunner``.

    Every method that takes an id raises ``UnknownEvaluation`` for an id it
    does not know (or that was removed) and, except ``remove`` and
    ``audience``, ``ExpiredEvaluation`` for one whose result has expired.
    """

    #: ``embedded`` or ``rq`` (``GET /v1/evaluations/kinds`` says which)
    backend: str

    def submit(self, kind: Kind, plan: dict[str, Any], game: str,
               audience: Audience = OPEN,
               idempotency: Idempotency | None = None) -> dict[str, Any]:
        """Queue a validated plan (``kinds.prepare``), answering to ``audience``;
        its status.  ``Busy`` when the queue is full (``admit``).  With
        ``idempotency`` whose key already made a live evaluation: that evaluation's
        status (``replayed`` set), or ``KeyReused`` for another request."""
        ...

    def audience(self, eval_id: str) -> Audience:
        """Whom the evaluation answers to, expired or not (so that an expired id
        is 404, not 410, to anyone else)."""
        ...

    def status(self, eval_id: str) -> dict[str, Any]:
        """The one shape of ``GET /v1/evaluations/{id}`` (``status_body``)."""
        ...

    def cancel(self, eval_id: str) -> dict[str, Any]:
        """Stop a queued or running evaluation; its status, ``canceled``
        (again for one already canceled).  ``AlreadyOver`` when it finished
        or failed: an outcome never changes."""
        ...

    def remove(self, eval_id: str) -> None:
        """Forget the evaluation (expired or not), cancelling it first if it
        still runs: its id then answers 404."""
        ...

    def first_report(self, eval_id: str) -> bool:
        """True the first time any process of the service reports this
        evaluation's end (so that it is counted once)."""
        ...


class UnknownEvaluation(KeyError):
    """No evaluation with that id (HTTP 404)."""


class ExpiredEvaluation(KeyError):
    """The evaluation existed but its result has expired (HTTP 410)."""

    def __init__(self, eval_id: str, expired_at: str | None = None):
        super().__init__(eval_id)
        self.expired_at = expired_at


class AlreadyOver(Exception):
    """Cancelling an evaluation that already finished or failed (HTTP 409)."""

    def __init__(self, status: str):
        super().__init__(status)
        self.status = status


class Busy(Exception):
    """The queue is full (HTTP 503 with ``Retry-After``, see ``admit``)."""


def configured_max_queued() -> int:
    """``REFEREE_MAX_QUEUED`` (chunks), else ``DEFAULT_MAX_QUEUED``."""
    return int(os.environ.get("REFEREE_MAX_QUEUED") or DEFAULT_MAX_QUEUED)


def admit(waiting: int, new: int, cap: int) -> None:
    """The one queue cap of both runners: raise ``Busy`` unless an evaluation
    of ``new`` chunks may join ``waiting`` queued (not yet started) chunks.

    It may when the total stays within ``cap``, or when nothing waits (so an
    evaluation is never refused for its own size: the kinds cap that).

    >>> admit(0, 64, 16), admit(190, 64, 256)
    (None, None)
    >>> try:
    ...     admit(200, 64, 256)
    ... except Busy as exc:
    ...     print(exc)
    200 chunks are already waiting (the cap is 256, REFEREE_MAX_QUEUED); this evaluation has 64
    """
    if waiting and waiting + new > cap:
        raise Busy(N_("{waiting} chunks are already waiting (the cap is {cap}, "
                      "REFEREE_MAX_QUEUED); this evaluation has {new}",
                      waiting=waiting, cap=cap, new=new))


def new_id() -> str:
    return uuid.uuid4().hex


def iso(ts: float | None) -> str | None:
    """Seconds since the epoch as ISO 8601 UTC (``None`` stays ``None``)."""
    if ts is None:
        return None
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z")


def status_body(eval_id: str, game: str, kind: str, status: str, progress: float, *,
                submitted_at: float, started_at: float | None = None,
                finished_at: float | None = None, expires_at: float | None = None,
                result: Any = None, error: dict[str, Any] | None = None,
                incidents: list[Any] | None = None, chunks: int = 1) -> dict[str, Any]:
    """The one shape of ``GET /v1/evaluations/{id}``."""
    body = {"id": eval_id, "game": game, "kind": kind, "status": status,
            "progress": round(min(max(progress, 0.0), 1.0), 4),
            "submitted_at": iso(submitted_at), "started_at": iso(started_at),
            "finished_at": iso(finished_at), "expires_at": iso(expires_at),
            "chunks": chunks, "incidents": incidents or []}
    if status == "finished":
        body["result"] = result
    if status == "failed":
        body["error"] = error
    return body


def run_chunks(kind: Kind, plan: dict[str, Any], chunks: list[dict[str, Any]],
               progress: Callable[[int, int, int], None],
               cancelled: Callable[[], bool]) -> list[Any]:
    """Run chunks one after another (the embedded runner's work), each under
    its CPU deadline in this thread's CPU time (``budget.CpuDeadline``): past
    it, the chunk's next progress report raises ``ChunkTimeout``."""
    partials = []
    for k, chunk in enumerate(chunks):
        if cancelled():
            raise Cancelled()
        deadline = CpuDeadline(k, kind.chunk_seconds(plan, chunk), time.thread_time)
        partials.append(kind.run_chunk(plan, chunk, partial(_report, progress, k, deadline)))
    return partials


def _report(progress: Callable[[int, int, int], None], k: int, deadline: CpuDeadline,
            done: int, total: int) -> None:
    progress(k, done, total)
    deadline.raise_if_past()


SCHEMA = """
CREATE TABLE IF NOT EXISTS evaluations (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL,
    progress REAL NOT NULL DEFAULT 0, chunks INTEGER NOT NULL, pid INTEGER NOT NULL,
    submitted_at REAL NOT NULL, started_at REAL, finished_at REAL, expires_at REAL,
    beat_at REAL NOT NULL, cancel INTEGER NOT NULL DEFAULT 0, result BLOB, error BLOB,
    owner TEXT, sealed BLOB);
CREATE TABLE IF NOT EXISTS evaluation_reported (id TEXT PRIMARY KEY, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS evaluation_keys (
    key TEXT PRIMARY KEY, request TEXT NOT NULL, id TEXT NOT NULL, at REAL NOT NULL);
"""
#: columns added since the first schema: a store file made before lacks them, and
#: ``CREATE TABLE IF NOT EXISTS`` leaves its table as it is (``migrate``)
ADDED_COLUMNS = {"owner": "TEXT", "sealed": "BLOB"}


def migrate(db: sqlite3.Connection) -> None:
    """Add ``ADDED_COLUMNS`` that an older store's table lacks, under the write lock:
    the workers of one instance open the store at once, and the second must find the
    columns added, not add them again.  Rows written before have no audience.

    >>> db = sqlite3.connect(":memory:", isolation_level=None)
    >>> _ = db.execute("CREATE TABLE evaluations (id TEXT PRIMARY KEY)")
    >>> migrate(db); migrate(db)
    >>> [row[1] for row in db.execute("PRAGMA table_info(evaluations)")]
    ['id', 'owner', 'sealed']
    """
    db.execute("BEGIN IMMEDIATE")
    try:
        have = {row[1] for row in db.execute("PRAGMA table_info(evaluations)")}
        for name, kind in ADDED_COLUMNS.items():
            if name not in have:
                db.execute(f"ALTER TABLE evaluations ADD COLUMN {name} {kind}")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
#: a queued or started evaluation whose process has not reported for this
#: long, and is gone, has failed
STALE_SECONDS = 10.0


STORE_ENV = "REFEREE_EVALUATION_STORE"


def store_path(config: Mapping[str, Any] | None = None) -> str:
    """The embedded runner's SQLite file.

    Shared on purpose: ``REFEREE_EVALUATION_STORE`` (or the older
    ``EVALUATION_DB``), from the app config or the environment.  Otherwise
    one file per running instance — ``<tmp>/referee-evaluations-<uid>-<pid>.sqlite3``
    where ``pid`` is the gunicorn master's (so all workers of one ``make run``
    share it, and a second instance on another port has its own).  Files of
    instances that are no longer running are removed when a store is opened.
    """
    config = config or {}
    for name in (STORE_ENV, "EVALUATION_DB"):
        chosen = config.get(name) or os.environ.get(name)
        if chosen:
            return str(chosen)
    directory = tempfile.gettempdir()
    prefix = f"referee-evaluations-{os.getuid()}-"
    _remove_dead_stores(directory, prefix)
    return os.path.join(directory, f"{prefix}{instance_pid()}.sqlite3")


def instance_pid() -> int:
    """The pid that names this service instance: in a gunicorn worker, its
    master's; otherwise this process's."""
    parent = os.getppid()
    try:
        same_program = os.readlink("/proc/self/exe") == os.readlink(f"/proc/{parent}/exe")
        with open(f"/proc/{parent}/cmdline", "rb") as f:
            parent_is_gunicorn = b"gunicorn" in f.read()
    except OSError:  # no /proc: each process is its own instance
        return os.getpid()
    return parent if same_program and parent_is_gunicorn else os.getpid()


def _remove_dead_stores(directory: str, prefix: str) -> None:
    """Delete the per-instance stores (and their WAL files) of dead instances."""
    try:
        names = os.listdir(directory)
    except OSError:
        return
    for name in names:
        if not name.startswith(prefix):
            continue
        pid = name[len(prefix):].split(".", 1)[0]
        if pid.isdigit() and int(pid) != os.getpid() and not _alive(int(pid)):
            try:
                os.unlink(os.path.join(directory, name))
            except OSError:
                pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class EmbeddedRunner:
    """Evaluations in this process, on a thread pool (no Redis).

    Records live in a small SQLite file so that every process of the service
    (gunicorn runs several) answers for every evaluation: the process that
    accepted it runs it and writes its progress and result there; any process
    reads the status or sets the cancel flag, which the running chunk checks
    at each progress report.  An evaluation whose process died is reported
    as failed, never left "started".
    """

    backend = "embedded"

    def __init__(self, threads: int = 2, result_ttl: int = RESULT_TTL,
                 chunk_timeout: float = CHUNK_TIMEOUT, db_path: str | None = None,
                 max_queued: int | None = None):
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="evaluation")
        self.result_ttl, self.chunk_timeout = result_ttl, chunk_timeout
        self.max_queued = max_queued or configured_max_queued()
        self.db_path = db_path or store_path()
        with closing(self._db()) as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)
            migrate(db)
            db.execute("DELETE FROM evaluations WHERE submitted_at < ?",
                       (time.time() - TOMBSTONE_TTL,))
            db.execute("DELETE FROM evaluation_keys WHERE at < ?",
                       (time.time() - TOMBSTONE_TTL,))

    def _db(self) -> sqlite3.Connection:
        return sqlite3.connect(self.db_path, timeout=10, isolation_level=None)

    def _update(self, eval_id: str, **fields: Any) -> None:
        cols = ", ".join(f"{k} = ?" for k in fields)
        with closing(self._db()) as db:
            db.execute(f"UPDATE evaluations SET {cols} WHERE id = ?", (*fields.values(), eval_id))

    def submit(self, kind: Kind, plan: dict[str, Any], game: str,
               audience: Audience = OPEN,
               idempotency: Idempotency | None = None) -> dict[str, Any]:
        eval_id, now = new_id(), time.time()
        chunks = kind.chunks(plan)
        sealed = orjson.dumps(audience.sealed) if audience.sealed is not None else None
        with closing(self._db()) as db:
            # the key's lookup, the count and the inserts, one submission at a time (across
            # the processes: the file's write lock), so duplicates make one evaluation
            db.execute("BEGIN IMMEDIATE")
            try:
                held = self._held(db, idempotency, now) if idempotency else None
                if held is None:
                    admit(self._waiting(db), len(chunks), self.max_queued)
                    db.execute("INSERT INTO evaluations (id, game, kind, status, chunks, pid, "
                               "submitted_at, beat_at, owner, sealed) "
                               "VALUES (?, ?, ?, 'queued', ?, ?, ?, ?, ?, ?)",
                               (eval_id, game, kind.name, len(chunks), os.getpid(), now, now,
                                audience.owner, sealed))
                    if idempotency:
                        db.execute("INSERT INTO evaluation_keys VALUES (?, ?, ?, ?)",
                                   (idempotency.key, idempotency.request, eval_id, now))
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        if held is not None:
            return self.status(held)
        self.pool.submit(self._run_one, eval_id, kind, plan, chunks)
        return self.status(eval_id)

    @staticmethod
    def _held(db: sqlite3.Connection, idempotency: Idempotency, now: float) -> str | None:
        """The evaluation ``idempotency``'s key made, while it answers (``replayed`` set;
        ``KeyReused`` for another request); ``None`` when the key is free (a key whose
        evaluation was removed or has expired is freed here)."""
        row = db.execute("SELECT request, id FROM evaluation_keys WHERE key = ?",
                         (idempotency.key,)).fetchone()
        if row is None:
            return None
        live = db.execute("SELECT expires_at FROM evaluations WHERE id = ?", (row[1],)).fetchone()
        if live is None or (live[0] is not None and live[0] <= now):
            db.execute("DELETE FROM evaluation_keys WHERE key = ?", (idempotency.key,))
            return None
        if row[0] != idempotency.request:
            raise KeyReused(row[1])
        idempotency.replayed = True
        found: str = row[1]
        return found

    @staticmethod
    def _waiting(db: sqlite3.Connection) -> int:
        """Chunks of this store's queued evaluations whose process is alive."""
        rows = db.execute("SELECT pid, SUM(chunks) FROM evaluations WHERE status = 'queued' "
                          "GROUP BY pid").fetchall()
        return sum(n for pid, n in rows if pid == os.getpid() or _alive(pid))

    def _run_one(self, eval_id: str, kind: Kind, plan: dict[str, Any], chunks: list[dict[str, Any]]) -> None:
        with closing(self._db()) as db:
            started = db.execute("UPDATE evaluations SET status = 'started', started_at = ?, "
                                 "beat_at = ? WHERE id = ? AND status = 'queued' AND cancel = 0",
                                 (time.time(), time.time(), eval_id)).rowcount
        if not started:
            return
        began = time.monotonic()
        done = [0.0] * len(chunks)
        last = [0.0]

        def progress(k: int, d: int, total: int) -> None:
            done[k] = d / total if total else 1.0
            now = time.monotonic()
            if now - last[0] < 0.1 and d < total:
                return
            last[0] = now
            with closing(self._db()) as db:
                db.execute("UPDATE evaluations SET progress = ?, beat_at = ? WHERE id = ?",
                           (sum(done) / len(done), time.time(), eval_id))
                flag = db.execute("SELECT cancel FROM evaluations WHERE id = ?",
                                  (eval_id,)).fetchone()
                if flag is None or flag[0]:  # removed, or cancelled
                    raise Cancelled()
            if now - began > self.chunk_timeout * len(chunks):
                raise ChunkTimeout(f"ran longer than {self.chunk_timeout} s per chunk")

        fields: dict[str, Any]
        try:
            partials = run_chunks(kind, plan, chunks, progress, lambda: False)
            result = kind.aggregate(plan, partials)
        except Cancelled:
            fields = {"status": "canceled"}
        except ChunkTimeout as exc:  # its error says which chunk, the budget, the CPU used
            log.warning("evaluation %s (%s) failed: %s", eval_id, kind.name, exc)
            fields = {"status": "failed", "error": orjson.dumps(failure_problem(exc))}
        except Exception as exc:  # reported as the evaluation's error, never raised
            fields = {"status": "failed", "error": orjson.dumps(failure_problem(exc))}
        else:
            fields = {"status": "finished", "progress": 1.0, "result": orjson.dumps(result)}
        now = time.time()
        self._update(eval_id, finished_at=now, expires_at=now + self.result_ttl, beat_at=now,
                     **fields)

    def _row(self, eval_id: str) -> dict[str, Any]:
        with closing(self._db()) as db:
            db.row_factory = sqlite3.Row
            row = db.execute("SELECT * FROM evaluations WHERE id = ?", (eval_id,)).fetchone()
        if row is None:
            raise UnknownEvaluation(eval_id)
        row = dict(row)
        now = time.time()
        if row["expires_at"] is not None and row["expires_at"] <= now:
            raise ExpiredEvaluation(eval_id, iso(row["expires_at"]))
        if (row["status"] in ("queued", "started") and now - row["beat_at"] > STALE_SECONDS
                and not _alive(row["pid"])):
            problem = evaluation_problem(f"the process running this evaluation "
                                         f"(pid {row['pid']}) has stopped")
            self._update(eval_id, status="failed", error=orjson.dumps(problem), finished_at=now,
                         expires_at=now + self.result_ttl)
            return self._row(eval_id)
        return row

    def audience(self, eval_id: str) -> Audience:
        with closing(self._db()) as db:
            row = db.execute("SELECT owner, sealed FROM evaluations WHERE id = ?",
                             (eval_id,)).fetchone()
        if row is None:
            raise UnknownEvaluation(eval_id)
        return Audience(row[0], orjson.loads(row[1]) if row[1] else None)

    def status(self, eval_id: str) -> dict[str, Any]:
        row = self._row(eval_id)
        return status_body(
            row["id"], row["game"], row["kind"], row["status"], row["progress"],
            submitted_at=row["submitted_at"], started_at=row["started_at"],
            finished_at=row["finished_at"], expires_at=row["expires_at"],
            result=orjson.loads(row["result"]) if row["result"] else None,
            error=orjson.loads(row["error"]) if row["error"] else None, chunks=row["chunks"])

    def cancel(self, eval_id: str) -> dict[str, Any]:
        row = self._row(eval_id)
        if row["status"] in ("finished", "failed"):
            raise AlreadyOver(row["status"])
        now = time.time()
        with closing(self._db()) as db:
            db.execute("UPDATE evaluations SET cancel = 1 WHERE id = ?", (eval_id,))
            db.execute("UPDATE evaluations SET status = 'canceled', finished_at = ?, "
                       "expires_at = ? WHERE id = ? AND status = 'queued'",
                       (now, now + self.result_ttl, eval_id))
        deadline = time.monotonic() + 2  # a running chunk stops at its next report
        while self._row(eval_id)["status"] == "started" and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.status(eval_id)

    def remove(self, eval_id: str) -> None:
        """Delete the record: a running chunk finds it gone at its next
        progress report and stops; nothing is written for it afterwards."""
        with closing(self._db()) as db:
            removed = db.execute("DELETE FROM evaluations WHERE id = ?", (eval_id,)).rowcount
            db.execute("DELETE FROM evaluation_reported WHERE id = ?", (eval_id,))
            db.execute("DELETE FROM evaluation_keys WHERE id = ?", (eval_id,))
        if not removed:
            raise UnknownEvaluation(eval_id)

    def first_report(self, eval_id: str) -> bool:
        """Claimed in this store's ``evaluation_reported`` table (every process
        of the instance shares it)."""
        now = time.time()
        with closing(self._db()) as db:
            claimed = db.execute("INSERT OR IGNORE INTO evaluation_reported VALUES (?, ?)",
                                 (eval_id, now)).rowcount == 1
            if claimed:
                db.execute("DELETE FROM evaluation_reported WHERE at < ?",
                           (now - 2 * self.result_ttl - 86400,))
        return claimed


def run_inline(kind_name: str, plan: dict[str, Any]) -> dict[str, Any]:
    """Run a whole plan in this thread (tests, benchmarks): the aggregate."""
    kind = get_kind(kind_name)
    partials = run_chunks(kind, plan, kind.chunks(plan), lambda k, d, t: None, lambda: False)
    return kind.aggregate(plan, partials)


def retry_after(kind: Kind, plan: dict[str, Any]) -> int:
    """Seconds a client should wait before its first poll (``Retry-After``)."""
    return max(1, min(30, math.ceil(kind.estimate_seconds(plan) / 2)))
