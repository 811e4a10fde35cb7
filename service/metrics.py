"""Prometheus metrics: request latency by route, evaluation job counters.

``GET /metrics`` (``service.http.metrics``) exposes them in the text format.
Under gunicorn each worker is a process with its own counters: with
``PROMETHEUS_MULTIPROC_DIR`` set to an empty directory writable by every
worker (the Procfile's gunicorn makes a fresh one at each start:
``service.gunicorn_conf``) one scrape shows the sum over all workers
(prometheus-client's multiprocess mode); without it a scrape shows the
figures of the worker that answered it.

Evaluation jobs are counted by kind and event: ``submitted`` and
``canceled`` when the API does it, ``finished`` and ``failed`` the first
time the API reports that end (a status poll; ``service.http.evaluations``
claims it once for all workers).

>>> observe_request("POST", "/v1/games/<game_id>/apply", 200, 0.0012)
>>> b"referee_http_request_duration_seconds_bucket" in exposition()[0]
True
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)

#: request latency buckets in seconds: the hot path answers in well under 1 ms
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

REQUEST_SECONDS = Histogram(
    "referee_http_request_duration_seconds", "Time to answer a request, by route and status.",
    ("method", "route", "status"), buckets=BUCKETS)
EVALUATIONS = Counter(
    "referee_evaluation_jobs",
    "Evaluation jobs submitted, canceled, finished or failed (the first status poll that "
    "reports the end), by kind.",
    ("kind", "event"))


#: (method, route, status) → its histogram child: ``labels()`` costs more than ``observe``
_REQUEST_CHILDREN: dict[tuple[str, str, int], Histogram] = {}


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    child = _REQUEST_CHILDREN.get((method, route, status))
    if child is None:
        child = _REQUEST_CHILDREN[method, route, status] = REQUEST_SECONDS.labels(
            method, route, str(status))
    child.observe(seconds)


def count_evaluation(kind: str, event: str) -> None:
    EVALUATIONS.labels(kind, event).inc()


def exposition() -> tuple[bytes, str]:
    """The metrics text and its content type (summed over processes in multiprocess mode)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
