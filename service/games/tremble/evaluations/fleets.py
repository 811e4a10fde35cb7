"""Fleets and a city → battle strengths, with the Tremble engine's TRE-29 rules.

A fleet is a list of ship card ids of the card set (design ids such as
``S-TRIPOD-A`` or instance ids such as ``S-TRIPOD-A#2``); the city is a city
card id or a city type (``culture``, ``science``, ``industry``).  The
strength of each fleet is ``service.games.tremble.battle.strength`` — the
engine's own interpreter of the bonus vocabulary, so the odds and the game
can never disagree.

>>> fleet_strengths([["S-SAUCER", "S-TRIPOD-A"], ["S-CRUISER", "S-TRIPOD-B"]], "culture")
[16, 17]
"""

from __future__ import annotations

from typing import Any

import card_db
from service.games.errors import MalformedInput
from service.games.messages import N_, joined
from service.games.tremble.battle import strength
from service.games.tremble.cards import Catalogue, design_of
from service.games.tremble.effects import CITY_TYPES


def fleet_strengths(fleets: list[Any], city: Any, card_set: str = "reference") -> list[int]:
    """TRE-29 strength of each fleet attacking ``city``."""
    try:
        cat = Catalogue.of(card_db.get("tremble", card_set))
    except card_db.UnknownCardSet:
        raise MalformedInput({"card_set": [
            N_("unknown card set; available: {items}",
               items=joined(card_db.available("tremble")))]}) from None
    designs = {design_of(i): d for i, d in cat.ships.items()}
    errors: dict[str, list[str]] = {}
    if not isinstance(city, str):
        errors["city"] = ["must be a city card id or a city type"]
        city_type = None
    elif city in CITY_TYPES:
        city_type = city
    elif city in cat.cities:
        city_type = cat.cities[city]["type"]
    else:
        errors["city"] = [f"unknown city {city!r}: a city card id of {card_set!r} "
                          f"or one of {', '.join(CITY_TYPES)}"]
        city_type = None
    sides = []
    for f, fleet in enumerate(fleets):
        ships = []
        for s, ship in enumerate(fleet):
            design = designs.get(design_of(ship)) if isinstance(ship, str) else None
            if design is None:
                errors[f"fleets.{f}.{s}"] = [f"unknown ship {ship!r} in card set {card_set!r}"]
            else:
                ships.append(design)
        sides.append(ships)
    if errors:
        raise MalformedInput(errors)
    return [strength(ships, city_type) for ships in sides]
