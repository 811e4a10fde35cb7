"""Card data prepared for the hot path, and card instance ids.

A card instance id is ``"<seat>.<card id>"``, and ``"<seat>.<card id>#2"`` for
the second copy, so ids are unique within a state and each player's cards are
told apart.

>>> instance_ids(0, ["pz_archer", "pz_archer", "pz_spark"])
['0.pz_archer', '0.pz_archer#2', '0.pz_spark']
>>> face("1.tr_bumblebee#3"), seat_of("1.tr_bumblebee#3")
('tr_bumblebee', 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

import card_db
from service.games import catalogue


def instance_ids(seat: int, faces: list[str]) -> list[str]:
    """Unique instance ids for a player's cards, copies numbered from #2."""
    seen: dict[str, int] = {}
    out: list[str] = []
    for f in faces:
        n = seen.get(f, 0) + 1
        seen[f] = n
        out.append(f"{seat}.{f}" if n == 1 else f"{seat}.{f}#{n}")
    return out


#: when a card's trigger fires (KOZ-14): at the start or the end of its owner's turn
TRIGGER_TIMES = ("start", "end")


@lru_cache(maxsize=4096)
def face(instance: str) -> str:
    """The card id of an instance id."""
    return instance.partition(".")[2].partition("#")[0]


def seat_of(instance: str) -> int:
    return int(instance.partition(".")[0])


class Stats(NamedTuple):
    """A creature's or building's stats: printed (``Catalogue.printed``) or effective
    (``stats.unit_stats``)."""

    attack: int
    life: int
    speed: int
    abilities: frozenset[str]
    armor: int
    regeneration: int


@dataclass(frozen=True)
class Face:
    """One card's static data, flattened for fast reads."""

    id: str
    type: str
    race: str
    level: int
    attack: int
    life: int
    speed: int
    abilities: frozenset[str]
    armor: int
    regeneration: int
    activated: tuple[dict[str, Any], ...]
    #: the marks of its activated abilities (a listing skips a card without the asked ones)
    marks: frozenset[str]
    triggers: tuple[dict[str, Any], ...]
    data: dict[str, Any]


class Catalogue(catalogue.Catalogue):
    """The card set of a state, with each card as a ``Face``
    (``Catalogue.of(cards)`` / ``Catalogue.of_state(state)``)."""

    game_id = "kozyablo"

    def __init__(self, cards: card_db.CardSet) -> None:
        super().__init__(cards)
        self.faces: dict[str, Face] = {}
        for card in cards.data["cards"]:
            abilities = frozenset(a["type"] for a in card["abilities"])
            values = {a["type"]: a.get("value", 0) for a in card["abilities"]}
            self.faces[card["id"]] = Face(
                id=card["id"], type=card["type"], race=card["race"], level=card["level"],
                attack=card.get("attack", 0), life=card.get("life", 0),
                speed=card.get("speed", 0), abilities=abilities,
                armor=values.get("armor", 0), regeneration=values.get("regeneration", 0),
                activated=tuple(card["activated"]),
                marks=frozenset(a["mark"] for a in card["activated"]),
                triggers=tuple(card["triggers"]), data=card)
        #: each card's printed stats (what a creature with nothing laid on it has)
        self.printed: dict[str, Stats] = {
            f.id: Stats(f.attack, f.life, f.speed, f.abilities, f.armor, f.regeneration)
            for f in self.faces.values()}
        #: "start"/"end" -> the cards with a trigger then (KOZ-14)
        self.triggered: dict[str, frozenset[str]] = {
            when: frozenset(f.id for f in self.faces.values()
                            if any(t["when"] == when for t in f.triggers))
            for when in TRIGGER_TIMES}
        self.capitals: dict[str, dict[str, Any]] = {c["id"]: c for c in cards.data["capitals"]}
        self.sector_kinds = {s["id"] for s in cards.data["sectors"]}
        self.decks: dict[str, dict[str, Any]] = cards.data["reference_decks"]
