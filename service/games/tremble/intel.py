"""Intel (TRE-13), the city deck (TRE-3 … TRE-5) and armies (TRE-24, TRE-25).

The city deck is two piles, the ``*`` pile on top.  Each pile is kept as the
multiset of its candidate cards plus the number removed unseen at setup:
a draw is uniform over the candidates, and the pile is exhausted when only
the removed count remains.  Which cards were removed is never decided — the
distribution of every draw is the same as with a physically shuffled pile.

>>> piles = [{"mark": "*", "candidates": ["A", "B"], "removed": 1},
...          {"mark": None, "candidates": ["C"], "removed": 1}]
>>> top_pile(piles), cards_left(piles)
(0, 1)

An army revealed takes effect at once: every search in progress must be
abandoned or fight it (2d6 + the searching ships' strength vs. the army's
strength); then the army goes to the discard and another card is revealed.
"""

from __future__ import annotations

from service.games.draft import Draft
from service.games.errors import RuleViolation
from service.games.messages import N_
from service.games.objects import ActionObject, Event
from service.games.tremble.battle import holds, side_strength
from service.games.tremble.cards import Catalogue
from service.games.tremble.state import required
from service.games.tremble.state_types import Army, Loser, Pile, TrembleState
from service.games.tremble.zones import discard_city, discard_ship, ships_to_hand

SLOTS = {2: 4, 3: 4, 4: 5, 5: 6}


def top_pile(piles: list[Pile]) -> int | None:
    """Index of the pile the next card comes from (``None``: deck exhausted)."""
    for i, pile in enumerate(piles):
        if len(pile["candidates"]) > pile["removed"]:
            return i
    return None


def impossible_reveal(state: TrembleState, cat: Catalogue, card: str) -> str | None:
    """Why ``card`` cannot be the next card of the city deck (``None``: it can).

    >>> piles = [{"mark": "*", "candidates": ["A"], "removed": 0},
    ...          {"mark": None, "candidates": ["B"], "removed": 0}]
    >>> impossible_reveal({"piles": piles, "box": []}, None, "B")
    'B is in the lower pile: the * pile on top is revealed first (TRE-5)'
    """
    piles = state["piles"]
    top = top_pile(piles)
    if top is not None and card in piles[top]["candidates"]:
        return None
    if any(card in p["candidates"] for p in piles[(top or 0) + 1:]):
        return N_("{card} is in the lower pile: the * pile on top is revealed first (TRE-5)",
                  card=card)
    if cat is not None and card not in cat.cities and card not in cat.armies:
        return N_("{card} is not a city or army card of this card set", card=card)
    if card in state["box"]:
        return N_("{card} is not in this game (removed at setup for the player count, TRE-2)",
                  card=card)
    if top is not None and any(card in p["candidates"] for p in piles[:top]):
        return N_("{card} was removed unseen at setup (TRE-3 / TRE-4)", card=card)
    return N_("{card} has already been revealed", card=card)


def cards_left(piles: list[Pile]) -> int:
    return sum(len(p["candidates"]) - p["removed"] for p in piles)


def next_empty_slot(state: TrembleState) -> int | None:
    for i, c in enumerate(state["slots"]):
        if c is None:
            return i + 1
    return None


def reveal(draft: Draft[TrembleState], cat: Catalogue, card: str, events: list[Event]) -> None:
    """TRE-13: the revealed card fills the next slot, or (an army) strikes."""
    i = required(top_pile(draft.root["piles"]), "the top pile")
    draft.at("piles", i, "candidates").remove(card)
    if card in cat.armies:
        _army_arrives(draft, cat, card, events)
        return
    slot = required(next_empty_slot(draft.root), "the empty slot")
    draft.at("slots")[slot - 1] = card
    events.append({"type": "city_revealed", "slot": slot, "city": card, "rule": "TRE-13"})


def _army_arrives(draft: Draft[TrembleState], cat: Catalogue, card: str, events: list[Event]) -> None:
    """TRE-24: each search in progress gets its own abandon-or-fight choice."""
    searches = draft.root["searches"]
    events.append({"type": "army_revealed", "army": card,
                   "strength": cat.armies[card]["strength"],
                   "searches": [s["city"] for s in searches], "rule": "TRE-24"})
    draft.root["army"] = {"card": card, "strength": cat.armies[card]["strength"],
                          "choices": [{"player": s["player"], "city": s["city"], "choice": None}
                                      for s in searches],
                          "loser": None}


def search_index(state: TrembleState, city: str) -> int:
    return next(i for i, s in enumerate(state["searches"]) if s["city"] == city)


def arrived_army(state: TrembleState) -> Army:
    """The army now striking the searches (TRE-24)."""
    return required(state["army"], "the army")


def beaten(state: TrembleState) -> Loser:
    """The search the army beat, whose player picks the ship lost (TRE-24)."""
    return required(arrived_army(state)["loser"], "the army's loser")


def check_army_choice(state: TrembleState, action: ActionObject) -> None:
    entry = next((c for c in arrived_army(state)["choices"]
                  if c["city"] == action["city"] and c["player"] == action["player"]), None)
    if entry is None:
        raise RuleViolation("TRE-24", N_("you have no search at {city} facing the army",
                                         city=action['city']))
    if entry["choice"] is not None:
        raise RuleViolation("TRE-24", N_("you already chose for {city}", city=action['city']))


def army_choice(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    """TRE-24: abandon (ships home, city discarded) or fight (a roll follows)."""
    army = draft.at("army")
    k = next(i for i, c in enumerate(army["choices"]) if c["city"] == action["city"])
    choices = draft.at("army", "choices")
    if action["choice"] == "abandon":
        choices.pop(k)
        _end_search(draft, action["city"], None, events, "abandoned")
    else:
        choices[k] = {**choices[k], "choice": "fight"}
    events.append({"type": "army_choice", "player": action["player"], "city": action["city"],
                   "choice": action["choice"], "rule": "TRE-24"})


def _end_search(draft: Draft[TrembleState], city: str, lost_ship: str | None, events: list[Event], how: str) -> None:
    """The search fails: ships home (but the lost one), city to the discard."""
    i = search_index(draft.root, city)
    search = draft.root["searches"][i]
    draft.at("searches").pop(i)
    if lost_ship is not None:
        discard_ship(draft, lost_ship)
    ships_to_hand(draft, search["player"], [s for s in search["ships"] if s != lost_ship])
    discard_city(draft, city)
    events.append({"type": "search_failed", "player": search["player"], "city": city,
                   "how": how, "ship_lost": lost_ship, "rule": "TRE-24"})


def army_roll(draft: Draft[TrembleState], cat: Catalogue, dice: int, events: list[Event]) -> None:
    """TRE-24: searching ships' strength + 2d6 ≥ army strength holds the city."""
    army = arrived_army(draft.root)
    k = next(i for i, c in enumerate(army["choices"]) if c["choice"] == "fight")
    entry = army["choices"][k]
    search = draft.root["searches"][search_index(draft.root, entry["city"])]
    power = side_strength(cat, search["ships"], entry["city"])
    total = power + dice
    held = holds(power, dice, army["strength"])
    events.append({"type": "army_fight", "player": entry["player"], "city": entry["city"],
                   "strength": power, "dice": dice, "total": total,
                   "army": army["strength"], "held": held, "rule": "TRE-24"})
    draft.at("army", "choices").pop(k)
    if held:
        draft.at("players", entry["player"], "stats")["armies_beaten"] += 1
    elif len(search["ships"]) == 1:
        _end_search(draft, entry["city"], search["ships"][0], events, "beaten")
    else:
        draft.at("army")["loser"] = {"player": entry["player"], "city": entry["city"]}


def check_army_loss(state: TrembleState, action: ActionObject) -> None:
    loser = beaten(state)
    ships = state["searches"][search_index(state, loser["city"])]["ships"]
    if action["ship"] not in ships:
        raise RuleViolation("TRE-24", N_("{ship} did not search {city}",
                                         ship=action['ship'], city=loser['city']))


def army_loss(draft: Draft[TrembleState], ship: str, events: list[Event]) -> None:
    """TRE-24: the beaten player discards the chosen searching ship."""
    loser = beaten(draft.root)
    draft.at("army")["loser"] = None
    _end_search(draft, loser["city"], ship, events, "beaten")


def army_done(draft: Draft[TrembleState], events: list[Event]) -> None:
    """TRE-13: the army goes to the discard; the next card is revealed."""
    card = arrived_army(draft.root)["card"]
    draft.root["army"] = None
    discard_city(draft, card)
