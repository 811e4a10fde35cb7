"""The effect engine: one interpreter for magic, events, abilities and triggers.

An effect is data (``card_schema.EffectSchema``): a ``kind`` from
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
enemy creature there.  An effect with a ``condition`` (``win``, KOZ-47,
``wins``) has no choice while its condition fails.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from service.games.draft import Draft
from service.games.kozyablo import effect_damage, wins
from service.games.kozyablo.cards import Catalogue, face
from service.games.kozyablo.damage import heal, remove_from_table, wound
from service.games.kozyablo.sectors import capital_id, seats_after
from service.games.kozyablo.setup import deck_left
from service.games.kozyablo.state_types import KozyabloState
from service.games.kozyablo.stats import magic_shielded, undead_spared, unit_stats
from service.games.objects import Event, JsonObject

Effect = JsonObject


@dataclass(frozen=True)
class Use:
    """One use of an effect: by ``seat``, with the ``choice`` made; ``card`` is a
    magic/event card being played, ``source`` and ``sector`` an ability's or
    trigger's card and its own sector."""

    seat: int
    effect: Effect
    choice: JsonObject
    from_magic: bool
    card: str | None = None
    sector: str | None = None
    source: str | None = None


def affected(state: KozyabloState, cat: Catalogue, uid: str, effect: Effect,
             from_magic: bool) -> bool:
    """May this effect reach creature ``uid`` at all?"""
    unit = state["units"][uid]
    if unit["shadow"]:
        return False
    if not from_magic and not effect.get("undead_immune"):
        return True
    ab = unit_stats(state, cat, uid).abilities
    return not (magic_shielded(ab, from_magic, bool(effect.get("pierces_magic_protection")))
                or undead_spared(ab, bool(effect.get("undead_immune"))))


# ------------------------------------------------------------ whom an effect reaches
def _side_ok(side: str | None, owner: int, seat: int) -> bool:
    if side == "enemy":
        return owner != seat
    if side == "ally":
        return owner == seat
    return True


#: ``choices(state, cat, seat, effect, from_magic, sector, source)``
Chooser = Callable[[KozyabloState, Catalogue, int, Effect, bool, "str | None", "str | None"],
                   list[JsonObject]]
#: ``reached(state, cat, use)``: the creatures an effect reaches with its choice
Reacher = Callable[[KozyabloState, Catalogue, Use], list[str]]


@dataclass(frozen=True)
class TargetType:
    """Whom an effect reaches: its legal ``choices`` and the creatures ``reached``
    (None: it reaches no creature); ``side`` the owners it may reach;
    ``one_creature``: it reaches a single creature; ``choiceless``: no player
    needs to choose (a trigger may use it)."""

    choices: Chooser
    reached: Reacher | None = None
    side: str | None = None
    one_creature: bool = False
    choiceless: bool = False


def _choose_creature(state: KozyabloState, cat: Catalogue, seat: int, effect: Effect,
                     from_magic: bool,
                     sector: str | None, source: str | None) -> list[JsonObject]:
    side = TARGETS[effect["target"]].side
    return [{"target": u} for u, d in state["units"].items()
            if (sector is None or d["sector"] == sector) and _side_ok(side, d["owner"], seat)
            and affected(state, cat, u, effect, from_magic)]


def _choose_self(state: KozyabloState, cat: Catalogue, seat: int, effect: Effect, from_magic: bool,
                 sector: str | None, source: str | None) -> list[JsonObject]:
    return [{}] if source in state["units"] else []


def _choose_squad(state: KozyabloState, cat: Catalogue, seat: int, effect: Effect, from_magic: bool,
                  sector: str | None, source: str | None) -> list[JsonObject]:
    """A sector holding a creature the effect reaches (RULING KOZ-51: whose squad,
    with more than two players); an ability or trigger: its own sector, no choice."""
    target, on_hidden = effect["target"], EFFECTS[effect["kind"]].on_hidden
    side = TARGETS[target].side
    by_squad = sector is None and target == "enemy_squad" and len(state["players"]) > 2
    sectors: list[Any] = []
    for u, d in state["units"].items():
        s = (d["sector"], d["owner"]) if by_squad else d["sector"]
        if (sector is None or d["sector"] == sector) and s not in sectors \
                and _side_ok(side, d["owner"], seat) \
                and ((d["shadow"] and d["owner"] != seat) if on_hidden
                     else affected(state, cat, u, effect, from_magic)):
            sectors.append(s)
    if sector is not None:
        return [{}] if sectors else []
    if by_squad:
        return [{"sector": s, "squad": o} for s, o in sorted(sectors)]
    return [{"sector": s} for s in sorted(sectors)]


def _choose_nothing(state: KozyabloState, cat: Catalogue, seat: int, effect: Effect,
                    from_magic: bool,
                    sector: str | None, source: str | None) -> list[JsonObject]:
    return [{}]


def _choose_building(state: KozyabloState, cat: Catalogue, seat: int, effect: Effect,
                     from_magic: bool,
                     sector: str | None, source: str | None) -> list[JsonObject]:
    return [{"target": b} for b, d in state["buildings"].items() if d["owner"] != seat]


def _choose_lasting(state: KozyabloState, cat: Catalogue, seat: int, effect: Effect,
                    from_magic: bool,
                    sector: str | None, source: str | None) -> list[JsonObject]:
    return [{"target": m} for m in state["lasting"]]


def _choose_capital(state: KozyabloState, cat: Catalogue, seat: int, effect: Effect,
                    from_magic: bool,
                    sector: str | None, source: str | None) -> list[JsonObject]:
    """RULING KOZ-51: which enemy capital, with more than two players."""
    if len(state["players"]) > 2:
        return [{"target": capital_id(state, s)} for s in sorted(seats_after(state, seat))]
    return [{}]


def _chosen_creature(state: KozyabloState, cat: Catalogue, use: Use) -> list[str]:
    return [use.choice["target"]]


def _source_creature(state: KozyabloState, cat: Catalogue, use: Use) -> list[str]:
    assert use.source is not None
    return [use.source]


def _creatures_in_sector(state: KozyabloState, cat: Catalogue, use: Use) -> list[str]:
    where = use.choice.get("sector", use.sector)
    side = TARGETS[use.effect["target"]].side
    return [u for u, d in state["units"].items()
            if d["sector"] == where and _side_ok(side, d["owner"], use.seat)
            and use.choice.get("squad", d["owner"]) == d["owner"]
            and affected(state, cat, u, use.effect, use.from_magic)]


def _every_creature(state: KozyabloState, cat: Catalogue, use: Use) -> list[str]:
    return [u for u in state["units"] if affected(state, cat, u, use.effect, use.from_magic)]


#: whom an effect reaches (``card_schema`` validates card data against it)
TARGETS: dict[str, TargetType] = {
    "creature": TargetType(_choose_creature, _chosen_creature, one_creature=True),
    "enemy_creature": TargetType(_choose_creature, _chosen_creature, "enemy", one_creature=True),
    "ally_creature": TargetType(_choose_creature, _chosen_creature, "ally", one_creature=True),
    "self": TargetType(_choose_self, _source_creature, one_creature=True, choiceless=True),
    "enemy_squad": TargetType(_choose_squad, _creatures_in_sector, "enemy", choiceless=True),
    "ally_squad": TargetType(_choose_squad, _creatures_in_sector, "ally", choiceless=True),
    "sector": TargetType(_choose_squad, _creatures_in_sector),
    "all_creatures": TargetType(_choose_nothing, _every_creature, choiceless=True),
    "enemy_building": TargetType(_choose_building),
    "lasting_magic": TargetType(_choose_lasting),
    "player": TargetType(_choose_nothing, choiceless=True),
    "enemy_capital": TargetType(_choose_capital, choiceless=True),
}


def choices(state: KozyabloState, cat: Catalogue, seat: int, effect: Effect, *, from_magic: bool,
            sector: str | None = None, source: str | None = None) -> list[JsonObject]:
    """Every legal choice for ``effect`` used by ``seat`` (``sector``: ability's own sector).

    An empty list means the effect cannot be used now: also while its ``condition``
    (``win``, KOZ-47) does not hold.
    """
    if "condition" in effect and not wins.holds(state, cat, seat, effect["condition"]):
        return []
    return TARGETS[effect["target"]].choices(state, cat, seat, effect, from_magic, sector,
                                             source)


def reached_units(state: KozyabloState, cat: Catalogue, use: Use) -> list[str]:
    """The creatures an effect reaches with its choice."""
    reached = TARGETS[use.effect["target"]].reached
    assert reached is not None, "the card schema allows creature effects only on creatures"
    return reached(state, cat, use)


# ------------------------------------------------------------ what an effect does
#: ``apply(draft, cat, use, events)``: carry the effect out; False when its damage
#: waits for a Defender decision (KOZ-45)
Applier = Callable[[Draft[KozyabloState], Catalogue, Use, list[Event]], bool]


@dataclass(frozen=True)
class EffectType:
    """What an effect does (``apply``), whom it may reach (``targets``) and the
    fields its card data needs (``needs``).  ``lasting``: only lasting magic has
    it (KOZ-18); ``on_hidden``: it works on enemy creatures in the shadow;
    ``printed``: cards may carry it (False: a built-in ability's own)."""

    apply: Applier
    targets: tuple[str, ...]
    needs: tuple[str, ...] = ()
    lasting: bool = False
    on_hidden: bool = False
    printed: bool = True


def _damage(draft: Draft[KozyabloState], cat: Catalogue, use: Use, events: list[Event]) -> bool:
    return effect_damage.deal(draft, cat, use.seat, use.effect,
                              reached_units(draft.root, cat, use), events,
                              from_magic=use.from_magic, source=use.card or use.source)


def _heal(draft: Draft[KozyabloState], cat: Catalogue, use: Use, events: list[Event]) -> bool:
    for uid in reached_units(draft.root, cat, use):
        heal(draft, cat, uid, use.effect["amount"], events)
    return True


def _modify(draft: Draft[KozyabloState], cat: Catalogue, use: Use, events: list[Event]) -> bool:
    """Lasting magic laid on a creature or on a squad (KOZ-18, RULING KOZ-18a)."""
    root = draft.root
    assert use.card is not None, "only lasting magic modifies"
    target = TARGETS[use.effect["target"]]
    entry: JsonObject = {"owner": use.seat, "turns_left": None, "cast_turn": root["turn"]}
    if target.one_creature:
        entry["unit"] = use.choice.get("target", use.source)
    else:
        entry["sector"] = use.choice["sector"]
        entry["seat"] = use.seat if target.side == "ally" else use.choice.get(
            "squad", seats_after(root, use.seat)[0])
    lasting = cat.faces[face(use.card)].data
    if lasting["kind"] == "temporary":
        entry["turns_left"] = lasting["time"]
    draft.at("lasting")[use.card] = entry
    events.append({"type": "magic_laid", "card": use.card,
                   **{k: entry[k] for k in ("unit", "sector") if k in entry}})
    return True


def _draw(draft: Draft[KozyabloState], cat: Catalogue, use: Use, events: list[Event]) -> bool:
    for _ in range(min(use.effect["amount"], max(deck_left(draft.root, use.seat), 0))):
        draft.at("queue").append({"seat": use.seat, "to": "hand"})
    return True


def _destroy_building(draft: Draft[KozyabloState], cat: Catalogue, use: Use, events: list[Event]) -> bool:
    remove_from_table(draft, cat, use.choice["target"], events, "destroyed")
    return True


def _dispel(draft: Draft[KozyabloState], cat: Catalogue, use: Use, events: list[Event]) -> bool:
    mid = use.choice["target"]
    owner = draft.at("lasting").pop(mid)["owner"]
    draft.at("players", owner, "discard").append(mid)
    events.append({"type": "magic_ended", "card": mid, "why": "dispelled"})
    return True


def _reveal_shadows(draft: Draft[KozyabloState], cat: Catalogue, use: Use, events: list[Event]) -> bool:
    where = use.choice.get("sector", use.sector)
    reveal(draft, [u for u, d in draft.root["units"].items()
                   if d["sector"] == where and d["shadow"] and d["owner"] != use.seat],
           events, "KOZ-41")
    return True


def _damage_capital(draft: Draft[KozyabloState], cat: Catalogue, use: Use, events: list[Event]) -> bool:
    root = draft.root
    cap = use.choice.get("target") or capital_id(root, seats_after(root, use.seat)[0])
    wound(draft, cat, cap, use.effect["amount"], events, source=use.card or use.source)
    return True


def _hide(draft: Draft[KozyabloState], cat: Catalogue, use: Use, events: list[Event]) -> bool:
    assert use.source is not None
    hide(draft, use.source, events)
    return True


def _win(draft: Draft[KozyabloState], cat: Catalogue, use: Use, events: list[Event]) -> bool:
    """KOZ-47: the owner wins (``choices`` offers it only while its condition holds)."""
    wins.win(draft, use.seat, use.effect["condition"], use.card or use.source, events)
    return True


#: what an effect does, by ``kind`` (Forge's ApiType: one name, one implementation)
EFFECTS: dict[str, EffectType] = {
    "damage": EffectType(_damage, ("creature", "enemy_creature", "enemy_squad", "sector",
                                   "all_creatures"), needs=("amount",)),
    "heal": EffectType(_heal, ("creature", "ally_creature", "self", "ally_squad"),
                       needs=("amount",)),
    "modify": EffectType(_modify, ("creature", "ally_creature", "enemy_creature", "self",
                                   "ally_squad", "enemy_squad"), needs=("modify",), lasting=True),
    "draw": EffectType(_draw, ("player",), needs=("amount",)),
    "destroy_building": EffectType(_destroy_building, ("enemy_building",)),
    "dispel": EffectType(_dispel, ("lasting_magic",)),
    "reveal_shadows": EffectType(_reveal_shadows, ("sector",), on_hidden=True),
    "damage_capital": EffectType(_damage_capital, ("enemy_capital",), needs=("amount",)),
    "win": EffectType(_win, ("player",), needs=("condition",)),  # KOZ-47, ``wins``
    "hide": EffectType(_hide, ("self",), printed=False),  # KOZ-41 Shadow (``abilities``)
}


def apply(draft: Draft[KozyabloState], cat: Catalogue, seat: int, effect: Effect, choice: JsonObject,
          events: list[Event], *, from_magic: bool, card: str | None = None,
          sector: str | None = None, source: str | None = None) -> bool:
    """Carry ``effect`` out.  ``card`` is a magic/event card being played.

    False when its damage waits for a Defender decision (KOZ-45,
    ``effect_damage``): the caller records how to go on afterwards.
    """
    use = Use(seat, effect, choice, from_magic, card, sector, source)
    return EFFECTS[effect["kind"]].apply(draft, cat, use, events)


def squad_magic_left(draft: Draft[KozyabloState], events: list[Event]) -> None:
    """RULING KOZ-18a: magic laid on a squad goes to the discard as soon as that
    squad has no creature left in its sector (moved out or died)."""
    root = draft.root
    if not root["lasting"]:
        return
    present = {(d["sector"], d["owner"]) for d in root["units"].values()}
    for mid, m in list(root["lasting"].items()):
        if "sector" in m and (m["sector"], m["seat"]) not in present:
            draft.at("lasting").pop(mid)
            draft.at("players", m["owner"], "discard").append(mid)
            events.append({"type": "magic_ended", "card": mid, "why": "squad_gone",
                           "rule": "KOZ-18a"})


def hide(draft: Draft[KozyabloState], uid: str, events: list[Event]) -> None:
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


def reveal(draft: Draft[KozyabloState], uids: list[str], events: list[Event], rule: str) -> None:
    """Creatures leave the shadow (turned face up)."""
    for uid in uids:
        if draft.root["units"][uid]["shadow"]:
            unit = draft.at("units", uid)
            unit["shadow"] = False
            unit.pop("shadow_number", None)
            events.append({"type": "left_shadow", "unit": uid, "rule": rule})


def scout_reveals(draft: Draft[KozyabloState], cat: Catalogue, events: list[Event]) -> None:
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
