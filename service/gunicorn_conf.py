"""gunicorn settings of the Procfile's ``web`` line (``--config python:service.gunicorn_conf``).

Metrics of every worker in one scrape: before the first worker starts, the
master points ``PROMETHEUS_MULTIPROC_DIR`` at a fresh empty directory (made
for this start, removed when the master exits), so ``/metrics``
(``service.metrics``) sums the figures of all workers — prometheus-client's
multiprocess mode, which needs the directory empty at each start.  A
directory the operator set is kept (their choice; it must be emptied
between starts).  When a worker exits its live figures are retired
(``mark_process_dead``); its counters stay in the sums.

Everything else (workers, bind address) stays on the command line.
"""

from __future__ import annotations

import os
import shutil
import tempfile

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
_made: list[str] = []


def fresh_metrics_dir() -> str:
    """Set ``PROMETHEUS_MULTIPROC_DIR`` to a new empty directory unless already set."""
    given = os.environ.get(MULTIPROC_ENV)
    if given:
        os.makedirs(given, exist_ok=True)
        return given
    path = tempfile.mkdtemp(prefix="referee-metrics-")
    _made.append(path)
    os.environ[MULTIPROC_ENV] = path
    return path


def on_starting(server) -> None:
    path = fresh_metrics_dir()
    server.log.info("metrics of all workers: %s=%s", MULTIPROC_ENV, path)


def child_exit(server, worker) -> None:
    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)


def on_exit(server) -> None:
    while _made:
        shutil.rmtree(_made.pop(), ignore_errors=True)
