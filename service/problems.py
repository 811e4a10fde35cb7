"""Every error as ``application/problem+json`` (RFC 9457).

One function builds a problem response (``problem``); ``from_error`` maps the
engines' errors (``service.games.errors``) to it; ``register`` installs the
app-wide handlers so that no error — an unknown route, a wrong method, a body
too large, a bug — ever produces Flask's HTML page.

Problem fields: ``type``, ``title``, ``status``, ``detail``, ``instance``;
plus ``rule`` (and ``index`` in a replay) for an illegal action, ``errors``
(field path → messages) for a malformed request, ``violations`` for an
invalid setup.

**Types resolve.** ``type`` is the relative URI ``/problems/<slug>``: this
server serves a page for it (``GET /problems/<slug>``, and ``GET /problems``
lists them; ``service.http.rules``).  RFC 9457 §3.1.1 allows a relative type
(resolved against the request URL, it lands on this server) and recommends
the full path; it is kept relative so that the same error has the same type
on every host and behind any proxy, and so that a worker with no request at
hand (an evaluation's failure) can name it too.  Every slug is a row of
``PROBLEM_TYPES`` (``service.problem_types``: the rows and the members of each
refusal, without Flask, shared with the in-process library): add a row there to add
a kind of error.  The engines' exceptions carry no HTTP: ``ERROR_TYPES`` maps each
exception class to its row, and ``evaluation_problem`` builds every problem an evaluation records.

**Instance.** ``instance`` is ``urn:referee:request:<X-Request-Id>``: the id
the response carries and the log lines share.

**Clauses.** A problem that names a clause (``rule``, or ``rule`` inside each
of ``violations``) also carries ``rule_text``, the clause's short text from
the rules reference (``service.rules_reference``) in the request's
``Accept-Language`` (en or ru), and ``rule_url``, where the service serves the
whole clause.  An option error gets ``clauses``: option field → the same
three members, for each option that names its clause.

**Language.** ``title``, ``detail``, ``errors`` messages and each
violation's ``reason`` come in the request's ``Accept-Language`` (``en`` by
default, or ``ru``; ``service.i18n``), and every problem says which in
``Content-Language`` (with ``Vary: Accept-Language``).  Engines raise
English ``service.games.messages.N_`` messages; they are rendered here.

Blueprints raise engine errors or ``werkzeug`` HTTP exceptions, or return
``problem(...)`` directly:

>>> from flask import Flask
>>> with Flask(__name__).app_context():
...     r = problem(404, "unknown-game", "Unknown game", "no game 'chess'")
>>> r.status_code, r.mimetype, r.json["type"]
(404, 'application/problem+json', '/problems/unknown-game')
"""

from __future__ import annotations

import logging
import traceback
from dataclasses import dataclass
from typing import Any

import orjson
from flask import Flask, Response, current_app, has_app_context, has_request_context, request
from werkzeug.exceptions import HTTPException

from service.games.errors import RefereeError
from service.games.messages import N_
from service.i18n import mark_language, request_language
from service.problem_types import PROBLEM_MIME, PROBLEM_TYPES, error_members, problem_body, type_of

#: ``instance``: the request id as a URN
INSTANCE_PREFIX = "urn:referee:request:"
#: the WSGI environ key of this request's id (``service.middleware.RequestEdges`` sets it)
REQUEST_ID_ENVIRON = "referee.request_id"

log = logging.getLogger("referee")


#: the slug of each HTTP status the service answers with on its own (werkzeug errors)
HTTP_PROBLEMS = {t.status: (t.slug, t.title) for t in PROBLEM_TYPES.values()
                 if t.slug in ("bad-request", "not-found", "method-not-allowed",
                               "payload-too-large", "unsupported-media-type",
                               "too-many-requests", "internal-error", "not-ready")}



def evaluation_problem(detail: str, slug: str = "evaluation-failed",
                       **extra: Any) -> dict[str, Any]:
    """The problem+json object an evaluation records as its ``error`` (the one
    builder of the embedded runner, the RQ runner and the jobs): the type's
    title and status from ``PROBLEM_TYPES``, English (the status route
    translates nothing recorded).

    >>> evaluation_problem("chunk 3 failed: boom")["type"]
    '/problems/evaluation-failed'
    """
    row = PROBLEM_TYPES[slug]
    return {"type": row.uri, "title": row.title, "status": row.status, "detail": detail,
            **extra}


def failure_problem(exc: BaseException, where: str = "") -> dict[str, Any]:
    """The ``error`` of an evaluation that failed with ``exc``: its problem type
    when it has one (an engine error, a timeout), else ``evaluation-failed``
    with the exception's last line.

    >>> from service.games.errors import RuleViolation
    >>> failure_problem(RuleViolation("TRE-20", "no"), "aggregation")["detail"]
    'aggregation: TRE-20: no'
    >>> failure_problem(ZeroDivisionError("division by zero"))["detail"]
    'ZeroDivisionError: division by zero'
    """
    prefix = f"{where}: " if where else ""
    row = type_of(exc)
    if row is None:
        last = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return evaluation_problem(prefix + last)
    rule = getattr(exc, "rule", None)
    return evaluation_problem(prefix + str(exc), row.slug, **({"rule": rule} if rule else {}))


@dataclass(frozen=True)
class Rendered:
    """A problem as its status, body and headers: what an HTTP answer sends (``response``)
    and what a batch item holds (``service.http.batch``: the same body, no response)."""

    status: int
    body: dict[str, Any]
    headers: dict[str, Any] | None = None

    def response(self) -> Response:
        out = Response(orjson.dumps(self.body), status=self.status, mimetype=PROBLEM_MIME,
                       headers=self.headers)
        return mark_language(out, request_language())


def rendered_problem(status: int, slug: str, title: str, detail: str,
                     headers: dict[str, Any] | None = None, **extra: Any) -> Rendered:
    """A problem+json body; ``extra`` adds members (``rule``, ``errors``…).

    A member naming a clause gets its text and link (``with_rule_links``).
    """
    rid = request.environ.get(REQUEST_ID_ENVIRON) if has_request_context() else None
    body = problem_body(status, slug, title, detail, request_language(),
                        INSTANCE_PREFIX + rid if rid else None, **extra)
    return Rendered(status, body, headers)


def problem(status: int, slug: str, title: str, detail: str,
            headers: dict[str, Any] | None = None, **extra: Any) -> Response:
    """A problem+json response (``rendered_problem``, sent)."""
    return rendered_problem(status, slug, title, detail, headers, **extra).response()


class ProblemError(Exception):
    """Raise to answer with a problem from anywhere in a request.

    >>> ProblemError(404, "unknown-game", "Unknown game", "no game 'chess'").status
    404
    """

    def __init__(self, status: int, slug: str, title: str, detail: str,
                 headers: dict[str, Any] | None = None, **extra: Any) -> None:
        super().__init__(detail)
        self.status, self.slug, self.title = status, slug, title
        self.detail, self.headers, self.extra = detail, headers, extra

    @classmethod
    def of(cls, slug: str, detail: str, headers: dict[str, Any] | None = None,
           **extra: Any) -> ProblemError:
        """The problem of a row of ``PROBLEM_TYPES``: its status and title.

        >>> ProblemError.of("unknown-evaluation", "no evaluation 'x'").status
        404
        """
        row = PROBLEM_TYPES[slug]
        assert row.status is not None, slug
        return cls(row.status, slug, row.title, detail, headers, **extra)

    def rendered(self) -> Rendered:
        return rendered_problem(self.status, self.slug, self.title, self.detail, self.headers,
                                **self.extra)

    def response(self) -> Response:
        return self.rendered().response()


def from_error(exc: RefereeError) -> Rendered:
    """The problem for an engine error (400, 422…), with its specific members
    (``problem_types.error_members``; the options' clauses of the game in the path)."""
    game_id = (request.view_args or {}).get("game_id") if has_request_context() else None
    row, detail, extra = error_members(exc, request_language(), game_id)
    return rendered_problem(row.status or 400, row.slug, row.title, detail, **extra)


#: werkzeug's own descriptions (its English, unchanged), marked so that they are translated
WERKZEUG_DETAILS: dict[str, str] = {m: m for m in (
    N_("The browser (or proxy) sent a request that this server could not understand."),
    N_("The requested URL was not found on the server. If you entered the URL manually please "
       "check your spelling and try again."),
    N_("The method is not allowed for the requested URL."),
    N_("The data value transmitted exceeds the capacity limit."),
    N_("The server does not support the media type transmitted in the request."),
    N_("This user has exceeded an allotted request count. Try again later."),
    N_("The server encountered an internal error and was unable to complete your request. "
       "Either the server is overloaded or there is an error in the application."),
    N_("The server is temporarily unable to service your request due to maintenance downtime "
       "or capacity problems. Please try again later."),
)}


def from_http(exc: HTTPException) -> Rendered:
    """The problem for a werkzeug HTTP exception (404, 405, 413, 415…)."""
    status = exc.code or 500
    slug, title = HTTP_PROBLEMS.get(status, ("http-error", exc.name))
    headers = {}
    if status == 405:
        allowed = getattr(exc, "valid_methods", None) or []
        headers["Allow"] = ", ".join(sorted(allowed))
    detail = exc.description or exc.name
    detail = WERKZEUG_DETAILS.get(detail, detail)
    if status == 413:
        limit = current_app.config.get("MAX_CONTENT_LENGTH") if has_app_context() else None
        if limit:
            detail = N_("the request body is over {limit} bytes (MAX_CONTENT_LENGTH)",
                        limit=limit)
    return rendered_problem(status, slug, title, detail, headers=headers)


def rendered(exc: BaseException) -> Rendered:
    """The problem an exception raised while answering is sent as: an engine error, a
    ``ProblemError``, a werkzeug HTTP error, or anything else as a logged 500.  The one
    mapping of the app's error handlers (``register``) and of a batch item."""
    if isinstance(exc, ProblemError):
        return exc.rendered()
    if isinstance(exc, RefereeError):
        return from_error(exc)
    if isinstance(exc, HTTPException):
        return from_http(exc)
    log.exception("unhandled error", exc_info=exc)
    slug, title = HTTP_PROBLEMS[500]
    return rendered_problem(500, slug, title, N_("the service failed to handle this request; "
                                                 "the error has been logged"))


def register(app: Flask) -> None:
    """Install the handlers: engine errors, HTTP errors, and a catch-all 500 (``rendered``)."""

    @app.errorhandler(Exception)
    def _problem(exc: Exception) -> Response:
        return rendered(exc).response()
