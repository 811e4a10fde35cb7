"""Where cards sit on the table, and moving fighters out of play.

Fighters in play are the attacker of a capture in progress and the guards on
controlled properties (``players[i].holdings``: property id -> guard id).  A
property belongs to whoever controls its guard (RAI-18); without a guard it
is unguarded and ownerless, back in the centre (RAI-19).

>>> state = {"players": [{"holdings": {"club": "S-9"}}, {"holdings": {}}],
...          "capture": {"attacker": 1, "fighter": "H-K", "property": "club"}}
>>> holder_of(state, "club"), guard_of(state, "club")
(0, 'S-9')
>>> sorted(fighters_in_play(state))
[('H-K', 1, 'attacker'), ('S-9', 0, 'guard')]
"""

from __future__ import annotations

from collections.abc import Iterator

from service.games.draft import Draft
from service.games.objects import Event
from service.games.raiders.power import forget_card
from service.games.raiders.state_types import RaidersState

#: fighter in play -> (controller, role: "attacker" | "guard")
InPlay = dict[str, tuple[int, str]]


def holder_of(state: RaidersState, prop: str) -> int | None:
    """The seat controlling ``prop``, or ``None`` (centre or deck)."""
    for seat, player in enumerate(state["players"]):
        if prop in player["holdings"]:
            return seat
    return None


def property_in_play(state: RaidersState, prop: str) -> bool:
    """``prop`` is a property in play: in the centre or held (RAI-15)."""
    return prop in state["centre"] or holder_of(state, prop) is not None


def guard_of(state: RaidersState, prop: str) -> str | None:
    seat = holder_of(state, prop)
    return None if seat is None else state["players"][seat]["holdings"][prop]


def fighters_in_play(state: RaidersState) -> Iterator[tuple[str, int, str]]:
    """``(fighter, controller, role)`` for the attacker and every guard."""
    capture = state.get("capture")
    if capture is not None:
        yield capture["fighter"], capture["attacker"], "attacker"
    for seat, player in enumerate(state["players"]):
        for guard in player["holdings"].values():
            yield guard, seat, "guard"


def in_play_map(state: RaidersState) -> InPlay:
    """fighter -> (controller, role) for every fighter in play."""
    return {f: (seat, role) for f, seat, role in fighters_in_play(state)}


def locate_guard(state: RaidersState, fighter: str) -> tuple[int, str] | None:
    """``(seat, property)`` of a guarding fighter, or ``None``."""
    for seat, player in enumerate(state["players"]):
        for prop, guard in player["holdings"].items():
            if guard == fighter:
                return seat, prop
    return None


def free_property(draft: Draft[RaidersState], seat: int, prop: str, events: list[Event]) -> str:
    """RAI-19: the property loses its guard and returns to the centre.

    Returns the guard that stood on it (the caller decides where it goes).
    """
    guard: str = draft.at("players", seat, "holdings").pop(prop)
    draft.at("centre").append(prop)
    events.append({"type": "property_freed", "property": prop, "from_player": seat})
    return guard


def remove_guard(draft: Draft[RaidersState], fighter: str, events: list[Event]) -> int:
    """Take a guard out of play (its property goes to the centre); its seat."""
    found = locate_guard(draft.root, fighter)
    assert found is not None, f"{fighter} guards no property"
    seat, prop = found
    free_property(draft, seat, prop, events)
    forget_card(draft, fighter)
    return seat
