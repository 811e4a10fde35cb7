"""Fuel (TRE-11) and buying ships (TRE-12).

Each turn every player gains 8 fuel (never above 20), then draws two ship
cards (chance nodes ``draw_ship``; an empty ship deck is refilled from the
ship discard) and may buy one of them, secretly, for its cost in people.  A
fleet never exceeds 5 ships: to buy a sixth, name a ship in hand to discard
(no refund).  Unbought cards go to the ship discard.
"""

from __future__ import annotations

from collections import Counter
from itertools import compress

from ..draft import Draft
from ..errors import RuleViolation
from .cards import Catalog, designs_of
from .zones import discard_ship, fleet_size

FUEL_PER_TURN = 8
FUEL_CAP = 20
DRAW = 2
FLEET_LIMIT = 5


def gain_fuel(draft: Draft, events: list) -> None:
    """TRE-11: +8 fuel each, capped at 20; unused fuel carries over."""
    for p, player in enumerate(draft.root["players"]):
        new = min(FUEL_CAP, player["fuel"] + FUEL_PER_TURN)
        draft.at("players", p)["fuel"] = new
    events.append({"type": "fuel", "gain": FUEL_PER_TURN, "cap": FUEL_CAP, "rule": "TRE-11"})


def draw_faces(state: dict) -> list[tuple[str, int]]:
    """Chance outcomes of the next ship draw: design -> copies left in the deck,
    sorted by design.

    Counted by ``Counter`` in C (a server-mode turn resolves two draws per
    player, each one counting the deck).

    >>> draw_faces({"ship_deck": ["S-B#2", "S-A", "S-B"]})
    [('S-A', 1), ('S-B', 2)]
    """
    return sorted(Counter(designs_of(state["ship_deck"])).items())


def draw(draft: Draft, player: int, face: str, events: list) -> None:
    """One ship card of design ``face`` from the deck into the player's offer:
    the least instance id of that design (``S-X`` before ``S-X#2``).

    >>> draft = Draft({"ship_deck": ["S-X#3", "S-Y", "S-X#2"],
    ...                "players": [{"offer": [], "to_draw": 2}]})
    >>> draw(draft, 0, "S-X", [])
    >>> draft.root["ship_deck"], draft.root["players"][0]
    (['S-X#3', 'S-Y'], {'offer': ['S-X#2'], 'to_draw': 1})
    """
    deck = draft.at("ship_deck")
    if face in deck:  # a design id is a prefix of its other instance ids: it sorts first
        ship = face
    else:
        ship = min(compress(deck, map(face.__eq__, designs_of(deck))))
    deck.remove(ship)
    draft.at("players", player, "offer").append(ship)
    draft.root["players"][player]["to_draw"] -= 1  # made the draft's own just above


def refill_if_empty(draft: Draft, events: list) -> None:
    """TRE-12 RULING: an empty ship deck is refilled from the ship discard."""
    if not draft.root["ship_deck"] and draft.root["ship_discard"]:
        draft.root["ship_deck"] = sorted(draft.root["ship_discard"])
        draft.root["ship_discard"] = []
        events.append({"type": "ship_deck_refilled", "cards": len(draft.root["ship_deck"]),
                       "rule": "TRE-12"})


def check_buy(state: dict, cat: Catalog, action: dict) -> None:
    player = state["players"][action["player"]]
    ship, discard = action["ship"], action["discard"]
    if ship is None:
        if discard is not None:
            raise RuleViolation("TRE-12", "a ship is discarded only to make room for a purchase")
        return
    if ship not in player["offer"]:
        raise RuleViolation("TRE-12", f"{ship} is not one of the two ships you drew")
    cost = cat.ships[ship]["cost"]
    if cost > player["people"]:
        raise RuleViolation("TRE-12", f"{ship} costs {cost} people; you have {player['people']}")
    full = fleet_size(state, action["player"]) >= FLEET_LIMIT
    if full and discard is None:
        raise RuleViolation("TRE-12", f"your fleet has {FLEET_LIMIT} ships: name a ship in "
                                      "hand to discard to make room")
    if not full and discard is not None:
        raise RuleViolation("TRE-12", "your fleet has room; nothing needs discarding")
    if discard is not None and discard not in player["hand"]:
        raise RuleViolation("TRE-12", f"{discard} is not a ship in your hand")


def buy_actions(state: dict, cat: Catalog, player: int) -> list[dict]:
    p = state["players"][player]
    out = [{"type": "buy", "player": player, "ship": None, "discard": None}]
    full = fleet_size(state, player) >= FLEET_LIMIT
    for ship in p["offer"]:
        if cat.ships[ship]["cost"] > p["people"]:
            continue
        if not full:
            out.append({"type": "buy", "player": player, "ship": ship, "discard": None})
        else:
            out.extend({"type": "buy", "player": player, "ship": ship, "discard": d}
                       for d in p["hand"])
    return out


def buy(draft: Draft, cat: Catalog, action: dict, events: list) -> None:
    """TRE-12: pay, take the ship into hand (secretly), discard the rest."""
    player = action["player"]
    p = draft.at("players", player)
    ship, discard = action["ship"], action["discard"]
    offer = p["offer"]
    p["offer"] = []
    p["bought"] = True
    for card in offer:
        if card != ship:
            discard_ship(draft, card)
    if discard is not None:
        draft.at("players", player, "hand").remove(discard)
        discard_ship(draft, discard)
    if ship is not None:
        p["people"] -= cat.ships[ship]["cost"]
        draft.at("players", player, "hand").append(ship)
    # the purchase is secret (TRE-33): the event says only that the player is done
    events.append({"type": "bought", "player": player, "rule": "TRE-12"})
