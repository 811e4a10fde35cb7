"""``GET /metrics``: Prometheus metrics (see ``service.metrics``)."""

from __future__ import annotations

from flask import Blueprint, Response

from service import metrics

bp = Blueprint("metrics", __name__)


@bp.get("/metrics")
def metrics_text():
    """Request latency histograms by route, evaluation job counters, process figures."""
    text, content_type = metrics.exposition()
    return Response(text, content_type=content_type)


def document(spec) -> None:
    from service.openapi import error

    spec.path("/metrics", operations={"get": {
        "summary": "Prometheus metrics", "tags": ["operations"],
        "description": "`referee_http_request_duration_seconds` (histogram by method, route, "
                       "status), `referee_evaluation_jobs_total` (by kind and event), process "
                       "figures. Per worker unless `PROMETHEUS_MULTIPROC_DIR` is set.",
        "responses": {"200": {"description": "Prometheus text format.", "content": {
            "text/plain": {"schema": {"type": "string"}}}},
            "405": error(405), "500": error(500)}}})
