"""KOZ-45 Defender against the damage of magic cards, events, abilities and triggers.

The effect waits (phase ``effect``) for the hit creature's controller to
``defend {unit}`` or ``decline``, hit by hit in creature-id order, then goes on.
"""

from __future__ import annotations

from typing import Any

import pytest

from service.games.errors import InvalidState, RuleViolation
from service.games.kozyablo import GAME
from service.games.kozyablo.cards import Catalogue
from service.games.kozyablo.damage import magic_damage
from service.games.kozyablo.state_types import KozyabloState
from service.games.objects import Event

from .builder import act, listed, mixed_deck, play, table, types

SCOUT_AND_GUARD = [("kz_scout", "1.gold_mine"), ("kz_guard", "1.gold_mine")]


def spark_at_scout(extra: tuple[tuple[Any, ...], ...] | list[tuple[Any, ...]] = (), p1: str = "kozly"
                   ) -> tuple[KozyabloState, list[Event]]:
    """Pozorki play Spark of Shame (magic, 2 damage) at the Goat Scout."""
    s = table("pozorki", p1, hands={0: ["pz_spark"]},
              units={0: [("pz_archer", "1.gold_mine")], 1: SCOUT_AND_GUARD + list(extra)})
    return play(s, act("play_card", 0, card="0.pz_spark", target="1.kz_scout"))


def test_magic_damage_to_an_ally_is_offered_and_moved_whole():
    """KOZ-45: the Spark's 2 damage meant for the Scout waits for the Defender's
    controller; accepted, the Guard takes all of it and the Scout nothing."""
    s, events = spark_at_scout()
    assert s["phase"] == "effect" and s["pending"] == [{"player": 1, "decision": "defend"}]
    assert "damage" not in types(events)
    assert GAME.legal_actions(s, 1) == [act("defend", 1, unit="1.kz_guard"), act("decline", 1)]
    s, events = play(s, act("defend", 1, unit="1.kz_guard"))
    assert {"type": "defended", "unit": "1.kz_guard", "instead_of": "1.kz_scout",
            "rule": "KOZ-45"} in events
    assert s["units"]["1.kz_guard"]["damage"] == 2 and s["units"]["1.kz_scout"]["damage"] == 0
    assert s["effect"] is None and s["phase"] == "main" and s["active"] == 1  # the turn went on


def test_declined_the_original_target_takes_the_damage():
    """KOZ-45: declined, the Scout (life 2) takes the Spark's 2 damage and dies."""
    s, _ = spark_at_scout()
    s, events = play(s, act("decline", 1))
    assert "1.kz_scout" not in s["units"] and s["units"]["1.kz_guard"]["damage"] == 0
    assert "defended" not in types(events) and s["active"] == 1


def test_moved_damage_is_resolved_against_the_defender():
    """KOZ-45 with KOZ-39/KOZ-43: Armor does not cut a card's damage (Old Billy,
    Armor 1, takes the whole 2); an Undead target's +1 from magic stays with it."""
    s, _ = spark_at_scout([("kz_hero", "1.gold_mine")])
    assert [a["unit"] for a in listed(s, 1, "defend")] == ["1.kz_guard", "1.kz_hero"]
    s, _ = play(s, act("defend", 1, unit="1.kz_hero"))
    assert s["units"]["1.kz_hero"]["damage"] == 2

    deck = mixed_deck("zh_dead", "kz_guard")
    s = table("pozorki", deck, hands={0: ["pz_spark"]},
              units={1: [("zh_dead", "1.gold_mine"), ("kz_guard", "1.gold_mine")]})
    s, _ = play(s, act("play_card", 0, card="0.pz_spark", target="1.zh_dead"))
    guarded, _ = play(s, act("defend", 1, unit="1.kz_guard"))
    assert guarded["units"]["1.kz_guard"]["damage"] == 2
    assert magic_damage(s, Catalogue.of_state(s), "1.zh_dead", 2, True) == 3  # Undead: +1
    s, events = play(s, act("decline", 1))
    # 3 on a 2-life creature: the event reports the 2 it had left (no overkill)
    assert {"type": "damage", "target": "1.zh_dead", "amount": 2, "source": "0.pz_spark"} \
        in events and "1.zh_dead" not in s["units"]


def test_defender_not_offered_when_it_cannot_take_the_damage():
    """KOZ-45 with KOZ-41/KOZ-38: a Defender in the shadow, or with Magic protection
    against a magic card, is no legal recipient; the target is hit at once.  A
    Defender elsewhere or of the other side is never offered."""
    s = table("pozorki", "kozly", hands={0: ["pz_spark"]},
              units={1: [("kz_scout", "1.gold_mine"), ("kz_guard", "1.gold_mine", {"shadow": True}),
                         ("kz_guard", "0.gold_mine"),
                         ("kz_hero", "1.gold_mine", {"artifacts": ["kz_art_beard"]})]})
    s, events = play(s, act("play_card", 0, card="0.pz_spark", target="1.kz_scout"))
    assert s["phase"] == "main" and s["active"] == 1 and "1.kz_scout" not in s["units"]
    assert "defended" not in types(events)
    mixed = mixed_deck("kz_guard", "pz_spark", "pz_archer", capital="zh_mercenary_camp")
    s = table(mixed, "kozly", hands={0: ["pz_spark"]},
              units={0: [("kz_guard", "1.gold_mine")], 1: [("kz_scout", "1.gold_mine")]})
    s, _ = play(s, act("play_card", 0, card="0.pz_spark", target="1.kz_scout"))
    assert s["phase"] == "main" and "1.kz_scout" not in s["units"]


def test_magic_protection_is_pierced_by_word_of_letaro():
    """KOZ-45/KOZ-38: Word of Letaro pierces Magic protection, so the protected
    Defender may take its 3 damage (the Spark it could not)."""
    s = table("kozly", "kozly", hands={0: ["kz_word_of_letaro"]},
              control={"0.energy_source": 0, "0.crystal_mine": 0},
              units={1: [("kz_scout", "1.gold_mine"),
                         ("kz_hero", "1.gold_mine", {"artifacts": ["kz_art_beard"]})]})
    s, _ = play(s, act("play_card", 0, card="0.kz_word_of_letaro", target="1.kz_scout"))
    assert [a["unit"] for a in listed(s, 1, "defend")] == ["1.kz_hero"]
    s, _ = play(s, act("defend", 1, unit="1.kz_hero"))
    assert s["units"]["1.kz_hero"]["damage"] == 3 and s["units"]["1.kz_scout"]["damage"] == 0


def test_ability_damage_in_the_main_phase_then_the_turn_goes_on():
    """KOZ-45: a Watchtower's free ability (not magic: Magic protection does not
    matter) is offered to the Defender; afterwards the same main phase goes on."""
    s = table("pozorki", "kozly", buildings={0: ["pz_watchtower"]},
              units={1: [("kz_scout", "cap0"),
                         ("kz_hero", "cap0", {"artifacts": ["kz_art_beard"]})]})
    tower = next(iter(s["buildings"]))
    use = next(a for a in listed(s, 0, "use_ability") if a.get("target") == "1.kz_scout")
    s, _ = play(s, use)
    assert s["effect"] is not None
    assert s["phase"] == "effect" and s["effect"]["then"] == "main"
    assert s["effect"] is not None
    assert s["effect"]["source"] == tower
    s, _ = play(s, act("defend", 1, unit="1.kz_hero"))
    assert s["units"]["1.kz_hero"]["damage"] == 1
    assert s["phase"] == "main" and s["active"] == 0 and s["pending"][0]["player"] == 0


def test_ability_used_in_the_response_window_then_the_declared_action():
    """KOZ-45 within KOZ-16: the responder's Watchtower damage waits for the
    Defender decision; then the window closes and the declared skip is done."""
    s = table("kozly", "pozorki", buildings={1: ["pz_watchtower"]},
              units={0: [("kz_scout", "cap1"), ("kz_guard", "cap1")]})
    s, _ = play(s, act("skip", 0))
    assert s["phase"] == "response"
    use = next(a for a in listed(s, 1, "use_ability") if a.get("target") == "0.kz_scout")
    s, _ = play(s, use)
    assert s["phase"] == "effect" and s["declared"] is not None
    assert s["pending"] == [{"player": 0, "decision": "defend"}]
    s, events = play(s, act("decline", 0))
    assert s["units"]["0.kz_scout"]["damage"] == 1
    # nobody passed: the window closed because the responder had nothing left to use
    assert "passed" not in types(events)
    assert "window_closed" in types(events) and "skipped" in types(events)
    assert s["declared"] is None and s["phase"] == "main" and s["active"] == 1


def test_squad_damage_asks_hit_by_hit_in_creature_id_order():
    """KOZ-45 with KOZ-14: the Pillory's start-of-turn damage to a squad offers
    each hit in creature-id order; the start phase then goes on to the main phase."""
    s = table("pozorki", "kozly", buildings={0: ["pz_pillory"]}, active=1,
              units={1: [("kz_scout", "cap0"), ("kz_guard", "cap0"), ("kz_hero", "cap0")]})
    s, _ = play(s, act("skip", 1))
    assert s["effect"] is not None
    assert s["phase"] == "effect" and s["effect"]["then"] == "start" and s["active"] == 0
    assert s["effect"] is not None
    assert [h["target"] for h in s["effect"]["hits"]] == ["1.kz_guard", "1.kz_hero",
                                                          "1.kz_scout"]
    assert [a["unit"] for a in listed(s, 1, "defend")] == ["1.kz_hero"]
    s, _ = play(s, act("defend", 1, unit="1.kz_hero"))  # the Guard's 1 → Old Billy
    assert s["effect"] is not None
    assert s["effect"]["hits"][0]["target"] == "1.kz_hero"
    assert [a["unit"] for a in listed(s, 1, "defend")] == ["1.kz_guard"]
    s, _ = play(s, act("decline", 1))
    assert s["effect"] is not None
    assert s["effect"]["hits"][0]["target"] == "1.kz_scout"
    s, _ = play(s, act("defend", 1, unit="1.kz_guard"))
    units = s["units"]
    assert (units["1.kz_guard"]["damage"], units["1.kz_hero"]["damage"],
            units["1.kz_scout"]["damage"]) == (1, 2, 0)
    assert s["phase"] == "main" and s["active"] == 0 and s["effect"] is None


def test_only_defend_or_decline_while_an_effect_waits():
    """KOZ-45: anything else, or a unit not offered, is refused with the clause."""
    s, _ = spark_at_scout()
    for bad in (act("skip", 1), act("strike", 1, unit="1.kz_guard", targets=["0.pz_archer"]),
                act("defend", 1, unit="1.kz_scout")):
        with pytest.raises(RuleViolation) as exc:
            GAME.apply(s, bad)
        assert exc.value.rule == "KOZ-45"
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("decline", 0))
    assert exc.value.rule == "KOZ-45"


def test_a_waiting_effect_must_be_consistent():
    """KOZ-45: the effect phase and ``state.effect`` go together; its offered hit
    names a creature on the table."""
    s, _ = spark_at_scout()
    assert s["effect"] is not None
    for forged in ({**s, "effect": None},
                   {**s, "phase": "main", "pending": [{"player": 0, "decision": "action"}]},
                   {**s, "effect": {**s["effect"], "hits": [{"target": "0.pz_nobody",
                                                             "amount": 2}]}},
                   {**s, "effect": {**s["effect"], "then": "start",
                                    "triggers": [{"source": "1.kz_scout", "index": 0}]}}):
        with pytest.raises(InvalidState):
            GAME.validate_state(forged)
