"""Raiders (Рейдеры) — the rules engine.

``GAME`` is the engine instance the registry serves.  One module per
concept: ``deck`` (the decks and every chance node), ``turn``, ``capture``
(with the response window), ``tricks`` (legality of a play) and ``effects``
(the one interpreter of the trick vocabulary in ``vocabulary``), ``power``,
``scoring``, ``views``, ``invariants``; ``game`` wires them to the contract.
"""

from service.games.raiders.game import Raiders

GAME = Raiders()

__all__ = ["GAME", "Raiders"]
