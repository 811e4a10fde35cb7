"""Combat as a sequence of decisions (KOZ-24 … KOZ-29, KOZ-45, KOZ-46, KOZ-49)."""

from __future__ import annotations

import pytest

from service.games.errors import RuleViolation
from service.games.kozyablo import GAME
from service.games.kozyablo.state_types import KozyabloState
from service.games.objects import Event

from .builder import act, listed, play, table, types


def strike(state: KozyabloState, player: int, unit: str, *targets: str
           ) -> tuple[KozyabloState, list[Event]]:
    return play(state, act("strike", player, unit=unit, targets=list(targets)))


def test_koz_24_an_attack_needs_both_sides_in_the_sector():
    """KOZ-24: an attack needs both sides in the sector."""
    s = table(units={0: [("pz_archer", "0.gold_mine"), ("pz_sneak", "0.crystal_mine")],
                     1: [("tr_grub", "0.gold_mine")]})
    assert listed(s, 0, "attack") == [act("attack", 0, sector="0.gold_mine")]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("attack", 0, sector="0.crystal_mine"))
    assert exc.value.rule == "KOZ-24"
    s, ev = play(s, act("attack", 0, sector="0.gold_mine"))
    assert "combat_started" in types(ev) and s["phase"] == "combat"


def test_koz_25_order_by_speed_attacker_first_on_ties_own_ties_chosen():
    """KOZ-25: order by speed attacker first on ties own ties chosen."""
    s = table("kozly", "zhloby",
              units={0: [("kz_guard", "0.gold_mine"), ("kz_catapult", "0.gold_mine"),
                         ("kz_scout", "0.gold_mine")],
                     1: [("zh_brute", "0.gold_mine"), ("zh_iron", "0.gold_mine")]}, active=1)
    s, _ = play(s, act("attack", 1, sector="0.gold_mine"))
    # the Scout (speed 4) first
    assert s["pending"] == [{"player": 0, "decision": "strike"}]
    assert {a["unit"] for a in listed(s, 0, "strike")} == {"0.kz_scout"}
    s, _ = strike(s, 0, "0.kz_scout", "1.zh_iron")
    # speed 2: Brute (attacker's) before Guard and Catapult
    assert s["pending"] == [{"player": 1, "decision": "strike"}]
    assert {a["unit"] for a in listed(s, 1, "strike")} == {"1.zh_brute"}
    s, _ = strike(s, 1, "1.zh_brute", "0.kz_scout")
    assert s["pending"] == [{"player": 0, "decision": "defend"}]  # the Guard may step in
    s, _ = play(s, act("decline", 0))
    # two of player 0 at speed 2: player 0 chooses which strikes first
    assert {a["unit"] for a in listed(s, 0, "strike")} == {"0.kz_guard", "0.kz_catapult"}
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("strike", 0, unit="1.zh_iron", targets=["0.kz_guard"]))
    assert exc.value.rule == "KOZ-25"


def test_koz_26_the_controller_picks_each_target_among_the_legal_ones():
    """KOZ-26: the controller picks each target among the legal ones."""
    s = table(units={0: [("pz_swordsman", "0.gold_mine")],
                     1: [("tr_bumblebee", "0.gold_mine"), ("tr_grub", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    s, _ = strike(s, 1, "1.tr_bumblebee", "0.pz_swordsman")
    assert [a["targets"] for a in listed(s, 0, "strike")] == [["1.tr_grub"]]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("strike", 0, unit="0.pz_swordsman", targets=["0.pz_swordsman"]))
    assert exc.value.rule == "KOZ-26"


def test_koz_27_damage_stays_after_combat():
    """KOZ-27: damage stays after combat."""
    s = table(units={0: [("pz_dodger", "0.gold_mine")], 1: [("tr_wild_gilen", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    s, _ = strike(s, 0, "0.pz_dodger", "1.tr_wild_gilen")
    assert s["pending"] == [{"player": 1, "decision": "strike"}]  # no hand: no Evasion offer
    s, _ = strike(s, 1, "1.tr_wild_gilen", "0.pz_dodger")
    assert s["phase"] == "main" and "0.pz_dodger" not in s["units"]
    assert s["units"]["1.tr_wild_gilen"]["damage"] == 2
    s, _ = play(s, act("skip", 1))
    s, _ = play(s, act("skip", 0))
    assert s["units"]["1.tr_wild_gilen"]["damage"] == 2


def test_koz_29_a_creature_dies_at_zero_life_and_goes_to_the_discard():
    """KOZ-29: a creature dies at zero life and goes to the discard."""
    s = table(units={0: [("pz_dodger", "0.gold_mine")],
                     1: [("tr_grub", "0.gold_mine", {"damage": 1})]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    s, ev = strike(s, 0, "0.pz_dodger", "1.tr_grub")
    assert "1.tr_grub" not in s["units"] and "1.tr_grub" in s["players"][1]["discard"]
    assert {"type": "died", "card": "1.tr_grub"} in ev


def test_koz_45_defender_takes_the_whole_strike_instead():
    """KOZ-45: defender takes the whole strike instead."""
    s = table("zhloby", "kozly", units={0: [("zh_iron", "0.gold_mine")],
                                        1: [("kz_guard", "0.gold_mine"),
                                            ("kz_scout", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    s, _ = strike(s, 1, "1.kz_scout", "0.zh_iron")
    s, _ = strike(s, 1, "1.kz_guard", "0.zh_iron")
    s, _ = strike(s, 0, "0.zh_iron", "1.kz_scout")
    assert s["pending"] == [{"player": 1, "decision": "defend"}]
    assert GAME.legal_actions(s, 1) == [act("defend", 1, unit="1.kz_guard"), act("decline", 1)]
    s2, ev = play(s, act("defend", 1, unit="1.kz_guard"))
    assert s2["units"]["1.kz_guard"]["damage"] == 3 and s2["units"]["1.kz_scout"]["damage"] == 0
    assert any(e["type"] == "defended" and e["rule"] == "KOZ-45" for e in ev)
    s3, _ = play(s, act("decline", 1))
    assert "1.kz_scout" not in s3["units"]


def test_koz_46_evasion_discard_a_card_and_the_strike_misses_not_against_area():
    """KOZ-46: evasion discard a card and the strike misses not against area."""
    s = table("pozorki", "kozly", hands={0: ["pz_spark", "pz_rumor"]},
              units={0: [("pz_dodger", "0.gold_mine")], 1: [("kz_scout", "0.gold_mine")]},
              active=1)
    s, _ = play(s, act("attack", 1, sector="0.gold_mine"))
    s, _ = strike(s, 1, "1.kz_scout", "0.pz_dodger")
    assert s["pending"] == [{"player": 0, "decision": "evade"}]
    assert {a.get("card") for a in GAME.legal_actions(s, 0)} == {"0.pz_spark", "0.pz_rumor",
                                                                None}
    s2, ev = play(s, act("evade", 0, card="0.pz_rumor"))
    assert s2["units"]["0.pz_dodger"]["damage"] == 0 and "0.pz_rumor" in \
        s2["players"][0]["discard"]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("evade", 0, card="0.pz_archer"))
    assert exc.value.rule == "KOZ-46"
    s3, _ = play(s, act("decline", 0))
    assert s3["units"]["0.pz_dodger"]["damage"] == 1
    # an Area strike cannot be evaded
    s = table("pozorki", "trutni", hands={0: ["pz_spark"]},
              units={0: [("pz_dodger", "0.gold_mine"), ("pz_archer", "0.gold_mine")],
                     1: [("tr_hero", "0.gold_mine")]}, active=1)
    s, _ = play(s, act("attack", 1, sector="0.gold_mine"))
    assert s["pending"] == [{"player": 1, "decision": "strike"}]  # speed 4 tie: attacker first
    assert [a["targets"] for a in listed(s, 1, "strike")] == [["0.pz_archer", "0.pz_dodger"]]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("strike", 1, unit="1.tr_hero", targets=["0.pz_dodger"]))
    assert exc.value.rule == "KOZ-31"
    s, ev = strike(s, 1, "1.tr_hero", "0.pz_dodger", "0.pz_archer")
    assert "evaded" not in types(ev) and s["pending"] != [{"player": 0, "decision": "evade"}]
    assert "0.pz_dodger" not in s["units"] and "0.pz_archer" not in s["units"]


def test_koz_49_garrison_creatures_defend_their_capital():
    """KOZ-49: garrison creatures defend their capital."""
    s = table("zhloby", "kozly", units={0: [("zh_iron", "cap1")],
                                        1: [("kz_scout", "cap1")]})
    s, _ = play(s, act("attack", 0, sector="1.kz_capital"))
    s, _ = strike(s, 1, "1.kz_scout", "0.zh_iron")
    targets = {a["targets"][0] for a in listed(s, 0, "strike")}
    assert targets == {"1.kz_scout", "1.kz_capital"}
    s, _ = strike(s, 0, "0.zh_iron", "1.kz_capital")
    # the Scout has no Defender ability, but in its capital it defends it
    assert GAME.legal_actions(s, 1) == [act("defend", 1, unit="1.kz_scout"), act("decline", 1)]
    s2, _ = play(s, act("decline", 1))
    assert s2["players"][1]["capital_damage"] == 1  # attack 3 - Armor 2
    s3, _ = play(s, act("defend", 1, unit="1.kz_scout"))
    assert s3["players"][1]["capital_damage"] == 0 and "1.kz_scout" not in s3["units"]


def test_koz_49_twelve_damage_destroys_the_capital():
    """KOZ-49: twelve damage destroys the capital."""
    s = table("zhloby", "kozly", units={0: [("zh_iron", "cap1", {"artifacts": []})],
                                        1: [("kz_scout", "0.gold_mine")]},
              capital_damage={1: 11}, buildings={1: ["kz_barn"]})
    s, _ = play(s, act("attack", 0, sector="1.kz_capital"))
    s, ev = strike(s, 0, "0.zh_iron", "1.kz_capital")
    assert s["result"] == {"finished": True, "winners": [0], "reason": "destruction"}
    assert any(e["type"] == "capital_destroyed" and e["rule"] == "KOZ-49" for e in ev)
    assert GAME.score(s)["winners"] == [0] and s["pending"] == []


def test_koz_45_a_defender_covers_allied_creatures_not_buildings():
    """KOZ-45: a Defender takes damage dealt to allied *creatures*; a struck
    building gets no Defender offer (only a struck capital does, KOZ-49)."""
    s = table("zhloby", "kozly", buildings={1: ["kz_barn"]},
              units={0: [("zh_brute", "1.kz_capital")], 1: [("kz_guard", "1.kz_capital")]})
    s, _ = play(s, act("attack", 0, sector="1.kz_capital"))
    s, ev = strike(s, 0, "0.zh_brute", "1.kz_barn")
    assert s["pending"] == [{"player": 1, "decision": "strike"}]  # no `defend` offer
    assert {"type": "damage", "target": "1.kz_barn", "amount": 1, "source": "0.zh_brute"} in ev
    assert s["units"]["1.kz_guard"]["damage"] == 0


def test_koz_26_a_creature_outside_the_combat_is_not_a_target_and_not_a_flyer():
    """KOZ-26: striking a creature outside the combat's sector is refused under
    KOZ-26 (not under KOZ-30: it does not fly)."""
    s = table(units={0: [("pz_swordsman", "0.gold_mine")],
                     1: [("tr_grub", "0.gold_mine"), ("tr_grub", "0.crystal_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("strike", 0, unit="0.pz_swordsman", targets=["1.tr_grub#2"]))
    assert exc.value.rule == "KOZ-26" and "not a legal target" in exc.value.reason


def test_koz_25_45_46_an_action_out_of_step_in_combat_names_the_step():
    """KOZ-25: while a creature must strike, other actions are refused under
    KOZ-25 (strikes in speed order); during an Evasion offer under KOZ-46;
    during a Defender offer under KOZ-45."""
    s = table("pozorki", "kozly", hands={0: ["pz_spark"]},
              units={0: [("pz_dodger", "0.gold_mine")],
                     1: [("kz_scout", "0.gold_mine"), ("kz_guard", "0.gold_mine")]}, active=1)
    s, _ = play(s, act("attack", 1, sector="0.gold_mine"))
    for kind, rule in (("skip", "KOZ-25"), ("decline", "KOZ-25")):
        with pytest.raises(RuleViolation) as exc:
            GAME.apply(s, act(kind, 1))
        assert exc.value.rule == rule and "strike" in exc.value.reason
    s, _ = strike(s, 1, "1.kz_scout", "0.pz_dodger")
    assert s["pending"] == [{"player": 0, "decision": "evade"}]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("strike", 0, unit="0.pz_dodger", targets=["1.kz_scout"]))
    assert exc.value.rule == "KOZ-46"
    s, _ = play(s, act("decline", 0))
    s, _ = strike(s, 0, "0.pz_dodger", "1.kz_scout")
    assert s["pending"] == [{"player": 1, "decision": "defend"}]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("evade", 1, card="1.kz_guard"))
    assert exc.value.rule == "KOZ-45"


def test_koz_25_16_9_acting_out_of_turn_names_the_waiting_step():
    """KOZ-25: the wrong player striking is refused under KOZ-25 (speed order);
    KOZ-16: the active player acting in the opponent's response window under
    KOZ-16; KOZ-9: mulligans in turn order."""
    s = table(units={0: [("pz_swordsman", "0.gold_mine")],
                     1: [("tr_bumblebee", "0.gold_mine"), ("tr_grub", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    assert s["pending"] == [{"player": 1, "decision": "strike"}]  # the Bumblebee first
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("strike", 0, unit="0.pz_swordsman", targets=["1.tr_grub"]))
    assert exc.value.rule == "KOZ-25"
    s = table("trutni", "pozorki", units={0: [("tr_grub", "cap1")]},
              buildings={1: ["pz_watchtower"]})
    s, _ = play(s, act("move", 0, **{"from": "1.pz_capital", "to": "1.gold_mine"},
                       units=["0.tr_grub"]))
    assert s["phase"] == "response"
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("skip", 0))
    assert exc.value.rule == "KOZ-16"
    s, _ = GAME.new_game([{"race": "kozly"}, {"race": "zhloby"}], seed=1)
    assert s["pending"] == [{"player": 0, "decision": "mulligan"}]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("keep", 1))
    assert exc.value.rule == "KOZ-9"
