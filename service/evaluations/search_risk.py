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

Exposure (TRE-13, TRE-22, TRE-30): a search set in the reward phase of turn
T with countdown c (2, or 1 with a search-tempo ship) is paid at the end of
turn T + c; the intel phases of turns T+1 … T+c reveal cards — each until
every city slot is filled again (4, 5 or 6 by player count; armies do not
fill slots) or the deck runs out.  The game ends after a turn in which the
deck ran out, so running out before the last exposed turn leaves the search
unfinished.

Assumed (and checked by the tests on random games): every slot is empty
again at the start of each later intel phase — each open city is raided,
searched, captured or discarded every turn.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from service.games import shape
from service.games.errors import MalformedInput
from service.games.registry import get_game

from .kinds import Kind, register
from .odds import fraction_text, hold_probability

PHASES_BEFORE_INTEL = ("missions", "start", "buy")


def exposure(state: dict, countdown: int, started_now: bool, slots: int) -> list[int]:
    """Cities to reveal in each intel phase the search must survive."""
    phase = state["phase"]
    empty_now = sum(1 for c in state["slots"] if c is None)
    if started_now:  # set this turn: turns T+1 .. T+c
        return [slots] * countdown
    current = []
    if phase in PHASES_BEFORE_INTEL:
        current = [slots]
    elif phase == "intel":
        current = [empty_now]
    return current + [slots] * (countdown - 1)


def window_value(piles: tuple, needs: tuple, weights: dict[str, Fraction],
                 exhaustion_fails: bool) -> Fraction:
    """E[product of ``weights`` of the armies revealed in the window], with 0
    when the deck runs out before the last phase (if ``exhaustion_fails``).

    ``piles``: ``((cities, armies_tuple, removed), ...)`` top pile first,
    ``armies_tuple`` the sorted army ids still unseen in that pile.
    """
    return _window(piles, needs, tuple(sorted(weights.items())), exhaustion_fails)


@lru_cache(maxsize=8192)
def _window(piles, needs, weights, fails) -> Fraction:
    if not needs:
        return Fraction(1)
    # the top pile with cards left to reveal
    while piles and piles[0][0] + len(piles[0][1]) <= piles[0][2]:
        piles = piles[1:]
    if not piles:  # the deck has run out during this phase
        if len(needs) > 1 and fails:
            return Fraction(0)
        return Fraction(1)
    need = needs[0]
    if need == 0:
        rest = needs[1:]
        if rest and fails and not _has_cards(piles):
            return Fraction(0)
        return _window(piles, rest, weights, fails)
    cities, armies, removed = piles[0]
    total = cities + len(armies)
    w = dict(weights)
    value = Fraction(0)
    if cities:
        after = ((cities - 1, armies, removed),) + piles[1:]
        value += Fraction(cities, total) * _window(after, (need - 1,) + needs[1:], weights, fails)
    for k, army in enumerate(armies):
        if k and army == armies[k - 1]:
            continue
        copies = armies.count(army)
        after = ((cities, armies[:k] + armies[k + 1:], removed),) + piles[1:]
        value += Fraction(copies, total) * w[army] * _window(after, needs, weights, fails)
    return value


def _has_cards(piles) -> bool:
    return any(c + len(a) > r for c, a, r in piles)


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
        "city": shape.Str(max_length=64, description="a city they search, or could search "
                                                     "(required)"),
        "ships": shape.ListOf(shape.Str(max_length=64), min_items=1, max_items=5,
                              description="the ships that would stay to search (default: "
                                          "those searching, or those that won the city)"),
    }
    caps = {"players": 5}

    def prepare(self, request: dict) -> dict:
        game = get_game("tremble")
        if "state" not in request:
            raise MalformedInput({"state": ["missing required field: the game state"]})
        state = request["state"]
        game.validate_state(state)
        params = request.get("params", {})
        errors = {f"params.{k}": ["missing required field"] for k in ("player", "city")
                  if k not in params}
        if errors:
            raise MalformedInput(errors)
        player, city = params["player"], params["city"]
        if player >= len(state["players"]):
            raise MalformedInput({"params.player": [
                f"must be a seat from 0 to {len(state['players']) - 1}"]})
        if state["result"] is not None:
            raise MalformedInput({"state.result": ["the game is over: nothing to search"]})
        search = next((s for s in state["searches"]
                       if s["city"] == city and s["player"] == player), None)
        if search is not None:
            ships = params.get("ships", search["ships"])
            if sorted(ships) != sorted(search["ships"]):
                raise MalformedInput({"params.ships": [
                    "a search in progress keeps its ships: " + ", ".join(search["ships"])]})
            countdown, started_now = search["countdown"], search["since"] == state["turn"]
        else:
            won = next((a for a in state["attacks"] if a["city"] == city and a["resolved"]
                        and a["sides"] and a["sides"][0]["status"] == "won"
                        and a["sides"][0]["player"] == player), None)
            if won is None and city not in state["slots"]:
                raise MalformedInput({"params.city": [
                    f"{city!r} is neither a search of player {player} nor an open city"]})
            if "ships" in params:
                ships = params["ships"]
                allowed = won["sides"][0]["ships"] if won else state["players"][player]["hand"]
                bad = [s for s in ships if s not in allowed]
                if bad:
                    raise MalformedInput({"params.ships": [
                        "not " + ("among the ships that won the city" if won else
                                  "in the player's hand") + ": " + ", ".join(bad)]})
            elif won is not None:
                ships = won["sides"][0]["ships"]
            else:
                raise MalformedInput({"params.ships": [
                    "required for a city not yet won: the ships that would search"]})
            countdown, started_now = None, True
        return {"game": "tremble", "state": state, "player": player, "city": city,
                "ships": list(ships), "countdown": countdown, "started_now": started_now}

    def run_chunk(self, plan, chunk, progress):
        from service.games.tremble.battle import side_strength
        from service.games.tremble.game import catalog_of
        from service.games.tremble.intel import SLOTS
        from service.games.tremble.reward import SEARCH_TURNS, TEMPO_TURNS

        state, city, ships = plan["state"], plan["city"], plan["ships"]
        cat = catalog_of(state)
        countdown = plan["countdown"]
        if countdown is None:
            tempo = any("search_tempo" in cat.ships[s]["abilities"] for s in ships)
            countdown = TEMPO_TURNS if tempo else SEARCH_TURNS
        needs = tuple(exposure(state, countdown, plan["started_now"],
                               SLOTS[len(state["players"])]))
        fleet = side_strength(cat, ships, city)
        piles = tuple(
            (sum(1 for c in p["candidates"] if c not in cat.armies),
             tuple(sorted(c for c in p["candidates"] if c in cat.armies)), p["removed"])
            for p in state["piles"])
        armies = sorted({a for p in piles for a in p[1]})
        hold = {a: hold_probability(fleet, cat.armies[a]["strength"]) for a in armies}
        zero = {a: Fraction(0) for a in armies}
        one = {a: Fraction(1) for a in armies}
        p_hold = window_value(piles, needs, hold, True)
        p_clear = window_value(piles, needs, zero, True)
        p_finish = window_value(piles, needs, one, True)
        p_no_army = window_value(piles, needs, zero, False)
        progress(1, 1)
        values = cat.cities[city]
        exact = {
            "army_probability": 1 - p_no_army,
            "hold_probability": p_hold,
            "clear_probability": p_clear,
            "unfinished_probability": 1 - p_finish,
        }
        out = {k: float(v) for k, v in exact.items()}
        out.update({f"{k}_exact": fraction_text(v) for k, v in exact.items()})
        out.update({
            "player": plan["player"], "city": city, "ships": ships, "fleet_strength": fleet,
            "countdown": countdown, "reveals": list(needs),
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


register(SearchRisk())
