"""Dice Duel's own evaluation kind, declared by the game (``DiceDuel.evaluation_kinds``)
as Tremble declares its own: ``POST /v1/evaluations`` serves it with no shared line
naming the game."""

from __future__ import annotations

from typing import Any

from service.games import shape
from service.games.errors import MalformedInput
from service.games.kind import Kind, Progress
from tests.extension.dice_duel.operations import survival


class Survival(Kind):
    """``POST /v1/games/dice_duel/survival``, as a job."""

    name = "dice_duel.survival"
    games = ("dice_duel",)
    description = "The chance that `rolls` rolls in a row show no 1 (DUEL-4), exactly."
    inputs = {"rolls": shape.Int(minimum=1, maximum=50)}

    def prepare(self, request: dict[str, Any]) -> dict[str, Any]:
        if "rolls" not in request:
            raise MalformedInput({"rolls": ["missing required field"]})
        return {"body": {k: request[k] for k in self.inputs if k in request}}

    def run_chunk(self, plan: dict[str, Any], chunk: dict[str, Any], progress: Progress) -> Any:
        progress(1, 1)
        return survival(plan["body"])


KINDS: tuple[Kind, ...] = (Survival(),)
