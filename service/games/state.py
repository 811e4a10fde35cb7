"""The fields every game state has, as a ``TypedDict`` each game's state extends.

A game adds its ``options`` and ``players`` (their shapes are its own) and its zones;
``base.COMMON_STATE_FIELDS`` is the same list as shape specs.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class Result(TypedDict):
    """How a finished game ended (``null`` while it runs)."""

    finished: bool
    winners: list[int]
    reason: str
    target: NotRequired[int]


class CommonState(TypedDict):
    game: str
    rules_version: str
    card_set: dict[str, str]
    chance: dict[str, Any]
    turn: int
    phase: str
    pending: list[dict[str, Any]]
    result: Result | None
