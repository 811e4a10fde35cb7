"""Missions (TRE-10, TRE-27): the one interpreter of mission conditions.

A mission's ``condition`` is data from a closed vocabulary
(``effects.CONDITIONS``) judged at the end of the game on
the player's captured city cards only: the rulebook has a captain keep the
city card of a raid or a finished search "to confirm the missions at the
end of the game", and those cards are open information (TRE-27).  Completed
missions add their bonus, failed ones subtract their penalty.

>>> types = ["culture", "culture", "science"]
>>> met({"kind": "cities_of_type", "city_type": "culture", "count": 2}, types)
True
>>> met({"kind": "cities_total", "count": 3}, types), met({"kind": "type_set", "count": 1}, types)
(True, False)
"""

from __future__ import annotations

from service.games.chance import CHANCE
from service.games.draft import Draft
from service.games.errors import RuleViolation
from service.games.messages import N_
from service.games.objects import ActionObject, Entry, Event, JsonObject
from service.games.tremble.cards import Catalogue
from service.games.tremble.effects import CITY_TYPES as CITY_TYPES  # re-exported
from service.games.tremble.effects import CONDITIONS
from service.games.tremble.state_types import TrembleState


def met(condition: JsonObject, captured_types: list[str]) -> bool:
    """Whether ``condition`` holds for the types of a player's captured cities
    (its kind's ``effects.CONDITIONS`` entry judges it)."""
    found = CONDITIONS.get(condition["kind"])
    if found is None:  # refused by the schema
        raise ValueError(f"unknown mission condition {condition['kind']!r}")
    return found.met(condition, captured_types)


def captured_types(state: TrembleState, cat: Catalogue, player: int) -> list[str]:
    """The city types of the cards ``player`` captured (the open facts judged)."""
    return [cat.cities[c]["type"] for c in state["players"][player]["captured"]]


def score_missions(state: TrembleState, cat: Catalogue, player: int) -> list[JsonObject]:
    """TRE-27: each kept mission with ``met`` and its signed ``points``."""
    types = captured_types(state, cat, player)
    out = []
    for mid in state["players"][player]["missions"]:
        card = cat.missions[mid]
        ok = met(card["condition"], types)
        out.append({"mission": mid, "met": ok,
                    "points": card["bonus"] if ok else -card["penalty"]})
    return out


def keep_subsets(offer: list[str]) -> list[list[str]]:
    """TRE-10: every choice of 1 to 3 missions of the offer (14 for 4 cards)."""
    return [[offer[i] for i in picked] for picked in _KEEP_CHOICES[len(offer)]]


_KEEP_CHOICES = {n: [[i for i in range(n) if mask >> i & 1] for mask in range(1, 1 << n)
                     if 1 <= bin(mask).count("1") <= 3] for n in range(5)}


def keep_actions(state: TrembleState, entry: Entry) -> list[JsonObject]:
    """TRE-10: every ``keep_missions`` choice of the player's offer."""
    player = entry["player"]
    return [{"type": "keep_missions", "player": player, "missions": m}
            for m in keep_subsets(state["players"][player]["mission_offer"])]


def check_keep(state: TrembleState, action: ActionObject) -> None:
    """TRE-10: keep 1 to 3 of the missions dealt to you, each once."""
    chosen = action["missions"]
    offer = state["players"][action["player"]]["mission_offer"]
    if not 1 <= len(chosen) <= 3:
        raise RuleViolation("TRE-10", N_("keep 1 to 3 of the missions dealt"))
    if len(set(chosen)) != len(chosen) or any(m not in offer for m in chosen):
        raise RuleViolation("TRE-10", N_("keep only missions dealt to you, each once"))


def keep(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    """TRE-10: the kept missions stay secret; the others are discarded."""
    player = action["player"]
    offer = draft.root["players"][player]["mission_offer"]
    p = draft.at("players", player)
    p["missions"] = list(action["missions"])
    p["missions_discarded"] = [m for m in offer if m not in action["missions"]]
    p["mission_offer"] = []
    p["missions_kept"] = True
    events.append({"type": "missions_kept", "player": player,
                   "count": len(action["missions"]), "rule": "TRE-10"})


def deal(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    """TRE-10 (chance): the mission card dealt to the player being dealt to."""
    who = draft.root["pending"][0]["for"]
    draft.at("mission_deck").remove(action["mission"])
    draft.at("players", who, "mission_offer").append(action["mission"])
    events.append({"type": "mission_dealt", "player": who, "rule": "TRE-10"})


def deal_outcomes(state: TrembleState, entry: Entry) -> list[tuple[JsonObject, int]]:
    return [({"type": "deal_mission", "player": CHANCE, "mission": m}, 1)
            for m in state["mission_deck"]]


def impossible_deal(state: TrembleState, action: ActionObject) -> str | None:
    """Why the mission ``action`` names cannot be dealt now."""
    mission = action["mission"]
    if mission not in Catalogue.of_state(state).missions:
        return N_("{mission} is not a mission card of this card set", mission=mission)
    if mission in state["box"]:
        return N_("{mission} is not in this game (removed at setup, TRE-2 / TRE-10)",
                  mission=mission)
    return N_("{mission} has already been dealt", mission=mission)
