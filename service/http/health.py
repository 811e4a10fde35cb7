"""Health and the document: liveness, readiness, the OpenAPI document and offline docs.

``/docs`` is Swagger UI 5 (it renders OpenAPI 3.1) served from the assets
that the ``swagger-ui-py`` package ships, so the page works with no internet
access: nothing is loaded from a CDN.
"""

from __future__ import annotations

import importlib.util
import pathlib
from datetime import UTC
from typing import TYPE_CHECKING, Any

from flask import Response, current_app, send_from_directory
from werkzeug.exceptions import NotFound

from service.games.messages import N_, join_messages
from service.http.body import json_response
from service.http.route import Param, Routes, Success
from service.problems import problem

if TYPE_CHECKING:
    from redis import Redis

bp = Routes("health", __name__)
#: the errors every GET of this module may answer
_ERRORS = (405, 500)

#: the Swagger UI files /docs needs, all from the swagger-ui-py package
DOCS_ASSETS = ("swagger-ui.css", "swagger-ui-bundle.js", "swagger-ui-standalone-preset.js",
               "favicon-32x32.png", "favicon-16x16.png")

DOCS_PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>referee API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/swagger-ui-standalone-preset.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: "/openapi.yaml",
      dom_id: "#swagger-ui",
      deepLinking: true,
      presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
      layout: "StandaloneLayout",
      validatorUrl: null
    });
  </script>
</body>
</html>
"""


def swagger_ui_dir() -> pathlib.Path:
    """The ``static`` folder of the installed ``swagger_ui`` package (not imported)."""
    spec = importlib.util.find_spec("swagger_ui")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the swagger-ui-py package is not installed; pip install -e .")
    return pathlib.Path(next(iter(spec.submodule_search_locations))) / "static"


@bp.declare("get", "/healthz", operation_id="healthz", summary="Liveness", tags=("operations",),
            answers={200: Success("The process is alive.", schema="Health",
                                 example={"status": "ok"})}, errors=_ERRORS)
def healthz() -> Response:
    """The process is alive (nothing else is checked)."""
    return json_response({"status": "ok"})


#: a worker whose last heartbeat is older than this is not counted as live
#: (RefereeWorker beats at least every 15 s while idle, every 30 s while busy;
#: a worker killed without deregistering is still counted this long)
WORKER_LIVE_SECONDS = 60


@bp.declare("get", "/readyz", operation_id="readyz", summary="Readiness", tags=("operations",),
            answers={200: Success("Card data loaded; Redis reachable when configured.",
                                 schema="Ready", example={
                                     "status": "ready",
                                     "checks": {"card_data": "ok", "redis": "not configured"}})},
            errors=(*_ERRORS, 503))
def readyz() -> Response:
    """Card data loaded; with ``REDIS_URL``, Redis answering and at least one
    live RQ worker listening on the evaluations queue (``workers``: how many)."""
    checks: dict[str, Any] = {"card_data": "ok" if current_app.extensions["referee"]["cards_loaded"]
                    else "not loaded"}
    url = current_app.config.get("REDIS_URL")
    if url:
        checks["redis"], workers = _redis_check(url)
        if workers is not None:
            checks["workers"] = workers
            if not workers:
                checks["evaluations"] = N_("no RQ worker listens on the queue: evaluations "
                                           "would wait")
    else:
        checks["redis"] = "not configured"
    failing = {k: v for k, v in checks.items()
               if k != "workers" and v not in ("ok", "not configured")}
    if failing:
        return problem(503, "not-ready", "Service not ready",
                       join_messages(N_("{check}: {state}", check=k, state=v)
                                     for k, v in failing.items()), checks=checks)
    return json_response({"status": "ready", "checks": checks})


def _redis_check(url: str) -> tuple[str, int | None]:
    """Redis's state, and how many live workers listen on the evaluations queue."""
    import redis

    try:
        timeout = current_app.extensions["referee"].get("redis_timeout") or 1
        client = redis.Redis.from_url(url, socket_connect_timeout=timeout,
                                      socket_timeout=timeout)
        try:
            client.ping()
            return "ok", live_workers(client)
        finally:
            client.close()
    except Exception as exc:  # any failure means "not ready", with its reason
        return f"unreachable ({type(exc).__name__}: {exc})", None


def live_workers(connection: Redis) -> int:
    """RQ workers registered on the evaluations queue with a recent heartbeat."""
    from datetime import datetime

    from rq import Queue, Worker

    from service.evaluations.rq_runner import QUEUE

    now = datetime.now(UTC)
    live = 0
    for worker in Worker.all(queue=Queue(QUEUE, connection=connection)):
        beat = worker.last_heartbeat
        if beat is not None and beat.tzinfo is None:
            beat = beat.replace(tzinfo=UTC)
        if beat is not None and (now - beat).total_seconds() <= WORKER_LIVE_SECONDS:
            live += 1
    return live


@bp.declare("get", "/openapi.yaml", operation_id="openapi_document", summary="This document",
            tags=("operations",), cacheable=True,
            answers={200: Success("OpenAPI 3.1, YAML.", content={
                "application/yaml": {"schema": {"type": "object"}}})}, errors=_ERRORS)
def openapi_yaml() -> Response:
    """The OpenAPI 3.1 document (the same text as the committed ``openapi.yaml``), built
    once by the function the app gives (``DOCUMENT_KEY``: the document is built from the
    routes, above this layer)."""
    ext = current_app.extensions["referee"]
    if "openapi_yaml" not in ext:
        ext["openapi_yaml"] = ext[DOCUMENT_KEY]()
    return Response(ext["openapi_yaml"], mimetype="application/yaml")


#: ``app.extensions["referee"][DOCUMENT_KEY]()``: the document's YAML text (``service.app``)
DOCUMENT_KEY = "openapi_yaml_source"


#: the inline script of ``DOCS_PAGE`` allowed by its hash; Swagger UI sets inline styles
DOCS_CSP = ("default-src 'self'; script-src 'self' '{script}'; style-src 'self' "
            "'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'")


def _docs_csp() -> str:
    import base64
    import hashlib
    import re

    script = re.search(r"<script>(.*?)</script>", DOCS_PAGE, re.S)
    assert script is not None
    digest = base64.b64encode(hashlib.sha256(script.group(1).encode()).digest()).decode()
    return DOCS_CSP.format(script="sha256-" + digest)


@bp.declare("get", "/docs", operation_id="docs_page",
            summary="Interactive API docs (Swagger UI, works offline)", tags=("operations",),
            answers={200: Success("An HTML page.", content={
                "text/html": {"schema": {"type": "string"}}})}, errors=_ERRORS)
def docs() -> Response:
    """Interactive API docs (Swagger UI), served entirely by this service; never
    inside another site's frame, and no script but its own."""
    ext = current_app.extensions["referee"]
    if "docs_csp" not in ext:
        ext["docs_csp"] = _docs_csp()
    return Response(DOCS_PAGE, mimetype="text/html",
                    headers={"Content-Security-Policy": ext["docs_csp"],
                             "X-Frame-Options": "DENY"})


@bp.declare("get", "/docs/assets/{name}", operation_id="docs_asset",
            summary="Static assets of the docs page", tags=("operations",),
            parameters=(Param("name", {"name": "name", "in": "path", "required": True,
                                       "schema": {"type": "string"}}),),
            answers={200: Success("A CSS, JavaScript or image file.", content={
                "text/css": {"schema": {"type": "string"}},
                "text/javascript": {"schema": {"type": "string"}},
                "image/png": {"schema": {"type": "string"}}})}, errors=(404, *_ERRORS))
def docs_asset(name: str) -> Response:
    if name not in DOCS_ASSETS:
        raise NotFound(f"no docs asset {name!r}")
    return send_from_directory(swagger_ui_dir(), name, max_age=86400)
