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

from service.games.errors import RuleViolation
from service.games.messages import N_
from service.games.raiders.cards import Catalogue, for_state
from service.games.raiders.power import current_power, expire, forget_card
from service.games.raiders.table import free_property, holder_of


def capture_problem(state: dict, action: dict, cat: Catalogue) -> RuleViolation | None:
    """Why a ``capture`` is illegal, or ``None`` (RAI-2, RAI-12, RAI-15, RAI-21)."""
    player, fighter, prop = action["player"], action["fighter"], action["property"]
    if state["phase"] == "capture":
        if player == state["capture"]["attacker"]:
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


def can_fizzle(state: dict, action: dict) -> bool:
    """RAI-30 (RULING): with ``illegal_play: fizzle`` a capture fizzles only when
    its fighter is really in the player's hand and it points at a property in
    play; anything else is refused."""
    prop = action["property"]
    return (state["options"]["illegal_play"] == "fizzle"
            and action["fighter"] in state["players"][action["player"]]["hand"]
            and (prop in state["centre"] or holder_of(state, prop) is not None))


def check_capture(state: dict, action: dict, cat: Catalogue) -> None:
    problem = capture_problem(state, action, cat)
    if problem is not None and not can_fizzle(state, action):
        raise problem


def fizzle_notes(state: dict, action: dict) -> dict:
    """RAI-30 for ``check``: an illegal capture that ``apply`` lets fizzle."""
    problem = capture_problem(state, action, for_state(state))
    if problem is None:
        return {}
    return {"fizzles": True, "rule": problem.rule,
            "reason": N_("{reason}; the card would go to the discard with no effect",
                         reason=problem.reason)}


def capture_targets(state: dict, player: int) -> list[str]:
    """Properties ``player`` may attack: the centre and others' holdings (RAI-15)."""
    out = list(state["centre"])
    for seat, p in enumerate(state["players"]):
        if seat != player:
            out.extend(p["holdings"])
    return out


def declare(draft, action: dict, events: list) -> None:
    """RAI-15: the fighter leaves the hand and faces the property; RAI-12 the
    attempt is used; RAI-26 the window opens with the attacker.  RAI-30: an
    illegal capture accepted in ``fizzle`` mode only discards its fighter."""
    player = action["player"]
    root = draft.root
    problem = capture_problem(root, action, for_state(root))
    draft.at("players", player, "hand").remove(action["fighter"])
    if problem is not None:  # RAI-30 fizzle: to the discard; RAI-12 the attempt is spent
        draft.at("discard").append(action["fighter"])
        if player == root["active"]:
            root["capture_used"] = True
        events.append({"type": "fizzled", "player": player, "card": action["fighter"],
                       "rule": problem.rule, "reason": problem.reason})
        return
    root["capture"] = {"attacker": player, "fighter": action["fighter"],
                       "property": action["property"], "priority": player, "passes": 0}
    root["capture_used"] = True
    root["phase"] = "capture"
    events.append({"type": "capture_declared", "player": player, "fighter": action["fighter"],
                   "property": action["property"], "guard": _guard(root, action["property"])})


def _guard(state: dict, prop: str) -> str | None:
    seat = holder_of(state, prop)
    return None if seat is None else state["players"][seat]["holdings"][prop]


def check_pass(state: dict, action: dict) -> None:
    if state["phase"] != "capture":
        raise RuleViolation("RAI-26", N_("there is no capture response window to pass in"))


def check_end_turn(state: dict, action: dict) -> None:
    if state["phase"] == "capture":
        raise RuleViolation("RAI-26", N_("the capture resolves first: every player must pass"))


def restart_round(draft) -> None:
    """RAI-26: any trick restarts the round, from the attacker."""
    capture = draft.at("capture")
    capture["priority"] = capture["attacker"]
    capture["passes"] = 0


def pass_priority(draft, action: dict, events: list) -> None:
    """RAI-26: the next player gets priority; all passed in succession → resolve."""
    capture = draft.at("capture")
    capture["passes"] += 1
    n = len(draft.root["players"])
    events.append({"type": "passed", "player": action["player"]})
    if capture["passes"] >= n:
        resolve(draft, events)
    else:
        capture["priority"] = (capture["priority"] + 1) % n


def _dies(draft, card: str, role: str, rule: str, events: list) -> None:
    forget_card(draft, card)
    draft.at("discard").append(card)
    events.append({"type": "fighter_died", "card": card, "role": role, "cause": "combat",
                   "rule": rule})


def resolve(draft, events: list) -> None:
    """RAI-16 … RAI-19: fight the guard, then the property."""
    root = draft.root
    cat = for_state(root)
    capture = root["capture"]
    attacker, fighter, prop = capture["attacker"], capture["fighter"], capture["property"]
    power = current_power(root, cat, fighter)
    holder = holder_of(root, prop)
    if holder is not None:
        guard = root["players"][holder]["holdings"][prop]
        guard_power = current_power(root, cat, guard)
        events.append({"type": "combat", "attacker": fighter, "attacker_power": power,
                       "guard": guard, "guard_power": guard_power, "rule": "RAI-17"})
        if power >= guard_power:
            free_property(draft, holder, prop, events)
            _dies(draft, guard, "guard", "RAI-17", events)
        if power <= guard_power:
            _dies(draft, fighter, "attacker", "RAI-17", events)
            end_capture(draft, events, "failed", "the attacker died against the guard")
            return
    prop_power = cat.property(prop)["power"]
    if power >= prop_power:
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


def end_capture(draft, events: list, outcome: str, reason: str,
                rule: str | None = None) -> None:
    """Close the window; RAI-25 capture modifiers expire; back to the turn."""
    root = draft.root
    capture = root["capture"]
    root["capture"] = None
    root["phase"] = "main"
    event = {"type": "capture_ended", "player": capture["attacker"],
             "property": capture["property"], "outcome": outcome, "reason": reason}
    if rule is not None:
        event["rule"] = rule
    events.append(event)
    expire(draft, "capture", events)


def attacker_controls_target(state: dict) -> bool:
    """RULING RAI-17a: the property under capture is already the attacker's."""
    capture = state["capture"]
    return capture is not None and holder_of(state, capture["property"]) == capture["attacker"]


def end_without_fight(draft, events: list, outcome: str, reason: str, rule: str) -> None:
    """RULING RAI-17a / RAI-6a: the capture ends with no fight; the attacking
    fighter returns to its owner's hand; the attempt stays used (RAI-12)."""
    capture = draft.root["capture"]
    fighter, seat = capture["fighter"], capture["attacker"]
    forget_card(draft, fighter)
    draft.at("players", seat, "hand").append(fighter)
    events.append({"type": "fighter_returned", "card": fighter, "player": seat,
                   "role": "attacker", "rule": rule})
    end_capture(draft, events, outcome, reason, rule)
