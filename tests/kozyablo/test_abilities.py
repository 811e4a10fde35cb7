"""Every ability KOZ-30 … KOZ-44 with its interactions (KOZ-45/46 in test_combat)."""

from __future__ import annotations

from typing import Any

import pytest

from service.games.errors import RuleViolation
from service.games.kozyablo import GAME
from service.games.kozyablo.cards import Catalogue
from service.games.kozyablo.damage import strike_damage
from service.games.kozyablo.state_types import KozyabloState

from .builder import act, listed, mixed_deck, play, table, types


def targets_of(state: KozyabloState, player: int, unit: str) -> list[str]:
    return sorted({t for a in listed(state, player, "strike") if a["unit"] == unit
                   for t in a["targets"]})


def dmg(state: KozyabloState, striker: str, target: str) -> int:
    return strike_damage(state, Catalogue.of_state(state), striker, target)


def fight(p0: str, p1: str, units0: list[tuple[Any, ...]], units1: list[tuple[Any, ...]],
          sector: str = "0.gold_mine", **kw: Any) -> KozyabloState:
    s = table(p0, p1, units={0: [(u, sector, *x) for u, *x in units0],
                             1: [(u, sector, *x) for u, *x in units1]}, **kw)
    s, _ = play(s, act("attack", 0, sector=sector))
    return s


def test_koz_30_flying_only_flyers_archers_and_magic_attack_strike_it():
    """KOZ-30: flying only flyers archers and magic attack strike it."""
    s = table("trutni", "pozorki", units={
        0: [("tr_bumblebee", "0.gold_mine"), ("tr_grub", "0.gold_mine")],
        1: [("pz_swordsman", "0.gold_mine"), ("pz_archer", "0.gold_mine")]}, active=1)
    s, _ = play(s, act("attack", 1, sector="0.gold_mine"))
    s, _ = play(s, act("strike", 0, unit="0.tr_bumblebee", targets=["1.pz_swordsman"]))
    assert targets_of(s, 1, "1.pz_archer") == ["0.tr_bumblebee", "0.tr_grub"]  # KOZ-33
    s, _ = play(s, act("strike", 1, unit="1.pz_archer", targets=["0.tr_grub"]))
    assert targets_of(s, 1, "1.pz_swordsman") == ["0.tr_grub"]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("strike", 1, unit="1.pz_swordsman", targets=["0.tr_bumblebee"]))
    assert exc.value.rule == "KOZ-30"


def test_koz_31_area_deals_normal_damage_to_two_opposing_creatures():
    """KOZ-31: area deals normal damage to two opposing creatures."""
    s = fight("kozly", "zhloby", [("kz_catapult",)], [("zh_dead",), ("zh_shieldbearer",)])
    s, _ = play(s, act("strike", 0, unit="0.kz_catapult",
                       targets=["1.zh_dead", "1.zh_shieldbearer"]))
    assert "1.zh_dead" not in s["units"] and s["units"]["1.zh_shieldbearer"]["damage"] == 2


def test_koz_32_two_attacks_only_when_its_controller_declared_the_combat():
    """KOZ-32: two attacks only when its controller declared the combat."""
    s = fight("pozorki", "kozly", [("pz_swordsman",)], [("kz_guard",)])
    s, ev = play(s, act("strike", 0, unit="0.pz_swordsman", targets=["1.kz_guard"]))
    assert s["pending"] == [{"player": 0, "decision": "strike"}]
    s, _ = play(s, act("strike", 0, unit="0.pz_swordsman", targets=["1.kz_guard"]))
    assert "1.kz_guard" not in s["units"]  # 2 + 2 = 4 life
    s = table("pozorki", "kozly", units={0: [("pz_swordsman", "0.gold_mine")],
                                         1: [("kz_guard", "0.gold_mine")]}, active=1)
    s, _ = play(s, act("attack", 1, sector="0.gold_mine"))
    s, _ = play(s, act("strike", 0, unit="0.pz_swordsman", targets=["1.kz_guard"]))
    assert s["pending"] == [{"player": 1, "decision": "strike"}]  # no second strike


def test_koz_33_archer_strikes_flyers():
    """KOZ-33: archer strikes flyers."""
    s = fight("pozorki", "trutni", [("pz_archer",)], [("tr_bumblebee",)])
    s = fight("pozorki", "trutni", [("pz_archer",), ("pz_swordsman",)],
              [("tr_blood_wasp",)])
    # Blood Wasp (speed 5) strikes the Swordsman, then the Archer may target the flyer
    s, _ = play(s, act("strike", 1, unit="1.tr_blood_wasp", targets=["0.pz_swordsman"]))
    assert targets_of(s, 0, "0.pz_archer") == ["1.tr_blood_wasp"]


def test_koz_34_magic_attack_strikes_flyers_and_weapon_protection_no_armor():
    """KOZ-34: magic attack strikes flyers and weapon protection no armor."""
    s = fight("trutni", "kozly", [("tr_shaman",)], [("kz_stone_goat",), ("kz_hero",)],
              control={"0.crystal_mine": 0})
    assert dmg(s, "0.tr_shaman", "1.kz_stone_goat") == 2
    assert dmg(s, "0.tr_shaman", "1.kz_hero") == 2  # Armor 1 does not apply
    s2 = table("trutni", "trutni", units={0: [("tr_shaman", "0.gold_mine")],
                                          1: [("tr_bumblebee", "0.gold_mine")]})
    s2, _ = play(s2, act("attack", 0, sector="0.gold_mine"))
    s2, _ = play(s2, act("strike", 1, unit="1.tr_bumblebee", targets=["0.tr_shaman"]))
    assert targets_of(s2, 0, "0.tr_shaman") == ["1.tr_bumblebee"]


def test_koz_35_magic_weapon_strikes_weapon_protection():
    """KOZ-35: magic weapon strikes weapon protection."""
    s = table("zhloby", "kozly", units={0: [("zh_brute", "0.gold_mine"),
                                            ("zh_shieldbearer", "0.gold_mine")],
                                        1: [("kz_stone_goat", "0.gold_mine")]})
    assert dmg(s, "0.zh_brute", "1.kz_stone_goat") == 2


def test_koz_36_weapon_protection_no_damage_from_plain_weapons():
    """KOZ-36: a plain weapon deals 0 to Weapon protection (when its damage reaches it at
    all, e.g. through a capital's garrison Defender); Magic weapon does damage."""
    s = table("zhloby", "kozly", units={0: [("zh_shieldbearer", "0.gold_mine"),
                                            ("zh_brute", "0.gold_mine")],
                                        1: [("kz_stone_goat", "0.gold_mine")]})
    assert dmg(s, "0.zh_shieldbearer", "1.kz_stone_goat") == 0
    assert dmg(s, "0.zh_brute", "1.kz_stone_goat") == 2


def test_koz_36a_weapon_protection_limits_targets_like_flying():
    """RULING KOZ-36a: a creature without Magic weapon / Magic attack is neither offered
    nor allowed a strike on a Weapon-protected creature; Magic weapon is (KOZ-35)."""
    s = fight("zhloby", "kozly", [("zh_shieldbearer",), ("zh_brute",)],
              [("kz_stone_goat",), ("kz_guard",)])
    assert targets_of(s, 0, "0.zh_shieldbearer") == ["1.kz_guard"]
    assert targets_of(s, 0, "0.zh_brute") == ["1.kz_guard", "1.kz_stone_goat"]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("strike", 0, unit="0.zh_shieldbearer", targets=["1.kz_stone_goat"]))
    assert exc.value.rule == "KOZ-36a"


def test_koz_36a_an_area_strike_never_takes_a_weapon_protected_creature():
    """RULING KOZ-36a with KOZ-31: an Area striker without Magic weapon picks its two
    targets among the creatures it may strike; the Weapon-protected one is not one."""
    s = fight("kozly", "kozly", [("kz_catapult",)],
              [("kz_stone_goat",), ("kz_guard",), ("kz_guard",)])
    options = [sorted(a["targets"]) for a in listed(s, 0, "strike")
               if a["unit"] == "0.kz_catapult"]
    assert options and all("1.kz_stone_goat" not in o for o in options)
    assert ["1.kz_guard", "1.kz_guard#2"] in options


def test_koz_37_arrow_protection_no_damage_from_archers():
    """KOZ-37: arrow protection no damage from archers."""
    s = table("pozorki", "zhloby", units={0: [("pz_archer", "0.gold_mine"),
                                              ("pz_dodger", "0.gold_mine")],
                                          1: [("zh_shieldbearer", "0.gold_mine")]})
    assert dmg(s, "0.pz_archer", "1.zh_shieldbearer") == 0
    assert dmg(s, "0.pz_dodger", "1.zh_shieldbearer") == 2


def test_koz_38_magic_protection_no_magic_attack_damage_no_magic_but_word_of_letaro():
    """KOZ-38: magic protection no magic attack damage no magic but word of letaro."""
    s = table(mixed_deck("tr_shaman", "pz_spark", "kz_word_of_letaro", "zh_bad_omen"), "pozorki",
              hands={0: ["pz_spark", "kz_word_of_letaro"]},
              units={0: [("tr_shaman", "1.gold_mine")], 1: [("pz_null_monk", "1.gold_mine")]},
              control={"0.energy_source": 0, "1.energy_source": 0})
    assert dmg(s, "0.tr_shaman", "1.pz_null_monk") == 0
    spark = [a for a in listed(s, 0, "play_card") if a["card"] == "0.pz_spark"]
    assert {a["target"] for a in spark} == {"0.tr_shaman"}  # not the monk
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("play_card", 0, card="0.pz_spark", target="1.pz_null_monk"))
    assert exc.value.rule == "KOZ-38"
    s, ev = play(s, act("play_card", 0, card="0.kz_word_of_letaro", target="1.pz_null_monk"))
    assert s["units"]["1.pz_null_monk"]["damage"] == 3


def test_koz_39_armor_reduces_never_below_one_not_against_magic_attack():
    """KOZ-39: armor reduces never below one not against magic attack."""
    s = table("zhloby", "kozly", units={0: [("zh_iron", "0.gold_mine"), ("zh_dead", "0.gold_mine")],
                                        1: [("kz_scout", "0.gold_mine"), ("kz_hero", "0.gold_mine")]})
    assert dmg(s, "1.kz_scout", "0.zh_iron") == 1  # attack 1 vs Armor 1: still 1
    assert dmg(s, "1.kz_hero", "0.zh_iron") == 2  # 3 - 1
    assert dmg(s, "0.zh_iron", "1.kz_hero") == 2
    assert dmg(s, "1.kz_hero", "0.zh_capital") == 1  # a capital has Armor 2
    s2 = table("trutni", "zhloby", units={0: [("tr_shaman", "0.gold_mine")],
                                          1: [("zh_iron", "0.gold_mine")]})
    assert dmg(s2, "0.tr_shaman", "1.zh_iron") == 2


def test_koz_40_regeneration_restores_x_life_as_the_action():
    """KOZ-40: regeneration restores x life as the action."""
    s = table("trutni", "kozly", units={0: [("tr_grub", "0.gold_mine", {"damage": 2})]})
    use = [a for a in listed(s, 0, "use_ability") if a["ability"] == "regeneration"]
    assert use == [act("use_ability", 0, source="0.tr_grub", ability="regeneration")]
    s, ev = play(s, use[0])
    assert s["units"]["0.tr_grub"]["damage"] == 1 and s["active"] == 1
    s = table("trutni", "kozly", units={0: [("tr_grub", "0.gold_mine")]})
    assert not [a for a in listed(s, 0, "use_ability") if a["ability"] == "regeneration"]


def test_koz_41_shadow_hides_untargetable_moves_hidden_leaves_to_attack():
    """KOZ-41: shadow hides untargetable moves hidden; declaring an attack brings
    nobody out (RULING KOZ-41a: it leaves the shadow only to strike)."""
    s = table("pozorki", "kozly", hands={1: ["kz_bleat"]},
              units={0: [("pz_sneak", "0.gold_mine")], 1: [("kz_guard", "1.gold_mine")]})
    s, ev = play(s, act("use_ability", 0, source="0.pz_sneak", ability="shadow"))
    assert s["units"]["0.pz_sneak"]["shadow"] and s["active"] == 1
    view = GAME.view(s, 1)
    assert "0.pz_sneak" not in view["units"] and view["units"]["hidden-1"]["card"] is None
    s, _ = play(s, act("move", 1, **{"from": "1.gold_mine", "to": "0.gold_mine"},
                       units=["1.kz_guard"]))
    assert s["active"] == 0
    s, ev = play(s, act("attack", 0, sector="0.gold_mine"))
    assert not [e for e in ev if e["type"] == "left_shadow"]
    assert s["units"]["0.pz_sneak"]["shadow"]
    # hidden: no attack on it, no magic on it
    s = table("pozorki", "kozly", hands={1: ["kz_word_of_letaro"]}, active=1,
              units={0: [("pz_sneak", "0.gold_mine", {"shadow": True}),
                         ("pz_archer", "0.crystal_mine")],
                     1: [("kz_guard", "0.gold_mine")]},
              control={"1.energy_source": 1, "0.energy_source": 1})
    assert listed(s, 1, "attack") == []
    assert {a["target"] for a in listed(s, 1, "play_card")} == {"0.pz_archer", "1.kz_guard"}
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("play_card", 1, card="1.kz_word_of_letaro", target="0.pz_sneak"))
    assert exc.value.rule == "KOZ-41"
    # it may move while hidden
    s = table("pozorki", "kozly", units={0: [("pz_sneak", "0.gold_mine", {"shadow": True})]})
    s, _ = play(s, act("move", 0, **{"from": "0.gold_mine", "to": "0.crystal_mine"},
                       units=["0.pz_sneak"]))
    assert s["units"]["0.pz_sneak"] == {"owner": 0, "sector": "0.crystal_mine", "damage": 0,
                                        "shadow": True, "artifacts": [], "shadow_number": 1}


def test_koz_42_scout_brings_enemy_creatures_out_of_the_shadow():
    """KOZ-42: scout brings enemy creatures out of the shadow."""
    s = table("pozorki", "kozly", units={0: [("pz_sneak", "0.gold_mine", {"shadow": True})],
                                         1: [("kz_scout", "1.gold_mine")]}, active=1)
    s, ev = play(s, act("move", 1, **{"from": "1.gold_mine", "to": "0.gold_mine"},
                        units=["1.kz_scout"]))
    assert {"type": "left_shadow", "unit": "0.pz_sneak", "rule": "KOZ-42"} in ev
    assert not s["units"]["0.pz_sneak"]["shadow"]


def test_koz_43_undead_plus_one_from_magic_immune_to_some_spells_and_vampirism():
    """KOZ-43: undead plus one from magic immune to some spells and vampirism."""
    s = table(mixed_deck("zh_dead", "pz_spark", "zh_bad_omen", "zh_brute", "tr_blood_wasp",
                         "tr_shaman"), "zhloby",
              hands={0: ["pz_spark", "zh_bad_omen"]},
              units={0: [("zh_brute", "1.gold_mine"), ("tr_blood_wasp", "1.gold_mine"),
                         ("tr_shaman", "1.gold_mine")],
                     1: [("zh_dead", "1.gold_mine"), ("zh_dead", "1.crystal_mine")]})
    assert dmg(s, "0.zh_brute", "1.zh_dead") == 3  # Magic weapon: +1
    assert dmg(s, "0.tr_shaman", "1.zh_dead") == 3  # Magic attack: +1
    assert dmg(s, "0.tr_blood_wasp", "1.zh_dead") == 2
    omen = [a for a in listed(s, 0, "play_card") if a["card"] == "0.zh_bad_omen"]
    assert omen == []  # undead-immune spell: no legal target (only undead enemies)
    s2, _ = play(s, act("play_card", 0, card="0.pz_spark", target="1.zh_dead#2"))
    assert "1.zh_dead#2" not in s2["units"]  # 2 + 1 = 3 >= 2 life
    # no Vampirism against undead
    s3 = fight("trutni", "zhloby", [("tr_blood_wasp", {"damage": 1})], [("zh_dead",)])
    s3, ev = play(s3, act("strike", 0, unit="0.tr_blood_wasp", targets=["1.zh_dead"]))
    assert "vampirism" not in types(ev) and s3["units"]["0.tr_blood_wasp"]["damage"] == 1


def test_koz_44_vampirism_heals_what_it_dealt_capped_by_victims_life_and_maximum():
    """KOZ-44: vampirism heals what it dealt capped by victims life and maximum."""
    s = fight("trutni", "kozly", [("tr_blood_wasp", {"damage": 1})],
              [("kz_guard", {"damage": 3})])
    s, ev = play(s, act("strike", 0, unit="0.tr_blood_wasp", targets=["1.kz_guard"]))
    # dealt 2, but the Guard had 1 life left: heals 1
    assert {"type": "vampirism", "unit": "0.tr_blood_wasp", "amount": 1, "rule": "KOZ-44"} in ev
    assert s["units"]["0.tr_blood_wasp"]["damage"] == 0
    s = fight("trutni", "kozly", [("tr_blood_wasp",)], [("kz_guard",)])
    s, ev = play(s, act("strike", 0, unit="0.tr_blood_wasp", targets=["1.kz_guard"]))
    assert "vampirism" not in types(ev)  # nothing to heal: already at maximum
    s = table("trutni", "kozly", units={0: [("tr_blood_wasp", "1.kz_capital", {"damage": 1})]})
    s, _ = play(s, act("attack", 0, sector="1.kz_capital"))
    s, ev = play(s, act("strike", 0, unit="0.tr_blood_wasp", targets=["1.kz_capital"]))
    assert "vampirism" not in types(ev) and s["players"][1]["capital_damage"] == 1


def test_koz_18_43_a_refused_spell_target_names_the_true_reason():
    """KOZ-18: a spell aimed at the wrong side is refused under KOZ-18 (not
    KOZ-38: nobody there has Magic protection); KOZ-43: an undead-immune spell
    aimed at Undead is refused under KOZ-43."""
    s = table(mixed_deck("zh_bad_omen", "zh_brute"), "zhloby", hands={0: ["zh_bad_omen"]},
              units={0: [("zh_brute", "0.gold_mine")],
                     1: [("zh_dead", "1.gold_mine"), ("zh_brute", "1.gold_mine")]})
    assert [a["target"] for a in listed(s, 0, "play_card")] == ["1.zh_brute"]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("play_card", 0, card="0.zh_bad_omen", target="0.zh_brute"))
    assert exc.value.rule == "KOZ-18" and "enemy_creature" in exc.value.reason
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("play_card", 0, card="0.zh_bad_omen", target="1.zh_dead"))
    assert exc.value.rule == "KOZ-43" and "Undead" in exc.value.reason


def test_koz_31_area_hits_two_creatures_not_a_creature_and_the_capital():
    """KOZ-31: Area deals its damage "to two opposing creatures": the capital (not
    a creature) is struck alone, never paired with a creature."""
    s = fight("kozly", "zhloby", [("kz_catapult",)], [("zh_dead",)], sector="1.zh_capital")
    assert sorted(a["targets"] for a in listed(s, 0, "strike")) == [["1.zh_capital"],
                                                                    ["1.zh_dead"]]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("strike", 0, unit="0.kz_catapult",
                          targets=["1.zh_capital", "1.zh_dead"]))
    assert exc.value.rule == "KOZ-31"
    s = fight("kozly", "zhloby", [("kz_catapult",)], [("zh_dead",), ("zh_brute",)],
              sector="1.zh_capital")
    assert sorted(a["targets"] for a in listed(s, 0, "strike")) == [
        ["1.zh_brute", "1.zh_dead"], ["1.zh_capital"]]
    with pytest.raises(RuleViolation) as exc:  # two creatures can be struck: not one alone
        GAME.apply(s, act("strike", 0, unit="0.kz_catapult", targets=["1.zh_dead"]))
    assert exc.value.rule == "KOZ-31"
    s, _ = play(s, act("strike", 0, unit="0.kz_catapult", targets=["1.zh_capital"]))
    assert s["pending"] == [{"player": 1, "decision": "defend"}]  # the garrison (KOZ-49)
    s, _ = play(s, act("decline", 1))
    assert s["players"][1]["capital_damage"] == 1  # attack 2 - Armor 2, never below 1
