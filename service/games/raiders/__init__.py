"""Raiders (Рейдеры) — the rules engine.

``GAME`` is the engine instance the registry serves.  One module per
concept: ``deck`` (the decks and every chance node), ``turn``, ``capture``
(with the response window), ``tricks`` (legality of a play) and ``effects``
(the implementation of each effect of the trick vocabulary in
``vocabulary``), ``power``, ``scoring``, ``views``, ``invariants``, the
state's types in ``state``; ``game`` wires them to the contract.

``GAME`` and ``Raiders`` are loaded on first use (PEP 562), so that the card
schema (``schemas.cards_raiders``, which the game declares) can import the
trick vocabulary of this package without importing the game first.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GAME", "Raiders"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from service.games.raiders import game
        return getattr(game, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
