"""Playing tricks: timing, targets, costs, RAI-28 and RAI-30 (RAI-22 … RAI-30).

``play_trick {player, card, target?, cost_card?}``.  The card must be in the
player's hand (RAI-22; always refused otherwise).  Everything else a trick
needs is checked by ``trick_problem``; with ``illegal_play: fizzle`` (RAI-30)
a trick that fails those checks still leaves the hand, goes to the discard
with no effect, and a ``fizzled`` event names the clause it broke.
"""

from __future__ import annotations

from service.games.draft import Draft
from service.games.errors import RuleViolation
from service.games.messages import N_
from service.games.objects import ActionObject, Entry, Event, JsonObject
from service.games.raiders.capture import (
    attacker_controls_target,
    end_without_fight,
    fizzle_note,
    restart_round,
)
from service.games.raiders.cards import Catalogue, Trick
from service.games.raiders.state import fizzles_allowed, in_capture
from service.games.raiders.state_types import RaidersState
from service.games.raiders.table import InPlay, fighters_in_play, in_play_map
from service.games.raiders.vocabulary import EFFECTS, TARGETS


def timing_problem(state: RaidersState, player: int, trick: Trick) -> str | None:
    """RAI-23: the trick's timing limit against the moment."""
    timing = trick["timing"]
    if timing == "capture_only" and not in_capture(state):
        return N_("this trick may only be played during a capture")
    if timing == "own_turn" and player != state["active"]:
        return N_("this trick may only be played in your own turn")
    return None


def target_problem(state: RaidersState, cat: Catalogue, player: int, card: str, trick: Trick,
                   target: str, in_play: InPlay | None = None) -> str | None:
    """RAI-24: does ``target`` match the trick's text exactly?"""
    if in_play is None:
        in_play = in_play_map(state)
    if target not in in_play:
        return N_("{target} is not a fighter in play", target=target)
    seat, role = in_play[target]
    kind = TARGETS.get(trick["target"] or "")  # ``None``: a trick that takes no target
    if kind is not None and kind.in_capture and state["capture"] is None:
        return N_("this trick targets a fighter in a capture, and none is in progress")
    if kind is not None and not kind.reaches(state, player, seat, role, target):
        return kind.refusal
    filters = trick["filters"]
    if "same_suit" in filters:
        suit = cat.fighter(card)["suit"]
        trump = state["trump"]
        if (trump is None or suit != trump["suit"]) and cat.fighter(target)["suit"] != suit:
            return (N_("this trick targets only a fighter of its own suit ({suit}); only a trump "
                       "trick reaches every suit", suit=suit))
    if "not_own" in filters and seat == player:
        return N_("this trick targets only another player's fighter")
    return None


def change_problem(state: RaidersState, player: int, trick: Trick, target: str | None,
                   in_play: InPlay | None = None) -> str | None:
    """RAI-28: a trick must change the game state, not just discard a card
    (each effect type's own test, ``vocabulary.EffectType.futile``)."""
    return EFFECTS[trick["effect"]].futile(state, player, target, in_play)


def _usable_on(state: RaidersState, cat: Catalogue, player: int, card: str, trick: Trick,
               target: str, in_play: InPlay) -> bool:
    """RAI-24 and RAI-28: ``target`` is one the trick may name and changes the game."""
    return (target_problem(state, cat, player, card, trick, target, in_play) is None
            and change_problem(state, player, trick, target, in_play) is None)


def trick_problem(state: RaidersState, cat: Catalogue, action: ActionObject) -> RuleViolation | None:
    """Why a ``play_trick`` of a card in hand is illegal, or ``None``."""
    player, card = action["player"], action["card"]
    trick = cat.fighter(card)["trick"]
    if trick is None:
        return RuleViolation("RAI-2", N_("{card} has no trick; it can only fight", card=card))
    problem = timing_problem(state, player, trick)
    if problem:
        return RuleViolation("RAI-23", problem)
    cost = action.get("cost_card")
    if trick["cost"] is not None:  # RULING RAI-22a: a trick's cost is payable, paid on play
        hand = state["players"][player]["hand"]
        if cost is None:
            return RuleViolation("RAI-22a", N_("this trick costs another card from your hand: "
                                               "name it in cost_card"))
        if cost == card or cost not in hand:
            return RuleViolation("RAI-22a", N_("the cost card {cost} is not another card in your "
                                               "hand", cost=cost))
    elif cost is not None:
        return RuleViolation("RAI-22a", N_("this trick has no cost; send no cost_card"))
    target = action.get("target")
    if EFFECTS[trick["effect"]].target_needed:
        if target is None:
            in_play = in_play_map(state)
            if not any(_usable_on(state, cat, player, card, trick, f, in_play) for f in in_play):
                return RuleViolation("RAI-28", N_("this trick has no legal target now: playing "
                                                  "it would only discard cards"))
            return RuleViolation("RAI-24", N_("this trick needs a target fighter"))
        problem = target_problem(state, cat, player, card, trick, target)
        if problem:
            return RuleViolation("RAI-24", problem)
    elif target is not None:
        return RuleViolation("RAI-24", N_("this trick takes no target"))
    problem = change_problem(state, player, trick, target)
    if problem:
        return RuleViolation("RAI-28", problem)
    return None


def check_play_trick(state: RaidersState, action: ActionObject) -> None:
    """RAI-22 always; the rest unless ``illegal_play: fizzle`` (RAI-30)."""
    player, card = action["player"], action["card"]
    if card not in state["players"][player]["hand"]:
        raise RuleViolation("RAI-22", N_("{card} is not in your hand: tricks are played from the "
                                         "hand", card=card))
    problem = trick_problem(state, Catalogue.of_state(state), action)
    if problem is not None and not fizzles_allowed(state):
        raise problem


def trick_fizzle_notes(state: RaidersState, action: ActionObject) -> JsonObject:
    """RAI-30 for ``check``: a ``play_trick`` that ``apply`` accepts only to
    let it fizzle (``illegal_play: fizzle``) is reported with the clause it
    breaks: ``{"fizzles": True, "rule", "reason"}``; a valid play: ``{}``."""
    return fizzle_note(trick_problem(state, Catalogue.of_state(state), action))


def _play(player: int, card: str, target: str | None, cost: str | None) -> JsonObject:
    action = {"type": "play_trick", "player": player, "card": card}
    if target is not None:
        action["target"] = target
    if cost is not None:
        action["cost_card"] = cost
    return action


def legal_tricks(state: RaidersState, entry: Entry) -> list[JsonObject]:
    """Every legal ``play_trick`` for the pending player now, listed directly."""
    player = entry["player"]
    cat = Catalogue.of_state(state)
    out: list[JsonObject] = []
    hand = state["players"][player]["hand"]
    in_play: InPlay | None = None
    for card in hand:
        trick = cat.fighter(card)["trick"]
        if trick is None or timing_problem(state, player, trick):
            continue
        costs: list[str | None] = ([c for c in hand if c != card]
                                   if trick["cost"] is not None else [None])
        if not costs:
            continue
        targets: list[str | None]
        if EFFECTS[trick["effect"]].target_needed:
            if in_play is None:
                in_play = in_play_map(state)
            futile = EFFECTS[trick["effect"]].futile
            targets = [t for t in in_play  # _usable_on, inlined: the hot path of listing
                       if target_problem(state, cat, player, card, trick, t, in_play) is None
                       and futile(state, player, t, in_play) is None]
        else:
            targets = [None] if change_problem(state, player, trick, None) is None else []
        for target in targets:  # _play, inlined: the hot path of listing
            for cost in costs:
                action = {"type": "play_trick", "player": player, "card": card}
                if target is not None:
                    action["target"] = target
                if cost is not None:
                    action["cost_card"] = cost
                out.append(action)
    return out


def trick_candidates(state: RaidersState, entry: Entry) -> list[JsonObject]:
    """A superset of the legal tricks (every card of the hand, with or without
    any fighter in play as target and any other card as cost), for ``enforce``
    to filter: the tests hold ``legal_tricks`` to it."""
    player = entry["player"]
    hand = state["players"][player]["hand"]
    targets: list[str | None] = [None, *(f for f, _, _ in fighters_in_play(state))]
    return [_play(player, card, target, cost)
            for card in hand for target in targets
            for cost in [None, *(c for c in hand if c != card)]]


def trick_out_of_turn(state: RaidersState, action: ActionObject) -> tuple[str, str] | None:
    """RAI-23: outside a capture a trick belongs to the active player's turn
    (in a capture's window the turn order of RAI-26 applies)."""
    if state["phase"] == "main":
        return "RAI-23", (N_("outside a capture only the active player (seat {active}) plays "
                             "tricks, in their own turn; the others may in a capture's response "
                             "window", active=state['active']))
    return None


def play_trick(draft: Draft[RaidersState], action: ActionObject, events: list[Event]) -> None:
    """RAI-22: the card goes to the discard; RAI-27 the effect resolves at once;
    RAI-26 a trick in a response window restarts the round."""
    state = draft.root
    cat = Catalogue.of_state(state)
    player, card = action["player"], action["card"]
    problem = trick_problem(state, cat, action)
    draft.at("players", player, "hand").remove(card)
    draft.at("discard").append(card)
    if problem is not None:
        events.append({"type": "fizzled", "player": player, "card": card,
                       "rule": problem.rule, "reason": problem.reason})
        return
    trick = cat.fighter(card)["trick"]
    assert trick is not None, "trick_problem refuses a card without a trick (RAI-2)"
    cost = action.get("cost_card")
    if cost is not None:
        draft.at("players", player, "hand").remove(cost)
        draft.at("discard").append(cost)
        events.append({"type": "cost_paid", "player": player, "card": cost, "rule": "RAI-22a"})
    events.append({"type": "trick_played", "player": player, "card": card,
                   "trick": trick["name"]["en"], "effect": trick["effect"],
                   "target": action.get("target")})
    EFFECTS[trick["effect"]].apply(draft, cat, player, trick, action.get("target"), events)
    if in_capture(state):
        if attacker_controls_target(state):
            end_without_fight(draft, events, "unopposed",
                              "the property under capture came under the attacker's control",
                              "RAI-17a")
        else:
            restart_round(draft)
