"""Rewards, searches, armies, credit, missions, the end and secrecy
(TRE-22 … TRE-28, TRE-30, TRE-33)."""

from __future__ import annotations

from typing import Any

import pytest

from service.games.errors import RuleViolation
from service.games.objects import Event
from service.games.tremble import GAME
from service.games.tremble.state_types import TrembleState

from .builder import (
    CAT,
    act,
    at_plan,
    chance,
    cities,
    new_table,
    plan_all,
    play,
    ship,
    short_deck,
    strings,
    through_buy,
    through_intel,
)

STAR_ARMIES = sorted((a for a in CAT.armies if CAT.armies[a]["mark"] == "*"),
                     key=lambda a: CAT.armies[a]["strength"])


def next_turn(state: TrembleState) -> tuple[TrembleState, list[Event]]:
    return play(state, *[act("plan", p, orders=[]) for p in range(len(state["players"]))])


def won_alone(hands: dict[int, list[str]], orders: dict[int, list[tuple[str, int]]],
              **kw: Any) -> TrembleState:
    """Plan phase → the reward decision of seat 0 for slot 1."""
    state = at_plan(hands=hands, **kw)
    state, _ = plan_all(state, orders)
    return state


def test_tre_22_raid_pays_now_and_keeps_the_city():
    """TRE-22: raid pays now and keeps the city."""
    state = won_alone({0: ["S-START"]}, {0: [("S-START", 1)]})
    city = state["slots"][0]
    assert city is not None
    listed = GAME.legal_actions(state, 0)
    assert {a["type"] for a in listed} == {"raid", "search"}
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("raid", 0, city=cities("science", None)[0]))
    assert exc.value.rule == "TRE-22"
    state, events = play(state, act("raid", 0, city=city))
    assert state["players"][0]["people"] == 50000 + CAT.cities[city]["raid"]
    assert city in state["players"][0]["captured"]
    assert ship(state, 0, "S-START") in state["players"][0]["hand"]


def test_tre_22_search_keeps_chosen_ships_counts_down_two_turns_then_pays_more():
    """TRE-22: search keeps chosen ships counts down two turns then pays more."""
    state = won_alone({0: ["S-START", "S-TRIPOD-A"]}, {0: [("S-START", 1), ("S-TRIPOD-A", 1)]})
    city = state["slots"][0]
    assert city is not None
    saucer, tripod = ship(state, 0, "S-START"), ship(state, 0, "S-TRIPOD-A")
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("search", 0, city=city, ships=[]))
    assert exc.value.rule == "TRE-22"
    state, events = play(state, act("search", 0, city=city, ships=[tripod]))
    assert state["searches"] == [{"player": 0, "city": city, "ships": [tripod],
                                  "countdown": 2, "since": 1}]
    assert saucer in state["players"][0]["hand"]
    state = through_intel(through_buy(state))            # turn 2
    state, _ = next_turn(state)                          # end of turn 2: 2 -> 1
    assert state["searches"][0]["countdown"] == 1
    state = through_intel(through_buy(state))
    people = state["players"][0]["people"]
    state, events = next_turn(state)                     # end of turn 3: paid
    assert state["searches"] == [] and city in state["players"][0]["captured"]
    assert state["players"][0]["people"] == people + CAT.cities[city]["search"]
    assert CAT.cities[city]["search"] > CAT.cities[city]["raid"]
    assert tripod in state["players"][0]["hand"]


def test_tre_30_search_tempo_takes_one_turn():
    """TRE-30: search tempo takes one turn."""
    state = won_alone({0: ["S-CRUISER", "S-START"]}, {0: [("S-CRUISER", 1), ("S-START", 1)]})
    city = state["slots"][0]
    assert city is not None
    state, events = play(state, act("search", 0, city=city, ships=sorted(
        [ship(state, 0, "S-CRUISER"), ship(state, 0, "S-START")])))
    assert state["searches"][0]["countdown"] == 1
    assert next(e for e in events if e["type"] == "search_started")["rule"] == "TRE-30"
    state = through_intel(through_buy(state))
    state, events = next_turn(state)
    assert any(e["type"] == "search_paid" for e in events)


def test_tre_23_cities_nobody_attacked_are_discarded():
    """TRE-23: cities nobody attacked are discarded."""
    state = at_plan(hands={0: ["S-START"]})
    spared = state["slots"][1:]
    state, events = plan_all(state, {0: [("S-START", 1)]})
    assert [e["city"] for e in events if e["type"] == "city_spared"] == spared
    assert set(spared) <= set(state["city_discard"])


def searching(ships: list[str], slot_city: str | None = None) -> tuple[TrembleState, str]:
    """Seat 0 searches slot 1 with ``ships``; returns the state at turn 2's intel."""
    state = won_alone({0: ships}, {0: [(s, 1) for s in ships]},
                      slots=[slot_city] if slot_city else None)
    city = state["slots"][0]
    assert city is not None
    state, _ = play(state, act("search", 0, city=city,
                               ships=[ship(state, 0, s) for s in ships]))
    return through_buy(state), city


def test_tre_24_army_abandon_returns_ships_and_discards_the_city():
    """TRE-24: army abandon returns ships and discards the city."""
    state, city = searching(["S-START"])
    state = chance(state, "reveal", card=STAR_ARMIES[0])
    assert state["pending"] == [{"player": 0, "decision": "army_choice",
                                 "army": STAR_ARMIES[0], "cities": [city]}]
    state, events = play(state, act("army_choice", 0, city=city, choice="abandon"))
    assert state["searches"] == [] and city in state["city_discard"]
    assert ship(state, 0, "S-START") in state["players"][0]["hand"]
    assert STAR_ARMIES[0] in state["city_discard"]
    assert state["pending"][0]["decision"] == "reveal"


def test_tre_24_army_fight_holds_at_equal_and_a_beaten_player_chooses_the_ship():
    """TRE-24: army fight holds at equal and a beaten player chooses the ship."""
    army = STAR_ARMIES[-1]
    need = CAT.armies[army]["strength"]
    state, city = searching(["S-START", "S-SAUCER"], cities("science")[0])
    state = chance(state, "reveal", card=army)
    state, _ = play(state, act("army_choice", 0, city=city, choice="fight"))
    assert state["pending"][0] == {"player": "chance", "decision": "roll", "context": "army",
                                   "for": 0, "city": city}
    # nobody acts while the army fight is rolled (out of turn: the army's clause)
    assert GAME.check(state, act("plan", 0, orders=[]))["rule"] == "TRE-24"
    held, events = play(state, act("roll", "chance", total=need - 6))  # 6 + roll == army
    assert held["searches"][0]["city"] == city
    assert held["players"][0]["stats"]["armies_beaten"] == 1
    beaten, events = play(state, act("roll", "chance", total=need - 7))
    assert beaten["pending"] == [{"player": 0, "decision": "army_loss", "city": city}]
    lost = state["searches"][0]["ships"][1]
    beaten, events = play(beaten, act("lose_ship", 0, ship=lost))
    assert lost in beaten["ship_discard"] and city in beaten["city_discard"]
    assert beaten["searches"] == [] and state["searches"][0]["ships"][0] in \
        beaten["players"][0]["hand"]


def test_tre_25_several_armies_are_met_one_after_another():
    """TRE-25: several armies are met one after another."""
    state, city = searching(["S-START", "S-TRIPOD-A"])
    state = chance(state, "reveal", card=STAR_ARMIES[0])
    state, _ = play(state, act("army_choice", 0, city=city, choice="fight"),
                    act("roll", "chance", total=12))
    assert state["searches"] and state["army"] is None
    state = chance(state, "reveal", card=STAR_ARMIES[1])
    assert state["pending"][0]["decision"] == "army_choice"
    state, _ = play(state, act("army_choice", 0, city=city, choice="abandon"))
    assert state["searches"] == [] and {STAR_ARMIES[0], STAR_ARMIES[1]} <= set(state["city_discard"])


def test_tre_26_credit_for_the_poor_repaid_60000_and_at_the_end():
    """TRE-26: credit for the poor repaid 60000 and at the end."""
    state = at_plan(hands={0: ["S-START"]}, people={0: 20000, 1: 20000})
    assert {"type": "take_credit", "player": 0} in GAME.legal_actions(state, 0)
    state, events = play(state, act("take_credit", 0))
    assert state["players"][0]["people"] == 70000 and len(state["players"][0]["credits"]) == 1
    assert state["pending"][0] == {"player": 0, "decision": "plan"}  # still deciding
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("take_credit", 0))
    assert exc.value.rule == "TRE-26" and "fewer than 30000" in exc.value.reason
    repaid, _ = play(state, act("repay_credit", 0))
    assert repaid["players"][0]["people"] == 10000 and repaid["credits_returned"]
    rich = at_plan(hands={0: ["S-START", "S-TRIPOD-A"]}, people={0: 20000})
    assert GAME.check(rich, act("take_credit", 0))["rule"] == "TRE-26"
    # a credit held at the end is repaid then
    state = short_deck(state, 0)
    state, events = next_turn(state)
    assert state["result"] is not None
    assert state["result"]["finished"]
    assert state["players"][0]["people"] == 10000
    assert any(e["type"] == "credit_repaid" and e["at_end"] for e in events)


def test_tre_27_missions_secret_until_the_end_then_bonus_or_penalty():
    """TRE-27: missions secret until the end then bonus or penalty."""
    state = new_table(2, missions=True)
    wanted = {0: ["M-CULT2", "M-CITY6", "M-SET1", "M-SCI3"]}
    while state["pending"][0]["decision"] == "deal_mission":
        who = state["pending"][0]["for"]
        have = state["players"][who]["mission_offer"]
        pick = wanted[who][len(have)] if who in wanted else \
            next(m for m in state["mission_deck"] if m not in wanted[0])
        state = chance(state, "deal_mission", mission=pick)
    state, _ = play(state, act("keep_missions", 0, missions=["M-CULT2", "M-CITY6"]),
                    act("keep_missions", 1, missions=state["players"][1]["mission_offer"][:1]))
    score = GAME.score(state)
    assert "missions" not in score["scores"][0]["breakdown"]
    assert GAME.view(state, 1)["players"][0]["missions"] == {"count": 2}
    state = short_deck(through_buy(state), 1)
    # seat 0 holds two captured culture cities (taken from the discard: cards conserved)
    culture = [c for c in state["city_discard"] if CAT.cities.get(c, {}).get("type") == "culture"]
    state["city_discard"] = [c for c in state["city_discard"] if c not in culture[:2]]
    state["players"][0]["captured"] = culture[:2]
    GAME.validate_state(state)
    state = through_intel(state)
    state, _ = next_turn(state)
    final = GAME.score(state)
    missions = final["scores"][0]["breakdown"]["missions"]
    assert missions == [{"mission": "M-CULT2", "met": True, "points": 10000},
                        {"mission": "M-CITY6", "met": False, "points": -10000}]
    assert final["scores"][0]["total"] == state["players"][0]["people"]


def test_tre_27_missions_are_judged_on_the_captured_city_cards():
    """TRE-27: a captain keeps each captured city card "to confirm the missions
    at the end of the game" (the original, Reward): every mission of the
    reference set is judged on the captured cities alone — their types and
    number — never on facts no card records (how a city was taken, battles or
    armies won, credit); each has a bonus and a penalty."""
    from service.games.tremble.effects import CONDITIONS as MISSION_KINDS
    from service.games.tremble.missions import met
    assert set(MISSION_KINDS) == {"cities_of_type", "cities_total", "type_set"}
    for mission in CAT.missions.values():
        assert mission["condition"]["kind"] in MISSION_KINDS
        assert mission["bonus"] > 0 and mission["penalty"] > 0
    assert len({str(sorted(m["condition"].items())) for m in CAT.missions.values()}) == 30
    types = ["culture", "science", "industry", "culture"]
    assert met({"kind": "type_set", "count": 1}, types)
    assert not met({"kind": "type_set", "count": 2}, types)
    assert met({"kind": "cities_total", "count": 4}, types)
    assert not met({"kind": "cities_of_type", "city_type": "science", "count": 2}, types)
    import yaml

    import card_db
    raw = yaml.safe_load(open(card_db.get("tremble").path, encoding="utf-8"))
    raw["missions"][0]["condition"] = {"kind": "raids", "count": 4}
    from marshmallow import ValidationError

    from service.games.tremble.card_schema import CardSetSchema
    with pytest.raises(ValidationError) as exc:
        CardSetSchema().load(raw)
    assert "missions" in exc.value.messages


def test_tre_28_most_people_wins_equal_totals_share():
    """TRE-28: most people wins equal totals share."""
    state = won_alone({0: ["S-START"]}, {0: [("S-START", 1)]})
    state = short_deck(state, 0)
    state, events = play(state, act("raid", 0, city=state["slots"][0]))
    assert state["result"] is not None
    assert state["result"]["winners"] == [0] and state["phase"] == "over"
    assert GAME.score(state)["winners"] == [0]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("plan", 0, orders=[]))
    assert exc.value.rule == "TRE-28"
    tied = short_deck(at_plan(), 0)
    tied, _ = next_turn(tied)
    assert tied["result"] is not None
    assert tied["result"]["winners"] == [0, 1]


def test_tre_33_views_hide_hands_purchases_orders_missions_and_decks():
    """TRE-33: views hide hands purchases orders missions and decks."""
    state = GAME.new_game(3, {}, seed=4)[0]
    for p in range(3):
        state = GAME.apply(state, GAME.legal_actions(state, p)[0])[0]
    for p in range(3):  # everyone draws (RULING TRE-12a)
        state = GAME.apply(state, {"type": "draw_ships", "player": p})[0]
    for seat in (None, 0, 1, 2):
        seen = GAME.view(state, seat)
        secret = GAME.secret_cards(state, seat)
        assert not strings(seen) & secret
        for p, pl in enumerate(seen["players"]):
            if p != seat:
                assert pl["hand"] == {"count": len(state["players"][p]["hand"]), "flown": []}
                assert pl["missions"] == {"count": len(state["players"][p]["missions"])}
                assert pl["offer"] == {"count": 2}
            assert pl["people"] == state["players"][p]["people"]
        assert seen["ship_deck"] == {"count": len(state["ship_deck"])}
        assert seen["mission_deck"] == {"count": len(state["mission_deck"])}
        assert all(set(p) == {"mark", "cards_left", "removed_unseen"} for p in seen["piles"])
        assert "seed" not in seen["chance"]
    assert set(state["players"][1]["offer"]) <= GAME.secret_cards(state, 0)
    twin = GAME.determinize(state, 0, seed=9)
    assert twin["players"][0] == state["players"][0]
    assert twin["piles"] == state["piles"] and twin["chance"]["seed"] == 9
    GAME.validate_state(twin)
    assert GAME.view(twin, 0)["players"][1]["hand"] == GAME.view(state, 0)["players"][1]["hand"]


def test_tre_26_a_credit_out_of_turn_is_refused_citing_tre_26():
    """TRE-26: a credit action from a player the game is not waiting for is
    refused citing TRE-26 (not the clause of the pending phase, TRE-12 /
    TRE-13), in ``apply`` and in ``check`` alike."""
    state = at_plan(hands={0: ["S-START"], 1: ["S-START"]}, people={0: 20000, 1: 20000})
    state, _ = play(state, act("plan", 0, orders=[]))
    assert [e["player"] for e in state["pending"]] == [1]
    for kind in ("take_credit", "repay_credit"):
        with pytest.raises(RuleViolation) as exc:
            GAME.apply(state, act(kind, 0))
        assert exc.value.rule == "TRE-26" and "no decision" in exc.value.reason
        assert GAME.check(state, act(kind, 0))["rule"] == "TRE-26"
    # while the intel chance node is pending (TRE-13), the same
    intel = through_buy(new_table(2))
    assert intel["pending"][0]["decision"] == "reveal"
    assert GAME.check(intel, act("take_credit", 0))["rule"] == "TRE-26"
    # other out-of-turn actions keep the clause of the pending decision
    assert GAME.check(intel, act("plan", 0, orders=[]))["rule"] == "TRE-13"
    # the pending player may take it (fewer than 30000 people, one ship)
    state, events = play(state, act("take_credit", 1))
    assert events[0]["type"] == "credit_taken" and events[0]["rule"] == "TRE-26"
