"""One cache for every game's card catalogue.

A game's ``cards.py`` subclasses ``Catalogue``: an index over one validated
card set, built once from ``CardSet`` in ``__init__``.  ``of(cards)`` and
``of_state(state)`` return the one instance per set id and content hash, so
an engine reads its cards with ``Catalogue.of_state(state)`` and no game
keeps a cache of its own.

>>> class Tiny(Catalogue):
...     game_id = "tiny"
...     def __init__(self, cards):
...         super().__init__(cards)
...         self.count = len(cards.cards)
>>> from types import SimpleNamespace as NS
>>> cards = NS(id="reference", hash="h1", cards={"a": {}, "b": {}})
>>> Tiny.of(cards) is Tiny.of(cards), Tiny.of(cards).count
(True, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

import card_db

C = TypeVar("C", bound="Catalogue")

_built: dict[tuple[type, str, str], Any] = {}


class Catalogue:
    """Base of a game's card catalogue (the card set it indexes is ``cards``)."""

    #: the game whose card sets this catalogue reads
    game_id: ClassVar[str]

    def __init__(self, cards: card_db.CardSet) -> None:
        self.cards = cards

    @classmethod
    def of(cls: type[C], cards: card_db.CardSet) -> C:
        """The catalogue of a loaded card set, built once per set id and hash."""
        key = (cls, cards.id, cards.hash)
        found = _built.get(key)
        if found is None:
            found = _built[key] = cls(cards)
        return found

    @classmethod
    def of_state(cls: type[C], state: Mapping[str, Any]) -> C:
        """The catalogue of the card set a state is played with."""
        ref = state["card_set"]
        found = _built.get((cls, ref["id"], ref["hash"]))
        if found is None:
            found = cls.of(card_db.get(cls.game_id, ref["id"]))
        return found
