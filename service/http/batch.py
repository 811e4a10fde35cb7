"""``POST /v1/games/{game}/batch``: many questions about a game in one call.

A bot weighing its options asks the same state many questions — ``check`` of each
candidate, ``apply`` of each to see where it leads, ``legal-actions`` of the states it
reaches — and each single call pays the HTTP round trip, the body's parse and the state's
checks again.  A batch sends them at once::

    {"state": S, "items": [{"id": "a", "op": "check", "action": A1},
                           {"op": "apply", "action": A2}, …]}

and answers ``{"items": [{"id": "a", "status": 200, "body": …}, …]}`` in request order.

**Exactly the single call.**  An item is ``op`` (the verb of a contract route of
``service.http.games``), an optional ``id`` (answered back), and the rest: the body that
route takes, checked by its own envelope.  Its ``status`` and ``body`` are what that route
answers the same body with the same headers — its 200 body (``check``'s ``reason`` in the
request's language, the ``rules_upgrade`` note of an older-rules state:
``engine_api.upgrade_notice``), or the problem it refuses with (``service.problems.rendered``,
``rule`` and all).  A batch with refused items is still a 200.  Seat tokens and
``Referee-Require-Signed`` apply to every item; an ``apply`` on a sealed state spends its
step (``service.spent_steps.spend``), so a batch applying two different actions to one
sealed step gets the second item's 409 ``step-spent``, as two calls would.  What an item's
answer cannot carry are its headers (``Referee-Rules-Upgraded``, a 503's ``Retry-After``):
its body says the same (``rules_upgrade``; the problem's ``detail``).

**The shared state.**  ``state`` (or ``view``, as the routes take it) at the top is sent
once: an item with neither takes it as if it had sent it itself.  It is read once — opened,
verified, upgraded and validated (``games.prepared``): every item after the first gets the
same state, or the same refusal.

**Which routes.**  Every contract route with ``Route.batched`` (``games.contract``: a route
joins unless it opts out): ``legal-actions``, ``check``, ``apply``, ``score``, ``view``.
``new`` and ``replay`` take no state to share (and ``replay`` up to 20,000 steps), and
``suggest`` searches for 200 ms: they stay single calls.  A new contract route joins by
being declared.

**Caps** (``service.limits``): at most ``MAX_BATCH_ITEMS`` items, of which at most
``MAX_BATCH_PREVIEWS`` ``legal-actions`` with ``preview: true`` (each previews at most
``MAX_PREVIEW_ACTIONS`` actions): more → 400 naming ``items``, before any item runs.  The
body is capped as every body (``MAX_CONTENT_LENGTH``, 413).

**Streaming.**  With ``Accept: application/x-ndjson`` the answer is one JSON line per
item (``{id?, status, body}``), each written as soon as it is done.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import orjson
from flask import Response, g, request, stream_with_context

from schemas import envelopes
from service.engine_api import upgrade_notice
from service.games.base import AnyGame
from service.games.errors import MalformedInput
from service.games.messages import N_
from service.http import games
from service.http.body import json_response, load_envelope, read_envelope
from service.http.route import (
    GAME,
    POST_ERRORS,
    REQUIRE_SIGNED,
    SEAT_TOKEN,
    Route,
    Routes,
    Success,
)
from service.i18n import localize, mark_language, request_language
from service.limits import MAX_BATCH_ITEMS, MAX_BATCH_PREVIEWS
from service.problems import rendered

bp = Routes("batch", __name__)

NDJSON = "application/x-ndjson"


@dataclass(frozen=True)
class Op:
    """What an item's ``op`` calls: a contract route, its answer and its request."""

    route: Route
    answer: games.ContractAnswer
    request: envelopes.Envelope


def batched_ops() -> dict[str, Op]:
    """verb → the ``Op`` of every contract route that joins a batch (``Route.batched``)."""
    return {route.path.rsplit("/", 1)[1]: Op(route, route.answer,
                                             envelopes.REQUESTS[route.request])
            for route in games.bp.routes
            if route.batched and route.answer is not None and route.request is not None}


OPS = batched_ops()
BATCH = envelopes.batch_envelope({op: found.request for op, found in OPS.items()})


def answer_item(game: AnyGame, item: dict[str, Any], shared: dict[str, Any],
                language: str, notes: Any) -> dict[str, Any]:
    """``{id?, status, body}`` of one item: its route's answer to the item's body, or the
    problem the route refuses it with.  ``notes``: the request's ``g`` itself (looked up
    once per batch, not thrice per item), where a route leaves its ``rules_upgrade``."""
    op = OPS[item["op"]]
    sent = dict(item)  # the item less what the batch adds: its route's body
    del sent["op"]
    for added in envelopes.BATCH_ITEM_FIELDS:
        sent.pop(added, None)
    if "state" not in sent and "view" not in sent:  # ``envelopes.BATCH_SHARED``
        sent.update(shared)
    notes.pop("rules_upgrade", None)
    try:
        body = op.answer(game, load_envelope(op.request, sent))
        if op.route.localized:
            body = localize(body, language)
        upgrade = notes.pop("rules_upgrade", None)
        if upgrade is not None:
            body["rules_upgrade"] = upgrade_notice(upgrade[0], upgrade[1], language)
        status = 200
    except Exception as exc:  # noqa: BLE001  # as the app's handlers: every refusal, and a bug (500)
        notes.pop("rules_upgrade", None)
        problem = rendered(exc)
        status, body = problem.status, problem.body
    if "id" in item:
        return {"id": item["id"], "status": status, "body": body}
    return {"status": status, "body": body}


def _previews(items: list[dict[str, Any]]) -> None:
    """400 naming ``items`` past ``MAX_BATCH_PREVIEWS`` items asking for a preview."""
    asked = sum(1 for item in items if item["op"] == "legal-actions" and item.get("preview") is True)
    if asked > MAX_BATCH_PREVIEWS:
        raise MalformedInput({"items": [N_(
            "{count} items ask for a preview; a batch holds at most {limit} "
            "(MAX_BATCH_PREVIEWS): send the others in another batch",
            count=asked, limit=MAX_BATCH_PREVIEWS)]})


@bp.declare("post", "/v1/games/{game}/batch", operation_id="game_batch",
            summary="Many questions about a game in one call",
            description=(
                "Each item is `op` (a route of the game contract: "
                + ", ".join(f"`{op}`" for op in OPS) + "), an optional `id`, and the body "
                "that route takes; its `status` and `body` are exactly what that route "
                "answers it with alone, with the same headers (a refused item's body is its "
                "problem, `rule` included; the batch is still a 200). A top-level `state` "
                "(or `view`) is read once and taken by every item without its own. Seat "
                "tokens and `Referee-Require-Signed` apply to every item; an `apply` on a "
                "sealed step spends it, so a second, different `apply` to that step is a "
                "409 `step-spent` item. Caps: " f"{MAX_BATCH_ITEMS} items "
                "(`MAX_BATCH_ITEMS`), of which " f"{MAX_BATCH_PREVIEWS} previews "
                "(`MAX_BATCH_PREVIEWS`); more → 400 naming `items`. With `Accept: "
                "application/x-ndjson`, one line per item (a `BatchItemAnswer`) as it is "
                "done."),
            tags=("games",), parameters=(GAME, REQUIRE_SIGNED, SEAT_TOKEN),
            request="BatchRequest",
            answers={200: Success(
                "Every item's answer, in request order (a refused item is still in a 200); "
                f"with `Accept: {NDJSON}`, one `BatchItemAnswer` per line.",
                schema="BatchResponse",
                content={NDJSON: {"schema": {"$ref": "#/components/schemas/BatchItemAnswer"}}})},
            errors=POST_ERRORS)
def batch(game_id: str) -> Response:
    """``{state? | view?, items: [{id?, op, …}]}`` → ``{items: [{id?, status, body}]}``."""
    game = games.game_or_404(game_id)
    body = read_envelope(BATCH)
    if "state" in body and "view" in body:
        raise MalformedInput({"view": [N_("send `state` or `view`: exactly one of them")]})
    _previews(body["items"])
    shared = {k: body[k] for k in envelopes.BATCH_SHARED if k in body}
    language = request_language()
    if request.accept_mimetypes.best_match(["application/json", NDJSON]) == NDJSON:
        def lines() -> Iterator[bytes]:
            notes = g._get_current_object()  # the proxied g
            with games.sharing():
                for item in body["items"]:
                    yield orjson.dumps(answer_item(game, item, shared, language, notes)) + b"\n"
        return mark_language(Response(stream_with_context(lines()), mimetype=NDJSON), language)
    notes = g._get_current_object()  # the proxied g
    with games.sharing():
        answers = [answer_item(game, item, shared, language, notes) for item in body["items"]]
    return mark_language(json_response({"items": answers}), language)
