"""The types of a Raiders state.

Written by ``python -m service.games.typegen`` from its ``state_fields`` and options: do not edit.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from service.games.state_types import CommonState


class Options(TypedDict):
    #: server: the engine resolves shuffles and dice with a seeded generator kept in the state;
    #: table: chance nodes stay pending and the client enters what came up at the table
    chance: Literal["server", "table"]
    #: 3+ players: the target drops by 6 for every player beyond two
    short_game: bool
    #: 4 players, pairs 0+2 and 1+3 win together at 36 combined money
    teams: bool
    #: two copies of every card in both decks. No fixed default: left out, it is on above 4
    #: players and off at 2 to 4; 6 players need it
    double_deck: bool
    #: reject: an illegal play is refused; fizzle: an illegal trick or capture with a card
    #: really in hand sends it to the discard with no effect
    illegal_play: Literal["reject", "fizzle"]
    #: the seat that takes the first turn (default 0)
    first_player: int | None
    #: end after this many turns; the most money wins, ties share
    turn_limit: int | None


class Player(TypedDict):
    name: str
    hand: list[str]
    #: property id -> the fighter guarding it
    holdings: dict[str, str]


class Trump(TypedDict):
    #: a card instance id, e.g. S-Q or club#2
    card: str
    suit: str


class Capture(TypedDict):
    attacker: int
    #: a card instance id, e.g. S-Q or club#2
    fighter: str
    #: a card instance id, e.g. S-Q or club#2
    property: str
    priority: int
    passes: int


class Modifier(TypedDict):
    #: a card instance id, e.g. S-Q or club#2
    card: str
    amount: int
    until: Literal["capture", "turn"]


class OwedDraws(TypedDict):
    player: int
    count: int


class RaidersState(CommonState):
    """A whole Raiders state: the common fields and its zones."""

    options: Options
    players: list[Player]
    first_player: int
    active: int
    #: unordered multiset (sorted) of undrawn cards
    fighter_deck: list[str]
    #: the face-up trump card under the deck (RAI-5)
    bottom: str | None
    trump: Trump | None
    property_deck: list[str]
    #: unguarded, ownerless properties
    centre: list[str]
    discard: list[str]
    #: the capture in progress and its response window (RAI-26)
    capture: Capture | None
    #: the turn's capture attempt is spent (RAI-12)
    capture_used: bool
    #: live power changes (RAI-25)
    modifiers: list[Modifier]
    owed_draws: OwedDraws | None
