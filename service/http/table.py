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
through ``apply``, one at a time).  On a sealed state the list spends the
step it was sent for as one action (``service.spent_steps``): the same list
again answers the same, another → 409 ``step-spent``.

The request is ``schemas.envelopes.CHANCE_BATCH``; the document shows the paragraph
above and a real example (``chance_batch_example``).
"""

from __future__ import annotations

from typing import Any

from flask import Response

from schemas.envelopes import CHANCE_BATCH
from service import seats, signing, spent_steps, valid_states
from service.games import registry
from service.games.chance import CHANCE
from service.games.errors import MalformedInput
from service.games.messages import N_
from service.games.replay import step
from service.http.body import json_response, read_envelope
from service.http.games import game_or_404
from service.http.route import GAME, Routes, Success, paragraph

bp = Routes("table", __name__)


def chance_batch_example(deals: int = 6) -> dict[str, Any] | None:
    """An ``apply-chance`` request: a new two-player Raiders table game and its first hand,
    dealt at once (``None`` when Raiders is not served, as in the HTTP layer's own tests).

    >>> [o["card"] for o in chance_batch_example()["outcomes"]]
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


@bp.declare("post", "/v1/games/{game}/apply-chance", operation_id="game_apply_chance",
            summary="Apply several chance outcomes at once (a hand dealt at the table)",
            description=paragraph(__doc__), tags=("games",), parameters=(GAME,),
            request="ChanceBatchRequest", request_example=chance_batch_example,
            answers={200: Success("The state after every outcome.", schema="ChanceBatchResponse")},
            errors=(400, 403, 404, 405, 409, 413, 415, 422, 429, 500, 503))
def apply_chance(game_id: str) -> Response:
    """``{state, outcomes}`` → ``{state, events, outcome}`` (module docstring)."""
    game = game_or_404(game_id)
    body = read_envelope(CHANCE_BATCH)
    state = signing.accept(body["state"])
    valid_states.KNOWN.validate(game, state)
    seats.require(signing.caller(body["state"]), CHANCE, "state")  # a sealed game: the host's
    steps: list[dict[str, object]] = []
    for index, action in enumerate(body["outcomes"]):
        if action.get("player") != CHANCE:
            raise MalformedInput({f"outcomes.{index}.player": [
                N_("must be \"chance\": apply a player's decision with `apply`")]})
        state, events = step(game, state, action, index, "outcomes")
        steps.append({"index": index, "events": events})
    spent_steps.spend(body["state"], state)  # one answer per step: the list as one action
    return json_response({"state": signing.returned(game, state, after=body["state"],
                                                    steps=len(steps)),
                          "events": steps,
                          "outcome": game.score(state)})
