"""Tremble, Humans! (Трепещите, человеки!) — rules TRE-1 … TRE-33.

``GAME`` is the engine registered as ``tremble``; see ``game.py`` for how the
contract hooks map to the modules of this package, and ``battle.strength``
for the TRE-29 strength function the evaluations use.
"""

from service.games.tremble.game import GAME

__all__ = ["GAME"]
