"""Effective stats of creatures and buildings on the table.

Printed stats, plus artifacts carried (KOZ-21), plus lasting magic laid on
the creature or on its squad (KOZ-18).  ``Stats`` (``cards``) is what combat
and the effect engine read.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from service.games.kozyablo.cards import Catalogue, Stats, face
from service.games.kozyablo.state_types import KozyabloState
from service.games.objects import JsonObject


def _apply(mod: JsonObject, attack: int, life: int, speed: int, abilities: set[str],
           values: JsonObject) -> tuple[int, int, int]:
    attack += mod.get("attack", 0)
    life += mod.get("life", 0)
    speed += mod.get("speed", 0)
    for g in mod.get("grant", ()):
        abilities.add(g["type"])
        if "value" in g:
            values[g["type"]] = values.get(g["type"], 0) + g["value"]
    return attack, life, speed


def magic_shielded(abilities: AbstractSet[str], magic: bool, pierces: bool) -> bool:
    """KOZ-38 Magic protection: no magic card affects the creature, unless it pierces
    the protection (Word of Letaro).

    >>> shield = {"magic_protection"}
    >>> magic_shielded(shield, True, False), magic_shielded(shield, True, True)
    (True, False)
    """
    return magic and not pierces and "magic_protection" in abilities


def undead_spared(abilities: AbstractSet[str], undead_immune: bool) -> bool:
    """KOZ-43: an Undead creature is immune to a card that says so."""
    return undead_immune and "undead" in abilities


def unit_stats(state: KozyabloState, cat: Catalogue, uid: str) -> Stats:
    """Stats of creature ``uid`` with everything laid on it.

    >>> import card_db; from service.games.kozyablo.cards import Catalogue
    >>> cat = Catalogue.of(card_db.get("kozyablo"))
    >>> st = {"units": {"0.kz_hero": {"owner": 0, "sector": "s", "damage": 0,
    ...        "shadow": False, "artifacts": ["0.kz_art_horns"]}}, "lasting": {}}
    >>> s = unit_stats(st, cat, "0.kz_hero"); (s.attack, s.life, s.armor)
    (5, 6, 1)
    """
    unit = state["units"][uid]
    lasting = state["lasting"]
    laid = [mid for mid, m in lasting.items()
            if m.get("unit") == uid or (m.get("sector") == unit["sector"]
                                        and m.get("seat") == unit["owner"])] if lasting else ()
    if not unit["artifacts"] and not laid:  # the card schema's printed stats need no floor
        return cat.printed[face(uid)]
    f = cat.faces[face(uid)]
    attack, life, speed = f.attack, f.life, f.speed
    abilities = set(f.abilities)
    values = {"armor": f.armor, "regeneration": f.regeneration}
    for art in unit["artifacts"]:
        attack, life, speed = _apply(cat.faces[face(art)].data["modify"], attack, life, speed,
                                     abilities, values)
    shielded = "magic_protection" in abilities  # KOZ-38: no magic card affects it
    for mid in laid:
        card = cat.faces[face(mid)]
        if shielded and card.type == "magic" and \
                not card.data["effect"].get("pierces_magic_protection"):
            continue
        attack, life, speed = _apply(card.data["effect"]["modify"],
                                     attack, life, speed, abilities, values)
    return Stats(max(0, attack), max(1, life), max(0, speed), frozenset(abilities),
                 values["armor"], values["regeneration"])


def building_stats(cat: Catalogue, bid: str) -> Stats:
    return cat.printed[face(bid)]

