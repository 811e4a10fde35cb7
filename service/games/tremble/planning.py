"""Planning (TRE-14, TRE-9), refuelling (TRE-15) and redeploying (TRE-32).

Orders are committed secretly and revealed together: each ``plan`` action is
stored in ``players[p]["orders"]`` (hidden from every other view) and the
``pending`` list names every player who has not submitted.  When the last
player submits, all orders are revealed at once: the ships leave the hand
for ``attacks`` (one entry per attacked slot).  Redeploy orders (TRE-32) use
the same commit-then-reveal in ``players[p]["redeploy"]``.

An order set is ``[{"ship": id, "slot": n}, ...]``; ``check_orders``
validates it as a whole and names the clause a bad one breaks.  Orders may
cost more fuel than the player has: the refuel then forces discards (TRE-15).
"""

from __future__ import annotations

from service.games.draft import Draft
from service.games.errors import RuleViolation
from service.games.messages import N_
from service.games.objects import Event, JsonObject
from service.games.tremble.cards import Catalogue
from service.games.tremble.effects import has
from service.games.tremble.state import required
from service.games.tremble.state_types import Attack, TrembleState
from service.games.tremble.zones import attacking, discard_ship, not_in_hand

MAX_SHIPS_PER_CITY = 2  # TRE-9 RULING: two sets of attack tokens


def too_many_at_one_city(ships: int) -> bool:
    """TRE-9: more of one player's ships at one city than the attack tokens allow."""
    return ships > MAX_SHIPS_PER_CITY


def open_slots(state: TrembleState) -> list[int]:
    """Slot numbers (1-based) holding an open city."""
    return [i + 1 for i, c in enumerate(state["slots"]) if c is not None]


def check_orders(state: TrembleState, player: int, orders: list[JsonObject]) -> None:
    """TRE-14 / TRE-9: every ship in hand, each once, open cities, ≤ 2 per city."""
    hand = state["players"][player]["hand"]
    slots = open_slots(state)
    seen: set[str] = set()
    per_slot: dict[int, int] = {}
    for k, order in enumerate(orders):
        ship, slot = order["ship"], order["slot"]
        if ship not in hand:
            raise RuleViolation("TRE-14", N_("orders.{k}: {value}",
                                             k=k, value=not_in_hand(ship, hand)))
        if ship in seen:
            raise RuleViolation("TRE-14", N_("orders.{k}: {ship} has two orders; a ship attacks "
                                             "one city", k=k, ship=ship))
        seen.add(ship)
        if slot not in slots:
            raise RuleViolation("TRE-14", N_("orders.{k}: slot {slot} holds no open city (open: "
                                             "{slots})", k=k, slot=slot, slots=slots))
        per_slot[slot] = per_slot.get(slot, 0) + 1
        if too_many_at_one_city(per_slot[slot]):
            raise RuleViolation("TRE-9", N_("orders.{k}: at most {max_ships_per_city} ships per "
                                            "city (two sets of attack tokens)",
                                            k=k, max_ships_per_city=MAX_SHIPS_PER_CITY))


def plan_actions(state: TrembleState, player: int) -> list[JsonObject]:
    """Listed plans: no attack, every single ship to every open city, and
    every pair of ships to the same city.  Any other order set may be sent."""
    hand = sorted(state["players"][player]["hand"])
    slots = open_slots(state)
    out = [{"type": "plan", "player": player, "orders": []}]
    for slot in slots:
        for i, a in enumerate(hand):
            out.append({"type": "plan", "player": player,
                        "orders": [{"ship": a, "slot": slot}]})
            for b in hand[i + 1:]:
                out.append({"type": "plan", "player": player,
                            "orders": [{"ship": a, "slot": slot}, {"ship": b, "slot": slot}]})
    return out


def plan_constraints(state: TrembleState, cat: Catalogue, player: int) -> JsonObject:
    """Machine-readable constraint of a ``plan`` (the full decision)."""
    p = state["players"][player]
    return {
        "decision": "plan", "action": {"type": "plan", "player": player,
                                       "orders": [{"ship": "<ship id>", "slot": "<slot>"}]},
        "ships": [{"ship": s, "fuel": cat.ships[s]["fuel"],
                   "abilities": cat.ships[s]["abilities"]} for s in sorted(p["hand"])],
        "open_slots": [{"slot": s, "city": state["slots"][s - 1]} for s in open_slots(state)],
        "each_ship_at_most_once": True,
        "max_ships_per_city": MAX_SHIPS_PER_CITY,
        "fuel": p["fuel"],
        "rules": {
            "TRE-14": "each order sends a ship in your hand to an open slot; any number of orders",
            "TRE-9": f"at most {MAX_SHIPS_PER_CITY} of your ships per city",
            "TRE-15": "orders may cost more than `fuel`; at refuel you must then discard "
                      "attacking ships of your choice until the rest can be paid",
            "TRE-31": "reserve ships left in hand may join one of your battles later, "
                      "paying their fuel then",
            "TRE-31a": f"a reserve ship that joins counts toward the {MAX_SHIPS_PER_CITY} "
                       "ships per city"},
    }


def reveal_orders(draft: Draft[TrembleState], events: list[Event]) -> None:
    """TRE-14: all orders revealed at once; ships leave the hand for ``attacks``."""
    state = draft.root
    attacks: dict[int, Attack] = {}
    revealed = []
    for p, player in enumerate(state["players"]):
        orders = player["orders"] or []
        revealed.append({"player": p, "orders": orders})
        if orders:
            ships = {o["ship"] for o in orders}
            pd = draft.at("players", p)
            pd["hand"] = [s for s in player["hand"] if s not in ships]
            draft.at("sent").extend(o["ship"] for o in orders)
        draft.at("players", p)["orders"] = None
        for o in orders:
            entry = attacks.setdefault(o["slot"], {"slot": o["slot"],
                                                   "city": required(state["slots"][o["slot"] - 1],
                                                                    "the ordered city"),
                                                   "sides": [], "resolved": False})
            side = next((s for s in entry["sides"] if s["player"] == p), None)
            if side is None:
                side = {"player": p, "ships": [], "status": "attacking", "strength": 0}
                entry["sides"].append(side)
            side["ships"].append(o["ship"])
    draft.root["attacks"] = [attacks[k] for k in sorted(attacks)]
    events.append({"type": "orders_revealed", "orders": revealed, "rule": "TRE-14"})


def fuel_due(state: TrembleState, cat: Catalogue, player: int) -> int:
    return sum(cat.ships[s]["fuel"] for s in attacking(state, player))


def short_of_fuel(state: TrembleState, cat: Catalogue) -> list[int]:
    """TRE-15: players whose attacking ships cost more fuel than they hold."""
    return [p for p, pl in enumerate(state["players"]) if fuel_due(state, cat, p) > pl["fuel"]]


def discard_unfueled(draft: Draft[TrembleState], player: int, ship: str, events: list[Event]) -> None:
    """TRE-15: one attacking ship of the player's choice goes to the discard."""
    remove_from_attacks(draft, player, ship)
    discard_ship(draft, ship)
    events.append({"type": "ship_unfueled", "player": player, "ship": ship, "rule": "TRE-15"})


def remove_from_attacks(draft: Draft[TrembleState], player: int, ship: str) -> None:
    """Take ``ship`` out of its attack (dropping empty sides and attacks)."""
    state = draft.root
    for i, a in enumerate(state["attacks"]):
        for j, side in enumerate(a["sides"]):
            if ship in side["ships"]:
                draft.at("attacks", i, "sides", j, "ships").remove(ship)
                if not draft.root["attacks"][i]["sides"][j]["ships"]:
                    draft.at("attacks", i, "sides").pop(j)
                    if not draft.root["attacks"][i]["sides"]:
                        draft.at("attacks").pop(i)
                return
    raise AssertionError(f"{ship} is not attacking")  # pragma: no cover


def pay_fuel(draft: Draft[TrembleState], cat: Catalogue, events: list[Event]) -> None:
    """TRE-15: each player pays the summed fuel of their attacking ships."""
    for p in range(len(draft.root["players"])):
        due = fuel_due(draft.root, cat, p)
        if due:
            draft.at("players", p)["fuel"] -= due
            events.append({"type": "fuel_paid", "player": p, "fuel": due, "rule": "TRE-15"})


# ----------------------------------------------------------------- redeploy
def redeployable(state: TrembleState, cat: Catalogue, player: int) -> list[str]:
    """TRE-32: the player's attacking ships with the redeploy ability."""
    return [s for s in attacking(state, player) if has(cat.ships[s], "redeploy")]


def slot_of(state: TrembleState, ship: str) -> int:
    return next(a["slot"] for a in state["attacks"] for s in a["sides"] if ship in s["ships"])


def check_redeploy(state: TrembleState, cat: Catalogue, player: int, moves: list[JsonObject]) -> None:
    """TRE-32 (+ TRE-9): only redeploy ships, each once, to open cities, ≤ 2 per city."""
    able = redeployable(state, cat, player)
    slots = open_slots(state)
    seen: set[str] = set()
    where = {}
    for a in state["attacks"]:
        for side in a["sides"]:
            if side["player"] == player:
                for s in side["ships"]:
                    where[s] = a["slot"]
    for k, move in enumerate(moves):
        ship, slot = move["ship"], move["slot"]
        if ship not in able:
            raise RuleViolation("TRE-32", N_("moves.{k}: {ship} is not one of your attacking "
                                             "ships with the redeploy ability", k=k, ship=ship))
        if ship in seen:
            raise RuleViolation("TRE-32", N_("moves.{k}: {ship} is moved twice", k=k, ship=ship))
        seen.add(ship)
        if slot not in slots:
            raise RuleViolation("TRE-32", N_("moves.{k}: slot {slot} holds no open city",
                                             k=k, slot=slot))
        where[ship] = slot
    counts: dict[int, int] = {}
    for slot in where.values():
        counts[slot] = counts.get(slot, 0) + 1
        if too_many_at_one_city(counts[slot]):
            raise RuleViolation("TRE-9", N_("after the moves slot {slot} would have more than "
                                            "{max_ships_per_city} of your ships",
                                            slot=slot, max_ships_per_city=MAX_SHIPS_PER_CITY))


def redeploy_actions(state: TrembleState, cat: Catalogue, player: int) -> list[JsonObject]:
    """Listed: keep every order, and each single move that stays legal."""
    out = [{"type": "redeploy", "player": player, "moves": []}]
    for ship in redeployable(state, cat, player):
        here = slot_of(state, ship)
        for slot in open_slots(state):
            if slot == here:
                continue
            moves = [{"ship": ship, "slot": slot}]
            try:
                check_redeploy(state, cat, player, moves)
            except RuleViolation:
                continue
            out.append({"type": "redeploy", "player": player, "moves": moves})
    return out


def redeploy_constraints(state: TrembleState, cat: Catalogue, player: int) -> JsonObject:
    return {"decision": "redeploy",
            "action": {"type": "redeploy", "player": player,
                       "moves": [{"ship": "<ship id>", "slot": "<slot>"}]},
            "ships": [{"ship": s, "slot": slot_of(state, s)}
                      for s in redeployable(state, cat, player)],
            "open_slots": open_slots(state), "max_ships_per_city": MAX_SHIPS_PER_CITY,
            "rules": {"TRE-32": "each listed ship may move to another open city or stay "
                                "(omit it); moves are revealed together"}}


def reveal_redeploy(draft: Draft[TrembleState], events: list[Event]) -> None:
    """TRE-32: all redeploy orders revealed together, then carried out."""
    state = draft.root
    revealed = []
    for p, player in enumerate(state["players"]):
        moves = player["redeploy"] or []
        revealed.append({"player": p, "moves": moves})
        draft.at("players", p)["redeploy"] = None
        for move in moves:
            if slot_of(draft.root, move["ship"]) == move["slot"]:
                continue
            remove_from_attacks(draft, p, move["ship"])
            _add_to_attack(draft, p, move["ship"], move["slot"])
    events.append({"type": "redeploy_revealed", "moves": revealed, "rule": "TRE-32"})


def _add_to_attack(draft: Draft[TrembleState], player: int, ship: str, slot: int) -> None:
    state = draft.root
    i = next((i for i, a in enumerate(state["attacks"]) if a["slot"] == slot), None)
    if i is None:
        attacks = draft.at("attacks")
        attacks.append({"slot": slot, "city": state["slots"][slot - 1], "sides": [],
                        "resolved": False})
        attacks.sort(key=lambda a: a["slot"])
        i = next(i for i, a in enumerate(attacks) if a["slot"] == slot)
    sides = draft.root["attacks"][i]["sides"]
    j = next((j for j, s in enumerate(sides) if s["player"] == player), None)
    if j is None:
        draft.at("attacks", i, "sides").append({"player": player, "ships": [ship],
                                                "status": "attacking", "strength": 0})
    else:
        draft.at("attacks", i, "sides", j, "ships").append(ship)
