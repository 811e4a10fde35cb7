"""Every error as ``application/problem+json`` (RFC 9457).

One function builds a problem response (``problem``); ``from_error`` maps the
engines' errors (``service.games.errors``) to it; ``register`` installs the
app-wide handlers so that no error — an unknown route, a wrong method, a body
too large, a bug — ever produces Flask's HTML page.

Problem fields: ``type`` (``https://referee.dev/problems/<slug>``), ``title``,
``status``, ``detail``; plus ``rule`` (and ``index`` in a replay) for an
illegal action, ``errors`` (field path → messages) for a malformed request,
``violations`` for an invalid setup.

Blueprints raise engine errors or ``werkzeug`` HTTP exceptions, or return
``problem(...)`` directly:

>>> from flask import Flask
>>> with Flask(__name__).app_context():
...     r = problem(404, "unknown-game", "Unknown game", "no game 'chess'")
>>> r.status_code, r.mimetype
(404, 'application/problem+json')
"""

from __future__ import annotations

import logging

import orjson
from flask import Flask, Response, current_app, has_app_context
from werkzeug.exceptions import HTTPException

from service.games.errors import InvalidSetup, MalformedInput, RefereeError, RuleViolation

PROBLEM_BASE = "https://referee.dev/problems/"
PROBLEM_MIME = "application/problem+json"

log = logging.getLogger("referee")

#: slug and title of each HTTP status the service answers with on its own
HTTP_PROBLEMS = {
    400: ("bad-request", "Bad request"),
    404: ("not-found", "Not found"),
    405: ("method-not-allowed", "Method not allowed"),
    413: ("payload-too-large", "Request body too large"),
    415: ("unsupported-media-type", "Unsupported media type"),
    429: ("too-many-requests", "Too many requests"),
    500: ("internal-error", "Internal server error"),
    503: ("not-ready", "Service not ready"),
}


def problem(status: int, slug: str, title: str, detail: str,
            headers: dict | None = None, **extra) -> Response:
    """A problem+json response; ``extra`` adds members (``rule``, ``errors``…)."""
    body = {"type": PROBLEM_BASE + slug, "title": title, "status": status, "detail": detail}
    body.update(extra)
    return Response(orjson.dumps(body), status=status, mimetype=PROBLEM_MIME, headers=headers)


class ProblemError(Exception):
    """Raise to answer with a problem from anywhere in a request.

    >>> ProblemError(404, "unknown-game", "Unknown game", "no game 'chess'").status
    404
    """

    def __init__(self, status: int, slug: str, title: str, detail: str, **extra):
        super().__init__(detail)
        self.status, self.slug, self.title, self.detail, self.extra = status, slug, title, detail, extra

    def response(self) -> Response:
        return problem(self.status, self.slug, self.title, self.detail, **self.extra)


def from_error(exc: RefereeError) -> Response:
    """The problem for an engine error (400, 422…), with its specific members."""
    extra: dict = {}
    if isinstance(exc, RuleViolation):
        extra["rule"] = exc.rule
        if exc.index is not None:
            extra["index"] = exc.index
        detail = exc.reason
    elif isinstance(exc, MalformedInput):
        extra["errors"] = capped(exc.errors)
        detail = exc.detail
    elif isinstance(exc, InvalidSetup):
        extra["violations"] = exc.violations
        detail = str(exc)
    else:
        detail = str(exc)
    return problem(exc.status, exc.slug, exc.title, detail, **extra)


MAX_ERRORS = 50


def capped(errors: dict[str, list[str]], limit: int = MAX_ERRORS) -> dict[str, list[str]]:
    """At most ``limit`` field paths, so a body with 100 000 bad keys gets a short answer.

    >>> capped({f"options.o{i}": ["unknown option"] for i in range(60)}, 2)
    {'options.o0': ['unknown option'], 'options.o1': ['unknown option'], '…': ['and 58 more fields']}
    """
    if len(errors) <= limit:
        return errors
    kept = dict(list(errors.items())[:limit])
    kept["…"] = [f"and {len(errors) - limit} more fields"]
    return kept


def from_http(exc: HTTPException) -> Response:
    """The problem for a werkzeug HTTP exception (404, 405, 413, 415…)."""
    status = exc.code or 500
    slug, title = HTTP_PROBLEMS.get(status, (f"http-{status}", exc.name))
    headers = {}
    if status == 405:
        allowed = getattr(exc, "valid_methods", None) or []
        headers["Allow"] = ", ".join(sorted(allowed))
    detail = exc.description or exc.name
    if status == 413:
        limit = current_app.config.get("MAX_CONTENT_LENGTH") if has_app_context() else None
        if limit:
            detail = f"the request body is over {limit} bytes (MAX_CONTENT_LENGTH)"
    return problem(status, slug, title, detail, headers=headers)


def register(app: Flask) -> None:
    """Install the handlers: engine errors, HTTP errors, and a catch-all 500."""

    @app.errorhandler(RefereeError)
    def _referee_error(exc: RefereeError):
        return from_error(exc)

    @app.errorhandler(ProblemError)
    def _problem_error(exc: ProblemError):
        return exc.response()

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        return from_http(exc)

    @app.errorhandler(Exception)
    def _unexpected(exc: Exception):
        log.exception("unhandled error")
        slug, title = HTTP_PROBLEMS[500]
        return problem(500, slug, title, "the service failed to handle this request; "
                                         "the error has been logged")
