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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from service.games.draft import Draft
from service.games.raiders import effects
from service.games.raiders.cards import Catalogue, Trick
from service.games.raiders.state import RaidersState
from service.games.raiders.table import InPlay

#: ``(draft, cat, player, trick, target, events)``: carry the effect out (RAI-27)
Apply = Callable[[Draft, Catalogue, int, Trick, str | None, list[dict]], None]
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

#: who a trick may point at (all are fighters in play; RAI-24)
TARGETS: dict[str, str] = {
    "attacker": "the fighter attempting the current capture",
    "guard": "the guard of the property under the current capture",
    "any_fighter_in_capture": "the attacker or the guard of the current capture",
    "guarding_fighter": "a fighter guarding any property (never the attacker)",
    "own_fighter": "a fighter in play that you control (your guards, your attacker)",
    "any_fighter": "any fighter in play: the attacker or any guard",
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
