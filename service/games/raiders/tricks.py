"""Playing tricks: timing, targets, costs, RAI-28 and RAI-30 (RAI-22 … RAI-30).

``play_trick {player, card, target?, cost_card?}``.  The card must be in the
player's hand (RAI-22; always refused otherwise).  Everything else a trick
needs is checked by ``trick_problem``; with ``illegal_play: fizzle`` (RAI-30)
a trick that fails those checks still leaves the hand, goes to the discard
with no effect, and a ``fizzled`` event names the clause it broke.
"""

from __future__ import annotations

from service.games.errors import RuleViolation
from service.games.messages import N_
from service.games.raiders import deck
from service.games.raiders.capture import attacker_controls_target, end_without_fight, restart_round
from service.games.raiders.cards import Catalogue, for_state
from service.games.raiders.effects import apply_effect
from service.games.raiders.table import fighters_in_play, guard_of
from service.games.raiders.vocabulary import EFFECTS


def timing_problem(state: dict, player: int, trick: dict) -> str | None:
    """RAI-23: the trick's timing limit against the moment."""
    timing = trick["timing"]
    in_capture = state["phase"] == "capture"
    if timing == "capture_only" and not in_capture:
        return N_("this trick may only be played during a capture")
    if timing == "own_turn" and player != state["active"]:
        return N_("this trick may only be played in your own turn")
    return None


def in_play_map(state: dict) -> dict[str, tuple[int, str]]:
    """fighter -> (controller, role) for every fighter in play."""
    return {f: (seat, role) for f, seat, role in fighters_in_play(state)}


def target_problem(state: dict, cat: Catalogue, player: int, card: str, trick: dict,
                   target: str, in_play: dict | None = None) -> str | None:
    """RAI-24: does ``target`` match the trick's text exactly?"""
    if in_play is None:
        in_play = in_play_map(state)
    if target not in in_play:
        return N_("{target} is not a fighter in play", target=target)
    seat, role = in_play[target]
    kind = trick["target"]
    capture = state["capture"]
    if kind in ("attacker", "guard", "any_fighter_in_capture") and capture is None:
        return N_("this trick targets a fighter in a capture, and none is in progress")
    if kind == "attacker" and role != "attacker":
        return N_("this trick targets only the attacking fighter")
    is_capture_guard = capture is not None and guard_of(state, capture["property"]) == target
    if kind == "guard" and not is_capture_guard:
        return N_("this trick targets only the guard of the property under capture")
    if kind == "any_fighter_in_capture" and role != "attacker" and not is_capture_guard:
        return N_("this trick targets only the attacker or the guard of the capture")
    if kind == "guarding_fighter" and role != "guard":
        return N_("this trick targets only a fighter that already guards a property")
    if kind == "own_fighter" and seat != player:
        return N_("this trick targets only a fighter of yours")
    filters = trick["filters"]
    if "same_suit" in filters:
        suit = cat.fighter(card)["suit"]
        if suit != state["trump"]["suit"] and cat.fighter(target)["suit"] != suit:
            return (N_("this trick targets only a fighter of its own suit ({suit}); only a trump "
                       "trick reaches every suit", suit=suit))
    if "not_own" in filters and seat == player:
        return N_("this trick targets only another player's fighter")
    return None


def power_change_can_matter(state: dict, target: str, in_play: dict) -> bool:
    """RAI-28 with RAI-25: a power change expires with the capture (outside
    one, with the turn), so it changes the game only for a fighter that can
    still fight before then — the attacker or the guard under capture, or,
    outside a capture, a guard the active player may still attack this turn.
    Anything else (e.g. "Boar" on your own guard in your own turn) would only
    discard cards."""
    capture = state["capture"]
    if capture is not None:
        return target == capture["fighter"] or target == guard_of(state, capture["property"])
    seat, role = in_play.get(target, (None, None))
    return not state["capture_used"] and role == "guard" and seat != state["active"]


def change_problem(state: dict, player: int, trick: dict, target: str | None,
                   in_play: dict | None = None) -> str | None:
    """RAI-28: a trick must change the game state, not just discard a card."""
    effect = trick["effect"]
    if effect == "draw" and not deck.can_draw(state):
        return N_("there is no fighter card left to draw")
    if effect == "modify_power":
        if in_play is None:
            in_play = in_play_map(state)
        if not power_change_can_matter(state, target, in_play):
            return (N_("{target} fights in no capture before this power change expires, so "
                       "playing it would only discard cards", target=target))
    if effect == "steal_guard":
        if in_play is None:
            in_play = in_play_map(state)
        if in_play.get(target, (None,))[0] == player:
            return N_("that guard is already yours")
    return None


def trick_problem(state: dict, cat: Catalogue, action: dict) -> RuleViolation | None:
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
            if not any(target_problem(state, cat, player, card, trick, f, in_play) is None
                       and change_problem(state, player, trick, f, in_play) is None
                       for f in in_play):
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


def check_play_trick(state: dict, action: dict) -> None:
    """RAI-22 always; the rest unless ``illegal_play: fizzle`` (RAI-30)."""
    player, card = action["player"], action["card"]
    if card not in state["players"][player]["hand"]:
        raise RuleViolation("RAI-22", N_("{card} is not in your hand: tricks are played from the "
                                         "hand", card=card))
    problem = trick_problem(state, for_state(state), action)
    if problem is not None and state["options"]["illegal_play"] != "fizzle":
        raise problem


def fizzle_notes(state: dict, action: dict) -> dict:
    """RAI-30 for ``check``: a ``play_trick`` that ``apply`` accepts only to
    let it fizzle (``illegal_play: fizzle``) is reported with the clause it
    breaks: ``{"fizzles": True, "rule", "reason"}``; a valid play: ``{}``."""
    problem = trick_problem(state, for_state(state), action)
    if problem is None:
        return {}
    return {"fizzles": True, "rule": problem.rule,
            "reason": N_("{reason}; the card would go to the discard with no effect",
                         reason=problem.reason)}


def legal_tricks(state: dict, cat: Catalogue, player: int) -> list[dict]:
    """Every legal ``play_trick`` for ``player`` now, listed directly."""
    out = []
    hand = state["players"][player]["hand"]
    in_play = None
    for card in hand:
        trick = cat.fighter(card)["trick"]
        if trick is None or timing_problem(state, player, trick):
            continue
        costs = [c for c in hand if c != card] if trick["cost"] is not None else [None]
        if not costs:
            continue
        if EFFECTS[trick["effect"]].target_needed:
            if in_play is None:
                in_play = in_play_map(state)
            targets = [t for t in in_play
                       if target_problem(state, cat, player, card, trick, t, in_play) is None
                       and change_problem(state, player, trick, t, in_play) is None]
        else:
            targets = [None] if change_problem(state, player, trick, None) is None else []
        for target in targets:
            for cost in costs:
                action = {"type": "play_trick", "player": player, "card": card}
                if target is not None:
                    action["target"] = target
                if cost is not None:
                    action["cost_card"] = cost
                out.append(action)
    return out


def play_trick(draft, action: dict, events: list) -> None:
    """RAI-22: the card goes to the discard; RAI-27 the effect resolves at once;
    RAI-26 a trick in a response window restarts the round."""
    root = draft.root
    cat = for_state(root)
    player, card = action["player"], action["card"]
    problem = trick_problem(root, cat, action)
    draft.at("players", player, "hand").remove(card)
    draft.at("discard").append(card)
    if problem is not None:
        events.append({"type": "fizzled", "player": player, "card": card,
                       "rule": problem.rule, "reason": problem.reason})
        return
    trick = cat.fighter(card)["trick"]
    cost = action.get("cost_card")
    if cost is not None:
        draft.at("players", player, "hand").remove(cost)
        draft.at("discard").append(cost)
        events.append({"type": "cost_paid", "player": player, "card": cost, "rule": "RAI-22a"})
    events.append({"type": "trick_played", "player": player, "card": card,
                   "trick": trick["name"]["en"], "effect": trick["effect"],
                   "target": action.get("target")})
    apply_effect(draft, cat, player, trick, action.get("target"), events)
    if root["phase"] == "capture":
        if attacker_controls_target(root):
            end_without_fight(draft, events, "unopposed",
                              "the property under capture came under the attacker's control",
                              "RAI-17a")
        else:
            restart_round(draft)
