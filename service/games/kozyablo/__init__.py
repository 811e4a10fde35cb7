"""Kozyablo (Козябло): a two-player card battle of four races.  See ``game``.

``GAME`` and ``Kozyablo`` are loaded on first use (PEP 562), so that the card
schema (``schemas.cards_kozyablo``, which the game declares) can import the
effect vocabulary of this package without importing the game first.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GAME", "Kozyablo"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from service.games.kozyablo import game
        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
