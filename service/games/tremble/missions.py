"""Missions (TRE-10, TRE-27): the one interpreter of mission conditions.

A mission's ``condition`` is data from a closed vocabulary
(``schemas.cards_tremble.MISSION_KINDS``); ``met`` decides it for a player at
the end of the game from open facts (captured cities, counters kept in
``stats``, people, fleet).  Completed missions add their bonus, failed ones
subtract their penalty.

>>> record = {"captured_types": ["culture", "culture", "science"], "raids": 2,
...           "searches": 1, "battles_won": 0, "armies_beaten": 0, "people": 120000,
...           "fleet": 3, "credits_taken": 0}
>>> met({"kind": "cities_of_type", "city_type": "culture", "count": 2}, record)
True
>>> met({"kind": "type_set", "count": 1}, record), met({"kind": "no_credit"}, record)
(False, True)
"""

from __future__ import annotations

from .cards import Catalog
from .zones import fleet_size

CITY_TYPES = ("culture", "science", "industry")


def met(condition: dict, record: dict) -> bool:
    """Whether ``condition`` holds for a player's end-of-game ``record``."""
    kind = condition["kind"]
    types = record["captured_types"]
    if kind == "cities_of_type":
        return types.count(condition["city_type"]) >= condition["count"]
    if kind == "cities_total":
        return len(types) >= condition["count"]
    if kind in ("raids", "searches", "battles_won", "armies_beaten"):
        return record[kind] >= condition["count"]
    if kind == "people_at_least":
        return record["people"] >= condition["amount"]
    if kind == "fleet_at_least":
        return record["fleet"] >= condition["count"]
    if kind == "type_set":
        return all(types.count(t) >= condition["count"] for t in CITY_TYPES)
    if kind == "no_credit":
        return record["credits_taken"] == 0
    raise ValueError(f"unknown mission condition {kind!r}")  # refused by the schema


def record_of(state: dict, cat: Catalog, player: int) -> dict:
    """The open facts a mission is judged on."""
    p = state["players"][player]
    return {"captured_types": [cat.cities[c]["type"] for c in p["captured"]],
            **{k: p["stats"][k] for k in ("raids", "searches", "battles_won",
                                          "armies_beaten", "credits_taken")},
            "people": p["people"], "fleet": fleet_size(state, player)}


def score_missions(state: dict, cat: Catalog, player: int) -> list[dict]:
    """TRE-27: each kept mission with ``met`` and its signed ``points``."""
    record = record_of(state, cat, player)
    out = []
    for mid in state["players"][player]["missions"]:
        card = cat.missions[mid]
        ok = met(card["condition"], record)
        out.append({"mission": mid, "met": ok,
                    "points": card["bonus"] if ok else -card["penalty"]})
    return out


def keep_subsets(offer: list[str]) -> list[list[str]]:
    """TRE-10: every choice of 1 to 3 missions of the offer (14 for 4 cards)."""
    return [[offer[i] for i in picked] for picked in _KEEP_CHOICES[len(offer)]]


_KEEP_CHOICES = {n: [[i for i in range(n) if mask >> i & 1] for mask in range(1, 1 << n)
                     if 1 <= bin(mask).count("1") <= 3] for n in range(5)}
