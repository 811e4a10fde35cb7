"""Power of fighters in play and the modifiers that expire (RAI-20, RAI-25).

A modifier is ``{"card": fighter id, "amount": int, "until": "capture" |
"turn"}``.  RAI-25: a change made during a capture lasts until the end of
that capture; RULING: one made outside a capture lasts until the end of the
turn.  Modifiers never outlive their card's stay in play.

>>> state = {"modifiers": [{"card": "S-9", "amount": 3, "until": "capture"},
...                        {"card": "S-9", "amount": -2, "until": "turn"}]}
>>> power_bonus(state, "S-9"), power_bonus(state, "H-6")
(1, 0)
"""

from __future__ import annotations

from service.games.draft import Draft
from service.games.objects import Event
from service.games.raiders.cards import Catalogue
from service.games.raiders.state_types import Modifier, RaidersState


def power_bonus(state: RaidersState, card: str) -> int:
    return sum(m["amount"] for m in state["modifiers"] if m["card"] == card)


def current_power(state: RaidersState, cat: Catalogue, card: str) -> int:
    """Printed power plus live modifiers; may be negative (RAI-20)."""
    base = cat.fighter(card)["power"]
    return (base or 0) + power_bonus(state, card)


def add_modifier(draft: Draft[RaidersState], card: str, amount: int, during_capture: bool) -> Modifier:
    """RAI-25: record a power change with its expiry."""
    modifier: Modifier = {"card": card, "amount": amount,
                          "until": "capture" if during_capture else "turn"}
    draft.at("modifiers").append(modifier)
    return modifier


def expire(draft: Draft[RaidersState], until: str, events: list[Event]) -> None:
    """Drop modifiers that end now: ``"capture"`` at a capture's end,
    ``"turn"`` (all of them) at the end of a turn (RAI-25)."""
    state = draft.root
    mods = state["modifiers"]
    keep = [m for m in mods if until == "capture" and m["until"] != "capture"]
    if len(keep) != len(mods):
        state["modifiers"] = keep
        events.append({"type": "modifiers_expired", "at": f"end_of_{until}",
                       "count": len(mods) - len(keep)})


def forget_card(draft: Draft[RaidersState], card: str) -> None:
    """A card leaving play loses its modifiers."""
    state = draft.root
    mods = state["modifiers"]
    if any(m["card"] == card for m in mods):
        state["modifiers"] = [m for m in mods if m["card"] != card]
