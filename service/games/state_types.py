"""The types of the fields every game state has.

Written by ``python -m service.games.typegen`` from ``base.COMMON_STATE_FIELDS``: do not edit.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict


class CardSetRef(TypedDict):
    id: str
    hash: str


class Chance(TypedDict):
    mode: Literal["server", "table"]
    seed: int
    counter: int


class Result(TypedDict):
    finished: bool
    winners: list[int]
    reason: str
    #: the score that won, where the game has a target
    target: NotRequired[int]


class CommonState(TypedDict):
    """The fields every game state has."""

    game: str
    rules_version: str
    card_set: CardSetRef
    chance: Chance
    turn: int
    phase: str
    #: Who must decide now; several entries are simultaneous decisions.
    pending: list[dict[str, Any]]
    result: Result | None
