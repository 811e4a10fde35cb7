"""``GET /metrics``: Prometheus metrics (see ``service.metrics``)."""

from __future__ import annotations

from flask import Blueprint, Response

from service import metrics

bp = Blueprint("metrics", __name__)


@bp.get("/metrics")
def metrics_text() -> Response:
    """Request latency histograms by route, evaluation job counters, process figures."""
    text, content_type = metrics.exposition()
    return Response(text, content_type=content_type)
