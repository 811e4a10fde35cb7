"""Issue 35: the RULINGS RAI-3a (set bonuses with two sets), RAI-8a (teams: seats,
a partner's property, no short game, the turn limit) and RAI-9a (one set with five
players, never with six)."""

from __future__ import annotations

from typing import Any

import pytest

from service.games.errors import InvalidOptions
from service.games.raiders import GAME
from service.games.raiders.cards import face

from .builder import act, pass_all, play, table


def money_of(state: dict[Any, Any], seat: int) -> tuple[int, list[dict[Any, Any]]]:
    entry = GAME.score(state)["scores"][seat]
    return entry["total"], entry["breakdown"]


# ------------------------------------------------------------------ RAI-3a
def test_rai_3a_a_bonus_counts_once_and_further_copies_add_their_face_value():
    """RULING RAI-3a: with two sets a player may own more copies of a kind than its
    largest bonus names. Three banks («2 банка = 22», 9 each) are 22 + 9 = 31; four are
    22 + 9 + 9 = 40, not the bonus twice (44); eight kiosks (bonuses up to «4 = 10», 1
    each) are 10 + 4 = 14, not 20."""
    dd = {"double_deck": True}
    three = table(options=dd, holdings={0: {"bank": "S-6", "bank#2": "S-7", "bank#3": "S-8"}})
    assert money_of(three, 0) == (31, [{"kind": "bank", "count": 3, "money": 31, "bonus": 4}])
    four = table(options=dd, holdings={0: {"bank": "S-6", "bank#2": "S-7", "bank#3": "S-8",
                                           "bank#4": "S-9"}})
    assert money_of(four, 0) == (40, [{"kind": "bank", "count": 4, "money": 40, "bonus": 4}])
    kiosks = ["kiosk"] + [f"kiosk#{n}" for n in range(2, 9)]
    guards = ["S-6", "S-7", "S-8", "S-9", "H-6", "H-7", "H-8", "H-9"]
    eight = table(options=dd, holdings={0: dict(zip(kiosks, guards, strict=True))})
    assert money_of(eight, 0) == (14, [{"kind": "kiosk", "count": 8, "money": 14, "bonus": 6}])


def test_rai_3a_a_fourth_bank_adds_its_face_value_and_wins():
    """RULING RAI-3a with RAI-6: three banks (31) and a market (4) are 35, short of 36; the
    fourth bank brings 9 more (44), so capturing it wins at once."""
    state = table(options={"double_deck": True}, hands={0: ["S-K#2"]}, centre=["bank#4"],
                  holdings={0: {"bank": "H-K", "bank#2": "D-K", "bank#3": "C-K",
                                "market": "H-Q"}})
    assert money_of(state, 0)[0] == 35 and state["result"] is None
    state, _ = play(state, act("capture", 0, fighter="S-K#2", property="bank#4"))
    state, events = pass_all(state)
    assert state["result"]["winners"] == [0] and money_of(state, 0)[0] == 44


# ------------------------------------------------------------------ RAI-8a
def test_rai_8a_partners_sit_across_the_table():
    """RULING RAI-8a: under ``teams`` seats 0 and 2 are one pair, 1 and 3 the other."""
    state, _ = GAME.new_game(4, {"teams": True}, seed=1)
    score = GAME.score(state)
    assert [t["players"] for t in score["teams"]] == [[0, 2], [1, 3]]
    assert [s["team"] for s in score["scores"]] == [0, 1, 0, 1]


def test_rai_8a_a_partners_property_is_a_legal_target():
    """RULING RAI-8a: «Захватывать можно любую собственность в игре» — seat 0 may capture
    the club its partner (seat 2) guards; the club is then seat 0's."""
    state = table(players=4, options={"teams": True}, trump="D", hands={0: ["S-K"]},
                  holdings={2: {"club": "H-6"}})
    capture = act("capture", 0, fighter="S-K", property="club")
    assert capture in GAME.legal_actions(state, 0)
    state, _ = play(state, capture)
    state, _ = pass_all(state)
    assert state["players"][0]["holdings"] == {"club": "S-K"}
    assert state["players"][2]["holdings"] == {} and "H-6" in state["discard"]


def test_rai_8a_teams_and_the_short_game_are_refused_together_naming_both():
    """RULING RAI-8a: ``teams`` plays to 36 for the pair, so it does not combine with
    ``short_game``; the refusal names both options (each alone is fine at four)."""
    with pytest.raises(InvalidOptions) as exc:
        GAME.new_game(4, {"teams": True, "short_game": True}, seed=1)
    (message,) = exc.value.errors["options.short_game"]
    assert "short_game" in message and "teams" in message and "36" in message
    assert GAME.score(GAME.new_game(4, {"teams": True}, seed=1)[0])["target"] == 36
    assert GAME.score(GAME.new_game(4, {"short_game": True}, seed=1)[0])["target"] == 24


def test_rai_8a_at_the_turn_limit_the_pair_with_more_combined_money_wins():
    """RULING RAI-8a with RAI-31: at the turn limit the pairs compare their combined money
    (bonuses per player); both partners of the richer pair win."""
    state = table(players=4, options={"teams": True, "turn_limit": 2}, turn=2, trump="D",
                  hands={0: ["S-6"]}, centre=["kiosk"],
                  holdings={0: {"club": "S-9"}, 2: {"market#2": "H-9"},
                            1: {"market": "C-9"}, 3: {"kiosk#2": "C-8"}})
    state, events = play(state, act("end_turn", 0))
    assert state["result"] == {"finished": True, "winners": [0, 2], "reason": "turn_limit"}
    assert [e["money"] for e in events if e["type"] == "game_won"] == [6]  # 2 + 4 > 4 + 1


# ------------------------------------------------------------------ RAI-9a
def test_rai_9a_one_set_is_allowed_at_five_players():
    """RULING RAI-9a: two sets are only recommended above four players; with five, one
    set (36 fighters) deals 30 cards and still turns up a trump."""
    state, _ = GAME.new_game(5, {"double_deck": False}, seed=1)
    assert state["options"]["double_deck"] is False
    assert [len(p["hand"]) for p in state["players"]] == [6] * 5
    assert state["bottom"] == state["trump"]["card"] and len(state["fighter_deck"]) == 5
    fighters = [*state["fighter_deck"], *(c for p in state["players"] for c in p["hand"])]
    assert len(fighters) == 35 and not any("#" in c for c in fighters)  # one copy each
    assert GAME.new_game(5, {}, seed=1)[0]["options"]["double_deck"] is True  # RAI-9


def test_rai_9a_one_set_at_six_players_is_refused_saying_why():
    """RULING RAI-9a: with six players one set deals all 36 fighters and leaves none to
    turn up as trump (RAI-5): refused with an error that says so."""
    with pytest.raises(InvalidOptions) as exc:
        GAME.new_game(6, {"double_deck": False}, seed=1)
    (message,) = exc.value.errors["options.double_deck"]
    assert "36 fighter cards" in message and "6 players" in message and "trump" in message
    state, _ = GAME.new_game(6, {}, seed=1)
    assert state["options"]["double_deck"] is True and state["trump"] is not None
    assert sum(face(c) == "S-6" for c in [*state["fighter_deck"], state["bottom"],
                                          *(c for p in state["players"] for c in p["hand"])]) == 2
