"""The effect engine: one interpreter for magic, events, abilities and triggers.

An effect is data (``schemas.cards_kozyablo.EffectSchema``): a ``kind`` from
a closed vocabulary and a ``target`` saying whom it reaches.  Magic and events
reach the whole table (KOZ-18/19); an ability or trigger reaches only its own
sector (KOZ-16).  Magic cards honour Magic protection (KOZ-38, except an effect
with ``pierces_magic_protection`` — Word of Letaro) and Undead (KOZ-43: +1
damage, and no effect at all when the spell is ``undead_immune``).  Nothing in
the shadow can be chosen or affected (KOZ-41).  Damage goes through
``effect_damage``, which offers each hit to the allied Defenders (KOZ-45).

A *choice* is the parameter a player picks: ``{"target": id}`` for one
creature, building or lasting magic; ``{"sector": id}`` for a squad or a
sector; ``{}`` when nothing is chosen.  With more than two players (RULING
KOZ-51) a card aimed at an enemy squad also names whose (``"squad": seat``)
and one aimed at the enemy capital names which (``{"target": capital id}``);
an ability or trigger aimed at the enemy squad in its sector reaches every
enemy creature there.
"""

from __future__ import annotations

from service.games.kozyablo import effect_damage
from service.games.kozyablo.cards import Catalogue, face
from service.games.kozyablo.damage import heal, remove_from_table, wound
from service.games.kozyablo.sectors import capital_id, seats_after
from service.games.kozyablo.setup import deck_left
from service.games.kozyablo.stats import unit_stats

UNIT_TARGETS = ("creature", "enemy_creature", "ally_creature")
SQUAD_TARGETS = ("enemy_squad", "ally_squad", "sector")


def affected(state: dict, cat: Catalogue, uid: str, effect: dict, from_magic: bool) -> bool:
    """May this effect reach creature ``uid`` at all?"""
    unit = state["units"][uid]
    if unit["shadow"]:
        return False
    if not from_magic and not effect.get("undead_immune"):
        return True
    ab = unit_stats(state, cat, uid).abilities
    if from_magic and "magic_protection" in ab and not effect.get("pierces_magic_protection"):
        return False
    if effect.get("undead_immune") and "undead" in ab:
        return False
    return True


def _side_ok(target: str, owner: int, seat: int) -> bool:
    if target.startswith("enemy"):
        return owner != seat
    if target.startswith("ally"):
        return owner == seat
    return True


def choices(state: dict, cat: Catalogue, seat: int, effect: dict, *, from_magic: bool,
            sector: str | None = None, source: str | None = None) -> list[dict]:
    """Every legal choice for ``effect`` used by ``seat`` (``sector``: ability's own sector).

    An empty list means the effect cannot be used now.
    """
    target = effect["target"]
    units = state["units"]
    if target in UNIT_TARGETS:
        return [{"target": u} for u, d in units.items()
                if (sector is None or d["sector"] == sector) and _side_ok(target, d["owner"], seat)
                and affected(state, cat, u, effect, from_magic)]
    if target == "self":
        return [{}] if source in units else []
    if target in SQUAD_TARGETS:
        by_squad = sector is None and target == "enemy_squad" and len(state["players"]) > 2
        sectors = []
        for u, d in units.items():
            s = (d["sector"], d["owner"]) if by_squad else d["sector"]
            if (sector is None or d["sector"] == sector) and s not in sectors \
                    and _side_ok(target, d["owner"], seat) \
                    and (effect["kind"] == "reveal_shadows" or affected(state, cat, u, effect, from_magic)):
                if effect["kind"] == "reveal_shadows" and not (d["shadow"] and d["owner"] != seat):
                    continue
                sectors.append(s)
        if sector is not None:  # an ability or trigger: its own sector, no choice
            return [{}] if sectors else []
        if by_squad:  # RULING KOZ-51: whose squad
            return [{"sector": s, "squad": o} for s, o in sorted(sectors)]
        return [{"sector": s} for s in sorted(sectors)]
    if target == "all_creatures":
        return [{}]
    if target == "enemy_building":
        return [{"target": b} for b, d in state["buildings"].items() if d["owner"] != seat]
    if target == "lasting_magic":
        return [{"target": m} for m in state["lasting"]]
    if target == "enemy_capital" and len(state["players"]) > 2:  # RULING KOZ-51: which
        return [{"target": capital_id(state, s)} for s in sorted(seats_after(state, seat))]
    if target in ("player", "enemy_capital"):
        return [{}]
    raise AssertionError(target)


def reached_units(state: dict, cat: Catalogue, seat: int, effect: dict, choice: dict,
                  from_magic: bool, sector: str | None, source: str | None) -> list[str]:
    """The creatures an effect reaches with ``choice``."""
    target = effect["target"]
    if target in UNIT_TARGETS:
        return [choice["target"]]
    if target == "self":
        return [source]
    where = choice.get("sector", sector)
    return [u for u, d in state["units"].items()
            if (target == "all_creatures" or d["sector"] == where)
            and _side_ok(target, d["owner"], seat) and choice.get("squad", d["owner"]) == d["owner"]
            and affected(state, cat, u, effect, from_magic)]


def apply(draft, cat: Catalogue, seat: int, effect: dict, choice: dict, events: list[dict], *,
          from_magic: bool, card: str | None = None, sector: str | None = None,
          source: str | None = None) -> bool:
    """Carry ``effect`` out.  ``card`` is a magic/event card being played.

    False when its damage waits for a Defender decision (KOZ-45,
    ``effect_damage``): the caller records how to go on afterwards.
    """
    root = draft.root
    kind = effect["kind"]
    if kind == "damage":
        return effect_damage.deal(
            draft, cat, seat, effect,
            reached_units(root, cat, seat, effect, choice, from_magic, sector, source), events,
            from_magic=from_magic, source=card or source)
    if kind == "heal":
        for uid in reached_units(root, cat, seat, effect, choice, from_magic, sector, source):
            heal(draft, cat, uid, effect["amount"], events)
    elif kind == "modify":
        tgt = effect["target"]
        entry = {"owner": seat, "turns_left": None, "cast_turn": root["turn"]}
        if tgt in UNIT_TARGETS or tgt == "self":
            entry["unit"] = choice.get("target", source)
        else:
            entry["sector"] = choice["sector"]
            entry["seat"] = seat if tgt.startswith("ally") else choice.get(
                "squad", seats_after(root, seat)[0])
        lasting = cat.faces[face(card)].data
        if lasting["kind"] == "temporary":
            entry["turns_left"] = lasting["time"]
        draft.at("lasting")[card] = entry
        events.append({"type": "magic_laid", "card": card,
                       **{k: entry[k] for k in ("unit", "sector") if k in entry}})
    elif kind == "draw":
        for _ in range(min(effect["amount"], max(deck_left(root, seat), 0))):
            draft.at("queue").append({"seat": seat, "to": "hand"})
    elif kind == "destroy_building":
        remove_from_table(draft, cat, choice["target"], events, "destroyed")
    elif kind == "dispel":
        mid = choice["target"]
        owner = draft.at("lasting").pop(mid)["owner"]
        draft.at("players", owner, "discard").append(mid)
        events.append({"type": "magic_ended", "card": mid, "why": "dispelled"})
    elif kind == "reveal_shadows":
        reveal(draft, [u for u, d in root["units"].items()
                       if d["sector"] == choice.get("sector", sector) and d["shadow"]
                       and d["owner"] != seat], events, "KOZ-41")
    elif kind == "damage_capital":
        cap = choice.get("target") or capital_id(root, seats_after(root, seat)[0])
        wound(draft, cat, cap, effect["amount"], events, source=card or source)
    else:  # pragma: no cover - the schema allows nothing else
        raise AssertionError(kind)
    return True


def squad_magic_left(draft, events: list[dict]) -> None:
    """RULING KOZ-18a: magic laid on a squad goes to the discard as soon as that
    squad has no creature left in its sector (moved out or died)."""
    root = draft.root
    present = {(d["sector"], d["owner"]) for d in root["units"].values()}
    for mid, m in list(root["lasting"].items()):
        if "sector" in m and (m["sector"], m["seat"]) not in present:
            draft.at("lasting").pop(mid)
            draft.at("players", m["owner"], "discard").append(mid)
            events.append({"type": "magic_ended", "card": mid, "why": "squad_gone",
                           "rule": "KOZ-18a"})


def hide(draft, uid: str, events: list[dict]) -> None:
    """KOZ-41: the creature hides face down.

    It takes the smallest ``shadow_number`` no hidden creature holds: the
    opponent calls it ``hidden-<n>``, a name that depends only on when
    creatures entered and left the shadow (public), never on which card it is.

    >>> from service.games.draft import Draft
    >>> d = Draft({"units": {"a": {"shadow": True, "shadow_number": 2}, "b": {"shadow": False}}})
    >>> hide(d, "b", []); d.root["units"]["b"]
    {'shadow': True, 'shadow_number': 1}
    """
    taken = {d.get("shadow_number") for d in draft.root["units"].values()}
    unit = draft.at("units", uid)
    unit["shadow"] = True
    unit["shadow_number"] = next(n for n in range(1, len(taken) + 2) if n not in taken)
    events.append({"type": "entered_shadow", "unit": uid, "rule": "KOZ-41"})


def reveal(draft, uids: list[str], events: list[dict], rule: str) -> None:
    """Creatures leave the shadow (turned face up)."""
    for uid in uids:
        if draft.root["units"][uid]["shadow"]:
            unit = draft.at("units", uid)
            unit["shadow"] = False
            unit.pop("shadow_number", None)
            events.append({"type": "left_shadow", "unit": uid, "rule": rule})


def scout_reveals(draft, cat: Catalogue, events: list[dict]) -> None:
    """KOZ-42: enemy creatures in a sector with a Scout leave the shadow."""
    units = draft.root["units"]
    hidden = [u for u, d in units.items() if d["shadow"]]
    if not hidden:
        return
    scouts = {(d["sector"], d["owner"]) for u, d in units.items()
              if not d["shadow"] and "scout" in unit_stats(draft.root, cat, u).abilities}
    found = [u for u in hidden  # an enemy Scout: of any other player (RULING KOZ-51)
             if any(s == units[u]["sector"] and o != units[u]["owner"] for s, o in scouts)]
    reveal(draft, found, events, "KOZ-42")
