"""Each chunk's CPU deadline: a bound on its work that ends it, never silently.

A kind's estimate is an upper bound of a chunk's work (``Kind.chunk_seconds``,
CPU seconds on the reference machine).  A chunk may spend ``CPU_MARGIN``
times that (at least ``MIN_CHUNK_CPU_SECONDS``, never more than the
per-chunk limit: ``MAX_CHUNK_CPU_SECONDS``, or less with
``REFEREE_CHUNK_CPU_SECONDS``) of the CPU time of what runs it — its thread
in the embedded runner (``time.thread_time``), its work horse on RQ
(``time.process_time``) — so a loaded machine, which slows the wall clock,
does not fail an honest job.  Past it the chunk stops at its next progress
report with ``ChunkTimeout`` (``evaluation-timeout``), naming the chunk, its
budget and the CPU it used; the runners fail the evaluation with it and log
it (RQ lists it under ``incidents`` too, ``cpu-deadline``).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from service.games.kind import ChunkTimeout
from service.limits import MAX_CHUNK_CPU_SECONDS

#: how far past its estimate a chunk may go: the estimate is already the worst
#: measured case, this is for a slower or busier machine than the reference one
CPU_MARGIN = 2.0
#: a chunk estimated at milliseconds still imports and starts Python code
MIN_CHUNK_CPU_SECONDS = 5.0
#: the environment setting that lowers the per-chunk limit (tests; an operator)
LIMIT_ENV = "REFEREE_CHUNK_CPU_SECONDS"


def chunk_cpu_limit() -> float:
    """The per-chunk limit: ``REFEREE_CHUNK_CPU_SECONDS`` if set (at most
    ``MAX_CHUNK_CPU_SECONDS``), else ``MAX_CHUNK_CPU_SECONDS``."""
    chosen = os.environ.get(LIMIT_ENV)
    return min(MAX_CHUNK_CPU_SECONDS, float(chosen)) if chosen else MAX_CHUNK_CPU_SECONDS


def chunk_budget(estimate: float, limit: float | None = None) -> float:
    """CPU seconds a chunk estimated at ``estimate`` may use.

    >>> chunk_budget(0.01, 120), chunk_budget(10, 120), chunk_budget(100, 120), chunk_budget(10, 0.5)
    (5.0, 20.0, 120, 0.5)
    """
    limit = chunk_cpu_limit() if limit is None else limit
    return min(limit, max(MIN_CHUNK_CPU_SECONDS, CPU_MARGIN * estimate))


class CpuDeadline:
    r"""The deadline of chunk ``chunk``: ``raise_if_past()`` raises ``ChunkTimeout`` once
    ``clock`` has advanced past the budget since it was made.

    >>> ticks = iter([0.0, 1.0, 7.5])
    >>> deadline = CpuDeadline(3, 2.0, lambda: next(ticks), limit=120)
    >>> deadline.raise_if_past()
    >>> try:
    ...     deadline.raise_if_past()
    ... except ChunkTimeout as exc:
    ...     print(str(exc).replace(" (", "\n("))
    chunk 3 used 7.50 s of CPU, past its budget of 5.00 s
    (its estimate 2.00 s ×2, at least 5 s, at most 120 s per chunk)
    """

    def __init__(self, chunk: int, estimate: float, clock: Callable[[], float],
                 limit: float | None = None):
        self.chunk, self.estimate, self.clock = chunk, estimate, clock
        self.limit = chunk_cpu_limit() if limit is None else limit
        self.budget = chunk_budget(estimate, self.limit)
        self.began = clock()

    def used(self) -> float:
        return self.clock() - self.began

    def raise_if_past(self) -> None:
        used = self.used()
        if used > self.budget:
            raise ChunkTimeout(
                f"chunk {self.chunk} used {used:.2f} s of CPU, past its budget of "
                f"{self.budget:.2f} s (its estimate {self.estimate:.2f} s ×{CPU_MARGIN:g}, at "
                f"least {MIN_CHUNK_CPU_SECONDS:g} s, at most {self.limit:g} s per chunk)")
