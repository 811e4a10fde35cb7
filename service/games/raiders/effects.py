"""The one effect engine: every trick effect type of ``vocabulary.EFFECTS``.

Tricks resolve at once, in the order played (RAI-27).  No code here knows a
card by name: a card's trick data selects the effect and its parameters.
"""

from __future__ import annotations

from service.games.raiders.capture import end_capture
from service.games.raiders.power import add_modifier, current_power, forget_card
from service.games.raiders.table import locate_guard, remove_guard


def apply_effect(draft, cat, player: int, trick: dict, target: str | None,
                 events: list) -> None:
    """Carry out ``trick`` for ``player`` on ``target`` (a fighter in play or None)."""
    _EFFECTS[trick["effect"]](draft, cat, player, trick, target, events)


def _modify_power(draft, cat, player, trick, target, events):
    """RAI-25: a power change that expires with the capture (or the turn)."""
    during_capture = draft.root["phase"] == "capture"
    mod = add_modifier(draft, target, trick["amount"], during_capture)
    events.append({"type": "power_modified", "card": target, "amount": trick["amount"],
                   "power": current_power(draft.root, cat, target), "until": mod["until"]})


def _is_attacker(state: dict, fighter: str) -> bool:
    capture = state["capture"]
    return capture is not None and capture["fighter"] == fighter


def _kill(draft, cat, player, trick, target, events):
    """The target dies: a dead attacker fails its capture; a dead guard frees
    its property (RAI-19)."""
    if _is_attacker(draft.root, target):
        forget_card(draft, target)
        draft.at("discard").append(target)
        events.append({"type": "fighter_died", "card": target, "role": "attacker",
                       "cause": "trick"})
        end_capture(draft, events, "failed", "the attacker was killed")
    else:
        remove_guard(draft, target, events)
        draft.at("discard").append(target)
        events.append({"type": "fighter_died", "card": target, "role": "guard",
                       "cause": "trick"})


def _return_to_hand(draft, cat, player, trick, target, events):
    """RAI-27: back to its controller's hand, saved even from certain death.
    A returned attacker ends the capture as failed; a returned guard leaves
    its property unguarded."""
    root = draft.root
    if _is_attacker(root, target):
        seat = root["capture"]["attacker"]
        forget_card(draft, target)
        draft.at("players", seat, "hand").append(target)
        events.append({"type": "fighter_returned", "card": target, "player": seat,
                       "role": "attacker"})
        end_capture(draft, events, "failed", "the attacker returned to its owner's hand")
    else:
        seat = remove_guard(draft, target, events)
        draft.at("players", seat, "hand").append(target)
        events.append({"type": "fighter_returned", "card": target, "player": seat,
                       "role": "guard"})


def _steal_guard(draft, cat, player, trick, target, events):
    """RAI-24: the guard, and so its property (RAI-18), becomes the player's."""
    seat, prop = locate_guard(draft.root, target)
    draft.at("players", seat, "holdings").pop(prop)
    draft.at("players", player, "holdings")[prop] = target
    events.append({"type": "guard_stolen", "card": target, "property": prop,
                   "from_player": seat, "to_player": player})


def _draw(draft, cat, player, trick, target, events):
    """Owed draws: each card is a ``draw_fighter`` chance node."""
    draft.root["owed_draws"] = {"player": player, "count": trick["count"]}
    events.append({"type": "draws_owed", "player": player, "count": trick["count"]})


_EFFECTS = {"modify_power": _modify_power, "kill": _kill, "return_to_hand": _return_to_hand,
            "steal_guard": _steal_guard, "draw": _draw}
