"""``/v1/evaluations``: long questions as jobs; ``/v1/games/tremble/odds`` at once.

* ``POST /v1/evaluations`` ``{game, kind, ...inputs, params?}`` → 202 with
  ``Location`` and ``Retry-After``; the body is the evaluation's status.
  Everything is validated first: a request that cannot succeed is refused
  (400/422) and nothing is queued.
* ``GET /v1/evaluations/{id}`` → status, progress, result or error, expiry;
  an unknown id → 404, an expired one → 410.
* ``DELETE /v1/evaluations/{id}`` → cancels a queued or running evaluation
  (200 with its status); one already finished or failed → 409.
* ``GET /v1/evaluations/kinds`` → the kinds, their inputs, params and caps.
* ``POST /v1/games/tremble/odds`` → exact battle odds synchronously.

Configuration: ``EVALUATION_RESULT_TTL`` (seconds a finished evaluation is
kept, default 3600; the app config or the environment).

Where the jobs run: with ``REDIS_URL`` on RQ workers (queue ``referee``),
without it in this process (``EmbeddedRunner``) — same routes, same shapes.
"""

from __future__ import annotations

import os
import threading

from flask import Blueprint, current_app
from redis.exceptions import RedisError

from service.evaluations import kinds as kinds_mod
from service.evaluations.battle import odds_result
from service.evaluations.runner import (RESULT_TTL, AlreadyOver, EmbeddedRunner,
                                        ExpiredEvaluation, UnknownEvaluation, retry_after)
from service.problems import ProblemError, problem

from .body import json_response, read_json

bp = Blueprint("evaluations", __name__)

_lock = threading.Lock()


def runner():
    """This app's runner: RQ when ``REDIS_URL`` is configured, else embedded."""
    ext = current_app.extensions.setdefault("evaluations", {})
    if "runner" not in ext:
        with _lock:
            if "runner" not in ext:
                url = current_app.config.get("REDIS_URL")
                ttl = int(current_app.config.get("EVALUATION_RESULT_TTL")
                          or os.environ.get("EVALUATION_RESULT_TTL") or RESULT_TTL)
                if url:
                    from service.evaluations.rq_runner import RQRunner
                    ext["runner"] = RQRunner(url, result_ttl=ttl)
                else:
                    ext["runner"] = EmbeddedRunner(result_ttl=ttl)
    return ext["runner"]


def _location(eval_id: str) -> str:
    return f"/v1/evaluations/{eval_id}"


def _lookup(fn, eval_id: str):
    try:
        return fn(eval_id)
    except UnknownEvaluation:
        raise ProblemError(404, "unknown-evaluation", "Unknown evaluation",
                           f"no evaluation {eval_id!r}") from None
    except ExpiredEvaluation as exc:
        detail = f"evaluation {eval_id!r} has expired"
        if exc.expired_at:
            detail += f" (at {exc.expired_at})"
        raise ProblemError(410, "evaluation-expired", "Evaluation expired",
                           detail + "; submit it again") from None


@bp.errorhandler(RedisError)
def _backend_down(exc: RedisError):
    """Redis unreachable or failing: 503, never a 500 (``/readyz`` says so too)."""
    return problem(503, "evaluation-backend-unavailable", "Evaluation backend unavailable",
                   f"the job queue (Redis) is not answering: {type(exc).__name__}",
                   headers={"Retry-After": "5"})


@bp.post("/v1/evaluations")
def submit():
    kind, plan = kinds_mod.prepare(read_json())
    body = runner().submit(kind, plan, plan.get("game") or kind.games[0])
    wait = retry_after(kind, plan)
    return json_response(body, 202, headers={"Location": _location(body["id"]),
                                             "Retry-After": str(wait)})


@bp.get("/v1/evaluations/kinds")
def list_kinds():
    return json_response({"kinds": [k.describe() for k in kinds_mod.all_kinds()],
                          "backend": runner().backend})


@bp.get("/v1/evaluations/<eval_id>")
def status(eval_id: str):
    body = _lookup(runner().status, eval_id)
    headers = {}
    if body["status"] in ("queued", "started"):
        headers["Retry-After"] = "1"
    return json_response(body, headers=headers)


@bp.delete("/v1/evaluations/<eval_id>")
def cancel(eval_id: str):
    try:
        body = _lookup(runner().cancel, eval_id)
    except AlreadyOver as exc:
        raise ProblemError(409, "evaluation-over", "Evaluation already over",
                           f"evaluation {eval_id!r} has already {exc.status}; "
                           "nothing to cancel") from None
    return json_response(body)


@bp.post("/v1/games/tremble/odds")
def tremble_odds():
    """Exact battle odds at once (TRE-20, TRE-24): ``{"strengths": [16, 17]}``."""
    return json_response(odds_result(read_json()))
