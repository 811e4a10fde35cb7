"""The types of a Raiders state (a JSON object; ``shapes.STATE_FIELDS`` is its schema).

The engine reads a state through these ``TypedDict``s; the base class hands
plain dicts over, and ``typed`` / ``root`` name the one place where a
validated state (or a draft's new state) is read as a ``RaidersState``.

The phases: ``deal`` → ``trump`` → (``turn_start`` → ``main`` ⇄ ``capture``)*
→ ``over``.

>>> state = {"phase": "capture"}
>>> in_capture(typed(state)), before_first_turn(typed(state))
(True, False)
"""

from __future__ import annotations

from typing import Literal, TypedDict

from service.games.draft import Draft
from service.games.state import CommonState

PHASES = ("deal", "trump", "turn_start", "main", "capture", "over")
#: the deal (RAI-4) and the trump (RAI-5): no turn yet, nobody can win
SETUP_PHASES = ("deal", "trump")


class Options(TypedDict):
    chance: str
    short_game: bool
    teams: bool
    double_deck: bool
    illegal_play: Literal["reject", "fizzle"]
    first_player: int | None
    turn_limit: int | None


class Player(TypedDict):
    name: str
    hand: list[str]
    #: property id -> the fighter guarding it (RAI-18)
    holdings: dict[str, str]


class Trump(TypedDict):
    card: str
    suit: str


class Capture(TypedDict):
    """The capture in progress and its response window (RAI-26)."""

    attacker: int
    fighter: str
    property: str
    priority: int
    passes: int


class Modifier(TypedDict):
    """A live power change (RAI-25)."""

    card: str
    amount: int
    until: Literal["capture", "turn"]


class OwedDraws(TypedDict):
    player: int
    count: int


class RaidersState(CommonState):
    options: Options
    players: list[Player]
    first_player: int
    active: int
    fighter_deck: list[str]
    bottom: str | None
    trump: Trump | None
    property_deck: list[str]
    centre: list[str]
    discard: list[str]
    capture: Capture | None
    capture_used: bool
    modifiers: list[Modifier]
    owed_draws: OwedDraws | None


# ``typed`` and ``root`` return their argument as it is: a type-checker's
# assertion (a ``cast`` without the call of ``typing.cast``, on the hot path)

def typed(state: dict) -> RaidersState:
    """A Raiders state handed over as a plain dict (no copy, no check)."""
    return state  # type: ignore[return-value]


def root(draft: Draft) -> RaidersState:
    """The new state a draft builds (write nested parts through ``draft.at``)."""
    return draft.root  # type: ignore[return-value]


def in_capture(state: RaidersState) -> bool:
    """A capture is in progress: its response window is open (RAI-21, RAI-26)."""
    return state["phase"] == "capture"


def before_first_turn(state: RaidersState) -> bool:
    """The deal (RAI-4) or the trump (RAI-5) is still going on."""
    return state["phase"] in SETUP_PHASES


def fizzles_allowed(state: RaidersState) -> bool:
    """RAI-30 ``illegal_play: fizzle``: an illegal play with a card really in
    hand goes to the discard with no effect instead of being refused."""
    return state["options"]["illegal_play"] == "fizzle"
