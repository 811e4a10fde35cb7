"""Small moves between zones shared by the phase modules (fleet, hand, discard).

The fleet (TRE-12) counts ships in hand, attacking and searching.
"""

from __future__ import annotations

from typing import Iterable

from ..draft import Draft


def attacking(state: dict, player: int) -> list[str]:
    """Ships of ``player`` in the attacks of this turn."""
    return [s for a in state["attacks"] for side in a["sides"] if side["player"] == player
            for s in side["ships"]]


def searching(state: dict, player: int) -> list[str]:
    return [s for sr in state["searches"] if sr["player"] == player for s in sr["ships"]]


def fleet_size(state: dict, player: int) -> int:
    """TRE-12: hand + attacking + searching ships."""
    return (len(state["players"][player]["hand"]) + len(attacking(state, player))
            + len(searching(state, player)))


def ships_to_hand(draft: Draft, player: int, ships: Iterable[str]) -> None:
    ships = list(ships)
    if ships:
        draft.at("players", player, "hand").extend(ships)


def discard_ship(draft: Draft, ship: str) -> None:
    draft.at("ship_discard").append(ship)


def discard_city(draft: Draft, city: str) -> None:
    draft.at("city_discard").append(city)
