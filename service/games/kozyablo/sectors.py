"""Sectors, control and production (KOZ-11 … KOZ-13, KOZ-16a garrison).

Sector ids are the instance ids of the sector and capital cards
(``"0.gold_mine"``, ``"1.tr_capital"``); ``state["sectors"][id]`` holds
``{kind, owner, controller}``.  Production is a *level*, derived on demand:
the capital's printed production plus one per controlled sector of the
matching kind (RULING in KOZ-13).
"""

from __future__ import annotations

from service.games.draft import Draft
from service.games.kozyablo.cards import Catalogue, face
from service.games.kozyablo.state_types import KozyabloState
from service.games.objects import Event

#: each sector kind and the resource it produces (KOZ-13)
RESOURCE_OF = {"gold_mine": "gold", "crystal_mine": "crystals", "energy_source": "mana"}


def is_out(state: KozyabloState, seat: int) -> bool:
    """RULING KOZ-53: ``seat``'s capital was captured or destroyed; they play no more."""
    return state["players"][seat]["out"]


def seats_after(state: KozyabloState, seat: int) -> list[int]:
    """The other players still in, in turn order after ``seat`` (KOZ-10, RULING KOZ-52).

    With more than two players "opponent" means every other player (RULING
    KOZ-51); this is the order in which response windows and ties go round.

    >>> st = {"order": [2, 0, 3, 1], "players": [{"out": False}, {"out": True},
    ...                                          {"out": False}, {"out": False}]}
    >>> seats_after(st, 0), seats_after(st, 1)
    ([3, 2], [2, 0, 3])
    """
    order = state["order"]
    i = order.index(seat)
    return [s for s in order[i + 1:] + order[:i] if not is_out(state, s)]


def capital_id(state: KozyabloState, seat: int) -> str:
    return state["players"][seat]["capital"]


def is_capital(state: KozyabloState, sector: str) -> bool:
    """Whether ``sector`` is a capital for the rules: a capital card whose owner is
    still in.  RULING KOZ-53a: an out player's capital stays on the table as an
    ordinary sector of nobody's (no Garrison, Buildings, life or Armor, no
    production; it can be neither struck nor captured; KOZ-16a, KOZ-17 and KOZ-23
    no longer see a capital there) whose control follows KOZ-11.

    >>> st = {"sectors": {"1.tr_capital": {"kind": "capital", "owner": 1, "controller": None}},
    ...       "players": [{"out": False}, {"out": True}]}
    >>> is_capital(st, "1.tr_capital"), is_fallen_capital(st, "1.tr_capital")
    (False, True)
    """
    sec = state["sectors"][sector]
    return sec["kind"] == "capital" and not state["players"][sec["owner"]]["out"]


def capitals(state: KozyabloState) -> set[str]:
    """Every sector for which ``is_capital`` holds, in one pass (a listing asks it of
    every sector; ``tests/kozyablo`` hold the two to each other)."""
    players = state["players"]
    return {sid for sid, sec in state["sectors"].items()
            if sec["kind"] == "capital" and not players[sec["owner"]]["out"]}


def is_fallen_capital(state: KozyabloState, sector: str) -> bool:
    """RULING KOZ-53a: the capital card of a player who is out (an ordinary sector)."""
    sec = state["sectors"][sector]
    return sec["kind"] == "capital" and state["players"][sec["owner"]]["out"]


def follows_control(state: KozyabloState, sector: str) -> bool:
    """KOZ-11: whether who stands in ``sector`` decides its control — every sector
    but a capital still in play (RULING KOZ-53a: a fallen capital does)."""
    return not is_capital(state, sector)


def production(state: KozyabloState, cat: Catalogue, seat: int) -> dict[str, int]:
    """KOZ-12/KOZ-13: production levels of ``seat``.

    >>> st = {"players": [{"capital": "0.kz_capital"}],
    ...       "sectors": {"0.gold_mine": {"kind": "gold_mine", "owner": 0, "controller": 0}}}
    >>> import card_db; from service.games.kozyablo.cards import Catalogue
    >>> production(st, Catalogue.of(card_db.get("kozyablo")), 0)
    {'gold': 2, 'crystals': 2, 'mana': 2}
    """
    out = dict(cat.capitals[face(state["players"][seat]["capital"])]["production"])
    for sec in state["sectors"].values():
        if sec["controller"] == seat and sec["kind"] != "capital":  # a fallen capital gives
            out[RESOURCE_OF[sec["kind"]]] += 1                       # nothing (KOZ-53a)
    return out


def controlled_sectors(state: KozyabloState, seat: int) -> int:
    """Sectors under ``seat``'s control but their own capital (Sabotage's
    requirement); a fallen capital held counts like any sector (RULING KOZ-53a)."""
    return sum(1 for sid, s in state["sectors"].items()
               if s["controller"] == seat and not is_capital(state, sid))


def units_in(state: KozyabloState, sector: str, seat: int | None = None) -> list[str]:
    """Creature ids in ``sector`` (of ``seat`` only, if given), shadowed included."""
    return [u for u, d in state["units"].items()
            if d["sector"] == sector and (seat is None or d["owner"] == seat)]


def has_opposing_cards(state: KozyabloState, sector: str, seat: int) -> bool:
    """Whether ``sector`` holds any card of ``seat``'s opponents (KOZ-17).

    Opposing cards: creatures (face down too), buildings, and an opponent's
    capital itself.  Magic laid on a squad is not a card in the sector
    (RULING KOZ-18a): it acts on the squad's creatures and leaves with them.
    """
    sec = state["sectors"][sector]
    if sec["owner"] != seat and is_capital(state, sector):
        return True
    for d in state["units"].values():
        if d["sector"] == sector and d["owner"] != seat:
            return True
    for b in state["buildings"].values():
        if b["sector"] == sector and b["owner"] != seat:
            return True
    return False


def opposing_sectors(state: KozyabloState, seat: int) -> set[str]:
    """Every sector for which ``has_opposing_cards`` holds, in one pass (a listing
    asks it of every sector; ``tests/kozyablo`` hold the two to each other)."""
    out = {sid for sid, sec in state["sectors"].items()
           if sec["owner"] != seat and is_capital(state, sid)}
    for pool in (state["units"], state["buildings"]):
        out.update(d["sector"] for d in pool.values() if d["owner"] != seat)
    return out


def enemy_creature_in_capital(state: KozyabloState, seat: int) -> bool:
    """KOZ-23: an opposing creature stands in ``seat``'s capital."""
    cap = capital_id(state, seat)
    for d in state["units"].values():
        if d["sector"] == cap and d["owner"] != seat:
            return True
    return False


def garrison_space(state: KozyabloState, cat: Catalogue, seat: int) -> int | None:
    """KOZ-16a: how many more of ``seat``'s creatures their capital may take now;
    ``None``: no limit, while opposing cards are in the capital."""
    cap = capital_id(state, seat)
    if has_opposing_cards(state, cap, seat):
        return None
    garrison: int = cat.capitals[face(cap)]["garrison"]
    return garrison - len(units_in(state, cap, seat))


def garrison_room(state: KozyabloState, cat: Catalogue, seat: int, adding: int) -> bool:
    """KOZ-16a: may ``adding`` more of ``seat``'s creatures stand in their capital?"""
    space = garrison_space(state, cat, seat)
    return space is None or adding <= space


def over_garrison(state: KozyabloState, cat: Catalogue, seat: int) -> int:
    """How many creatures ``seat`` must move out of their capital now (KOZ-16a)."""
    return garrison_excess(garrison_space(state, cat, seat))


def garrison_excess(space: int | None) -> int:
    """How many creatures must leave a capital with this ``garrison_space``.

    >>> garrison_excess(None), garrison_excess(2), garrison_excess(-1)
    (0, 0, 1)
    """
    return 0 if space is None or space >= 0 else -space


def update_control(draft: Draft[KozyabloState], events: list[Event]) -> None:
    """KOZ-11: re-derive control of every sector but a capital in play from who
    is there (a fallen capital too, RULING KOZ-53a).

    One player's creatures present: that player controls it.  Several
    players': neutral.  Nobody: control stays as it was.
    """
    root = draft.root
    holder: dict[str, int | None] = {}  # a sector with creatures -> their one owner, or None
    for d in root["units"].values():
        sid, owner = d["sector"], d["owner"]
        holder[sid] = owner if holder.get(sid, owner) == owner else None
    sectors = root["sectors"]
    # only sectors with creatures can change; most calls change none
    changed = {sid: new for sid, new in holder.items()
               if new != sectors[sid]["controller"] and follows_control(root, sid)}
    if not changed:
        return
    for sid in sectors:  # the events in the sectors' order
        if sid in changed:
            draft.at("sectors", sid)["controller"] = changed[sid]
            events.append({"type": "sector_control", "sector": sid,
                           "controller": changed[sid]})
