"""Battle strength (TRE-29) and battles for a city (TRE-18 … TRE-21, TRE-31).

``strength`` is the one interpreter of the ship bonus vocabulary and the
function the evaluations call for exact odds:

>>> saucer = {"type": "saucer", "strength": 3,
...           "bonuses": [{"kind": "with_ship", "ship_type": "tripod", "amount": 4}]}
>>> tripod_a = {"type": "tripod", "strength": 5,
...             "bonuses": [{"kind": "with_ship", "ship_type": "saucer", "amount": 4}]}
>>> cruiser = {"type": "cruiser", "strength": 9, "bonuses": []}
>>> tripod_b = {"type": "tripod", "strength": 5,
...             "bonuses": [{"kind": "with_ship", "ship_type": "tripod", "amount": 3},
...                         {"kind": "city_type", "city_type": "culture", "amount": 3}]}
>>> strength([saucer, tripod_a], "culture"), strength([cruiser, tripod_b], "culture")
(16, 17)

A battle for one city runs in steps kept in ``state["battle"]``:
``decide`` (fight or retreat, weakest first, equal strengths in seat order),
``reserve`` (TRE-31: each remaining fighter may bring reserve ships by paying
their fuel), ``roll`` (2d6 chance nodes; ties at the top re-roll from base
strength, the others have lost) and ``lose`` (each loser picks a ship to
discard).  A city attacked by one player has no battle (TRE-18).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from service.games.draft import Draft
from service.games.objects import Event, JsonObject
from service.games.tremble.cards import Catalogue
from service.games.tremble.effects import BONUSES, has
from service.games.tremble.planning import too_many_at_one_city
from service.games.tremble.state import required
from service.games.tremble.state_types import Battle, Side, TrembleState
from service.games.tremble.zones import discard_ship, ships_to_hand


def strength(ships: Sequence[Mapping[str, Any]], city_type: str | None) -> int:
    """TRE-29: summed strength of ``ships`` (card designs) attacking one city.

    ``ships``: the design dicts of every ship on the side (``type``,
    ``strength``, ``bonuses``); ``city_type``: ``culture``/``science``/
    ``industry`` of the city (``None``: no city-type bonus applies).  Each
    bonus applies at most once per ship: ``city_type`` when the city has that
    type, ``with_ship`` when ANOTHER ship of the side has ``ship_type``.
    """
    return sum(p["total"] for p in strength_breakdown(ships, city_type))


def strength_breakdown(ships: Sequence[Mapping[str, Any]], city_type: str | None) -> list[JsonObject]:
    """Per ship: ``{"base", "bonus", "total"}`` (same rules as ``strength``)."""
    types = [s["type"] for s in ships]
    out = []
    for i, ship in enumerate(ships):
        bonus = 0
        bonuses = ship.get("bonuses", ())
        if bonuses:
            others = types[:i] + types[i + 1:]
            for b in bonuses:
                if BONUSES[b["kind"]].applies(b, city_type, others):
                    bonus += b["amount"]
        out.append({"base": ship["strength"], "bonus": bonus, "total": ship["strength"] + bonus})
    return out


def side_strength(cat: Catalogue, ship_ids: Iterable[str], city: str) -> int:
    """Strength of the instance ids ``ship_ids`` at city card ``city``."""
    return strength([cat.ships[s] for s in ship_ids], cat.cities[city]["type"])


ROLL_WEIGHTS: dict[int, int] = {total: 6 - abs(7 - total) for total in range(2, 13)}
"""2d6 totals and their weights out of 36: a roll outcome is the sum (TRE-20, TRE-24)."""


def highest(totals: Sequence[int]) -> list[int]:
    """TRE-20: the indices of the fighters whose total is the highest.

    One index: that fighter wins.  Several: they are tied and roll again from
    their base strength; every fighter not listed has lost (RULING: with three
    or more, only those tied for the highest re-roll).

    >>> highest([14, 17, 12]), highest([15, 15, 9]), highest([8, 8])
    ([1], [0, 1], [0, 1])
    """
    best = max(totals)
    return [i for i, total in enumerate(totals) if total == best]


def holds(strength: int, dice: int, army: int) -> bool:
    """TRE-24: searching ships of ``strength`` rolling ``dice`` (2d6) hold
    against an army of strength ``army`` (the army does not roll).

    >>> holds(14, 6, 20), holds(14, 5, 20)
    (True, False)
    """
    return strength + dice >= army


# ----------------------------------------------------------------- steps
def start(draft: Draft[TrembleState], cat: Catalogue, index: int, events: list[Event]) -> None:
    """Open the battle for ``attacks[index]`` (or settle it if uncontested)."""
    attack = draft.root["attacks"][index]
    sides = attack["sides"]
    if len(sides) == 1:
        events.append({"type": "uncontested", "slot": attack["slot"], "city": attack["city"],
                       "player": sides[0]["player"], "rule": "TRE-18"})
        _win(draft, index, 0, events)
        return
    order = []
    for j, side in enumerate(sides):
        value = side_strength(cat, side["ships"], attack["city"])
        draft.at("attacks", index, "sides", j)["strength"] = value
        order.append((value, side["player"]))
    order.sort()
    draft.root["battle"] = {"slot": attack["slot"], "step": "decide",
                            "order": [p for _, p in order], "next": 0, "rolls": []}
    events.append({"type": "battle", "slot": attack["slot"], "city": attack["city"],
                   "strengths": [{"player": p, "strength": v} for v, p in order],
                   "rule": "TRE-19"})


def open_battle(state: TrembleState) -> Battle:
    """The battle being fought (TRE-18 … TRE-21)."""
    return required(state["battle"], "the battle")


def attack_index(state: TrembleState) -> int:
    slot = open_battle(state)["slot"]
    return next(i for i, a in enumerate(state["attacks"]) if a["slot"] == slot)


def side_index(state: TrembleState, index: int, player: int) -> int:
    return next(j for j, s in enumerate(state["attacks"][index]["sides"])
                if s["player"] == player)


def own_side(state: TrembleState, player: int) -> Side:
    """``player``'s side in the open battle."""
    index = attack_index(state)
    return state["attacks"][index]["sides"][side_index(state, index, player)]


def reserve_full(state: TrembleState, player: int) -> bool:
    """RULING TRE-31a: the player's side in the open battle already has the
    TRE-9 maximum of ships at one city, so no reserve ship may join it."""
    index = attack_index(state)
    side = state["attacks"][index]["sides"][side_index(state, index, player)]
    return too_many_at_one_city(len(side["ships"]) + 1)


def reserve_ships(state: TrembleState, cat: Catalogue, player: int) -> list[str]:
    """TRE-31: ships in hand with ``reserve`` that have not flown this turn and
    whose fuel the player can pay now; none once the player's side holds the
    TRE-9 maximum of two ships at the city (RULING TRE-31a)."""
    if reserve_full(state, player):
        return []
    fuel = state["players"][player]["fuel"]
    sent = state["sent"]
    return [s for s in state["players"][player]["hand"]
            if has(cat.ships[s], "reserve") and s not in sent
            and cat.ships[s]["fuel"] <= fuel]


def decide(draft: Draft[TrembleState], player: int, choice: str, events: list[Event]) -> None:
    """TRE-19: the current decider fights or retreats."""
    state = draft.root
    index = attack_index(state)
    j = side_index(state, index, player)
    side = state["attacks"][index]["sides"][j]
    battle = draft.at("battle")
    battle["next"] += 1
    if choice == "retreat":
        ships_to_hand(draft, player, side["ships"])
        draft.at("attacks", index, "sides").pop(j)
        events.append({"type": "retreat", "player": player, "slot": battle["slot"],
                       "ships": side["ships"], "rule": "TRE-19"})
    else:
        draft.at("attacks", index, "sides", j)["status"] = "fight"
        events.append({"type": "fight", "player": player, "slot": battle["slot"]})


def join_reserve(draft: Draft[TrembleState], cat: Catalogue, player: int, ship: str, events: list[Event]) -> None:
    """TRE-31: a reserve ship joins this battle; its fuel is paid now."""
    state = draft.root
    index = attack_index(state)
    j = side_index(state, index, player)
    draft.at("players", player, "hand").remove(ship)
    draft.at("players", player)["fuel"] -= cat.ships[ship]["fuel"]
    draft.at("sent").append(ship)
    side = draft.at("attacks", index, "sides", j)
    ships = draft.at("attacks", index, "sides", j, "ships")
    ships.append(ship)
    side["strength"] = side_strength(cat, ships, state["attacks"][index]["city"])
    events.append({"type": "reserve_joined", "player": player, "ship": ship,
                   "slot": open_battle(state)["slot"], "fuel": cat.ships[ship]["fuel"],
                   "strength": side["strength"], "rule": "TRE-31"})


def roll(draft: Draft[TrembleState], total: int, events: list[Event]) -> None:
    """TRE-20: the next fighter's 2d6; when all rolled, the top total wins."""
    state = draft.root
    index = attack_index(state)
    rolls = draft.at("battle", "rolls")
    k = next(i for i, r in enumerate(rolls) if r["total"] is None)
    player = rolls[k]["player"]
    side = state["attacks"][index]["sides"][side_index(state, index, player)]
    rolls[k] = {"player": player, "total": side["strength"] + total}
    events.append({"type": "battle_roll", "player": player, "slot": open_battle(state)["slot"],
                   "dice": total, "strength": side["strength"],
                   "total": side["strength"] + total, "rule": "TRE-20"})
    totals = [r["total"] for r in rolls if r["total"] is not None]
    if len(totals) < len(rolls):
        return
    tops = highest(totals)
    best = totals[tops[0]]
    top = [rolls[i]["player"] for i in tops]
    for i, r in enumerate(rolls):
        if i not in tops:
            _mark_lost(draft, index, r["player"])
    if len(top) == 1:
        draft.at("battle")["step"] = "lose"
        draft.at("battle")["winner"] = top[0]
        draft.at("battle")["rolls"] = [rolls[tops[0]]]
        events.append({"type": "battle_won", "player": top[0], "slot": open_battle(state)["slot"],
                       "total": best, "rule": "TRE-21"})
    else:
        draft.at("battle")["rolls"] = [{"player": p, "total": None} for p in top]
        events.append({"type": "battle_tie", "players": top, "total": best,
                       "slot": open_battle(state)["slot"], "rule": "TRE-20"})


def _mark_lost(draft: Draft[TrembleState], index: int, player: int) -> None:
    j = side_index(draft.root, index, player)
    draft.at("attacks", index, "sides", j)["status"] = "lost"


def lose_ship(draft: Draft[TrembleState], player: int, ship: str, events: list[Event]) -> None:
    """TRE-21: a loser discards the chosen ship; the rest return to hand."""
    state = draft.root
    index = attack_index(state)
    j = side_index(state, index, player)
    ships = [s for s in state["attacks"][index]["sides"][j]["ships"] if s != ship]
    discard_ship(draft, ship)
    ships_to_hand(draft, player, ships)
    draft.at("attacks", index, "sides").pop(j)
    events.append({"type": "ship_lost", "player": player, "ship": ship,
                   "slot": open_battle(state)["slot"], "rule": "TRE-21"})


def losers(state: TrembleState) -> list[Side]:
    """Sides still to pick the ship they lose (status ``lost``)."""
    index = attack_index(state)
    return [s for s in state["attacks"][index]["sides"] if s["status"] == "lost"]


def advance_battle(draft: Draft[TrembleState], cat: Catalogue, events: list[Event]) -> bool:
    """Carry the open battle on as far as no decision is needed.

    Returns True while the battle still waits for a decision or a roll."""
    state = draft.root
    battle = open_battle(state)
    index = attack_index(state)
    sides = state["attacks"][index]["sides"]
    if battle["step"] == "decide":
        if len(sides) == 1:
            draft.root["battle"] = None
            events.append({"type": "others_retreated", "player": sides[0]["player"],
                           "slot": battle["slot"], "rule": "TRE-19"})
            _win(draft, index, 0, events)
            return False
        if battle["next"] < len(battle["order"]):
            return True
        draft.at("battle").update(step="reserve", next=0,
                                  order=[p for p in battle["order"]
                                         if any(s["player"] == p for s in sides)])
        battle = open_battle(draft.root)
    if battle["step"] == "reserve":
        order = battle["order"]
        nxt = battle["next"]
        while nxt < len(order) and not reserve_ships(state, cat, order[nxt]):
            nxt += 1
        if nxt != battle["next"]:
            draft.at("battle")["next"] = nxt
        if nxt < len(order):
            return True
        fighters = sorted(s["player"] for s in sides)
        draft.at("battle").update(step="roll", rolls=[{"player": p, "total": None}
                                                      for p in fighters])
        return True
    if battle["step"] == "roll":
        return True
    if battle["step"] == "lose":
        for side in list(sides):
            if side["status"] == "lost" and len(side["ships"]) == 1:
                lose_ship(draft, side["player"], side["ships"][0], events)
        sides = draft.root["attacks"][index]["sides"]
        if any(s["status"] == "lost" for s in sides):
            return True
        winner = battle["winner"]
        draft.root["battle"] = None
        draft.at("players", winner, "stats")["battles_won"] += 1
        _win(draft, index, side_index(draft.root, index, winner), events)
        return False
    raise AssertionError(battle["step"])  # pragma: no cover


def _win(draft: Draft[TrembleState], index: int, j: int, events: list[Event]) -> None:
    """TRE-21 / TRE-18: the side takes the city; the reward comes later."""
    draft.at("attacks", index, "sides", j)["status"] = "won"
    draft.at("attacks", index)["resolved"] = True
