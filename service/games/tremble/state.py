"""The shape of a Tremble state as types (the JSON objects ``shapes.py`` checks).

A state stays a plain JSON dict (copy-on-write through ``Draft``); these
``TypedDict``s name its keys for the type checker.  ``shapes.STATE_FIELDS`` is
the runtime check of the same objects.  The base class hands the engine a
plain ``dict`` (and a ``Draft``'s root is one): ``typed(state)`` is where the
engine starts reading it as a ``TrembleState`` (no copy, no check).
"""

from __future__ import annotations

from typing import Literal, TypedDict, TypeVar, cast

from service.games.state import CommonState

T = TypeVar("T")


class Order(TypedDict):
    """An attack order (TRE-14) or a redeploy move (TRE-32)."""

    ship: str
    slot: int


class Stats(TypedDict):
    raids: int
    searches: int
    battles_won: int
    armies_beaten: int
    credits_taken: int


class Player(TypedDict):
    name: str
    people: int
    fuel: int
    hand: list[str]
    offer: list[str]
    to_draw: int
    bought: bool
    buy_choice: Literal["draw", "decline"] | None
    missions: list[str]
    mission_offer: list[str]
    missions_discarded: list[str]
    missions_kept: bool
    credits: list[str]
    captured: list[str]
    orders: list[Order] | None
    redeploy: list[Order] | None
    stats: Stats


class Pile(TypedDict):
    """A city pile: its candidate cards and how many were removed unseen (TRE-3/4)."""

    mark: Literal["*"] | None
    candidates: list[str]
    removed: int


class Side(TypedDict):
    player: int
    ships: list[str]
    status: Literal["attacking", "fight", "lost", "won"]
    strength: int


class Attack(TypedDict):
    slot: int
    city: str
    sides: list[Side]
    resolved: bool


class Roll(TypedDict):
    player: int
    total: int | None


class _BattleRequired(TypedDict):
    slot: int
    step: Literal["decide", "reserve", "roll", "lose"]
    order: list[int]
    next: int
    rolls: list[Roll]


class Battle(_BattleRequired, total=False):
    winner: int


class Search(TypedDict):
    player: int
    city: str
    ships: list[str]
    countdown: int
    since: int


class ArmyChoice(TypedDict):
    player: int
    city: str
    choice: Literal["fight"] | None


class Loser(TypedDict):
    player: int
    city: str


class Army(TypedDict):
    card: str
    strength: int
    choices: list[ArmyChoice]
    loser: Loser | None


class TrembleState(CommonState):
    """A whole Tremble state: the common fields and the game's zones."""

    options: dict[str, object]
    players: list[Player]
    tokens: int
    piles: list[Pile]
    slots: list[str | None]
    city_discard: list[str]
    ship_deck: list[str]
    ship_discard: list[str]
    mission_deck: list[str]
    credit_supply: list[str]
    credits_returned: list[str]
    box: list[str]
    sent: list[str]
    attacks: list[Attack]
    battle: Battle | None
    searches: list[Search]
    army: Army | None


def typed(state: dict) -> TrembleState:
    """``state`` read as a ``TrembleState`` (the same object)."""
    return cast(TrembleState, state)


def required(value: T | None, what: str) -> T:
    """``value``, which the phase needs: a ``TypeError`` if it is null (only a
    hand-edited state gets there; ``compute_pending`` reports it as invalid).

    >>> required(3, "the battle")
    3
    """
    if value is None:
        raise TypeError(f"{what} is null")
    return value
