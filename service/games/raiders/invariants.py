"""Invariants of a well-shaped Raiders state (run on every incoming state).

Every card exactly once across the zones of its deck (RAI-1), the trump
card consistent (RAI-5), guards are fighters sitting on properties,
hands fighter cards of sane size, the phase consistent with the capture,
the active seat, the owed draws and the modifiers.

RAI-29: an illegal play discovered only later stands.  So the invariants
judge a state as it is, never how it was reached: any well-formed,
consistent state is accepted and played on, whatever its history.
"""

from __future__ import annotations

from collections.abc import Iterable

from service.games.base import conservation_errors
from service.games.messages import N_
from service.games.objects import Errors
from service.games.raiders.cards import Catalogue
from service.games.raiders.deck import HAND_SIZE
from service.games.raiders.state import PHASES, before_first_turn, in_capture
from service.games.raiders.state_types import RaidersState
from service.games.raiders.table import fighters_in_play, property_in_play
from service.games.raiders.turn import compute_pending


def check_invariants(state: RaidersState, cat: Catalogue) -> Errors:
    """Seats and phase, then the cards (each stage only if the one before
    passed), then the trump, the capture and the turn; a state that passes
    them all must have something pending."""
    for stage in (_seat_errors, _card_errors):
        errors = stage(state, cat)
        if errors:
            return errors
    errors = {}
    for stage in (_trump_errors, _capture_errors, _turn_errors):
        for path, messages in stage(state, cat).items():
            errors.setdefault(path, []).extend(messages)
    if not errors and state["result"] is None and not compute_pending(state):
        errors["state.phase"] = [N_("nothing can happen next in phase {phase!r}: the state is "
                                    "stuck", phase=state["phase"])]
    return errors


def _seat_errors(state: RaidersState, cat: Catalogue) -> Errors:
    errors: Errors = {}
    n = len(state["players"])
    if state["phase"] not in PHASES:
        return {"state.phase": [N_("unknown phase; one of {items}", items=', '.join(PHASES))]}
    if not 0 <= state["active"] < n:
        _add(errors, "state.active", N_("must be a seat below {n}", n=n))
    if not 0 <= state["first_player"] < n:
        _add(errors, "state.first_player", N_("must be a seat below {n}", n=n))
    if state["first_player"] != (state["options"]["first_player"] or 0):
        _add(errors, "state.first_player", N_("differs from options.first_player"))
    return errors


def _card_errors(state: RaidersState, cat: Catalogue) -> Errors:
    """RAI-1: every card of each deck exactly once across its zones; RAI-4 the
    hands during the deal."""
    errors: Errors = {}
    phase = state["phase"]
    fighter_zones: dict[str, Iterable[str]] = {"state.fighter_deck": state["fighter_deck"],
                                               "state.discard": state["discard"]}
    if state["bottom"] is not None:
        fighter_zones["state.bottom"] = [state["bottom"]]
    property_zones: dict[str, Iterable[str]] = {"state.property_deck": state["property_deck"],
                                                "state.centre": state["centre"]}
    for seat, p in enumerate(state["players"]):
        fighter_zones[f"state.players.{seat}.hand"] = p["hand"]
        fighter_zones[f"state.players.{seat}.holdings"] = list(p["holdings"].values())
        property_zones[f"state.players.{seat}.holdings"] = list(p["holdings"])
        if phase == "deal" and len(p["hand"]) > HAND_SIZE:
            _add(errors, f"state.players.{seat}.hand",
                 N_("more than 6 cards during the deal (RAI-4)"))
        if phase == "trump" and len(p["hand"]) != HAND_SIZE:
            _add(errors, f"state.players.{seat}.hand", N_("6 cards each after the deal (RAI-4)"))
    capture = state["capture"]
    if capture is not None:
        fighter_zones["state.capture.fighter"] = [capture["fighter"]]
    # a known instance id is a card of its deck: only the others need a look at their face
    known_fighters, known_properties = cat.fighter_instances, cat.property_instances
    for path, cards in fighter_zones.items():
        for card in cards:
            if card not in known_fighters and not cat.is_fighter_card(card):
                _add(errors, path, N_("{card!r} is not a fighter-deck card (RAI-1)", card=card))
    for path, cards in property_zones.items():
        for card in cards:
            if card not in known_properties and not cat.is_property_card(card):
                _add(errors, path, N_("{card!r} is not a property card (RAI-1)", card=card))
    if errors:
        return errors
    double = state["options"]["double_deck"]
    errors.update(conservation_errors(fighter_zones, cat.decks[("fighters", double)]))
    property_errors = conservation_errors(property_zones, cat.decks[("properties", double)])
    for path, messages in property_errors.items():
        errors.setdefault(path, []).extend(messages)
    return errors


def _trump_errors(state: RaidersState, cat: Catalogue) -> Errors:
    """RAI-5: the trump card, face up under the deck until drawn."""
    errors: Errors = {}
    trump = state["trump"]
    if before_first_turn(state):
        if trump is not None or state["bottom"] is not None:
            _add(errors, "state.trump", N_("no trump before the trump card is revealed"))
    elif trump is None:
        _add(errors, "state.trump", N_("missing after the deal (RAI-5)"))
    elif trump["card"] not in cat.decks[("fighters", state["options"]["double_deck"])]:
        _add(errors, "state.trump.card", N_("is not a fighter-deck card (RAI-5)"))
    else:
        if cat.fighter(trump["card"])["suit"] != trump["suit"]:
            _add(errors, "state.trump.suit", N_("is not the suit of the trump card"))
        if state["bottom"] is not None and state["bottom"] != trump["card"]:
            _add(errors, "state.bottom", N_("the card under the deck must be the trump card"))
    return errors


def _capture_errors(state: RaidersState, cat: Catalogue) -> Errors:
    """The capture in progress, consistent with the phase (RAI-12, RAI-17a, RAI-26)."""
    errors: Errors = {}
    capture = state["capture"]
    n = len(state["players"])
    if in_capture(state) != (capture is not None):
        _add(errors, "state.capture", N_("a capture is in progress exactly in phase 'capture'"))
    if capture is None:
        return errors
    if capture["attacker"] != state["active"]:
        _add(errors, "state.capture.attacker", N_("only the active player captures (RAI-12)"))
    if not 0 <= capture["priority"] < n:
        _add(errors, "state.capture.priority", N_("must be a seat below {n}", n=n))
    if not 0 <= capture["passes"] < n:
        _add(errors, "state.capture.passes", N_("must be below the player count {n}", n=n))
    if cat.fighter(capture["fighter"])["power"] is None:
        _add(errors, "state.capture.fighter", N_("a card without power cannot capture (RAI-2)"))
    prop = capture["property"]
    if not property_in_play(state, prop):
        _add(errors, "state.capture.property", N_("is not a property in play"))
    if not state["capture_used"]:
        _add(errors, "state.capture_used", N_("must be true while capturing (RAI-12)"))
    attacker = capture["attacker"]
    if 0 <= attacker < n and prop in state["players"][attacker]["holdings"]:
        _add(errors, "state.capture.property", N_("the attacker already controls it: that "
                                                  "capture ends without a fight (RAI-17a)"))
    return errors


def _turn_errors(state: RaidersState, cat: Catalogue) -> Errors:
    """The turn count, the result, guards (RAI-2, RAI-18), owed draws and
    modifiers (RAI-25)."""
    errors: Errors = {}
    phase = state["phase"]
    n = len(state["players"])
    if before_first_turn(state) and state["turn"] != 0:
        _add(errors, "state.turn", N_("is 0 until the first turn"))
    if phase in ("turn_start", "main", "capture") and state["turn"] < 1:
        _add(errors, "state.turn", N_("turns count from 1"))
    if (phase == "over") != (state["result"] is not None):
        _add(errors, "state.result", N_("a result exactly when the phase is 'over'"))
    for seat, p in enumerate(state["players"]):
        for prop, guard in p["holdings"].items():
            if cat.fighter(guard)["power"] is None:
                _add(errors, f"state.players.{seat}.holdings.{prop}",
                     N_("{guard} has no power and cannot guard (RAI-2, RAI-18)", guard=guard))
    owed = state["owed_draws"]
    if owed is not None and phase not in ("main", "capture"):
        _add(errors, "state.owed_draws", N_("draws are owed only during a turn"))
    if owed is not None:
        if not 0 <= owed["player"] < n:
            _add(errors, "state.owed_draws.player", N_("must be a seat below {n}", n=n))
        if owed["count"] < 1:
            _add(errors, "state.owed_draws.count", N_("must be at least 1"))
    # RAI-25: modifiers sit on fighters in play
    in_play = {f for f, _, _ in fighters_in_play(state)}
    for i, mod in enumerate(state["modifiers"]):
        if mod["card"] not in in_play:
            _add(errors, f"state.modifiers.{i}.card", N_("is not a fighter in play"))
        if mod["until"] == "capture" and state["capture"] is None:
            _add(errors, f"state.modifiers.{i}.until",
                 N_("a capture modifier outlived its capture (RAI-25)"))
    return errors


def _add(errors: Errors, path: str, message: str) -> None:
    errors.setdefault(path, []).append(message)
