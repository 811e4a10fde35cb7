"""Combat as a sequence of decisions (KOZ-24 … KOZ-29, KOZ-45, KOZ-46, KOZ-16a retreat).

``state["combat"]`` while a fight is on::

    {"sector", "attacker", "kind": "attack" | "retreat",
     "waiting": [ids yet to strike], "current": id | None, "strikes_left": n,
     "turn": [ids whose turn to strike it is] | None,  # while that decision waits
     "hits": [{"target", "stage": "evade" | "defend"}], "area": bool,
     "movers": [...], "to": sector}            # retreat attack only

Order (KOZ-25): the fastest waiting striker strikes next; at equal speed the
attacking player's first, then the others in turn order after the attacker
(RULING KOZ-52; in a retreat attack, in turn order after the leaving player);
several of one player at that speed: that player chooses (RULING).  Every
creature and building there takes part, of every player (RULING KOZ-52): a
striker picks among the cards of all other players in the combat.  The
controller picks the target(s) (KOZ-26) among the legal ones.  When a creature
with Evasion is targeted by a non-Area strike,
its controller may discard a card to make the striker miss (KOZ-46).  When a
creature is hit, an allied Defender in the sector may take the whole strike
onto itself; the strike is then resolved against the Defender (KOZ-45).  When
a capital is struck, every garrison creature is a Defender (KOZ-49).

Participants: every creature of every player in the sector, and buildings
there with an attack above 0 (they strike like creatures, as the retreat
attack of KOZ-16a describes); in a retreat attack, the leaving player's
opponents' creatures and buildings there.

RULING KOZ-25a: a strike is a right, not a duty.  When a striker's turn comes
its controller ``strike``s or ``hold``s (each of Two attacks separately: a
held first strike leaves the second to strike or hold, KOZ-32; in a
retreat attack too); a held strike is public (``strike_held``).

RULING KOZ-41a: declaring an attack brings no creature out of the shadow.  A
hidden creature waits its turn by its speed like any other; then its
controller strikes with it (it leaves the shadow just before the strike) or
holds (``stayed_hidden``: it stays hidden and is no part of the combat).  A
hidden creature is never a strike's target (KOZ-41).

RULING KOZ-45a: a Defender takes a strike in its ally's (or its capital's)
place and the damage is worked out against the Defender; the striker's
targeting limits (Flying, KOZ-36a, the shadow) do not stop it, since it is
not the strike's target.  A Defender in the shadow that takes a strike acts,
so it leaves the shadow first (KOZ-41).
"""

from __future__ import annotations

from service.games.draft import Draft
from service.games.errors import RuleViolation
from service.games.kozyablo.cards import Catalogue, face, seat_of
from service.games.kozyablo.damage import (
    can_strike,
    flyer_reached,
    life_left,
    strike_damage,
    striker_stats,
    weapon_protection_pierced,
    wound,
)
from service.games.kozyablo.damage import heal as heal_unit
from service.games.kozyablo.effects import reveal
from service.games.kozyablo.sectors import is_capital, seats_after
from service.games.kozyablo.state import fight
from service.games.kozyablo.state_types import KozyabloState
from service.games.kozyablo.stats import unit_stats
from service.games.messages import N_, joined
from service.games.objects import ActionObject, Event, JsonObject


def _present(state: KozyabloState, cid: str, sector: str) -> bool:
    d = state["units"].get(cid) or state["buildings"].get(cid)
    return d is not None and d["sector"] == sector


def owner_of(state: KozyabloState, cid: str) -> int:
    d = state["units"].get(cid) or state["buildings"].get(cid)
    if d is not None:
        return d["owner"]
    return seat_of(cid)  # a capital


def start(draft: Draft[KozyabloState], cat: Catalogue, seat: int, sector: str, events: list[Event]) -> None:
    """KOZ-24: ``seat`` declared an attack in ``sector``; no creature leaves the
    shadow for it (RULING KOZ-41a)."""
    root = draft.root
    fighters = [u for u, d in root["units"].items() if d["sector"] == sector]
    fighters += [b for b, d in root["buildings"].items()
                 if d["sector"] == sector and cat.faces[face(b)].attack > 0]
    root["combat"] = {"sector": sector, "attacker": seat, "kind": "attack",
                      "waiting": sorted(fighters), "current": None, "strikes_left": 0,
                      "hits": [], "area": False}
    root["phase"] = "combat"
    events.append({"type": "combat_started", "sector": sector, "attacker": seat,
                   "fighters": sorted(fighters)})


def start_retreat(draft: Draft[KozyabloState], cat: Catalogue, seat: int, sector: str, to: str, movers: list[str],
                  events: list[Event]) -> bool:
    """KOZ-16a retreat attack; False when the enemy there has nothing to strike with.
    Nobody declares it, so Two attacks strikes once in it (RULING KOZ-32a)."""
    root = draft.root
    strikers = [u for u, d in root["units"].items()  # the hidden too (RULING KOZ-41a)
                if d["sector"] == sector and d["owner"] != seat
                and unit_stats(root, cat, u).attack > 0]
    strikers += [b for b, d in root["buildings"].items()
                 if d["sector"] == sector and d["owner"] != seat
                 and cat.faces[face(b)].attack > 0]
    if not strikers:
        return False
    root["combat"] = {"sector": sector, "attacker": seat, "kind": "retreat",
                      "waiting": sorted(strikers), "current": None, "strikes_left": 0,
                      "hits": [], "area": False, "movers": list(movers), "to": to}
    root["phase"] = "combat"
    events.append({"type": "retreat_attack", "sector": sector, "strikers": sorted(strikers),
                   "movers": list(movers), "rule": "KOZ-16a"})
    return True


def legal_targets(state: KozyabloState, cat: Catalogue, striker: str) -> list[str]:
    """KOZ-26: whom ``striker`` may strike (KOZ-30 flying, KOZ-41 shadow)."""
    c = fight(state)
    sector = c["sector"]
    me = owner_of(state, striker)
    abilities = striker_stats(state, cat, striker).abilities
    if c["kind"] == "retreat":
        pool = [m for m in c["movers"] if _present(state, m, sector)]
    else:
        pool = [u for u, d in state["units"].items() if d["sector"] == sector and d["owner"] != me]
        pool += [b for b, d in state["buildings"].items()
                 if d["sector"] == sector and d["owner"] != me]
        if state["sectors"][sector]["owner"] != me and is_capital(state, sector):
            pool.append(sector)  # RULING KOZ-53a: a fallen capital is struck no more
    return sorted(t for t in pool if can_strike(state, cat, abilities, t))


def strike_options(state: KozyabloState, cat: Catalogue, striker: str) -> list[list[str]]:
    """KOZ-26/KOZ-31: the target lists ``striker`` may choose now.

    One legal target each; with Area, two different opposing *creatures* at
    once ("одновременно двум существам оппонента") — one when only one can be
    struck — and a building or the capital, which are not creatures, alone.
    """
    targets = legal_targets(state, cat, striker)
    creatures = [t for t in targets if t in state["units"]]
    if "area" not in striker_stats(state, cat, striker).abilities or len(creatures) < 2:
        return [[t] for t in targets]
    return [[a, b] for i, a in enumerate(creatures) for b in creatures[i + 1:]] + [
        [t] for t in targets if t not in state["units"]]


def check_strike(state: KozyabloState, cat: Catalogue, action: ActionObject) -> None:
    """Raise ``RuleViolation`` unless ``action`` is a legal strike now (KOZ-25, KOZ-26,
    KOZ-30, KOZ-31, KOZ-36a, KOZ-41)."""
    seat, group = candidates(state, cat)
    unit, targets = action["unit"], action["targets"]
    if unit not in group:
        raise RuleViolation("KOZ-25", N_("{unit!r} does not strike now; next: {items}",
                                         unit=unit, items=joined(group)))
    legal = legal_targets(state, cat, unit)
    for t in targets:
        if t not in legal:
            _why_not_target(state, cat, seat, unit, t)
            raise RuleViolation("KOZ-26", N_("{t!r} is not a legal target; legal: {items}",
                                             t=t, items=joined(legal)))
    if sorted(targets) not in [sorted(o) for o in strike_options(state, cat, unit)]:
        if "area" in striker_stats(state, cat, unit).abilities:
            raise RuleViolation("KOZ-31", N_("an Area strike hits two different creatures at "
                                             "once (one if only one can be struck); a "
                                             "building or the capital is struck alone"))
        raise RuleViolation("KOZ-26", N_("a strike has exactly one target"))


def check_hold(state: KozyabloState, cat: Catalogue, action: ActionObject) -> None:
    """Raise ``RuleViolation`` unless ``action["unit"]`` may hold its strike now
    (RULING KOZ-25a: any striker whose turn it is; RULING KOZ-41a: a hidden one
    stays hidden)."""
    _, group = candidates(state, cat)
    unit = action["unit"]
    if unit not in group:
        raise RuleViolation("KOZ-25a", N_("{unit!r} does not strike now, so it has no strike to "
                                          "hold; next: {items}", unit=unit, items=joined(group)))


def _why_not_target(state: KozyabloState, cat: Catalogue, seat: int | None, unit: str,
                    t: str) -> None:
    """Raise the clause that keeps ``unit`` from striking ``t``, when it is a
    creature's own (KOZ-41 shadow, KOZ-30 Flying, KOZ-36a Weapon protection)."""
    tgt = state["units"].get(t)
    if tgt is None:
        return
    if tgt["shadow"]:
        raise RuleViolation("KOZ-41", N_("a creature in the shadow cannot be struck"))
    if t in (fight(state).get("movers") or [t]) \
            and tgt["owner"] != seat and tgt["sector"] == fight(state)["sector"]:
        mine = striker_stats(state, cat, unit).abilities
        theirs = unit_stats(state, cat, t).abilities
        if not flyer_reached(mine, theirs):
            raise RuleViolation("KOZ-30", N_("{t!r} flies: only flyers, archers and "
                                             "Magic attack can strike it", t=t))
        if not weapon_protection_pierced(mine, theirs):
            raise RuleViolation("KOZ-36a", N_("{t!r} has Weapon protection: only "
                                              "Magic weapon and Magic attack can "
                                              "strike it", t=t))


def candidates(state: KozyabloState, cat: Catalogue) -> tuple[int | None, list[str]]:
    """Who strikes next: ``(seat, [striker ids])`` — several: that seat chooses (KOZ-25).

    Once a strike decision waits, ``combat.turn`` names whose turn it is, so the
    state says it without the speeds of creatures in the shadow (RULING KOZ-41a:
    they wait their turn by speed, which their opponents cannot see).
    """
    c = fight(state)
    if c["current"] is not None:
        return owner_of(state, c["current"]), [c["current"]]
    turn = c.get("turn")
    if turn:
        return owner_of(state, turn[0]), list(turn)
    return _next_group(state, cat)


def _next_group(state: KozyabloState, cat: Catalogue) -> tuple[int | None, list[str]]:
    """The fastest waiting strikers of one seat (KOZ-25, RULING KOZ-52)."""
    c = fight(state)
    sector = c["sector"]
    alive = [w for w in c["waiting"] if _present(state, w, sector)]
    if not alive:
        return None, []
    speeds = {w: striker_stats(state, cat, w).speed for w in alive}
    top = max(speeds.values())
    group = [w for w in alive if speeds[w] == top]
    if c["kind"] == "attack":  # the declarer first, then the others in turn order after
        first = [c["attacker"], *seats_after(state, c["attacker"])]
    else:  # a retreat: the others in turn order after the one leaving (RULING KOZ-52)
        first = seats_after(state, c["attacker"])
    owners = {owner_of(state, w) for w in group}
    seat = next((s for s in first if s in owners), owner_of(state, group[0]))
    group = [w for w in group if owner_of(state, w) == seat]
    return seat, group


def reaction(state: KozyabloState, cat: Catalogue) -> JsonObject | None:
    """The reaction offered now: ``{"kind", "player", "target", "options"}`` or None."""
    c = fight(state)
    if not c["hits"]:
        return None
    hit = c["hits"][0]
    target = hit["target"]
    who = owner_of(state, target)
    if hit["stage"] == "evade":
        return {"kind": "evade", "player": who, "target": target,
                "options": sorted(state["players"][who]["hand"])}
    return {"kind": "defend", "player": who, "target": target,
            "options": defenders(state, cat, target)}


def defenders(state: KozyabloState, cat: Catalogue, target: str) -> list[str]:
    """KOZ-45/KOZ-49: allies that may take the strike meant for ``target``.

    A Defender takes damage dealt to allied *creatures* (KOZ-45), so a struck
    building has none; a struck capital has its whole garrison (KOZ-49).
    RULING KOZ-45a: the striker's targeting limits (Flying, KOZ-36a, the
    shadow) do not stop a Defender, so one in the shadow is offered too.
    """
    c = fight(state)
    sector = c["sector"]
    who = owner_of(state, target)
    capital = target == sector and state["sectors"][sector]["kind"] == "capital"
    if not capital and target not in state["units"]:
        return []
    out = []
    for u, d in state["units"].items():
        if d["sector"] == sector and d["owner"] == who and u != target \
                and (capital or "defender" in unit_stats(state, cat, u).abilities):
            out.append(u)
    return sorted(out)


def _needs_evade_offer(state: KozyabloState, cat: Catalogue, target: str) -> bool:
    c = fight(state)
    return (not c["area"] and target in state["units"]
            and "evasion" in unit_stats(state, cat, target).abilities
            and bool(state["players"][owner_of(state, target)]["hand"]))


def step(draft: Draft[KozyabloState], cat: Catalogue, events: list[Event]) -> bool:
    """Run the combat on until someone must decide; True when it is over."""
    root = draft.root
    while root["result"] is None:
        c = fight(root)
        sector = c["sector"]
        if c["hits"]:
            hit = c["hits"][0]
            target = hit["target"]
            alive = target == sector or _present(root, target, sector)
            striker = c["current"]
            if not alive or striker is None or not _present(root, striker, sector):
                draft.at("combat", "hits").pop(0)
                continue
            if hit["stage"] == "evade":
                if _needs_evade_offer(root, cat, target):
                    return False
                draft.at("combat", "hits", 0)["stage"] = "defend"
            if defenders(root, cat, target):
                return False
            draft.at("combat", "hits").pop(0)
            resolve_hit(draft, cat, striker, target, events)
            continue
        if c["current"] is not None:
            cur = c["current"]
            if c["strikes_left"] > 0 and _present(root, cur, sector) \
                    and legal_targets(root, cat, cur):
                return False
            draft.at("combat")["current"] = None
            continue
        seat, group = _next_group(root, cat)
        if not group:
            finish(draft, cat, events)
            return True
        idle = [g for g in group if not legal_targets(root, cat, g)]
        if len(idle) < len(group):
            if idle:
                _skip(draft, idle, events)
            draft.at("combat")["turn"] = [g for g in group if g not in idle]
            return False
        _skip(draft, idle, events)
    return True


def _skip(draft: Draft[KozyabloState], idle: list[str], events: list[Event]) -> None:
    waiting = draft.at("combat", "waiting")
    for g in idle:
        waiting.remove(g)
        events.append({"type": "no_target", "unit": g})


def strike(draft: Draft[KozyabloState], cat: Catalogue, unit: str, targets: list[str], events: list[Event]) -> None:
    """KOZ-25/26/31/32: ``unit`` strikes ``targets`` (two for Area)."""
    root = draft.root
    if unit in root["units"] and root["units"][unit]["shadow"]:  # RULING KOZ-41a
        reveal(draft, [unit], events, "KOZ-41a")
    c = draft.at("combat")
    c["turn"] = None
    if c["current"] is None:
        c["waiting"] = [w for w in c["waiting"] if w != unit]
        c["current"] = unit
        c["strikes_left"] = 1 if _strikes_twice(root, cat, unit) else 0
    else:
        c["strikes_left"] -= 1
    c["area"] = len(targets) > 1 or "area" in striker_stats(root, cat, unit).abilities
    c["hits"] = [{"target": t, "stage": "evade"} for t in targets]
    events.append({"type": "strike", "unit": unit, "targets": list(targets)})


def hold(draft: Draft[KozyabloState], cat: Catalogue, unit: str, events: list[Event]) -> None:
    """RULING KOZ-25a: ``unit`` holds one strike; the held strike is public.  Each of Two
    attacks is a right of its own (KOZ-32): holding the first leaves the second
    to strike or hold, as striking it would.  RULING KOZ-41a: a creature in the shadow
    that holds stays hidden and is no part of the combat, so it has no second strike."""
    root = draft.root
    hidden = unit in root["units"] and root["units"][unit]["shadow"]
    c = draft.at("combat")
    c["turn"] = None
    if c["current"] is None:
        c["waiting"] = [w for w in c["waiting"] if w != unit]
        left = 1 if _strikes_twice(root, cat, unit) and not hidden else 0
    else:
        left = c["strikes_left"] - 1
    c["current"] = unit if left > 0 else None
    c["strikes_left"] = max(0, left)
    events.append({"type": "stayed_hidden", "unit": unit, "rule": "KOZ-41a"} if hidden else
                  {"type": "strike_held", "unit": unit, "rule": "KOZ-25a"})


def _strikes_twice(state: KozyabloState, cat: Catalogue, unit: str) -> bool:
    """KOZ-32 Two attacks: twice only when its controller declared the combat (so never in
    a retreat attack, which nobody declared)."""
    c = fight(state)
    return (c["kind"] == "attack" and owner_of(state, unit) == c["attacker"]
            and "two_attacks" in striker_stats(state, cat, unit).abilities)


def striker(state: KozyabloState) -> str:
    """The creature or building whose strike is being resolved."""
    current = fight(state)["current"]
    assert current is not None, "a strike is being resolved"
    return current


def resolve_hit(draft: Draft[KozyabloState], cat: Catalogue, striker: str, target: str,
                events: list[Event]) -> None:
    """Damage ``target``; KOZ-44 Vampirism heals the striker."""
    root = draft.root
    dmg = strike_damage(root, cat, striker, target)
    before = life_left(root, cat, target)
    vampire = (striker in root["units"] and target in root["units"]
               and "vampirism" in unit_stats(root, cat, striker).abilities
               and "undead" not in unit_stats(root, cat, target).abilities)
    dealt = wound(draft, cat, target, dmg, events, source=striker)
    if vampire and dealt and striker in draft.root["units"]:
        healed = heal_unit(draft, cat, striker, min(dealt, before), events)
        if healed:
            events.append({"type": "vampirism", "unit": striker, "amount": healed,
                           "rule": "KOZ-44"})


def evade(draft: Draft[KozyabloState], cat: Catalogue, card: str, events: list[Event]) -> None:
    """KOZ-46: discard ``card``; the strike misses its target."""
    root = draft.root
    hit = fight(root)["hits"][0]
    who = owner_of(root, hit["target"])
    draft.at("players", who, "hand").remove(card)
    draft.at("players", who, "discard").append(card)
    draft.at("combat", "hits").pop(0)
    events.append({"type": "evaded", "unit": hit["target"], "discarded": card,
                   "rule": "KOZ-46"})


def defend(draft: Draft[KozyabloState], cat: Catalogue, defender: str, events: list[Event]) -> None:
    """KOZ-45: ``defender`` takes the whole strike instead."""
    root = draft.root
    if root["units"][defender]["shadow"]:  # it acts: it leaves the shadow (KOZ-41, KOZ-45a)
        reveal(draft, [defender], events, "KOZ-45a")
    hit = draft.at("combat", "hits").pop(0)
    events.append({"type": "defended", "unit": defender, "instead_of": hit["target"],
                   "rule": "KOZ-45"})
    resolve_hit(draft, cat, striker(root), defender, events)


def decline(draft: Draft[KozyabloState], cat: Catalogue, events: list[Event]) -> None:
    """No reaction: from the Evasion offer on to Defender, or take the hit."""
    root = draft.root
    hit = fight(root)["hits"][0]
    if hit["stage"] == "evade":
        draft.at("combat", "hits", 0)["stage"] = "defend"
        return
    draft.at("combat", "hits").pop(0)
    resolve_hit(draft, cat, striker(root), hit["target"], events)


def finish(draft: Draft[KozyabloState], cat: Catalogue, events: list[Event]) -> None:
    """The combat is over; a retreat's surviving movers arrive (KOZ-16a)."""
    root = draft.root
    c = fight(root)
    root["combat"] = None
    if c["kind"] == "retreat":
        movers = [m for m in c["movers"] if m in root["units"]]
        for m in movers:
            draft.at("units", m)["sector"] = c["to"]
        if movers:  # nobody left to arrive: no move happened
            events.append({"type": "moved", "units": movers, "from": c["sector"],
                           "to": c["to"]})
    events.append({"type": "combat_ended", "sector": c["sector"]})
