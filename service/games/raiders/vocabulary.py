"""The closed vocabulary of Raiders tricks (RAI-22 … RAI-28).

A trick on a card is data: ``effect`` + parameters + ``target`` + ``filters``
+ ``timing`` (+ an optional ``cost``).  ``service/games/raiders/card_schema.py`` accepts
only these words; each effect type names here, once, its implementation
and its RAI-28 test (both in ``effects.py``).

>>> sorted(EFFECTS)
['draw', 'kill', 'modify_power', 'return_to_hand', 'steal_guard']
>>> EFFECTS["draw"].target_needed, EFFECTS["kill"].target_needed
(False, True)
>>> EFFECTS["kill"].apply.__name__
'kill'
>>> state = {"players": [{"holdings": {"club": "S-9"}}, {"holdings": {}}],
...          "capture": {"attacker": 1, "fighter": "H-K", "property": "club"}}
>>> [k for k, t in TARGETS.items() if t.reaches(state, 0, 0, "guard", "S-9")]
['guard', 'any_fighter_in_capture', 'guarding_fighter', 'own_fighter', 'any_fighter']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from service.games.draft import Draft
from service.games.messages import N_
from service.games.objects import Event
from service.games.raiders import effects
from service.games.raiders.cards import Catalogue, Trick
from service.games.raiders.state_types import RaidersState
from service.games.raiders.table import InPlay, guard_of

#: ``(draft, cat, player, trick, target, events)``: carry the effect out (RAI-27)
Apply = Callable[[Draft[RaidersState], Catalogue, int, Trick, str | None, list[Event]], None]
#: ``(state, player, target, in_play)``: why the effect would change nothing
#: (RAI-28), or ``None``; ``in_play`` may be ``None`` (then it is looked up)
Futile = Callable[[RaidersState, int, str | None, InPlay | None], str | None]


def _never_futile(state: RaidersState, player: int, target: str | None,
                  in_play: InPlay | None) -> None:
    """A death or a return always changes the table."""
    return None


@dataclass(frozen=True)
class EffectType:
    """One effect type, declared once: what it does, whether it takes a
    fighter target, its parameters, its implementation and its RAI-28 test."""

    description: str
    target_needed: bool
    apply: Apply
    futile: Futile = _never_futile
    params: tuple[str, ...] = ()


EFFECTS: dict[str, EffectType] = {
    "modify_power": EffectType(
        "the target's power changes by `amount` until the end of the capture, or of "
        "the turn when played outside a capture (RAI-25)", True, effects.modify_power,
        effects.power_change_futile, ("amount",)),
    "kill": EffectType(
        "the target fighter dies and goes to the discard; a dead guard frees its "
        "property (RAI-19), a dead attacker ends the capture as failed", True, effects.kill),
    "return_to_hand": EffectType(
        "the target fighter returns to its controller's hand, saved even from "
        "certain death (RAI-27)", True, effects.return_to_hand),
    "steal_guard": EffectType(
        "the target guard, and with it the property it guards, becomes yours (RAI-24)",
        True, effects.steal_guard, effects.steal_futile),
    "draw": EffectType("you draw `count` fighter cards (chance nodes)", False, effects.draw,
                       effects.draw_futile, ("count",)),
}

def _guards_capture(state: RaidersState, fighter: str) -> bool:
    """``fighter`` guards the property under capture (asked only when a trick's
    target kind needs it: it walks the holdings)."""
    capture = state["capture"]
    return capture is not None and guard_of(state, capture["property"]) == fighter


#: ``(state, player, seat, role, fighter)``: whether a fighter in play (controlled by
#: ``seat``, in ``role`` ``attacker`` or ``guard``) is one the target kind names
Reaches = Callable[[RaidersState, int, int, str, str], bool]


@dataclass(frozen=True)
class TargetType:
    """Who a trick may point at (RAI-24), declared once: what the card text means,
    whether it needs a capture in progress, its test of a fighter in play and the
    refusal of a fighter it does not reach."""

    description: str
    reaches: Reaches
    refusal: str | None = None
    in_capture: bool = False


#: who a trick may point at (all are fighters in play; RAI-24)
TARGETS: dict[str, TargetType] = {
    "attacker": TargetType(
        "the fighter attempting the current capture",
        lambda state, player, seat, role, fighter: role == "attacker",
        N_("this trick targets only the attacking fighter"), in_capture=True),
    "guard": TargetType(
        "the guard of the property under the current capture",
        lambda state, player, seat, role, fighter: _guards_capture(state, fighter),
        N_("this trick targets only the guard of the property under capture"), in_capture=True),
    "any_fighter_in_capture": TargetType(
        "the attacker or the guard of the current capture",
        lambda state, player, seat, role, fighter:
            role == "attacker" or _guards_capture(state, fighter),
        N_("this trick targets only the attacker or the guard of the capture"), in_capture=True),
    "guarding_fighter": TargetType(
        "a fighter guarding any property (never the attacker)",
        lambda state, player, seat, role, fighter: role == "guard",
        N_("this trick targets only a fighter that already guards a property")),
    "own_fighter": TargetType(
        "a fighter in play that you control (your guards, your attacker)",
        lambda state, player, seat, role, fighter: seat == player,
        N_("this trick targets only a fighter of yours")),
    "any_fighter": TargetType(
        "any fighter in play: the attacker or any guard",
        lambda state, player, seat, role, fighter: True),
}

#: extra restrictions on the target
FILTERS: dict[str, str] = {
    "same_suit": "the target has the trick card's suit; a trump trick card reaches "
                 "every suit (RAI-24)",
    "not_own": "the target is controlled by another player",
}

#: when a trick may be played (RAI-23)
TIMINGS: dict[str, str] = {
    "any": "in your own turn, or in any capture's response window",
    "own_turn": "only in your own turn (including the response window of your capture)",
    "capture_only": "only during a capture's response window",
}

#: what playing the trick costs besides the card itself
COSTS: dict[str, str] = {
    "discard_card": "discard another card from your hand (`cost_card`)",
}
