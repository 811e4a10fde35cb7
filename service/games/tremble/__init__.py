"""Tremble, Humans! (Трепещите, человеки!) — rules TRE-1 … TRE-33.

``GAME`` is the engine registered as ``tremble``; see ``game.py`` for how the
contract hooks map to the modules of this package, and ``battle.strength``
for the TRE-29 strength function the evaluations use.

``GAME`` is loaded on first use (PEP 562, as in the other games), so that the
evaluations can import ``battle`` without importing the game, whose own
operation (``operations``: the odds at once) imports them.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GAME"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from service.games.tremble import game
        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
