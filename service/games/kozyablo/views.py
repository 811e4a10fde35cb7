"""What each player may see, and states a player cannot tell apart (views, determinize).

Hidden from a player: the opponent's hand (a count), every deck (counts —
decks are unordered, there is no order to show), the cards set aside in a
mulligan, each player's full card list, and the identity of the opponent's
creatures in the shadow (KOZ-41): such a creature shows as ``"hidden-N"``
with its owner and sector only, everywhere in the view.
"""

from __future__ import annotations

import random

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

    For each other player: their hand and deck are re-dealt from the union of
    both (sizes kept), and each of their shadowed creatures (without
    artifacts or magic laid on it) may swap identity with any unlocated card
    that is a creature with Shadow.
    """
    rng = random.Random(seed)
    out = dict(state)
    out["players"] = [dict(p) for p in state["players"]]
    out["units"] = dict(state["units"])
    for seat, p in enumerate(out["players"]):
        if seat == player:
            continue
        pool = list(p["hand"]) + list(p["deck"])
        anchored = {m.get("unit") for m in state["lasting"].values()}
        for uid, d in sorted(state["units"].items()):
            if d["owner"] != seat or not d["shadow"] or d["artifacts"] or uid in anchored:
                continue
            options = [c for c in pool if cat.faces[face(c)].type in ("creature", "hero")
                       and "shadow" in cat.faces[face(c)].abilities]
            if not options:
                continue
            pick = rng.choice(options + [uid])
            if pick == uid:
                continue
            pool.remove(pick)
            pool.append(uid)
            out["units"][pick] = out["units"].pop(uid)
        rng.shuffle(pool)
        n = len(p["hand"])
        p["hand"] = sorted(pool[:n])
        p["deck"] = sorted(pool[n:])
    out["chance"] = {**state["chance"], "seed": seed, "counter": 0}
    return out
