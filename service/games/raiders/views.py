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
from collections import Counter
from typing import Any, cast

from service.games.base import view_marker
from service.games.errors import InvalidState
from service.games.messages import N_
from service.games.objects import JsonObject
from service.games.raiders.cards import Catalogue
from service.games.raiders.power import power_bonus
from service.games.raiders.state import before_first_turn
from service.games.raiders.state_types import Player, RaidersState
from service.games.raiders.table import fighters_in_play


def hide(state: RaidersState, player: int | None) -> JsonObject:
    seen: JsonObject = dict(state)
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


def powers_in_play(state: RaidersState) -> list[JsonObject]:
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


def determinize(state: RaidersState, player: int | None, seed: int) -> RaidersState:
    """Re-deal the cards ``player`` cannot locate (others' hands + the fighter
    deck) at random, keeping every hand size; new chance seed.

    A function of ``view(state, player)`` and ``seed`` only: the pool is
    sorted before the seeded shuffle, the property deck (an unordered
    multiset) comes out sorted, and a drawn trump card (only its suit is
    shown) becomes the first card of that suit in the deck list.
    ``state_from_view`` builds the same state from the view itself.
    """
    others = [seat for seat in range(len(state["players"])) if seat != player]
    pool = list(state["fighter_deck"])
    for seat in others:
        pool.extend(state["players"][seat]["hand"])
    return _redeal(state, others, pool, sorted(state["property_deck"]), seed)


#: what a view adds to a state (``hide``, ``Game.view``)
VIEW_ONLY = ("fighters_in_play", "view")


def state_from_view(view: JsonObject, seed: int, rules_version: str) -> RaidersState:
    """``determinize`` from ``view(state, player)`` alone: the hidden fighters
    are every card of the fighter deck but those the view locates (the
    discard, the bottom card, the player's own hand, the guards, a capture's
    attacker: RAI-1), the property deck every property but the centre and the
    holdings; the hand sizes and the deck size are the counts the view shows.

    >>> from service.games.raiders import GAME
    >>> state, _ = GAME.new_game(3, {}, seed=4)
    >>> state_from_view(GAME.view(state, 1), 9, GAME.rules_version) == GAME.determinize(
    ...     state, 1, 9)
    True
    """
    player = view_marker(view, "raiders", rules_version)["player"]
    # the view's fields, read as a state's: every hidden zone is rebuilt below
    state = cast(RaidersState, {k: v for k, v in view.items() if k not in VIEW_ONLY})
    cat = Catalogue.of_state(state)
    double = state["options"]["double_deck"]
    located: Counter[str] = Counter(state["discard"])
    if state["bottom"] is not None:
        located[state["bottom"]] += 1
    if state["capture"] is not None:
        located[state["capture"]["fighter"]] += 1
    for seat, p in enumerate(state["players"]):
        located.update(p["holdings"].values())
        if seat == player:
            located.update(p["hand"])
    pool = sorted((Counter(cat.decks[("fighters", double)]) - located).elements())
    others = [seat for seat in range(len(state["players"])) if seat != player]
    hidden = [_count(state["players"][seat]["hand"], f"view.players.{seat}.hand")
              for seat in others] + [_count(state["fighter_deck"], "view.fighter_deck")]
    if sum(hidden) != len(pool):
        raise InvalidState({"view.fighter_deck": [N_(
            "the hidden hands and the deck hold {held} cards, but {left} fighter cards are "
            "not in sight: this is not a view of a Raiders state", held=sum(hidden),
            left=len(pool))]})
    in_play = Counter(state["centre"]) + Counter(
        prop for p in state["players"] for prop in p["holdings"])
    properties = sorted((Counter(cat.decks[("properties", double)]) - in_play).elements())
    if len(properties) != _count(state["property_deck"], "view.property_deck"):
        raise InvalidState({"view.property_deck": [N_(
            "{count} properties are not in sight, not the count shown",
            count=len(properties))]})
    # the other hands as lists of their sizes: ``_redeal`` reads only the sizes
    sizes = dict(zip(others, hidden, strict=False))
    state["players"] = [p if seat == player else {**p, "hand": [""] * sizes[seat]}
                        for seat, p in enumerate(state["players"])]
    return _redeal(state, others, pool, properties, seed)


def _count(zone: Any, path: str) -> int:
    if isinstance(zone, dict) and isinstance(zone.get("count"), int):
        return int(zone["count"])
    raise InvalidState({path: [N_("a hidden zone of a view is an object with its `count`")]})


def _redeal(state: RaidersState, others: list[int], pool: list[str],
            property_deck: list[str], seed: int) -> RaidersState:
    """The other players' hands and the fighter deck dealt (seeded) from ``pool``,
    keeping their sizes; the sorted ``property_deck``; a drawn trump card as the
    first card of its suit; a fresh chance seed."""
    rng = random.Random(seed)
    pool = sorted(pool)
    rng.shuffle(pool)
    out = state.copy()
    players: list[Player] = list(state["players"])
    at = 0
    for seat in others:
        size = len(players[seat]["hand"])
        players[seat] = {**players[seat], "hand": pool[at:at + size]}
        at += size
    out["players"] = players
    out["fighter_deck"] = sorted(pool[at:])
    out["property_deck"] = property_deck
    trump = state["trump"]
    if trump is not None and state["bottom"] is None:
        cat = Catalogue.of_state(state)
        out["trump"] = {"card": next(
            c for c in cat.fighter_deck(state["options"]["double_deck"])
            if cat.fighter(c)["suit"] == trump["suit"]), "suit": trump["suit"]}
    out["chance"] = {**state["chance"], "seed": seed & ((1 << 63) - 1), "counter": 0}
    return out
