"""Where evaluations run: in-process threads, or RQ workers (``rq_runner``).

Both runners take a validated plan (``kinds.prepare``), split it into the
kind's chunks, run each chunk, aggregate, and answer ``status(id)`` with one
shape (``status_body``):

``{id, game, kind, status, progress, submitted_at, started_at, finished_at,
expires_at, result | error, incidents, chunks}`` — ``status`` is one of
``queued, started, finished, failed, canceled``; ``progress`` runs 0..1;
``error`` is a problem+json object; ``expires_at`` is when a finished,
failed or canceled evaluation is forgotten (then its id answers 410 Gone).

The embedded runner (no ``REDIS_URL``) keeps evaluations in memory and runs
them on a small thread pool, so ``make run`` works on a bare machine.
"""

from __future__ import annotations

import math
import threading
import time
import traceback
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from typing import Any

from service.games.errors import RefereeError

from .kinds import Cancelled, Kind, get_kind

STATUSES = ("queued", "started", "finished", "failed", "canceled")
TERMINAL = ("finished", "failed", "canceled")

#: how long a finished/failed/canceled evaluation is kept (seconds)
RESULT_TTL = 3600
#: how long an expired id still answers 410 rather than 404 (seconds)
TOMBSTONE_TTL = 7 * 24 * 3600
#: the longest one chunk may run before it is failed (seconds)
CHUNK_TIMEOUT = 300
PROBLEM_BASE = "https://referee.dev/problems/"


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


class ChunkTimeout(Exception):
    """A chunk ran past ``CHUNK_TIMEOUT``."""


def new_id() -> str:
    return uuid.uuid4().hex


def iso(ts: float | None) -> str | None:
    """Seconds since the epoch as ISO 8601 UTC (``None`` stays ``None``)."""
    if ts is None:
        return None
    return datetime.fromtimestamp(ts, timezone.utc).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z")


def failure_problem(exc: BaseException, where: str = "") -> dict:
    """A problem+json object for an evaluation that failed with ``exc``."""
    prefix = f"{where}: " if where else ""
    if isinstance(exc, RefereeError):
        body = {"type": PROBLEM_BASE + exc.slug, "title": exc.title, "status": exc.status,
                "detail": prefix + str(exc)}
        if getattr(exc, "rule", None):
            body["rule"] = exc.rule
        return body
    if isinstance(exc, ChunkTimeout):
        return {"type": PROBLEM_BASE + "evaluation-timeout", "title": "Evaluation timed out",
                "status": 500, "detail": prefix + str(exc)}
    last = traceback.format_exception_only(type(exc), exc)[-1].strip()
    return {"type": PROBLEM_BASE + "evaluation-failed", "title": "Evaluation failed",
            "status": 500, "detail": prefix + last}


def status_body(eval_id: str, game: str, kind: str, status: str, progress: float, *,
                submitted_at: float, started_at: float | None = None,
                finished_at: float | None = None, expires_at: float | None = None,
                result: Any = None, error: dict | None = None,
                incidents: list | None = None, chunks: int = 1) -> dict:
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


def run_chunks(kind: Kind, plan: dict, chunks: list[dict], progress, cancelled) -> list:
    """Run chunks one after another (the embedded runner's work)."""
    partials = []
    for k, chunk in enumerate(chunks):
        if cancelled():
            raise Cancelled()
        partials.append(kind.run_chunk(plan, chunk, lambda d, t, k=k: progress(k, d, t)))
    return partials


class _Embedded:
    __slots__ = ("id", "game", "kind", "plan", "chunks", "done", "status", "result", "error",
                 "submitted_at", "started_at", "finished_at", "cancel")

    def __init__(self, eval_id: str, kind: Kind, plan: dict):
        self.id, self.kind, self.plan = eval_id, kind, plan
        self.game = plan.get("game", kind.games[0] if kind.games else "")
        self.chunks = kind.chunks(plan)
        self.done = [0.0] * len(self.chunks)
        self.status = "queued"
        self.result = self.error = None
        self.submitted_at = time.time()
        self.started_at = self.finished_at = None
        self.cancel = threading.Event()


class EmbeddedRunner:
    """Evaluations in this process, on a thread pool (no Redis)."""

    backend = "embedded"

    def __init__(self, threads: int = 2, result_ttl: int = RESULT_TTL,
                 chunk_timeout: float = CHUNK_TIMEOUT):
        self.pool = ThreadPoolExecutor(threads, thread_name_prefix="evaluation")
        self.result_ttl, self.chunk_timeout = result_ttl, chunk_timeout
        self._evals: dict[str, _Embedded] = {}
        self._expired: dict[str, float] = {}
        self._lock = threading.Lock()

    def submit(self, kind: Kind, plan: dict, game: str) -> dict:
        ev = _Embedded(new_id(), kind, plan)
        ev.game = game
        with self._lock:
            self._evals[ev.id] = ev
        self.pool.submit(self._run, ev)
        return self.status(ev.id)

    def _run(self, ev: _Embedded) -> None:
        if ev.cancel.is_set():
            return
        ev.status, ev.started_at = "started", time.time()
        began = time.monotonic()

        def progress(k: int, done: int, total: int) -> None:
            ev.done[k] = done / total if total else 1.0
            if ev.cancel.is_set():
                raise Cancelled()
            if time.monotonic() - began > self.chunk_timeout * len(ev.chunks):
                raise ChunkTimeout(f"ran longer than {self.chunk_timeout} s per chunk")

        try:
            partials = run_chunks(ev.kind, ev.plan, ev.chunks, progress, ev.cancel.is_set)
            result = ev.kind.aggregate(ev.plan, partials)
        except Cancelled:
            ev.status = "canceled"
        except Exception as exc:  # reported as the evaluation's error, never raised
            ev.error, ev.status = failure_problem(exc), "failed"
        else:
            ev.result, ev.status = result, "finished"
            ev.done = [1.0] * len(ev.chunks)
        ev.finished_at = time.time()

    def _get(self, eval_id: str) -> _Embedded:
        now = time.time()
        with self._lock:
            for key, ev in list(self._evals.items()):
                if ev.finished_at is not None and ev.finished_at + self.result_ttl <= now:
                    del self._evals[key]
                    self._expired[key] = ev.finished_at + self.result_ttl
            for key, at in list(self._expired.items()):
                if at + TOMBSTONE_TTL <= now:
                    del self._expired[key]
            ev = self._evals.get(eval_id)
        if ev is None:
            if eval_id in self._expired:
                raise ExpiredEvaluation(eval_id, iso(self._expired[eval_id]))
            raise UnknownEvaluation(eval_id)
        return ev

    def status(self, eval_id: str) -> dict:
        ev = self._get(eval_id)
        expires = ev.finished_at + self.result_ttl if ev.finished_at is not None else None
        return status_body(ev.id, ev.game, ev.kind.name, ev.status,
                           sum(ev.done) / len(ev.done), submitted_at=ev.submitted_at,
                           started_at=ev.started_at, finished_at=ev.finished_at,
                           expires_at=expires, result=ev.result, error=ev.error,
                           chunks=len(ev.chunks))

    def cancel(self, eval_id: str) -> dict:
        ev = self._get(eval_id)
        if ev.status in ("finished", "failed"):
            raise AlreadyOver(ev.status)
        ev.cancel.set()
        if ev.status == "queued":
            ev.status, ev.finished_at = "canceled", time.time()
        else:  # a running chunk stops at its next progress report
            deadline = time.monotonic() + 2
            while ev.status == "started" and time.monotonic() < deadline:
                time.sleep(0.01)
        return self.status(eval_id)


def run_inline(kind_name: str, plan: dict) -> dict:
    """Run a whole plan in this thread (tests, benchmarks): the aggregate."""
    kind = get_kind(kind_name)
    partials = run_chunks(kind, plan, kind.chunks(plan), lambda k, d, t: None, lambda: False)
    return kind.aggregate(plan, partials)


def retry_after(kind: Kind, plan: dict) -> int:
    """Seconds a client should wait before its first poll (``Retry-After``)."""
    return max(1, min(30, math.ceil(kind.estimate_seconds(plan) / 2)))
