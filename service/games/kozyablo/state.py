"""The types of a Kozyablo state (a JSON object; ``shapes.STATE_FIELDS`` is its schema).

The engine reads a state through these ``TypedDict``s; the base class hands
plain dicts over, and ``typed`` names the one place where a validated state
(or a draft's new state, ``typed(draft.root)``) is read as a ``KozyabloState``.
Card instance ids, sector ids and capital ids are strings (``cards``).

Phases: ``setup`` → ``mulligan`` → (``start`` → ``main`` ⇄ ``response`` /
``combat`` / ``effect`` → ``end``)*; ``start`` and ``end`` pass within one
action unless a trigger's damage waits for a Defender (``effect``).

>>> typed({"phase": "main"})["phase"]
'main'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, NotRequired, TypedDict, TypeVar, cast

from service.games.state import CommonState

T = TypeVar("T")


class Options(TypedDict):
    chance: str
    response_window: Literal["when_able", "always"]
    turn_limit: int | None


class Player(TypedDict):
    name: str
    race: str
    capital: str
    hand: list[str]
    deck: list[str]
    discard: list[str]
    #: the cards a mulligan shuffles back once its discards are revealed (KOZ-9)
    aside: list[str]
    cards: list[str]
    mulligans: int
    ready: bool
    dead_heroes: list[str]
    capital_damage: int
    out: bool


class Sector(TypedDict):
    kind: str
    owner: int
    controller: int | None


class Unit(TypedDict):
    """A creature or hero on the table."""

    owner: int
    sector: str
    damage: int
    shadow: bool
    artifacts: list[str]
    #: exactly while ``shadow`` (KOZ-41)
    shadow_number: NotRequired[int]


class Building(TypedDict):
    owner: int
    sector: str
    damage: int


class Lasting(TypedDict):
    """Lasting magic on the table: on a creature (``unit``) or a squad (``sector`` + ``seat``)."""

    owner: int
    turns_left: int | None
    cast_turn: int
    unit: NotRequired[str]
    sector: NotRequired[str]
    seat: NotRequired[int]


class Queued(TypedDict):
    """A reveal still to happen (``to``) or an instruction (``do``: a mulligan's shuffle back)."""

    seat: int
    to: NotRequired[Literal["hand", "discard"]]
    do: NotRequired[Literal["back"]]


class Hit(TypedDict):
    target: str
    stage: Literal["evade", "defend"]


class Combat(TypedDict):
    """The fight in progress (``combat``); ``movers`` and ``to`` for a retreat attack only."""

    sector: str
    attacker: int
    kind: Literal["attack", "retreat"]
    waiting: list[str]
    current: str | None
    strikes_left: int
    hits: list[Hit]
    area: bool
    #: whose turn to strike it is, while that decision waits (RULING KOZ-41a)
    turn: NotRequired[list[str] | None]
    movers: NotRequired[list[str]]
    to: NotRequired[str]


class EffectHit(TypedDict):
    target: str
    amount: int


class Trigger(TypedDict):
    source: str
    index: int


class PendingEffect(TypedDict):
    """An effect's damage waiting for a Defender decision (KOZ-45, ``effect_damage``)."""

    player: int
    source: str | None
    magic: bool
    pierces: bool
    undead_immune: bool
    hits: list[EffectHit]
    then: Literal["main", "response", "end_turn", "start", "end"]
    triggers: NotRequired[list[Trigger]]


class KozyabloState(CommonState):
    options: Options
    players: list[Player]
    order: list[int]
    active: int | None
    sectors: dict[str, Sector]
    units: dict[str, Unit]
    buildings: dict[str, Building]
    lasting: dict[str, Lasting]
    queue: list[Queued]
    #: the main action waiting for the response window (KOZ-16)
    declared: dict[str, Any] | None
    responder: int | None
    #: ``"<source>:<ability>"`` of the free abilities used this turn
    used: list[str]
    combat: Combat | None
    effect: PendingEffect | None


def typed(state: dict) -> KozyabloState:
    """A Kozyablo state handed over as a plain dict (no copy, no check; the
    hot path, so no ``cast`` call either)."""
    return state  # type: ignore[return-value]


def reads(fn: Callable[[KozyabloState, dict], T]) -> Callable[[dict, dict], T]:
    """An action's ``check`` or ``legal`` that reads the state typed, as ``Action`` takes it."""
    return cast(Callable[[dict, dict], T], fn)


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
