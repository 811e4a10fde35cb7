"""Reading a Raiders state: its phases (a JSON object; ``shapes.STATE_FIELDS`` is its schema).

The state's types are written from ``shapes.STATE_FIELDS`` into ``state_types``
(``python -m service.games.typegen``); ``Raiders`` is a ``Game[RaidersState]``, so
every hook and action reads them as they are.

The phases: ``deal`` → ``trump`` → (``turn_start`` → ``main`` ⇄ ``capture``)*
→ ``over``.

>>> state = {"phase": "capture"}
>>> in_capture(state), before_first_turn(state)
(True, False)
"""

from __future__ import annotations

from service.games.raiders.state_types import RaidersState

PHASES = ("deal", "trump", "turn_start", "main", "capture", "over")
#: the deal (RAI-4) and the trump (RAI-5): no turn yet, nobody can win
SETUP_PHASES = ("deal", "trump")


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
