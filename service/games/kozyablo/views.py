"""What each player may see, and states a player cannot tell apart (views, determinize).

Hidden from a player: the opponent's hand (a count), every deck (counts —
decks are unordered, there is no order to show), the cards set aside in a
mulligan, each player's full card list, and the identity of the opponent's
creatures in the shadow (KOZ-41): such a creature shows as ``"hidden-N"``
with its owner and sector only, everywhere in the view.
"""

from __future__ import annotations

import random
from bisect import bisect

from .catalogue import Catalogue, face


def _hidden_units(state: dict, player: int | None) -> dict[str, str]:
    """Shadowed creatures ``player`` may not identify -> their public alias."""
    aliases = {}
    for n, (uid, d) in enumerate(sorted(state["units"].items())):
        if d["shadow"] and d["owner"] != player:
            aliases[uid] = f"hidden-{n + 1}"
    return aliases


def secret_cards(state: dict, player: int | None) -> set[str]:
    """Instance ids ``player`` may not see in a view."""
    out: set[str] = set()
    for seat, p in enumerate(state["players"]):
        out.update(p["deck"])
        out.update(p["aside"])
        if seat != player:
            out.update(p["hand"])
    declared = state["declared"]
    if declared is not None and declared["type"] == "play_card":
        out.discard(declared["card"])  # shown when the play was declared (KOZ-16)
    for uid in _hidden_units(state, player):
        out.add(uid)
        out.update(state["units"][uid]["artifacts"])
    return out


def _replace(value, aliases: dict[str, str]):
    if isinstance(value, str):
        return aliases.get(value, value)
    if isinstance(value, list):
        return [_replace(v, aliases) for v in value]
    if isinstance(value, dict):
        return {aliases.get(k, k): _replace(v, aliases) for k, v in value.items()}
    return value


def hide(state: dict, player: int | None) -> dict:
    """``state`` as ``player`` (None: a spectator) may see it."""
    seen = dict(state)
    players = []
    for seat, p in enumerate(state["players"]):
        q = {k: v for k, v in p.items() if k not in ("deck", "aside", "cards")}
        q["deck_count"] = len(p["deck"])
        q["aside_count"] = len(p["aside"])
        q["card_count"] = len(p["cards"])
        if seat != player:
            q["hand_count"] = len(p["hand"])
            del q["hand"]
        players.append(q)
    seen["players"] = players
    aliases = _hidden_units(state, player)
    if aliases:
        units = {}
        for uid, d in state["units"].items():
            if uid in aliases:
                units[aliases[uid]] = {"owner": d["owner"], "sector": d["sector"],
                                       "shadow": True, "card": None,
                                       "artifact_count": len(d["artifacts"])}
            else:
                units[uid] = d
        seen["units"] = units
        for key in ("lasting", "declared", "combat"):
            seen[key] = _replace(state[key], aliases)
    return seen


def determinize(state: dict, cat: Catalogue, player: int | None, seed: int) -> dict:
    """Re-deal what ``player`` cannot locate; a fresh chance seed.

    For each other player: their hand, deck and the cards set aside in a
    mulligan are re-dealt from the union of the three (sizes kept; a card
    declared for play stays in the hand, KOZ-16), and each of their
    creatures in the shadow without artifacts (KOZ-41: face down) is any
    unlocated creature with Shadow whose id sorts to the same place among
    the units (the view numbers hidden creatures by that place).

    A function of ``view(state, player)``, the players' card lists (which
    the view does not show) and ``seed``: pools are sorted before the seeded
    draws, shadowed creatures are taken in the order of their public
    aliases, renamed everywhere the view aliases them, and every hidden list
    comes out sorted.
    """
    rng = random.Random(seed)
    out = dict(state)
    out["players"] = [dict(p) for p in state["players"]]
    aliases = _hidden_units(state, player)  # in id order = the order of the public aliases
    declared = state["declared"]
    shown = declared["card"] if declared is not None and declared["type"] == "play_card" else None
    movable = [uid for uid in aliases if not state["units"][uid]["artifacts"]]
    fixed = sorted(set(state["units"]) - set(movable))
    pools: dict[int, list[str]] = {}
    for seat, p in enumerate(out["players"]):
        for zone in ("deck", "aside", "cards"):
            p[zone] = sorted(p[zone])
        if seat != player:
            pools[seat] = sorted([c for c in p["hand"] if c != shown] + p["deck"] + p["aside"]
                                 + [u for u in movable if state["units"][u]["owner"] == seat])
    # shadowed creatures: the same number of picks per (place among the fixed ids, owner),
    # handed out in id order so that every alias keeps its creature (ids start with the seat)
    groups: dict[tuple[int, int], list[str]] = {}
    for uid in movable:
        groups.setdefault((bisect(fixed, uid), state["units"][uid]["owner"]), []).append(uid)
    renamed = {}
    for (place, seat), uids in groups.items():
        options = [c for c in pools[seat] if bisect(fixed, c) == place
                   and cat.faces[face(c)].type in ("creature", "hero")
                   and "shadow" in cat.faces[face(c)].abilities]
        for uid, pick in zip(uids, sorted(rng.sample(options, len(uids)))):
            pools[seat].remove(pick)
            renamed[uid] = pick
    for seat, pool in pools.items():
        p = out["players"][seat]
        rng.shuffle(pool)
        kept = [c for c in p["hand"] if c == shown]
        n = len(p["hand"]) - len(kept)
        p["hand"] = sorted(kept + pool[:n])
        p["aside"] = sorted(pool[n:n + len(p["aside"])])
        p["deck"] = sorted(pool[n + len(p["aside"]):])
    if any(uid != pick for uid, pick in renamed.items()):
        out["units"] = {renamed.get(u, u): d for u, d in state["units"].items()}
        for key in ("lasting", "declared", "combat"):
            out[key] = _replace(state[key], renamed)
    out["chance"] = {**state["chance"], "seed": seed, "counter": 0}
    return out
