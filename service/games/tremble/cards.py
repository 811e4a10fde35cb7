"""The card set as the engine uses it: instances, designs and lookups (TRE-1).

A design with ``copies: n`` becomes n instances ``ID``, ``ID#2`` … ``ID#n``
(instance ids are unique within a state).  ``Catalogue.of(card_set)`` /
``Catalogue.of_state(state)`` build it once per loaded set (the shared cache
of ``service.games.catalogue``).

>>> import card_db
>>> cat = Catalogue.of(card_db.get("tremble"))
>>> len(cat.cities), len(cat.armies), len(cat.ships), len(cat.missions), len(cat.credits)
(90, 6, 35, 30, 5)
>>> cat.ships["S-CRUISER#2"]["type"], design_of("S-CRUISER#2")
('cruiser', 'S-CRUISER')
"""

from __future__ import annotations

import card_db
from service.games import catalogue
from service.games.objects import JsonObject


def instances(design: JsonObject) -> list[str]:
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
        return list(map(design_of, instances))
    return found  # type: ignore[return-value]  # no None: checked just above


class Catalogue(catalogue.Catalogue):
    """Lookups for one card set; ``ships``/``credits`` map instance -> design."""

    game_id = "tremble"

    def __init__(self, cards: card_db.CardSet) -> None:
        super().__init__(cards)
        data = cards.data
        ships: dict[str, JsonObject] = {}
        starting: list[str] = []
        deck: list[str] = []
        for design in data["ships"]:
            for inst in instances(design):
                ships[inst] = design
                (starting if design.get("starting") else deck).append(inst)
        credit = data["credits"][0]
        self.cities: dict[str, JsonObject] = {c["id"]: c for c in data["cities"]}
        self.armies: dict[str, JsonObject] = {a["id"]: a for a in data["armies"]}
        self.ships = ships
        self.missions: dict[str, JsonObject] = {m["id"]: m for m in data["missions"]}
        self.credits: dict[str, JsonObject] = {inst: d for d in data["credits"]
                                         for inst in instances(d)}
        self.starting_ships = tuple(starting)
        self.deck_ships = tuple(deck)
        self.credit_repay: int = credit["repay"]
        self.credit_amount: int = credit["amount"]
        #: every instance id of the set (built once)
        self.card_ids = frozenset(self.all_cards())

    def all_cards(self) -> list[str]:
        """Every instance id of the set exactly once (for conservation checks)."""
        return [*self.cities, *self.armies, *self.ships, *self.missions, *self.credits]
