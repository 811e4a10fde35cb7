"""Rewards (TRE-22, TRE-23) and searches in progress (TRE-22, TRE-30).

The winner of a city (or its sole attacker) chooses: ``raid`` — the raid
value in people now and the city card; or ``search`` — the city card and one
or more of the ships that attacked it stay (the rest return to hand).  The
search token is set at 2, or 1 when a ship with ``search_tempo`` takes part
(TRE-30), in the reward phase; it counts down at the end of each later turn,
and at 0 the player gets the search value and the city card, and the ships
return to hand.  Cities nobody attacked go to the city discard (TRE-23).
"""

from __future__ import annotations

from collections.abc import Iterable

from service.games.draft import Draft
from service.games.errors import RuleViolation
from service.games.messages import N_
from service.games.objects import ActionObject, Entry, Event, JsonObject
from service.games.tremble.cards import Catalogue
from service.games.tremble.effects import has
from service.games.tremble.state import required
from service.games.tremble.state_types import Attack, TrembleState
from service.games.tremble.zones import discard_city, ships_to_hand

SEARCH_TURNS = 2
TEMPO_TURNS = 1


def discard_unattacked(draft: Draft[TrembleState], events: list[Event]) -> None:
    """TRE-23: open cities nobody attacks go to the city discard."""
    attacked = {a["slot"] for a in draft.root["attacks"]}
    for i, city in enumerate(draft.root["slots"]):
        if city is not None and i + 1 not in attacked:
            draft.at("slots")[i] = None
            discard_city(draft, city)
            events.append({"type": "city_spared", "slot": i + 1, "city": city,
                           "rule": "TRE-23"})


def next_reward(state: TrembleState) -> tuple[int, Attack] | None:
    """The first won attack whose reward is not chosen yet."""
    for i, a in enumerate(state["attacks"]):
        if a["resolved"] and a["sides"] and a["sides"][0]["status"] == "won":
            return i, a
    return None


def search_countdown(cat: Catalogue, ships: Iterable[str]) -> int:
    """The search token's start (TRE-22): 2 turns, or 1 when a searching ship
    has ``search_tempo`` (TRE-30)."""
    tempo = any(has(cat.ships[s], "search_tempo") for s in ships)
    return TEMPO_TURNS if tempo else SEARCH_TURNS


def _reward_attack(state: TrembleState, action: ActionObject) -> Attack:
    """The attack whose reward is chosen now; refuses another ``city`` (TRE-22)."""
    found = required(next_reward(state), "the reward")
    attack = found[1]
    if action["city"] != attack["city"]:
        raise RuleViolation("TRE-22", N_("the reward to choose now is for {city}",
                                         city=attack['city']))
    return attack


def check_raid(state: TrembleState, action: ActionObject) -> None:
    _reward_attack(state, action)


def check_search(state: TrembleState, action: ActionObject) -> None:
    attack = _reward_attack(state, action)
    side = attack["sides"][0]
    ships = action["ships"]
    if not ships:
        raise RuleViolation("TRE-22", N_("a search needs at least one ship to stay"))
    if len(set(ships)) != len(ships):
        raise RuleViolation("TRE-22", N_("a ship is named twice"))
    for s in ships:
        if s not in side["ships"]:
            raise RuleViolation("TRE-22", N_("{s} did not attack {city}",
                                             s=s, city=attack['city']))


def raid_actions(state: TrembleState, entry: Entry) -> list[JsonObject]:
    """The one raid of the pending reward."""
    return [{"type": "raid", "player": entry["player"], "city": entry["city"]}]


def search_actions(state: TrembleState, entry: Entry) -> list[JsonObject]:
    """Every non-empty set of the winning ships that may stay to search."""
    found = required(next_reward(state), "the reward")
    ships = sorted(found[1]["sides"][0]["ships"])
    n = len(ships)
    return [{"type": "search", "player": entry["player"], "city": entry["city"],
             "ships": [ships[i] for i in range(n) if mask >> i & 1]}
            for mask in range(1, 1 << n)]


def _take_reward(draft: Draft[TrembleState]) -> tuple[str, list[str]]:
    """The rewarded attack leaves ``attacks`` and its slot: its city and ships."""
    found = required(next_reward(draft.root), "the reward")
    i, attack = found
    draft.at("attacks").pop(i)
    draft.at("slots")[attack["slot"] - 1] = None
    return attack["city"], attack["sides"][0]["ships"]


def raid(draft: Draft[TrembleState], cat: Catalogue, action: ActionObject, events: list[Event]) -> None:
    """TRE-22: the raid value in people now, and the city card."""
    player = action["player"]
    city, ships = _take_reward(draft)
    value = cat.cities[city]["raid"]
    draft.at("players", player)["people"] += value
    draft.at("players", player, "captured").append(city)
    draft.at("players", player, "stats")["raids"] += 1
    ships_to_hand(draft, player, ships)
    events.append({"type": "raid", "player": player, "city": city, "people": value,
                   "rule": "TRE-22"})


def search(draft: Draft[TrembleState], cat: Catalogue, action: ActionObject, events: list[Event]) -> None:
    """TRE-22 / TRE-30: the chosen ships stay and search; the rest return to hand."""
    player = action["player"]
    city, ships = _take_reward(draft)
    staying = action["ships"]
    ships_to_hand(draft, player, [s for s in ships if s not in staying])
    countdown = search_countdown(cat, staying)
    draft.at("searches").append({"player": player, "city": city, "ships": list(staying),
                                 "countdown": countdown, "since": draft.root["turn"]})
    events.append({"type": "search_started", "player": player, "city": city,
                   "ships": list(staying), "countdown": countdown,
                   "rule": "TRE-30" if countdown == TEMPO_TURNS else "TRE-22"})


def count_down(draft: Draft[TrembleState], cat: Catalogue, events: list[Event]) -> None:
    """End of turn: every search begun in an earlier turn counts down; at 0
    the player is paid the search value and takes the city (TRE-22)."""
    turn = draft.root["turn"]
    keep = []
    changed = False
    for search in draft.root["searches"]:
        if search["since"] >= turn:
            keep.append(search)
            continue
        changed = True
        left = search["countdown"] - 1
        if left > 0:
            keep.append({**search, "countdown": left})
            continue
        player, city = search["player"], search["city"]
        value = cat.cities[city]["search"]
        draft.at("players", player)["people"] += value
        draft.at("players", player, "captured").append(city)
        draft.at("players", player, "stats")["searches"] += 1
        ships_to_hand(draft, player, search["ships"])
        events.append({"type": "search_paid", "player": player, "city": city,
                       "people": value, "rule": "TRE-22"})
    if changed:
        draft.root["searches"] = keep


def abandon_unfinished(draft: Draft[TrembleState], events: list[Event]) -> None:
    """At the end of the game a search still counting pays nothing: its ships
    return and the city goes to the discard (no later turn completes it)."""
    for search in draft.root["searches"]:
        ships_to_hand(draft, search["player"], search["ships"])
        discard_city(draft, search["city"])
        events.append({"type": "search_unfinished", "player": search["player"],
                       "city": search["city"], "rule": "TRE-28"})
    draft.root["searches"] = []
