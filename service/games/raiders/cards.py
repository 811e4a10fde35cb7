"""The card set as the engine reads it: faces, instance ids, deck contents.

A *face* is a card as printed (``S-6``, ``club``); an *instance id* names one
physical copy in a state: the first copy carries the face itself, further
copies get ``#2``, ``#3`` … (``club#3``; ``S-6#2`` with ``double_deck``,
RAI-9).  Instance ids are unique within a state.

>>> face("club#3"), face("S-Q")
('club', 'S-Q')
>>> instance_ids("club", 3)
['club', 'club#2', 'club#3']
"""

from __future__ import annotations

from dataclasses import dataclass

import card_db

GAME_ID = "raiders"


def face(card: str) -> str:
    """The printed card an instance id stands for."""
    cut = card.find("#")
    return card if cut < 0 else card[:cut]


def instance_ids(face_id: str, copies: int) -> list[str]:
    return [face_id] + [f"{face_id}#{k}" for k in range(2, copies + 1)]


@dataclass(frozen=True)
class Catalogue:
    """Fast look-ups over one validated card set."""

    fighters: dict   # face -> fighter card (suit, rank, power, trick)
    properties: dict  # face -> property card (money, power, copies, bonuses)
    fighter_instances: dict   # every fighter instance id (doubled too) -> its card
    property_instances: dict  # every property instance id (doubled too) -> its card
    decks: dict               # ("fighters" | "properties", double) -> sorted instance ids

    def fighter(self, card: str) -> dict:
        found = self.fighter_instances.get(card)
        return found if found is not None else self.fighters[face(card)]

    def property(self, card: str) -> dict:
        found = self.property_instances.get(card)
        return found if found is not None else self.properties[face(card)]

    def is_fighter_card(self, card: str) -> bool:
        return face(card) in self.fighters

    def is_property_card(self, card: str) -> bool:
        return face(card) in self.properties

    def fighter_deck(self, double: bool) -> list[str]:
        """Every fighter-deck instance of a game, sorted (RAI-1, RAI-9)."""
        return list(self.decks[("fighters", double)])

    def property_deck(self, double: bool) -> list[str]:
        """Every property instance of a game, sorted (RAI-1, RAI-3, RAI-9)."""
        return list(self.decks[("properties", double)])


def _decks(fighters: dict, properties: dict) -> dict:
    out = {}
    for double in (False, True):
        factor = 2 if double else 1
        out[("fighters", double)] = tuple(sorted(
            c for f in fighters for c in instance_ids(f, factor)))
        out[("properties", double)] = tuple(sorted(
            c for f, p in properties.items() for c in instance_ids(f, p["copies"] * factor)))
    return out


_catalogues: dict[tuple[str, str], Catalogue] = {}


def catalogue(card_set: card_db.CardSet) -> Catalogue:
    key = (card_set.id, card_set.hash)
    found = _catalogues.get(key)
    if found is None:
        data = card_set.data
        fighters = {f["id"]: f for f in data["fighters"]}
        properties = {p["id"]: p for p in data["properties"]}
        found = _catalogues[key] = Catalogue(
            fighters, properties,
            {c: f for fid, f in fighters.items() for c in instance_ids(fid, 2)},
            {c: p for pid, p in properties.items() for c in instance_ids(pid, 2 * p["copies"])},
            _decks(fighters, properties))
    return found


def for_state(state: dict) -> Catalogue:
    """The catalogue of the set a state is played with."""
    ref = state["card_set"]
    found = _catalogues.get((ref["id"], ref["hash"]))
    if found is None:
        found = catalogue(card_db.get(GAME_ID, ref["id"]))
    return found
