"""Setup (TRE-2 … TRE-10): the state of a new game before its first turn.

* TRE-2: cities and missions marked 4+ / 5+ go to the box by player count;
* TRE-3 … TRE-5: the ``*`` pile (``*`` cities + ``*`` armies) on top of the
  other pile, each with 6 cards removed unseen (kept as candidates + count);
* TRE-6: one starting saucer each (unused ones to the box, RULING TRE-6a);
  TRE-7: the ship deck (no starting saucer in it, RULING TRE-6a); TRE-8:
  50,000 people, 0 fuel (RULING); TRE-9: attack tokens 1..4/5/6 (the slot
  count), two sets → two ships per city; TRE-10: four missions each dealt by
  chance, keep 1–3 (or none with ``missions: false``).
"""

from __future__ import annotations

from service.games.objects import JsonObject
from service.games.tremble.cards import Catalogue
from service.games.tremble.intel import SLOTS

START_PEOPLE = 50_000
START_FUEL = 0
REMOVED_UNSEEN = 6
MISSIONS_DEALT = 4


def kept_by_mark(mark: str | None, players: int) -> bool:
    """TRE-2: 4+ cards need 4 players, 5+ cards need 5."""
    if mark == "4+":
        return players >= 4
    if mark == "5+":
        return players >= 5
    return True


def new_state(players: int, setups: list[JsonObject], options: JsonObject, cat: Catalogue
              ) -> JsonObject:
    box: list[str] = []
    star: list[str] = []
    rest: list[str] = []
    for cid, city in cat.cities.items():
        if not kept_by_mark(city["mark"], players):
            box.append(cid)
        elif city["mark"] == "*":
            star.append(cid)
        else:
            rest.append(cid)
    for aid, army in cat.armies.items():
        (star if army["mark"] == "*" else rest).append(aid)
    missions = [m for m, card in cat.missions.items() if kept_by_mark(card["mark"], players)]
    box.extend(m for m in cat.missions if m not in missions)
    if not options["missions"]:
        box.extend(missions)
        missions = []
    starting = list(cat.starting_ships)
    box.extend(starting[players:])
    seats = []
    for p in range(players):
        seats.append({
            "name": (setups[p].get("name", f"Player {p + 1}") if p < len(setups)
                     else f"Player {p + 1}"),
            "people": START_PEOPLE, "fuel": START_FUEL,
            "hand": [starting[p]], "offer": [], "to_draw": 0, "bought": True,
            "buy_choice": None,
            "missions": [], "mission_offer": [], "missions_discarded": [],
            "missions_kept": not options["missions"],
            "credits": [], "captured": [], "orders": None, "redeploy": None,
            "stats": {"raids": 0, "searches": 0, "battles_won": 0, "armies_beaten": 0,
                      "credits_taken": 0},
        })
    return {
        "phase": "missions" if options["missions"] else "start",
        "players": seats,
        "tokens": SLOTS[players],
        "piles": [{"mark": "*", "candidates": sorted(star),
                   "removed": min(REMOVED_UNSEEN, len(star))},
                  {"mark": None, "candidates": sorted(rest),
                   "removed": min(REMOVED_UNSEEN, len(rest))}],
        "slots": [None] * SLOTS[players],
        "city_discard": [],
        "ship_deck": sorted(cat.deck_ships), "ship_discard": [],
        "mission_deck": sorted(missions),
        "credit_supply": sorted(cat.credits), "credits_returned": [],
        "box": sorted(box),
        "sent": [], "attacks": [], "battle": None, "searches": [], "army": None,
    }
