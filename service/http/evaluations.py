"""``/v1/evaluations``: long questions as jobs.

* ``POST /v1/evaluations`` ``{game, kind, ...inputs, params?}`` → 202 with
  ``Location`` and ``Retry-After``; the body is the evaluation's status.
  Everything is validated first: a request that cannot succeed is refused
  (400/422) and nothing is queued.
* ``GET /v1/evaluations/{id}`` → status, progress, result or error, expiry;
  an unknown (or removed) id → 404, an expired one → 410.
* ``POST /v1/evaluations/{id}/cancel`` → stops a queued or running
  evaluation (200 with its status, ``canceled``; again 200 for one already
  canceled); one already finished or failed → 409: an outcome never changes.
* ``DELETE /v1/evaluations/{id}`` → removes the evaluation, stopping it
  first if it still runs (204); its id then answers 404 to every method.
* ``GET /v1/evaluations/kinds`` → the kinds, their inputs, params and caps.

(``POST /v1/games/tremble/odds``, the odds at once, is Tremble's own
operation: ``service.games.tremble.operations``.)

Configuration (app config or environment): ``EVALUATION_RESULT_TTL``
(seconds a finished evaluation is kept, default 3600);
``REFEREE_MAX_QUEUED`` (the queue cap: chunks waiting to start, default
256; over it a submission is refused with 503 ``evaluations-busy`` and
``Retry-After``); ``REFEREE_EVALUATION_STORE`` (the embedded runner's SQLite
file, to share one on purpose; ``EVALUATION_DB`` is the older name; default:
one file per service instance, see ``runner.store_path``).

Where the jobs run: with ``REDIS_URL`` on RQ workers (queue ``referee``),
without it in this process (``EmbeddedRunner``) — same routes, same shapes;
this module talks to either through ``runner.Runner`` only.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Blueprint, Response, current_app
from flask.blueprints import BlueprintSetupState
from redis.exceptions import RedisError
from werkzeug.routing import BaseConverter

from service import metrics, seats, signing
from service.evaluations import kinds as kinds_mod
from service.evaluations.runner import (
    BUSY_RETRY_AFTER,
    RESULT_TTL,
    AlreadyOver,
    Busy,
    EmbeddedRunner,
    ExpiredEvaluation,
    Runner,
    UnknownEvaluation,
    configured_max_queued,
    retry_after,
    store_path,
)
from service.games.messages import N_
from service.http.body import json_response, read_json
from service.problems import ProblemError

bp = Blueprint("evaluations", __name__)
T = TypeVar("T")


class EvaluationIdConverter(BaseConverter):
    """Any path segment but ``kinds``: so ``DELETE /v1/evaluations/kinds`` is a 405
    and ``OPTIONS`` there does not advertise the methods of ``/<eval_id>``."""

    regex = r"(?!kinds(?:/|$))[^/]+"


@bp.record_once
def _add_converter(state: BlueprintSetupState) -> None:
    state.app.url_map.converters.setdefault("evaluation_id", EvaluationIdConverter)

_lock = threading.Lock()


def runner() -> Runner:
    """This app's runner: RQ when ``REDIS_URL`` is configured, else embedded."""
    ext = current_app.extensions.setdefault("evaluations", {})
    if "runner" not in ext:
        with _lock:
            if "runner" not in ext:
                url = current_app.config.get("REDIS_URL")
                ttl = int(current_app.config.get("EVALUATION_RESULT_TTL")
                          or os.environ.get("EVALUATION_RESULT_TTL") or RESULT_TTL)
                cap = int(current_app.config.get("REFEREE_MAX_QUEUED")
                          or configured_max_queued())
                chosen: Runner
                if url:
                    from service.evaluations.rq_runner import RQRunner
                    chosen = RQRunner(url, result_ttl=ttl, max_queued=cap,
                                      timeout=current_app.extensions["referee"].get(
                                          "redis_timeout"))
                else:
                    chosen = EmbeddedRunner(
                        result_ttl=ttl, db_path=store_path(current_app.config), max_queued=cap)
                ext["runner"] = chosen
    found: Runner = ext["runner"]
    return found


#: how an evaluation ends on its own, counted the first time the API reports it
#: (``Runner.first_report``: polls repeat and reach any worker)
ENDS = ("finished", "failed")


def _location(eval_id: str) -> str:
    return f"/v1/evaluations/{eval_id}"


def _lookup(fn: Callable[[str], T], eval_id: str) -> T:
    try:
        return fn(eval_id)
    except UnknownEvaluation:
        raise ProblemError.of("unknown-evaluation",
                              N_("no evaluation {id!r}", id=eval_id)) from None
    except ExpiredEvaluation as exc:
        detail = (N_("evaluation {id!r} has expired (at {at}); submit it again",
                     id=eval_id, at=exc.expired_at) if exc.expired_at else
                  N_("evaluation {id!r} has expired; submit it again", id=eval_id))
        raise ProblemError.of("evaluation-expired", detail) from None


@bp.errorhandler(RedisError)
def _backend_down(exc: RedisError) -> Response:
    """Redis unreachable or failing: 503, never a 500 (``/readyz`` says so too)."""
    return ProblemError.of("evaluation-backend-unavailable",
                           N_("the job queue (Redis) is not answering: {error}",
                              error=type(exc).__name__),
                           headers={"Retry-After": "5"}).response()


def _may_evaluate(who: seats.Caller, request: dict[str, Any]) -> None:
    """On a sealed state (``service.seats``): a ``suggest`` for a seat needs that seat's
    token (its ranking depends only on what the seat may see: ``docs/suggestions.md``);
    any other evaluation reads every hidden card, so it needs every seat's (the host)."""
    params = request.get("params")
    if request.get("kind") == "suggest" and isinstance(params, dict):
        seats.require(who, params.get("player"), "params.player")
    else:
        seats.require(who, seats.ALL, "state")


@bp.post("/v1/evaluations")
def submit() -> Response:
    request = read_json()
    if "state" in request:
        sent = request["state"]
        request["state"] = signing.accept(sent)
        _may_evaluate(signing.caller(sent), request)
    kind, plan = kinds_mod.prepare(request)
    try:
        body = runner().submit(kind, plan, plan.get("game") or (kind.games or ("",))[0])
    except Busy as exc:
        raise ProblemError.of("evaluations-busy", N_("{why}; retry later", why=exc.args[0]),
                              headers={"Retry-After": str(BUSY_RETRY_AFTER)}) from None
    metrics.count_evaluation(kind.name, "submitted")
    wait = retry_after(kind, plan)
    return json_response(body, 202, headers={"Location": _location(body["id"]),
                                             "Retry-After": str(wait)})


@bp.get("/v1/evaluations/kinds")
def list_kinds() -> Response:
    return json_response({"kinds": [k.describe() for k in kinds_mod.all_kinds()],
                          "backend": runner().backend})


@bp.get("/v1/evaluations/<evaluation_id:eval_id>")
def status(eval_id: str) -> Response:
    run = runner()
    body = _lookup(run.status, eval_id)
    if body["status"] in ENDS and run.first_report(eval_id):
        metrics.count_evaluation(str(body.get("kind")), body["status"])
    headers = {}
    if body["status"] in ("queued", "started"):
        headers["Retry-After"] = "1"
    return json_response(body, headers=headers)


@bp.post("/v1/evaluations/<evaluation_id:eval_id>/cancel")
def cancel(eval_id: str) -> Response:
    try:
        body = _lookup(runner().cancel, eval_id)
    except AlreadyOver as exc:
        raise ProblemError.of("evaluation-over",
                              N_("evaluation {id!r} has already {status}; nothing to cancel",
                                 id=eval_id, status=exc.status)) from None
    metrics.count_evaluation(str(body.get("kind")), "canceled")
    return json_response(body)


@bp.delete("/v1/evaluations/<evaluation_id:eval_id>")
def remove(eval_id: str) -> Response:
    _lookup(runner().remove, eval_id)
    return Response(status=204)
