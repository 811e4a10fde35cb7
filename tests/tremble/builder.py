"""Table-mode Tremble states for clause tests: say only what the scenario needs.

``at_plan`` plays a real table game (chance outcomes chosen here) up to the
plan phase of turn 1, then places the ships, fuel and people asked for,
moving cards between zones so every card stays exactly once; the result
passes ``validate_state``.

>>> s = at_plan(hands={0: ["S-START", "S-TRIPOD-A"], 1: ["S-CRUISER"]})
>>> s["phase"], sorted(s["players"][0]["hand"]), s["players"][1]["hand"]
('plan', ['S-START', 'S-TRIPOD-A'], ['S-CRUISER'])
"""

from __future__ import annotations

from typing import Any

import card_db
from service.games.chance import CHANCE
from service.games.tremble import GAME
from service.games.tremble.cards import Catalogue, design_of

CAT = Catalogue.of(card_db.get("tremble"))


def act(kind: str, player, **fields) -> dict[Any, Any]:
    return {"type": kind, "player": player, **fields}


def play(state: dict[Any, Any], *actions) -> tuple[dict[Any, Any], list[Any]]:
    """Apply actions in order; return the last state and all events."""
    events: list[Any] = []
    for action in actions:
        state, ev = GAME.apply(state, action)
        events.extend(ev)
    return state, events


def chance(state: dict[Any, Any], kind: str, **fields) -> dict[Any, Any]:
    return GAME.apply(state, act(kind, CHANCE, **fields))[0]


def rolls(state: dict[Any, Any], *totals) -> tuple[dict[Any, Any], list[Any]]:
    return play(state, *[act("roll", CHANCE, total=t) for t in totals])


def cities(kind: str | None = None, mark: str | None = "*") -> list[str]:
    """City ids of the reference set with that type and mark, in file order."""
    return [c for c, card in CAT.cities.items()
            if (kind is None or card["type"] == kind) and card["mark"] == mark]


def new_table(players: int = 2, missions: bool = False, seed: int = 1) -> dict[Any, Any]:
    return GAME.new_game(players, {"missions": missions, "chance": "table"}, seed)[0]


def through_buy(state: dict[Any, Any], draws: dict[Any, Any] | None = None, buys: dict[Any, Any] | None = None,
                declines: tuple[Any, ...] = ()) -> dict[Any, Any]:
    """Feed the buy phase: every player draws (but those in ``declines``,
    RULING TRE-12a); ``draws`` {player: [design, design]} (a copy of each
    design in the deck), ``buys`` {player: design}; others draw the first
    listed card and buy nothing."""
    draws, buys = draws or {}, buys or {}
    for entry in list(state["pending"]):
        if entry["decision"] == "draw_or_decline":
            p = entry["player"]
            kind = "decline_buy" if p in declines else "draw_ships"
            state = GAME.apply(state, act(kind, p))[0]
            state = _draws(state, draws)
    for entry in list(state["pending"]):
        p = entry["player"]
        ship = None
        if p in buys:
            ship = next(s for s in state["players"][p]["offer"] if design_of(s) == buys[p])
        state = GAME.apply(state, act("buy", p, ship=ship, discard=None))[0]
    return state


def _draws(state: dict[Any, Any], draws: dict[Any, Any]) -> dict[Any, Any]:
    while state["pending"] and state["pending"][0]["decision"] == "draw_ship":
        who = state["pending"][0]["for"]
        wanted = draws.get(who, [])
        have = len(state["players"][who]["offer"])
        if have < len(wanted):
            card = min(s for s in state["ship_deck"] if design_of(s) == wanted[have])
        else:
            card = GAME.chance_outcomes(state)[0][0]["ship"]
        state = chance(state, "draw_ship", ship=card)
    return state


def through_intel(state: dict[Any, Any], reveal: list[str] | None = None) -> dict[Any, Any]:
    """Reveal ``reveal`` in order, then the first listed CITY for other slots."""
    queue = list(reveal or [])
    while state["pending"] and state["pending"][0]["decision"] == "reveal":
        if queue:
            card = queue.pop(0)
        else:
            card = next(a["card"] for a, _ in GAME.chance_outcomes(state)
                        if a["card"] in CAT.cities)
        state = chance(state, "reveal", card=card)
    return state


def place_ships(state: dict[Any, Any], hands: dict[Any, Any]) -> dict[Any, Any]:
    """Make each listed player's hand exactly these designs (S-START: their own)."""
    state = {**state, "players": [dict(p) for p in state["players"]],
             "ship_deck": list(state["ship_deck"]), "ship_discard": list(state["ship_discard"])}
    starting = list(CAT.starting_ships)
    for p, designs in hands.items():
        for s in state["players"][p]["hand"]:
            state["ship_discard"].append(s)
        hand = []
        for d in designs:
            if d == "S-START":
                hand.append(starting[p])
                state["ship_discard"].remove(starting[p])
                continue
            zone = "ship_deck" if any(design_of(s) == d for s in state["ship_deck"]) \
                else "ship_discard"
            inst = min(s for s in state[zone] if design_of(s) == d and s not in hand)
            state[zone].remove(inst)
            hand.append(inst)
        state["players"][p]["hand"] = hand
    return state


def at_plan(players: int = 2, hands: dict[Any, Any] | None = None, slots: list[str] | None = None,
            fuel: dict[Any, Any] | None = None, people: dict[Any, Any] | None = None, seed: int = 1) -> dict[Any, Any]:
    """A table game in the plan phase of turn 1 with the given set-up."""
    state = through_intel(through_buy(new_table(players, seed=seed)), slots)
    state = place_ships(state, hands or {})
    for key, values in (("fuel", fuel or {}), ("people", people or {})):
        for p, v in values.items():
            state["players"][p][key] = v
    GAME.validate_state(state)
    return state


def plan_all(state: dict[Any, Any], orders: dict[Any, Any]) -> tuple[dict[Any, Any], list[Any]]:
    """Every player submits ``orders[p]`` given as [(design, slot), ...]."""
    actions = []
    for p, pl in enumerate(state["players"]):
        mine = []
        for design, slot in orders.get(p, []):
            ship = next(s for s in pl["hand"] if design_of(s) == design
                        and s not in [o["ship"] for o in mine])
            mine.append({"ship": ship, "slot": slot})
        actions.append(act("plan", p, orders=mine))
    return play(state, *actions)


def ship(state: dict[Any, Any], player: int, design: str) -> str:
    """The instance of ``design`` the player has in hand or in an attack."""
    pool = list(state["players"][player]["hand"])
    for a in state["attacks"]:
        for side in a["sides"]:
            if side["player"] == player:
                pool += side["ships"]
    return next(s for s in pool if design_of(s) == design)


def strings(value) -> set[str]:
    """Every string anywhere in a JSON value, keys included (what a view could leak)."""
    from tests.contract import strings_and_keys
    return strings_and_keys(value)


def short_deck(state: dict[Any, Any], left: int) -> dict[Any, Any]:
    """The same state with only ``left`` cards to draw (the rest discarded)."""
    piles = [{**pile, "candidates": pile["candidates"][:pile["removed"]]}
             for pile in state["piles"]]
    rest = state["piles"][1]
    piles[1]["candidates"] = rest["candidates"][:rest["removed"] + left]
    moved = [c for pile, new in zip(state["piles"], piles) for c in pile["candidates"]
             if c not in new["candidates"]]
    return {**state, "piles": piles, "city_discard": state["city_discard"] + moved}
