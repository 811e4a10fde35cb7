"""The types of a Tremble state.

Written by ``python -m service.games.typegen`` from its ``state_fields`` and options: do not edit.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from service.games.state_types import CommonState


class Options(TypedDict):
    #: server: the engine resolves shuffles and dice with a seeded generator kept in the state;
    #: table: chance nodes stay pending and the client enters what came up at the table
    chance: Literal["server", "table"]
    #: play with secret missions (false: the recommended first game)
    missions: bool


class Order(TypedDict):
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
    #: this turn's buy step: drawing or declined (RULING TRE-12a); null: not said yet
    buy_choice: Literal["draw", "decline"] | None
    missions: list[str]
    mission_offer: list[str]
    missions_discarded: list[str]
    missions_kept: bool
    credits: list[str]
    captured: list[str]
    #: hidden from the others until revealed (TRE-14)
    orders: list[Order] | None
    #: hidden until revealed (TRE-32)
    redeploy: list[Order] | None
    stats: Stats


class Pile(TypedDict):
    """A pile as the multiset of its candidate cards plus the number removed unseen (TRE-3/TRE-4)."""

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


class Battle(TypedDict):
    slot: int
    step: Literal["decide", "reserve", "roll", "lose"]
    order: list[int]
    next: int
    rolls: list[Roll]
    winner: NotRequired[int]


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
    """A whole Tremble state: the common fields and its zones."""

    options: Options
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
