"""Scores (TRE-27, TRE-28): people, credit debt and missions.

During the game a player's total is their people less the repayment of any
credit they hold; missions stay secret (TRE-27) and are only scored at the
end.  At the end the total is people (credits already repaid) plus
completed mission bonuses minus failed mission penalties; the most people
win, equal totals share the win (TRE-28 RULING).
"""

from __future__ import annotations

from service.games.objects import JsonObject
from service.games.state_types import Result
from service.games.tremble.cards import Catalogue
from service.games.tremble.missions import score_missions
from service.games.tremble.state_types import TrembleState


def totals(state: TrembleState, cat: Catalogue) -> list[JsonObject]:
    finished = state["result"] is not None or state["phase"] == "over"
    out = []
    for p, pl in enumerate(state["players"]):
        debt = len(pl["credits"]) * cat.credit_repay
        breakdown: dict[str, object] = {"people": pl["people"], "credit_debt": -debt,
                     "captured": len(pl["captured"])}
        total = pl["people"] - debt
        if finished:
            missions = score_missions(state, cat, p)
            breakdown["missions"] = missions
            total += sum(m["points"] for m in missions)
        out.append({"player": p, "total": total, "breakdown": breakdown})
    return out


def final_result(state: TrembleState, cat: Catalogue) -> Result:
    scores = totals(state, cat)
    best = max(s["total"] for s in scores)
    return {"finished": True, "winners": [s["player"] for s in scores if s["total"] == best],
            "reason": "city deck played out"}


def compute_score(state: TrembleState, cat: Catalogue) -> JsonObject:
    result = state["result"]
    return {"finished": result is not None,
            "winners": list(result["winners"]) if result else [],
            "scores": totals(state, cat)}
