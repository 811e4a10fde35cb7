"""Components and setup (TRE-1 … TRE-10)."""

from __future__ import annotations

from collections import Counter

import pytest

import card_db
from service.games.errors import InvalidOptions, RuleViolation
from service.games.tremble import GAME
from service.games.tremble.cards import design_of
from service.games.tremble.intel import cards_left
from service.games.tremble.state_types import Pile

from .builder import CAT, act, new_table, strings, through_buy


def test_tre_1_reference_set_has_the_counts_and_fixed_ships():
    """TRE-1: reference set has the counts and fixed ships."""
    cards = card_db.get("tremble")
    assert cards.meta["reconstructed"] is True and "reconstructed" in cards.meta["note"].lower()
    assert (len(CAT.cities), len(CAT.armies), len(CAT.ships), len(CAT.missions),
            len(CAT.credits)) == (90, 6, 35, 30, 5)
    for card in [*CAT.cities.values(), *CAT.armies.values(), *CAT.missions.values()]:
        assert card["name"]["ru"] and card["name"]["en"]
    for city in CAT.cities.values():
        assert city["type"] in ("culture", "science", "industry")
        assert city["mark"] in ("*", "4+", "5+", None) and city["search"] > city["raid"] > 0
    assert any(a["mark"] == "*" for a in CAT.armies.values())
    assert any(a["mark"] is None for a in CAT.armies.values())
    assert {m["mark"] for m in CAT.missions.values()} == {None, "4+", "5+"}
    d = {design_of(k): v for k, v in CAT.ships.items()}
    saucer = d["S-SAUCER"]
    assert (saucer["strength"], saucer["fuel"], saucer["cost"]) == (3, 2, 20000)
    assert saucer["bonuses"] == [{"kind": "with_ship", "ship_type": "tripod", "amount": 4}]
    a, b = d["S-TRIPOD-A"], d["S-TRIPOD-B"]
    assert (a["strength"], a["fuel"], a["cost"]) == (b["strength"], b["fuel"], b["cost"]) == \
        (5, 3, 30000)
    assert a["bonuses"] == [{"kind": "with_ship", "ship_type": "saucer", "amount": 4}]
    assert {"kind": "with_ship", "ship_type": "tripod", "amount": 3} in b["bonuses"]
    assert {"kind": "city_type", "city_type": "culture", "amount": 3} in b["bonuses"]
    cruiser = d["S-CRUISER"]
    assert (cruiser["strength"], cruiser["fuel"], cruiser["cost"]) == (9, 5, 50000)
    assert cruiser["abilities"] == ["search_tempo"]
    abilities = {x for s in CAT.ships.values() for x in s["abilities"]}
    assert abilities == {"search_tempo", "reserve", "redeploy"}


def test_tre_1_a_set_with_wrong_counts_is_refused(tmp_path, monkeypatch):
    """TRE-1: a set with wrong counts is refused."""
    import yaml
    raw = yaml.safe_load(open(card_db.get("tremble").path, encoding="utf-8"))
    raw["cities"].pop()
    (tmp_path / "tremble").mkdir()
    (tmp_path / "tremble" / "broken.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True))
    monkeypatch.setenv("CARD_DB_PATH", str(tmp_path))
    with pytest.raises(card_db.CardDataError) as exc:
        card_db.load("tremble", "broken")
    assert "TRE-1" in str(exc.value) and "89" in str(exc.value)


@pytest.mark.parametrize("players,kept", [(2, {None, "*"}), (3, {None, "*"}),
                                          (4, {None, "*", "4+"}), (5, {None, "*", "4+", "5+"})])
def test_tre_2_marked_cities_and_missions_leave_by_player_count(players, kept):
    """TRE-2: marked cities and missions leave by player count."""
    state = GAME.new_game(players, {"chance": "table"}, seed=1)[0]
    in_game = [c for pile in state["piles"] for c in pile["candidates"] if c in CAT.cities]
    assert {CAT.cities[c]["mark"] for c in in_game} == kept
    assert all(CAT.cities[c]["mark"] not in kept for c in state["box"] if c in CAT.cities)
    missions = {CAT.missions[m]["mark"] for m in state["mission_deck"]}
    assert missions == kept - {"*"}


def test_tre_3_to_5_two_piles_star_on_top_six_removed_unseen():
    """TRE-3, TRE-4, TRE-5: two piles, the * pile on top, six removed unseen from each."""
    state = new_table(3)
    star, rest = state["piles"]
    assert star["mark"] == "*" and rest["mark"] is None
    assert all((CAT.cities.get(c) or CAT.armies[c])["mark"] == "*" for c in star["candidates"])
    assert all((CAT.cities.get(c) or CAT.armies[c])["mark"] is None for c in rest["candidates"])
    assert star["removed"] == rest["removed"] == 6
    assert cards_left(state["piles"]) == len(star["candidates"]) + len(rest["candidates"]) - 12
    # the first reveals come from the * pile, uniformly over its candidates
    state = through_buy(state)
    assert state["pending"][0]["decision"] == "reveal"
    outcomes = GAME.chance_outcomes(state)
    assert {a["card"] for a, w in outcomes} == set(star["candidates"])
    assert {w for _, w in outcomes} == {1}


def test_tre_3_pile_is_exhausted_when_only_the_removed_count_remains():
    """TRE-3: pile is exhausted when only the removed count remains."""
    state = new_table(2)
    star = state["piles"][0]
    piles: list[Pile] = [{**star, "candidates": star["candidates"][:6]}, state["piles"][1]]
    from service.games.tremble.intel import top_pile
    assert top_pile(piles) == 1
    assert top_pile([piles[0], {**piles[1], "candidates": piles[1]["candidates"][:6]}]) is None


def test_tre_6_to_9_starting_saucer_people_fuel_tokens():
    """TRE-6, TRE-7, TRE-8, TRE-9: starting saucer, ship deck, people and fuel, tokens."""
    state = GAME.new_game(4, {"chance": "table"}, seed=2)[0]  # before turn 1: missions
    assert state["phase"] == "missions"
    for p, pl in enumerate(state["players"]):
        assert pl["hand"] == [CAT.starting_ships[p]]           # TRE-6
        assert pl["people"] == 50000 and pl["fuel"] == 0       # TRE-8 (+ RULING)
    assert CAT.starting_ships[4] in state["box"]
    # TRE-7: the ship deck holds every other ship, unordered
    assert sorted(state["ship_deck"]) == sorted(CAT.deck_ships)
    # TRE-9: tokens 1..5 for four players, two sets
    assert state["tokens"] == 5 and len(state["slots"]) == 5
    for n, slots in ((2, 4), (3, 4), (5, 6)):
        assert GAME.new_game(n, {"missions": False}, seed=1)[0]["tokens"] == slots


def test_tre_9_two_sets_of_tokens_at_most_two_ships_per_city():
    """TRE-9: two sets of tokens at most two ships per city."""
    from .builder import at_plan
    state = at_plan(hands={0: ["S-START", "S-TRIPOD-A", "S-CRUISER"]})
    hand = state["players"][0]["hand"]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("plan", 0, orders=[{"ship": s, "slot": 2} for s in hand]))
    assert exc.value.rule == "TRE-9"
    GAME.apply(state, act("plan", 0, orders=[{"ship": hand[0], "slot": 2},
                                             {"ship": hand[1], "slot": 2},
                                             {"ship": hand[2], "slot": 3}]))


def test_tre_10_four_missions_dealt_keep_one_to_three_secretly():
    """TRE-10: four missions dealt keep one to three secretly."""
    state = GAME.new_game(2, {"chance": "table"}, seed=3)[0]
    deals = 0
    while state["pending"][0]["player"] == "chance":
        assert state["pending"][0]["decision"] == "deal_mission"
        outcomes = GAME.chance_outcomes(state)
        state = GAME.apply(state, outcomes[0][0])[0]
        deals += 1
    assert deals == 8 and [len(p["mission_offer"]) for p in state["players"]] == [4, 4]
    assert [e["decision"] for e in state["pending"]] == ["keep_missions"] * 2
    offer = state["players"][0]["mission_offer"]
    assert len(GAME.legal_actions(state, 0)) == 14
    for bad in ([], offer):
        with pytest.raises(RuleViolation) as exc:
            GAME.apply(state, act("keep_missions", 0, missions=bad))
        assert exc.value.rule == "TRE-10"
    state = GAME.apply(state, act("keep_missions", 0, missions=offer[:2]))[0]
    assert state["players"][0]["missions"] == offer[:2]
    view = GAME.view(state, 1)
    assert view["players"][0]["missions"] == {"count": 2}
    assert not set(offer) & strings(view)
    no_missions = GAME.new_game(2, {"missions": False}, seed=3)[0]
    assert no_missions["mission_deck"] == [] and no_missions["phase"] == "buy"
    with pytest.raises(InvalidOptions):
        GAME.new_game(6, {}, seed=1)
    assert Counter(m in no_missions["box"] for m in CAT.missions)[True] == 30
