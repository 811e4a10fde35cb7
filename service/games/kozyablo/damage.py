"""Damage, death and the abilities that shape a strike (KOZ-27, KOZ-29, KOZ-30 … KOZ-46).

A *strike* comes from a creature or a building; *magic damage* comes from a
card.  The functions here are the one place those rules are computed.
"""

from __future__ import annotations

from service.games.draft import Draft
from service.games.kozyablo.cards import Catalogue, Stats, face, seat_of
from service.games.kozyablo.sectors import update_control
from service.games.kozyablo.state_types import KozyabloState
from service.games.kozyablo.stats import building_stats, unit_stats
from service.games.objects import Event, JsonObject

CAPITAL_LIFE, CAPITAL_ARMOR = 12, 2


def striker_stats(state: KozyabloState, cat: Catalogue, sid: str) -> Stats:
    return unit_stats(state, cat, sid) if sid in state["units"] else building_stats(cat, sid)


def can_strike(state: KozyabloState, cat: Catalogue, striker_abilities: frozenset[str],
               target: str) -> bool:
    """Whether a striker with ``striker_abilities`` may choose ``target``.

    KOZ-30 Flying: a flyer can be struck only by flyers, KOZ-33 archers and
    KOZ-34 Magic attack.  RULING KOZ-36a: a Weapon-protected creature only by
    KOZ-35 Magic weapon and KOZ-34 Magic attack.  KOZ-41: a creature in the
    shadow cannot be struck at all.  RULING KOZ-37a: KOZ-37 Arrow protection and
    KOZ-38 Magic protection limit damage (``strike_damage``), not targets.
    """
    unit = state["units"].get(target)
    if unit is None:
        return True  # buildings and capitals
    if unit["shadow"]:
        return False
    ab = unit_stats(state, cat, target).abilities
    return flyer_reached(striker_abilities, ab) and weapon_protection_pierced(striker_abilities, ab)


def flyer_reached(striker: frozenset[str], target: frozenset[str]) -> bool:
    """KOZ-30: a flyer is struck only by flyers, KOZ-33 archers and KOZ-34 Magic attack.

    >>> flyer_reached(frozenset({"archer"}), frozenset({"flying"}))
    True
    >>> flyer_reached(frozenset(), frozenset({"flying"}))
    False
    """
    return "flying" not in target or bool(striker & {"flying", "archer", "magic_attack"})


def weapon_protection_pierced(striker: frozenset[str], target: frozenset[str]) -> bool:
    """RULING KOZ-36a: Weapon protection is struck only with KOZ-35 Magic weapon or
    KOZ-34 Magic attack."""
    return "weapon_protection" not in target or bool(striker & {"magic_weapon", "magic_attack"})


def strike_damage(state: KozyabloState, cat: Catalogue, striker: str, target: str) -> int:
    """Damage a strike of ``striker`` deals to ``target`` (a creature, building or capital).

    KOZ-36 Weapon protection (0 from a striker without KOZ-35 Magic weapon or
    KOZ-34 Magic attack, even as Area's second target: RULING KOZ-36a), KOZ-37 Arrow
    protection, KOZ-38 Magic protection, KOZ-43 Undead (+1 from Magic weapon / Magic
    attack), then KOZ-39 Armor X (never below 1, not against Magic attack); capitals
    have Armor 2 (KOZ-49).  RULING KOZ-39a: Armor reduces damage from creatures only,
    so a building's strike (a garrison, a retreat attack) is not reduced by it.
    """
    s = striker_stats(state, cat, striker)
    dmg = s.attack
    if dmg <= 0:
        return 0
    armored = striker in state["units"] and "magic_attack" not in s.abilities
    if target in state["units"]:
        t = unit_stats(state, cat, target)
    elif target in state["buildings"]:
        t = building_stats(cat, target)
    else:  # a capital
        return max(1, dmg - CAPITAL_ARMOR) if armored else dmg
    mag_attack = "magic_attack" in s.abilities
    ab = t.abilities
    if not weapon_protection_pierced(s.abilities, ab):
        return 0
    if "arrow_protection" in ab and "archer" in s.abilities:
        return 0
    if "magic_protection" in ab and mag_attack:
        return 0
    if "undead" in ab and (mag_attack or "magic_weapon" in s.abilities):
        dmg += 1
    return armor_reduced(dmg, t.armor) if armored else dmg


def armor_reduced(damage: int, armor: int) -> int:
    """KOZ-39 Armor X on a creature's strike: X less, never below 1 (0 stays 0).

    >>> armor_reduced(3, 1), armor_reduced(1, 3), armor_reduced(2, 0)
    (2, 1, 2)
    """
    return max(1, damage - armor) if armor and damage > 0 else damage


def magic_damage(state: KozyabloState, cat: Catalogue, target: str, amount: int,
                 from_magic: bool) -> int:
    """Damage of an effect (a magic card when ``from_magic``): KOZ-43 Undead +1."""
    if from_magic and target in state["units"] and \
            "undead" in unit_stats(state, cat, target).abilities:
        return amount + 1
    return amount


def life_left(state: KozyabloState, cat: Catalogue, target: str) -> int:
    if target in state["units"]:
        return unit_stats(state, cat, target).life - state["units"][target]["damage"]
    if target in state["buildings"]:
        return building_stats(cat, target).life - state["buildings"][target]["damage"]
    seat = seat_of(target)
    return CAPITAL_LIFE - state["players"][seat]["capital_damage"]


def wound(draft: Draft[KozyabloState], cat: Catalogue, target: str, amount: int, events: list[Event],
          source: str | None = None) -> int:
    """Put ``amount`` damage on ``target`` (damage stays: KOZ-27); deaths follow.

    Returns the damage dealt: never more than the life ``target`` had left (no
    overkill, in the event or on the card).  A capital at 12 damage is
    destroyed (KOZ-49).
    """
    root = draft.root
    amount = min(amount, max(0, life_left(root, cat, target)))
    if amount <= 0:
        events.append({"type": "damage", "target": target, "amount": 0, "source": source})
        return 0
    if target in root["units"]:
        draft.at("units", target)["damage"] += amount
    elif target in root["buildings"]:
        draft.at("buildings", target)["damage"] += amount
    else:
        seat = seat_of(target)
        draft.at("players", seat)["capital_damage"] += amount
    events.append({"type": "damage", "target": target, "amount": amount, "source": source})
    sweep(draft, cat, events, by=None if source is None else seat_of(source))
    return amount


def heal(draft: Draft[KozyabloState], cat: Catalogue, uid: str, amount: int, events: list[Event]) -> int:
    """Restore up to ``amount`` life (never above the maximum)."""
    unit = draft.root["units"][uid]
    healed = min(amount, unit["damage"])
    if healed:
        draft.at("units", uid)["damage"] -= healed
        events.append({"type": "heal", "target": uid, "amount": healed})
    return healed


def sweep(draft: Draft[KozyabloState], cat: Catalogue, events: list[Event], by: int | None = None) -> None:
    """KOZ-29: everything at 0 life dies; a capital at 12 damage is destroyed
    (KOZ-49), ``by`` the owner of the card whose damage did it (None: not known)."""
    root = draft.root
    while True:
        # undamaged cards live: every life is at least 1 (the card schema; ``unit_stats``)
        dead = [u for u, d in root["units"].items()
                if d["damage"] and life_left(root, cat, u) <= 0]
        dead += [b for b, d in root["buildings"].items()
                 if d["damage"] and life_left(root, cat, b) <= 0]
        if not dead:
            break
        for cid in dead:
            remove_from_table(draft, cat, cid, events, "died")
    for seat, p in enumerate(root["players"]):
        if root["result"] is not None:
            break
        if p["capital_damage"] >= CAPITAL_LIFE and not p["out"]:
            events.append(capital_fell("capital_destroyed", root, seat, by, "KOZ-49"))
            knock_out(draft, cat, seat, "destruction", events)


def capital_fell(kind: str, state: KozyabloState, victim: int, by: int | None,
                 rule: str) -> JsonObject:
    """The one shape of ``capital_captured`` (KOZ-48) and ``capital_destroyed``
    (KOZ-49): ``player`` is the player whose capital fell, ``capital`` that
    capital, ``by`` the player who captured or destroyed it (None when no card
    of a player dealt the last damage).

    >>> capital_fell("capital_captured", {"players": [{"capital": "0.kz_capital"},
    ...              {"capital": "1.tr_capital"}]}, 1, 0, "KOZ-48")
    {'type': 'capital_captured', 'player': 1, 'capital': '1.tr_capital', 'by': 0, 'rule': 'KOZ-48'}
    """
    return {"type": kind, "player": victim, "capital": state["players"][victim]["capital"],
            "by": by, "rule": rule}


def knock_out(draft: Draft[KozyabloState], cat: Catalogue, seat: int, reason: str, events: list[Event]) -> None:
    """RULING KOZ-53: ``seat``'s capital fell (``reason``: capture or destruction).

    ``seat`` is out: their creatures, buildings and lasting magic leave the
    table for their discard, their queued draws are dropped, the sectors they
    controlled become neutral, and they take no more turns.  Their capital
    stays as an ordinary sector of nobody's (RULING KOZ-53a), whose control
    then follows KOZ-11.  When one player is left they win and the game ends
    there — RULING KOZ-53a: the last player to fall is out like any other.
    """
    root = draft.root
    draft.at("players", seat)["out"] = True
    for uid in sorted(u for u, d in root["units"].items() if d["owner"] == seat):
        if uid in root["units"]:
            remove_from_table(draft, cat, uid, events, "left")
    for bid in sorted(b for b, d in root["buildings"].items() if d["owner"] == seat):
        remove_from_table(draft, cat, bid, events, "left")
    for mid in sorted(m for m, d in root["lasting"].items() if d["owner"] == seat):
        draft.at("lasting").pop(mid)
        draft.at("players", seat, "discard").append(mid)
        events.append({"type": "magic_ended", "card": mid, "why": "owner_out",
                       "rule": "KOZ-53"})
    if any(q["seat"] == seat for q in root["queue"]):
        root["queue"] = [q for q in root["queue"] if q["seat"] != seat]
    for sid, sec in root["sectors"].items():
        if sec["controller"] == seat:  # their capital included (RULING KOZ-53a)
            draft.at("sectors", sid)["controller"] = None
            events.append({"type": "sector_control", "sector": sid, "controller": None})
    events.append({"type": "player_out", "player": seat, "reason": reason, "rule": "KOZ-53"})
    update_control(draft, events)  # KOZ-11 in the fallen capital (RULING KOZ-53a)
    left = [s for s, p in enumerate(root["players"]) if not p["out"]]
    if len(left) == 1:
        root["result"] = {"finished": True, "winners": left, "reason": reason}


def remove_from_table(draft: Draft[KozyabloState], cat: Catalogue, cid: str, events: list[Event], why: str) -> None:
    """A creature or building leaves the table for its owner's discard.

    Its artifacts and the lasting magic laid on it go with it; a hero is
    remembered so it can never be played again (KOZ-20).
    """
    root = draft.root
    if cid in root["units"]:
        unit = draft.at("units").pop(cid)
        owner = unit["owner"]
        gone = [cid, *unit["artifacts"]]
        if cat.faces[face(cid)].type == "hero":
            draft.at("players", owner, "dead_heroes").append(face(cid))
        for mid, m in list(root["lasting"].items()):
            if m.get("unit") == cid:
                draft.at("lasting").pop(mid)
                draft.at("players", m["owner"], "discard").append(mid)
                events.append({"type": "magic_ended", "card": mid})
    else:
        owner = draft.at("buildings").pop(cid)["owner"]
        gone = [cid]
    discard = draft.at("players", owner, "discard")
    for g in gone:
        if seat_of(g) == owner:
            discard.append(g)
        else:  # an artifact is always its carrier's owner's card; kept general
            draft.at("players", seat_of(g), "discard").append(g)
    events.append({"type": why, "card": cid})
