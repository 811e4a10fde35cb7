"""Fuel (TRE-11) and buying ships (TRE-12, TRE-12a).

Each turn every player gains 8 fuel (never above 20).  Then each player
first says whether they draw at all (RULING TRE-12a: the buy step is
optional; ``decline_buy`` draws nothing and ends their buy step).  A player
who draws takes two ship cards (chance nodes ``draw_ship``, each naming the
copy drawn; an empty ship deck is refilled from the ship discard) and may
buy one of them, secretly, for its cost in people.  A fleet never exceeds 5
ships: to buy a sixth, name a ship in hand to discard (no refund).  Unbought
cards go to the ship discard.

Ids: ships are named by their copy id everywhere (``S-SAUCER#3``; the first
copy's id is the design id, ``S-SAUCER``): the ``draw_ship`` outcome names
the copy that lands in the offer, so hands, offers and every action agree.
"""

from __future__ import annotations

from service.games.draft import Draft
from service.games.errors import RuleViolation
from service.games.messages import N_
from service.games.objects import ActionObject, Event, JsonObject
from service.games.tremble.cards import Catalogue, design_of
from service.games.tremble.state_types import TrembleState
from service.games.tremble.zones import discard_ship, fleet_size, not_in_hand

FUEL_PER_TURN = 8
FUEL_CAP = 20
DRAW = 2
FLEET_LIMIT = 5


def gain_fuel(draft: Draft[TrembleState], events: list[Event]) -> None:
    """TRE-11: +8 fuel each, capped at 20; unused fuel carries over."""
    for p, player in enumerate(draft.root["players"]):
        new = min(FUEL_CAP, player["fuel"] + FUEL_PER_TURN)
        draft.at("players", p)["fuel"] = new
    events.append({"type": "fuel", "gain": FUEL_PER_TURN, "cap": FUEL_CAP, "rule": "TRE-11"})


def draw_outcomes(state: TrembleState) -> list[str]:
    """Chance outcomes of the next ship draw: every copy in the deck (each
    equally likely), sorted.

    >>> draw_outcomes({"ship_deck": ["S-B#2", "S-A", "S-B"]})
    ['S-A', 'S-B', 'S-B#2']
    """
    return sorted(state["ship_deck"])


def draw(draft: Draft[TrembleState], player: int, ship: str, events: list[Event]) -> None:
    """The ship card ``ship`` (a copy id) from the deck into the player's offer.

    >>> draft = Draft({"ship_deck": ["S-X#3", "S-Y", "S-X#2"],
    ...                "players": [{"offer": [], "to_draw": 2}]})
    >>> draw(draft, 0, "S-X#2", [])
    >>> draft.root["ship_deck"], draft.root["players"][0]
    (['S-X#3', 'S-Y'], {'offer': ['S-X#2'], 'to_draw': 1})
    """
    draft.at("ship_deck").remove(ship)
    draft.at("players", player, "offer").append(ship)
    draft.root["players"][player]["to_draw"] -= 1  # made the draft's own just above


def refill_if_empty(draft: Draft[TrembleState], events: list[Event]) -> None:
    """TRE-12 RULING: an empty ship deck is refilled from the ship discard."""
    if not draft.root["ship_deck"] and draft.root["ship_discard"]:
        draft.root["ship_deck"] = sorted(draft.root["ship_discard"])
        draft.root["ship_discard"] = []
        events.append({"type": "ship_deck_refilled", "cards": len(draft.root["ship_deck"]),
                       "rule": "TRE-12"})


def start_buy(draft: Draft[TrembleState], player: int, choice: str, events: list[Event]) -> None:
    """RULING TRE-12a: ``draw`` two ship cards now, or ``decline`` the buy step
    (nothing drawn, nothing bought; public: the table sees who draws)."""
    p = draft.at("players", player)
    if choice == "draw":
        p.update(buy_choice="draw", to_draw=DRAW)
        events.append({"type": "buy_started", "player": player, "rule": "TRE-12a"})
    else:
        p.update(buy_choice="decline", bought=True)
        events.append({"type": "buy_declined", "player": player, "rule": "TRE-12a"})


def impossible_draw(state: TrembleState, cat: Catalogue, ship: str) -> str | None:
    """Why ``ship`` cannot be the next card of the ship deck (``None``: it can).

    >>> impossible_draw({"ship_deck": ["S-X#2"], "ship_discard": ["S-X"], "players": []},
    ...                 None, "S-X")
    'S-X is in the ship discard, not the ship deck (other copies of that design in the deck: S-X#2)'
    """
    deck = state["ship_deck"]
    if ship in deck:
        return None
    design = design_of(ship)
    if cat is not None and ship not in cat.ships:
        return N_("{ship} is not a ship card of this card set", ship=ship)
    where = (N_("is in the ship discard, not the ship deck") if ship in state["ship_discard"]
             else N_("is not in the ship deck"))
    others = [s for s in sorted(deck) if design_of(s) == design]
    if others:
        return N_("{ship} {where} (other copies of that design in the deck: {items})",
                  ship=ship, where=where, items=', '.join(others))
    return N_("{ship} {where}, and no copy of {design} is left in the ship deck",
              ship=ship, where=where, design=design)


def fleet_full(state: TrembleState, player: int) -> bool:
    """TRE-12: the player's fleet (hand, attacking, searching) is at the limit,
    so a purchase needs a ship in hand discarded."""
    return fleet_size(state, player) >= FLEET_LIMIT


def affordable(cost: int, people: int) -> bool:
    """TRE-12: a ship costing ``cost`` people can be bought with ``people``."""
    return cost <= people


def check_buy(state: TrembleState, cat: Catalogue, action: ActionObject) -> None:
    player = state["players"][action["player"]]
    ship, discard = action["ship"], action["discard"]
    if ship is None:
        if discard is not None:
            raise RuleViolation("TRE-12", N_("a ship is discarded only to make room for a "
                                             "purchase"))
        return
    if ship not in player["offer"]:
        raise RuleViolation("TRE-12", N_("{ship} is not one of the two ships you drew", ship=ship))
    cost = cat.ships[ship]["cost"]
    if not affordable(cost, player["people"]):
        raise RuleViolation("TRE-12", N_("{ship} costs {cost} people; you have {people}",
                                         ship=ship, cost=cost, people=player['people']))
    full = fleet_full(state, action["player"])
    if full and discard is None:
        raise RuleViolation("TRE-12", N_("your fleet has {fleet_limit} ships: name a ship in "
                                         "hand to discard to make room", fleet_limit=FLEET_LIMIT))
    if not full and discard is not None:
        raise RuleViolation("TRE-12", N_("your fleet has room; nothing needs discarding"))
    if discard is not None and discard not in player["hand"]:
        raise RuleViolation("TRE-12", not_in_hand(discard, player["hand"]))


def buy_actions(state: TrembleState, cat: Catalogue, player: int) -> list[JsonObject]:
    p = state["players"][player]
    out = [{"type": "buy", "player": player, "ship": None, "discard": None}]
    full = fleet_full(state, player)
    for ship in p["offer"]:
        if not affordable(cat.ships[ship]["cost"], p["people"]):
            continue
        if not full:
            out.append({"type": "buy", "player": player, "ship": ship, "discard": None})
        else:
            out.extend({"type": "buy", "player": player, "ship": ship, "discard": d}
                       for d in p["hand"])
    return out


def buy(draft: Draft[TrembleState], cat: Catalogue, action: ActionObject, events: list[Event]) -> None:
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
