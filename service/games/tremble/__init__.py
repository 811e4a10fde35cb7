"""Tremble, Humans! (Трепещите, человеки!) — rules TRE-1 … TRE-33.

``GAME`` is the engine registered as ``tremble``; see ``game.py`` for how the
contract hooks map to the modules of this package, and ``battle.strength``
for the TRE-29 strength function the evaluations use.  ``GAME`` and
``Tremble`` are loaded on first use (PEP 562), so that the card schema
(``schemas.cards_tremble``, which the game declares) can import the effect
vocabulary (``effects``) without importing the game first.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GAME", "Tremble"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from service.games.tremble import game
        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
