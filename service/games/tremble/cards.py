"""The card set as the engine uses it: instances, designs and lookups (TRE-1).

A design with ``copies: n`` becomes n instances ``ID``, ``ID#2`` … ``ID#n``
(instance ids are unique within a state).  ``catalog(card_set)`` is built
once per loaded set.

>>> import card_db
>>> cat = catalog(card_db.get("tremble"))
>>> len(cat.cities), len(cat.armies), len(cat.ships), len(cat.missions), len(cat.credits)
(90, 6, 35, 30, 5)
>>> cat.ships["S-CRUISER#2"]["type"], design_of("S-CRUISER#2")
('cruiser', 'S-CRUISER')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import card_db


def instances(design: dict) -> list[str]:
    """Instance ids of a design: ``["S-X", "S-X#2", ...]``."""
    base = design["id"]
    return [base] + [f"{base}#{k}" for k in range(2, design.get("copies", 1) + 1)]


def design_of(instance: str) -> str:
    """The design id of an instance id (``S-X#2`` -> ``S-X``)."""
    found = _designs.get(instance)
    if found is None:
        cut = instance.find("#")
        found = instance if cut < 0 else instance[:cut]
        if len(_designs) < 4096:  # memo of known ids; bounded against odd input
            _designs[instance] = found
    return found


_designs: dict[str, str] = {}


def designs_of(instances: list[str]) -> list[str]:
    """``design_of`` of each id, in order (one C-level pass once ids are memoised).

    >>> designs_of(["S-CRUISER#2", "S-CRUISER"])
    ['S-CRUISER', 'S-CRUISER']
    """
    found = list(map(_designs.get, instances))
    if None in found:
        found = list(map(design_of, instances))
    return found


@dataclass(frozen=True)
class Catalog:
    """Lookups for one card set; ``ships``/``credits`` map instance -> design."""

    cities: dict
    armies: dict
    ships: dict
    missions: dict
    credits: dict
    starting_ships: tuple
    deck_ships: tuple
    credit_repay: int
    credit_amount: int

    def all_cards(self) -> list[str]:
        """Every instance id of the set exactly once (for conservation checks)."""
        return [*self.cities, *self.armies, *self.ships, *self.missions, *self.credits]

    @cached_property
    def card_ids(self) -> frozenset[str]:
        """Every instance id of the set (built once)."""
        return frozenset(self.all_cards())

    def is_army(self, card: str) -> bool:
        return card in self.armies


_catalogs: dict[str, Catalog] = {}


def catalog(cards: card_db.CardSet) -> Catalog:
    """The catalog of a loaded set (cached by the set's content hash)."""
    found = _catalogs.get(cards.hash)
    if found is None:
        data = cards.data
        ships: dict = {}
        starting: list = []
        deck: list = []
        for design in data["ships"]:
            for inst in instances(design):
                ships[inst] = design
                (starting if design.get("starting") else deck).append(inst)
        credits = {inst: d for d in data["credits"] for inst in instances(d)}
        credit = data["credits"][0]
        found = Catalog(
            cities={c["id"]: c for c in data["cities"]},
            armies={a["id"]: a for a in data["armies"]},
            ships=ships, missions={m["id"]: m for m in data["missions"]}, credits=credits,
            starting_ships=tuple(starting), deck_ships=tuple(deck),
            credit_repay=credit["repay"], credit_amount=credit["amount"])
        _catalogs[cards.hash] = found
    return found
