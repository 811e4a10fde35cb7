"""``POST /v1/games/{game}/apply-chance``: several chance outcomes in one call.

At a real table (``chance: table``) a scorekeeper enters what came up: a
dealt hand is six single-card ``deal`` outcomes per player.  This route
applies a list of chance outcomes (``"player": "chance"``, as
``legal-actions`` lists them) one after another, as that many ``apply``
calls would: ``{state, outcomes}`` → ``{state, events, outcome}``, where
``events`` has one entry per outcome, ``[{index, events}]`` (the shape of a
replay's steps).  The first outcome that cannot happen stops it all: 422
``illegal-action`` with its ``index``, and nothing is applied.  An entry
that is not a chance outcome is a 400 naming it (players' decisions go
through ``apply``, one at a time).
"""

from __future__ import annotations

from flask import Blueprint
from marshmallow import Schema, fields, validate

from schemas.envelopes import GameStateField, ObjectField, Outcome, ReplayStep
from service import seats, signing, valid_states
from service.games import registry
from service.games.chance import CHANCE
from service.games.errors import MalformedInput
from service.games.messages import N_
from service.games.replay import step
from service.http.body import json_response, read_envelope
from service.http.games import game_or_404

bp = Blueprint("table", __name__, url_prefix="/v1/games")

#: the most outcomes per call (a six-player double-deck deal is 36)
MAX_OUTCOMES = 200


class ChanceBatchRequest(Schema):
    state = GameStateField(required=True, metadata={"ref": "GameState",
                                                    "description": "A `chance: table` state."})
    outcomes = fields.List(ObjectField(metadata={"ref": "Action"}), required=True,
                           validate=validate.Length(min=1, max=MAX_OUTCOMES), metadata={
                               "description": "Chance outcomes in the order they came up, each "
                                              "as `legal-actions` lists it (`probability` "
                                              "may be left out)."})


class ChanceBatchResponse(Schema):
    state = GameStateField(required=True, metadata={"ref": "GameState",
                                                    "description": "The state after the last."})
    events = fields.List(fields.Nested(ReplayStep), required=True)
    outcome = fields.Nested(Outcome, required=True)


REQUEST = ChanceBatchRequest()


@bp.post("/<game_id>/apply-chance")
def apply_chance(game_id: str):
    """``{state, outcomes}`` → ``{state, events, outcome}`` (module docstring)."""
    game = game_or_404(game_id)
    body = read_envelope(REQUEST)
    state = signing.accept(body["state"])
    valid_states.KNOWN.validate(game, state)
    seats.require(signing.caller(body["state"]), CHANCE, "state")  # a sealed game: the host's
    steps = []
    for index, action in enumerate(body["outcomes"]):
        if action.get("player") != CHANCE:
            raise MalformedInput({f"outcomes.{index}.player": [
                N_("must be \"chance\": apply a player's decision with `apply`")]})
        state, events = step(game, state, action, index, "outcomes")
        steps.append({"index": index, "events": events})
    return json_response({"state": signing.returned(game, state, after=body["state"],
                                                    steps=len(steps)),
                          "events": steps,
                          "outcome": game.score(state)})


def example(deals: int = 6) -> dict | None:
    """A request: a new two-player Raiders table game and its first hand, dealt at once
    (``None`` when Raiders is not served, as in the HTTP layer's own tests).

    >>> [o["card"] for o in example()["outcomes"]]
    ['C-10', 'C-6', 'C-7', 'C-8', 'C-9', 'C-A']
    """
    if "raiders" not in registry.GAME_IDS:
        return None
    game = registry.get_game("raiders")
    state, _ = game.new_game(2, {"chance": "table"}, 7, "reference")
    start, outcomes = state, []
    for _ in range(deals):
        outcome = {k: v for k, v in game.legal_actions(state, CHANCE)[0].items()
                   if k != "probability"}
        outcomes.append(outcome)
        state, _ = game.apply(state, outcome)
    return {"state": start, "outcomes": outcomes}


def document(spec) -> None:
    """Document the route in ``openapi.yaml``."""
    from service.openapi import GAME_PARAM, body, error, ok

    spec.components.schema("ChanceBatchRequest", schema=ChanceBatchRequest)
    spec.components.schema("ChanceBatchResponse", schema=ChanceBatchResponse)
    spec.path("/v1/games/{game}/apply-chance", operations={"post": {
        "summary": "Apply several chance outcomes at once (a hand dealt at the table)",
        "description": __doc__.split("\n\n", 1)[1].strip(),
        "tags": ["games"], "operationId": "game_apply_chance", "parameters": [GAME_PARAM],
        "requestBody": body("ChanceBatchRequest", example()),
        "responses": {"200": ok("ChanceBatchResponse", "The state after every outcome."),
                      **{str(s): error(s) for s in (400, 403, 404, 405, 413, 415, 422, 429,
                                                    500)}}}})
