"""The capture and its response window (RAI-15 … RAI-21, RAI-26, RAI-27)."""

from __future__ import annotations

import pytest

from service.games.errors import InvalidState, RuleViolation
from service.games.raiders import GAME

from .builder import act, pass_all, play, table, types


def test_rai_15_capture_any_property_in_play_but_not_your_own():
    """RAI-15: capture any property in play but not your own."""
    state = table(hands={0: ["S-K", "S-6"]}, centre=["kiosk"],
                  holdings={0: {"club": "S-9"}, 1: {"market": "H-9"}})
    listed = {a["property"] for a in GAME.legal_actions(state, 0) if a["type"] == "capture"}
    assert listed == {"kiosk", "market"}
    for prop, why in (("club", "already control"), ("bank", "not a property in play")):
        with pytest.raises(RuleViolation) as exc:
            GAME.apply(state, act("capture", 0, fighter="S-K", property=prop))
        assert exc.value.rule == "RAI-15" and why in exc.value.reason
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("capture", 0, fighter="H-K", property="kiosk"))
    assert exc.value.rule == "RAI-15" and "not in your hand" in exc.value.reason
    after, events = play(state, act("capture", 0, fighter="S-K", property="market"))
    assert after["capture"] is not None
    assert after["capture"]["fighter"] == "S-K" and "S-K" not in after["players"][0]["hand"]
    assert events[0]["type"] == "capture_declared" and events[0]["guard"] == "H-9"


def test_rai_16_unguarded_equal_power_captures_lower_dies():
    """RAI-16: unguarded equal power captures lower dies."""
    state = table(hands={0: ["S-J"]}, centre=["factory"])  # 6 vs 6
    after, events = pass_all(play(state, act("capture", 0, fighter="S-J", property="factory"))[0])
    assert after["players"][0]["holdings"] == {"factory": "S-J"} and after["centre"] == []
    state = table(hands={0: ["S-10"]}, centre=["factory"])  # 5 vs 6
    after, events = pass_all(play(state, act("capture", 0, fighter="S-10", property="factory"))[0])
    assert after["players"][0]["holdings"] == {} and after["centre"] == ["factory"]
    assert "S-10" in after["discard"]
    died = [e for e in events if e["type"] == "fighter_died"]
    assert died[0]["rule"] == "RAI-16" and died[0]["card"] == "S-10"


def test_rai_17_stronger_attacker_kills_guard_then_meets_property():
    """RAI-17: stronger attacker kills guard then meets property."""
    state = table(hands={0: ["S-K"]}, holdings={1: {"market": "H-9"}})  # 8 vs 4, then vs 5
    after, events = pass_all(play(state, act("capture", 0, fighter="S-K", property="market"))[0])
    assert "H-9" in after["discard"]
    assert after["players"][0]["holdings"] == {"market": "S-K"}
    assert after["players"][1]["holdings"] == {}
    # the guard dies, then the property wins: the attacker dies too
    state = table(hands={0: ["S-10"]}, holdings={1: {"bank": "H-9"}})  # 5 > 4, 5 < 8
    after, events = pass_all(play(state, act("capture", 0, fighter="S-10", property="bank"))[0])
    assert {"H-9", "S-10"} <= set(after["discard"]) and after["centre"] == ["bank"]


def test_rai_17_weaker_attacker_dies_guard_stays():
    """RAI-17: weaker attacker dies guard stays."""
    state = table(hands={0: ["S-8"]}, holdings={1: {"kiosk": "H-9"}})  # 3 < 4
    after, events = pass_all(play(state, act("capture", 0, fighter="S-8", property="kiosk"))[0])
    assert after["players"][1]["holdings"] == {"kiosk": "H-9"} and "S-8" in after["discard"]
    assert [e["rule"] for e in events if e["type"] == "fighter_died"] == ["RAI-17"]


def test_rai_17_equal_power_both_die():
    """RAI-17: equal power both die."""
    state = table(hands={0: ["S-9"]}, holdings={1: {"kiosk": "H-9"}})  # 4 = 4
    after, events = pass_all(play(state, act("capture", 0, fighter="S-9", property="kiosk"))[0])
    assert {"S-9", "H-9"} <= set(after["discard"])
    assert after["players"][1]["holdings"] == {} and after["players"][0]["holdings"] == {}


def test_rai_18_the_winner_guards_and_owns_the_property():
    """RAI-18: the winner guards and owns the property."""
    state = table(hands={0: ["S-Q"]}, centre=["casino"])
    after, events = pass_all(play(state, act("capture", 0, fighter="S-Q", property="casino"))[0])
    assert after["players"][0]["holdings"] == {"casino": "S-Q"}
    assert "casino" not in after["centre"] and "S-Q" not in after["players"][0]["hand"]
    captured = [e for e in events if e["type"] == "captured"][0]
    assert captured["rule"] == "RAI-18" and GAME.score(after)["scores"][0]["total"] == 7


def test_rai_19_a_property_without_guard_returns_to_the_centre_ownerless():
    """RAI-19: a property without guard returns to the centre ownerless."""
    state = table(hands={0: ["S-9"]}, holdings={1: {"kiosk": "H-9"}}, centre=[])
    after, events = pass_all(play(state, act("capture", 0, fighter="S-9", property="kiosk"))[0])
    assert after["centre"] == ["kiosk"]
    assert all("kiosk" not in p["holdings"] for p in after["players"])
    assert {"type": "property_freed", "property": "kiosk", "from_player": 1} in events


def test_rai_20_a_guard_never_dies_from_its_own_power():
    """RAI-20: a guard never dies from its own power."""
    # S-8 (power 3) guards a bank (power 8) and is pushed below zero
    state = table(hands={1: ["H-9", "D-6", "S-6", "H-7"]}, holdings={0: {"bank": "S-8"}},
                  active=1, centre=["kiosk"])
    state, _ = play(state, act("capture", 1, fighter="H-9", property="bank"),
                    act("play_trick", 1, card="D-6", target="S-8"),   # Bribe -3
                    act("play_trick", 1, card="S-6", target="S-8"))   # Trip -2
    from service.games.raiders.cards import Catalogue
    from service.games.raiders.power import current_power
    assert current_power(state, Catalogue.of_state(state), "S-8") == -2
    state, events = play(state, act("play_trick", 1, card="H-7", target="H-9"))  # Roll back
    assert state["players"][0]["holdings"] == {"bank": "S-8"}
    assert "S-8" not in state["discard"] and state["modifiers"] == []


def test_rai_21_during_a_capture_others_may_only_play_tricks():
    """RAI-21: during a capture others may only play tricks."""
    state = table(hands={0: ["S-K"], 1: ["H-K", "H-8"]}, centre=["kiosk"],
                  holdings={0: {"club": "S-9"}})
    state, _ = play(state, act("capture", 0, fighter="S-K", property="kiosk"),
                    act("pass", 0))
    assert state["pending"] == [{"player": 1, "decision": "respond"}]
    kinds = {a["type"] for a in GAME.legal_actions(state, 1)}
    assert kinds <= {"play_trick", "pass"} and "capture" not in kinds
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("capture", 1, fighter="H-K", property="club"))
    assert exc.value.rule == "RAI-21"


def test_rai_12_the_attacker_cannot_send_a_second_fighter_during_its_capture():
    """RAI-12: one turn, one fighter, one attempt — also while the window is open
    (the attacker is not one of RAI-21's "other players")."""
    state = table(hands={0: ["S-K", "S-Q"]}, centre=["kiosk", "club"])
    state, _ = play(state, act("capture", 0, fighter="S-K", property="kiosk"))
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("capture", 0, fighter="S-Q", property="club"))
    assert exc.value.rule == "RAI-12" and "one attempt" in exc.value.reason


def test_rai_26_priority_goes_round_from_the_attacker_and_tricks_restart_it():
    """RAI-26: priority goes round from the attacker and tricks restart it."""
    state = table(players=3, hands={0: ["S-K"], 1: ["S-8"], 2: ["H-6"]},
                  centre=["kiosk"], trump="D")
    state, _ = play(state, act("capture", 0, fighter="S-K", property="kiosk"))
    order = []
    with pytest.raises(RuleViolation) as exc:  # player 2 has no priority yet
        GAME.apply(state, act("pass", 2))
    assert exc.value.rule == "RAI-26" and "no decision to make now" in exc.value.reason
    state, _ = play(state, act("pass", 0))
    assert state["capture"] is not None
    order.append(state["capture"]["priority"])
    # player 1 plays Pump up on the (same-suit) attacker: the round restarts
    state, events = play(state, act("play_trick", 1, card="S-8", target="S-K"))
    assert state["capture"] is not None
    assert state["capture"]["priority"] == 0 and state["capture"]["passes"] == 0
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("end_turn", 0))
    assert exc.value.rule == "RAI-26"
    state, _ = play(state, act("pass", 0))
    assert state["capture"] is not None
    order.append(state["capture"]["priority"])
    state, _ = play(state, act("pass", 1))
    assert state["capture"] is not None
    order.append(state["capture"]["priority"])
    assert order == [1, 1, 2] and state["phase"] == "capture"
    state, events = play(state, act("pass", 2))  # the third pass in succession
    assert state["phase"] == "main" and state["players"][0]["holdings"] == {"kiosk": "S-K"}
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("pass", 0))
    assert exc.value.rule == "RAI-26"


def test_rai_27_roll_back_saves_the_attacker_from_certain_death():
    """RAI-27: roll back saves the attacker from certain death."""
    state = table(hands={0: ["S-6", "S-7"]}, centre=["bank"])
    state, _ = play(state, act("capture", 0, fighter="S-6", property="bank"))
    state, events = play(state, act("play_trick", 0, card="S-7", target="S-6"))
    assert "S-6" in state["players"][0]["hand"] and state["capture"] is None
    ended = [e for e in events if e["type"] == "capture_ended"][0]
    assert ended["outcome"] == "failed" and state["capture_used"]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("capture", 0, fighter="S-6", property="bank"))
    assert exc.value.rule == "RAI-12"


def test_rai_27_a_returned_guard_leaves_the_attacker_to_meet_the_property_alone():
    """RAI-27: a returned guard leaves the attacker to meet the property alone."""
    state = table(hands={0: ["S-10"], 1: ["H-7"]}, holdings={1: {"market": "H-K"}})
    state, _ = play(state, act("capture", 0, fighter="S-10", property="market"),
                    act("pass", 0))
    state, events = play(state, act("play_trick", 1, card="H-7", target="H-K"))
    assert "H-K" in state["players"][1]["hand"] and state["centre"] == ["market"]
    # tricks resolve at once, in order: the guard is gone before the fight
    assert types(events).index("fighter_returned") > types(events).index("trick_played")
    state, events = pass_all(state)
    assert state["players"][0]["holdings"] == {"market": "S-10"}  # 5 >= 5
    assert "combat" not in types(events)


def test_rai_30_fizzle_mode_an_illegal_capture_with_a_card_in_hand_is_discarded():
    """RAI-30: in ``fizzle`` mode "the card has no effect and goes to the discard" —
    a fighter put into an illegal capture too, when it is really in the hand."""
    state = table(hands={0: ["S-K", "S-A", "S-Q"]}, centre=["kiosk"],
                  holdings={0: {"club": "S-9"}}, options={"illegal_play": "fizzle"})
    own = act("capture", 0, fighter="S-K", property="club")
    assert GAME.check(state, own) == {
        "legal": False, "fizzles": True, "rule": "RAI-15",
        "reason": "you already control club; the card would go to the discard with no effect"}
    after, events = play(state, own)
    assert types(events) == ["fizzled"] and "S-K" in after["discard"]
    assert after["players"][0]["holdings"] == {"club": "S-9"}
    # RAI-30 ruling with RAI-12: no other effect, but the attempt is used up
    assert after["phase"] == "main" and after["capture_used"]
    # a card without power put in as a fighter (RAI-2) fizzles the same way
    fresh, events = play(state, act("capture", 0, fighter="S-A", property="kiosk"))
    assert [e["rule"] for e in events if e["type"] == "fizzled"] == ["RAI-2"]
    # refused, not fizzled: a card not in the hand, a property not in play
    for bad in (act("capture", 0, fighter="H-K", property="kiosk"),
                act("capture", 0, fighter="S-Q", property="bank")):
        with pytest.raises(RuleViolation) as exc:
            GAME.apply(state, bad)
        assert exc.value.rule == "RAI-15"
        assert GAME.check(state, bad)["legal"] is False
    # a refused capture changes nothing: the turn's one attempt is still there
    after, _ = pass_all(play(state, act("capture", 0, fighter="S-Q", property="kiosk"))[0])
    assert after["players"][0]["holdings"] == {"club": "S-9", "kiosk": "S-Q"}
    # in a response window another player's fighter (RAI-21) is discarded; the window
    # goes on as it was
    state = table(hands={0: ["S-K"], 1: ["H-K"]}, centre=["kiosk"],
                  holdings={0: {"club": "S-9"}}, options={"illegal_play": "fizzle"})
    state, _ = play(state, act("capture", 0, fighter="S-K", property="kiosk"), act("pass", 0))
    assert state["capture"] is not None
    window = dict(state["capture"])
    state, events = play(state, act("capture", 1, fighter="H-K", property="club"))
    assert [e["rule"] for e in events if e["type"] == "fizzled"] == ["RAI-21"]
    assert state["capture"] == window and "H-K" in state["discard"]


def test_rai_17a_stealing_the_guard_under_capture_ends_it_without_a_fight():
    """RULING RAI-17a: the attacker takes over the property under capture in the
    window (Turncoat on its guard) → the capture ends at once, no fight: the
    attacking fighter is back in its owner's hand, the stolen guard stays on,
    and the attempt is used up (RAI-12)."""
    state = table(hands={0: ["S-K", "C-Q"]}, holdings={1: {"market": "C-9"}}, trump="H")
    state, events = play(state, act("capture", 0, fighter="S-K", property="market"),
                         act("play_trick", 0, card="C-Q", target="C-9"))
    assert state["phase"] == "main" and state["capture"] is None
    assert state["players"][0]["holdings"] == {"market": "C-9"}
    assert "S-K" in state["players"][0]["hand"] and "C-9" not in state["discard"]
    assert "combat" not in types(events)
    ended = [e for e in events if e["type"] == "capture_ended"]
    assert ended == [{"type": "capture_ended", "player": 0, "property": "market",
                      "outcome": "unopposed", "rule": "RAI-17a",
                      "reason": "the property under capture came under the attacker's control"}]
    assert state["capture_used"]  # the attempt is spent
    assert not any(a["type"] == "capture" for a in GAME.legal_actions(state, 0))
    GAME.validate_state(state)
    # a state still fighting over a property its attacker controls is refused
    bad = {**state, "phase": "capture", "pending": [{"player": 0, "decision": "respond"}],
           "capture": {"attacker": 0, "fighter": "S-K", "property": "market",
                       "priority": 0, "passes": 0},
           "players": [{**state["players"][0], "hand": [c for c in state["players"][0]["hand"]
                                                        if c != "S-K"]}, state["players"][1]]}
    with pytest.raises(InvalidState) as exc:
        GAME.validate_state(bad)
    assert "RAI-17a" in str(exc.value.errors["state.capture.property"])


def test_rai_30_a_fizzled_capture_uses_up_the_attempt_and_check_calls_it_illegal():
    """RAI-30 (RULING) with RAI-12: in ``fizzle`` mode a capture that fizzles still
    spends the turn's one attempt ("even if the capture failed, the player loses
    the attempt"), so no player can fizzle fighters away and keep it; ``check``
    calls such a play illegal and names the fizzle it would cause."""
    state = table(hands={0: ["S-K", "S-J", "S-A"]}, centre=["kiosk"],
                  holdings={0: {"club": "S-9"}}, options={"illegal_play": "fizzle"})
    illegal = act("capture", 0, fighter="S-K", property="club")  # RAI-15: already yours
    assert illegal not in GAME.legal_actions(state, 0)
    answer = GAME.check(state, illegal)
    assert answer["legal"] is False and answer["fizzles"] is True
    assert answer["rule"] == "RAI-15" and "discard with no effect" in answer["reason"]
    after, events = play(state, illegal)
    assert types(events) == ["fizzled"] and after["capture_used"]
    assert not [a for a in GAME.legal_actions(after, 0) if a["type"] == "capture"]
    # the next capture is no attempt either: it breaks RAI-12, and fizzles as such
    again = act("capture", 0, fighter="S-J", property="kiosk")
    assert GAME.check(after, again)["rule"] == "RAI-12"
    after, events = play(after, again)
    assert [e["rule"] for e in events if e["type"] == "fizzled"] == ["RAI-12"]
    assert after["centre"] == ["kiosk"] and after["phase"] == "main"
    # a legal capture is plain legal, with no fizzle note
    assert GAME.check(state, act("capture", 0, fighter="S-K", property="kiosk")) == {
        "legal": True}
