"""Winning and ending (KOZ-47 … KOZ-50); KOZ-49 destruction is in test_combat."""

from __future__ import annotations

import pytest

from service.games.errors import RuleViolation
from service.games.kozyablo import GAME

from .builder import act, listed, play, table, types


def test_koz_47_a_finished_game_takes_no_more_actions():
    """KOZ-47: a finished game takes no more actions."""
    s = table("zhloby", "kozly", units={0: [("zh_brute", "cap1")]}, active=1)
    s, ev = play(s, act("skip", 1))
    assert s["result"] is not None
    assert s["result"]["finished"] and s["pending"] == []
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("skip", 0))
    assert exc.value.rule == "KOZ-47"
    assert GAME.legal_actions(s) == []


def test_koz_48_capture_at_the_moment_of_your_action_unless_defended():
    """KOZ-48: capture at the moment of your action unless defended."""
    s = table("zhloby", "kozly", units={0: [("zh_brute", "0.gold_mine")]})
    s, ev = play(s, act("move", 0, **{"from": "0.gold_mine", "to": "1.kz_capital"},
                        units=["0.zh_brute"]))
    assert s["result"] is None  # not yet: the opponent has a turn to answer
    s, ev = play(s, act("skip", 1))
    assert s["result"] == {"finished": True, "winners": [0], "reason": "capture"}
    assert {"type": "capital_captured", "player": 1, "capital": "1.kz_capital", "by": 0,
            "rule": "KOZ-48"} in ev
    # a creature of the owner, even hidden, or a defensive building prevents it
    for kw in ({"units": {0: [("zh_brute", "cap1")], 1: [("kz_guard", "cap1")]}},
               {"units": {0: [("zh_brute", "cap1")], 1: [("kz_guard", "cap1", {"shadow": True})]}},
               {"units": {0: [("zh_brute", "cap1")]}, "buildings": {1: ["kz_barn"]}}):
        s = table("zhloby", "kozly", active=1, **kw)
        s, _ = play(s, act("skip", 1))
        assert s["result"] is None
    s = table("zhloby", "kozly", active=1, units={0: [("zh_brute", "cap1")]},
              buildings={1: ["kz_altar"]})  # not a defensive building
    s, _ = play(s, act("skip", 1))
    assert s["result"] is not None
    assert s["result"]["reason"] == "capture"


def test_koz_50_empty_deck_no_draw_and_the_turn_limit():
    """KOZ-50: empty deck no draw and the turn limit."""
    s = table(deck={0: []})
    assert listed(s, 0, "draw") == []
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("draw", 0))
    assert exc.value.rule == "KOZ-50"
    s = table(options={"turn_limit": 2}, capital_damage={0: 3, 1: 1})
    s, _ = play(s, act("skip", 0))
    assert s["result"] is None and s["turn"] == 2
    s, ev = play(s, act("skip", 1))
    assert s["result"] == {"finished": True, "winners": [1], "reason": "turn_limit"}
    assert ev[-1]["rule"] == "KOZ-50"
    s = table(options={"turn_limit": 1}, capital_damage={0: 2, 1: 2})
    s, _ = play(s, act("skip", 0))
    assert s["result"] is not None
    assert s["result"]["winners"] == [0, 1]
    score = GAME.score(s)
    assert score["finished"] and [x["total"] for x in score["scores"]] == [10, 10]
    assert GAME.new_game(2, {"turn_limit": 30}, 1)[0]["options"]["turn_limit"] == 30


def test_koz_28_worked_example_engine_level():
    """Pozorny Archer + Swordsman against Bumblebee + Wild Gilen, pozorki attacking."""
    s = table("pozorki", "trutni", units={
        0: [("pz_archer", "0.gold_mine"), ("pz_swordsman", "0.gold_mine")],
        1: [("tr_bumblebee", "0.gold_mine"), ("tr_wild_gilen", "0.gold_mine")]})
    s, ev = play(s, act("attack", 0, sector="0.gold_mine"))
    assert s["pending"] == [{"player": 1, "decision": "strike"}]  # Bumblebee, speed 6
    s, ev = play(s, act("strike", 1, unit="1.tr_bumblebee", targets=["0.pz_archer"]))
    assert "0.pz_archer" not in s["units"]
    assert [a["targets"] for a in listed(s, 0, "strike")] == [["1.tr_wild_gilen"]]
    s, _ = play(s, act("strike", 0, unit="0.pz_swordsman", targets=["1.tr_wild_gilen"]))
    s, _ = play(s, act("strike", 0, unit="0.pz_swordsman", targets=["1.tr_wild_gilen"]))
    assert s["units"]["1.tr_wild_gilen"]["damage"] == 4  # one life left of 5
    s, ev = play(s, act("strike", 1, unit="1.tr_wild_gilen", targets=["0.pz_swordsman"]))
    assert "0.pz_swordsman" not in s["units"]
    assert "combat_ended" in types(ev) and types(ev)[-2:] == ["turn_ended", "turn_started"]
    assert s["sectors"]["0.gold_mine"]["controller"] == 1  # only trutni left there
    assert s["active"] == 1 and s["phase"] == "main"
