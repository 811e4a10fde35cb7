"""Small moves between zones shared by the phase modules (fleet, hand, discard).

The fleet (TRE-12) counts ships in hand, attacking and searching.
"""

from __future__ import annotations

from collections.abc import Iterable

from service.games.draft import Draft
from service.games.messages import N_
from service.games.tremble.cards import design_of
from service.games.tremble.state_types import TrembleState


def attacking(state: TrembleState, player: int) -> list[str]:
    """Ships of ``player`` in the attacks of this turn."""
    return [s for a in state["attacks"] for side in a["sides"] if side["player"] == player
            for s in side["ships"]]


def searching(state: TrembleState, player: int) -> list[str]:
    return [s for sr in state["searches"] if sr["player"] == player for s in sr["ships"]]


def fleet_size(state: TrembleState, player: int) -> int:
    """TRE-12: hand + attacking + searching ships."""
    return (len(state["players"][player]["hand"]) + len(attacking(state, player))
            + len(searching(state, player)))


def not_in_hand(ship: str, hand: list[str]) -> str:
    """Why ``ship`` cannot be named from ``hand``: ships are named by their copy
    id (``S-SAUCER#3``), so a design id names only its first copy.

    >>> not_in_hand("S-SAUCER", ["S-SAUCER#3", "S-START#2"])
    'S-SAUCER is not a ship in your hand (name ships by copy id: you hold S-SAUCER#3)'
    >>> not_in_hand("S-X", ["S-START"])
    'S-X is not a ship in your hand (your hand: S-START)'
    """
    design = design_of(ship)
    copies = sorted(s for s in hand if design_of(s) == design)
    if copies:
        return (N_("{ship} is not a ship in your hand (name ships by copy id: you hold {items})",
                   ship=ship, items=', '.join(copies)))
    return N_("{ship} is not a ship in your hand (your hand: {value})",
              ship=ship, value=", ".join(sorted(hand)) or N_("empty"))


def ships_to_hand(draft: Draft[TrembleState], player: int, ships: Iterable[str]) -> None:
    ships = list(ships)
    if ships:
        draft.at("players", player, "hand").extend(ships)


def discard_ship(draft: Draft[TrembleState], ship: str) -> None:
    draft.at("ship_discard").append(ship)


def discard_city(draft: Draft[TrembleState], city: str) -> None:
    draft.at("city_discard").append(city)
