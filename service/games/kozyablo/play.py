"""Playing a card from hand (KOZ-17 … KOZ-23), production gating every type.

``{"type": "play_card", "player", "card", "sector"?, "target"?}``:

* creature / hero — ``sector`` it enters;
* artifact — ``target``: the hero that carries it;
* building — nothing (it goes into the player's capital);
* magic / event — what its effect needs (``target`` or ``sector``; see
  ``effects.choices``).
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass

from service.games.draft import Draft
from service.games.errors import RuleViolation
from service.games.kozyablo import effects, wins
from service.games.kozyablo.cards import Catalogue, Face, face
from service.games.kozyablo.sectors import (
    capital_id,
    controlled_sectors,
    enemy_creature_in_capital,
    garrison_room,
    has_opposing_cards,
    opposing_sectors,
    production,
)
from service.games.kozyablo.state_types import KozyabloState
from service.games.kozyablo.stats import magic_shielded, undead_spared, unit_stats
from service.games.messages import N_, Message, joined
from service.games.objects import ActionObject, Event, JsonObject

HERO_CRYSTALS = 3
#: the keys a magic or event card's choice may have (``effects.choices``)
CHOICE_KEYS = ("sector", "target", "squad")


def level_needed(f: Face) -> int:
    """The production a card needs: its level; a hero needs crystals 3 whatever
    its printed level ("добыча кристаллов должна быть 3 или больше", KOZ-20).

    >>> from types import SimpleNamespace as N
    >>> level_needed(N(type="hero", level=5)), level_needed(N(type="creature", level=2))
    (3, 2)
    """
    return HERO_CRYSTALS if f.type == "hero" else f.level


def affordable(state: KozyabloState, cat: Catalogue, seat: int, f: Face,
               prod: dict[str, int] | None = None) -> Message | None:
    """Why ``seat`` cannot pay for ``f`` now (None: they can)."""
    prod = prod or production(state, cat, seat)
    short = shortfall(state, cat, seat, f, prod)
    if short is None:
        return None
    rule = CARD_TYPES[f.type].rule
    if short == "dead_hero":
        return N_("{rule}: {why}", rule="KOZ-20",
                  why=N_("this hero was destroyed and can never be played again"))
    if short == "production":
        resource, need = CARD_TYPES[f.type].resource, level_needed(f)
        if f.type == "hero":
            why = N_("a hero needs {resource} production {need}; you have {have}",
                     resource=resource, need=need, have=prod[resource])
        else:
            why = N_("a level-{level} {type} needs {resource} production {need}; you have {have}",
                     level=f.level, type=f.type, resource=resource, need=need, have=prod[resource])
        return N_("{rule}: {why}", rule=rule, why=why)
    if short == "sectors":
        return N_("{rule}: {why}", rule=rule, why=N_(
            "this card needs {needed} controlled sector(s); you control {have}",
            needed=f.data["requires"]["controlled_sectors"], have=controlled_sectors(state, seat)))
    limit = cat.capitals[face(capital_id(state, seat))]["buildings"]
    have = sum(1 for d in state["buildings"].values() if d["owner"] == seat)
    return N_("{rule}: {why}", rule="KOZ-22", why=N_(
        "your capital allows {limit} building(s); you have {have}", limit=limit, have=have))


def shortfall(state: KozyabloState, cat: Catalogue, seat: int, f: Face,
              prod: dict[str, int]) -> str | None:
    """The first of ``affordable``'s checks that ``f`` fails (None: none), without
    its message: a listing asks it of every card in hand.  ``dead_hero`` (KOZ-20),
    ``production`` (the type's resource below the card's need), ``sectors`` (its
    ``requires``), ``buildings`` (KOZ-22, the capital's limit)."""
    if f.type == "hero" and f.id in state["players"][seat]["dead_heroes"]:
        return "dead_hero"
    if prod[CARD_TYPES[f.type].resource] < level_needed(f):
        return "production"
    req = f.data.get("requires")
    if req and controlled_sectors(state, seat) < req.get("controlled_sectors", 0):
        return "sectors"
    if f.type == "building":
        limit = cat.capitals[face(capital_id(state, seat))]["buildings"]
        if sum(1 for d in state["buildings"].values() if d["owner"] == seat) >= limit:
            return "buildings"
    return None


def _enterable(sectors: Iterable[str], cap: str, garrison_ok: bool, invaded: bool,
               opposed: Container[str]) -> list[str]:
    """KOZ-17/KOZ-23/KOZ-16a: which of ``sectors`` a creature may be played into.
    Not where opposing cards are (``opposed``); only into the capital ``cap``
    while an opposing creature stands there (``invaded``); into ``cap`` only
    with ``garrison_ok``."""
    if invaded:
        return [cap] if garrison_ok and cap in sectors else []
    return [sid for sid in sectors if sid not in opposed and (garrison_ok or sid != cap)]


def creature_sectors(state: KozyabloState, cat: Catalogue, seat: int) -> list[str]:
    """The sectors a creature of ``seat`` may be played into (``_enterable``)."""
    invaded = enemy_creature_in_capital(state, seat)
    return sorted(_enterable(state["sectors"], capital_id(state, seat),
                             garrison_room(state, cat, seat, 1), invaded,
                             () if invaded else opposing_sectors(state, seat)))


def may_enter(state: KozyabloState, cat: Catalogue, seat: int, sector: str) -> bool:
    """Whether ``sector`` is one of ``creature_sectors`` (asked of that sector alone)."""
    invaded = enemy_creature_in_capital(state, seat)
    opposed = not invaded and has_opposing_cards(state, sector, seat)
    return bool(_enterable((sector,), capital_id(state, seat), garrison_room(state, cat, seat, 1),
                           invaded, (sector,) if opposed else ()))


def _heroes_for(state: KozyabloState, cat: Catalogue, seat: int, f: Face) -> list[str]:
    """KOZ-21 heroes of ``seat`` that may carry artifact ``f`` (KOZ-23: only in
    the capital while an enemy creature stands there; KOZ-41: a hero in the
    shadow cannot be a card's target)."""
    allowed = f.data["heroes"]
    only_capital = enemy_creature_in_capital(state, seat)
    cap = capital_id(state, seat)
    return sorted(u for u, d in state["units"].items()
                  if d["owner"] == seat and face(u) in allowed and not d["shadow"]
                  and (not only_capital or d["sector"] == cap))


# ------------------------------------------------------------ by card type
def _check_creature(state: KozyabloState, cat: Catalogue, seat: int, f: Face, action: ActionObject,
                    extra: set[str]) -> None:
    """KOZ-17/KOZ-23/KOZ-16a: a creature or hero enters a ``sector``."""
    if extra != {"sector"}:
        raise RuleViolation("KOZ-17", N_("a creature is played with `sector` only"))
    sector = action["sector"]
    if sector not in state["sectors"]:
        raise RuleViolation("KOZ-17", N_("no sector {sector!r} on the table", sector=sector))
    if may_enter(state, cat, seat, sector):
        return
    cap = capital_id(state, seat)
    if enemy_creature_in_capital(state, seat) and sector != cap:
        raise RuleViolation("KOZ-23", N_("an opposing creature stands in your capital: "
                                     "creatures may be played only into your capital"))
    if sector == cap and not garrison_room(state, cat, seat, 1):
        limit = cat.capitals[face(cap)]["garrison"]
        raise RuleViolation("KOZ-16a", N_("your capital's garrison is full ({limit} of "
                                      "{limit} creatures)", limit=limit))
    raise RuleViolation("KOZ-17", N_("a creature cannot be played into a sector with "
                                 "opposing cards or into the opponent's capital"))


def _check_artifact(state: KozyabloState, cat: Catalogue, seat: int, f: Face, action: ActionObject,
                    extra: set[str]) -> None:
    """KOZ-21/KOZ-23/KOZ-41: an artifact goes onto a hero of the player (``target``)."""
    if extra != {"target"}:
        raise RuleViolation("KOZ-21", N_("an artifact is played with `target` (a hero) only"))
    if action["target"] in _heroes_for(state, cat, seat, f):
        return
    tgt = state["units"].get(action["target"])
    if tgt is not None and tgt["shadow"] and tgt["owner"] == seat:
        raise RuleViolation("KOZ-41", N_("a creature in the shadow cannot be the target of a "
                                     "card: bring the hero out of the shadow first"))
    if enemy_creature_in_capital(state, seat):
        raise RuleViolation("KOZ-23", N_("an opposing creature stands in your capital: "
                                     "artifacts only onto a hero in your capital"))
    raise RuleViolation("KOZ-21", N_("this artifact may be carried only by {heroes} of yours "
                                 "on the table", heroes=joined(f.data["heroes"])))


def _check_building(state: KozyabloState, cat: Catalogue, seat: int, f: Face, action: ActionObject,
                    extra: set[str]) -> None:
    if extra:
        raise RuleViolation("KOZ-22", N_("a building takes no target: it enters your capital"))


def _check_effect_card(state: KozyabloState, cat: Catalogue, seat: int, f: Face, action: ActionObject,
                       extra: set[str]) -> None:
    """KOZ-18/KOZ-19: a magic or event card with a choice its effect allows
    (KOZ-38 Magic protection, KOZ-41 shadow, KOZ-43 Undead named when they refuse it)."""
    choice = {k: action[k] for k in CHOICE_KEYS if k in action}
    if extra - set(CHOICE_KEYS):
        raise RuleViolation("KOZ-18", N_("unknown fields for a magic or event card"))
    effect, magic = f.data["effect"], f.type == "magic"
    if choice in effects.choices(state, cat, seat, effect, from_magic=magic):
        return
    if "condition" in effect and not choice:
        raise RuleViolation("KOZ-47", N_(
            "this card wins only when its condition holds; not met: {unmet}",
            unmet=joined(wins.unmet(state, cat, seat, effect["condition"]))))
    tgt = state["units"].get(choice.get("target", ""))
    if tgt is not None and tgt["shadow"]:
        raise RuleViolation("KOZ-41", N_("a creature in the shadow cannot be chosen"))
    if tgt is not None:
        ab = unit_stats(state, cat, choice["target"]).abilities
        if magic_shielded(ab, magic, bool(effect.get("pierces_magic_protection"))):
            raise RuleViolation("KOZ-38", N_("that creature has Magic protection: no magic "
                                         "card but Word of Letaro affects it"))
        if undead_spared(ab, bool(effect.get("undead_immune"))):
            raise RuleViolation("KOZ-43", N_("that creature is Undead, and Undead are immune "
                                         "to this card"))
    raise RuleViolation(CARD_TYPES[f.type].rule,
                    N_("not a legal target for this card: its effect reaches {target}",
                       target=effect['target']))


def _sectors_to_enter(state: KozyabloState, cat: Catalogue, seat: int, f: Face) -> list[JsonObject]:
    return [{"sector": s} for s in creature_sectors(state, cat, seat)]


def _heroes_to_carry(state: KozyabloState, cat: Catalogue, seat: int, f: Face) -> list[JsonObject]:
    return [{"target": h} for h in _heroes_for(state, cat, seat, f)]


def _no_choice(state: KozyabloState, cat: Catalogue, seat: int, f: Face) -> list[JsonObject]:
    return [{}]


def _effect_choices(state: KozyabloState, cat: Catalogue, seat: int, f: Face) -> list[JsonObject]:
    return effects.choices(state, cat, seat, f.data["effect"], from_magic=f.type == "magic")


def _enter(draft: Draft[KozyabloState], cat: Catalogue, seat: int, card: str, f: Face, action: ActionObject,
           events: list[Event]) -> bool:
    draft.at("units")[card] = {"owner": seat, "sector": action["sector"], "damage": 0,
                               "shadow": False, "artifacts": []}
    return True


def _attach(draft: Draft[KozyabloState], cat: Catalogue, seat: int, card: str, f: Face, action: ActionObject,
            events: list[Event]) -> bool:
    draft.at("units", action["target"], "artifacts").append(card)
    return True


def _build(draft: Draft[KozyabloState], cat: Catalogue, seat: int, card: str, f: Face, action: ActionObject,
           events: list[Event]) -> bool:
    draft.at("buildings")[card] = {"owner": seat, "sector": capital_id(draft.root, seat),
                                   "damage": 0}
    return True


def _cast(draft: Draft[KozyabloState], cat: Catalogue, seat: int, card: str, f: Face, action: ActionObject,
          events: list[Event]) -> bool:
    choice = {k: action[k] for k in CHOICE_KEYS if k in action}
    if f.data["kind"] == "instant":  # discarded at once: its damage may wait (KOZ-45)
        draft.at("players", seat, "discard").append(card)
    return effects.apply(draft, cat, seat, f.data["effect"], choice, events,
                         from_magic=f.type == "magic", card=card)


@dataclass(frozen=True)
class CardType:
    """How a card type is played (KOZ-17 … KOZ-22): the production it needs
    (``resource``, its ``rule``), the ``choices`` a play of it carries, what
    else may refuse one (``enforce``), and what playing it does (``put``: False
    when its damage waits for a Defender).  ``same_choices``: its ``choices`` read
    the table only, never the card (a listing asks them once for all its cards)."""

    resource: str
    rule: str
    choices: Callable[[KozyabloState, Catalogue, int, Face], list[JsonObject]]
    enforce: Callable[[KozyabloState, Catalogue, int, Face, JsonObject, set[str]], None]
    put: Callable[[Draft[KozyabloState], Catalogue, int, str, Face, JsonObject, list[Event]], bool]
    same_choices: bool = False


#: every card type a deck holds (``card_schema`` reads its names here)
CARD_TYPES: dict[str, CardType] = {
    "creature": CardType("gold", "KOZ-17", _sectors_to_enter, _check_creature, _enter,
                         same_choices=True),
    "hero": CardType("crystals", "KOZ-20", _sectors_to_enter, _check_creature, _enter,
                     same_choices=True),
    "magic": CardType("mana", "KOZ-18", _effect_choices, _check_effect_card, _cast),
    "event": CardType("crystals", "KOZ-19", _effect_choices, _check_effect_card, _cast),
    "artifact": CardType("gold", "KOZ-21", _heroes_to_carry, _check_artifact, _attach),
    "building": CardType("crystals", "KOZ-22", _no_choice, _check_building, _build,
                         same_choices=True),
}


# ------------------------------------------------------------ the play
def options(state: KozyabloState, cat: Catalogue, seat: int) -> list[JsonObject]:
    """Every legal play (one instance per card face: copies are interchangeable)."""
    out: list[JsonObject] = []
    prod = production(state, cat, seat)
    seen = set()
    shared: dict[object, list[JsonObject]] = {}  # by chooser, for ``same_choices`` types
    for card in state["players"][seat]["hand"]:
        fid = face(card)
        if fid in seen:
            continue
        seen.add(fid)
        f = cat.faces[fid]
        if shortfall(state, cat, seat, f, prod) is not None:
            continue
        kind = CARD_TYPES[f.type]
        choices = shared.get(kind.choices) if kind.same_choices else None
        if choices is None:
            choices = kind.choices(state, cat, seat, f)
            if kind.same_choices:
                shared[kind.choices] = choices
        out += [{"type": "play_card", "player": seat, "card": card, **c} for c in choices]
    return out


def enforce(state: KozyabloState, cat: Catalogue, action: ActionObject) -> None:
    """Raise a ``RuleViolation`` naming the clause unless the play is legal."""
    seat, card = action["player"], action["card"]
    if card not in state["players"][seat]["hand"]:
        raise RuleViolation("KOZ-15", N_("{card!r} is not in your hand", card=card))
    f = cat.faces[face(card)]
    why = affordable(state, cat, seat, f)
    if why:
        raise RuleViolation(why.params["rule"], why.params["why"])
    extra = set(action) - {"type", "player", "card"}
    CARD_TYPES[f.type].enforce(state, cat, seat, f, action, extra)


def play(draft: Draft[KozyabloState], cat: Catalogue, action: ActionObject, events: list[Event]) -> bool:
    """Put the card into play (checked); False when its damage waits for a Defender."""
    seat, card = action["player"], action["card"]
    f = cat.faces[face(card)]
    draft.at("players", seat, "hand").remove(card)
    events.append({"type": "card_played", "player": seat, "card": card,
                   **{k: action[k] for k in CHOICE_KEYS if k in action}})
    return CARD_TYPES[f.type].put(draft, cat, seat, card, f, action, events)
