"""``POST /v1/games/<game>/<path>``: the questions only one game answers.

A game declares them as data (``Game.operations``, each an
``service.games.base.Operation``); this one blueprint serves every one
(``service.openapi`` documents them), so a game adds a route without touching
the HTTP layer.  The body is checked against the operation's ``request`` (400
naming each field), the pure handler answers it, an unknown ``card_set`` → 404.  A rule per declared
path is added when the app is built (``Blueprint.record``), so every other
path and method answers exactly as without them (404, 405).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response
from flask.blueprints import BlueprintSetupState

import card_db
from service.games import registry
from service.games.base import AnyGame, Operation
from service.games.messages import N_, joined
from service.http.body import json_response, load_envelope, read_json
from service.http.games import localized_json
from service.problems import ProblemError

bp = Blueprint("game_operations", __name__)


def path_of(game: AnyGame, operation: Operation) -> str:
    return f"/v1/games/{game.id}/{operation.path}"


@bp.record
def _add_rules(setup: BlueprintSetupState) -> None:
    for game in registry.all_games():
        for operation in game.operations:
            setup.add_url_rule(path_of(game, operation), endpoint=operation.operation_id,
                               view_func=_view(game, operation), methods=["POST"])


def _view(game: AnyGame, operation: Operation) -> Callable[[], Response]:
    def view() -> Response:
        return answer(game, operation, read_json())
    return view


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
