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

from flask import Blueprint, Response, current_app
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


class EvaluationIdConverter(BaseConverter):
    """Any path segment but ``kinds``: so ``DELETE /v1/evaluations/kinds`` is a 405
    and ``OPTIONS`` there does not advertise the methods of ``/<eval_id>``."""

    regex = r"(?!kinds(?:/|$))[^/]+"


@bp.record_once
def _add_converter(state) -> None:
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
    return ext["runner"]


#: how an evaluation ends on its own, counted the first time the API reports it
#: (``Runner.first_report``: polls repeat and reach any worker)
ENDS = ("finished", "failed")


def _location(eval_id: str) -> str:
    return f"/v1/evaluations/{eval_id}"


def _lookup(fn, eval_id: str):
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
def _backend_down(exc: RedisError):
    """Redis unreachable or failing: 503, never a 500 (``/readyz`` says so too)."""
    return ProblemError.of("evaluation-backend-unavailable",
                           N_("the job queue (Redis) is not answering: {error}",
                              error=type(exc).__name__),
                           headers={"Retry-After": "5"}).response()


def _may_evaluate(who: seats.Caller, request: dict) -> None:
    """On a sealed state (``service.seats``): a ``suggest`` for a seat needs that seat's
    token (its ranking depends only on what the seat may see: ``docs/suggestions.md``);
    any other evaluation reads every hidden card, so it needs every seat's (the host)."""
    params = request.get("params")
    if request.get("kind") == "suggest" and isinstance(params, dict):
        seats.require(who, params.get("player"), "params.player")
    else:
        seats.require(who, seats.ALL, "state")


@bp.post("/v1/evaluations")
def submit():
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
def list_kinds():
    return json_response({"kinds": [k.describe() for k in kinds_mod.all_kinds()],
                          "backend": runner().backend})


@bp.get("/v1/evaluations/<evaluation_id:eval_id>")
def status(eval_id: str):
    run = runner()
    body = _lookup(run.status, eval_id)
    if body["status"] in ENDS and run.first_report(eval_id):
        metrics.count_evaluation(str(body.get("kind")), body["status"])
    headers = {}
    if body["status"] in ("queued", "started"):
        headers["Retry-After"] = "1"
    return json_response(body, headers=headers)


@bp.post("/v1/evaluations/<evaluation_id:eval_id>/cancel")
def cancel(eval_id: str):
    try:
        body = _lookup(runner().cancel, eval_id)
    except AlreadyOver as exc:
        raise ProblemError.of("evaluation-over",
                              N_("evaluation {id!r} has already {status}; nothing to cancel",
                                 id=eval_id, status=exc.status)) from None
    metrics.count_evaluation(str(body.get("kind")), "canceled")
    return json_response(body)


@bp.delete("/v1/evaluations/<evaluation_id:eval_id>")
def remove(eval_id: str):
    _lookup(runner().remove, eval_id)
    return Response(status=204)


# ------------------------------------------------------------------ openapi
EXTRA_ERRORS = {
    409: "The evaluation is already over (finished or failed): nothing to cancel.",
    410: "The evaluation existed but its result has expired; submit it again.",
}


def _schemas() -> dict[str, dict]:
    from service.games import shape

    problem_ref = {"$ref": "#/components/schemas/Problem"}
    kinds = sorted(kinds_mod.all_kinds(), key=lambda k: k.name)  # not import order
    inputs: dict = {}
    for kind in kinds:
        for name, spec in kind.inputs.items():
            inputs.setdefault(name, spec.schema())
    params = {}
    for kind in kinds:
        params.update(shape.Obj({}, kind.params).schema()["properties"])
    request = {
        "type": "object", "required": ["game", "kind"],
        "description": "An evaluation: `kind` says which inputs it takes — "
                       + "; ".join(f"`{k.name}`: {', '.join(k.inputs) or 'none'}" for k in kinds)
                       + ". Caps: " + "; ".join(f"`{k.name}` {k.caps}" for k in kinds if k.caps),
        "properties": {"game": {"type": "string"},
                       "kind": {"enum": [k.name for k in kinds]},
                       **inputs,
                       "params": {"type": "object", "properties": params,
                                  "additionalProperties": False,
                                  "description": "Kind parameters "
                                                 "(see GET /v1/evaluations/kinds)."}},
        "additionalProperties": False}
    when = {"type": ["string", "null"], "format": "date-time"}
    status = {
        "type": "object",
        "required": ["id", "game", "kind", "status", "progress", "submitted_at", "expires_at",
                     "chunks", "incidents"],
        "properties": {
            "id": {"type": "string"}, "game": {"type": "string"}, "kind": {"type": "string"},
            "status": {"enum": ["queued", "started", "finished", "failed", "canceled"]},
            "progress": {"type": "number", "minimum": 0, "maximum": 1},
            "submitted_at": {"type": "string", "format": "date-time"},
            "started_at": when, "finished_at": when,
            "expires_at": {**when, "description": "When a finished, failed or canceled "
                                                  "evaluation is forgotten (then 410)."},
            "chunks": {"type": "integer", "minimum": 1},
            "incidents": {"type": "array", "items": {"type": "object"},
                          "description": "E.g. a worker that died mid-chunk "
                                         "(`worker-died`) and what was done about it."},
            "result": {"type": "object", "description": "When finished: the kind's result."},
            "error": problem_ref,
        }}
    return {"EvaluationRequest": request, "EvaluationStatus": status,
            "EvaluationKinds": {"type": "object", "properties": {
                "kinds": {"type": "array", "items": {"type": "object"}},
                "backend": {"enum": ["embedded", "rq"]}}}}


def document(spec) -> None:
    """The evaluation routes in ``openapi.yaml`` (see ``service.openapi``)."""
    from service.openapi import ERROR_RESPONSES, body, error, ok
    from service.problems import PROBLEM_MIME

    for name, schema in _schemas().items():
        spec.components.schema(name, schema)
    for status, text in EXTRA_ERRORS.items():
        if status not in ERROR_RESPONSES:
            spec.components.response(str(status), {"description": text, "content": {
                PROBLEM_MIME: {"schema": {"$ref": "#/components/schemas/Problem"}}}})
    tags = ["evaluations"]
    eval_id = {"name": "eval_id", "in": "path", "required": True, "schema": {"type": "string"},
               "description": "The evaluation id (from `Location`)."}
    accepted = {"description": "Accepted: queued (or already done). `Location` is the "
                               "evaluation; poll it after `Retry-After` seconds.",
                "headers": {"Location": {"schema": {"type": "string"}},
                            "Retry-After": {"schema": {"type": "integer"}}},
                "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/EvaluationStatus"}}}}
    spec.path("/v1/evaluations", operations={"post": {
        "summary": "Submit an evaluation", "tags": tags,
        "description": "Validated first: nothing is queued for a request that cannot succeed "
                       "(400; a `suggest` for a seat with no decision pending: 422 citing the "
                       "turn order's clause). Runs on RQ workers with `REDIS_URL`, in-process "
                       "without.",
        "requestBody": body("EvaluationRequest", {
            "game": "tremble", "kind": "tremble.battle_odds", "strengths": [16, 17]}),
        "responses": {"202": accepted,
                      **{str(s): error(s) for s in (400, 401, 403, 405, 413, 415, 422, 429,
                                                    500, 503)}}}})
    spec.path("/v1/evaluations/kinds", operations={"get": {
        "summary": "Evaluation kinds, their inputs, params and caps", "tags": tags,
        "responses": {"200": ok("EvaluationKinds", "Every kind."),
                      "401": error(401), "405": error(405), "500": error(500)}}})
    spec.path("/v1/evaluations/{eval_id}", operations={
        "get": {"summary": "Status, progress, result or error of an evaluation", "tags": tags,
                "parameters": [eval_id],
                "responses": {"200": ok("EvaluationStatus", "The evaluation."),
                              **{str(s): error(s) for s in (401, 404, 405, 410, 500, 503)}}},
        "delete": {"summary": "Remove an evaluation (stopping it first if it still runs)",
                   "tags": tags, "parameters": [eval_id],
                   "description": "Forgets the evaluation — its status, result or error — "
                                  "whether it is queued, running, over or expired; a running "
                                  "one is stopped first. Afterwards every method on its "
                                  "address answers 404. To stop one and keep its status, "
                                  "`POST .../cancel`.",
                   "responses": {"204": {"description": "Removed."},
                                 **{str(s): error(s) for s in (401, 404, 405, 500, 503)}}}})
    spec.path("/v1/evaluations/{eval_id}/cancel", operations={"post": {
        "summary": "Cancel a queued or running evaluation", "tags": tags,
        "parameters": [eval_id],
        "description": "Stops it; its status stays readable (`canceled`) until it expires. "
                       "Cancelling a canceled one answers the same; one that finished or "
                       "failed is 409: an outcome never changes.",
        "responses": {"200": ok("EvaluationStatus", "Canceled."),
                      **{str(s): error(s) for s in (401, 404, 405, 409, 410, 429, 500,
                                                    503)}}}})
