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

``determinize`` and ``state_from_view`` are one rule, ``deal``: the cards a
player cannot locate are re-dealt (seeded) over the zone sizes their view
shows.  ``determinize`` takes those cards from the state's hidden zones;
``state_from_view``, holding only the view, takes every card of the set that
the view does not locate (``in_sight``).

>>> from service.games.tremble import GAME
>>> state, _ = GAME.new_game(2, {"missions": False}, seed=3)
>>> seen = GAME.view(state, 0)
>>> seen["players"][1]["hand"], seen["ship_deck"], seen["ship_discard"]
({'count': 1, 'flown': []}, {'count': 30}, {'count': 0, 'flown': []})
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple, cast

from service.games import shape as s
from service.games.base import COMMON_STATE_FIELDS, card_set_of, view_marker
from service.games.chance import draw_below
from service.games.errors import InvalidState
from service.games.messages import N_
from service.games.objects import Errors, JsonObject
from service.games.tremble import planning
from service.games.tremble.cards import Catalogue
from service.games.tremble.shapes import ID, PILE, PLAYER, SEAT, STATE_FIELDS
from service.games.tremble.state_types import TrembleState

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
    return sorted(set(cards).intersection(sent)) if sent else []


def hide(state: TrembleState, player: int | None) -> JsonObject:
    seen: JsonObject = dict(state)
    players: list[Any] = []
    sent = state["sent"]
    for p, pl in enumerate(state["players"]):
        if p == player:
            players.append(pl)
            continue
        q: JsonObject = dict(pl)
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


class Unseen(NamedTuple):
    """The cards a player cannot locate, by kind (in any order): what ``deal`` re-deals."""

    #: the ship deck, and the ship discard, other hands and offers but the ships that flew
    ships: list[str]
    #: the mission deck and every other player's missions
    missions: list[str]
    #: each city pile's candidates (``piles`` order)
    piles: list[list[str]]


def determinize(state: TrembleState, player: int | None, seed: int, cat: Catalogue
                ) -> TrembleState:
    """A state ``player`` cannot tell from ``state``: ``deal`` of what
    ``player`` cannot locate (``unseen``) over ``hide(state, player)``.

    A function of ``view(state, player)`` and ``seed`` only (TRE-33): ``deal``
    reads nothing else of the state, and the unseen cards only as multisets.
    """
    return deal(hide(state, player), player, unseen(state, player), seed, cat)


def unseen(state: TrembleState, player: int | None) -> Unseen:
    """The cards of ``state``'s zones hidden from ``player`` (``sent`` ships are seen)."""
    sent = set(state["sent"])
    ships = [*state["ship_deck"], *(s for s in state["ship_discard"] if s not in sent)]
    missions = list(state["mission_deck"])
    for p, pl in enumerate(state["players"]):
        if p != player:
            ships += [s for s in pl["hand"] if s not in sent]
            ships += pl["offer"]
            for zone in MISSION_ZONES:
                missions += pl[zone]
    return Unseen(ships, missions, [pile["candidates"] for pile in state["piles"]])


def deal(seen: JsonObject, player: int | None, cards: Unseen, seed: int, cat: Catalogue
         ) -> TrembleState:
    """The full state behind ``seen`` (``hide``'s or a view's form: hidden zones
    as counts, seen ``flown`` ships) with ``cards`` dealt (seeded) over the
    counts; other players' unrevealed orders and redeploy orders drawn again
    (seeded, from the listed ones for the new hands); a new chance seed.

    Pools are sorted before the shuffle and the decks and piles come out
    sorted, so only the multisets of ``cards`` matter.
    """
    rng = {"mode": "server", "seed": seed, "counter": 0}
    out: JsonObject = {k: v for k, v in seen.items() if k != "view"}
    # the state being dealt: the listers below read its dealt zones only
    dealt = cast(TrembleState, out)
    players: list[JsonObject] = list(seen["players"])
    others = [p for p in range(len(players)) if p != player]
    submitted = []
    for p in others:
        q = players[p] = dict(players[p])
        submitted.append((p, q["orders"]["submitted"], q["redeploy"]["submitted"]))
        q["orders"] = q["redeploy"] = None  # drawn below, once every hand is dealt
    # ships: each zone keeps the ships that flew into it (its place is public)
    pool = sorted(cards.ships)
    _shuffle(pool, rng)
    out["ship_deck"] = sorted(_take(pool, seen["ship_deck"]["count"]))
    discard = seen["ship_discard"]
    out["ship_discard"] = sorted(discard["flown"] + _take(pool, _unflown(discard)))
    for p in others:
        hand = players[p]["hand"]
        players[p]["hand"] = hand["flown"] + _take(pool, _unflown(hand))
        players[p]["offer"] = _take(pool, players[p]["offer"]["count"])
    # missions
    pool = sorted(cards.missions)
    _shuffle(pool, rng)
    out["mission_deck"] = sorted(_take(pool, seen["mission_deck"]["count"]))
    for p in others:
        for zone in MISSION_ZONES:
            players[p][zone] = _take(pool, players[p][zone]["count"])
    out["players"] = players
    out["piles"] = [{"mark": pile["mark"], "candidates": sorted(candidates),
                     "removed": pile["removed_unseen"]}
                    for pile, candidates in zip(seen["piles"], cards.piles, strict=True)]
    # secret orders (TRE-14) and redeploys (TRE-32): only "submitted" is seen
    for p, orders, redeploy in submitted:
        if orders:
            plans = planning.plan_actions(dealt, p)
            players[p]["orders"] = plans[draw_below(rng, len(plans))]["orders"]
        if redeploy:
            moves = planning.redeploy_actions(dealt, cat, p)
            players[p]["redeploy"] = moves[draw_below(rng, len(moves))]["moves"]
    out["chance"] = {"mode": seen["chance"]["mode"], "seed": seed, "counter": 0}
    return dealt


def _unflown(zone: JsonObject) -> int:
    """How many cards of a hidden zone (``{"count", "flown"}``) did not fly."""
    return int(zone["count"]) - len(zone["flown"])


def _take(pool: list[str], n: int) -> list[str]:
    """The first ``n`` cards of ``pool``, removed from it.

    >>> pool = ["a", "b", "c"]
    >>> _take(pool, 2), pool
    (['a', 'b'], ['c'])
    """
    taken = pool[:n]
    del pool[:n]
    return taken


def _shuffle(items: list[str], rng: JsonObject) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = draw_below(rng, i + 1)
        items[i], items[j] = items[j], items[i]


# ------------------------------------------------------------ from a view alone
def _counted(most: int, flown: bool = False) -> s.Obj:
    fields: dict[str, s.Spec] = {"count": s.Int(minimum=0, maximum=most)}
    if flown:
        fields["flown"] = s.ListOf(ID, max_items=most)
    return s.Obj(fields)


def _most(spec: s.Spec) -> int:
    """The most cards a zone of the state holds (its ``shapes`` list spec)."""
    assert isinstance(spec, s.ListOf)
    return spec.max_items


SUBMITTED = s.Obj({"submitted": s.Bool()})
#: another player's seat as a view shows it (``hide``)
HIDDEN_PLAYER = s.Obj({
    **PLAYER.required, "hand": _counted(_most(PLAYER.required["hand"]), flown=True),
    **{zone: _counted(_most(PLAYER.required[zone]))
       for zone in HIDDEN_PLAYER_ZONES if zone != "hand"},
    "orders": SUBMITTED, "redeploy": SUBMITTED})
#: a whole view (``Game.view``); the players are checked seat by seat
VIEW_SPEC = s.Obj({
    **COMMON_STATE_FIELDS, **STATE_FIELDS,
    "chance": s.Obj({"mode": s.Enum("server", "table")}),
    "players": s.ListOf(s.Obj({}, extra=True), min_items=2, max_items=5),
    "piles": s.ListOf(s.Obj({"mark": PILE.required["mark"], "cards_left": s.Int(minimum=0),
                             "removed_unseen": PILE.required["removed"]}),
                      min_items=2, max_items=2),
    **{deck: _counted(_most(STATE_FIELDS[deck]), flown=deck == "ship_discard")
       for deck in HIDDEN_DECKS},
    "view": s.Obj({"player": s.Nullable(SEAT)})},
    description="A Tremble player's view.")
#: zones of ``in_sight`` that hold ships only / missions only (the last part of a path)
SHIP_PATHS = ("hand", "offer", "flown", "ships")
MISSION_PATHS = MISSION_ZONES


def state_from_view(view: Any, seed: int, rules_version: str) -> TrembleState:
    """``determinize`` from ``view(state, player)`` alone: the same ``deal``,
    of every card of the set that the view does not locate, over the counts it
    shows.  A view that no state of this service has is refused, naming the
    field (``InvalidState``; another game, rules version or card set:
    ``IncompatibleState``).

    >>> from service.games.tremble import GAME
    >>> state, _ = GAME.new_game(3, {}, seed=4)
    >>> built = state_from_view(GAME.view(state, 1), 9, GAME.rules_version)
    >>> built == GAME.determinize(state, 1, 9), list(built) == list(state)
    (True, True)
    """
    player, cat = _read_view(view, rules_version)
    built = deal(view, player, _unseen_in_view(view, player, cat), seed, cat)
    again = {**hide(built, player), "chance": {"mode": built["chance"]["mode"]},
             "view": view["view"]}
    if again != view:  # e.g. a ``flown`` ship that did not fly
        raise InvalidState({s.first_difference(view, again, "view"): [
            N_("does not fit the rest of the view: no Tremble state has this view")]})
    return built


def _read_view(view: Any, rules_version: str) -> tuple[int | None, Catalogue]:
    """The viewer and the catalogue of a well-shaped Tremble view."""
    marker = view_marker(view, "tremble", rules_version)
    errors = s.field_errors(VIEW_SPEC, view, "view")
    player = marker["player"]
    if not errors and player is not None and player >= len(view["players"]):
        errors["view.view.player"] = [N_("must be a seat from 0 to {last} or null",
                                         last=len(view["players"]) - 1)]
    if not errors:
        for p, pl in enumerate(view["players"]):
            errors.update(s.field_errors(PLAYER if p == player else HIDDEN_PLAYER, pl,
                                  f"view.players.{p}"))
    if errors:
        raise InvalidState(errors)
    return player, Catalogue.of(card_set_of("tremble", view["card_set"], "view"))


def in_sight(view: JsonObject, player: int | None) -> dict[str, list[str]]:
    """The cards ``view`` locates, by zone path (``invariants.zones`` of a view:
    of a hidden zone, only the ships that flew into it).

    >>> from service.games.tremble import GAME
    >>> seen = GAME.view(GAME.new_game(2, {"missions": False}, seed=3)[0], 0)
    >>> located = in_sight(seen, 0)
    >>> located["players.0.hand"], located["players.1.hand.flown"], located["ship_discard.flown"]
    (['S-START'], [], [])
    """
    out = {"box": view["box"], "city_discard": view["city_discard"],
           "ship_discard.flown": view["ship_discard"]["flown"],
           "credit_supply": view["credit_supply"], "credits_returned": view["credits_returned"],
           "slots": [c for c in view["slots"] if c is not None]}
    for p, pl in enumerate(view["players"]):
        if p == player:
            for zone in HIDDEN_PLAYER_ZONES:
                out[f"players.{p}.{zone}"] = pl[zone]
        else:
            out[f"players.{p}.hand.flown"] = pl["hand"]["flown"]
        out[f"players.{p}.credits"] = pl["credits"]
        out[f"players.{p}.captured"] = pl["captured"]
    for i, a in enumerate(view["attacks"]):
        out[f"attacks.{i}.ships"] = [ship for side in a["sides"] for ship in side["ships"]]
    for i, sr in enumerate(view["searches"]):
        out[f"searches.{i}.city"] = [sr["city"]]
        out[f"searches.{i}.ships"] = sr["ships"]
    if view["army"] is not None:
        out["army.card"] = [view["army"]["card"]]
    return out


def _unseen_in_view(view: JsonObject, player: int | None, cat: Catalogue) -> Unseen:
    """Every card of the set that ``view`` does not locate, each where the view
    counts it: ships, missions, and cities and armies in the pile of their mark
    (TRE-3).  Each card in sight must be known and seen once (``_located``), and
    the hidden counts must add up to the cards left."""
    located = _located(view, player, cat)
    credits = [c for c in cat.credits if c not in located]
    if credits:  # credits are never hidden
        raise InvalidState({"view": [N_("cards missing from every zone: {items}",
                                        items=", ".join(credits))]})
    ships = [c for c in cat.ships if c not in located]
    missions = [c for c in cat.missions if c not in located]
    starred = {c: card["mark"] == "*" for c, card in (*cat.cities.items(), *cat.armies.items())
               if c not in located}
    piles = [[c for c, star in starred.items() if star == (pile["mark"] == "*")]
             for pile in view["piles"]]
    others = {p: pl for p, pl in enumerate(view["players"]) if p != player}
    flying = {"view.ship_discard": view["ship_discard"],
              **{f"view.players.{p}.hand": pl["hand"] for p, pl in others.items()}}
    errors: Errors = {}
    for path, zone in flying.items():
        if _unflown(zone) < 0:
            errors[path] = [N_("counts fewer cards than `flown` lists")]
    held = {"view.ship_deck": (view["ship_deck"]["count"] + _unflown(view["ship_discard"])
                               + sum(_unflown(pl["hand"]) + pl["offer"]["count"]
                                     for pl in others.values()), len(ships)),
            "view.mission_deck": (view["mission_deck"]["count"] + sum(
                pl[zone]["count"] for pl in others.values() for zone in MISSION_ZONES),
                len(missions)),
            "view.piles": (sum(map(len, piles)), len(starred))}
    for i, (pile, candidates) in enumerate(zip(view["piles"], piles, strict=True)):
        held[f"view.piles.{i}"] = (pile["cards_left"] + pile["removed_unseen"], len(candidates))
    for path, (count, left) in held.items():
        if count != left:
            errors.setdefault(path, []).append(N_(
                "the hidden counts add up to {held} cards, but {left} cards of this kind in "
                "the card set are not in sight", held=count, left=left))
    if errors:
        raise InvalidState(errors)
    return Unseen(ships, missions, piles)


def _located(view: JsonObject, player: int | None, cat: Catalogue) -> set[str]:
    """The cards ``view`` shows (``in_sight``), each a known card of its kind, once."""
    errors: Errors = {}
    located: set[str] = set()
    for path, cards in in_sight(view, player).items():
        zone = path.rsplit(".", 1)[-1]
        for card in cards:
            if card not in cat.card_ids:
                why = N_("unknown card {card!r}", card=card)
            elif card in located:
                why = N_("card {card!r} appears more than once", card=card)
            elif zone in SHIP_PATHS and card not in cat.ships:
                why = N_("{s} is not a ship", s=card)
            elif zone in MISSION_PATHS and card not in cat.missions:
                why = N_("{m} is not a mission", m=card)
            else:
                located.add(card)
                continue
            errors.setdefault(f"view.{path}", []).append(why)
    if errors:
        raise InvalidState(errors)
    return located
