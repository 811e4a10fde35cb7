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

from typing import Literal, TypedDict

import card_db
from service.games import catalogue

Deck = Literal["fighters", "properties"]


class Trick(TypedDict):
    """A fighter card's trick (``service/games/raiders/card_schema.py``; words from ``vocabulary``)."""

    name: dict[str, str]
    text: dict[str, str]
    effect: str
    target: str | None
    filters: list[str]
    timing: str
    cost: str | None
    amount: int | None
    count: int | None


class Fighter(TypedDict):
    """A fighter-deck card (RAI-2): a power, a trick, or both."""

    id: str
    suit: str
    rank: str
    name: dict[str, str]
    power: int | None
    trick: Trick | None


class SetBonus(TypedDict):
    count: int
    total: int


class Property(TypedDict):
    """A property card (RAI-3)."""

    id: str
    name: dict[str, str]
    money: int
    power: int
    copies: int
    bonuses: list[SetBonus]


def face(card: str) -> str:
    """The printed card an instance id stands for."""
    cut = card.find("#")
    return card if cut < 0 else card[:cut]


def instance_ids(face_id: str, copies: int) -> list[str]:
    return [face_id] + [f"{face_id}#{k}" for k in range(2, copies + 1)]


class Catalogue(catalogue.Catalogue):
    """Fast look-ups over one validated Raiders card set
    (``Catalogue.of(cards)``, ``Catalogue.of_state(state)``)."""

    game_id = "raiders"

    def __init__(self, cards: card_db.CardSet) -> None:
        super().__init__(cards)
        data = cards.data
        #: face -> card
        self.fighters: dict[str, Fighter] = {f["id"]: f for f in data["fighters"]}
        self.properties: dict[str, Property] = {p["id"]: p for p in data["properties"]}
        #: every instance id (doubled decks too) -> its card
        self.fighter_instances: dict[str, Fighter] = {
            c: f for fid, f in self.fighters.items() for c in instance_ids(fid, 2)}
        self.property_instances: dict[str, Property] = {
            c: p for pid, p in self.properties.items()
            for c in instance_ids(pid, 2 * p["copies"])}
        #: (deck, double_deck) -> its sorted instance ids (RAI-1, RAI-3, RAI-9)
        self.decks: dict[tuple[Deck, bool], tuple[str, ...]] = {}
        for double in (False, True):
            factor = 2 if double else 1
            self.decks[("fighters", double)] = tuple(sorted(
                c for f in self.fighters for c in instance_ids(f, factor)))
            self.decks[("properties", double)] = tuple(sorted(
                c for f, p in self.properties.items()
                for c in instance_ids(f, p["copies"] * factor)))

    def fighter(self, card: str) -> Fighter:
        found = self.fighter_instances.get(card)
        return found if found is not None else self.fighters[face(card)]

    def property(self, card: str) -> Property:
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
