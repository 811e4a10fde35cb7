"""``tremble.search_risk``: will an army interrupt this search? (TRE-22, TRE-24)

For a search in progress, or a city the asking player could search, the
exact chance (rationals) that an army is revealed before the search pays,
the chance of being paid when fighting every army with the searching fleet
(TRE-24: strength + 2d6 >= the army's strength), the chance that the city
deck runs out first (TRE-28: an unfinished search pays nothing), and the
expected people of raiding against searching.

What is left in the city deck is what the asking player can know: each pile
of the deck (TRE-3 … TRE-5) is the multiset of its cards not yet seen —
its composition minus every card revealed — with the number removed unseen
at setup; the next card is uniform over the unseen cards of the top pile,
and the last ``removed`` of a pile are never revealed.  This is exactly the
engine's model of the piles (``state["piles"]``), derived from open
information only, so the evaluation never peeks.

Exposure (TRE-13, TRE-22, TRE-28, TRE-30), as the engine plays it
(``service.games.tremble.flow``): a search set in the reward phase of turn T
with countdown c (2, or 1 with a search-tempo ship) counts down at the end
of every later turn and is paid at the end of turn T + c.  The intel phase
of every turn reveals cards until every city slot is filled (4, 5 or 6 by
player count; armies do not fill slots) or the deck runs out, and the game
ends after a turn in which the deck ran out (TRE-28: a search still
counting pays nothing, ``search_unfinished``).  So the search is exposed to
a list of *phases*, each ``(cities to reveal, armed)``:

* the rest of the current turn's intel, if any: armed for a search in
  progress; unarmed (it only uses up cards) for a search not yet set;
* the intel phase of each later turn until the one at whose end it is paid;

and every phase of a later turn happens only if the deck still has a card
when that turn begins.  An army already revealed and waiting for this
search (``state.army``: its abandon-or-fight choice or its roll, TRE-24)
is met first, before any other card: the answer then has ``army_now``
(that army, and the chance the search holds against it — 0 once beaten),
an army probability of 1 and a hold probability at most that chance.
``reveals`` lists the cities of each phase the search is exposed to,
``reveals_before_search`` the cities this turn still reveals before a
search not yet set.

Assumed (and checked by the tests on random games): every slot is empty
again at the start of each later intel phase — each open city is raided,
searched, captured or discarded every turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, cast

from service.games import shape
from service.games.errors import MalformedInput
from service.games.kind import Kind, Progress
from service.games.messages import N_, joined
from service.games.registry import get_game
from service.games.tremble.battle import side_strength
from service.games.tremble.cards import Catalogue
from service.games.tremble.evaluations.odds import fraction_text, hold_probability
from service.games.tremble.intel import SLOTS
from service.games.tremble.reward import search_countdown
from service.games.tremble.state_types import TrembleState
from service.limits import MAX_ID_LENGTH

PHASES_BEFORE_INTEL = ("missions", "start", "buy")

Phase = tuple[int, bool]  # (cities to reveal, armies revealed then threaten the search)
#: a pile of the city deck: (cities, the unseen armies' ids sorted, cards never revealed)
Pile = tuple[int, tuple[str, ...], int]


def exposure(state: dict[str, Any], countdown: int, in_progress: bool, slots: int) -> list[Phase]:
    """The intel phases ahead of a search: first the rest of this turn's
    (0 cities once this turn's intel is over), then one per later turn.

    ``in_progress``: a search already set (``state.searches``) — it counts
    down at the end of this turn unless it was set this turn; otherwise
    (a search about to be set this turn) it is exposed to the next
    ``countdown`` turns only.

    >>> exposure({"phase": "plan", "slots": [None] * 4}, 2, False, 4)
    [(0, False), (4, True), (4, True)]
    >>> exposure({"phase": "intel", "slots": ["C-1", None, None, None]}, 2, False, 4)
    [(3, False), (4, True), (4, True)]
    >>> exposure({"phase": "intel", "slots": [None] * 4}, 2, True, 4)
    [(4, True), (4, True)]
    >>> exposure({"phase": "reward", "slots": [None] * 4}, 1, True, 4)
    [(0, True)]
    """
    phase = state["phase"]
    if phase in PHASES_BEFORE_INTEL:
        now = slots
    elif phase == "intel":
        now = sum(1 for c in state["slots"] if c is None)
    else:
        now = 0
    if in_progress:  # paid at the end of this turn + (countdown - 1)
        return [(now, True)] + [(slots, True)] * (countdown - 1)
    return [(now, False)] + [(slots, True)] * countdown


def window_value(piles: tuple[Pile, ...], phases: Sequence[Phase], weights: dict[str, Fraction],
                 exhaustion_fails: bool) -> Fraction:
    """E[product of ``weights`` of the armies revealed in armed phases], with
    0 when the game ends before the search pays (if ``exhaustion_fails``).

    ``piles``: ``((cities, armies_tuple, removed), ...)`` top pile first,
    ``armies_tuple`` the sorted army ids still unseen in that pile (the last
    ``removed`` cards of a pile are never revealed, TRE-3/TRE-4).
    ``phases``: ``((cities, armed), ...)`` as ``exposure`` lists them: the
    first is the rest of the turn being played (it happens whatever the deck
    holds); every other is a later turn, played only if the deck had a card
    left at the end of the turn before (TRE-28).
    """
    return _window(piles, tuple(phases), tuple(sorted(weights.items())), exhaustion_fails,
                   False)


@lru_cache(maxsize=8192)
def _window(piles: tuple[Pile, ...], phases: tuple[Phase, ...],
            weights: tuple[tuple[str, Fraction], ...], fails: bool, new_turn: bool) -> Fraction:
    if not phases:
        return Fraction(1)
    if new_turn and not _has_cards(piles):  # the game ended after the turn before
        return Fraction(0) if fails else Fraction(1)
    need, armed = phases[0]
    # the top pile with cards left to reveal
    while piles and piles[0][0] + len(piles[0][1]) <= piles[0][2]:
        piles = piles[1:]
    if need == 0 or not piles:  # this phase is over (slots full, or the deck ran out)
        return _window(piles, phases[1:], weights, fails, True)
    cities, armies, removed = piles[0]
    total = cities + len(armies)
    w = dict(weights)
    value = Fraction(0)
    if cities:
        after = ((cities - 1, armies, removed),) + piles[1:]
        value += Fraction(cities, total) * _window(after, ((need - 1, armed),) + phases[1:],
                                                   weights, fails, False)
    for k, army in enumerate(armies):
        if k and army == armies[k - 1]:
            continue
        copies = armies.count(army)
        after = ((cities, armies[:k] + armies[k + 1:], removed),) + piles[1:]
        weight = w[army] if armed else 1
        if weight:
            value += Fraction(copies, total) * weight * _window(after, phases, weights, fails,
                                                                False)
    return value


def _has_cards(piles: tuple[Pile, ...]) -> bool:
    return any(c + len(a) > r for c, a, r in piles)


def waiting_army(state: dict[str, Any], player: int, city: str) -> tuple[str, int, bool] | None:
    """The army already revealed that this search must still meet (TRE-24):
    ``(card, strength, beaten)`` — ``beaten`` when it has already lost the
    roll and only the lost ship is still to be chosen — or ``None``."""
    army = state["army"]
    if army is None:
        return None
    loser = army["loser"]
    if loser is not None and (loser["player"], loser["city"]) == (player, city):
        return army["card"], army["strength"], True
    if any((c["player"], c["city"]) == (player, city) for c in army["choices"]):
        return army["card"], army["strength"], False
    return None


class SearchRisk(Kind):
    name = "tremble.search_risk"
    games = ("tremble",)
    description = ("For a search in progress or a city the player could search: the exact "
                   "chance that an army is revealed before the search pays, the chance of "
                   "being paid when fighting every army (TRE-24), the chance the deck runs "
                   "out first (TRE-28), and the expected people of raid against search "
                   "(TRE-22), from what is left in the city deck as the player can know it.")
    inputs = {"state": shape.Any_(description="A full Tremble state.")}
    params = {
        "player": shape.Int(minimum=0, maximum=4, description="the asking player (required)"),
        "city": shape.Str(max_length=MAX_ID_LENGTH, description="a city they search, or could "
                                                                "search (required)"),
        "ships": shape.ListOf(shape.Str(max_length=MAX_ID_LENGTH), min_items=1, max_items=5,
                              description="the ships that would stay to search (default: "
                                          "those searching, or those that won the city)"),
    }
    caps = {"players": 5}

    def prepare(self, request: dict[str, Any]) -> dict[str, Any]:
        game = get_game("tremble")
        if "state" not in request:
            raise MalformedInput({"state": [N_("missing required field: the game state")]})
        # a state of an older served rules version is carried over (Game.upgrade_state)
        upgraded = request["state"] = game.upgrade_state(request["state"])[0]
        game.validate_state(upgraded)
        state = cast(TrembleState, upgraded)  # validated just now: a tremble state
        params = request.get("params", {})
        errors: dict[str, list[str]] = {f"params.{k}": [N_("missing required field")]
                                        for k in ("player", "city") if k not in params}
        if errors:
            raise MalformedInput(errors)
        player, city = params["player"], params["city"]
        if player >= len(state["players"]):
            raise MalformedInput({"params.player": [
                N_("must be a seat from 0 to {last}", last=len(state["players"]) - 1)]})
        if state["result"] is not None:
            raise MalformedInput({"state.result": [N_("the game is over: nothing to search")]})
        search = next((s for s in state["searches"]
                       if s["city"] == city and s["player"] == player), None)
        if search is not None:
            ships = params.get("ships", search["ships"])
            if sorted(ships) != sorted(search["ships"]):
                raise MalformedInput({"params.ships": [
                    N_("a search in progress keeps its ships: {items}",
                       items=joined(search["ships"]))]})
            countdown, started_now = search["countdown"], search["since"] == state["turn"]
        else:
            won = next((a for a in state["attacks"] if a["city"] == city and a["resolved"]
                        and a["sides"] and a["sides"][0]["status"] == "won"
                        and a["sides"][0]["player"] == player), None)
            if won is None and city not in state["slots"]:
                raise MalformedInput({"params.city": [
                    N_("{city!r} is neither a search of player {player} nor an open city",
                       city=city, player=player)]})
            if "ships" in params:
                ships = params["ships"]
                allowed = won["sides"][0]["ships"] if won else state["players"][player]["hand"]
                bad = [s for s in ships if s not in allowed]
                if bad:
                    raise MalformedInput({"params.ships": [
                        N_("not among the ships that won the city: {items}", items=joined(bad))
                        if won else N_("not in the player's hand: {items}", items=joined(bad))]})
            elif won is not None:
                ships = won["sides"][0]["ships"]
            else:
                raise MalformedInput({"params.ships": [
                    N_("required for a city not yet won: the ships that would search")]})
            countdown, started_now = None, True
        return {"game": "tremble", "state": state, "player": player, "city": city,
                "ships": list(ships), "countdown": countdown, "started_now": started_now}

    def run_chunk(self, plan: dict[str, Any], chunk: dict[str, Any],
                  progress: Progress) -> dict[str, Any]:
        state, city, ships = plan["state"], plan["city"], plan["ships"]
        cat = Catalogue.of_state(state)
        countdown = plan["countdown"]
        in_progress = countdown is not None
        if not in_progress:
            countdown = search_countdown(cat, ships)
        elif plan["started_now"]:  # set this turn: counts down from the next turn on
            in_progress = False
        phases = tuple(exposure(state, countdown, in_progress, SLOTS[len(state["players"])]))
        fleet = side_strength(cat, ships, city)
        piles = tuple(
            (sum(1 for c in p["candidates"] if c not in cat.armies),
             tuple(sorted(c for c in p["candidates"] if c in cat.armies)), p["removed"])
            for p in state["piles"])
        armies = sorted({a for p in piles for a in p[1]})
        hold = {a: hold_probability(fleet, cat.armies[a]["strength"]) for a in armies}
        zero = {a: Fraction(0) for a in armies}
        one = {a: Fraction(1) for a in armies}
        p_hold = window_value(piles, phases, hold, True)
        p_clear = window_value(piles, phases, zero, True)
        p_finish = window_value(piles, phases, one, True)
        p_no_army = window_value(piles, phases, zero, False)
        waiting = waiting_army(state, plan["player"], city) if plan["countdown"] else None
        army_now = None
        if waiting is not None:  # met before any other card (TRE-24)
            card, power, beaten = waiting
            hold_now = Fraction(0) if beaten else hold_probability(fleet, power)
            p_hold *= hold_now
            p_clear = p_no_army = Fraction(0)
            army_now = {"army": card, "strength": power, "beaten": beaten,
                        "hold": float(hold_now), "hold_exact": fraction_text(hold_now)}
        progress(1, 1)
        values = cat.cities[city]
        exact = {
            "army_probability": 1 - p_no_army,
            "hold_probability": p_hold,
            "clear_probability": p_clear,
            "unfinished_probability": 1 - p_finish,
        }
        out: dict[str, Any] = {k: float(v) for k, v in exact.items()}
        out.update({f"{k}_exact": fraction_text(v) for k, v in exact.items()})
        out.update({
            "player": plan["player"], "city": city, "ships": ships, "fleet_strength": fleet,
            "countdown": countdown,
            "reveals": [n for n, armed in phases if armed and n],
            "reveals_before_search": sum(n for n, armed in phases if not armed),
            "army_now": army_now,
            "armies_left": [{"army": a, "strength": cat.armies[a]["strength"],
                             "copies": sum(p[1].count(a) for p in piles),
                             "hold": float(hold[a]), "hold_exact": fraction_text(hold[a])}
                            for a in armies],
            "expected_people": {"raid": values["raid"],
                                "search": float(values["search"] * p_hold),
                                "search_if_undisturbed": values["search"]},
            "rules": ["TRE-13", "TRE-22", "TRE-24", "TRE-28", "TRE-30"],
        })
        return out

