"""Setup, draws and mulligans, turn order (KOZ-7 … KOZ-10)."""

from __future__ import annotations

import pytest

from service.games.errors import RuleViolation
from service.games.kozyablo import GAME
from service.games.kozyablo.cards import face
from service.games.kozyablo.state_types import KozyabloState

from .builder import act, listed, play, types


def table_game(p0: str = "kozly", p1: str = "zhloby", seed: int = 1) -> KozyabloState:
    return GAME.new_game([{"race": p0}, {"race": p1}], {"chance": "table"}, seed)[0]


def test_koz_7_capitals_and_three_sectors_each_all_sectors_neutral():
    """KOZ-7: capitals and three sectors each all sectors neutral."""
    state, events = GAME.new_game([{"race": "kozly"}, {"race": "trutni"}], seed=2)
    assert events[0]["type"] == "setup"
    for seat, p in enumerate(state["players"]):
        mine = {sid: s for sid, s in state["sectors"].items() if s["owner"] == seat}
        assert sorted(s["kind"] for s in mine.values()) == \
            ["capital", "crystal_mine", "energy_source", "gold_mine"]
        assert mine[p["capital"]]["controller"] == seat
        assert all(s["controller"] is None for s in mine.values() if s["kind"] != "capital")


def test_koz_8_six_cards_each_every_card_a_chance_node_weighted_by_copies():
    """KOZ-8: six cards each every card a chance node weighted by copies."""
    state = table_game()
    assert state["pending"] == [{"player": "chance", "decision": "reveal", "seat": 0}]
    outcomes = {a["face"]: a["probability"] for a in GAME.legal_actions(state)}
    assert outcomes["kz_guard"] == "1/7" and outcomes["kz_hero"] == "1/21"
    for _ in range(12):
        state, _ = GAME.apply(state, {k: v for k, v in GAME.legal_actions(state)[0].items()
                                      if k != "probability"})
    assert [len(p["hand"]) for p in state["players"]] == [6, 6]
    assert [len(p["deck"]) for p in state["players"]] == [15, 15]
    assert state["phase"] == "mulligan"


def _dealt(seed: int = 4) -> KozyabloState:
    state = table_game(seed=seed)
    while state["pending"][0]["player"] == "chance":
        state, _ = GAME.apply(state, {k: v for k, v in GAME.legal_actions(state)[-1].items()
                                      if k != "probability"})
    return state


def test_koz_9_mulligan_top_three_to_discard_cards_back_draw_as_many_at_most_three():
    """KOZ-9: mulligan top three to discard cards back draw as many at most three."""
    state = _dealt()
    seat = state["pending"][0]["player"]
    assert state["pending"][0]["decision"] == "mulligan" and seat == 0  # kozly before zhloby
    hand = state["players"][seat]["hand"]
    back = hand[:2]
    state, events = GAME.apply(state, act("mulligan", seat, cards=back))
    assert types(events) == ["mulligan"]
    p = state["players"][seat]
    assert p["aside"] == back and len(p["hand"]) == 4 and p["mulligans"] == 1
    pend = [q.get("to", q.get("do")) for q in state["queue"]]
    assert pend == ["discard", "discard", "discard", "back"]
    for _ in range(3):  # three reveals into the discard: the aside cards cannot come up
        opts = GAME.legal_actions(state)
        assert all(face(c) for c in back) and sum(
            1 for o in opts if o["face"] == face(back[0])) <= 1
        state, _ = GAME.apply(state, {k: v for k, v in opts[0].items() if k != "probability"})
    p = state["players"][seat]
    assert len(p["discard"]) == 3 and p["aside"] == [] and len(state["queue"]) == 2
    while state["queue"]:
        state, _ = GAME.apply(state, {k: v for k, v in GAME.legal_actions(state)[0].items()
                                      if k != "probability"})
    p = state["players"][seat]
    assert len(p["hand"]) == 6 and len(p["deck"]) == 21 - 6 - 3
    for _ in range(2):
        state, _ = GAME.apply(state, act("mulligan", seat, cards=state["players"][seat]["hand"][:1]))
        while state["queue"]:
            state, _ = GAME.apply(state, {k: v for k, v in GAME.legal_actions(state)[0].items()
                                          if k != "probability"})
    # three mulligans used: the player is done, the next one decides
    assert state["players"][seat]["ready"] and state["pending"][0]["player"] == 1
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("mulligan", seat, cards=state["players"][seat]["hand"][:1]))
    assert exc.value.rule == "KOZ-9"  # not pending any more: the mulligan step names KOZ-9
    state, _ = GAME.apply(state, act("keep", 1))
    assert state["phase"] == "main" and state["turn"] == 1 and state["active"] == 0


def test_koz_9_fourth_mulligan_is_refused():
    """KOZ-9: fourth mulligan is refused."""
    state = _dealt()
    state = {**state, "players": [p.copy() for p in state["players"]]}
    state["players"][0]["mulligans"] = 3
    assert listed(state, 0, "mulligan") == []
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("mulligan", 0, cards=state["players"][0]["hand"][:1]))
    assert exc.value.rule == "KOZ-9"


def test_koz_10_turn_order_by_race_and_a_lot_for_equal_races():
    """KOZ-10: turn order by race and a lot for equal races."""
    for p0, p1, first in (("zhloby", "pozorki", 1), ("trutni", "kozly", 0),
                          ("kozly", "trutni", 1), ("pozorki", "zhloby", 0)):
        state = GAME.new_game([{"race": p0}, {"race": p1}], seed=9)[0]
        assert state["order"][0] == first, (p0, p1)
    state = table_game("kozly", "kozly")
    assert state["pending"] == [{"player": "chance", "decision": "lot"}]
    assert GAME.legal_actions(state) == [
        {"type": "lot", "player": "chance", "first": 0, "probability": "1/2"},
        {"type": "lot", "player": "chance", "first": 1, "probability": "1/2"}]
    after, events = play(state, {"type": "lot", "player": "chance", "first": 1})
    assert after["order"] == [1, 0] and events[0]["rule"] == "KOZ-10"
    firsts = {GAME.new_game([{"race": "zhloby"}] * 2, seed=s)[0]["order"][0] for s in range(16)}
    assert firsts == {0, 1}


def test_koz_10_every_pair_of_races_in_the_rulebook_order():
    """KOZ-10: Pozorki, then Trutni, then Kozly, then Zhloby — every ordered pair."""
    ranks = ("pozorki", "trutni", "kozly", "zhloby")
    for i, a in enumerate(ranks):
        for j, b in enumerate(ranks):
            if i != j:
                state = GAME.new_game([{"race": a}, {"race": b}], seed=3)[0]
                assert state["order"] == ([0, 1] if i < j else [1, 0]), (a, b)


def test_koz_51_two_to_four_players_other_counts_are_refused():
    """RULING KOZ-51: 2 to 4 players, in the race order of KOZ-10."""
    from service.games.errors import InvalidOptions

    for n in (1, 5):
        with pytest.raises(InvalidOptions):
            GAME.new_game(n, seed=1)
    state = GAME.new_game([{"race": "kozly"}, {"race": "zhloby"}, {"race": "trutni"}],
                          seed=1)[0]
    assert state["order"] == [2, 0, 1]
    for n in (3, 4):
        state = GAME.new_game(n, seed=1)[0]
        assert len(state["players"]) == n and sorted(state["order"]) == list(range(n))
