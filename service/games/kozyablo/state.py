"""Reading a Kozyablo state (a JSON object; ``shapes.STATE_FIELDS`` is its schema).

Its types are written from ``shapes.STATE_FIELDS`` into ``state_types``
(``python -m service.games.typegen``); ``Kozyablo`` is a ``Game[KozyabloState]``, so
every hook and action reads them as they are.  Card instance ids, sector ids and capital ids are strings (``cards``).

Phases: ``setup`` → ``mulligan`` → (``start`` → ``main`` ⇄ ``response`` /
``combat`` / ``effect`` → ``end``)*; ``start`` and ``end`` pass within one
action unless a trigger's damage waits for a Defender (``effect``).

>>> active({"active": 1})
1
"""

from __future__ import annotations

from typing import TypeVar

from service.games.kozyablo.state_types import Combat, KozyabloState, PendingEffect

T = TypeVar("T")


def fight(state: KozyabloState) -> Combat:
    """The combat in progress (the ``combat`` phase)."""
    combat = state["combat"]
    assert combat is not None, "a combat is in progress"
    return combat


def waiting_effect(state: KozyabloState) -> PendingEffect:
    """The effect whose damage waits for a Defender decision (the ``effect`` phase)."""
    effect = state["effect"]
    assert effect is not None, "an effect's damage is waiting"
    return effect


def active(state: KozyabloState) -> int:
    """Whose turn it is (once the turns began)."""
    seat = state["active"]
    assert seat is not None, "the turns have begun"
    return seat
