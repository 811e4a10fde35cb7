"""``tremble.search_risk``: exact window odds against hand cases and against
a simulation of physically shuffled piles (TRE-3/TRE-4 removals unseen)."""

from __future__ import annotations

import functools
import random
from fractions import Fraction
from typing import Any

import pytest

from service.evaluations.kinds import prepare
from service.evaluations.runner import run_inline
from service.evaluations.stats import wilson
from service.games.errors import MalformedInput
from service.games.playout import RandomBot
from service.games.registry import get_game
from service.games.tremble.evaluations.search_risk import window_value


def test_tre24_hand_cases():
    """One pile: 2 cities and army A, nothing removed; one city to reveal.
    The army comes first with chance 1/3 (then the search must hold: TRE-24)."""
    piles = (((2, ("A",), 0)),)
    one = ((1, True),)
    assert window_value(piles, one, {"A": Fraction(0)}, True) == Fraction(2, 3)
    assert window_value(piles, one, {"A": Fraction(1, 2)}, True) == Fraction(2, 3) + Fraction(1, 6)
    # TRE-3/TRE-4: with 1 card removed unseen, 2 of the 3 cards are revealed
    # at most; the army appears before the first city with chance 1/3 still
    removed = ((2, ("A",), 1),)
    assert window_value(removed, one, {"A": Fraction(0)}, True) == Fraction(2, 3)
    # an unarmed phase (before the search is set) only uses cards up
    assert window_value(piles, ((1, False),), {"A": Fraction(0)}, True) == 1


def test_tre28_deck_running_out_leaves_the_search_unfinished():
    """Two phases of 2 cities but only 2 cities left: the deck runs out in the
    first turn, the game ends (TRE-28), the search is never paid."""
    piles = ((2, (), 0),)
    assert window_value(piles, ((2, True), (2, True)), {}, True) == 0
    # in the last exposed turn running out does not matter: paid first
    assert window_value(piles, ((2, True),), {}, True) == 1
    assert window_value(((1, (), 0),), ((2, True),), {}, True) == 1
    # the deck already empty in the last turn: no later turn, never paid
    assert window_value(((0, (), 0),), ((0, False), (4, True)), {}, True) == 0
    assert window_value(((0, (), 0),), ((0, True), (4, True)), {}, True) == 0
    assert window_value(((0, (), 0),), ((0, True),), {}, True) == 1


def _reward_state(seed: int = 11):
    """A 3-player Tremble state at a reward decision (random play, seeded)."""
    game = get_game("tremble")
    state, _ = game.new_game(3, {"missions": False}, seed=seed)
    rng, bot = random.Random(1), RandomBot()
    while state["result"] is None:
        entry = state["pending"][0]
        if entry["decision"] == "reward":
            return state, entry["player"]
        state, _ = game.apply(state, bot.choose(game, state, entry["player"], rng))
    raise AssertionError("no reward decision")


def _won_city(state, player):
    return next(a for a in state["attacks"] if a["resolved"]
                and a["sides"][0]["status"] == "won" and a["sides"][0]["player"] == player)


def _simulate(state, needs, hold, rng, n):
    """Shuffle each pile physically, drop the last `removed` cards (removed
    unseen), reveal phase by phase; fight every army (hold[a] = chance)."""
    game = get_game("tremble")
    armies = game.card_set(state).data["armies"]
    army_ids = {a["id"] for a in armies}
    paid = army_seen = 0
    for _ in range(n):
        deck = []
        for pile in state["piles"]:
            cards = list(pile["candidates"])
            rng.shuffle(cards)
            deck += cards[:len(cards) - pile["removed"]]
        ok, seen, pos = True, False, 0
        for k, need in enumerate(needs):
            got = 0
            while got < need and pos < len(deck):
                card = deck[pos]
                pos += 1
                if card in army_ids:
                    seen = True
                    if rng.random() >= hold[card]:
                        ok = False
                else:
                    got += 1
            if pos >= len(deck) and k < len(needs) - 1:
                ok = False  # TRE-28: the game ends before the search pays
                break
        paid += ok
        army_seen += seen
    return paid, army_seen


def test_tre22_tre24_search_risk_matches_a_physical_shuffle_simulation():
    state, player = _reward_state()
    city = _won_city(state, player)["city"]
    kind, plan = prepare({"game": "tremble", "kind": "tremble.search_risk", "state": state,
                          "params": {"player": player, "city": city}})
    result = run_inline(kind.name, plan)
    assert result["countdown"] in (1, 2) and len(result["reveals"]) == result["countdown"]
    hold = {a["army"]: a["hold"] for a in result["armies_left"]}
    n = 20_000
    paid, seen = _simulate(state, result["reveals"], hold, random.Random(7), n)
    for p, k in ((result["hold_probability"], paid), (result["army_probability"], seen)):
        lo, hi = wilson(k, n, z=3.29)
        assert lo <= p <= hi, (p, k / n)
    people = result["expected_people"]
    assert people["search"] == pytest.approx(people["search_if_undisturbed"]
                                             * result["hold_probability"])
    assert Fraction(result["hold_probability_exact"]) <= 1 - Fraction(
        result["unfinished_probability_exact"])


def test_search_in_progress_and_refusals():
    game = get_game("tremble")
    state, player = _reward_state()
    won = _won_city(state, player)
    ships = won["sides"][0]["ships"]
    state, _ = game.apply(state, {"type": "search", "player": player, "city": won["city"],
                                  "ships": ships})
    kind, plan = prepare({"game": "tremble", "kind": "tremble.search_risk", "state": state,
                          "params": {"player": player, "city": won["city"]}})
    result = run_inline(kind.name, plan)
    assert result["ships"] == ships
    bad = [
        ({"player": player}, "params.city"),
        ({"player": 9, "city": won["city"]}, "params.player"),
        ({"player": player, "city": "C-ATLANTIS"}, "params.city"),
        ({"player": player, "city": won["city"], "ships": ["S-NOPE"]}, "params.ships"),
    ]
    for params, field in bad:
        with pytest.raises(MalformedInput) as exc:
            prepare({"game": "tremble", "kind": "tremble.search_risk", "state": state,
                     "params": params})
        assert field in exc.value.errors, exc.value.errors


def test_search_risk_over_http(make_app):
    from .conftest import poll

    state, player = _reward_state()
    city = _won_city(state, player)["city"]
    request = {"game": "tremble", "kind": "tremble.search_risk", "state": state,
               "params": {"player": player, "city": city}}
    client = make_app().test_client()
    r = client.post("/v1/evaluations", json=request)
    assert r.status_code == 202, r.json
    body = poll(client, r.headers["Location"])
    assert body["status"] == "finished"
    kind, plan = prepare(request)
    assert body["result"] == run_inline(kind.name, plan)
    bad = client.post("/v1/evaluations", json={**request, "params": {"player": player}})
    assert bad.status_code == 400 and "params.city" in bad.json["errors"]


def test_tre13_every_slot_is_empty_again_when_a_turn_starts():
    """The exposure model's assumption: each later intel phase refills every
    slot (TRE-13), because every open city leaves its slot during a turn."""
    from service.games.tremble.intel import SLOTS

    game, bot = get_game("tremble"), RandomBot()
    starts = 0
    for seed in range(8):
        players = 2 + seed % 4
        state, _ = game.new_game(players, {"missions": False}, seed=seed)
        rng, turn = random.Random(seed), None
        while state["result"] is None:
            if state["phase"] == "buy" and state["turn"] != turn:
                turn = state["turn"]
                starts += 1
                assert sum(c is None for c in state["slots"]) == SLOTS[players]
            who = state["pending"][0]["player"]
            state, _ = game.apply(state, bot.choose(game, state, who, rng))
    assert starts > 50


# ---------------------------------------------------------------------------
# An independent exact model, written from the rules (not from the
# evaluation's phase windows): turn by turn, card by card, as the engine
# plays it.  Intel (TRE-13) reveals from the top pile with cards left (the
# last `removed` of a pile never come, TRE-3/TRE-4) until the slots are
# full or the deck is out; an army met by the search is fought with
# strength + 2d6 >= army (TRE-24, every 2d6 outcome counted); at the end of
# a turn the search counts down unless set that turn and is paid at 0
# (TRE-22, TRE-30), else the game ends if the deck is out (TRE-28).

def _model_strength(data: dict[Any, Any], ships: list[str], city: str) -> int:
    """TRE-29 from the card data: base strength plus each bonus once."""
    designs = {d["id"]: d for d in data["ships"]}
    city_type = next(c["type"] for c in data["cities"] if c["id"] == city)
    side = [designs[s.split("#")[0]] for s in ships]
    total = 0
    for i, ship in enumerate(side):
        total += ship["strength"]
        for bonus in ship.get("bonuses", []):
            if bonus["kind"] == "city_type" and bonus["city_type"] == city_type:
                total += bonus["amount"]
            elif bonus["kind"] == "with_ship" and any(
                    o["type"] == bonus["ship_type"] for j, o in enumerate(side) if j != i):
                total += bonus["amount"]
    return total


def _model_hold(strength: int, army: int) -> Fraction:
    return Fraction(sum(strength + a + b >= army for a in range(1, 7) for b in range(1, 7)), 36)


def search_risk_model(state: dict[Any, Any], player: int, city: str, ships: list[str]) -> dict[Any, Any]:
    """Exact ``army / hold / clear / unfinished`` probabilities of one search."""
    from collections import Counter

    data = get_game("tremble").card_set(state).data
    army_power = {a["id"]: a["strength"] for a in data["armies"]}
    designs = {d["id"]: d for d in data["ships"]}
    search = next((s for s in state["searches"]
                   if s["player"] == player and s["city"] == city), None)
    if search is not None:
        countdown, set_this_turn = search["countdown"], search["since"] == state["turn"]
    else:
        tempo = any("search_tempo" in designs[s.split("#")[0]]["abilities"] for s in ships)
        countdown, set_this_turn = (1 if tempo else 2), True
    slots = len(state["slots"])
    phase = state["phase"]
    left_now = (slots if phase in ("missions", "start", "buy")
                else sum(c is None for c in state["slots"]) if phase == "intel" else 0)
    fleet = _model_strength(data, ships, city)
    first, beaten = None, False  # an army already revealed, waiting for this search
    army = state["army"]
    if search is not None and army is not None:
        if army["loser"] == {"player": player, "city": city}:
            first, beaten = army["card"], True
        elif any(c["player"] == player and c["city"] == city for c in army["choices"]):
            first = army["card"]
    start = tuple((tuple(sorted(c if c in army_power else "city" for c in p["candidates"])),
                   p["removed"]) for p in state["piles"])

    @functools.cache
    def run(k: int, left: int, countdown: int, piles: tuple[Any, ...]) -> tuple[Any, ...]:
        """Outcomes ``((armies met, paid), probability)`` from turn offset k."""
        top = next((i for i, (cards, removed) in enumerate(piles) if len(cards) > removed), None)
        out: Counter = Counter()
        if left and top is not None:
            cards, removed = piles[top]
            armed = search is not None or k > 0
            for kind in sorted(set(cards)):
                p = Fraction(cards.count(kind), len(cards))
                rest = list(cards)
                rest.remove(kind)
                after = piles[:top] + ((tuple(rest), removed),) + piles[top + 1:]
                if kind == "city":
                    sub = run(k, left - 1, countdown, after)
                else:
                    sub = run(k, left, countdown, after)
                for (met, paid), q in sub:
                    if kind != "city" and armed:
                        met = tuple(sorted(met + (kind,)))
                    out[(met, paid)] += p * q
            return tuple(out.items())
        if not (set_this_turn and k == 0):
            countdown -= 1
            if countdown == 0:
                return ((((), True), Fraction(1)),)
        if top is None:
            return ((((), False), Fraction(1)),)
        return run(k + 1, slots, countdown, piles)

    outcomes = run(0, left_now, countdown, start)

    def held(met):
        value = Fraction(1)
        for a in met:
            value *= _model_hold(fleet, army_power[a])
        return value

    first_hold = Fraction(1) if first is None else (
        Fraction(0) if beaten else _model_hold(fleet, army_power[first]))
    return {
        "army_probability": Fraction(1) if first else sum(
            (q for (met, _), q in outcomes if met), Fraction(0)),
        "hold_probability": first_hold * sum(
            (q * held(met) for (met, paid), q in outcomes if paid), Fraction(0)),
        "clear_probability": Fraction(0) if first else sum(
            (q for (met, paid), q in outcomes if paid and not met), Fraction(0)),
        "unfinished_probability": sum((q for (_, paid), q in outcomes if not paid),
                                      Fraction(0)),
        "fleet_strength": fleet,
    }


def _positions(games: int = 8) -> list[tuple[dict[Any, Any], int, str, list[str] | None]]:
    """(state, player, city, ships) from seeded random 2–5 player games: every
    search in progress facing a revealed army or in the last turn (the city
    deck out), the city of each pending reward (its winning ships), open
    cities in intel (ships from hand), and every search in progress of one
    state in twelve otherwise."""
    game, bot = get_game("tremble"), RandomBot()
    out = []
    for seed in range(games):
        players = 2 + seed % 4
        state, _ = game.new_game(players, {"missions": seed % 2 == 0}, seed=500 + seed)
        rng, step = random.Random(seed), 0
        while state["result"] is None:
            step += 1
            entry = state["pending"][0]
            deck_out = all(len(p["candidates"]) == p["removed"] for p in state["piles"])
            if state["army"] is not None or deck_out or step % 12 == 0:
                out.extend((state, s["player"], s["city"], None) for s in state["searches"])
            if entry["decision"] == "reward":
                out.append((state, entry["player"], entry["city"], None))
            elif state["phase"] == "intel" and step % 2 == 0:
                open_city = next((c for c in state["slots"] if c), None)
                hand = state["players"][0]["hand"]
                if open_city and hand:
                    out.append((state, 0, open_city, hand[:2]))
            state, _ = game.apply(state, bot.choose(game, state, entry["player"], rng))
    return out


def test_tre22_tre24_tre28_search_risk_equals_an_independent_exact_model():
    """TRE-22 / TRE-24 / TRE-28 / TRE-30 (and TRE-13): on ≥ 400 positions
    from random 2–5 player games, every exact probability of the evaluation
    equals the independent model's: searches in progress in every phase, an
    army already revealed against the search (TRE-24: army 1, hold at most
    the roll against it), the last turn (deck out: no later turn, the search
    is unfinished, TRE-28), and searches not yet set."""
    positions = _positions()
    assert len(positions) >= 400, len(positions)
    seen = {"army_waiting": 0, "deck_out": 0, "hypothetical": 0, "unfinished_sure": 0}
    for state, player, city, ships in positions:
        params = {"player": player, "city": city}
        if ships is not None:
            params["ships"] = ships
        kind, plan = prepare({"game": "tremble", "kind": "tremble.search_risk",
                              "state": state, "params": params})
        result = run_inline(kind.name, plan)
        model = search_risk_model(state, player, city, result["ships"])
        assert result["fleet_strength"] == model.pop("fleet_strength")
        got = {k: Fraction(result[f"{k}_exact"]) for k in model}
        assert got == model, (state["phase"], state["turn"], player, city)
        seen["army_waiting"] += result["army_now"] is not None
        seen["deck_out"] += all(len(p["candidates"]) == p["removed"] for p in state["piles"])
        seen["hypothetical"] += ships is not None or not any(
            s["city"] == city for s in state["searches"])
        seen["unfinished_sure"] += model["unfinished_probability"] == 1
    assert all(n >= 5 for n in seen.values()), seen


def test_tre24_an_army_waiting_for_the_search_is_met_first():
    """TRE-24 (the issue's case): Marines (14) revealed against a strength-3
    search (a lone saucer) and waiting for its choice: the army probability
    is 1 and the hold probability at most 3 + 2d6 >= 14, i.e. 1/12 (the old
    evaluation said army 23/30, hold 1043/2160)."""
    from tests.tremble.builder import act, at_plan, chance, plan_all, play, ship, through_buy

    state, _ = plan_all(at_plan(hands={0: ["S-START"]}), {0: [("S-START", 1)]})
    city = state["slots"][0]
    state, _ = play(state, act("search", 0, city=city, ships=[ship(state, 0, "S-START")]))
    state = chance(through_buy(state), "reveal", card="A-MARINES")
    assert state["army"]["choices"] == [{"player": 0, "city": city, "choice": None}]
    request = {"game": "tremble", "kind": "tremble.search_risk", "state": state,
               "params": {"player": 0, "city": city}}
    kind, plan = prepare(request)
    result = run_inline(kind.name, plan)
    assert result["fleet_strength"] == 3
    assert result["army_probability_exact"] == "1/1"
    assert result["army_now"] == {"army": "A-MARINES", "strength": 14, "beaten": False,
                                  "hold": 1 / 12, "hold_exact": "1/12"}
    assert Fraction(result["hold_probability_exact"]) <= Fraction(1, 12)
    assert result["clear_probability_exact"] == "0/1"
    model = search_risk_model(state, 0, city, result["ships"])
    assert Fraction(result["hold_probability_exact"]) == model["hold_probability"]
    # the same after choosing to fight (the roll pending), and 0 once beaten
    fighting, _ = play(state, act("army_choice", 0, city=city, choice="fight"))
    kind, plan = prepare({**request, "state": fighting})
    assert run_inline(kind.name, plan)["hold_probability_exact"] == \
        result["hold_probability_exact"]


def test_tre28_a_search_in_the_last_turn_is_never_paid():
    """TRE-28 (the issue's case): the deck is out, so this is the last turn;
    a search that would be paid only at the end of a later turn is
    unfinished for sure (hold 0), as the engine ends the game with
    ``search_unfinished`` and pays nothing: a search-tempo search set now,
    and a two-turn search set last turn (both once said to be paid)."""
    from tests.tremble.builder import (
        act,
        at_plan,
        plan_all,
        play,
        ship,
        short_deck,
        through_buy,
        through_intel,
    )

    game = get_game("tremble")
    cases = []
    # a cruiser (search tempo) wins slot 1 in the last turn
    state, _ = plan_all(at_plan(hands={0: ["S-CRUISER"]}), {0: [("S-CRUISER", 1)]})
    state = short_deck(state, 0)
    cases.append((state, state["slots"][0], None))
    # a saucer's search set in turn 1 (two turns); turn 2 is the last
    state, _ = plan_all(at_plan(hands={0: ["S-START"]}), {0: [("S-START", 1)]})
    city = state["slots"][0]
    state, _ = play(state, act("search", 0, city=city, ships=[ship(state, 0, "S-START")]))
    state = short_deck(through_intel(through_buy(state)), 0)
    assert state["phase"] == "plan" and state["searches"][0]["countdown"] == 2
    cases.append((state, city, state["searches"][0]["ships"]))
    for state, city, _ in cases:
        assert all(len(p["candidates"]) == p["removed"] for p in state["piles"])
        kind, plan = prepare({"game": "tremble", "kind": "tremble.search_risk", "state": state,
                              "params": {"player": 0, "city": city}})
        result = run_inline(kind.name, plan)
        assert result["unfinished_probability_exact"] == "1/1", result
        assert result["hold_probability_exact"] == "0/1"
        assert result["expected_people"]["search"] == 0
        # the engine agrees: the game ends this turn, the search unpaid
        events = []
        if state["phase"] == "reward":
            ships = [ship(state, 0, "S-CRUISER")]
            state, events = game.apply(state, act("search", 0, city=city, ships=ships))
        state, more = play(state, *[act("plan", p, orders=[]) for p in (0, 1)
                                    if {"player": p, "decision": "plan"} in state["pending"]])
        events += more
        assert state["result"] is not None
        assert any(e["type"] == "search_unfinished" and e["city"] == city for e in events)
        assert not any(e["type"] == "search_paid" for e in events)
