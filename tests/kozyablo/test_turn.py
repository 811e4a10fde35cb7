"""Sectors, production and the turn (KOZ-11 … KOZ-16a)."""

from __future__ import annotations

import pytest

from service.games.errors import RuleViolation
from service.games.kozyablo import GAME
from service.games.kozyablo.cards import Catalogue
from service.games.kozyablo.sectors import production
from service.games.kozyablo.state_types import KozyabloState

from .builder import act, listed, play, table, types


def prod(state: KozyabloState, seat: int) -> dict[str, int]:
    return production(state, Catalogue.of_state(state), seat)


def test_koz_11_control_comes_with_creatures_stays_and_turns_neutral_when_shared():
    """KOZ-11: control comes with creatures stays and turns neutral when shared."""
    s = table(hands={0: ["pz_archer"]}, units={1: [("tr_grub", "1.gold_mine")]})
    assert s["sectors"]["1.gold_mine"]["controller"] == 1
    s, ev = play(s, act("play_card", 0, card="0.pz_archer", sector="0.gold_mine"))
    assert s["sectors"]["0.gold_mine"]["controller"] == 0 and "sector_control" in types(ev)
    s, _ = play(s, act("move", 1, **{"from": "1.gold_mine", "to": "0.crystal_mine"},
                       units=["1.tr_grub"]))
    assert s["sectors"]["1.gold_mine"]["controller"] == 1  # stays after leaving
    assert s["sectors"]["0.crystal_mine"]["controller"] == 1  # an empty sector is taken
    s, _ = play(s, act("move", 0, **{"from": "0.gold_mine", "to": "0.crystal_mine"},
                       units=["0.pz_archer"]))
    assert s["sectors"]["0.crystal_mine"]["controller"] is None  # shared: neutral


def test_koz_12_capital_sets_race_and_starting_production_12_life_armor_2():
    """KOZ-12: capital sets race and starting production 12 life armor 2."""
    s = table("kozly", "zhloby")
    assert prod(s, 0) == {"gold": 1, "crystals": 2, "mana": 2}
    assert prod(s, 1) == {"gold": 2, "crystals": 2, "mana": 1}
    cap = Catalogue.of_state(s).capitals["kz_capital"]
    assert (cap["life"], cap["armor"], cap["garrison"], cap["buildings"]) == (12, 2, 3, 2)


def test_koz_13_production_is_a_level_plus_one_per_controlled_sector_nothing_spent():
    """KOZ-13: production is a level plus one per controlled sector nothing spent."""
    s = table("kozly", "zhloby", hands={0: ["kz_stone_goat", "kz_catapult"]},
              control={"0.gold_mine": 0})
    assert prod(s, 0)["gold"] == 2
    assert {a["card"] for a in listed(s, 0, "play_card")} == {"0.kz_stone_goat",
                                                              "0.kz_catapult"}
    s2 = table("kozly", "zhloby", hands={0: ["kz_stone_goat"]})
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s2, act("play_card", 0, card="0.kz_stone_goat", sector="0.gold_mine"))
    assert exc.value.rule == "KOZ-17" and "gold production 2" in exc.value.reason
    # the other player controls a second gold mine: +1 more
    s3 = table("kozly", "zhloby", control={"0.gold_mine": 0, "1.gold_mine": 0})
    assert prod(s3, 0)["gold"] == 3 and prod(s3, 1)["gold"] == 2


def test_koz_14_start_and_end_of_turn_texts_trigger():
    """KOZ-14: start and end of turn texts trigger."""
    s = table("zhloby", "trutni", units={0: [("zh_bouncer", "0.gold_mine", {"damage": 2})],
                                         1: [("tr_grub", "cap1", {"damage": 1})]},
              buildings={1: ["tr_hatchery"]}, active=1)
    s, ev = play(s, act("skip", 1))
    kinds = [(e["type"], e.get("source"), e.get("when")) for e in ev if e["type"] == "trigger"]
    assert kinds == [("trigger", "1.tr_hatchery", "end"), ("trigger", "0.zh_bouncer", "start")]
    assert s["units"]["1.tr_grub"]["damage"] == 0 and s["units"]["0.zh_bouncer"]["damage"] == 1


def test_koz_15_exactly_one_action_then_the_turn_passes():
    """KOZ-15: exactly one action then the turn passes."""
    s = table(hands={0: ["pz_archer", "pz_sneak"]})
    s, ev = play(s, act("play_card", 0, card="0.pz_archer", sector="0.gold_mine"))
    assert s["active"] == 1 and s["turn"] == 2 and "turn_ended" in types(ev)
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("play_card", 0, card="0.pz_sneak", sector="0.gold_mine"))
    assert exc.value.rule == "KOZ-15"
    s, ev = play(s, act("draw", 1))
    assert "draw" in types(ev) and len(s["players"][1]["hand"]) == 1 and s["active"] == 0
    s, _ = play(s, act("skip", 0))
    assert s["active"] == 1
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("pass", 1))
    assert exc.value.rule == "KOZ-15"
    kinds = {a["type"] for a in GAME.legal_actions(s, 1)}
    assert {"draw", "skip"} <= kinds and "move" not in kinds  # nothing on the table yet


def test_koz_16_free_ability_keeps_the_action_action_ability_uses_it():
    """KOZ-16: free ability keeps the action action ability uses it."""
    s = table("kozly", "zhloby", units={0: [("kz_healer", "0.gold_mine"),
                                            ("kz_guard", "0.gold_mine", {"damage": 2})]})
    s, ev = play(s, act("use_ability", 0, source="0.kz_healer", ability="soothe",
                        target="0.kz_guard"))
    assert s["active"] == 0 and s["units"]["0.kz_guard"]["damage"] == 1
    # once per turn
    assert not [a for a in listed(s, 0, "use_ability") if a["source"] == "0.kz_healer"]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("use_ability", 0, source="0.kz_healer", ability="soothe",
                          target="0.kz_guard"))
    assert exc.value.rule == "KOZ-16"
    s, _ = play(s, act("skip", 0))
    # an action-marked ability (Goat Altar) uses the turn's action
    s = table("kozly", "zhloby", units={1: [("zh_brute", "cap0")]}, buildings={0: ["kz_altar"]})
    s, ev = play(s, act("use_ability", 0, source="0.kz_altar", ability="smite",
                        target="1.zh_brute"))
    assert s["active"] == 1 and s["units"]["1.zh_brute"]["damage"] == 2
    # abilities reach only their own sector
    s = table("kozly", "zhloby", units={1: [("zh_brute", "0.gold_mine")]},
              buildings={0: ["kz_altar"]})
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("use_ability", 0, source="0.kz_altar", ability="smite",
                          target="1.zh_brute"))
    assert exc.value.rule == "KOZ-16"


def test_koz_16_response_window_free_abilities_after_an_action_is_declared():
    """KOZ-16: response window free abilities after an action is declared."""
    s = table("trutni", "pozorki",
              units={0: [("tr_bumblebee", "cap1"), ("tr_grub", "cap1")]},
              buildings={1: ["pz_watchtower"]})
    s, ev = play(s, act("move", 0, **{"from": "1.pz_capital", "to": "1.gold_mine"},
                        units=["0.tr_grub"]))
    assert types(ev) == ["action_declared"] and s["phase"] == "response"
    assert s["pending"] == [{"player": 1, "decision": "response"}]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("skip", 1))
    assert exc.value.rule == "KOZ-16"
    opts = GAME.legal_actions(s, 1)
    assert {a["type"] for a in opts} == {"use_ability", "pass"}
    s2, ev = play(s, act("use_ability", 1, source="1.pz_watchtower", ability="volley",
                         target="0.tr_grub"))
    # the free ability resolved first, then (nothing else to use) the move was carried out
    assert types(ev)[:2] == ["ability_used", "damage"] and "moved" in types(ev)
    assert s2["units"]["0.tr_grub"]["sector"] == "1.gold_mine"
    assert s2["units"]["0.tr_grub"]["damage"] == 1 and s2["active"] == 1
    s3, ev = play(s, act("pass", 1))
    assert types(ev)[:3] == ["passed", "window_closed", "moved"]


def test_koz_16_declared_action_fizzles_when_the_response_made_it_illegal():
    """KOZ-16: declared action fizzles when the response made it illegal."""
    s = table("trutni", "pozorki", hands={0: ["tr_swarm"]},
              units={0: [("tr_grub", "cap1", {"damage": 2})], 1: [("pz_archer", "0.gold_mine")]},
              buildings={1: ["pz_watchtower"]}, control={"0.energy_source": 0})
    s, _ = play(s, act("use_ability", 0, source="0.tr_grub", ability="regeneration"))
    assert s["phase"] == "response"
    s, ev = play(s, act("use_ability", 1, source="1.pz_watchtower", ability="volley",
                        target="0.tr_grub"))
    assert "action_fizzled" in types(ev) and "0.tr_grub" not in s["units"]
    assert s["active"] == 1


def test_koz_16a_no_move_from_capital_to_capital_and_the_garrison_limit():
    """KOZ-16a: no move from capital to capital and the garrison limit."""
    s = table("zhloby", "kozly", units={0: [("zh_brute", "cap0"), ("zh_dead", "cap0"),
                                            ("zh_shieldbearer", "0.gold_mine")]})
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("move", 0, **{"from": "0.zh_capital", "to": "1.kz_capital"},
                          units=["0.zh_brute"]))
    assert exc.value.rule == "KOZ-16a"
    # Zhlob Den: garrison 2
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("move", 0, **{"from": "0.gold_mine", "to": "0.zh_capital"},
                          units=["0.zh_shieldbearer"]))
    assert exc.value.rule == "KOZ-16a" and "garrison" in exc.value.reason
    assert not [a for a in listed(s, 0, "move") if a["to"] == s["players"][0]["capital"]]


def test_koz_16a_garrison_must_be_restored_once_the_enemy_is_gone():
    """KOZ-16a: garrison must be restored once the enemy is gone."""
    s = table("zhloby", "kozly", units={0: [("zh_brute", "cap0"), ("zh_dead", "cap0"),
                                            ("zh_shieldbearer", "cap0")]})
    acts = GAME.legal_actions(s, 0)
    assert acts and all(a["type"] == "move" and a["from"] == "0.zh_capital" for a in acts)
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("skip", 0))
    assert exc.value.rule == "KOZ-16a"
    # while an enemy card is in the capital the limit does not apply
    s = table("zhloby", "kozly", units={0: [("zh_brute", "cap0"), ("zh_dead", "cap0"),
                                            ("zh_shieldbearer", "cap0")],
                                        1: [("kz_scout", "cap0")]})
    assert any(a["type"] == "skip" for a in GAME.legal_actions(s, 0))


def test_koz_16a_retreat_attack_when_all_creatures_leave_a_sector_with_enemies():
    """KOZ-16a: retreat attack when all creatures leave a sector with enemies."""
    s = table("pozorki", "trutni", units={0: [("pz_archer", "0.gold_mine"),
                                              ("pz_swordsman", "0.gold_mine")],
                                          1: [("tr_wild_gilen", "0.gold_mine")]})
    # moving only part of the squad: no retreat attack
    s1, ev = play(s, act("move", 0, **{"from": "0.gold_mine", "to": "0.crystal_mine"},
                         units=["0.pz_archer"]))
    assert "retreat_attack" not in types(ev)
    s2, ev = play(s, act("move", 0, **{"from": "0.gold_mine", "to": "0.crystal_mine"},
                         units=["0.pz_archer", "0.pz_swordsman"]))
    assert "retreat_attack" in types(ev) and s2["pending"] == [{"player": 1, "decision": "strike"}]
    strikes = listed(s2, 1, "strike")
    assert {a["targets"][0] for a in strikes} == {"0.pz_archer", "0.pz_swordsman"}
    s3, ev = play(s2, act("strike", 1, unit="1.tr_wild_gilen", targets=["0.pz_swordsman"]))
    assert "0.pz_swordsman" not in s3["units"]
    assert s3["units"]["0.pz_archer"]["sector"] == "0.crystal_mine" and s3["active"] == 1
    assert s3["units"]["1.tr_wild_gilen"]["damage"] == 0  # the leaving side does not strike


def test_koz_16_option_response_window_always():
    """KOZ-16: with ``response_window: always`` every declared action waits for a pass."""
    s = table(hands={0: ["pz_archer"]}, options={"response_window": "always"})
    s, ev = play(s, act("play_card", 0, card="0.pz_archer", sector="0.gold_mine"))
    assert types(ev) == ["action_declared"] and s["pending"] == [{"player": 1,
                                                                   "decision": "response"}]
    assert GAME.legal_actions(s, 1) == [act("pass", 1)]
    s, ev = play(s, act("pass", 1))
    assert "card_played" in types(ev) and s["active"] == 1
