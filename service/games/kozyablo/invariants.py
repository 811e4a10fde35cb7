"""Invariants of a well-shaped Kozyablo state: every card exactly once, references sound.

A state that breaks one is refused (``InvalidState``) before any rule reads
it, so a forged or corrupted state can never cause an unexpected error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from service.games.base import conservation_errors
from service.games.kozyablo import setup
from service.games.kozyablo.cards import Catalogue, face
from service.games.kozyablo.state_types import Combat, KozyabloState, PendingEffect
from service.games.messages import N_
from service.games.objects import Errors

#: ``bad(path, message)``: report an invariant error
Bad = Callable[[str, str], None]

#: phases a state can be in between two actions ("start"/"end" pass within one apply)
PHASES = ("setup", "mulligan", "main", "response", "combat", "effect")


#: per card set (its ``Catalogue``): instance id → (seat, kind) of the ids found known
_KNOWN: dict[Catalogue, dict[str, tuple[int, str]]] = {}
#: known ids cached per card set at most (forged states cannot grow the cache without bound)
KNOWN_CACHE_MAX = 4096


def _known(cat: Catalogue, cid: str, seat: int) -> str | None:
    """The kind of card ``cid`` is, or None when it is not a card of ``seat``.

    Known ids are cached per card set (``_KNOWN``): the check runs for every
    card of every state validated.
    """
    cache = _KNOWN.get(cat)
    if cache is None:
        cache = _KNOWN[cat] = {}
    hit = cache.get(cid)
    if hit is not None:
        return hit[1] if hit[0] == seat else None
    head = cid.partition(".")[0]
    kind = _kind_of(cat, cid)
    if kind is None or head != str(seat):
        return None
    if len(cache) < KNOWN_CACHE_MAX:
        cache[cid] = (seat, kind)
    return kind


#: a player's whole card list (the same all game long) -> its kinds, when all are known
_LISTS: dict[tuple[Catalogue, int, tuple[str, ...]], dict[str, str]] = {}


def _seat_kinds(cat: Catalogue, seat: int, cards: tuple[str, ...], bad: Bad) -> dict[str, str]:
    """The kind of each card of one player's card list (``bad`` for each that is
    not theirs); a list found all good is remembered (``_LISTS``, bounded)."""
    found = _LISTS.get((cat, seat, cards))
    if found is not None:
        return found
    kinds: dict[str, str] = {}
    for cid in cards:
        kind = _known(cat, cid, seat)
        if kind is None:
            bad(f"state.players.{seat}.cards", N_("{cid!r} is not a card of player {seat}",
                                                  cid=cid, seat=seat))
        else:
            kinds[cid] = kind
    if len(kinds) == len(cards) and len(_LISTS) < KNOWN_CACHE_MAX:
        _LISTS[cat, seat, cards] = kinds
    return kinds


def _kind_of(cat: Catalogue, cid: str) -> str | None:
    """The kind of card ``cid`` is in ``cat`` (any seat), or None when it is none."""
    head, dot, rest = cid.partition(".")
    if not dot:
        return None
    f = face(cid)
    if f in cat.faces:
        return cat.faces[f].type
    if f in cat.capitals:
        return "capital"
    if f in cat.sector_kinds and "#" not in rest:
        return "sector"
    return None


#: per seat: zone path -> the cards found there (for ``conservation_errors``)
Zones = list[dict[str, list[str]]]


def errors(state: KozyabloState, cat: Catalogue) -> Errors:
    """Every invariant error, by path: the card lists first, then every zone
    (each card exactly once, held by its owner), then the flow of the game."""
    out: Errors = {}

    def bad(path: str, msg: str) -> None:
        out.setdefault(path, []).append(msg)

    kinds = _card_kinds(state, cat, bad)
    if out:
        return out
    zones: Zones = [{f"state.players.{seat}.hand": p["hand"],
                     f"state.players.{seat}.deck": p["deck"],
                     f"state.players.{seat}.discard": p["discard"],
                     f"state.players.{seat}.aside": p["aside"]}
                    for seat, p in enumerate(state["players"])]
    _sectors(state, kinds, zones, bad)
    _units(state, cat, kinds, zones, bad)
    _buildings(state, kinds, zones, bad)
    _lasting(state, cat, kinds, zones, bad)
    if out:
        return out
    for seat, p in enumerate(state["players"]):
        held: dict[str, Iterable[str]] = dict(zones[seat])
        out.update(conservation_errors(held, p["cards"]))
    _flow(state, cat, bad)
    return out


def _card_kinds(state: KozyabloState, cat: Catalogue, bad: Bad) -> dict[str, str]:
    """The kind of each card of each player's card list (each must be theirs)."""
    kinds: dict[str, str] = {}
    for seat, p in enumerate(state["players"]):
        kinds.update(_seat_kinds(cat, seat, tuple(p["cards"]), bad))
        if kinds.get(p["capital"]) != "capital":
            bad(f"state.players.{seat}.capital", N_("must be this player's capital card"))
    return kinds


def _sectors(state: KozyabloState, kinds: dict[str, str], zones: Zones, bad: Bad) -> None:
    players = state["players"]
    for sid, sec in state["sectors"].items():
        owner = sec["owner"]
        if kinds.get(sid) not in ("capital", "sector") or not sid.startswith(f"{owner}."):
            bad(f"state.sectors.{sid}", N_("not a sector or capital card of its owner"))
            continue
        want = "capital" if kinds[sid] == "capital" else face(sid)
        if sec["kind"] != want:
            bad(f"state.sectors.{sid}.kind", N_("must be {want}", want=want))
        if sec["kind"] == "capital" and players[owner]["capital"] != sid:
            bad(f"state.sectors.{sid}", N_("a capital is its owner's"))
        elif sec["kind"] == "capital" and not players[owner]["out"] \
                and sec["controller"] != owner:
            bad(f"state.sectors.{sid}", N_("a capital is always controlled by its owner while "
                                           "they are in"))
        zones[owner].setdefault("state.sectors", []).append(sid)


def _units(state: KozyabloState, cat: Catalogue, kinds: dict[str, str], zones: Zones,
           bad: Bad) -> None:
    """Creatures and the artifacts they carry (KOZ-21); shadow numbers (KOZ-41)."""
    numbers: dict[int, list[str]] = {}
    for uid, d in state["units"].items():
        if kinds.get(uid) not in ("creature", "hero") or not uid.startswith(f"{d['owner']}."):
            bad(f"state.units.{uid}", N_("not a creature or hero card of its owner"))
            continue
        if d["sector"] not in state["sectors"]:
            bad(f"state.units.{uid}.sector", N_("no such sector"))
        zones[d["owner"]].setdefault("state.units", []).append(uid)
        if d["shadow"] != ("shadow_number" in d):
            bad(f"state.units.{uid}.shadow_number",
                N_("a creature has a shadow_number exactly while it is in the shadow (KOZ-41)"))
        elif d["shadow"]:
            numbers.setdefault(d["shadow_number"], []).append(uid)
        for a in d["artifacts"]:
            if kinds.get(a) != "artifact" or not a.startswith(f"{d['owner']}."):
                bad(f"state.units.{uid}.artifacts", N_("{a!r} is not an artifact of the owner",
                                                       a=a))
            elif face(uid) not in cat.faces[face(a)].data["heroes"]:
                bad(f"state.units.{uid}.artifacts", N_("{a!r} cannot be carried by this hero", a=a))
            else:
                zones[d["owner"]].setdefault("state.units.artifacts", []).append(a)
    for n, uids in numbers.items():
        if len(uids) > 1:
            bad("state.units", N_("shadow_number {n} is held by {items}; each hidden creature "
                                  "has its own", n=n, items=', '.join(uids)))


def _buildings(state: KozyabloState, kinds: dict[str, str], zones: Zones, bad: Bad) -> None:
    for bid, b in state["buildings"].items():
        if kinds.get(bid) != "building" or not bid.startswith(f"{b['owner']}."):
            bad(f"state.buildings.{bid}", N_("not a building card of its owner"))
            continue
        if b["sector"] != state["players"][b["owner"]]["capital"]:
            bad(f"state.buildings.{bid}.sector", N_("a building stands in its owner's capital"))
        zones[b["owner"]].setdefault("state.buildings", []).append(bid)


def _lasting(state: KozyabloState, cat: Catalogue, kinds: dict[str, str], zones: Zones,
             bad: Bad) -> None:
    """Lasting magic lies on a creature or a squad that is there (KOZ-18, RULING KOZ-18a)."""
    for mid, m in state["lasting"].items():
        ok = kinds.get(mid) in ("magic", "event") and mid.startswith(f"{m['owner']}.") \
            and cat.faces[face(mid)].data["kind"] != "instant"
        if not ok:
            bad(f"state.lasting.{mid}", N_("not a lasting magic card of its owner"))
            continue
        if ("unit" in m) == ("sector" in m and "seat" in m):
            bad(f"state.lasting.{mid}", N_("lies on a creature (`unit`) or a squad "
                                           "(`sector`+`seat`)"))
        elif "unit" in m and m["unit"] not in state["units"]:
            bad(f"state.lasting.{mid}.unit", N_("no such creature"))
        elif "sector" in m and m["sector"] not in state["sectors"]:
            bad(f"state.lasting.{mid}.sector", N_("no such sector"))
        elif "sector" in m and not any(d["sector"] == m["sector"] and d["owner"] == m["seat"]
                                       for d in state["units"].values()):
            bad(f"state.lasting.{mid}", N_("magic laid on a squad leaves with its last creature "
                                           "(RULING KOZ-18a): that squad has none in the sector"))
        zones[m["owner"]].setdefault("state.lasting", []).append(mid)


def _flow(state: KozyabloState, cat: Catalogue, bad: Bad) -> None:
    """The phase fits the rest: turn order, mulligans, the response window, a
    waiting effect, a combat."""
    n = len(state["players"])
    phase = state["phase"]
    allowed = PHASES if state["result"] is None else PHASES + ("start", "end")
    if phase not in allowed:
        bad("state.phase", N_("must be one of {items}", items=", ".join(allowed)))
        return
    _order(state, n, phase, bad)
    if phase in ("start", "main", "response", "combat", "end", "effect"):
        if state["active"] is None or len(state["order"]) != n:
            bad("state.active", N_("a turn needs the active player and the turn order"))
    for i, q in enumerate(state["queue"]):
        if ("to" in q) == ("do" in q):
            bad(f"state.queue.{i}", N_("either a reveal (`to`) or an instruction (`do`)"))
    _window(state, n, phase, bad)
    _out(state, n, bad)
    e = state["effect"]
    if (phase == "effect") != (e is not None):
        bad("state.effect", N_("an effect's damage waits exactly in the effect phase"))
    if e is not None:
        _effect(state, cat, e, bad)
    if (phase == "combat") != (state["combat"] is not None):
        bad("state.combat", N_("a combat exists exactly in the combat phase"))
    c = state["combat"]
    if c is not None:
        _combat(state, c, bad)


def _order(state: KozyabloState, n: int, phase: str, bad: Bad) -> None:
    """KOZ-10 the turn order; the setup and the mulligans (KOZ-9) come first."""
    order = state["order"]
    if len(set(order)) != len(order) or not set(order) <= set(range(n)):
        bad("state.order", N_("each seat at most once"))
    elif order != setup.ordered([p["race"] for p in state["players"]], order):
        bad("state.order", N_("a seat that needs no lot is placed by race as soon as it can be "
                              "(KOZ-10)"))
    if state["result"] is not None:
        return
    if phase != "setup" and len(order) != n:
        bad("state.order", N_("only the setup comes before the lots that complete it"))
    if phase == "setup" and state["order"] and not state["queue"]:
        bad("state.phase", N_("the setup is over once the lot is cast and the cards dealt"))
    if phase == "mulligan" and not state["queue"] and all(
            p["ready"] for p in state["players"]):
        bad("state.phase", N_("every player has kept: the mulligan phase is over"))
    if phase in ("main", "response", "combat", "effect") and not all(
            p["ready"] for p in state["players"]):
        bad("state.players", N_("a player has not finished the mulligan"))


def _window(state: KozyabloState, n: int, phase: str, bad: Bad) -> None:
    """KOZ-16, RULING KOZ-52: a declared action and its responder exist exactly
    while a response window is open."""
    e = state["effect"]
    in_window = phase == "response" or (phase == "effect" and e is not None
                                         and e["then"] == "response")
    if in_window != (state["declared"] is not None):
        bad("state.declared", N_("a declared action exists exactly in the response phase (and "
                                 "while an effect used in it waits)"))
    responder = state["responder"]
    if in_window != (responder is not None):
        bad("state.responder", N_("a responder exists exactly while a response window is open"))
    elif responder is not None and (responder >= n or responder == state["active"]
                                    or state["players"][responder]["out"]):
        bad("state.responder", N_("another player still in the game (KOZ-16, RULING KOZ-52)"))


def _combat(state: KozyabloState, c: Combat, bad: Bad) -> None:
    """The fighters, the striker and its hits are on the table (or gone to a discard)."""
    known = set(state["units"]) | set(state["buildings"])
    if c["sector"] not in state["sectors"]:
        bad("state.combat.sector", N_("no such sector"))
    for w in c["waiting"] + c.get("movers", []):
        if w not in known and not _gone(w, state):
            bad("state.combat", N_("{w!r} is not a card on the table or in a discard", w=w))
    if c["current"] is not None and c["current"] not in known:
        bad("state.combat.current", N_("the striker must be on the table"))
    if c["hits"] and c["current"] is None:
        bad("state.combat.hits", N_("hits belong to the current striker"))
    for h in c["hits"]:
        if h["target"] not in known and h["target"] != c["sector"]:
            bad("state.combat.hits", N_("{target!r} cannot be struck", target=h['target']))
    if (c["kind"] == "retreat") != ("movers" in c and "to" in c):
        bad("state.combat", N_("a retreat attack (and only it) has `movers` and `to`"))
    if "to" in c and c["to"] not in state["sectors"]:
        bad("state.combat.to", N_("no such sector"))
    turn = c.get("turn")
    if turn:  # RULING KOZ-41a: whose turn to strike it is, while that decision waits
        where = {**state["units"], **state["buildings"]}
        if c["current"] is not None or c["hits"] or not set(turn) <= set(c["waiting"]) \
                or any(t not in where or where[t]["sector"] != c["sector"] for t in turn) \
                or len({where[t]["owner"] for t in turn if t in where}) != 1:
            bad("state.combat.turn", N_("whose turn to strike it is: waiting strikers of one "
                                        "player in the combat's sector, while no strike is "
                                        "being resolved"))


def _out(state: KozyabloState, n: int, bad: Bad) -> None:
    """RULING KOZ-53: a player who is out has nothing on the table and controls no
    sector; while the game goes on, at least two players are in."""
    out = {s for s, p in enumerate(state["players"]) if p["out"]}
    if not out:
        return
    if state["result"] is None and n - len(out) < 2:
        bad("state.players", N_("the game is over once one player is left (RULING KOZ-53)"))
    for pool in ("units", "buildings", "lasting"):
        for cid, d in state[pool].items():
            if d["owner"] in out:
                bad(f"state.{pool}.{cid}", N_("a card of a player who is out (RULING KOZ-53)"))
    for sid, sec in state["sectors"].items():
        if sec["controller"] in out:  # their own capital too (RULING KOZ-53a)
            bad(f"state.sectors.{sid}.controller", N_("a player who is out controls nothing"))
    if state["active"] in out and state["phase"] == "main" and state["result"] is None:
        bad("state.active", N_("a player who is out takes no turn (RULING KOZ-53)"))


def _effect(state: KozyabloState, cat: Catalogue, e: PendingEffect, bad: Bad) -> None:
    """KOZ-45: the offered hit names a creature on the table; the rest are creature ids."""
    head = e["hits"][0]["target"]
    if head not in state["units"]:
        bad("state.effect.hits.0.target", N_("the creature offered to a Defender must be on the "
                                             "table"))
    for i, h in enumerate(e["hits"]):
        if h["target"] not in state["units"] and not _gone(h["target"], state):
            bad(f"state.effect.hits.{i}.target", N_("not a creature on the table or in a discard"))
    if ("triggers" in e) != (e["then"] in ("start", "end")):
        bad("state.effect.triggers", N_("the triggers still to fire belong to a start/end phase"))
    for i, t in enumerate(e.get("triggers", [])):
        f = cat.faces.get(face(t["source"]))
        if f is None or t["index"] >= len(f.triggers) \
                or f.triggers[t["index"]]["when"] != e["then"]:
            bad(f"state.effect.triggers.{i}", N_("no {then}-of-turn trigger of that card",
                                                 then=e['then']))
    if e["source"] is not None and not _gone(e["source"], state) \
            and e["source"] not in state["units"] and e["source"] not in state["buildings"] \
            and e["source"] not in state["lasting"]:
        bad("state.effect.source", N_("not a card on the table or in a discard"))


def _gone(cid: str, state: KozyabloState) -> bool:
    return any(cid in p["discard"] for p in state["players"])
