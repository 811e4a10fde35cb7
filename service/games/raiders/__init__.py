"""Raiders (Рейдеры) — the rules engine.

``GAME`` is the engine instance the registry serves.  One module per
concept: ``deck`` (the decks and every chance node), ``turn``, ``capture``
(with the response window), ``tricks`` (legality of a play) and ``effects``
(the implementation of each effect of the trick vocabulary in
``vocabulary``), ``power``, ``scoring``, ``views``, ``invariants``, the
state's types in ``state``, the card files' schema in ``card_schema``;
``game`` wires them to the contract.
"""

from __future__ import annotations

from service.games.raiders.game import GAME, Raiders

__all__ = ["GAME", "Raiders"]
