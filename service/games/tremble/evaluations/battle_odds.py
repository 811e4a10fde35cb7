"""``tremble.battle_odds``: exact odds of a Tremble battle at one city.

Input: ``strengths`` (1–5 fighters' base strengths), or ``fleets`` (each a
list of ship ids or ship cards attacking ``city``) so that the TRE-29
bonuses are applied by the Tremble engine; optionally ``army`` — an army's
strength, for the odds of each fleet holding against it (TRE-24).

The result (also served synchronously by ``POST /v1/games/tremble/odds``):

>>> r = odds_result({"strengths": [16, 17], "army": 20})
>>> r["win_exact"], [round(x, 4) for x in r["win"]]
(['435/1156', '721/1156'], [0.3763, 0.6237])
>>> r["hold_exact"]
['11/12', '35/36']
>>> odds_result({"fleets": [["S-SAUCER", "S-TRIPOD-A"], ["S-CRUISER", "S-TRIPOD-B"]],
...              "city": "C-MOSCOW"})["win_exact"]
['435/1156', '721/1156']
>>> r["totals"][0]["distribution"][0]
{'total': 18, 'p': 0.027777777777777776, 'exact': '1/36'}
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from service.games import shape
from service.games.errors import MalformedInput
from service.games.kind import Kind, Progress
from service.games.messages import N_
from service.games.tremble.evaluations import odds
from service.games.tremble.evaluations.fleets import fleet_strengths
from service.games.tremble.evaluations.odds import fraction_text
from service.limits import MAX_ID_LENGTH

MAX_STRENGTH = 1000

STRENGTHS = shape.ListOf(shape.Int(minimum=0, maximum=MAX_STRENGTH), min_items=1,
                         max_items=odds.MAX_FIGHTERS,
                         description="Base strength of each fighter (ships + TRE-29 bonuses).")
FLEETS = shape.ListOf(shape.ListOf(shape.Any_(), min_items=1, max_items=5), min_items=1,
                      max_items=odds.MAX_FIGHTERS,
                      description="Each fighter's attacking ships (Tremble ship ids), "
                                  "with `city`: bonuses of TRE-29 are applied.")
CITY = shape.Any_(description="The attacked city (a Tremble city id), with `fleets`.")
ARMY = shape.Int(minimum=0, maximum=MAX_STRENGTH,
                 description="An army's strength: also the odds of each fleet holding (TRE-24).")
CARD_SET = shape.Str(max_length=MAX_ID_LENGTH, description="The card set of `fleets` (default reference).")
INPUTS = {"strengths": STRENGTHS, "fleets": FLEETS, "city": CITY, "army": ARMY,
          "card_set": CARD_SET}
#: the synchronous odds request (built once: ``shape.field_errors`` caches its compiled form)
REQUEST = shape.Obj({}, INPUTS)


def strengths_of(body: dict[str, Any]) -> list[int]:
    """The fighters' base strengths from ``strengths`` or ``fleets`` + ``city``."""
    has_s, has_f = "strengths" in body, "fleets" in body
    if has_s == has_f:
        raise MalformedInput({"strengths": [N_("send either `strengths` or `fleets` with `city`")]})
    if has_s:
        for key in ("city", "card_set"):
            if key in body:
                raise MalformedInput({key: [N_("`{key}` goes with `fleets`, not `strengths`", key=key)]})
        return list(body["strengths"])
    if "city" not in body:
        raise MalformedInput({"city": [N_("`fleets` need the attacked `city`")]})
    return fleet_strengths(body["fleets"], body["city"], body.get("card_set", "reference"))


@lru_cache(maxsize=2048)
def _distribution(strength: int) -> list[dict[str, Any]]:
    """Each total of ``strength + 2d6`` with its chance (shared, never mutated)."""
    return [{"total": t, "p": float(p), "exact": fraction_text(p)}
            for t, p in odds.totals_distribution(strength).items()]


def odds_result(body: dict[str, Any]) -> dict[str, Any]:
    """Validate an odds request and answer it exactly (TRE-20, TRE-24)."""
    errors = shape.field_errors(REQUEST, body, "")
    if errors:
        raise MalformedInput(errors)
    strengths = strengths_of(body)
    win = odds.battle_odds(strengths)
    out: dict[str, Any] = {
        "strengths": strengths,
        "win": [float(p) for p in win],
        "win_exact": [fraction_text(p) for p in win],
        "totals": [{"strength": s, "distribution": _distribution(s)} for s in strengths],
        "rules": ["TRE-20"],
    }
    if "army" in body:
        hold = [odds.hold_probability(s, body["army"]) for s in strengths]
        out["army"] = body["army"]
        out["hold"] = [float(p) for p in hold]
        out["hold_exact"] = [fraction_text(p) for p in hold]
        out["rules"].append("TRE-24")
    return out


class BattleOdds(Kind):
    name = "tremble.battle_odds"
    games = ("tremble",)
    description = ("Exact chance of each of 1-5 fighters winning a battle at one city "
                   "(2d6 each, ties re-roll from base strength, with 3+ only those tied "
                   "for the highest re-roll: TRE-20), the distribution of each total, and "
                   "with `army` the chance of each holding against it (TRE-24).")
    inputs = INPUTS
    caps = {"fighters": odds.MAX_FIGHTERS, "strength": MAX_STRENGTH}
    #: documented as ``POST /v1/games/tremble/odds`` documents its body (``operations.ODDS``)
    request_schema = "OddsRequest"

    def prepare(self, request: dict[str, Any]) -> dict[str, Any]:
        body = {k: v for k, v in request.items() if k in INPUTS}
        odds_result(body)  # refuse at submission whatever would fail later
        return {"body": body}

    def run_chunk(self, plan: dict[str, Any], chunk: dict[str, Any],
                  progress: Progress) -> dict[str, Any]:
        return odds_result(plan["body"])

