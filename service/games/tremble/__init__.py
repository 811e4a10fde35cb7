"""Tremble, Humans! (Трепещите, человеки!) — rules TRE-1 … TRE-33.

``GAME`` is the engine registered as ``tremble``; see ``game.py`` for how the
contract hooks map to the modules of this package, ``battle.strength``
for the TRE-29 strength function, ``card_schema`` for the card files'
schema and ``evaluations`` for the game's own evaluation kinds.
"""

from __future__ import annotations

from service.games.tremble.game import GAME, Tremble

__all__ = ["GAME", "Tremble"]
