"""Kozyablo states of an older rules version carried over to this one (``Game.rules_history``).

``kozyablo/2`` → ``kozyablo/3`` (docs/kozyablo.md, CHANGELOG.md):

- The reference card set gained a ``name`` for each activated ability (``use_ability``
  names it, KOZ-16) and nothing else: a ``kozyablo/2`` state of the ``reference`` set
  with that set's hash then (``REFERENCE_HASHES``) gets today's hash.  A state of
  another card set keeps its hash: it is served if that set still has it.
- RULINGs KOZ-51..53 (3-4 players) add ``players[p].out`` (a fallen capital: in a
  two-player game, exactly a capital at 12 damage) and ``responder`` (whose response
  window is open: the player a ``response`` decision is pending for).
- RULING KOZ-18a, squad magic: a lasting card laid on a squad (a ``lasting`` entry
  naming a ``seat``) is no card in the sector any more and leaves with its squad: a
  state holding one is refused naming KOZ-18a.
- RULING KOZ-36a, Weapon protection limits targets: a state in a combat where a creature
  with Weapon protection stands in the combat's sector is refused naming KOZ-36a (the
  strikes already made there may not be legal under ``kozyablo/3``).
- ``reveal.face``, named abilities, ``passed``/``window_closed``, ``damage.amount``
  change actions and events, not states.  A replay recorded under ``kozyablo/2``
  (``rules_version`` in the request) has its actions reworded by ``action_from_2``:
  ``reveal.card`` becomes ``reveal.face``, and ``use_ability.ability`` given as the
  index of the card's activated ability (``"0"``) becomes that ability's name.

>>> REFERENCE_HASHES["sha256:ccc50c2b479a5a1d1c4ef68ea86d28ea"]
'reference'
"""

from __future__ import annotations

from functools import lru_cache

import card_db
from service.games.kozyablo.cards import face
from service.games.kozyablo.damage import CAPITAL_LIFE
from service.games.messages import N_
from service.games.versions import NotUpgradable

#: the hash of the ``reference`` card set as ``kozyablo/2`` states carry it → its id
REFERENCE_HASHES = {"sha256:ccc50c2b479a5a1d1c4ef68ea86d28ea": "reference"}


@lru_cache(maxsize=8)
def _weapon_protected(set_id: str) -> frozenset[str]:
    """The cards of a set with Weapon protection, their own or granted (artifacts)."""
    found = set()
    for group in card_db.get("kozyablo", set_id).data.values():
        for card in group if isinstance(group, list) else []:
            if not isinstance(card, dict):
                continue
            granted = (card.get("modify") or {}).get("grant") or []
            if any(a.get("type") == "weapon_protection"
                   for a in [*(card.get("abilities") or []), *granted]):
                found.add(card["id"])
    return frozenset(found)


def from_2(state: dict) -> dict:
    """A ``kozyablo/2`` state as a ``kozyablo/3`` one (the module docstring)."""
    if any("seat" in lasting for lasting in state["lasting"].values()):
        raise NotUpgradable(["KOZ-18a"], N_(
            "squad magic is on the table, which rules 3 treat as no card in the sector"))
    card_set = state["card_set"]
    if REFERENCE_HASHES.get(card_set["hash"]) == card_set["id"]:
        card_set = card_db.get("kozyablo", card_set["id"]).ref()
    combat = state["combat"]
    if combat is not None:
        protected = _weapon_protected(card_set["id"])
        if any(unit["sector"] == combat["sector"]
               and ({face(uid)} | {face(a) for a in unit["artifacts"]}) & protected
               for uid, unit in state["units"].items()):
            raise NotUpgradable(["KOZ-36a"], N_(
                "a combat is under way beside a creature with Weapon protection, whose "
                "targets rules 3 limit"))
    responder = next((entry["player"] for entry in state["pending"]
                      if entry.get("decision") == "response"), None)
    players = [{**p, "out": p["capital_damage"] >= CAPITAL_LIFE} for p in state["players"]]
    return {**state, "card_set": card_set, "players": players, "responder": responder}


def action_from_2(state: dict, action: dict) -> list[dict]:
    """A ``kozyablo/2`` action as a ``kozyablo/3`` one (the module docstring).

    >>> action_from_2({}, {"type": "reveal", "player": "chance", "seat": 0, "card": "pz_spark"})
    [{'type': 'reveal', 'player': 'chance', 'seat': 0, 'face': 'pz_spark'}]
    """
    if action.get("type") == "reveal" and "card" in action and "face" not in action:
        out = {k: v for k, v in action.items() if k != "card"}
        return [{**out, "face": action["card"]}]
    ability = action.get("ability")
    if action.get("type") == "use_ability" and isinstance(ability, str) and ability.isdigit():
        card = _cards(state["card_set"]["id"]).get(face(str(action["source"])), {})
        activated = card.get("activated") or []
        if int(ability) < len(activated):
            return [{**action, "ability": activated[int(ability)]["name"]}]
    return [action]


@lru_cache(maxsize=8)
def _cards(set_id: str) -> dict[str, dict]:
    """The cards of a set by id."""
    return {card["id"]: card for group in card_db.get("kozyablo", set_id).data.values()
            if isinstance(group, list) for card in group if isinstance(card, dict) and "id" in card}
