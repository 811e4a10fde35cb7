"""Reading a Tremble state: a value its phase needs.

A state stays a plain JSON dict (copy-on-write through ``Draft``); its
``TypedDict``s are written from ``shapes.STATE_FIELDS`` into ``state_types``
(``python -m service.games.typegen``), and ``Tremble`` is a ``Game[TrembleState]``:
every hook and action reads them as they are.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def required(value: T | None, what: str) -> T:
    """``value``, which the phase needs: a ``TypeError`` if it is null (only a
    hand-edited state gets there; ``compute_pending`` reports it as invalid).

    >>> required(3, "the battle")
    3
    """
    if value is None:
        raise TypeError(f"{what} is null")
    return value
