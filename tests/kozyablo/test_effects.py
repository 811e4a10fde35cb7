"""The effect engine: each effect kind of the closed vocabulary, through real cards."""

from __future__ import annotations

import pytest

from service.games.errors import RuleViolation
from service.games.kozyablo import GAME
from service.games.kozyablo.cards import Catalogue, Stats
from service.games.kozyablo.state_types import KozyabloState
from service.games.kozyablo.stats import unit_stats

from .builder import act, listed, play, table, types


def stats(state: KozyabloState, uid: str) -> Stats:
    return unit_stats(state, Catalogue.of_state(state), uid)


def test_damage_to_an_enemy_squad_spares_the_rest():
    """KOZ-18: Swarm Cloud hits every enemy creature in one sector, nobody else."""
    s = table("trutni", "kozly", hands={0: ["tr_swarm"]},
              units={0: [("tr_grub", "1.gold_mine")],
                     1: [("kz_guard", "1.gold_mine"), ("kz_scout", "1.gold_mine"),
                         ("kz_healer", "0.gold_mine")]})
    assert [a["sector"] for a in listed(s, 0, "play_card")] == ["0.gold_mine", "1.gold_mine"]
    s, _ = play(s, act("play_card", 0, card="0.tr_swarm", sector="1.gold_mine"))
    assert s["phase"] == "response"  # the Goat Healer has a free ability
    s, _ = play(s, act("pass", 1))
    assert s["phase"] == "effect"  # KOZ-45: the Goat Guard (Defender) may take the Scout's
    s, _ = play(s, act("decline", 1))
    units = s["units"]
    assert units["1.kz_guard"]["damage"] == 1 and units["1.kz_scout"]["damage"] == 1
    assert units["1.kz_healer"]["damage"] == 0 and units["0.tr_grub"]["damage"] == 0


def test_lasting_modifiers_on_a_creature_and_on_a_squad():
    """KOZ-18: Eternal Nectar (+1 life, permanent), Banner of Shame (+1 attack to a squad)."""
    s = table("trutni", "kozly", hands={0: ["tr_nectar"]}, control={"0.energy_source": 0},
              units={0: [("tr_grub", "0.gold_mine")]})
    s, _ = play(s, act("play_card", 0, card="0.tr_nectar", target="0.tr_grub"))
    assert stats(s, "0.tr_grub").life == 4
    s = table("pozorki", "kozly", hands={0: ["pz_banner"]}, control={"0.energy_source": 0},
              units={0: [("pz_archer", "0.gold_mine"), ("pz_dodger", "0.crystal_mine")]})
    s, _ = play(s, act("play_card", 0, card="0.pz_banner", sector="0.gold_mine"))
    assert stats(s, "0.pz_archer").attack == 2 and stats(s, "0.pz_dodger").attack == 2
    s, _ = play(s, act("skip", 1))
    s, _ = play(s, act("move", 0, **{"from": "0.crystal_mine", "to": "0.gold_mine"},
                       units=["0.pz_dodger"]))
    assert stats(s, "0.pz_dodger").attack == 3  # joined the squad under the banner


def test_curse_is_undead_immune_and_purge_dispels_lasting_magic():
    """KOZ-43 immunity of a lasting spell; a permanent magic stays until destroyed."""
    s = table("kozly", "zhloby", hands={0: ["kz_curse", "kz_purge"]},
              units={1: [("zh_dead", "1.gold_mine"), ("zh_brute", "1.gold_mine")]})
    curse = [a["target"] for a in listed(s, 0, "play_card") if a["card"] == "0.kz_curse"]
    assert curse == ["1.zh_brute"]  # not the undead
    s, _ = play(s, act("play_card", 0, card="0.kz_curse", target="1.zh_brute"))
    assert stats(s, "1.zh_brute").attack == 1
    s, _ = play(s, act("skip", 1))
    assert [a["target"] for a in listed(s, 0, "play_card") if a["card"] == "0.kz_purge"] == \
        ["0.kz_curse"]
    s, ev = play(s, act("play_card", 0, card="0.kz_purge", target="0.kz_curse"))
    assert s["lasting"] == {} and stats(s, "1.zh_brute").attack == 2
    assert "0.kz_curse" in s["players"][0]["discard"]


def test_smoke_out_reveals_and_extortion_damages_the_capital_without_armor():
    s = table("pozorki", "trutni", hands={0: ["pz_smoke"]},
              units={1: [("tr_grub", "0.gold_mine", {"shadow": True})]})
    s, ev = play(s, act("play_card", 0, card="0.pz_smoke", sector="0.gold_mine"))
    assert not s["units"]["1.tr_grub"]["shadow"]
    s = table("zhloby", "trutni", hands={0: ["zh_taxes"]},
              control={"1.gold_mine": 0, "1.crystal_mine": 0})
    s, ev = play(s, act("play_card", 0, card="0.zh_taxes"))
    assert s["players"][1]["capital_damage"] == 2  # an event, not a creature: no Armor
    s = table("zhloby", "trutni", hands={0: ["zh_taxes"]}, control={"1.crystal_mine": 0})
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("play_card", 0, card="0.zh_taxes"))
    assert exc.value.rule == "KOZ-19"


def test_start_trigger_draw_and_end_trigger_heal_squad():
    """KOZ-14: Tavern draws at the start of its owner's turn (a chance node)."""
    s = table("trutni", "zhloby", buildings={1: ["zh_tavern"]}, deck={1: ["zh_brute"]})
    s, ev = play(s, act("skip", 0))
    assert s["players"][1]["hand"] == ["1.zh_brute"] and "drawn" in types(ev)
    s, ev = play(s, act("skip", 1))
    s, ev = play(s, act("skip", 0))
    assert "drawn" not in types(ev) and s["players"][1]["deck"] == []  # empty: nothing drawn
