"""``POST /v1/games/<game>/<path>``: the questions only one game answers.

A game declares them as data (``Game.operations``, each an
``service.games.base.Operation``); this one blueprint serves and documents
every one, so a game adds a route without touching the HTTP layer.  The body
is checked against the operation's ``request`` (400 naming each field), the
pure handler answers it, an unknown ``card_set`` → 404.  A rule per declared
path is added when the app is built (``Blueprint.record``), so every other
path and method answers exactly as without them (404, 405).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response
from flask.blueprints import BlueprintSetupState
from marshmallow import Schema

import card_db
from service.games import registry, shape
from service.games.base import Game, Operation
from service.games.errors import MalformedInput
from service.games.messages import N_, joined
from service.http.body import json_response, load_envelope, read_json
from service.http.games import localized_json
from service.problems import ProblemError

bp = Blueprint("game_operations", __name__)

#: one loaded marshmallow schema per request schema class (``load_envelope`` caches by it)
_loaders: dict[type[Schema], Schema] = {}


def path_of(game: Game, operation: Operation) -> str:
    return f"/v1/games/{game.id}/{operation.path}"


@bp.record
def _add_rules(setup: BlueprintSetupState) -> None:
    for game in registry.all_games():
        for operation in game.operations:
            setup.add_url_rule(path_of(game, operation), endpoint=operation.operation_id,
                               view_func=_view(game, operation), methods=["POST"])


def _view(game: Game, operation: Operation) -> Callable[[], Response]:
    def view() -> Response:
        return answer(game, operation, read_json())
    return view


def parse(operation: Operation, body: dict) -> dict:
    """The request body checked against the operation's ``request``."""
    request = operation.request
    if isinstance(request, shape.Spec):
        errors = shape.problems(request, body, "")
        if errors:
            raise MalformedInput(errors)
        return body
    loader = _loaders.get(request)
    if loader is None:
        loader = _loaders[request] = request()
    return load_envelope(loader, body)


def answer(game: Game, operation: Operation, body: dict) -> Response:
    parsed = parse(operation, body)
    try:
        result = operation.handler(parsed)
    except card_db.UnknownCardSet:
        card_set = parsed.get("card_set", "reference")
        raise ProblemError(404, "unknown-card-set", "Unknown card set",
                           N_("{game} has no card set {card_set!r}; sets: {items}",
                              game=game.id, card_set=card_set,
                              items=joined(card_db.available(game.id)))) from None
    return localized_json(result) if operation.localized else json_response(result)


# ------------------------------------------------------------------ openapi
def _json_schema(declared: Any) -> dict:
    if isinstance(declared, shape.Spec):
        return declared.schema()
    return dict(declared)


def _component(spec: Any, name: str, declared: Any,
               refine: Callable[[dict], dict] | None = None) -> None:
    if isinstance(declared, type) and issubclass(declared, Schema):
        spec.components.schema(name, schema=declared)
    else:
        schema = _json_schema(declared)
        spec.components.schema(name, refine(schema) if refine else schema)


def document(spec: Any) -> None:
    """Every game's operations in ``openapi.yaml``, with the answer to the example."""
    import json

    from service.openapi import JSON, body, error, ok

    for game in registry.all_games():
        for operation in game.operations:
            _component(spec, operation.request_name, operation.request, operation.document_request)
            _component(spec, operation.response_name, operation.response)
            example = dict(operation.example)
            reply = ok(operation.response_name, operation.ok_text)
            reply["content"][JSON]["example"] = json.loads(json.dumps(  # lazy texts → str
                operation.handler(parse(operation, example)), default=str))
            documented: dict[str, Any] = {"summary": operation.summary}
            if operation.description:
                documented["description"] = operation.description
            documented |= {
                "tags": list(operation.tags or (game.id,)),
                "requestBody": body(operation.request_name, example),
                "responses": {"200": reply, **{str(s): error(s) for s in operation.errors}},
                "operationId": operation.operation_id}
            spec.path(path_of(game, operation), operations={"post": documented})
