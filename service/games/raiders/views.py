"""What each player may see, the secrets, and determinization.

Hidden: other players' hands (shown as ``{"count": n}``) and the contents of
both decks (``{"count": n}``; they are unordered multisets, so there is no
order to hide — but which cards are in the deck rather than in a hand is
secret).  Public: the discard pile, the face-up trump card under the deck
(``bottom``, RAI-5; once it is drawn the view keeps only the trump
suit), properties in the centre, guards, the capture.  The
base class hides the random state.

A view adds what a bot would otherwise compute: ``fighters_in_play``, every
fighter on the table (the attacker of a capture, every guard) with its
printed power, the sum of its live modifiers and its current power (RAI-20,
RAI-25), the attacker first, then the guards by seat and property.  It is
derived, so it lives in the view only; the state keeps the parts
(``modifiers``) and is judged by them.
"""

from __future__ import annotations

import random
from typing import Any

from service.games.raiders.cards import Catalogue
from service.games.raiders.power import power_bonus
from service.games.raiders.state import Player, RaidersState, before_first_turn
from service.games.raiders.table import fighters_in_play


def hide(state: RaidersState, player: int | None) -> dict:
    seen: dict[str, Any] = dict(state)
    seen["players"] = [
        p if seat == player else {**p, "hand": {"count": len(p["hand"])}}
        for seat, p in enumerate(state["players"])]
    seen["fighter_deck"] = {"count": len(state["fighter_deck"])}
    seen["property_deck"] = {"count": len(state["property_deck"])}
    trump = state["trump"]
    if trump is not None and state["bottom"] is None:
        # drawn: which copy is where may be secret again; the suit stays public
        seen["trump"] = {"card": None, "suit": trump["suit"]}
    seen["fighters_in_play"] = powers_in_play(state)
    return seen


def powers_in_play(state: RaidersState) -> list[dict]:
    """Each fighter in play with its power now (RAI-20: it may be negative).

    >>> from service.games.raiders import GAME
    >>> state = {**GAME.new_game(2, {}, seed=1)[0], "capture": None,
    ...          "players": [{"holdings": {}}, {"holdings": {"club": "D-9"}}],
    ...          "modifiers": [{"card": "D-9", "amount": -3, "until": "turn"}]}
    >>> [guard] = powers_in_play(state)
    >>> guard["card"], guard["role"], guard["property"], guard["player"]
    ('D-9', 'guard', 'club', 1)
    >>> guard["printed_power"], guard["modifiers"], guard["power"]
    (4, -3, 1)
    """
    if before_first_turn(state):
        return []
    cat = Catalogue.of_state(state)
    capture = state["capture"]
    out = []
    for card, seat, role in fighters_in_play(state):
        printed = cat.fighter(card)["power"]
        bonus = power_bonus(state, card)
        prop = capture["property"] if capture is not None and role == "attacker" else next(
            p for p, g in state["players"][seat]["holdings"].items() if g == card)
        out.append({"card": card, "player": seat, "role": role, "property": prop,
                    "printed_power": printed, "modifiers": bonus,
                    "power": (printed or 0) + bonus})
    # canonical order (the attacker, then guards by seat and property): a view must not
    # depend on the key order of ``holdings``, which a JSON round trip may change
    out.sort(key=lambda f: (f["role"] != "attacker", f["player"], f["property"]))
    return out


def secret_cards(state: RaidersState, player: int | None) -> set[str]:
    secret = set(state["fighter_deck"]) | set(state["property_deck"])
    for seat, p in enumerate(state["players"]):
        if seat != player:
            secret.update(p["hand"])
    return secret


def determinize(state: RaidersState, player: int | None, seed: int) -> dict:
    """Re-deal the cards ``player`` cannot locate (others' hands + the fighter
    deck) at random, keeping every hand size; new chance seed.

    A function of ``view(state, player)`` and ``seed`` only: the pool is
    sorted before the seeded shuffle, the property deck (an unordered
    multiset) comes out sorted, and a drawn trump card (only its suit is
    shown) becomes the first card of that suit in the deck list.
    """
    rng = random.Random(seed)
    others = [seat for seat in range(len(state["players"])) if seat != player]
    pool = list(state["fighter_deck"])
    for seat in others:
        pool.extend(state["players"][seat]["hand"])
    pool.sort()
    rng.shuffle(pool)
    out: dict[str, Any] = dict(state)
    players: list[Player] = list(state["players"])
    at = 0
    for seat in others:
        size = len(players[seat]["hand"])
        players[seat] = {**players[seat], "hand": pool[at:at + size]}
        at += size
    out["players"] = players
    out["fighter_deck"] = sorted(pool[at:])
    out["property_deck"] = sorted(state["property_deck"])
    trump = state["trump"]
    if trump is not None and state["bottom"] is None:
        cat = Catalogue.of_state(state)
        out["trump"] = {"card": next(
            c for c in cat.fighter_deck(state["options"]["double_deck"])
            if cat.fighter(c)["suit"] == trump["suit"]), "suit": trump["suit"]}
    out["chance"] = {**state["chance"], "seed": seed & ((1 << 63) - 1), "counter": 0}
    return out
