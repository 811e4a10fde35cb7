"""How good a Kozyablo position is: the greedy bot's heuristic (``Game.position_value``)."""

from __future__ import annotations

from collections.abc import Mapping

from service.games.base import Game
from service.games.kozyablo.state_types import KozyabloState


def position_value(game: Game[KozyabloState], state: KozyabloState, player: int) -> float:
    """Capital life (the score) ten times over against the strongest
    opponent, plus sectors held (production, KOZ-13), creatures on the table,
    creatures standing in the opponents' sectors — above all their capital,
    which a lone creature captures (KOZ-48) — against theirs in ours, damage
    dealt against damage taken (KOZ-27), and cards in hand.  With 3-4
    players, players who are out (RULING KOZ-53) and their sectors no longer
    count; a fallen capital is an ordinary sector (RULING KOZ-53a).

    A creature of ours in the shadow is worth a little more than one in
    sight (KOZ-41: nothing can strike or target it), less than a wound
    dealt: so the greedy bot, rating a strike against a held one (RULING
    KOZ-25a), strikes whenever the strike deals damage, and keeps a hidden
    creature hidden (RULING KOZ-41a) rather than strike for nothing."""
    rows = {s["player"]: s for s in game.score(state)["scores"]}
    mine = rows[player]
    out = {p for p, q in enumerate(state["players"]) if q.get("out")}
    others = [r["total"] for p, r in rows.items() if p != player and p not in out]
    parts = mine.get("breakdown") or {}
    sectors = state.get("sectors", {})
    pressure = wounds = 0.0
    for unit in state.get("units", {}).values():
        where: Mapping[str, object] = sectors.get(unit["sector"], {})
        if where.get("owner") in out:
            where = {}
        capital = where.get("kind") == "capital"
        if unit.get("owner") == player:
            if unit.get("shadow"):
                pressure += 0.2  # out of reach (KOZ-41); 1.5 × 0.2 < 0.5 a wound dealt
            if where.get("owner") not in (None, player):  # marching on them (KOZ-48)
                pressure += 4 if capital else 1
            elif capital:
                pressure += 0.5  # garrison
            wounds -= unit.get("damage", 0)
        else:
            if where.get("owner") == player:
                pressure -= 4 if capital else 1  # they march on us
            wounds += unit.get("damage", 0)
    return float(10 * (mine["total"] - (max(others) if others else 0))
                 + 2 * parts.get("sectors", 0) + parts.get("creatures", 0)
                 + 1.5 * pressure + 0.5 * wounds
                 + 0.1 * len(state["players"][player].get("hand", ())))
