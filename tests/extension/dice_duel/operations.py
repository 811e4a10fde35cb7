"""Dice Duel's own route: ``POST /v1/games/dice_duel/survival`` (``DiceDuel.operations``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import card_db
from service.games import shape
from service.games.base import Operation


def survival(body: dict[Any, Any]) -> dict[Any, Any]:
    """The chance that ``rolls`` rolls in a row show no 1 (DUEL-4), exactly."""
    first, second = (die["faces"] for die in
                     card_db.get("dice_duel", body.get("card_set", "reference")).data["dice"])
    safe = Fraction(sum(f != 1 for f in first) * sum(f != 1 for f in second),
                    len(first) * len(second)) ** body["rolls"]
    return {"rolls": body["rolls"], "survive_exact": f"{safe.numerator}/{safe.denominator}",
            "rule": "DUEL-4"}


SURVIVAL = Operation(
    path="survival", operation_id="dice_duel_survival",
    summary="The chance of rolling again and again without a 1 (DUEL-4)",
    request=shape.Obj({"rolls": shape.Int(minimum=1, maximum=50)},
                      {"card_set": shape.Str(max_length=64)}),
    request_name="DiceDuelSurvivalRequest",
    response=shape.Obj({"rolls": shape.Int(), "survive_exact": shape.Str(), "rule": shape.Str()}),
    response_name="DiceDuelSurvivalResponse",
    handler=survival, example={"rolls": 2},
    ok_text="`survive_exact` as p/q.", errors=(400, 404, 405, 413, 415, 429, 500))
