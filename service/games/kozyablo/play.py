"""Playing a card from hand (KOZ-17 … KOZ-23), production gating every type.

``{"type": "play_card", "player", "card", "sector"?, "target"?}``:

* creature / hero — ``sector`` it enters;
* artifact — ``target``: the hero that carries it;
* building — nothing (it goes into the player's capital);
* magic / event — what its effect needs (``target`` or ``sector``; see
  ``effects.choices``).
"""

from __future__ import annotations

from service.games.errors import RuleViolation as violation
from service.games.kozyablo import effects
from service.games.kozyablo.cards import Catalogue, face
from service.games.kozyablo.sectors import (
    capital_id,
    controlled_sectors,
    enemy_creature_in_capital,
    garrison_room,
    has_opposing_cards,
    production,
)
from service.games.kozyablo.stats import unit_stats
from service.games.messages import N_, joined

#: KOZ-17 … KOZ-22: which production a card type needs, and its clause
NEEDS = {"creature": ("gold", "KOZ-17"), "hero": ("crystals", "KOZ-20"),
         "magic": ("mana", "KOZ-18"), "event": ("crystals", "KOZ-19"),
         "artifact": ("gold", "KOZ-21"), "building": ("crystals", "KOZ-22")}
HERO_CRYSTALS = 3


def level_needed(f) -> int:
    """The production a card needs: its level; a hero needs crystals 3 whatever
    its printed level ("добыча кристаллов должна быть 3 или больше", KOZ-20).

    >>> from types import SimpleNamespace as N
    >>> level_needed(N(type="hero", level=5)), level_needed(N(type="creature", level=2))
    (3, 2)
    """
    return HERO_CRYSTALS if f.type == "hero" else f.level


def affordable(state: dict, cat: Catalogue, seat: int, f, prod: dict | None = None) -> str | None:
    """Why ``seat`` cannot pay for ``f`` now (None: they can)."""
    if f.type == "hero" and f.id in state["players"][seat]["dead_heroes"]:
        return N_("{rule}: {why}", rule="KOZ-20",
                  why=N_("this hero was destroyed and can never be played again"))
    prod = prod or production(state, cat, seat)
    resource, rule = NEEDS[f.type]
    need = level_needed(f)
    if prod[resource] < need:
        if f.type == "hero":
            why = N_("a hero needs {resource} production {need}; you have {have}",
                     resource=resource, need=need, have=prod[resource])
        else:
            why = N_("a level-{level} {type} needs {resource} production {need}; you have {have}",
                     level=f.level, type=f.type, resource=resource, need=need, have=prod[resource])
        return N_("{rule}: {why}", rule=rule, why=why)
    req = f.data.get("requires")
    if req and controlled_sectors(state, seat) < req.get("controlled_sectors", 0):
        return N_("{rule}: {why}", rule=rule, why=N_(
            "this card needs {needed} controlled sector(s); you control {have}",
            needed=req["controlled_sectors"], have=controlled_sectors(state, seat)))
    if f.type == "building":
        cap = capital_id(state, seat)
        limit = cat.capitals[face(cap)]["buildings"]
        have = sum(1 for d in state["buildings"].values() if d["owner"] == seat)
        if have >= limit:
            return N_("{rule}: {why}", rule="KOZ-22", why=N_(
                "your capital allows {limit} building(s); you have {have}", limit=limit, have=have))
    return None


def creature_sectors(state: dict, cat: Catalogue, seat: int) -> list[str]:
    """KOZ-17/KOZ-23/KOZ-16a: sectors a creature of ``seat`` may be played into."""
    cap = capital_id(state, seat)
    own_ok = garrison_room(state, cat, seat, 1)
    if enemy_creature_in_capital(state, seat):
        return [cap] if own_ok else []
    out = []
    for sid, sec in state["sectors"].items():
        if sid == cap:
            if own_ok and not has_opposing_cards(state, sid, seat):
                out.append(sid)
        elif not has_opposing_cards(state, sid, seat):
            out.append(sid)
    return sorted(out)


def _heroes_for(state: dict, cat: Catalogue, seat: int, f) -> list[str]:
    """KOZ-21 heroes of ``seat`` that may carry artifact ``f`` (KOZ-23: only in
    the capital while an enemy creature stands there; KOZ-41: a hero in the
    shadow cannot be a card's target)."""
    allowed = f.data["heroes"]
    only_capital = enemy_creature_in_capital(state, seat)
    cap = capital_id(state, seat)
    return sorted(u for u, d in state["units"].items()
                  if d["owner"] == seat and face(u) in allowed and not d["shadow"]
                  and (not only_capital or d["sector"] == cap))


def options(state: dict, cat: Catalogue, seat: int) -> list[dict]:
    """Every legal play (one instance per card face: copies are interchangeable)."""
    out = []
    prod = production(state, cat, seat)
    seen = set()
    for card in state["players"][seat]["hand"]:
        fid = face(card)
        if fid in seen:
            continue
        seen.add(fid)
        f = cat.faces[fid]
        if affordable(state, cat, seat, f, prod):
            continue
        base = {"type": "play_card", "player": seat, "card": card}
        if f.type in ("creature", "hero"):
            out.extend({**base, "sector": s} for s in creature_sectors(state, cat, seat))
        elif f.type == "artifact":
            out.extend({**base, "target": h} for h in _heroes_for(state, cat, seat, f))
        elif f.type == "building":
            out.append(base)
        else:
            out.extend({**base, **c} for c in effects.choices(
                state, cat, seat, f.data["effect"], from_magic=f.type == "magic"))
    return out


def check(state: dict, cat: Catalogue, action: dict) -> None:
    """Raise a ``RuleViolation`` naming the clause unless the play is legal."""
    seat, card = action["player"], action["card"]
    if card not in state["players"][seat]["hand"]:
        raise violation("KOZ-15", N_("{card!r} is not in your hand", card=card))
    f = cat.faces[face(card)]
    why = affordable(state, cat, seat, f)
    if why:
        raise violation(why.params["rule"], why.params["why"])
    extra = set(action) - {"type", "player", "card"}
    if f.type in ("creature", "hero"):
        if extra != {"sector"}:
            raise violation("KOZ-17", N_("a creature is played with `sector` only"))
        sector = action["sector"]
        if sector not in state["sectors"]:
            raise violation("KOZ-17", N_("no sector {sector!r} on the table", sector=sector))
        if sector not in creature_sectors(state, cat, seat):
            cap = capital_id(state, seat)
            if enemy_creature_in_capital(state, seat) and sector != cap:
                raise violation("KOZ-23", N_("an opposing creature stands in your capital: "
                                             "creatures may be played only into your capital"))
            if sector == cap and not garrison_room(state, cat, seat, 1):
                limit = cat.capitals[face(cap)]["garrison"]
                raise violation("KOZ-16a", N_("your capital's garrison is full ({limit} of "
                                              "{limit} creatures)", limit=limit))
            raise violation("KOZ-17", N_("a creature cannot be played into a sector with "
                                         "opposing cards or into the opponent's capital"))
    elif f.type == "artifact":
        if extra != {"target"}:
            raise violation("KOZ-21", N_("an artifact is played with `target` (a hero) only"))
        if action["target"] not in _heroes_for(state, cat, seat, f):
            tgt = state["units"].get(action["target"])
            if tgt is not None and tgt["shadow"] and tgt["owner"] == seat:
                raise violation("KOZ-41", N_("a creature in the shadow cannot be the target of a "
                                             "card: bring the hero out of the shadow first"))
            if enemy_creature_in_capital(state, seat):
                raise violation("KOZ-23", N_("an opposing creature stands in your capital: "
                                             "artifacts only onto a hero in your capital"))
            raise violation("KOZ-21", N_("this artifact may be carried only by {heroes} of yours "
                                         "on the table", heroes=joined(f.data["heroes"])))
    elif f.type == "building":
        if extra:
            raise violation("KOZ-22", N_("a building takes no target: it enters your capital"))
    else:
        choice = {k: action[k] for k in ("target", "sector", "squad") if k in action}
        if extra - {"target", "sector", "squad"}:
            raise violation("KOZ-18", N_("unknown fields for a magic or event card"))
        legal = effects.choices(state, cat, seat, f.data["effect"], from_magic=f.type == "magic")
        if choice not in legal:
            tgt = state["units"].get(choice.get("target", ""))
            if tgt is not None and tgt["shadow"]:
                raise violation("KOZ-41", N_("a creature in the shadow cannot be chosen"))
            effect = f.data["effect"]
            if tgt is not None:
                ab = unit_stats(state, cat, choice["target"]).abilities
                if f.type == "magic" and "magic_protection" in ab \
                        and not effect.get("pierces_magic_protection"):
                    raise violation("KOZ-38", N_("that creature has Magic protection: no magic "
                                                 "card but Word of Letaro affects it"))
                if effect.get("undead_immune") and "undead" in ab:
                    raise violation("KOZ-43", N_("that creature is Undead, and Undead are immune "
                                                 "to this card"))
            raise violation("KOZ-19" if f.type == "event" else "KOZ-18",
                            N_("not a legal target for this card: its effect reaches {target}",
                               target=effect['target']))


def play(draft, cat: Catalogue, action: dict, events: list[dict]) -> bool:
    """Put the card into play (checked); False when its damage waits for a Defender."""
    root = draft.root
    seat, card = action["player"], action["card"]
    f = cat.faces[face(card)]
    draft.at("players", seat, "hand").remove(card)
    events.append({"type": "card_played", "player": seat, "card": card,
                   **{k: action[k] for k in ("sector", "target", "squad") if k in action}})
    if f.type in ("creature", "hero"):
        draft.at("units")[card] = {"owner": seat, "sector": action["sector"], "damage": 0,
                                   "shadow": False, "artifacts": []}
    elif f.type == "artifact":
        draft.at("units", action["target"], "artifacts").append(card)
    elif f.type == "building":
        draft.at("buildings")[card] = {"owner": seat, "sector": capital_id(root, seat),
                                       "damage": 0}
    else:
        choice = {k: action[k] for k in ("target", "sector", "squad") if k in action}
        if f.data["kind"] == "instant":  # discarded at once: its damage may wait (KOZ-45)
            draft.at("players", seat, "discard").append(card)
        return effects.apply(draft, cat, seat, f.data["effect"], choice, events,
                             from_magic=f.type == "magic", card=card)
    return True
