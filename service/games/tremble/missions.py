"""Missions (TRE-10, TRE-27): the one interpreter of mission conditions.

A mission's ``condition`` is data from a closed vocabulary
(``schemas.cards_tremble.MISSION_KINDS``) judged at the end of the game on
the player's captured city cards only: the rulebook has a captain keep the
city card of a raid or a finished search "to confirm the missions at the
end of the game", and those cards are open information (TRE-27).  Completed
missions add their bonus, failed ones subtract their penalty.

>>> types = ["culture", "culture", "science"]
>>> met({"kind": "cities_of_type", "city_type": "culture", "count": 2}, types)
True
>>> met({"kind": "cities_total", "count": 3}, types), met({"kind": "type_set", "count": 1}, types)
(True, False)
"""

from __future__ import annotations

from service.games.tremble.cards import Catalog

CITY_TYPES = ("culture", "science", "industry")


def met(condition: dict, captured_types: list[str]) -> bool:
    """Whether ``condition`` holds for the types of a player's captured cities."""
    kind = condition["kind"]
    if kind == "cities_of_type":
        return captured_types.count(condition["city_type"]) >= condition["count"]
    if kind == "cities_total":
        return len(captured_types) >= condition["count"]
    if kind == "type_set":
        return all(captured_types.count(t) >= condition["count"] for t in CITY_TYPES)
    raise ValueError(f"unknown mission condition {kind!r}")  # refused by the schema


def captured_types(state: dict, cat: Catalog, player: int) -> list[str]:
    """The city types of the cards ``player`` captured (the open facts judged)."""
    return [cat.cities[c]["type"] for c in state["players"][player]["captured"]]


def score_missions(state: dict, cat: Catalog, player: int) -> list[dict]:
    """TRE-27: each kept mission with ``met`` and its signed ``points``."""
    types = captured_types(state, cat, player)
    out = []
    for mid in state["players"][player]["missions"]:
        card = cat.missions[mid]
        ok = met(card["condition"], types)
        out.append({"mission": mid, "met": ok,
                    "points": card["bonus"] if ok else -card["penalty"]})
    return out


def keep_subsets(offer: list[str]) -> list[list[str]]:
    """TRE-10: every choice of 1 to 3 missions of the offer (14 for 4 cards)."""
    return [[offer[i] for i in picked] for picked in _KEEP_CHOICES[len(offer)]]


_KEEP_CHOICES = {n: [[i for i in range(n) if mask >> i & 1] for mask in range(1, 1 << n)
                     if 1 <= bin(mask).count("1") <= 3] for n in range(5)}
