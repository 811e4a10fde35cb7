"""Keep RQ workers running: start them, and start again any that exits.

An RQ worker quits for good on an error it does not handle — a Redis
outage (``ConnectionError``: "unhandled exception, quitting") is one — and
jobs then stay queued until someone restarts it.  This supervisor is the
Procfile's ``worker`` line (and so what ``make run`` starts)::

    python -m workers.supervise --url $REDIS_URL --workers 2

It runs ``--workers`` (default ``REFEREE_WORKERS`` or 1) processes of
``rq worker --url URL -w workers.worker.RefereeWorker referee`` and restarts
each one that exits, after a back-off that doubles from 1 s up to 10 s
(reset once a worker has run for a minute), so a worker started while Redis
is still down simply tries again.  SIGTERM or SIGINT stops the workers
(RQ's warm shutdown: a running job is finished first) and then the
supervisor; a second signal kills them.  On Linux a worker also gets
SIGTERM when the supervisor dies.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

QUEUE = "referee"
WORKER_CLASS = "workers.worker.RefereeWorker"
FIRST_BACKOFF = 1.0
MAX_BACKOFF = 10.0
#: a worker that ran this long is healthy again: its next restart is immediate
STABLE_SECONDS = 60.0


@dataclass
class Slot:
    """One worker the supervisor keeps alive."""

    index: int
    proc: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    backoff: float = 0.0
    restart_at: float = 0.0
    restarts: int = field(default=0)


def worker_command(url: str, extra: list[str]) -> list[str]:
    rq = Path(sys.executable).with_name("rq")
    return [str(rq) if rq.exists() else "rq", "worker", "--url", url, "-w", WORKER_CLASS,
            *extra, QUEUE]


def _die_with_parent() -> None:
    """In a child, before exec: on Linux, SIGTERM the worker if the supervisor
    dies (even by SIGKILL), so no worker outlives it unsupervised."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def log(message: str) -> None:
    print(f"supervise[{os.getpid()}]: {message}", file=sys.stderr, flush=True)


def next_backoff(previous: float, ran_for: float) -> float:
    """Seconds to wait before restarting a worker that ran ``ran_for`` seconds.

    >>> next_backoff(0.0, 0.5), next_backoff(1.0, 0.5), next_backoff(8.0, 2.0)
    (1.0, 2.0, 10.0)
    >>> next_backoff(8.0, 120.0)
    0.0
    """
    if ran_for >= STABLE_SECONDS:
        return 0.0
    return min(MAX_BACKOFF, max(FIRST_BACKOFF, 2 * previous))


def supervise(url: str, count: int, extra: list[str]) -> int:
    slots = [Slot(i) for i in range(count)]
    stopping = {"signals": 0}

    def stop(signum: int, _frame: FrameType | None) -> None:
        stopping["signals"] += 1
        for slot in slots:
            if slot.proc is not None and slot.proc.poll() is None:
                slot.proc.send_signal(signal.SIGTERM if stopping["signals"] == 1
                                      else signal.SIGKILL)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    command = worker_command(url, extra)
    while True:
        now = time.monotonic()
        for slot in slots:
            if slot.proc is not None:
                code = slot.proc.poll()
                if code is None:
                    continue
                slot.proc = None
                if stopping["signals"]:
                    continue
                ran = now - slot.started
                slot.backoff = next_backoff(slot.backoff, ran)
                slot.restart_at = now + slot.backoff
                slot.restarts += 1
                log(f"worker {slot.index} exited with {code} after {ran:.1f} s; "
                    f"restarting in {slot.backoff:.0f} s")
            if slot.proc is None and not stopping["signals"] and now >= slot.restart_at:
                slot.proc = subprocess.Popen(command, preexec_fn=_die_with_parent)
                slot.started = now
        if stopping["signals"] and all(s.proc is None or s.proc.poll() is not None
                                       for s in slots):
            return 0
        time.sleep(0.2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m workers.supervise", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", default=os.environ.get("REDIS_URL"),
                        help="Redis URL (default: REDIS_URL)")
    parser.add_argument("--workers", type=int,
                        default=int(os.environ.get("REFEREE_WORKERS") or 1),
                        help="worker processes to keep running (default: REFEREE_WORKERS or 1)")
    parser.add_argument("extra", nargs="*",
                        help="more `rq worker` options, after `--` "
                             "(e.g. -- --logging_level WARNING)")
    args = parser.parse_args(argv)
    if not args.url:
        parser.error("no Redis URL: pass --url or set REDIS_URL")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    return supervise(args.url, args.workers, args.extra)


if __name__ == "__main__":
    sys.exit(main())
