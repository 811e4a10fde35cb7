"""Issue 35: the RULINGS KOZ-18b (how long «Время-N» lasts), KOZ-32a (Two attacks in a
retreat attack) and KOZ-37a (Arrow and Magic protection limit damage, not targets).
The issue's other two Kozyablo rulings are tested with their engine change."""

from __future__ import annotations

from typing import Any

import pytest

from service.games.errors import RuleViolation
from service.games.kozyablo import GAME
from service.games.kozyablo.cards import Catalogue
from service.games.kozyablo.damage import striker_stats

from .builder import act, listed, play, table, types


def targets_of(state: dict[Any, Any], player: int, unit: str) -> list[str]:
    return sorted({t for a in listed(state, player, "strike") if a["unit"] == unit
                   for t in a["targets"]})


def speed(state: dict[Any, Any], unit: str) -> int:
    return striker_stats(state, Catalogue.of_state(state), unit).speed


# ------------------------------------------------------------------ KOZ-18b
def test_koz_18b_time_n_counts_every_players_turn_from_the_next_one():
    """RULING KOZ-18b: «Время-N» lasts N turns of the table, each player's turn one,
    from the turn after it was played: with three players Haste (Время-2) cast in
    player 0's turn 1 is in force through player 1's turn 2 and player 2's turn 3, and
    is gone before player 0 moves again — not two turns of its caster's."""
    s = table("pozorki", "trutni", more=("kozly",), hands={0: ["pz_haste"]},
              units={0: [("pz_archer", "0.gold_mine")]})
    assert speed(s, "0.pz_archer") == 4
    s, ev = play(s, act("play_card", 0, card="0.pz_haste", target="0.pz_archer"))
    assert s["lasting"]["0.pz_haste"]["turns_left"] == 2
    assert (s["turn"], s["active"]) == (2, 1) and speed(s, "0.pz_archer") == 6
    # the turn it was played in did not count: two turns are still to come
    s, ev = play(s, act("skip", 1))
    assert "magic_ended" not in types(ev) and s["lasting"]["0.pz_haste"]["turns_left"] == 1
    assert (s["turn"], s["active"]) == (3, 2) and speed(s, "0.pz_archer") == 6
    s, ev = play(s, act("skip", 2))
    ended = [e for e in ev if e["type"] == "magic_ended"]
    assert ended == [{"type": "magic_ended", "card": "0.pz_haste", "why": "time",
                      "rule": "KOZ-18"}]
    assert types(ev).index("magic_ended") < types(ev).index("turn_ended")  # end of turn 3
    assert (s["turn"], s["active"]) == (4, 0)
    assert "0.pz_haste" not in s["lasting"] and "0.pz_haste" in s["players"][0]["discard"]
    assert speed(s, "0.pz_archer") == 4


def test_koz_18b_with_two_players_time_n_ends_at_the_end_of_the_casters_next_turn():
    """RULING KOZ-18b with two players: Gift of Wings (Время-3) cast in turn 1 lasts
    turns 2, 3 and 4 and goes to the discard at the end of turn 4."""
    s = table("trutni", "pozorki", hands={0: ["tr_wings"]},
              units={0: [("tr_grub", "0.gold_mine")]}, control={"0.energy_source": 0})
    s, _ = play(s, act("play_card", 0, card="0.tr_wings", target="0.tr_grub"))
    left = []
    while "0.tr_wings" in s["lasting"]:
        left.append((s["turn"], s["lasting"]["0.tr_wings"]["turns_left"]))
        s, ev = play(s, act("skip", s["active"]))
    assert left == [(2, 3), (3, 2), (4, 1)]
    assert s["turn"] == 5 and "magic_ended" in types(ev)


# ------------------------------------------------------------------ KOZ-32a
def test_koz_32a_two_attacks_strikes_once_in_a_retreat_attack():
    """RULING KOZ-32a: nobody declares a retreat attack (KOZ-16a), so the Swordsman
    (Two attacks) strikes the leaving Gilen once and the creatures move on; in a combat
    its controller declared it strikes twice (KOZ-32)."""
    s = table("trutni", "pozorki", units={0: [("tr_wild_gilen", "0.gold_mine")],
                                          1: [("pz_swordsman", "0.gold_mine")]})
    s, ev = play(s, act("move", 0, **{"from": "0.gold_mine", "to": "0.crystal_mine"},
                        units=["0.tr_wild_gilen"]))
    assert "retreat_attack" in types(ev) and s["combat"]["kind"] == "retreat"
    assert s["pending"] == [{"player": 1, "decision": "strike"}]
    s, ev = play(s, act("strike", 1, unit="1.pz_swordsman", targets=["0.tr_wild_gilen"]))
    assert types(ev).count("strike") == 1 and s["combat"] is None
    assert s["units"]["0.tr_wild_gilen"]["sector"] == "0.crystal_mine"
    assert s["units"]["0.tr_wild_gilen"]["damage"] == 2  # one strike of 2, not two
    with pytest.raises(RuleViolation):
        GAME.apply(s, act("strike", 1, unit="1.pz_swordsman", targets=["0.tr_wild_gilen"]))


# ------------------------------------------------------------------ KOZ-37a
def test_koz_37a_an_archer_may_target_arrow_protection_and_deals_nothing():
    """RULING KOZ-37a: Arrow protection does not keep an Archer from choosing it (the
    strike is offered and accepted); the strike lands for 0 (KOZ-37)."""
    s = table("pozorki", "zhloby", units={0: [("pz_archer", "0.gold_mine")],
                                          1: [("zh_shieldbearer", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    assert targets_of(s, 0, "0.pz_archer") == ["1.zh_shieldbearer"]
    strike = act("strike", 0, unit="0.pz_archer", targets=["1.zh_shieldbearer"])
    assert GAME.check(s, strike) == {"legal": True}
    s, ev = play(s, strike)
    assert {"type": "damage", "target": "1.zh_shieldbearer", "amount": 0,
            "source": "0.pz_archer"} in ev
    assert s["units"]["1.zh_shieldbearer"]["damage"] == 0


def test_koz_37a_magic_attack_may_target_magic_protection_and_deals_nothing():
    """RULING KOZ-37a: likewise a Magic attack creature may strike a Magic-protected one
    (the Null Monk), for 0 (KOZ-38); unlike Weapon protection, neither protection takes
    a creature off the list of targets."""
    s = table("trutni", "pozorki", units={0: [("tr_shaman", "0.gold_mine")],
                                          1: [("pz_null_monk", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    assert s["pending"] == [{"player": 0, "decision": "strike"}]  # Shaman speed 3, Monk 2
    assert targets_of(s, 0, "0.tr_shaman") == ["1.pz_null_monk"]
    s, ev = play(s, act("strike", 0, unit="0.tr_shaman", targets=["1.pz_null_monk"]))
    assert {"type": "damage", "target": "1.pz_null_monk", "amount": 0,
            "source": "0.tr_shaman"} in ev
    assert s["units"]["1.pz_null_monk"]["damage"] == 0
    # the Monk still strikes back: the combat went on as with any target
    assert s["pending"] == [{"player": 1, "decision": "strike"}]


def test_koz_32a_holding_the_first_of_two_attacks_leaves_the_second():
    """RULING KOZ-32a with KOZ-25a: each of the two strikes is a right of its own; the
    Swordsman holds the first and may still strike (or hold) the second."""
    s = table("pozorki", "kozly", units={0: [("pz_swordsman", "0.gold_mine")],
                                         1: [("kz_guard", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    s, ev = play(s, act("hold", 0, unit="0.pz_swordsman"))
    assert {"type": "strike_held", "unit": "0.pz_swordsman", "rule": "KOZ-25a"} in ev
    assert s["pending"] == [{"player": 0, "decision": "strike"}]
    assert {a["type"] for a in GAME.legal_actions(s, 0)} == {"strike", "hold"}
    s, _ = play(s, act("strike", 0, unit="0.pz_swordsman", targets=["1.kz_guard"]))
    assert s["units"]["1.kz_guard"]["damage"] == 2  # the second strike only
