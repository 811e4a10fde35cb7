"""``POST /v1/games/<game>/<path>``: the questions only one game answers.

A game declares them as data (``Game.operations``, each an
``service.games.base.Operation``); this one blueprint declares a ``Route`` of each
(made when the app is built, for the games the registry holds then; served, and
documented with the answer to its example), so a game adds a route without
touching the HTTP layer.  The body is checked against the operation's ``request`` (400
naming each field), the pure handler answers it, an unknown ``card_set`` → 404.  A rule per declared
path is added, so every other path and method answers exactly as without them
(404, 405).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask import Response

import card_db
from service.games import registry
from service.games.base import AnyGame, Operation
from service.games.messages import N_, joined
from service.http.body import json_response, load_envelope, read_json
from service.http.games import localized_json
from service.http.route import Route, Routes, Success
from service.problems import ProblemError

bp = Routes("game_operations", __name__)


def path_of(game: AnyGame, operation: Operation) -> str:
    return f"/v1/games/{game.id}/{operation.path}"


def _view(game: AnyGame, operation: Operation) -> Callable[[], Response]:
    def view() -> Response:
        return answer(game, operation, read_json())
    view.__name__ = operation.operation_id  # the Flask endpoint
    return view


def _example_answer(operation: Operation) -> Callable[[], object]:
    """The answer to the operation's example (its lazy texts as the strings they read)."""
    return lambda: json.loads(json.dumps(
        operation.handler(load_envelope(operation.request, dict(operation.example))), default=str))


def answer(game: AnyGame, operation: Operation, body: dict[str, Any]) -> Response:
    parsed = load_envelope(operation.request, body)
    try:
        result = operation.handler(parsed)
    except card_db.UnknownCardSet:
        card_set = parsed.get("card_set", "reference")
        raise ProblemError(404, "unknown-card-set", "Unknown card set",
                           N_("{game} has no card set {card_set!r}; sets: {items}",
                              game=game.id, card_set=card_set,
                              items=joined(card_db.available(game.id)))) from None
    return localized_json(result) if operation.localized else json_response(result)


@bp.made_by
def _routes() -> list[Route]:
    """A route per operation of every game the registry holds."""
    return [Route(method="post", path=path_of(game, operation),
                  operation_id=operation.operation_id, summary=operation.summary,
                  description=operation.description, tags=operation.tags or (game.id,),
                  view=_view(game, operation), request=operation.request_name,
                  request_example=dict(operation.example),
                  answers={200: Success(operation.ok_text, schema=operation.response_name,
                                       example=_example_answer(operation))},
                  errors=operation.errors)
            for game in registry.all_games() for operation in game.operations]
