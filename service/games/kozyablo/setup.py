"""Setup, draws and mulligans (KOZ-7 … KOZ-10).

Decks are unordered multisets (``service.games.chance``): every card that
comes off a deck is a chance node ``{"type": "reveal", "seat", "face": card id}``
weighted by the copies left.  ``state["queue"]`` holds the reveals still to
happen, in order, and the mulligan's "shuffle the chosen cards back"
instruction, which runs by itself once the three discards are revealed.
"""

from __future__ import annotations

from functools import cache

from service.games.chance import count_weights, draw_below
from service.games.draft import Draft
from service.games.errors import InvalidSetup, RuleViolation
from service.games.kozyablo.cards import Catalogue, face, instance_ids
from service.games.kozyablo.deck import validate_deck
from service.games.kozyablo.state_types import KozyabloState, Queued
from service.games.messages import N_, joined
from service.games.objects import ActionObject, Entry, Event, JsonObject

#: KOZ-10: turn order by race
RACE_ORDER = ("pozorki", "trutni", "kozly", "zhloby")
HAND_SIZE, MULLIGAN_DISCARDS, MAX_MULLIGANS = 6, 3, 3


def choose_races(seed: int, count: int) -> list[str]:
    """Different races for ``count`` players, chosen by the seed.

    Uses its own stream of the seed (counter from 2**40) so it never reuses
    the numbers of the game's chance nodes.

    >>> choose_races(7, 2) == choose_races(7, 2)
    True
    >>> len(set(choose_races(3, 2)))
    2
    """
    rng = {"seed": seed, "counter": 1 << 40}
    left = list(RACE_ORDER)
    return [left.pop(draw_below(rng, len(left))) for _ in range(count)]


def resolve_decks(cat: Catalogue, setups: list[JsonObject]) -> list[JsonObject]:
    """The deck of each player setup; every violation of every deck at once."""
    decks, violations = [], []
    for i, s in enumerate(setups):
        if "deck" in s and "race" in s:
            violations.append({"rule": "KOZ-1", "player": i, "cards": [],
                               "reason": N_("give either a deck or a reference race, not both")})
            continue
        if "deck" in s:
            deck = s["deck"]
            for v in validate_deck(cat, deck):
                violations.append({**v, "player": i})
        else:
            race = s.get("race")
            if race not in cat.decks:
                violations.append({"rule": "KOZ-1", "player": i, "cards": [],
                                   "reason": N_("no reference deck for race {race!r}; known: "
                                                "{items}", race=race,
                                                items=joined(sorted(cat.decks)))})
                continue
            deck = cat.decks[race]
        decks.append(deck)
    if violations:
        raise InvalidSetup(violations)
    return decks


def initial_state(cat: Catalogue, setups: list[JsonObject], decks: list[JsonObject]
                  ) -> JsonObject:
    """KOZ-7/KOZ-8: capitals and sectors out (sectors neutral), six draws queued."""
    players, sectors, queue = [], {}, []
    for seat, (s, deck) in enumerate(zip(setups, decks, strict=True)):
        cap = f"{seat}.{deck['capital']}"
        race = cat.capitals[deck["capital"]]["race"]
        cards = instance_ids(seat, deck["cards"])
        secs = [f"{seat}.{k}" for k in deck["sectors"]]
        sectors[cap] = {"kind": "capital", "owner": seat, "controller": seat}
        for sid, kind in zip(secs, deck["sectors"], strict=True):
            sectors[sid] = {"kind": kind, "owner": seat, "controller": None}
        players.append({
            "name": s.get("name", f"Player {seat + 1}"), "race": race, "capital": cap,
            "hand": [], "deck": sorted(cards), "discard": [], "aside": [],
            "cards": sorted([cap, *secs, *cards]), "mulligans": 0, "ready": False,
            "dead_heroes": [], "capital_damage": 0, "out": False})
        queue += [{"seat": seat, "to": "hand"}] * HAND_SIZE
    return {"players": players, "order": ordered([p["race"] for p in players], []),
            "active": None, "sectors": sectors,
            "units": {}, "buildings": {}, "lasting": {}, "queue": queue, "declared": None,
            "responder": None, "used": [], "combat": None, "effect": None,
            "phase": "setup"}


def ordered(races: list[str], order: list[int]) -> list[int]:
    """KOZ-10: ``order`` (seats placed so far) extended by race while that needs no lot.

    A race group of several players not yet placed waits for a lot (RULING KOZ-51:
    2 to 4 players); the order is complete once every seat is placed.

    >>> ordered(["kozly", "pozorki", "kozly"], [])
    [1]
    >>> ordered(["kozly", "pozorki", "kozly"], [1, 2])
    [1, 2, 0]
    >>> ordered(["zhloby", "trutni"], [])
    [1, 0]
    """
    out = list(order)
    left = [s for s in range(len(races)) if s not in out]
    for race in RACE_ORDER:
        group = [s for s in left if races[s] == race]
        if len(group) > 1:
            break
        out += group
    return out


def deck_left(state: KozyabloState, seat: int) -> int:
    """Cards in ``seat``'s deck not already promised to a queued draw."""
    return len(state["players"][seat]["deck"]) - sum(
        1 for q in state["queue"] if q.get("seat") == seat and "to" in q)


def lot_due(state: KozyabloState) -> bool:
    """KOZ-10: the turn order waits for a lot (the chance node before the reveals)."""
    return state["phase"] == "setup" and len(state["order"]) < len(state["players"])


def lot_group(state: KozyabloState) -> list[int]:
    """KOZ-10: the players of one race whose order the next lot decides."""
    races = [p["race"] for p in state["players"]]
    left = [s for s in range(len(races)) if s not in state["order"]]
    first = min(RACE_ORDER.index(races[s]) for s in left)
    return [s for s in left if RACE_ORDER.index(races[s]) == first]


def lot_outcomes(state: KozyabloState) -> list[tuple[JsonObject, int]]:
    """KOZ-10: who goes first among players of the same race — a fair lot."""
    return [({"type": "lot", "player": "chance", "first": s}, 1) for s in lot_group(state)]


def reveal_outcomes(state: KozyabloState) -> list[tuple[JsonObject, int]]:
    seat = state["queue"][0]["seat"]
    return [(_reveal(seat, f), n) for f, n in count_weights(state["players"][seat]["deck"], face)]


def pick_reveal(rng: JsonObject, state: KozyabloState) -> JsonObject:
    """The reveal ``pick_weighted`` draws from ``reveal_outcomes``, with the same
    number, without building every outcome (most steps of a game draw a card): the
    outcomes are the faces in order, each as often as its copies, so the ``r``-th
    of the deck's sorted faces is the one the weights give."""
    seat = state["queue"][0]["seat"]
    deck = state["players"][seat]["deck"]
    return _reveal(seat, sorted(map(face, deck))[draw_below(rng, len(deck))])


def _reveal(seat: int, card_face: str) -> JsonObject:
    return {"type": "reveal", "player": "chance", "seat": seat, "face": card_face}


def resolve_lot(draft: Draft[KozyabloState], action: ActionObject, events: list[Event]) -> None:
    """KOZ-10: ``first`` goes next among its race; the order runs on by race (the
    last of a group needs no lot)."""
    root = draft.root
    group = [s for s in lot_group(root) if s != action["first"]]
    order = root["order"] + [action["first"]] + (group if len(group) == 1 else [])
    root["order"] = ordered([p["race"] for p in root["players"]], order)
    events.append({"type": "lot", "first": action["first"], "rule": "KOZ-10"})


def resolve_reveal(draft: Draft[KozyabloState], action: ActionObject, events: list[Event]) -> None:
    """The top card turned out to be ``card``: into the hand or the discard."""
    seat, fid = action["seat"], action["face"]
    head = draft.at("queue").pop(0)
    deck = draft.at("players", seat, "deck")
    card = deck.pop(list(map(face, deck)).index(fid))  # the first copy of that face
    draft.at("players", seat, head["to"]).append(card)
    events.append({"type": "drawn" if head["to"] == "hand" else "milled", "player": seat,
                   "card": card})
    drain(draft, events)


def drain(draft: Draft[KozyabloState], events: list[Event]) -> None:
    """Run queued instructions that need no chance (a mulligan's shuffle back)."""
    root = draft.root
    while root["queue"] and "do" in root["queue"][0]:
        seat = draft.at("queue").pop(0)["seat"]
        aside = root["players"][seat]["aside"]
        p = draft.at("players", seat)
        p["deck"] = sorted(p["deck"] + aside)
        p["aside"] = []
        events.append({"type": "shuffled_back", "player": seat, "count": len(aside)})
        drawn: list[Queued] = [{"seat": seat, "to": "hand"}] * len(aside)
        draft.root["queue"] = drawn + root["queue"]


def mulligans(state: KozyabloState, entry: Entry) -> list[JsonObject]:
    """KOZ-9: every set of hand cards ``entry``'s player may mulligan (none after three)."""
    seat = entry["player"]
    p = state["players"][seat]
    if p["mulligans"] >= MAX_MULLIGANS:
        return []
    hand = p["hand"]
    chosen: list[list[str]] = [[]]  # by bit mask (bit i: the hand's card i), in mask order
    for rest, top in subset_steps(len(hand)):
        chosen.append([*chosen[rest], hand[top]])
    return [{"type": "mulligan", "player": seat, "cards": cards} for cards in chosen[1:]]


@cache
def subset_steps(n: int) -> tuple[tuple[int, int], ...]:
    """How each non-empty subset of positions ``0 … n-1`` grows from a smaller one, in
    bit-mask order (bit i: position i): mask ``m`` is mask ``rest`` plus position ``top``,
    its highest.

    >>> subset_steps(2)  # {0} = {} + 0, {1} = {} + 1, {0, 1} = {0} + 1
    ((0, 0), (0, 1), (1, 1))
    """
    return tuple((mask ^ (1 << (mask.bit_length() - 1)), mask.bit_length() - 1)
                 for mask in range(1, 1 << n))


def check_mulligan(state: KozyabloState, action: ActionObject) -> None:
    """KOZ-9: at most three mulligans, of different cards from the hand."""
    p = state["players"][action["player"]]
    if p["mulligans"] >= MAX_MULLIGANS:
        raise RuleViolation("KOZ-9", N_("at most three mulligans"))
    cards = action["cards"]
    if len(set(cards)) != len(cards) or not set(cards) <= set(p["hand"]):
        raise RuleViolation("KOZ-9", N_("mulligan different cards from your hand"))


def mulligan(draft: Draft[KozyabloState], action: ActionObject, events: list[Event]) -> None:
    """KOZ-9: top 3 to the discard, the chosen cards back, as many drawn."""
    seat, cards = action["player"], action["cards"]
    p = draft.at("players", seat)
    p["hand"] = [c for c in p["hand"] if c not in cards]
    p["aside"] = list(cards)
    p["mulligans"] += 1
    if p["mulligans"] >= MAX_MULLIGANS:
        p["ready"] = True
    n = min(MULLIGAN_DISCARDS, len(p["deck"]))
    draft.at("queue").extend([{"seat": seat, "to": "discard"}] * n + [{"seat": seat, "do": "back"}])
    events.append({"type": "mulligan", "player": seat, "count": len(cards),
                   "number": p["mulligans"], "rule": "KOZ-9"})
    drain(draft, events)
