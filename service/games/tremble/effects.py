"""The card effect vocabulary of Tremble: each name declared once, with what it does.

Card behaviour is data (``card_db/tremble/<set>.yaml``) naming entries of
these tables; ``card_schema`` refuses any other name when a set
loads, and the engine reads each entry's function — no second table of
implementations, no branch on the name:

* ``BONUSES`` (TRE-29): a ship's strength bonus, ``applies(bonus, city_type,
  other_types)`` — used by ``battle.strength``;
* ``CONDITIONS`` (TRE-27): a mission's condition, ``met(condition,
  captured_types)`` — used by ``missions.met``;
* ``ABILITIES`` (TRE-30 … TRE-32): a ship ability and its clause; the clause's
  module asks ``has(design, ability)`` (``reward``, ``battle``, ``planning``).

>>> BONUSES["with_ship"].applies({"ship_type": "tripod"}, "culture", ["saucer", "tripod"])
True
>>> CONDITIONS["type_set"].met({"count": 1}, ["culture", "science"])
False
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

CITY_TYPES = ("culture", "science", "industry")
SHIP_TYPES = ("saucer", "tripod", "cruiser")


@dataclass(frozen=True)
class BonusType:
    """A TRE-29 strength bonus: ``param`` is the one key it takes besides
    ``kind`` and ``amount``; ``applies`` says whether it counts for a ship."""

    param: str
    applies: Callable[[Mapping[str, Any], str | None, Sequence[str]], bool]
    description: str


@dataclass(frozen=True)
class ConditionType:
    """A TRE-27 mission condition over the types of the captured cities."""

    params: frozenset[str]
    met: Callable[[Mapping[str, Any], Sequence[str]], bool]
    description: str


def _against_city_type(bonus: Mapping[str, Any], city_type: str | None, others: Sequence[str]) -> bool:
    return bool(bonus["city_type"] == city_type)


def _with_ship(bonus: Mapping[str, Any], city_type: str | None, others: Sequence[str]) -> bool:
    return bonus["ship_type"] in others


BONUSES: dict[str, BonusType] = {
    "city_type": BonusType("city_type", _against_city_type,
                       "+amount when the attacked city has `city_type`"),
    "with_ship": BonusType("ship_type", _with_ship,
                       "+amount when another ship of `ship_type` attacks the same city"),
}


def _cities_of_type(condition: Mapping[str, Any], types: Sequence[str]) -> bool:
    return bool(types.count(condition["city_type"]) >= condition["count"])


def _cities_total(condition: Mapping[str, Any], types: Sequence[str]) -> bool:
    return bool(len(types) >= condition["count"])


def _type_set(condition: Mapping[str, Any], types: Sequence[str]) -> bool:
    return all(types.count(t) >= condition["count"] for t in CITY_TYPES)


CONDITIONS: dict[str, ConditionType] = {
    "cities_of_type": ConditionType(frozenset({"city_type", "count"}), _cities_of_type,
                                "at least `count` captured cities of `city_type`"),
    "cities_total": ConditionType(frozenset({"count"}), _cities_total,
                              "at least `count` captured cities"),
    "type_set": ConditionType(frozenset({"count"}), _type_set,
                          "at least `count` captured cities of every type"),
}

#: ship ability -> the clause that gives it its effect
ABILITIES: dict[str, str] = {"search_tempo": "TRE-30", "reserve": "TRE-31", "redeploy": "TRE-32"}


def has(design: Mapping[str, Any], ability: str) -> bool:
    """Whether a ship design has ``ability`` (one of ``ABILITIES``).

    >>> has({"abilities": ["reserve"]}, "reserve"), has({"abilities": []}, "redeploy")
    (True, False)
    """
    assert ability in ABILITIES, ability
    return ability in design["abilities"]
