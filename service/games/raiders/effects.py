"""The implementation of each trick effect type of ``vocabulary.EFFECTS``,
and what each needs to change the game at all (RAI-28).

Tricks resolve at once, in the order played (RAI-27).  No code here knows a
card by name: a card's trick data selects the effect and its parameters.
Each function is ``(draft, cat, player, trick, target, events)``; ``target``
is the fighter in play the play names (``None`` for an effect without one,
whose vocabulary entry says ``target_needed=False``).
"""

from __future__ import annotations

from service.games.draft import Draft
from service.games.messages import N_
from service.games.objects import Event
from service.games.raiders.capture import end_capture
from service.games.raiders.cards import Catalogue, Trick
from service.games.raiders.deck import can_draw
from service.games.raiders.power import add_modifier, current_power, forget_card
from service.games.raiders.state import in_capture
from service.games.raiders.state_types import RaidersState
from service.games.raiders.table import InPlay, guard_of, in_play_map, locate_guard, remove_guard


def _fighter(target: str | None) -> str:
    """The target of an effect that needs one (``enforce`` made sure, RAI-24)."""
    assert target is not None, "a targeted effect was played without a target"
    return target


def modify_power(draft: Draft[RaidersState], cat: Catalogue, player: int, trick: Trick, target: str | None,
                 events: list[Event]) -> None:
    """RAI-25: a power change that expires with the capture (or the turn)."""
    fighter, amount = _fighter(target), trick["amount"] or 0
    mod = add_modifier(draft, fighter, amount, in_capture(draft.root))
    events.append({"type": "power_modified", "card": fighter, "amount": amount,
                   "power": current_power(draft.root, cat, fighter), "until": mod["until"]})


def _is_attacker(state: RaidersState, fighter: str) -> bool:
    capture = state["capture"]
    return capture is not None and capture["fighter"] == fighter


def kill(draft: Draft[RaidersState], cat: Catalogue, player: int, trick: Trick, target: str | None,
         events: list[Event]) -> None:
    """The target dies: a dead attacker fails its capture; a dead guard frees
    its property (RAI-19)."""
    fighter = _fighter(target)
    if _is_attacker(draft.root, fighter):
        forget_card(draft, fighter)
        draft.at("discard").append(fighter)
        events.append({"type": "fighter_died", "card": fighter, "role": "attacker",
                       "cause": "trick"})
        end_capture(draft, events, "failed", "the attacker was killed")
    else:
        remove_guard(draft, fighter, events)
        draft.at("discard").append(fighter)
        events.append({"type": "fighter_died", "card": fighter, "role": "guard",
                       "cause": "trick"})


def return_to_hand(draft: Draft[RaidersState], cat: Catalogue, player: int, trick: Trick,
                   target: str | None, events: list[Event]) -> None:
    """RAI-27: back to its controller's hand, saved even from certain death.
    A returned attacker ends the capture as failed; a returned guard leaves
    its property unguarded."""
    fighter = _fighter(target)
    capture = draft.root["capture"]
    if capture is not None and capture["fighter"] == fighter:
        seat = capture["attacker"]
        forget_card(draft, fighter)
        draft.at("players", seat, "hand").append(fighter)
        events.append({"type": "fighter_returned", "card": fighter, "player": seat,
                       "role": "attacker"})
        end_capture(draft, events, "failed", "the attacker returned to its owner's hand")
    else:
        seat = remove_guard(draft, fighter, events)
        draft.at("players", seat, "hand").append(fighter)
        events.append({"type": "fighter_returned", "card": fighter, "player": seat,
                       "role": "guard"})


def steal_guard(draft: Draft[RaidersState], cat: Catalogue, player: int, trick: Trick, target: str | None,
                events: list[Event]) -> None:
    """RAI-24: the guard, and so its property (RAI-18), becomes the player's."""
    fighter = _fighter(target)
    found = locate_guard(draft.root, fighter)
    assert found is not None, "steal_guard targets a guard (RAI-24)"
    seat, prop = found
    draft.at("players", seat, "holdings").pop(prop)
    draft.at("players", player, "holdings")[prop] = fighter
    events.append({"type": "guard_stolen", "card": fighter, "property": prop,
                   "from_player": seat, "to_player": player})


def draw(draft: Draft[RaidersState], cat: Catalogue, player: int, trick: Trick, target: str | None,
         events: list[Event]) -> None:
    """Owed draws: each card is a ``draw_fighter`` chance node."""
    count = trick["count"] or 0
    draft.root["owed_draws"] = {"player": player, "count": count}
    events.append({"type": "draws_owed", "player": player, "count": count})


# --------------------------------------------------------------------------- RAI-28
# A trick must change the game state, not just discard a card: what each effect
# needs for that, as ``(state, player, target, in_play) -> reason | None``.

def power_change_can_matter(state: RaidersState, target: str, in_play: InPlay) -> bool:
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


def power_change_futile(state: RaidersState, player: int, target: str | None,
                        in_play: InPlay | None) -> str | None:
    if in_play is None:
        in_play = in_play_map(state)
    if not power_change_can_matter(state, _fighter(target), in_play):
        return (N_("{target} fights in no capture before this power change expires, so "
                   "playing it would only discard cards", target=target))
    return None


def steal_futile(state: RaidersState, player: int, target: str | None,
                 in_play: InPlay | None) -> str | None:
    if in_play is None:
        in_play = in_play_map(state)
    if in_play.get(_fighter(target), (None,))[0] == player:
        return N_("that guard is already yours")
    return None


def draw_futile(state: RaidersState, player: int, target: str | None,
                in_play: InPlay | None) -> str | None:
    if not can_draw(state):
        return N_("there is no fighter card left to draw")
    return None
