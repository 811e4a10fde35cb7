"""Turn phases (TRE-11 … TRE-15, TRE-17): fuel, buying, intel, planning, refuel."""

from __future__ import annotations

import pytest

from service.games.errors import MalformedInput, RuleViolation
from service.games.objects import Event
from service.games.registry import get_game
from service.games.tremble import GAME
from service.games.tremble.cards import design_of
from service.games.tremble.state_types import Pile, TrembleState

from .builder import (
    CAT,
    act,
    at_plan,
    chance,
    cities,
    new_table,
    place_ships,
    plan_all,
    play,
    ship,
    strings,
    through_buy,
    through_intel,
)


def next_turn(state: TrembleState) -> tuple[TrembleState, list[Event]]:
    """No attacks: plan nothing, the turn ends, the next one starts."""
    return play(state, *[act("plan", p, orders=[]) for p in range(len(state["players"]))])


def test_tre_11_eight_fuel_per_turn_capped_at_twenty():
    """TRE-11: eight fuel per turn capped at twenty."""
    state = at_plan(fuel={0: 15, 1: 3})
    state, events = next_turn(state)
    assert any(e["type"] == "fuel" and e["rule"] == "TRE-11" for e in events)
    assert [p["fuel"] for p in state["players"]] == [20, 11]
    assert state["turn"] == 2


def test_tre_12_draw_two_buy_at_most_one_secretly_paying_people():
    """TRE-12: draw two buy at most one secretly paying people."""
    state, _ = play(new_table(2), act("draw_ships", 0))
    assert state["pending"][0] == {"player": "chance", "decision": "draw_ship", "for": 0}
    state = chance(state, "draw_ship", ship="S-CRUISER#2")
    state = chance(state, "draw_ship", ship="S-CRUISER")
    offer = state["players"][0]["offer"]
    assert offer == ["S-CRUISER#2", "S-CRUISER"]
    state, _ = play(state, act("draw_ships", 1))
    for copy in ("S-TRIPOD-A", "S-TRIPOD-A#2"):
        state = chance(state, "draw_ship", ship=copy)
    listed = GAME.legal_actions(state, 0)
    assert {a["ship"] for a in listed if a["type"] == "buy"} == {None, *offer}
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("buy", 0, ship="S-TRIPOD-A", discard=None))
    assert exc.value.rule == "TRE-12"
    poor: TrembleState = {**state, "players": [{**state["players"][0], "people": 40000}, state["players"][1]]}
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(poor, act("buy", 0, ship="S-CRUISER", discard=None))
    assert exc.value.rule == "TRE-12" and "costs 50000" in exc.value.reason
    state, events = play(state, act("buy", 0, ship="S-CRUISER", discard=None))
    p0 = state["players"][0]
    assert p0["people"] == 0 and "S-CRUISER" in p0["hand"] and "S-CRUISER#2" in state["ship_discard"]
    # secret: the event and the other player's view say nothing of the ship
    assert events[0] == {"type": "bought", "player": 0, "rule": "TRE-12"}
    seen = GAME.view(state, 1)
    assert seen["players"][0]["hand"] == {"count": 2, "flown": []}
    assert seen["players"][1]["offer"] == state["players"][1]["offer"]
    assert "S-CRUISER" not in strings(seen["players"][0])


def test_tre_12_fleet_of_five_discards_from_hand_to_buy_a_sixth():
    """TRE-12: fleet of five discards from hand to buy a sixth."""
    state = new_table(2)
    state = place_ships(state, {0: ["S-START", "S-SAUCER", "S-SAUCER", "S-SAUCER", "S-SAUCER"]})
    state, _ = play(state, act("draw_ships", 0))
    state = chance(state, "draw_ship", ship="S-TRIPOD-A")
    state = chance(state, "draw_ship", ship="S-TRIPOD-B")
    state, _ = play(state, act("draw_ships", 1))
    state = chance(state, "draw_ship", ship="S-CRUISER")
    state = chance(state, "draw_ship", ship="S-CRUISER#2")
    tripod = next(s for s in state["players"][0]["offer"] if design_of(s) == "S-TRIPOD-A")
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("buy", 0, ship=tripod, discard=None))
    assert exc.value.rule == "TRE-12" and "5 ships" in exc.value.reason
    old = state["players"][0]["hand"][1]
    listed = [a for a in GAME.legal_actions(state, 0) if a["ship"] == tripod]
    assert len(listed) == 5 and {a["discard"] for a in listed} == set(state["players"][0]["hand"])
    state, _ = play(state, act("buy", 0, ship=tripod, discard=old))
    assert len(state["players"][0]["hand"]) == 5 and old in state["ship_discard"]
    assert state["players"][0]["people"] == 20000  # full price, no refund


def test_tre_12_ruling_empty_ship_deck_is_refilled_from_the_discard():
    """TRE-12: ruling empty ship deck is refilled from the discard."""
    state, _ = play(new_table(2), act("draw_ships", 0))
    state = {**state, "ship_discard": state["ship_deck"][1:], "ship_deck": state["ship_deck"][:1]}
    only = state["ship_deck"][0]
    assert [a["ship"] for a, _ in GAME.chance_outcomes(state)] == [only]
    state, events = play(state, act("draw_ship", "chance", ship=only))
    assert any(e["type"] == "ship_deck_refilled" for e in events)
    assert state["ship_discard"] == [] and len(state["ship_deck"]) == 29


def test_tre_13_reveal_until_slots_full_army_strikes_and_is_replaced():
    """TRE-13: reveal until slots full army strikes and is replaced."""
    state = through_buy(new_table(4))
    assert len(state["slots"]) == 5
    army = next(a for a in CAT.armies if CAT.armies[a]["mark"] == "*")
    star = cities()
    state, events = play(state, act("reveal", "chance", card=star[0]),
                         act("reveal", "chance", card=army))
    assert any(e["type"] == "army_revealed" for e in events)
    assert army in state["city_discard"] and state["slots"][1] is None
    assert state["pending"] == [{"player": "chance", "decision": "reveal", "slot": 2}]
    state = through_intel(state)
    assert all(state["slots"]) and state["phase"] == "plan"


def test_tre_13_short_deck_plays_fewer_cities_and_the_game_ends_after_that_turn():
    """TRE-13: short deck plays fewer cities and the game ends after that turn."""
    state = through_buy(new_table(2))
    piles: list[Pile] = [{**pile, "candidates": pile["candidates"][:pile["removed"]]} for pile in state["piles"]]
    piles[1]["candidates"] = state["piles"][1]["candidates"][:8]  # two cards left to draw
    moved = [c for pile, new in zip(state["piles"], piles) for c in pile["candidates"]
             if c not in new["candidates"]]
    state = {**state, "piles": piles, "city_discard": moved}
    GAME.validate_state(state)
    state = through_intel(state, [c for c in piles[1]["candidates"] if c in CAT.cities][:2])
    assert sum(1 for c in state["slots"] if c) == 2 and state["phase"] == "plan"
    state, events = next_turn(state)
    assert state["result"] == {"finished": True, "winners": [0, 1],
                               "reason": "city deck played out"}
    assert state["pending"] == []


def test_tre_14_orders_are_committed_secretly_and_revealed_together():
    """TRE-14: orders are committed secretly and revealed together."""
    state = at_plan(players=3, hands={0: ["S-START"], 1: ["S-START"], 2: ["S-START"]})
    assert [e["player"] for e in state["pending"]] == [0, 1, 2]
    mine = ship(state, 0, "S-START")
    state, events = play(state, act("plan", 0, orders=[{"ship": mine, "slot": 2}]))
    assert events == [{"type": "plan_submitted", "player": 0, "rule": "TRE-14"}]
    assert [e["player"] for e in state["pending"]] == [1, 2]
    assert state["players"][0]["orders"] == [{"ship": mine, "slot": 2}]
    assert mine in state["players"][0]["hand"]  # nothing moves before the reveal
    for seat in (1, 2, None):
        seen = GAME.view(state, seat)
        assert seen["players"][0]["orders"] == {"submitted": True}
        assert seen["players"][1]["orders"] == (None if seat == 1 else {"submitted": False})
        assert mine not in strings(seen)
    assert GAME.view(state, 0)["players"][0]["orders"] == [{"ship": mine, "slot": 2}]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("plan", 0, orders=[]))
    assert exc.value.rule == "TRE-14"  # submitted: waiting for the others' orders
    state, events = play(state, act("plan", 1, orders=[]), act("plan", 2, orders=[]))
    revealed = next(e for e in events if e["type"] == "orders_revealed")
    assert revealed["orders"][0] == {"player": 0, "orders": [{"ship": mine, "slot": 2}]}
    assert all(p["orders"] is None for p in state["players"])


def test_tre_14_listed_plans_constraints_and_whole_order_validation():
    """TRE-14: listed plans constraints and whole order validation."""
    state = at_plan(hands={0: ["S-START", "S-TRIPOD-A"]})
    hand = sorted(state["players"][0]["hand"])
    listed = GAME.legal_actions(state, 0)
    assert {"type": "plan", "player": 0, "orders": []} in listed
    singles = [a for a in listed if len(a["orders"]) == 1]
    assert len(singles) == 2 * 4
    constraint = GAME.constraints(state, 0)
    assert constraint is not None
    assert constraint["max_ships_per_city"] == 2 and constraint["fuel"] == 8
    assert [s["slot"] for s in constraint["open_slots"]] == [1, 2, 3, 4]
    assert {s["ship"] for s in constraint["ships"]} == set(hand)
    cases = [([{"ship": "S-CRUISER", "slot": 1}], "TRE-14", "not a ship in your hand"),
             ([{"ship": hand[0], "slot": 1}, {"ship": hand[0], "slot": 2}], "TRE-14", "two orders"),
             ([{"ship": hand[0], "slot": 6}], "TRE-14", "no open city")]
    for orders, rule, why in cases:
        check = GAME.check(state, act("plan", 0, orders=orders))
        assert check["legal"] is False and check["rule"] == rule and why in check["reason"]
    with pytest.raises(MalformedInput) as exc:
        GAME.apply(state, act("plan", 0, orders=[{"ship": hand[0]}]))
    assert "action.orders.0.slot" in exc.value.errors


def test_tre_15_short_of_fuel_the_player_discards_attacking_ships_of_their_choice():
    """TRE-15: short of fuel the player discards attacking ships of their choice."""
    state = at_plan(hands={0: ["S-CRUISER", "S-TRIPOD-A", "S-START"]}, fuel={0: 9})
    state, events = plan_all(state, {0: [("S-CRUISER", 1), ("S-TRIPOD-A", 2), ("S-START", 2)]})
    assert state["phase"] == "refuel"
    assert state["pending"] == [{"player": 0, "decision": "discard_unfueled"}]
    assert len(GAME.legal_actions(state, 0)) == 3
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("discard_unfueled", 0, ship=state["players"][1]["hand"][0]))
    assert exc.value.rule == "TRE-15"
    tripod = ship(state, 0, "S-TRIPOD-A")
    state, events = play(state, act("discard_unfueled", 0, ship=tripod))
    assert tripod in state["ship_discard"]
    assert any(e["type"] == "fuel_paid" and e["fuel"] == 7 for e in events)
    assert state["players"][0]["fuel"] == 2


def test_tre_17_turn_order_buy_intel_plan_refuel_battle_reward():
    """TRE-17: turn order buy intel plan refuel battle reward."""
    state = new_table(2)
    phases = [state["phase"]]
    state = through_buy(state)
    phases.append(state["phase"])
    state = through_intel(state)
    phases.append(state["phase"])
    state = place_ships(state, {0: ["S-START"], 1: ["S-START"]})
    state, _ = plan_all(state, {0: [("S-START", 1)], 1: [("S-START", 1)]})
    phases.append(state["phase"])
    state, _ = play(state, act("battle_choice", 0, choice="fight"),
                    act("battle_choice", 1, choice="fight"),
                    act("roll", "chance", total=12), act("roll", "chance", total=2))
    phases.append(state["phase"])
    assert phases == ["buy", "intel", "plan", "battle", "reward"]


def test_tre_12a_the_buy_step_is_optional_a_player_may_decline_before_drawing():
    """RULING TRE-12a: each player first draws or declines; a player who
    declines draws nothing, buys nothing and is done with the buy step, so a
    table where someone declines can be recorded in ``chance: table``."""
    state = new_table(3)
    assert state["pending"] == [{"player": p, "decision": "draw_or_decline"} for p in range(3)]
    assert GAME.legal_actions(state, 1) == [act("draw_ships", 1), act("decline_buy", 1)]
    deck = list(state["ship_deck"])
    state, events = play(state, act("decline_buy", 1))
    assert events[0] == {"type": "buy_declined", "player": 1, "rule": "TRE-12a"}
    p1 = state["players"][1]
    assert p1["offer"] == [] and p1["bought"] and p1["buy_choice"] == "decline"
    assert state["ship_deck"] == deck and p1["people"] == 50000
    assert [e["player"] for e in state["pending"]] == [0, 2]
    with pytest.raises(RuleViolation) as exc:  # declined: no purchase this turn
        GAME.apply(state, act("buy", 1, ship=None, discard=None))
    assert exc.value.rule == "TRE-12a" and "no decision" in exc.value.reason
    with pytest.raises(RuleViolation) as exc:  # nothing drawn yet: no buy
        GAME.apply(state, act("buy", 0, ship=None, discard=None))
    assert exc.value.rule == "TRE-12a" and "draw_or_decline" in exc.value.reason
    state, _ = play(state, act("draw_ships", 0))
    assert state["pending"][0] == {"player": "chance", "decision": "draw_ship", "for": 0}
    state = chance(state, "draw_ship", ship=state["ship_deck"][0])
    state = chance(state, "draw_ship", ship=state["ship_deck"][0])
    assert state["pending"] == [{"player": 0, "decision": "buy"},
                                {"player": 2, "decision": "draw_or_decline"}]
    state, _ = play(state, act("buy", 0, ship=None, discard=None), act("decline_buy", 2))
    assert state["phase"] == "intel" and len(state["ship_discard"]) == 2
    GAME.validate_state(state)
    # the next turn asks again
    state = through_intel(state)
    state, _ = next_turn(state)
    assert state["turn"] == 2
    assert state["pending"] == [{"player": p, "decision": "draw_or_decline"} for p in range(3)]
    assert all(p["buy_choice"] is None for p in state["players"])


def test_tre_12a_server_games_record_declines_and_replay_them():
    """RULING TRE-12a in ``chance: server``: a decline is an ordinary recorded
    action, and a replay of the recorded actions reproduces the game."""
    from service.games.replay import replay

    state, _ = GAME.new_game(2, {"missions": False}, seed=8)
    actions = [act("decline_buy", 0), act("draw_ships", 1)]
    state, _ = play(state, *actions)
    assert len(state["players"][0]["hand"]) == 1 and state["players"][0]["offer"] == []
    assert len(state["players"][1]["offer"]) == 2
    out = replay(get_game("tremble"), {"players": 2, "options": {"missions": False}, "seed": 8}, actions)
    assert out["state"] == state


def test_tre_12_ids_the_copy_drawn_is_the_id_every_later_action_names():
    """TRE-12 / TRE-14 ids: ``draw_ship`` names a copy (``S-SAUCER#3``), the
    offer and hand hold that copy, and a plan naming it is accepted; a
    plan naming only the design of a copy not in hand is refused."""
    state = new_table(2)
    state, _ = play(state, act("draw_ships", 0))
    saucers = [a["ship"] for a, _ in GAME.chance_outcomes(state)
               if design_of(a["ship"]) == "S-SAUCER"]
    copy = next(s for s in saucers if s != "S-SAUCER")
    state = chance(state, "draw_ship", ship=copy)
    assert state["players"][0]["offer"] == [copy]
    state = chance(state, "draw_ship", ship=state["ship_deck"][0])
    state, _ = play(state, act("buy", 0, ship=copy, discard=None), act("decline_buy", 1))
    assert copy in state["players"][0]["hand"]
    state = through_intel(state)
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("plan", 0, orders=[{"ship": "S-SAUCER", "slot": 1}]))
    assert exc.value.rule == "TRE-14"
    assert f"name ships by copy id: you hold {copy}" in exc.value.reason
    state, _ = play(state, act("plan", 0, orders=[{"ship": copy, "slot": 1}]))
    assert state["players"][0]["orders"] == [{"ship": copy, "slot": 1}]


def test_tre_12_tre_13_tre_10_a_refused_chance_outcome_says_why():
    """TRE-12 / TRE-13 / TRE-10: an impossible chance outcome is refused citing
    the clause of the node, and the reason says why: the ship is in the ship
    discard (and which copies of its design are in the deck), no copy is
    left, the card lies in the lower pile, was already revealed or removed."""
    state, _ = play(new_table(2), act("draw_ships", 0))
    deck = state["ship_deck"]
    twin = next(s for s in deck if "#" in s)
    design = design_of(twin)
    gone: TrembleState = {**state, "ship_deck": [s for s in deck if s != design],
            "ship_discard": [design]}
    check = GAME.check(gone, act("draw_ship", "chance", ship=design))
    assert check["rule"] == "TRE-12" and "ship discard" in check["reason"]
    assert twin in check["reason"]
    none_left: TrembleState = {**state, "ship_deck": [s for s in deck if design_of(s) != design],
                 "ship_discard": [s for s in deck if design_of(s) == design]}
    check = GAME.check(none_left, act("draw_ship", "chance", ship=twin))
    assert f"no copy of {design} is left" in check["reason"]
    assert "not a ship card" in GAME.check(state, act("draw_ship", "chance",
                                                      ship="S-NOPE"))["reason"]
    # the city deck: the lower pile waits for the * pile, a seen card is gone
    state = through_buy(new_table(2))
    lower = state["piles"][1]["candidates"][0]
    check = GAME.check(state, act("reveal", "chance", card=lower))
    assert check["rule"] == "TRE-13" and "lower pile" in check["reason"]
    first = state["piles"][0]["candidates"][0]
    state = chance(state, "reveal", card=first)
    assert "already been revealed" in GAME.check(state, act("reveal", "chance",
                                                            card=first))["reason"]
    boxed = next(c for c in state["box"] if c in CAT.cities)
    assert "removed at setup" in GAME.check(state, act("reveal", "chance", card=boxed))["reason"]
    # missions (TRE-10): one removed for the player count (TRE-2), one dealt
    dealing = new_table(2, missions=True)
    assert dealing["pending"][0]["decision"] == "deal_mission"
    boxed = next(m for m in dealing["box"] if m in CAT.missions)
    check = GAME.check(dealing, act("deal_mission", "chance", mission=boxed))
    assert check["rule"] == "TRE-10" and "removed at setup" in check["reason"]
    dealt = dealing["mission_deck"][0]
    dealing = chance(dealing, "deal_mission", mission=dealt)
    assert "already been dealt" in GAME.check(dealing, act("deal_mission", "chance",
                                                          mission=dealt))["reason"]
    # a roll keeps the generic reason (what the node takes)
    rolling: TrembleState = {**state, "pending": [{"player": "chance", "decision": "roll",
                                     "context": "battle", "for": 0, "slot": 1}]}
    assert "possible: 2, 3" in GAME.impossible_outcome_reason(
        rolling, rolling["pending"][0], act("roll", "chance", total=13),
        [act("roll", "chance", total=t) for t in range(2, 13)])
