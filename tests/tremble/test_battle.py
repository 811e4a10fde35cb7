"""Battles (TRE-16, TRE-18 … TRE-21) and ship abilities (TRE-29 … TRE-32)."""

from __future__ import annotations

import pytest

from service.games.errors import RuleViolation
from service.games.objects import Event
from service.games.tremble import GAME
from service.games.tremble.battle import ROLL_WEIGHTS, strength
from service.games.tremble.state_types import TrembleState

from .builder import CAT, act, at_plan, cities, plan_all, play, rolls, ship

CULTURE = cities("culture")
INDUSTRY = cities("industry")
SCIENCE = cities("science")


def example_battle() -> tuple[TrembleState, list[Event]]:
    """TRE-21's set-up: city 4 is a culture city; P1 saucer+tripod A, P2 cruiser+tripod B."""
    state = at_plan(hands={0: ["S-START", "S-TRIPOD-A"], 1: ["S-CRUISER", "S-TRIPOD-B"]},
                    slots=[SCIENCE[0], SCIENCE[1], INDUSTRY[0], CULTURE[0]])
    return plan_all(state, {0: [("S-START", 4), ("S-TRIPOD-A", 4)],
                            1: [("S-CRUISER", 4), ("S-TRIPOD-B", 4)]})


def test_tre_21_worked_example_16_plus_10_beats_17_plus_6():
    """TRE-21: worked example 16 plus 10 beats 17 plus 6."""
    state, events = example_battle()
    battle = next(e for e in events if e["type"] == "battle")
    assert battle["strengths"] == [{"player": 0, "strength": 16}, {"player": 1, "strength": 17}]
    # ship by ship as the example reads: saucer 3+4, tripod 5+4; cruiser 9, tripod 5+3
    # (against a culture city; its +3 with another tripod does not apply beside a cruiser)
    from service.games.tremble.battle import strength_breakdown
    assert CAT.cities[state["attacks"][0]["city"]]["type"] == "culture"
    per_ship = {}
    for side in state["attacks"][0]["sides"]:
        designs = [CAT.ships[s] for s in side["ships"]]
        per_ship[side["player"]] = sorted(
            (d["type"], b["base"], b["bonus"])
            for d, b in zip(designs, strength_breakdown(designs, "culture")))
    assert per_ship == {0: [("saucer", 3, 4), ("tripod", 5, 4)],
                        1: [("cruiser", 9, 0), ("tripod", 5, 3)]}
    assert state["pending"] == [{"player": 0, "decision": "fight_or_retreat", "slot": 4}]
    state, _ = play(state, act("battle_choice", 0, choice="fight"),
                    act("battle_choice", 1, choice="fight"))
    state, events = rolls(state, 10, 6)
    totals = {e["player"]: e["total"] for e in events if e["type"] == "battle_roll"}
    assert totals == {0: 26, 1: 23}
    assert state["pending"] == [{"player": 1, "decision": "lose_ship", "slot": 4}]
    listed = {a["ship"] for a in GAME.legal_actions(state, 1)}
    assert listed == {ship(state, 1, "S-CRUISER"), ship(state, 1, "S-TRIPOD-B")}
    tripod = ship(state, 1, "S-TRIPOD-B")
    state, events = play(state, act("lose_ship", 1, ship=tripod))
    assert tripod in state["ship_discard"] and ship(state, 1, "S-CRUISER") in state["players"][1]["hand"]
    assert state["pending"][0] == {"player": 0, "decision": "reward", "slot": 4,
                                   "city": CULTURE[0]}
    # fuel is not refunded to the loser (TRE-21): 8 - (5 + 3)
    assert state["players"][1]["fuel"] == 0


def test_tre_29_bonuses_once_per_ship_and_several_bonuses_stack():
    """TRE-29: bonuses once per ship and several bonuses stack."""
    d = {k: CAT.ships[k] for k in ("S-START", "S-TRIPOD-A", "S-TRIPOD-B", "S-TRIPOD-C",
                                   "S-CRUISER", "S-SAUCER-CULT")}
    # +4 only once even with two saucers
    assert strength([d["S-TRIPOD-A"], d["S-START"], d["S-START"]], "science") == 5 + 4 + 7 + 7
    # tripod C: +3 with a saucer and +3 against industry -> +6 when both hold
    assert strength([d["S-TRIPOD-C"], d["S-SAUCER-CULT"]], "industry") == 5 + 6 + 3
    assert strength([d["S-TRIPOD-C"]], "industry") == 8
    # a partner bonus needs ANOTHER ship of the type on the same city
    assert strength([d["S-TRIPOD-B"]], "science") == 5
    assert strength([d["S-TRIPOD-B"], d["S-TRIPOD-B"]], "science") == 16
    assert strength([d["S-SAUCER-CULT"]], "culture") == 7


def test_tre_18_single_attacker_takes_the_reward_without_battle():
    """TRE-18: single attacker takes the reward without battle."""
    state = at_plan(hands={0: ["S-START"], 1: ["S-START"]})
    state, events = plan_all(state, {0: [("S-START", 1)], 1: [("S-START", 2)]})
    assert [e["type"] for e in events if e["type"] in ("uncontested", "battle")] == \
        ["uncontested", "uncontested"]
    assert state["pending"][0]["decision"] == "reward" and state["pending"][0]["player"] == 0


def test_tre_19_weakest_decides_first_seat_order_on_ties_retreat_returns_ships():
    """TRE-19: weakest decides first seat order on ties retreat returns ships."""
    state = at_plan(players=3, hands={0: ["S-CRUISER"], 1: ["S-START"], 2: ["S-START"]})
    state, events = plan_all(state, {0: [("S-CRUISER", 1)], 1: [("S-START", 1)],
                                     2: [("S-START", 1)]})
    assert state["battle"] is not None
    assert state["battle"]["order"] == [1, 2, 0]  # 3, 3 (seat order), 9
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("battle_choice", 0, choice="fight"))
    assert exc.value.rule == "TRE-19"  # the weakest decides first
    saucer1 = ship(state, 1, "S-START")
    state, events = play(state, act("battle_choice", 1, choice="retreat"))
    assert saucer1 in state["players"][1]["hand"] and state["players"][1]["fuel"] == 6
    assert state["pending"] == [{"player": 2, "decision": "fight_or_retreat", "slot": 1}]
    state, events = play(state, act("battle_choice", 2, choice="retreat"))
    # one attacker left: reward without battle
    assert any(e["type"] == "others_retreated" and e["player"] == 0 for e in events)
    assert state["pending"][0] == {"player": 0, "decision": "reward", "slot": 1,
                                   "city": state["slots"][0]}


def test_tre_20_tie_rerolls_from_base_strength():
    """TRE-20: tie rerolls from base strength."""
    state = at_plan(hands={0: ["S-START"], 1: ["S-START"]})
    state, _ = plan_all(state, {0: [("S-START", 2)], 1: [("S-START", 2)]})
    state, _ = play(state, act("battle_choice", 0, choice="fight"),
                    act("battle_choice", 1, choice="fight"))
    assert sum(ROLL_WEIGHTS.values()) == 36 and ROLL_WEIGHTS[7] == 6 and ROLL_WEIGHTS[2] == 1
    listed = GAME.legal_actions(state)
    assert {a["total"]: a["probability"] for a in listed}[7] == "1/6"
    state, events = rolls(state, 8, 8)
    assert any(e["type"] == "battle_tie" for e in events)
    assert state["battle"] is not None
    assert state["battle"]["rolls"] == [{"player": 0, "total": None}, {"player": 1, "total": None}]
    state, events = rolls(state, 2, 3)
    totals = [e["total"] for e in events if e["type"] == "battle_roll"]
    assert totals == [5, 6]  # base 3 + the new roll, the first roll forgotten
    assert state["players"][1]["stats"]["battles_won"] == 1


def test_tre_20_ruling_three_fighters_only_the_tied_top_reroll():
    """TRE-20: ruling three fighters only the tied top reroll."""
    state = at_plan(players=3, hands={0: ["S-START"], 1: ["S-START"], 2: ["S-START"]})
    state, _ = plan_all(state, {p: [("S-START", 3)] for p in range(3)})
    state, _ = play(state, *[act("battle_choice", p, choice="fight") for p in range(3)])
    state, events = rolls(state, 9, 4, 9)
    assert state["battle"] is not None
    assert state["battle"]["rolls"] == [{"player": 0, "total": None}, {"player": 2, "total": None}]
    # player 1 has lost already and does not roll again
    sides = {s["player"]: s["status"] for s in state["attacks"][0]["sides"]}
    assert sides == {0: "fight", 1: "lost", 2: "fight"}
    state, events = rolls(state, 5, 6)
    assert any(e["type"] == "battle_won" and e["player"] == 2 for e in events)
    assert sorted(e["player"] for e in events if e["type"] == "ship_lost") == [0, 1]


def test_tre_16_battles_are_fought_slot_by_slot_after_refuel():
    """TRE-16: battles are fought slot by slot after refuel."""
    state = at_plan(hands={0: ["S-START", "S-TRIPOD-A"], 1: ["S-CRUISER", "S-TRIPOD-B"]})
    state, events = plan_all(state, {0: [("S-START", 1), ("S-TRIPOD-A", 3)],
                                     1: [("S-CRUISER", 3), ("S-TRIPOD-B", 1)]})
    kinds = [e["type"] for e in events]
    assert kinds.index("orders_revealed") < kinds.index("fuel_paid") < kinds.index("battle")
    assert state["battle"] is not None
    assert state["battle"]["slot"] == 1


def test_tre_31_reserve_ship_joins_by_paying_fuel_and_not_without():
    """TRE-31: reserve ship joins by paying fuel and not without."""
    state = at_plan(hands={0: ["S-START", "S-ORBITER"], 1: ["S-START"]})
    state, _ = plan_all(state, {0: [("S-START", 1)], 1: [("S-START", 1)]})
    state, _ = play(state, act("battle_choice", 0, choice="fight"),
                    act("battle_choice", 1, choice="fight"))
    orbiter = ship(state, 0, "S-ORBITER")
    assert state["pending"] == [{"player": 0, "decision": "reserve", "slot": 1}]
    assert {a["type"] for a in GAME.legal_actions(state, 0)} >= {"join_reserve", "reserve_done"}
    state, events = play(state, act("join_reserve", 0, ship=orbiter))
    joined = next(e for e in events if e["type"] == "reserve_joined")
    assert joined["fuel"] == 3 and state["players"][0]["fuel"] == 8 - 2 - 3
    assert joined["strength"] == 3 + 4
    assert state["pending"][0]["decision"] == "roll"
    # without the fuel the reserve cannot join
    poor = at_plan(hands={0: ["S-START", "S-ORBITER"], 1: ["S-START"]}, fuel={0: 4})
    poor, _ = plan_all(poor, {0: [("S-START", 1)], 1: [("S-START", 1)]})
    poor, _ = play(poor, act("battle_choice", 0, choice="fight"),
                   act("battle_choice", 1, choice="fight"))
    assert poor["pending"][0]["decision"] == "roll"  # 4 - 2 = 2 fuel < 3: no reserve step
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("join_reserve", 1, ship=orbiter))
    assert exc.value.rule == "TRE-20"  # the battle is at its 2d6 rolls


def test_tre_32_redeploy_is_committed_secretly_then_revealed_together():
    """TRE-32: redeploy is committed secretly then revealed together."""
    state = at_plan(hands={0: ["S-TRIPOD-WALK"], 1: ["S-TRIPOD-WALK", "S-START"]})
    state, events = plan_all(state, {0: [("S-TRIPOD-WALK", 1)],
                                     1: [("S-TRIPOD-WALK", 2), ("S-START", 1)]})
    assert [e["player"] for e in state["pending"]] == [0, 1]
    assert {e["decision"] for e in state["pending"]} == {"redeploy"}
    walk0, walk1 = ship(state, 0, "S-TRIPOD-WALK"), ship(state, 1, "S-TRIPOD-WALK")
    state, _ = play(state, act("redeploy", 0, moves=[{"ship": walk0, "slot": 4}]))
    view = GAME.view(state, 1)
    assert view["players"][0]["redeploy"] == {"submitted": True}
    assert walk0 not in str(view["players"][0])
    assert state["attacks"][0]["sides"][0]["ships"] == [walk0]  # not moved before the reveal
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("redeploy", 1, moves=[{"ship": ship(state, 1, "S-START"),
                                                    "slot": 3}]))
    assert exc.value.rule == "TRE-32"
    state, events = play(state, act("redeploy", 1, moves=[{"ship": walk1, "slot": 1}]))
    assert any(e["type"] == "redeploy_revealed" for e in events)
    slots = {a["slot"]: [s["player"] for s in a["sides"]] for a in state["attacks"]}
    assert slots == {1: [1], 4: [0]}


def test_tre_31a_a_reserve_ship_never_makes_a_third_ship_at_one_city():
    """RULING TRE-31a: a reserve ship that joins counts toward the TRE-9 limit
    of two ships of one player at one city: with two ships already attacking
    there, no reserve step is offered and ``join_reserve`` is refused; with
    one, the reserve ship joins as the second."""
    hands = {0: ["S-START", "S-TRIPOD-A", "S-ORBITER"], 1: ["S-START"]}
    state = at_plan(hands=hands, fuel={0: 20})
    two, _ = plan_all(state, {0: [("S-START", 1), ("S-TRIPOD-A", 1)], 1: [("S-START", 1)]})
    two, _ = play(two, act("battle_choice", 1, choice="fight"),
                  act("battle_choice", 0, choice="fight"))
    orbiter = ship(two, 0, "S-ORBITER")
    assert orbiter in two["players"][0]["hand"] and two["players"][0]["fuel"] >= 3
    assert two["pending"][0]["decision"] == "roll"  # no reserve step for a full side
    assert two["battle"] is not None
    reserve: TrembleState = {**two, "battle": {**two["battle"], "step": "reserve", "next": 0,
                                 "order": [0, 1], "rolls": []}}
    reserve["pending"] = GAME.compute_pending(reserve)
    assert reserve["pending"] == [{"player": 0, "decision": "reserve", "slot": 1}]
    assert [a["type"] for a in GAME.legal_actions(reserve, 0)] == ["reserve_done"]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(reserve, act("join_reserve", 0, ship=orbiter))
    assert exc.value.rule == "TRE-31a" and "TRE-9" in exc.value.reason
    # one ship at the city: the reserve ship may join, making two
    one, _ = plan_all(state, {0: [("S-START", 1)], 1: [("S-START", 1)]})
    one, _ = play(one, act("battle_choice", 0, choice="fight"),
                  act("battle_choice", 1, choice="fight"))
    one, _ = play(one, act("join_reserve", 0, ship=orbiter))
    sides = {s["player"]: s["ships"] for s in one["attacks"][0]["sides"]}
    assert len(sides[0]) == 2 and orbiter in sides[0]
