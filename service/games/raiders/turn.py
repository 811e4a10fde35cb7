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

from service.games.raiders import deck
from service.games.raiders.power import expire
from service.games.raiders.scoring import finish_by_turn_limit


def compute_pending(state: dict) -> list[dict]:
    if state["result"] is not None:
        return []
    node = deck.chance_node(state)
    if node is not None:
        return [node]
    phase = state["phase"]
    if phase == "main":
        return [{"player": state["active"], "decision": "turn"}]
    if phase == "capture":
        return [{"player": state["capture"]["priority"], "decision": "respond"}]
    return []


def begin_turn(draft, seat: int, events: list) -> None:
    """A new turn for ``seat``: draw (RAI-10) and reveal (RAI-11) come as chance."""
    root = draft.root
    root["active"] = seat
    root["turn"] += 1
    root["capture_used"] = False
    root["phase"] = "turn_start"
    events.append({"type": "turn_started", "player": seat, "turn": root["turn"]})


def advance(draft, events: list) -> None:
    """Carry out the steps that need no decision and no chance."""
    root = draft.root
    if root["result"] is not None:
        root["phase"] = "over"
        return
    if root["owed_draws"] is not None and not deck.can_draw(root):
        root["owed_draws"] = None
    if root["phase"] == "trump" and root["trump"] is not None:
        begin_turn(draft, root["first_player"], events)
    if root["phase"] == "turn_start" and deck.chance_node(root) is None:
        root["phase"] = "main"


def end_turn(draft, action: dict, events: list) -> None:
    """RAI-13; RAI-25 turn modifiers expire; RAI-31 the turn limit; RAI-5a next seat."""
    root = draft.root
    seat = root["active"]
    expire(draft, "turn", events)
    events.append({"type": "turn_ended", "player": seat, "turn": root["turn"]})
    limit = root["options"]["turn_limit"]
    if limit is not None and root["turn"] >= limit:
        finish_by_turn_limit(draft, events)
        return
    begin_turn(draft, (seat + 1) % len(root["players"]), events)
