"""Hidden information (TRE-33): views, secret ids and determinization.

Secret: ships in hand, the ships drawn and the purchase, orders until
revealed, missions (kept, dealt, discarded) and both decks (order and
content).  Open: people and fuel, open cities, attacks once revealed,
captured cities, searches in progress, the discards of cities, the box.

A ship that flew this turn (``sent``: attack orders revealed face up,
reserve ships joining a battle) was seen by the whole table, and so was
where it went: a retreating or raiding player takes it back into hand in
front of everyone, a loser puts the chosen ship on the discard openly
(TRE-19, TRE-21), a ship that cannot be fuelled is discarded openly
(TRE-15).  So another player's hand and the ship discard are shown as a
count plus ``flown``: the ships of ``sent`` that lie there now.  Unbought
ships and ships discarded to make room for a purchase stay hidden (the
purchase is secret, TRE-12).

>>> from service.games.tremble import GAME
>>> state, _ = GAME.new_game(2, {"missions": False}, seed=3)
>>> seen = GAME.view(state, 0)
>>> seen["players"][1]["hand"], seen["ship_deck"], seen["ship_discard"]
({'count': 1, 'flown': []}, {'count': 30}, {'count': 0, 'flown': []})
"""

from __future__ import annotations

from typing import Any, Literal

from service.games.chance import draw_below
from service.games.tremble import planning
from service.games.tremble.cards import Catalogue
from service.games.tremble.state import TrembleState, typed

HiddenZone = Literal["hand", "offer", "missions", "mission_offer", "missions_discarded"]
Deck = Literal["ship_deck", "ship_discard", "mission_deck"]

#: a player's zones the others see as a count
HIDDEN_PLAYER_ZONES: tuple[HiddenZone, ...] = (
    "hand", "offer", "missions", "mission_offer", "missions_discarded")
#: the decks every player sees as a count
HIDDEN_DECKS: tuple[Deck, ...] = ("ship_deck", "ship_discard", "mission_deck")
#: mission zones of a player (re-dealt by ``determinize``)
MISSION_ZONES: tuple[HiddenZone, ...] = ("missions", "mission_offer", "missions_discarded")


def flown_in(cards: list[str], sent: list[str]) -> list[str]:
    """The ships of ``cards`` that flew this turn (their place is public), sorted.

    >>> flown_in(["S-CRUISER", "S-START#2"], ["S-START#2", "S-ORBITER"])
    ['S-START#2']
    """
    return sorted(set(cards).intersection(sent))


def hide(state: TrembleState, player: int | None) -> dict:
    seen: dict[str, Any] = dict(state)
    players: list[Any] = []
    sent = state["sent"]
    for p, pl in enumerate(state["players"]):
        if p == player:
            players.append(pl)
            continue
        q: dict[str, Any] = dict(pl)
        for zone in HIDDEN_PLAYER_ZONES:
            q[zone] = {"count": len(pl[zone])}
        q["hand"]["flown"] = flown_in(pl["hand"], sent)
        q["orders"] = {"submitted": pl["orders"] is not None}
        q["redeploy"] = {"submitted": pl["redeploy"] is not None}
        players.append(q)
    seen["players"] = players
    for deck in HIDDEN_DECKS:
        seen[deck] = {"count": len(state[deck])}
    seen["ship_discard"]["flown"] = flown_in(state["ship_discard"], sent)
    seen["piles"] = [{"mark": pile["mark"],
                      "cards_left": len(pile["candidates"]) - pile["removed"],
                      "removed_unseen": pile["removed"]} for pile in state["piles"]]
    return seen


def secret_cards(state: TrembleState, player: int | None) -> set[str]:
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


def determinize(state: TrembleState, player: int | None, seed: int, cat: Catalogue) -> dict:
    """A state ``player`` cannot tell from ``state``: every ship and mission
    they cannot locate is re-dealt (seeded) over the same zone sizes, other
    players' unrevealed orders and redeploy orders are drawn again (seeded,
    from the listed ones for the new hands), and the chance seed is replaced.

    A function of ``view(state, player)`` and ``seed`` only (TRE-33): the
    pools are sorted before the shuffle, ships that flew this turn stay
    where the view shows them (a hand or the discard) and the rest of each
    zone is re-dealt, and the city piles' candidates come out sorted.
    """
    rng = {"mode": "server", "seed": seed, "counter": 0}
    out: dict[str, Any] = dict(state)
    players: list[dict[str, Any]] = [dict(pl) for pl in state["players"]]
    others = [p for p in range(len(players)) if p != player]
    _redeal_ships(state, out, players, others, rng)
    _redeal_missions(state, out, players, others, rng)
    out["players"] = players
    out["piles"] = [{**pile, "candidates": sorted(pile["candidates"])}
                    for pile in state["piles"]]
    # secret orders (TRE-14) and redeploys (TRE-32): only "submitted" is seen
    for p in others:
        if players[p]["orders"] is not None:
            plans = planning.plan_actions(typed(out), p)
            players[p]["orders"] = plans[draw_below(rng, len(plans))]["orders"]
        if players[p]["redeploy"] is not None:
            moves = planning.redeploy_actions(typed(out), cat, p)
            players[p]["redeploy"] = moves[draw_below(rng, len(moves))]["moves"]
    out["chance"] = {**state["chance"], "seed": seed, "counter": 0}
    return out


def _redeal_ships(state: TrembleState, out: dict[str, Any], players: list[dict[str, Any]],
                  others: list[int], rng: dict) -> None:
    """Ships: deck + discard + other hands and offers, but for the flown ones."""
    sent = set(state["sent"])
    pool = list(state["ship_deck"]) + [s for s in state["ship_discard"] if s not in sent]
    for p in others:
        pool += [s for s in players[p]["hand"] if s not in sent] + list(players[p]["offer"])
    pool.sort()
    _shuffle(pool, rng)
    out["ship_deck"] = sorted(pool[:len(state["ship_deck"])])
    del pool[:len(state["ship_deck"])]
    kept = flown_in(state["ship_discard"], state["sent"])
    n = len(state["ship_discard"]) - len(kept)
    out["ship_discard"] = sorted(kept + pool[:n])
    del pool[:n]
    for p in others:
        kept = flown_in(players[p]["hand"], state["sent"])
        n = len(players[p]["hand"]) - len(kept)
        players[p]["hand"] = kept + pool[:n]
        del pool[:n]
        n = len(players[p]["offer"])
        players[p]["offer"] = pool[:n]
        del pool[:n]


def _redeal_missions(state: TrembleState, out: dict[str, Any],
                     players: list[dict[str, Any]], others: list[int], rng: dict) -> None:
    """Missions: the deck + every other player's missions."""
    mpool = list(state["mission_deck"])
    for p in others:
        for zone in MISSION_ZONES:
            mpool += players[p][zone]
    mpool.sort()
    _shuffle(mpool, rng)
    out["mission_deck"] = sorted(mpool[:len(state["mission_deck"])])
    del mpool[:len(state["mission_deck"])]
    for p in others:
        for zone in MISSION_ZONES:
            n = len(players[p][zone])
            players[p][zone] = mpool[:n]
            del mpool[:n]


def _shuffle(items: list, rng: dict) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = draw_below(rng, i + 1)
        items[i], items[j] = items[j], items[i]
