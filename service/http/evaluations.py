"""``/v1/evaluations``: long questions as jobs.

* ``POST /v1/evaluations`` ``{game, kind, ...inputs, params?}`` → 202 with
  ``Location`` and ``Retry-After``; the body is the evaluation's status.
  Everything is validated first: a request that cannot succeed is refused
  (400/422) and nothing is queued.
  With ``Idempotency-Key: "<key>"`` (draft-ietf-httpapi-idempotency-key-header: a
  structured-field string; a bare token is taken too) a retried submission is not a
  second job: the same key with the same body answers the evaluation the first made
  (202, the same id and ``Location``, its current status), however many arrive at once;
  the same key with another body is 422 ``idempotency-key-reused``.  A key is the
  submitting API key's own (with ``REFEREE_API_KEYS``), the service's without; it
  lasts as long as its evaluation answers (``EVALUATION_RESULT_TTL`` after it ends, or
  until it is removed), in the runner's shared store (``runner.Idempotency``).
* ``GET /v1/evaluations/{id}`` → status, progress, result or error, expiry;
  an unknown (or removed) id → 404, an expired one → 410.
* ``POST /v1/evaluations/{id}/cancel`` → stops a queued or running
  evaluation (200 with its status, ``canceled``; again 200 for one already
  canceled); one already finished or failed → 409: an outcome never changes.
* ``DELETE /v1/evaluations/{id}`` → removes the evaluation, stopping it
  first if it still runs (204); its id then answers 404 to every method.
* ``GET /v1/evaluations/kinds`` → the kinds, their inputs, params and caps.

Whom an evaluation answers to (``_answering``, before every route that takes
an id): with API keys (``REFEREE_API_KEYS``), only the key that submitted it —
to any other, or to none, the same 404 as an unknown id, so that an id's
existence does not leak; the record keeps a digest of the key
(``owner_digest``), never the key.  Of a sealed state, only a request with the
token of the seat it was asked for (``suggest``: ``params.player``'s; any other
kind: every seat's) — 403 ``seat-token-required`` otherwise, whatever its
status, decided from the record alone.  Without API keys an id is a bearer
capability: whoever holds it reads, cancels and removes the evaluation.

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

import hashlib
import hmac
import os
import re
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import orjson
from flask import Response, current_app, request
from flask.blueprints import BlueprintSetupState
from redis.exceptions import RedisError
from werkzeug.routing import BaseConverter

from service import metrics, sealing, seats, signing, transcripts
from service.evaluations import kinds as kinds_mod
from service.evaluations.runner import (
    BUSY_RETRY_AFTER,
    RESULT_TTL,
    AlreadyOver,
    Audience,
    Busy,
    EmbeddedRunner,
    ExpiredEvaluation,
    Idempotency,
    KeyReused,
    Runner,
    UnknownEvaluation,
    configured_max_queued,
    retry_after,
    store_path,
)
from service.games.errors import MalformedInput
from service.games.messages import N_
from service.headers import IDEMPOTENCY_KEY_PATTERN, checked
from service.http.body import json_response, read_json
from service.http.route import SEAT_TOKEN, Param, Routes, Success
from service.limits import MAX_IDEMPOTENCY_KEY
from service.middleware import presented_key
from service.problems import ProblemError

bp = Routes("evaluations", __name__)
_TAGS = ("evaluations",)
EVAL_ID = Param("eval_id", {"name": "eval_id", "in": "path", "required": True,
                            "schema": {"type": "string"},
                            "description": "The evaluation id (from `Location`)."},
                rule="<evaluation_id:eval_id>")
#: whom an evaluation answers (module docstring), as every route of an id says it
OWNED = ("With `REFEREE_API_KEYS`, an evaluation answers only the API key that submitted it: "
         "any other key gets the 404 of an unknown id. One of a sealed state answers only with "
         "the `Referee-Seat-Token` of the seat it was asked for (`suggest`: `params.player`'s; "
         "any other kind: every seat's), whatever its status: 403 otherwise. Without API keys "
         "the id is a bearer capability.")
EVALUATION_SEAT_TOKEN = Param(SEAT_TOKEN.name, {**(SEAT_TOKEN.doc or {}), "description": (
    "For an evaluation of a sealed state: the token of the seat it was asked for, or every "
    "seat's, comma-separated (the host). Ignored for any other.")})
IDEMPOTENCY_KEY = Param("Idempotency-Key", {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "description": "A key of the client's (draft-ietf-httpapi-idempotency-key-header: a quoted "
                   "string, or a bare token; 1-255 visible ASCII). The same key with the same "
                   "body answers the evaluation the first made (202, the same `Location`), "
                   "however many arrive at once; with another body 422 "
                   "`idempotency-key-reused`. Scoped to the API key when keys are configured; "
                   "it lasts as long as its evaluation answers (until it expires, "
                   "`EVALUATION_RESULT_TTL` after it ends, or is removed).",
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY + 2,
               "pattern": f"^(?:{IDEMPOTENCY_KEY_PATTERN})$"}})
ACCEPTED = Success("Accepted: queued (or already done). `Location` is the evaluation; poll it "
                  "after `Retry-After` seconds.", schema="EvaluationStatus",
                  headers={"Location": {"schema": {"type": "string"}},
                           "Retry-After": {"schema": {"type": "integer"}}})
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


def _no_such(eval_id: str) -> ProblemError:
    """The one answer to an unknown id, and to an id that is not the caller's."""
    return ProblemError.of("unknown-evaluation", N_("no evaluation {id!r}", id=eval_id))


def _lookup(fn: Callable[[str], T], eval_id: str) -> T:
    try:
        return fn(eval_id)
    except UnknownEvaluation:
        raise _no_such(eval_id) from None
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


def _asked_for(body: dict[str, Any]) -> tuple[object, str]:
    """Whose hidden information an evaluation reveals, and the field that says so: a
    ``suggest`` for a seat that seat's (its ranking depends only on what the seat may see:
    ``docs/suggestions.md``); any other evaluation reads every hidden card (``seats.ALL``)."""
    params = body.get("params")
    if body.get("kind") == "suggest" and isinstance(params, dict):
        return params.get("player"), "params.player"
    return seats.ALL, "state"


#: what the owner digest is of (so that it is no other digest of the key, e.g. the
#: rate limit's bucket in Redis)
OWNER_LABEL = b"referee evaluation owner\x00"


def owner_digest(key: str) -> str:
    """What an evaluation's record keeps of the API key that submitted it: a SHA-256
    of it (hex), never the key; it stays valid whatever other keys are configured.

    >>> owner_digest("alice") == owner_digest("alice") != owner_digest("bob")
    True
    >>> len(owner_digest("alice")), "alice" in owner_digest("alice")
    (64, False)
    """
    return hashlib.sha256(OWNER_LABEL + key.encode()).hexdigest()


def _owner() -> str | None:
    """The owner of what this request submits: its API key's digest, or ``None``
    without API keys configured (the middleware has checked the key)."""
    key = presented_key()
    if not current_app.extensions["referee"]["api_keys"] or key is None:
        return None
    return owner_digest(key)


def _sealed(sent: Any, body: dict[str, Any]) -> dict[str, Any] | None:
    """For a sealed state (as sent): its game id (``chain.game``), its seat count and
    the seat the evaluation was asked for — what ``_answering`` checks a token against
    (``signing.caller`` reads the same two members)."""
    if not isinstance(sent, dict) or sealing.FIELD not in sent:
        return None
    chain = sent.get(transcripts.FIELD)
    game_id = chain.get("game") if isinstance(chain, dict) else None
    players = sent.get("players")
    return {"game": game_id if isinstance(game_id, str) else "",
            "seats": len(players) if isinstance(players, list) else 0,
            "seat": _asked_for(body)[0]}


def _answering(eval_id: str) -> Runner:
    """The runner, once this request may have an answer about ``eval_id``: the same
    404 as an unknown id unless it bears the API key that submitted it; for a sealed
    state, 403 ``seat-token-required`` (``seats.require``) unless it bears the token
    of the seat the evaluation was asked for (or every seat's)."""
    run = runner()
    audience = _lookup(run.audience, eval_id)
    if audience.owner is not None:
        key = presented_key()
        if key is None or not hmac.compare_digest(owner_digest(key), audience.owner):
            raise _no_such(eval_id)
    if audience.sealed is not None:
        sealed = audience.sealed
        who = seats.caller(request.environ.get(seats.ENVIRON_KEY), signing.sealing_keys(),
                           sealed["game"], sealed["seats"])
        seats.require(who, sealed["seat"], f"headers.{seats.HEADER}")
    return run


IDEMPOTENCY_HEADER = "Idempotency-Key"
#: the key as sent: a structured-field string (``"…"``) or a bare token, 1-255 characters
_IDEMPOTENCY_KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)
#: what the digest of a key is of (so that it is no other digest of it)
IDEMPOTENCY_LABEL = b"referee idempotency key\x00"


def idempotency_key(value: str) -> str | None:
    """The key of an ``Idempotency-Key`` value: the string of a structured-field string,
    else the value as sent (a bare token); ``None`` when it is neither.

    >>> idempotency_key('"8e03978e-40d5"'), idempotency_key("retry-1"), idempotency_key('""')
    ('8e03978e-40d5', 'retry-1', None)
    >>> idempotency_key("two words"), idempotency_key("x" * 256)
    (None, None)
    """
    found = _IDEMPOTENCY_KEY.fullmatch(value.strip(" \t"))
    return (found[1] or found[2]) if found else None


def _idempotency(body: dict[str, Any]) -> Idempotency | None:
    """This submission's ``Idempotency-Key`` as the runner keeps it (digests of the key
    in its scope and of the body), ``None`` without one; a malformed key is a 400."""
    sent = checked(IDEMPOTENCY_HEADER, request.environ.get("HTTP_IDEMPOTENCY_KEY"))
    if sent is None:
        return None
    key = idempotency_key(sent)
    if key is None:
        raise MalformedInput({f"headers.{IDEMPOTENCY_HEADER}": [N_(
            "a key is 1 to 255 visible ASCII characters, as a quoted string (`\"…\"`) or "
            "without spaces")]})
    scope = (_owner() or "").encode()
    return Idempotency(
        hashlib.sha256(IDEMPOTENCY_LABEL + scope + b"\x00" + key.encode()).hexdigest(),
        hashlib.sha256(orjson.dumps(body, option=orjson.OPT_SORT_KEYS)).hexdigest())


@bp.declare("post", "/v1/evaluations", operation_id="submit_evaluation",
            summary="Submit an evaluation", tags=_TAGS,
            description="Validated first: nothing is queued for a request that cannot succeed "
                        "(400; a `suggest` for a seat with no decision pending: 422 citing the "
                        "turn order's clause). Runs on RQ workers with `REDIS_URL`, in-process "
                        "without.",
            parameters=(IDEMPOTENCY_KEY,), request="EvaluationRequest",
            request_example={"game": "tremble", "kind": "tremble.battle_odds",
                             "strengths": [16, 17]},
            answers={202: ACCEPTED},
            errors=(400, 401, 403, 405, 413, 415, 422, 429, 500, 503))
def submit() -> Response:
    body = read_json()
    idempotency = _idempotency(body)  # of the body as sent, before ``accept`` opens a state
    sent = body.get("state")
    if "state" in body:
        body["state"] = signing.accept(sent)
        seat, field = _asked_for(body)
        seats.require(signing.caller(sent), seat, field)
    kind, plan = kinds_mod.prepare(body)
    audience = Audience(_owner(), _sealed(sent, body))
    try:
        status = runner().submit(kind, plan, plan.get("game") or (kind.games or ("",))[0],
                                 audience, idempotency)
    except Busy as exc:
        raise ProblemError.of("evaluations-busy", N_("{why}; retry later", why=exc.args[0]),
                              headers={"Retry-After": str(BUSY_RETRY_AFTER)}) from None
    except KeyReused:
        raise ProblemError.of("idempotency-key-reused", N_(
            "this Idempotency-Key was already used for another request body; send the same "
            "body to get its evaluation, or a new key for a new one"),
            errors={f"headers.{IDEMPOTENCY_HEADER}": [N_("already used for another body")]}
        ) from None
    if idempotency is None or not idempotency.replayed:
        metrics.count_evaluation(kind.name, "submitted")
    wait = retry_after(kind, plan)
    return json_response(status, 202, headers={"Location": _location(status["id"]),
                                               "Retry-After": str(wait)})


@bp.declare("get", "/v1/evaluations/kinds", operation_id="list_evaluation_kinds",
            summary="Evaluation kinds, their inputs, params and caps", tags=_TAGS,
            answers={200: Success("Every kind.", schema="EvaluationKinds")}, errors=(401, 405, 500))
def list_kinds() -> Response:
    return json_response({"kinds": [k.describe() for k in kinds_mod.all_kinds()],
                          "backend": runner().backend})


@bp.declare("get", "/v1/evaluations/{eval_id}", operation_id="get_evaluation",
            summary="Status, progress, result or error of an evaluation", tags=_TAGS,
            parameters=(EVAL_ID, EVALUATION_SEAT_TOKEN), description=OWNED,
            answers={200: Success("The evaluation.", schema="EvaluationStatus")},
            # 400: some seats' tokens but not all; 403: a sealed state's evaluation without
            # its seat's
            errors=(400, 401, 403, 404, 405, 410, 500, 503))
def status(eval_id: str) -> Response:
    run = _answering(eval_id)
    body = _lookup(run.status, eval_id)
    if body["status"] in ENDS and run.first_report(eval_id):
        metrics.count_evaluation(str(body.get("kind")), body["status"])
    headers = {}
    if body["status"] in ("queued", "started"):
        headers["Retry-After"] = "1"
    return json_response(body, headers=headers)


@bp.declare("post", "/v1/evaluations/{eval_id}/cancel", operation_id="cancel_evaluation",
            summary="Cancel a queued or running evaluation", tags=_TAGS,
            parameters=(EVAL_ID, EVALUATION_SEAT_TOKEN),
            description="Stops it; its status stays readable (`canceled`) until it expires. "
                        "Cancelling a canceled one answers the same; one that finished or failed "
                        "is 409: an outcome never changes. " + OWNED,
            answers={200: Success("Canceled.", schema="EvaluationStatus")},
            errors=(400, 401, 403, 404, 405, 409, 410, 429, 500, 503))
def cancel(eval_id: str) -> Response:
    try:
        body = _lookup(_answering(eval_id).cancel, eval_id)
    except AlreadyOver as exc:
        raise ProblemError.of("evaluation-over",
                              N_("evaluation {id!r} has already {status}; nothing to cancel",
                                 id=eval_id, status=exc.status)) from None
    metrics.count_evaluation(str(body.get("kind")), "canceled")
    return json_response(body)


@bp.declare("delete", "/v1/evaluations/{eval_id}", operation_id="delete_evaluation",
            summary="Remove an evaluation (stopping it first if it still runs)", tags=_TAGS,
            parameters=(EVAL_ID, EVALUATION_SEAT_TOKEN),
            description="Forgets the evaluation — its status, result or error — whether it is "
                        "queued, running, over or expired; a running one is stopped first. "
                        "Afterwards every method on its address answers 404. To stop one and "
                        "keep its status, `POST .../cancel`. " + OWNED,
            answers={204: Success("Removed.")}, errors=(400, 401, 403, 404, 405, 500, 503))
def remove(eval_id: str) -> Response:
    _lookup(_answering(eval_id).remove, eval_id)
    return Response(status=204)
