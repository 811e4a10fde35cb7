"""Invariants of a well-shaped Tremble state (``validate_state``).

Every card exactly once across the zones (city pile candidates include the
cards removed unseen), fleets of at most 5, fuel within 0..20, slots and
attacks consistent, orders pointing at ships in hand, phase-specific fields
present only in their phase.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from service.games.base import conservation_errors
from service.games.messages import N_
from service.games.objects import Errors
from service.games.tremble.buying import FLEET_LIMIT
from service.games.tremble.cards import Catalogue
from service.games.tremble.intel import SLOTS
from service.games.tremble.state_types import Battle, TrembleState

PHASES = ("missions", "buy", "intel", "plan", "refuel", "redeploy", "battle", "reward", "over")


def zones(state: TrembleState) -> dict[str, list[str]]:
    out = {"box": state["box"], "city_discard": state["city_discard"],
           "ship_deck": state["ship_deck"], "ship_discard": state["ship_discard"],
           "mission_deck": state["mission_deck"], "credit_supply": state["credit_supply"],
           "credits_returned": state["credits_returned"],
           "slots": [c for c in state["slots"] if c is not None]}
    for i, pile in enumerate(state["piles"]):
        out[f"piles.{i}.candidates"] = pile["candidates"]
    for p, pl in enumerate(state["players"]):
        for zone in ("hand", "offer", "missions", "mission_offer", "missions_discarded",
                     "credits", "captured"):
            out[f"players.{p}.{zone}"] = pl[zone]
    for i, a in enumerate(state["attacks"]):
        out[f"attacks.{i}.ships"] = [s for side in a["sides"] for s in side["ships"]]
    for i, s in enumerate(state["searches"]):
        out[f"searches.{i}"] = [s["city"], *s["ships"]]
    if state["army"] is not None:
        out["army.card"] = [state["army"]["card"]]
    return out


def _every_card_once(state: TrembleState, cat: Catalogue) -> bool:
    """The cards of ``zones(state)`` are the set's, each exactly once (the
    common case: one flat list, one C-level set build and comparison;
    ``conservation_errors`` names what is wrong otherwise).

    As many cards as the set has, and the same set of ids, means no card
    twice, none missing and none unknown.
    """
    cards = cards_in_zones(state)
    return len(cards) == len(cat.card_ids) and cat.card_ids == set(cards)


def cards_in_zones(state: TrembleState) -> list[str]:
    """The cards of ``zones(state)`` as one list, in the same order (built
    with C-level list extends, no path names).

    >>> from service.games.tremble.game import GAME
    >>> state = GAME.new_game(2, {}, seed=3)[0]
    >>> from itertools import chain
    >>> cards_in_zones(state) == list(chain.from_iterable(zones(state).values()))
    True
    """
    cards = [*state["box"], *state["city_discard"], *state["ship_deck"],
             *state["ship_discard"], *state["mission_deck"], *state["credit_supply"],
             *state["credits_returned"]]
    cards += [c for c in state["slots"] if c is not None]
    for pile in state["piles"]:
        cards += pile["candidates"]
    for pl in state["players"]:
        cards += pl["hand"]
        cards += pl["offer"]
        cards += pl["missions"]
        cards += pl["mission_offer"]
        cards += pl["missions_discarded"]
        cards += pl["credits"]
        cards += pl["captured"]
    for a in state["attacks"]:
        for side in a["sides"]:
            cards += side["ships"]
    for s in state["searches"]:
        cards.append(s["city"])
        cards += s["ships"]
    if state["army"] is not None:
        cards.append(state["army"]["card"])
    return cards


def errors(state: TrembleState, cat: Catalogue) -> Errors:
    errs: Errors = {}

    def add(path: str, msg: str) -> None:
        errs.setdefault(f"state.{path}", []).append(msg)

    if not _every_card_once(state, cat):
        every_zone: dict[str, Iterable[str]] = {**zones(state)}
        found = conservation_errors(every_zone, cat.all_cards())
        for path, msgs in found.items():
            errs.setdefault(path if path == "state" else f"state.{path}", []).extend(msgs)
    n = len(state["players"])
    if not 2 <= n <= 5:
        return errs
    if state["phase"] not in PHASES:
        add("phase", N_("unknown phase; one of {items}", items=', '.join(PHASES)))
        return errs
    if len(state["slots"]) != SLOTS[n] or state["tokens"] != SLOTS[n]:
        add("slots", N_("{n} players play with {slots} city slots (TRE-13)", n=n, slots=SLOTS[n]))
    for i, pile in enumerate(state["piles"]):
        if pile["removed"] > len(pile["candidates"]):
            add(f"piles.{i}.removed", N_("more cards removed than candidates"))
    if errs:
        return errs
    _player_errors(state, cat, add)
    _table_errors(state, cat, add)
    return errs


def _player_errors(state: TrembleState, cat: Catalogue, add: Callable[[str, str], None]) -> None:
    """Fleets (TRE-12), the buy step (RULING TRE-12a), orders, ships and missions."""
    n = len(state["players"])
    away = [0] * n  # each player's ships attacking or searching (fleet_size, one pass)
    for a in state["attacks"]:
        for side in a["sides"]:
            if 0 <= side["player"] < n:
                away[side["player"]] += len(side["ships"])
    for sr in state["searches"]:
        if 0 <= sr["player"] < n:
            away[sr["player"]] += len(sr["ships"])
    for p, pl in enumerate(state["players"]):
        if len(pl["hand"]) + away[p] > FLEET_LIMIT:
            add(f"players.{p}", N_("a fleet has at most {fleet_limit} ships (TRE-12)",
                                   fleet_limit=FLEET_LIMIT))
        if (pl["offer"] or pl["to_draw"]) and pl["buy_choice"] != "draw":
            add(f"players.{p}.buy_choice", N_("ships are drawn only by a player who chose to "
                                              "draw (RULING TRE-12a)"))
        if pl["buy_choice"] == "decline" and not pl["bought"]:
            add(f"players.{p}.bought", N_("a player who declined is done with the buy step "
                                          "(RULING TRE-12a)"))
        for k, o in enumerate(pl["orders"] or []):
            if o["ship"] not in pl["hand"]:
                add(f"players.{p}.orders.{k}", N_("orders name ships in hand"))
        for zone, ships in (("hand", pl["hand"]), ("offer", pl["offer"])):
            for ship in ships:
                if ship not in cat.ships:
                    add(f"players.{p}.{zone}", N_("{s} is not a ship", s=ship))
        for m in pl["missions"] + pl["mission_offer"]:
            if m not in cat.missions:
                add(f"players.{p}.missions", N_("{m} is not a mission", m=m))


def _table_errors(state: TrembleState, cat: Catalogue, add: Callable[[str, str], None]) -> None:
    """Open cities, attacks, searches, the battle, the army and the reward phase."""
    n = len(state["players"])
    for i, city in enumerate(state["slots"]):
        if city is not None and city not in cat.cities:
            add(f"slots.{i}", N_("{c} is not a city", c=city))
    for i, a in enumerate(state["attacks"]):
        if state["slots"][a["slot"] - 1] != a["city"]:
            add(f"attacks.{i}.city", N_("does not match the city in its slot"))
        if len({s["player"] for s in a["sides"]}) != len(a["sides"]):
            add(f"attacks.{i}.sides", N_("one side per player"))
        for side in a["sides"]:
            if side["player"] >= n:
                add(f"attacks.{i}.sides", N_("no such player"))
    for i, search in enumerate(state["searches"]):
        if search["player"] >= n or search["city"] not in cat.cities:
            add(f"searches.{i}", N_("unknown player or city"))
    if state["battle"] is not None and state["phase"] != "battle":
        add("battle", N_("a battle is open only in the battle phase"))
    if state["army"] is not None and state["phase"] != "intel":
        add("army", N_("an army strikes only during intel"))
    if state["phase"] == "battle" and state["battle"] is not None:
        _battle_errors(state, state["battle"], add)
    army = state["army"]
    if army is not None:
        searches = {(s["player"], s["city"]) for s in state["searches"]}
        for k, choice in enumerate(army["choices"]):
            if (choice["player"], choice["city"]) not in searches:
                add(f"army.choices.{k}", N_("names no search in progress"))
        if army["loser"] is not None and (army["loser"]["player"],
                                          army["loser"]["city"]) not in searches:
            add("army.loser", N_("names no search in progress"))
        if not army["choices"] and army["loser"] is None:
            add("army", N_("an army with nothing left to resolve is already discarded"))
    if state["phase"] == "reward" and not any(
            a["resolved"] and a["sides"] and a["sides"][0]["status"] == "won"
            for a in state["attacks"]):
        add("attacks", N_("the reward phase needs a won city"))


def _battle_errors(state: TrembleState, battle: Battle,
                   add: Callable[[str, str], None]) -> None:
    attack = next((a for a in state["attacks"] if a["slot"] == battle["slot"]), None)
    if attack is None:
        add("battle.slot", N_("no attack on that slot"))
        return
    sides = {s["player"]: s for s in attack["sides"]}
    if battle["step"] in ("decide", "reserve"):
        if battle["next"] >= len(battle["order"]):
            add("battle.next", N_("past the end of the order"))
        elif battle["order"][battle["next"]] not in sides:
            add("battle.order", N_("the next player has no ships at that city"))
    if battle["step"] == "roll":
        if not battle["rolls"] or any(r["player"] not in sides for r in battle["rolls"]) \
                or all(r["total"] is not None for r in battle["rolls"]):
            add("battle.rolls", N_("rolls name the fighters, one still to roll"))
    if battle["step"] == "lose" and battle.get("winner") not in sides:
        add("battle.winner", N_("the winner has no ships at that city"))
