"""The types of a Kozyablo state.

Written by ``python -m service.games.typegen`` from its ``state_fields`` and options: do not edit.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from service.games.state_types import CommonState


class Options(TypedDict):
    #: server: the engine resolves shuffles and dice with a seeded generator kept in the state;
    #: table: chance nodes stay pending and the client enters what came up at the table
    chance: Literal["server", "table"]
    #: when_able: after an action is declared the opponent gets a response window only if they
    #: have a free ability they can use; always: after every declared action (they may only
    #: pass)
    response_window: Literal["when_able", "always"]
    #: end after this many player turns; the least-damaged capital wins, equal damage shares the
    #: win
    turn_limit: int | None


class Player(TypedDict):
    name: str
    race: Literal["pozorki", "trutni", "kozly", "zhloby"]
    capital: str
    hand: list[str]
    deck: list[str]
    discard: list[str]
    aside: list[str]
    cards: list[str]
    mulligans: int
    ready: bool
    dead_heroes: list[str]
    capital_damage: int
    #: the capital fell: out of the game (RULING KOZ-53)
    out: bool


class Sector(TypedDict):
    kind: Literal["capital", "gold_mine", "crystal_mine", "energy_source"]
    owner: int
    controller: int | None


class Unit(TypedDict):
    owner: int
    sector: str
    damage: int
    shadow: bool
    artifacts: list[str]
    shadow_number: NotRequired[int]


class Building(TypedDict):
    owner: int
    sector: str
    damage: int


class Lasting(TypedDict):
    owner: int
    turns_left: int | None
    cast_turn: int
    unit: NotRequired[str]
    sector: NotRequired[str]
    seat: NotRequired[int]


class Queued(TypedDict):
    seat: int
    to: NotRequired[Literal["hand", "discard"]]
    do: NotRequired[Literal["back"]]


class Hit(TypedDict):
    target: str
    stage: Literal["evade", "defend"]


class Combat(TypedDict):
    sector: str
    attacker: int
    kind: Literal["attack", "retreat"]
    waiting: list[str]
    current: str | None
    strikes_left: int
    hits: list[Hit]
    area: bool
    movers: NotRequired[list[str]]
    to: NotRequired[str]
    turn: NotRequired[list[str] | None]


class EffectHit(TypedDict):
    target: str
    amount: int


class Trigger(TypedDict):
    source: str
    index: int


class PendingEffect(TypedDict):
    player: int
    source: str | None
    magic: bool
    pierces: bool
    undead_immune: bool
    hits: list[EffectHit]
    then: Literal["main", "response", "end_turn", "start", "end"]
    triggers: NotRequired[list[Trigger]]


class KozyabloState(CommonState):
    """A whole Kozyablo state: the common fields and its zones."""

    options: Options
    players: list[Player]
    order: list[int]
    active: int | None
    sectors: dict[str, Sector]
    units: dict[str, Unit]
    buildings: dict[str, Building]
    lasting: dict[str, Lasting]
    queue: list[Queued]
    declared: dict[str, Any] | None
    responder: int | None
    used: list[str]
    combat: Combat | None
    effect: PendingEffect | None
