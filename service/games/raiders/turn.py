"""Turn structure: who decides what, the start and the end of a turn.

RAI-10 draw to 6, RAI-11 reveal a property, RAI-12 one capture attempt,
RAI-13 the player ends the turn; RULING RAI-5a seat order from the first
player; RULING RAI-31 the turn limit.

Phases: ``deal`` → ``trump`` → (``turn_start`` → ``main`` ⇄ ``capture``)* →
``over``.  ``pending`` is derived from the state by ``compute_pending``; the
non-random steps (leaving ``turn_start`` once nothing is left to draw or
reveal) happen in ``advance`` after every action.
"""

from __future__ import annotations

from service.games.draft import Draft
from service.games.objects import ActionObject, Entry, Event
from service.games.raiders import deck
from service.games.raiders.power import expire
from service.games.raiders.scoring import finish_by_turn_limit
from service.games.raiders.state import in_capture
from service.games.raiders.state_types import RaidersState


def compute_pending(state: RaidersState) -> list[Entry]:
    if state["result"] is not None:
        return []
    node = deck.chance_node(state)
    if node is not None:
        return [node]
    capture = state["capture"]
    if state["phase"] == "main":
        return [{"player": state["active"], "decision": "turn"}]
    if in_capture(state) and capture is not None:
        return [{"player": capture["priority"], "decision": "respond"}]
    return []


def begin_turn(draft: Draft[RaidersState], seat: int, events: list[Event]) -> None:
    """A new turn for ``seat``: draw (RAI-10) and reveal (RAI-11) come as chance."""
    state = draft.root
    state["active"] = seat
    state["turn"] += 1
    state["capture_used"] = False
    state["phase"] = "turn_start"
    events.append({"type": "turn_started", "player": seat, "turn": state["turn"]})


def advance(draft: Draft[RaidersState], events: list[Event]) -> None:
    """Carry out the steps that need no decision and no chance (after every action)."""
    state = draft.root
    if state["result"] is not None:
        state["phase"] = "over"
        return
    if state["owed_draws"] is not None and not deck.can_draw(state):
        state["owed_draws"] = None
    if state["phase"] == "trump" and state["trump"] is not None:
        begin_turn(draft, state["first_player"], events)
    if state["phase"] == "turn_start" and deck.chance_node(state) is None:
        state["phase"] = "main"


def limit_reached(state: RaidersState) -> bool:
    """RULING RAI-31: the game ends after ``turn_limit`` turns (if set)."""
    limit = state["options"]["turn_limit"]
    return limit is not None and state["turn"] >= limit


def end_turn(draft: Draft[RaidersState], action: ActionObject, events: list[Event]) -> None:
    """RAI-13; RAI-25 turn modifiers expire; RAI-31 the turn limit; RAI-5a next seat."""
    state = draft.root
    seat = state["active"]
    expire(draft, "turn", events)
    events.append({"type": "turn_ended", "player": seat, "turn": state["turn"]})
    if limit_reached(state):
        finish_by_turn_limit(draft, events)
        return
    begin_turn(draft, (seat + 1) % len(state["players"]), events)
