"""``tremble.search_risk``: exact window odds against hand cases and against
a simulation of physically shuffled piles (TRE-3/TRE-4 removals unseen)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from service.evaluations.kinds import prepare
from service.evaluations.runner import run_inline
from service.evaluations.search_risk import window_value
from service.evaluations.stats import wilson
from service.games.errors import MalformedInput
from service.games.playout import RandomBot
from service.games.registry import get_game


def test_tre24_hand_cases():
    """One pile: 2 cities and army A, nothing removed; one city to reveal.
    The army comes first with chance 1/3 (then the search must hold: TRE-24)."""
    piles = (((2, ("A",), 0)),)
    assert window_value(piles, (1,), {"A": Fraction(0)}, True) == Fraction(2, 3)
    assert window_value(piles, (1,), {"A": Fraction(1, 2)}, True) == Fraction(2, 3) + Fraction(1, 6)
    # TRE-3/TRE-4: with 1 card removed unseen, 2 of the 3 cards are revealed
    # at most; the army appears before the first city with chance 1/3 still
    removed = ((2, ("A",), 1),)
    assert window_value(removed, (1,), {"A": Fraction(0)}, True) == Fraction(2, 3)


def test_tre28_deck_running_out_leaves_the_search_unfinished():
    """Two phases of 2 cities but only 2 cities left: the deck runs out in the
    first turn, the game ends (TRE-28), the search is never paid."""
    piles = ((2, (), 0),)
    assert window_value(piles, (2, 2), {}, True) == 0
    # in the last exposed turn running out does not matter: paid first
    assert window_value(piles, (2,), {}, True) == 1
    assert window_value(((1, (), 0),), (2,), {}, True) == 1


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
