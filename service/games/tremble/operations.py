"""Tremble's own question: ``POST /v1/games/tremble/odds``, exact battle odds at once.

The answer is the ``tremble.battle_odds`` evaluation's result
(``service.games.tremble.evaluations.battle_odds.odds_result``: TRE-20, TRE-24), served
synchronously.
"""

from __future__ import annotations

import card_db
from service.games import shape
from service.games.base import Operation
from service.games.objects import JsonObject
from service.games.tremble.evaluations.battle_odds import REQUEST, odds_result
from service.games.tremble.missions import CITY_TYPES

#: the answer (hand-written: the shape specs only describe requests and states)
ODDS_RESPONSE = {
    "type": "object", "required": ["strengths", "win", "win_exact", "totals", "rules"],
    "properties": {
        "strengths": {"type": "array", "items": {"type": "integer"}},
        "win": {"type": "array", "items": {"type": "number"}},
        "win_exact": {"type": "array", "items": {"type": "string", "pattern": r"^\d+/\d+$"}},
        "totals": {"type": "array", "items": {"type": "object"}},
        "army": {"type": "integer"},
        "hold": {"type": "array", "items": {"type": "number"}},
        "hold_exact": {"type": "array", "items": {"type": "string"}},
        "rules": {"type": "array", "items": {"type": "string"}}}}


def odds_request_schema(schema: JsonObject) -> JsonObject:
    """`strengths`, or `fleets` with `city` — never both (a ``oneOf``), with the card
    sets, ship ids and cities of the shipped data as enums."""
    props = dict(schema["properties"])
    props["card_set"] = {**props["card_set"], "enum": card_db.available("tremble")}
    reference = card_db.get("tremble", "reference").data
    # literal_pattern, not re.escape: a JavaScript client compiles the pattern in unicode mode
    ships = "|".join(shape.literal_pattern(ship["id"]) for ship in reference.get("ships", []))
    if ships:  # a design id, or an instance id (`S-X#2`)
        fleet = dict(props["fleets"]["items"])
        fleet["items"] = {"type": "string", "pattern": f"^({ships})(#[0-9]+)?$"}
        props["fleets"] = {**props["fleets"], "items": fleet}
    props["city"] = {**props["city"], "enum": [
        *CITY_TYPES, *(city["id"] for city in reference.get("cities", []))]}
    common = {k: v for k, v in props.items()
              if k not in ("strengths", "fleets", "city", "card_set")}
    return {
        "description": "The fighters' strengths, or the fleets attacking a city (their "
                       "strengths are worked out from the card set): exactly one of the two.",
        "oneOf": [
            {"title": "ByStrengths", "type": "object", "additionalProperties": False,
             "required": ["strengths"], "properties": {"strengths": props["strengths"], **common}},
            {"title": "ByFleets", "type": "object", "additionalProperties": False,
             "required": ["fleets", "city"], "properties": {
                 k: props[k] for k in ("fleets", "city", "card_set")} | common}]}


ODDS = Operation(
    path="odds", operation_id="tremble_odds",
    summary="Exact Tremble battle odds (TRE-20, TRE-24), at once", tags=("evaluations",),
    request=REQUEST, request_name="OddsRequest", document_request=odds_request_schema,
    response=ODDS_RESPONSE, response_name="OddsResponse",
    handler=odds_result, example={"strengths": [16, 17]},
    ok_text="`win_exact` as p/q strings, one per fighter.")
