"""The capture: declaration, the response window, resolution (RAI-12 … RAI-21, RAI-26).

``state["capture"]`` while one is in progress::

    {"attacker": seat, "fighter": id, "property": id,
     "priority": seat, "passes": n}

RAI-26: priority starts with the attacker and goes round the table; each
player plays a trick or passes; any trick restarts the round (priority back to
the attacker, passes from zero); the capture resolves when every player has
passed in succession.  RAI-21: meanwhile only tricks may be played.

Resolution (RAI-16, RAI-17): against a guard first (greater kills, smaller
dies, equal both die), then, if the attacker still stands, against the
property's own power (greater or equal captures, else the attacker dies).
RAI-18: the winner stays on as guard.  RAI-19: a property left without a guard
goes back to the centre.

A capture can also end without a fight: RULING RAI-17a, a trick in the window
puts the property under capture under the attacker's control (e.g. steals its
guard); RULING RAI-6a, a trick in the window wins the game.  Either way the
attacking fighter returns to its owner's hand and the attempt stays used up
(``end_without_fight``).
"""

from __future__ import annotations

from service.games.draft import Draft
from service.games.errors import RuleViolation
from service.games.messages import N_
from service.games.objects import ActionObject, Entry, Event, JsonObject
from service.games.raiders.cards import Catalogue
from service.games.raiders.power import current_power, expire, forget_card
from service.games.raiders.state import fizzles_allowed, in_capture
from service.games.raiders.state_types import RaidersState
from service.games.raiders.table import free_property, guard_of, holder_of, property_in_play


def captures(power: int, property_power: int) -> bool:
    """RAI-16: a fighter takes an unguarded property when its power is greater
    than or equal to the property's; otherwise it dies.

    >>> captures(4, 4), captures(3, 4)
    (True, False)
    """
    return power >= property_power


def dies_fighting(power: int, opponent_power: int) -> bool:
    """RAI-17: attacker against guard, the smaller dies and equal both die: a
    fighter dies unless its power is greater than its opponent's.

    >>> dies_fighting(5, 5), dies_fighting(4, 5), dies_fighting(6, 5)
    (True, True, False)
    """
    return power <= opponent_power


def capture_problem(state: RaidersState, action: ActionObject, cat: Catalogue) -> RuleViolation | None:
    """Why a ``capture`` is illegal, or ``None`` (RAI-2, RAI-12, RAI-15, RAI-21)."""
    player, fighter, prop = action["player"], action["fighter"], action["property"]
    capture = state["capture"]
    if in_capture(state):
        if capture is not None and player == capture["attacker"]:
            return RuleViolation("RAI-12", N_("your capture attempt is in progress: one turn, "
                                              "one fighter, one attempt"))
        return RuleViolation("RAI-21", N_("a capture is in progress: only tricks or a pass now"))
    if state["capture_used"]:
        return RuleViolation("RAI-12", N_("you have already made your capture attempt this turn"))
    if fighter not in state["players"][player]["hand"]:
        return RuleViolation("RAI-15", N_("{fighter} is not in your hand", fighter=fighter))
    if cat.fighter(fighter)["power"] is None:
        return RuleViolation("RAI-2", N_("{fighter} has no power: it can only be played as a "
                                         "trick", fighter=fighter))
    if prop in state["centre"]:
        return None
    holder = holder_of(state, prop)
    if holder is None:
        return RuleViolation("RAI-15", N_("{prop} is not a property in play", prop=prop))
    if holder == player:
        return RuleViolation("RAI-15", N_("you already control {prop}", prop=prop))
    return None


def can_fizzle(state: RaidersState, action: ActionObject) -> bool:
    """RAI-30 (RULING): with ``illegal_play: fizzle`` a capture fizzles only when
    its fighter is really in the player's hand and it points at a property in
    play; anything else is refused."""
    return (fizzles_allowed(state)
            and action["fighter"] in state["players"][action["player"]]["hand"]
            and property_in_play(state, action["property"]))


def check_capture(state: RaidersState, action: ActionObject) -> None:
    """``enforce`` of a ``capture``: refused unless legal or, RAI-30, it may fizzle."""
    problem = capture_problem(state, action, Catalogue.of_state(state))
    if problem is not None and not can_fizzle(state, action):
        raise problem


def fizzle_note(problem: RuleViolation | None) -> JsonObject:
    """RAI-30 for ``check``: the clause an illegal play that ``apply`` lets
    fizzle breaks, ``{"fizzles": True, "rule", "reason"}``; ``{}`` if legal."""
    if problem is None:
        return {}
    return {"fizzles": True, "rule": problem.rule,
            "reason": N_("{reason}; the card would go to the discard with no effect",
                         reason=problem.reason)}


def capture_fizzle_notes(state: RaidersState, action: ActionObject) -> JsonObject:
    """RAI-30 for ``check``: an illegal capture that ``apply`` lets fizzle."""
    return fizzle_note(capture_problem(state, action, Catalogue.of_state(state)))


def capture_targets(state: RaidersState, player: int) -> list[str]:
    """Properties ``player`` may attack: the centre and others' holdings (RAI-15)."""
    out = list(state["centre"])
    for seat, p in enumerate(state["players"]):
        if seat != player:
            out.extend(p["holdings"])
    return out


def legal_captures(state: RaidersState, entry: Entry) -> list[JsonObject]:
    """Every legal ``capture`` now, listed directly: outside a capture, while
    the turn's attempt is unused (RAI-12), each fighter with a power (RAI-2)
    against each property of the centre or of another player (RAI-15)."""
    if state["phase"] != "main" or state["capture_used"]:
        return []
    player = entry["player"]
    cat = Catalogue.of_state(state)
    targets = capture_targets(state, player)
    return [{"type": "capture", "player": player, "fighter": card, "property": prop}
            for card in state["players"][player]["hand"] if cat.fighter(card)["power"] is not None
            for prop in targets]


def capture_candidates(state: RaidersState, entry: Entry) -> list[JsonObject]:
    """A superset of the legal captures (every card against every property in
    play), for ``enforce`` to filter: the tests hold ``legal_captures`` to it."""
    player = entry["player"]
    props = list(state["centre"]) + [p for pl in state["players"] for p in pl["holdings"]]
    return [{"type": "capture", "player": player, "fighter": card, "property": prop}
            for card in state["players"][player]["hand"] for prop in props]


def capture_out_of_turn(state: RaidersState, action: ActionObject) -> tuple[str, str]:
    """The clause a capture by a player who may not act now breaks: it is the
    active player's one attempt in their own turn (RAI-12); while a capture
    is in progress the others may only play tricks (RAI-21)."""
    capture = state["capture"]
    if capture is None or not in_capture(state):
        return "RAI-12", (N_("only the active player (seat {active}) captures, once, in "
                             "their own turn", active=state['active']))
    if action.get("player") == capture["attacker"]:
        return "RAI-12", (N_("your capture attempt is in progress: one turn, one fighter, "
                             "one attempt"))
    return "RAI-21", N_("a capture is in progress: the other players may only play tricks")


def declare(draft: Draft[RaidersState], action: ActionObject, events: list[Event]) -> None:
    """RAI-15: the fighter leaves the hand and faces the property; RAI-12 the
    attempt is used; RAI-26 the window opens with the attacker.  RAI-30: an
    illegal capture accepted in ``fizzle`` mode only discards its fighter."""
    player = action["player"]
    state = draft.root
    problem = capture_problem(state, action, Catalogue.of_state(state))
    draft.at("players", player, "hand").remove(action["fighter"])
    if problem is not None:  # RAI-30 fizzle: to the discard; RAI-12 the attempt is spent
        draft.at("discard").append(action["fighter"])
        if player == state["active"]:
            state["capture_used"] = True
        events.append({"type": "fizzled", "player": player, "card": action["fighter"],
                       "rule": problem.rule, "reason": problem.reason})
        return
    state["capture"] = {"attacker": player, "fighter": action["fighter"],
                        "property": action["property"], "priority": player, "passes": 0}
    state["capture_used"] = True
    state["phase"] = "capture"
    events.append({"type": "capture_declared", "player": player, "fighter": action["fighter"],
                   "property": action["property"], "guard": guard_of(state, action["property"])})


def check_pass(state: RaidersState, action: ActionObject) -> None:
    if not in_capture(state):
        raise RuleViolation("RAI-26", N_("there is no capture response window to pass in"))


def check_end_turn(state: RaidersState, action: ActionObject) -> None:
    if in_capture(state):
        raise RuleViolation("RAI-26", N_("the capture resolves first: every player must pass"))


def restart_round(draft: Draft[RaidersState]) -> None:
    """RAI-26: any trick restarts the round, from the attacker."""
    capture = draft.at("capture")
    capture["priority"] = capture["attacker"]
    capture["passes"] = 0


def pass_priority(draft: Draft[RaidersState], action: ActionObject, events: list[Event]) -> None:
    """RAI-26: the next player gets priority; all passed in succession → ``resolve_capture``."""
    capture = draft.at("capture")
    capture["passes"] += 1
    n = len(draft.root["players"])
    events.append({"type": "passed", "player": action["player"]})
    if capture["passes"] >= n:
        resolve_capture(draft, events)
    else:
        capture["priority"] = (capture["priority"] + 1) % n


def _dies(draft: Draft[RaidersState], card: str, role: str, rule: str, events: list[Event]) -> None:
    forget_card(draft, card)
    draft.at("discard").append(card)
    events.append({"type": "fighter_died", "card": card, "role": role, "cause": "combat",
                   "rule": rule})


def resolve_capture(draft: Draft[RaidersState], events: list[Event]) -> None:
    """RAI-16 … RAI-19: fight the guard, then the property."""
    state = draft.root
    cat = Catalogue.of_state(state)
    capture = state["capture"]
    assert capture is not None, "a capture resolves while in progress"
    attacker, fighter, prop = capture["attacker"], capture["fighter"], capture["property"]
    power = current_power(state, cat, fighter)
    holder = holder_of(state, prop)
    if holder is not None:
        guard = state["players"][holder]["holdings"][prop]
        guard_power = current_power(state, cat, guard)
        events.append({"type": "combat", "attacker": fighter, "attacker_power": power,
                       "guard": guard, "guard_power": guard_power, "rule": "RAI-17"})
        if dies_fighting(guard_power, power):
            free_property(draft, holder, prop, events)
            _dies(draft, guard, "guard", "RAI-17", events)
        if dies_fighting(power, guard_power):
            _dies(draft, fighter, "attacker", "RAI-17", events)
            end_capture(draft, events, "failed", "the attacker died against the guard")
            return
    prop_power = cat.property(prop)["power"]
    if captures(power, prop_power):
        draft.at("centre").remove(prop)
        draft.at("players", attacker, "holdings")[prop] = fighter
        events.append({"type": "captured", "player": attacker, "property": prop,
                       "guard": fighter, "power": power, "property_power": prop_power,
                       "rule": "RAI-18"})
        end_capture(draft, events, "captured", "the attacker now guards the property")
    else:
        _dies(draft, fighter, "attacker", "RAI-16", events)
        end_capture(draft, events, "failed",
                    f"power {power} is below the property's power {prop_power}")


def end_capture(draft: Draft[RaidersState], events: list[Event], outcome: str, reason: str,
                rule: str | None = None) -> None:
    """Close the window; RAI-25 capture modifiers expire; back to the turn."""
    state = draft.root
    capture = state["capture"]
    assert capture is not None, "only a capture in progress ends"
    state["capture"] = None
    state["phase"] = "main"
    event = {"type": "capture_ended", "player": capture["attacker"],
             "property": capture["property"], "outcome": outcome, "reason": reason}
    if rule is not None:
        event["rule"] = rule
    events.append(event)
    expire(draft, "capture", events)


def attacker_controls_target(state: RaidersState) -> bool:
    """RULING RAI-17a: the property under capture is already the attacker's."""
    capture = state["capture"]
    return capture is not None and holder_of(state, capture["property"]) == capture["attacker"]


def end_without_fight(draft: Draft[RaidersState], events: list[Event], outcome: str, reason: str,
                      rule: str) -> None:
    """RULING RAI-17a / RAI-6a: the capture ends with no fight; the attacking
    fighter returns to its owner's hand; the attempt stays used (RAI-12)."""
    capture = draft.root["capture"]
    assert capture is not None, "only a capture in progress ends"
    fighter, seat = capture["fighter"], capture["attacker"]
    forget_card(draft, fighter)
    draft.at("players", seat, "hand").append(fighter)
    events.append({"type": "fighter_returned", "card": fighter, "player": seat,
                   "role": "attacker", "rule": rule})
    end_capture(draft, events, outcome, reason, rule)
