"""Components, setup and the turn (RAI-1 … RAI-14, RAI-5a)."""

from __future__ import annotations

from typing import Any

import pytest

from service.games.errors import InvalidOptions, InvalidState, RuleViolation
from service.games.raiders import GAME
from service.games.raiders.cards import face

from .builder import act, play, table, types


def _all_fighters(state):
    cards = list(state["fighter_deck"]) + list(state["discard"])
    cards += [state["bottom"]] if state["bottom"] else []
    for p in state["players"]:
        cards += p["hand"] + list(p["holdings"].values())
    return cards


def test_rai_1_two_decks_never_mix():
    """RAI-1: two decks never mix."""
    state, _ = GAME.new_game(3, {}, seed=5)
    cat_fighters = {f["id"] for f in GAME.card_set().data["fighters"]}
    assert all(face(c) in cat_fighters for c in _all_fighters(state))
    assert not any(face(c) in cat_fighters for c in state["property_deck"] + state["centre"])
    broken = dict(state)
    broken["players"] = [dict(p) for p in state["players"]]
    broken["players"][0]["hand"] = state["players"][0]["hand"] + ["club#2"]
    broken["property_deck"] = [c for c in state["property_deck"] if c != "club#2"]
    with pytest.raises(InvalidState) as exc:
        GAME.validate_state(broken)
    assert "RAI-1" in str(exc.value.errors)


def test_rai_2_a_card_without_power_is_no_fighter():
    """RAI-2: a card without power is no fighter."""
    state = table(hands={0: ["S-A", "S-K"]}, centre=["kiosk"])
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("capture", 0, fighter="S-A", property="kiosk"))
    assert exc.value.rule == "RAI-2"
    listed = GAME.legal_actions(state, 0)
    assert not any(a["type"] == "capture" and a["fighter"] == "S-A" for a in listed)
    # a card with power and a trick may fight
    assert act("capture", 0, fighter="S-K", property="kiosk") in listed


def test_rai_3_set_bonus_two_clubs_make_six():
    """RAI-3: set bonus two clubs make six."""
    state = table(holdings={0: {"club": "S-9", "club#2": "S-8"}, 1: {"club#3": "H-9"}})
    scores = GAME.score(state)["scores"]
    assert scores[0]["total"] == 6
    assert scores[0]["breakdown"] == [{"kind": "club", "count": 2, "money": 6, "bonus": 2}]
    assert scores[1]["total"] == 2


def test_rai_4_deal_six_each_one_chance_node_per_card():
    """RAI-4: deal six each one chance node per card."""
    state, _ = GAME.new_game(3, {"chance": "table"}, seed=1)
    assert state["pending"] == [{"player": "chance", "decision": "deal_fighter", "to": 0}]
    outcomes = GAME.legal_actions(state)
    assert len(outcomes) == 36 and all(o["probability"] == "1/36" for o in outcomes)
    deals = 0
    while state["pending"][0]["decision"] == "deal_fighter":
        state, events = GAME.apply(state, GAME.legal_actions(state)[0])
        deals += 1
    assert deals == 18
    assert [len(p["hand"]) for p in state["players"]] == [6, 6, 6]


def test_rai_5_trump_lies_face_up_under_the_deck_and_is_drawn_last():
    """RAI-5: trump lies face up under the deck and is drawn last."""
    state, events = GAME.new_game(2, {}, seed=3)
    trump = state["trump"]
    assert state["bottom"] == trump["card"] and trump["card"] not in state["fighter_deck"]
    assert GAME.card_set().cards[face(trump["card"])]["suit"] == trump["suit"]
    assert "trump_revealed" in types(events)
    # with cards left in the deck, the bottom card cannot come up
    s = table(hands={0: ["S-6"]}, fighter_deck=None, trump="H", trump_card="H-A")
    s = {**s, "phase": "turn_start", "pending": []}
    s["pending"] = GAME.compute_pending(s)
    faces = {a["card"] for a, _ in GAME.chance_outcomes(s)}
    assert "H-A" not in faces and len(faces) == 34
    # once the deck is empty the trump card is the only draw
    rest = [c for c in s["fighter_deck"]]
    s2 = table(hands={0: ["S-6"]}, discard=rest, fighter_deck=[], trump="H", trump_card="H-A")
    s2 = {**s2, "phase": "turn_start"}
    s2["pending"] = GAME.compute_pending(s2)
    assert GAME.chance_outcomes(s2) == [({"type": "draw", "player": "chance", "card": "H-A"}, 1)]
    s3, events = GAME.apply(s2, {"type": "draw", "player": "chance", "card": "H-A"})
    assert "H-A" in s3["players"][0]["hand"] and s3["bottom"] is None
    assert s3["trump"]["suit"] == "H"


def test_rai_5a_seat_zero_starts_unless_first_player_says_otherwise():
    """RAI-5a: seat zero starts unless first player says otherwise."""
    state, _ = GAME.new_game(3, {}, seed=1)
    assert state["active"] == 0 and state["turn"] == 1
    state, _ = GAME.new_game(3, {"first_player": 2}, seed=1)
    assert state["active"] == 2 and state["pending"][0]["player"] == 2
    state, _ = play(state, act("end_turn", 2))
    assert state["active"] == 0
    with pytest.raises(InvalidOptions):
        GAME.new_game(3, {"first_player": 3}, seed=1)
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("end_turn", 1))
    assert exc.value.rule == "RAI-5a"


def test_rai_9_double_deck_default_above_four_players():
    """RAI-9: double deck default above four players."""
    state, _ = GAME.new_game(5, {}, seed=1)
    assert state["options"]["double_deck"] is True
    assert len(_all_fighters(state)) == 72
    assert "S-6#2" in _all_fighters(state)
    assert len(state["property_deck"]) + len(state["centre"]) == 36
    state4, _ = GAME.new_game(4, {}, seed=1)
    assert state4["options"]["double_deck"] is False
    assert len(_all_fighters(state4)) == 36
    state4d, _ = GAME.new_game(4, {"double_deck": True}, seed=1)
    assert len(_all_fighters(state4d)) == 72
    with pytest.raises(InvalidOptions) as exc:
        GAME.new_game(6, {"double_deck": False}, seed=1)
    assert "RAI-9" in str(exc.value.errors)


def test_rai_10_draw_up_to_six_at_turn_start_only():
    """RAI-10: draw up to six at turn start only."""
    state = table(hands={0: ["S-6"], 1: ["H-6", "H-7"]}, centre=["kiosk"])
    state, events = play(state, act("end_turn", 0))
    assert len(state["players"][1]["hand"]) == 6
    assert types(events).count("drew") == 4
    assert len(state["players"][0]["hand"]) == 1  # nobody else draws
    big = table(hands={0: ["S-6"], 1: ["H-6", "H-7", "H-8", "H-9", "H-10", "H-J", "H-Q"]},
                centre=["kiosk"])
    big, events = play(big, act("end_turn", 0))
    assert "drew" not in types(events) and len(big["players"][1]["hand"]) == 7


def test_rai_11_reveal_only_without_unguarded_property():
    """RAI-11: reveal only without unguarded property."""
    state = table(hands={1: ["H-6", "H-7", "H-8", "H-9", "H-10", "H-J"]},
                  centre=["kiosk"])
    after, events = play(state, act("end_turn", 0))
    assert "property_revealed" not in types(events) and after["centre"] == ["kiosk"]
    state = table(hands={1: ["H-6", "H-7", "H-8", "H-9", "H-10", "H-J"]},
                  holdings={0: {"kiosk": "S-9"}})
    after, events = play(state, act("end_turn", 0))
    assert types(events).count("property_revealed") == 1 and len(after["centre"]) == 1
    # RULING RAI-14: an empty property deck simply reveals nothing
    props = GAME.card_set().data["properties"]
    every = [f"{p['id']}#{k}" if k > 1 else p["id"] for p in props
             for k in range(1, p["copies"] + 1)]
    guards = [f["id"] for f in GAME.card_set().data["fighters"] if f["power"] is not None]
    spread: dict[Any, Any] = {0: {}, 1: {}, 2: {}, 3: {}}
    for i, (prop, guard) in enumerate(zip(every, guards)):
        spread[i % 4][prop] = guard  # nobody reaches 36
    state = table(players=4, hands={1: ["H-6", "H-7", "H-8", "H-9", "H-10", "H-J"]},
                  holdings=spread, property_deck=[], trump="D")
    after, events = play(state, act("end_turn", 0))
    assert "property_revealed" not in types(events) and after["centre"] == []
    assert after["pending"] == [{"player": 1, "decision": "turn"}]


def test_rai_12_one_capture_attempt_per_turn_even_a_failed_one():
    """RAI-12: one capture attempt per turn even a failed one."""
    state = table(hands={0: ["S-6", "S-K"]}, centre=["bank"])
    state, _ = play(state, act("capture", 0, fighter="S-6", property="bank"))
    from .builder import pass_all
    state, events = pass_all(state)
    assert "fighter_died" in types(events) and state["capture_used"]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("capture", 0, fighter="S-K", property="bank"))
    assert exc.value.rule == "RAI-12"
    assert not any(a["type"] == "capture" for a in GAME.legal_actions(state, 0))


def test_rai_12_playing_tricks_is_not_a_capture_attempt():
    """RAI-12: "Просто применение шняг еще не является захватом" — tricks played in
    your turn outside a capture leave the turn's attempt unspent."""
    state = table(hands={0: ["S-10", "S-K"]}, centre=["kiosk"])
    state, events = play(state, act("play_trick", 0, card="S-10"))  # Reinforcements
    assert types(events).count("drew") == 2 and not state["capture_used"]
    assert act("capture", 0, fighter="S-K", property="kiosk") in GAME.legal_actions(state, 0)


def test_rai_13_the_player_ends_the_turn_with_or_without_a_capture():
    """RAI-13: the player ends the turn with or without a capture."""
    state = table(hands={0: ["S-K"], 1: ["H-6", "H-7", "H-8", "H-9", "H-10", "H-J"]},
                  centre=["kiosk"])
    assert act("end_turn", 0) in GAME.legal_actions(state, 0)
    after, events = play(state, act("end_turn", 0))
    assert after["active"] == 1 and after["turn"] == 2
    assert "turn_ended" in types(events)


def test_rai_14_empty_fighter_deck_reshuffles_the_discard():
    """RAI-14: empty fighter deck reshuffles the discard."""
    # every fighter not in a hand lies in the discard
    rest = [f["id"] for f in GAME.card_set().data["fighters"] if f["id"] != "S-6"]
    s = table(hands={0: ["S-6"], 1: []}, centre=["kiosk"], fighter_deck=[], bottom=False,
              discard=rest)
    after, events = play(s, act("end_turn", 0))
    assert types(events).count("reshuffled") == 1
    assert len(after["players"][1]["hand"]) == 6
    assert len(after["fighter_deck"]) == len(rest) - 6 and after["discard"] == []


def test_rai_23_a_trick_by_a_non_active_player_outside_a_capture_cites_rai_23():
    """RAI-23 (RULING, turn-based "any time"): outside a capture only the active
    player plays tricks; another player's trick is refused citing RAI-23, not
    the turn order (RAI-5a)."""
    state = table(hands={0: ["S-K"], 1: ["H-7", "H-A"]}, holdings={1: {"club": "H-9"}},
                  centre=["kiosk"])
    for trick in (act("play_trick", 1, card="H-7", target="H-9"),
                  act("play_trick", 1, card="H-A", target="H-9")):
        with pytest.raises(RuleViolation) as exc:
            GAME.apply(state, trick)
        assert exc.value.rule == "RAI-23" and "active player (seat 0)" in exc.value.reason
        assert GAME.check(state, trick)["rule"] == "RAI-23"
    # in a capture's response window it is a matter of priority (RAI-26)
    window, _ = play(state, act("capture", 0, fighter="S-K", property="kiosk"))
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(window, act("play_trick", 1, card="H-7", target="H-9"))
    assert exc.value.rule == "RAI-26"


def test_rai_12_a_capture_by_a_non_active_player_cites_rai_12_or_rai_21():
    """RAI-12: a capture belongs to the active player's one attempt, so another
    player's capture cites RAI-12 (not RAI-5a); RAI-21: while a capture is in
    progress, a capture by another player without priority cites RAI-21."""
    state = table(hands={0: ["S-K"], 1: ["H-K", "H-Q"]}, centre=["kiosk", "club"])
    capture = act("capture", 1, fighter="H-K", property="club")
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, capture)
    assert exc.value.rule == "RAI-12" and "seat 0" in exc.value.reason
    window, _ = play(state, act("capture", 0, fighter="S-K", property="kiosk"))
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(window, capture)
    assert exc.value.rule == "RAI-21"
    assert GAME.check(window, capture) == {"legal": False, "rule": "RAI-21", "reason": (
        "a capture is in progress: the other players may only play tricks")}


@pytest.mark.parametrize("setup, outcome, rule, says", [
    # RAI-10: a draw of a card no longer in the fighter deck (it is in a hand)
    ("draw", {"type": "draw", "card": "S-K"}, "RAI-10",
     ["no copy of S-K is left in the fighter deck", "'draw_fighter' chance node"]),
    # RAI-1 with RAI-10: a property card is never drawn from the fighter deck
    ("draw", {"type": "draw", "card": "club"}, "RAI-10",
     ["club is a property card", "RAI-1", "'draw_fighter' chance node"]),
    # RAI-11: the node takes a reveal, not a draw
    ("reveal", {"type": "draw", "card": "S-6"}, "RAI-11",
     ["'reveal_property' chance node is pending", "'reveal' outcome, not 'draw'"]),
    # RAI-4: an unknown card: what the node expects
    ("deal", {"type": "deal", "card": "Z-99"}, "RAI-4",
     ["card 'Z-99' cannot happen at the 'deal_fighter' chance node; possible:"]),
])
def test_rai_4_10_11_a_refused_chance_outcome_says_what_the_node_expects(
        setup, outcome, rule, says):
    """RAI-4, RAI-10, RAI-11 (and RAI-1): an impossible chance outcome cites the
    clause of the pending node and says what it expects and why this one cannot
    come up, not just "that outcome cannot happen"."""
    if setup == "deal":
        state, _ = GAME.new_game(2, {"chance": "table"}, seed=3)
    else:
        full_hand = ["S-6", "S-7", "S-8", "S-9", "S-10", "S-J"]  # nothing to draw
        hands = {0: ["S-K"]} if setup == "draw" else {0: full_hand}
        state = table(hands=hands, phase="turn_start", centre=[], turn=1)
        state = {**state, "chance": {**state["chance"], "mode": "table"},
                 "options": {**state["options"], "chance": "table"}}
        state["pending"] = GAME.compute_pending(state)
    assert state["pending"][0]["player"] == "chance"
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, {**outcome, "player": "chance"})
    assert exc.value.rule == rule
    for words in says:
        assert words in exc.value.reason, exc.value.reason
    assert "that outcome cannot happen" not in exc.value.reason


def test_rai_12_the_attacker_capturing_again_out_of_priority_cites_rai_12():
    """RAI-12: one turn, one fighter, one attempt — the attacker sending another
    capture while another player holds priority in the window cites RAI-12."""
    state = table(hands={0: ["S-K", "S-Q"]}, centre=["kiosk", "club"])
    state, _ = play(state, act("capture", 0, fighter="S-K", property="kiosk"), act("pass", 0))
    assert state["capture"]["priority"] == 1
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("capture", 0, fighter="S-Q", property="club"))
    assert exc.value.rule == "RAI-12" and "in progress" in exc.value.reason
