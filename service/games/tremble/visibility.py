"""Hidden information (TRE-33): views, secret ids and determinization.

Secret: ships in hand, the ships drawn and the purchase, orders until
revealed, missions (kept, dealt, discarded) and both decks (order and
content).  Open: people and fuel, open cities, attacks once revealed,
captured cities, searches in progress, the discards of cities, the box.

>>> from service.games.tremble import GAME
>>> state, _ = GAME.new_game(2, {"missions": False}, seed=3)
>>> seen = GAME.view(state, 0)
>>> seen["players"][1]["hand"], seen["ship_deck"]
({'count': 1}, {'count': 26})
"""

from __future__ import annotations

from ..chance import draw_below

HIDDEN_PLAYER_ZONES = ("hand", "offer", "missions", "mission_offer", "missions_discarded")


def hide(state: dict, player: int | None) -> dict:
    seen = dict(state)
    players = []
    for p, pl in enumerate(state["players"]):
        if p == player:
            players.append(pl)
            continue
        q = dict(pl)
        for zone in HIDDEN_PLAYER_ZONES:
            q[zone] = {"count": len(pl[zone])}
        q["orders"] = {"submitted": pl["orders"] is not None}
        q["redeploy"] = {"submitted": pl["redeploy"] is not None}
        players.append(q)
    seen["players"] = players
    for zone in ("ship_deck", "ship_discard", "mission_deck"):
        seen[zone] = {"count": len(state[zone])}
    seen["piles"] = [{"mark": pile["mark"],
                      "cards_left": len(pile["candidates"]) - pile["removed"],
                      "removed_unseen": pile["removed"]} for pile in state["piles"]]
    return seen


def secret_cards(state: dict, player: int | None) -> set[str]:
    """Ids ``player`` may not see.  Ships revealed this turn (``sent``) are
    public even when back in a hand or the discard."""
    out: set[str] = set()
    for p, pl in enumerate(state["players"]):
        if p != player:
            for zone in HIDDEN_PLAYER_ZONES:
                out.update(pl[zone])
    out.update(state["ship_deck"])
    out.update(state["ship_discard"])
    out.update(state["mission_deck"])
    for pile in state["piles"]:
        out.update(pile["candidates"])
    out.difference_update(state["sent"])
    return out


def determinize(state: dict, player: int | None, seed: int) -> dict:
    """A state ``player`` cannot tell from ``state``: every ship and mission
    they cannot locate is re-dealt (seeded) over the same zone sizes, other
    players' unrevealed orders follow their ships, and the chance seed is
    replaced.  City piles are already unordered candidate multisets."""
    rng = {"mode": "server", "seed": seed, "counter": 0}
    out = dict(state)
    players = [dict(pl) for pl in state["players"]]
    sent = set(state["sent"])
    others = [p for p in range(len(players)) if p != player]
    # ships: decks + the unrevealed part of other hands and offers
    pool = list(state["ship_deck"]) + list(state["ship_discard"])
    hidden_hands = {}
    for p in others:
        hidden = [s for s in players[p]["hand"] if s not in sent]
        hidden_hands[p] = hidden
        pool += hidden + list(players[p]["offer"])
    _shuffle(pool, rng)
    out["ship_deck"] = sorted(pool[:len(state["ship_deck"])])
    del pool[:len(state["ship_deck"])]
    out["ship_discard"] = sorted(pool[:len(state["ship_discard"])])
    del pool[:len(state["ship_discard"])]
    for p in others:
        old = hidden_hands[p]
        new = pool[:len(old)]
        del pool[:len(old)]
        mapping = dict(zip(old, new))
        players[p]["hand"] = [mapping.get(s, s) for s in players[p]["hand"]]
        n = len(players[p]["offer"])
        players[p]["offer"] = pool[:n]
        del pool[:n]
        for key in ("orders", "redeploy"):
            if players[p][key]:
                players[p][key] = [{**o, "ship": mapping.get(o["ship"], o["ship"])}
                                   for o in players[p][key]]
    # missions: the deck + every other player's missions
    mpool = list(state["mission_deck"])
    for p in others:
        for zone in ("missions", "mission_offer", "missions_discarded"):
            mpool += players[p][zone]
    _shuffle(mpool, rng)
    out["mission_deck"] = sorted(mpool[:len(state["mission_deck"])])
    del mpool[:len(state["mission_deck"])]
    for p in others:
        for zone in ("missions", "mission_offer", "missions_discarded"):
            n = len(players[p][zone])
            players[p][zone] = mpool[:n]
            del mpool[:n]
    out["players"] = players
    out["chance"] = {**state["chance"], "seed": seed, "counter": 0}
    return out


def _shuffle(items: list, rng: dict) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = draw_below(rng, i + 1)
        items[i], items[j] = items[j], items[i]
