"""``GET /metrics``: Prometheus metrics (see ``service.metrics``)."""

from __future__ import annotations

from flask import Response

from service import metrics
from service.http.route import Routes, Success

bp = Routes("metrics", __name__)


@bp.declare("get", "/metrics", operation_id="metrics", summary="Prometheus metrics",
            tags=("operations",),
            description="`referee_http_request_duration_seconds` (histogram by method, route, "
                        "status), `referee_evaluation_jobs_total` (by kind and event), process "
                        "figures. Per worker unless `PROMETHEUS_MULTIPROC_DIR` is set.",
            answers={200: Success("Prometheus text format.", content={
                "text/plain": {"schema": {"type": "string"}}})}, errors=(405, 500))
def metrics_text() -> Response:
    """Request latency histograms by route, evaluation job counters, process figures."""
    text, content_type = metrics.exposition()
    return Response(text, content_type=content_type)
