"""Card types and where they may be played (KOZ-17 … KOZ-23)."""

from __future__ import annotations

from typing import cast

import pytest

from service.games.errors import RuleViolation
from service.games.kozyablo import GAME
from service.games.kozyablo.state_types import KozyabloState
from service.games.objects import ActionObject

from .builder import act, listed, mixed_deck, play, table, types


def rule_of(state: KozyabloState, action: ActionObject) -> str:
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, action)
    return exc.value.rule


def test_koz_17_creatures_not_into_opposing_cards_nor_the_enemy_capital():
    """KOZ-17: creatures not into opposing cards nor the enemy capital."""
    s = table(hands={0: ["pz_archer"]}, units={1: [("tr_grub", "1.gold_mine")]})
    sectors = {a["sector"] for a in listed(s, 0, "play_card")}
    assert "1.gold_mine" not in sectors and "1.tr_capital" not in sectors
    assert {"0.gold_mine", "1.crystal_mine", "0.pz_capital"} <= sectors
    assert rule_of(s, act("play_card", 0, card="0.pz_archer", sector="1.gold_mine")) == "KOZ-17"
    assert rule_of(s, act("play_card", 0, card="0.pz_archer", sector="1.tr_capital")) == "KOZ-17"
    s, _ = play(s, act("play_card", 0, card="0.pz_archer", sector="1.crystal_mine"))
    assert s["units"]["0.pz_archer"] == {"owner": 0, "sector": "1.crystal_mine", "damage": 0,
                                         "shadow": False, "artifacts": []}
    # a shadowed (face-down) enemy creature is an opposing card too
    s = table(hands={1: ["tr_grub"]}, units={0: [("pz_sneak", "0.gold_mine", {"shadow": True})]},
              active=1)
    assert rule_of(s, act("play_card", 1, card="1.tr_grub", sector="0.gold_mine")) == "KOZ-17"


def test_koz_18_magic_needs_mana_instant_temporary_and_permanent():
    """KOZ-18: magic needs mana instant temporary and permanent."""
    s = table(hands={0: ["pz_spark", "pz_banner", "pz_haste"]},
              units={0: [("pz_archer", "0.gold_mine")], 1: [("tr_wild_gilen", "1.gold_mine")]})
    cards = {a["card"] for a in listed(s, 0, "play_card")}
    assert cards == {"0.pz_spark", "0.pz_haste"}  # Banner is level 2, mana is 1
    assert rule_of(s, act("play_card", 0, card="0.pz_banner", sector="0.gold_mine")) == "KOZ-18"
    s1, ev = play(s, act("play_card", 0, card="0.pz_spark", target="1.tr_wild_gilen"))
    assert s1["units"]["1.tr_wild_gilen"]["damage"] == 2 and "0.pz_spark" in \
        s1["players"][0]["discard"]
    s2, ev = play(s, act("play_card", 0, card="0.pz_haste", target="0.pz_archer"))
    assert s2["lasting"]["0.pz_haste"]["turns_left"] == 2 and "magic_laid" in types(ev)
    for _ in range(2):  # the opponent's turn, then ours: two whole turns
        s2, ev = play(s2, act("skip", s2["active"]))
    assert "0.pz_haste" not in s2["lasting"] and "0.pz_haste" in s2["players"][0]["discard"]
    assert any(e["type"] == "magic_ended" and e["rule"] == "KOZ-18" for e in ev)
    s3 = table(hands={0: ["pz_banner"]}, control={"0.energy_source": 0},
               units={0: [("pz_archer", "0.gold_mine")]})
    s3, _ = play(s3, act("play_card", 0, card="0.pz_banner", sector="0.gold_mine"))
    for _ in range(6):
        s3, _ = play(s3, act("skip", s3["active"]))
    assert s3["lasting"]["0.pz_banner"] == {"owner": 0, "turns_left": None, "cast_turn": 1,
                                            "sector": "0.gold_mine", "seat": 0}


def test_koz_19_events_need_crystals_and_sabotage_a_controlled_sector():
    """KOZ-19: events need crystals and sabotage a controlled sector."""
    s = table("zhloby", "kozly", hands={0: ["zh_sabotage"]}, buildings={1: ["kz_barn"]})
    assert listed(s, 0, "play_card") == []
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("play_card", 0, card="0.zh_sabotage", target="1.kz_barn"))
    assert exc.value.rule == "KOZ-19" and "controlled sector" in exc.value.reason
    s = table("zhloby", "kozly", hands={0: ["zh_sabotage"]}, buildings={1: ["kz_barn"]},
              control={"1.gold_mine": 0})
    assert listed(s, 0, "play_card") == [act("play_card", 0, card="0.zh_sabotage",
                                             target="1.kz_barn")]
    s, ev = play(s, listed(s, 0, "play_card")[0])
    assert s["buildings"] == {} and "1.kz_barn" in s["players"][1]["discard"]
    s = table("trutni", "kozly", hands={0: ["tr_migration"]},
              deck={0: ["tr_grub", "tr_grub"]})
    s, ev = play(s, act("play_card", 0, card="0.tr_migration"))
    assert len(s["players"][0]["hand"]) == 2  # two draws, each a chance node
    assert sum(1 for e in ev if e["type"] == "chance") == 2


def test_koz_20_hero_needs_crystals_3_and_never_returns():
    """KOZ-20: hero needs crystals 3 and never returns."""
    s = table("pozorki", "trutni", hands={0: ["pz_hero"]})
    assert listed(s, 0, "play_card") == []
    assert rule_of(s, act("play_card", 0, card="0.pz_hero", sector="0.gold_mine")) == "KOZ-20"
    s = table("pozorki", "trutni", hands={0: ["pz_hero"]}, control={"0.crystal_mine": 0},
              units={1: [("tr_shaman", "1.gold_mine")]})
    s, _ = play(s, act("play_card", 0, card="0.pz_hero", sector="0.gold_mine"))
    assert s["units"]["0.pz_hero"]["sector"] == "0.gold_mine"
    # the hero dies; another copy in hand can never be played
    s = table(mixed_deck("pz_hero", "pz_hero", "kz_word_of_letaro", "zh_hero"), "trutni",
              hands={0: ["pz_hero", "kz_word_of_letaro"]},
              units={0: [("pz_hero", "0.gold_mine", {"damage": 4})]},
              control={"0.crystal_mine": 0, "1.crystal_mine": 0, "0.energy_source": 0,
                       "1.energy_source": 0})
    s, ev = play(s, act("play_card", 0, card="0.kz_word_of_letaro", target="0.pz_hero#2"))
    assert s["players"][0]["dead_heroes"] == ["pz_hero"]
    s, _ = play(s, act("skip", 1))
    assert not [a for a in listed(s, 0, "play_card") if a["card"] == "0.pz_hero"]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("play_card", 0, card="0.pz_hero", sector="0.gold_mine"))
    assert exc.value.rule == "KOZ-20" and "never" in exc.value.reason


def test_koz_21_artifacts_onto_their_heroes_gold_level():
    """KOZ-21: artifacts onto their heroes gold level."""
    s = table("kozly", "trutni", hands={0: ["kz_art_horns", "kz_art_beard"]},
              units={0: [("kz_hero", "0.crystal_mine"), ("kz_guard", "0.crystal_mine")]})
    got = listed(s, 0, "play_card")
    assert got == [act("play_card", 0, card="0.kz_art_horns", target="0.kz_hero")]
    assert rule_of(s, act("play_card", 0, card="0.kz_art_horns", target="0.kz_guard")) == "KOZ-21"
    assert rule_of(s, act("play_card", 0, card="0.kz_art_beard", target="0.kz_hero")) == "KOZ-21"
    s, _ = play(s, got[0])
    assert s["units"]["0.kz_hero"]["artifacts"] == ["0.kz_art_horns"]


def test_koz_22_buildings_only_in_the_capital_crystals_and_the_limit():
    """KOZ-22: buildings only in the capital crystals and the limit."""
    s = table(mixed_deck("zh_tavern", "zh_tavern", "tr_spire"), "kozly",
              hands={0: ["zh_tavern", "tr_spire"]})
    assert listed(s, 0, "play_card") == [act("play_card", 0, card="0.zh_tavern")]
    assert rule_of(s, act("play_card", 0, card="0.tr_spire")) == "KOZ-22"  # crystals 1 < 2
    assert rule_of(s, act("play_card", 0, card="0.zh_tavern", sector="0.gold_mine")) == "KOZ-22"
    s2, ev = play(s, act("play_card", 0, card="0.zh_tavern"))
    assert s2["buildings"]["0.zh_tavern"] == {"owner": 0, "sector": "0.zh_mercenary_camp",
                                              "damage": 0}
    # Mercenary Camp: Buildings 1
    s = table(mixed_deck("zh_tavern", "zh_tavern"), "kozly", hands={0: ["zh_tavern"]},
              buildings={0: ["zh_tavern"]})
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("play_card", 0, card="0.zh_tavern"))
    assert exc.value.rule == "KOZ-22" and "allows 1" in exc.value.reason


def test_koz_23_enemy_creature_in_your_capital_creatures_and_artifacts_only_there():
    """KOZ-23: enemy creature in your capital creatures and artifacts only there."""
    s = table("kozly", "zhloby", hands={0: ["kz_scout", "kz_art_horns"]},
              units={0: [("kz_hero", "0.gold_mine")], 1: [("zh_brute", "cap0")]})
    plays = listed(s, 0, "play_card")
    assert {a.get("sector") for a in plays if a["card"] == "0.kz_scout"} == {"0.kz_capital"}
    assert not [a for a in plays if a["card"] == "0.kz_art_horns"]
    assert rule_of(s, act("play_card", 0, card="0.kz_scout", sector="0.gold_mine")) == "KOZ-23"
    assert rule_of(s, act("play_card", 0, card="0.kz_art_horns", target="0.kz_hero")) == "KOZ-23"
    s, _ = play(s, act("play_card", 0, card="0.kz_scout", sector="0.kz_capital"))
    assert s["units"]["0.kz_scout"]["sector"] == "0.kz_capital"


def test_koz_20_a_hero_needs_crystals_3_whatever_its_printed_level():
    """KOZ-20: "добыча кристаллов должна быть 3 или больше" — a level-5 hero of a
    custom card set is playable with crystals 3 (the level does not raise it)."""
    from types import SimpleNamespace

    from service.games.kozyablo.cards import Catalogue, Face
    from service.games.kozyablo.play import affordable

    s = table("pozorki", "trutni", control={"0.crystal_mine": 0})
    # a stand-in of the fields `affordable` reads, for a card no set has
    hero = cast(Face, SimpleNamespace(id="big_hero", type="hero", level=5, data={}))
    assert affordable(s, Catalogue.of_state(s), 0, hero) is None  # crystals 2 + 1 = 3
    s = table("pozorki", "trutni")
    why = affordable(s, Catalogue.of_state(s), 0, hero)
    assert why is not None
    assert why.startswith("KOZ-20") and "crystals production 3" in why


def test_koz_41_no_artifact_onto_a_hero_in_the_shadow():
    """KOZ-41: a creature in the shadow "cannot be the target of ... effects": an
    artifact cannot be played onto one's own hidden hero (which would also
    name the hidden card to the opponent)."""
    s = table("pozorki", "trutni", hands={0: ["pz_art_bow"]},
              units={0: [("pz_hero", "0.gold_mine",
                          {"shadow": True, "artifacts": ["pz_art_cloak"]})]})
    assert listed(s, 0, "play_card") == []
    assert rule_of(s, act("play_card", 0, card="0.pz_art_bow", target="0.pz_hero")) == "KOZ-41"
    s = table("pozorki", "trutni", hands={0: ["pz_art_bow"]},
              units={0: [("pz_hero", "0.gold_mine", {"artifacts": ["pz_art_cloak"]})]})
    assert listed(s, 0, "play_card") == [act("play_card", 0, card="0.pz_art_bow",
                                             target="0.pz_hero")]
