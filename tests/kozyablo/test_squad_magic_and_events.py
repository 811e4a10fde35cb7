"""Issue 10 (second rules pass): squad magic (RULING KOZ-18a) and events that say
what happened (KOZ-16 windows, KOZ-16a retreats, KOZ-27 damage, chance reveals)."""

from __future__ import annotations

import pytest

from service.games.errors import RuleViolation
from service.games.kozyablo import GAME

from .builder import act, listed, play, table, types

BANNER_ON_0 = {"sector": "1.tr_capital", "seat": 0}


def test_koz_18a_a_banner_leaves_with_its_squad_from_the_enemy_capital():
    """RULING KOZ-18a: a Banner on pozorki's squad in the trutni capital goes to the
    discard when that squad moves out; trutni may then play creatures into their own
    capital again (KOZ-17 is not blocked by the squad's magic)."""
    s = table("pozorki", "trutni", units={0: [("pz_archer", "cap1")]},
              lasting={0: [("pz_banner", BANNER_ON_0, None)]}, hands={1: ["tr_grub"]})
    s, ev = play(s, act("move", 0, **{"from": "1.tr_capital", "to": "1.gold_mine"},
                        units=["0.pz_archer"]))
    assert {"type": "magic_ended", "card": "0.pz_banner", "why": "squad_gone",
            "rule": "KOZ-18a"} in ev
    assert s["lasting"] == {} and "0.pz_banner" in s["players"][0]["discard"]
    assert s["active"] == 1
    assert "1.tr_capital" in {a["sector"] for a in listed(s, 1, "play_card")}
    s, _ = play(s, act("play_card", 1, card="1.tr_grub", sector="1.tr_capital"))
    assert s["units"]["1.tr_grub"]["sector"] == "1.tr_capital"


def test_koz_18a_squad_magic_is_no_card_in_the_sector():
    """RULING KOZ-18a: while the squad is there, its magic is not an opposing card for
    KOZ-17: only the squad's creatures block plays; the magic alone never does."""
    from service.games.kozyablo.sectors import has_opposing_cards
    s = table("pozorki", "trutni", units={0: [("pz_archer", "0.gold_mine")]},
              lasting={0: [("pz_banner", {"sector": "0.gold_mine", "seat": 0}, None)]})
    assert has_opposing_cards(s, "0.gold_mine", 1)  # the Archer
    del s["units"]["0.pz_archer"]  # the magic alone, as a stale state would have it
    assert not has_opposing_cards(s, "0.gold_mine", 1)


def test_koz_18a_a_banner_left_in_an_empty_sector_does_not_block_the_enemy():
    """RULING KOZ-18a: the squad leaves a sector; its Banner goes to the discard at once
    and the enemy may play creatures there (before: blocked for the rest of the game)."""
    s = table("pozorki", "trutni", units={0: [("pz_archer", "0.gold_mine")]},
              lasting={0: [("pz_banner", {"sector": "0.gold_mine", "seat": 0}, None)]},
              hands={1: ["tr_grub"]})
    s, ev = play(s, act("move", 0, **{"from": "0.gold_mine", "to": "0.crystal_mine"},
                        units=["0.pz_archer"]))
    assert "magic_ended" in types(ev) and not s["lasting"]
    s, _ = play(s, act("play_card", 1, card="1.tr_grub", sector="0.gold_mine"))
    assert s["units"]["1.tr_grub"]["sector"] == "0.gold_mine"


def test_koz_18a_squad_magic_ends_when_the_squad_dies():
    """RULING KOZ-18a: the last creature of the squad dies in a combat: its magic goes."""
    s = table("pozorki", "trutni", units={0: [("pz_archer", "0.gold_mine")],
                                          1: [("tr_wild_gilen", "0.gold_mine")]},
              lasting={0: [("pz_banner", {"sector": "0.gold_mine", "seat": 0}, None)]})
    s, _ = play(s, act("move", 0, **{"from": "0.gold_mine", "to": "0.crystal_mine"},
                       units=["0.pz_archer"]))  # a retreat attack (KOZ-16a)
    assert s["lasting"]
    s, ev = play(s, act("strike", 1, unit="1.tr_wild_gilen", targets=["0.pz_archer"]))
    assert "0.pz_archer" not in s["units"] and not s["lasting"]
    assert {"type": "magic_ended", "card": "0.pz_banner", "why": "squad_gone",
            "rule": "KOZ-18a"} in ev


def test_koz_16a_garrison_full_is_said_only_when_it_is_full():
    """KOZ-16a: `check` says the garrison is full with the count; KOZ-17 otherwise."""
    s = table("pozorki", "trutni", hands={1: ["tr_grub"]}, active=1,
              units={1: [("tr_wild_gilen", "cap1"), ("tr_wild_gilen", "cap1"),
                         ("tr_bumblebee", "cap1"), ("tr_bumblebee", "cap1")]})
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("play_card", 1, card="1.tr_grub", sector="1.tr_capital"))
    assert exc.value.rule == "KOZ-16a" and "(4 of 4" in exc.value.reason
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("play_card", 1, card="1.tr_grub", sector="0.pz_capital"))
    assert exc.value.rule == "KOZ-17"


def test_koz_16_passed_only_when_somebody_passed():
    """KOZ-16: ``passed`` names a player who passed; the window closing after a used
    free ability (nothing left to use) is ``window_closed``, never ``passed``."""
    s = table("trutni", "pozorki", units={0: [("tr_grub", "cap1")]},
              buildings={1: ["pz_watchtower"]})
    s, _ = play(s, act("skip", 0))
    passed, ev = play(s, act("pass", 1))
    assert [e for e in ev if e["type"] in ("passed", "window_closed")] == [
        {"type": "passed", "player": 1, "rule": "KOZ-16"},
        {"type": "window_closed", "player": 1, "rule": "KOZ-16"}]
    used, ev = play(s, act("use_ability", 1, source="1.pz_watchtower", ability="volley",
                           target="0.tr_grub"))
    assert "passed" not in types(ev) and "window_closed" in types(ev)


def test_koz_16a_no_moved_event_when_the_retreat_attack_killed_every_mover():
    """KOZ-16a: the retreat attack kills the only mover: no ``moved`` with no units."""
    s = table("pozorki", "trutni", units={0: [("pz_archer", "0.gold_mine")],
                                          1: [("tr_wild_gilen", "0.gold_mine")]})
    s, _ = play(s, act("move", 0, **{"from": "0.gold_mine", "to": "0.crystal_mine"},
                       units=["0.pz_archer"]))
    s, ev = play(s, act("strike", 1, unit="1.tr_wild_gilen", targets=["0.pz_archer"]))
    assert "0.pz_archer" not in s["units"]
    assert "moved" not in types(ev) and "combat_ended" in types(ev)


def test_koz_27_damage_reports_what_was_dealt_not_overkill():
    """KOZ-27/KOZ-29: 2 damage on a 1-life creature is reported (and kept) as 1."""
    s = table("pozorki", "trutni", units={0: [("pz_archer", "0.gold_mine")],
                                          1: [("tr_wild_gilen", "0.gold_mine")]})
    s, _ = play(s, act("move", 0, **{"from": "0.gold_mine", "to": "0.crystal_mine"},
                       units=["0.pz_archer"]))
    s, ev = play(s, act("strike", 1, unit="1.tr_wild_gilen", targets=["0.pz_archer"]))
    assert {"type": "damage", "target": "0.pz_archer", "amount": 1,
            "source": "1.tr_wild_gilen"} in ev


def test_koz_8_a_reveal_names_a_card_face_in_face_and_use_ability_names_abilities():
    """KOZ-8 (chance reveal) and KOZ-16 (abilities): ``reveal.face`` is a card id, every
    ``card`` field an instance id; ``use_ability.ability`` is always a name."""
    state, _ = GAME.new_game([{"race": "pozorki"}, {"race": "trutni"}], {"chance": "table"},
                             seed=1)
    outcomes = GAME.legal_actions(state)
    assert outcomes and all("card" not in o and "." not in o["face"] for o in outcomes)
    s = table("kozly", "pozorki", buildings={0: ["kz_altar"]},
              units={0: [("kz_healer", "0.gold_mine", {"damage": 1})],
                     1: [("pz_archer", "0.gold_mine")]})
    names = {a["ability"] for a in listed(s, 0, "use_ability")}
    assert names and all(not n.isdigit() for n in names)


def test_koz_18a_a_state_with_squad_magic_but_no_squad_is_refused():
    """RULING KOZ-18a: squad magic cannot outlive its squad, so a state holding such
    magic is refused with the field path (as a forged or stale state would be)."""
    from service.games.errors import InvalidState
    s = table("pozorki", "trutni", units={0: [("pz_archer", "0.gold_mine")]},
              lasting={0: [("pz_banner", {"sector": "0.gold_mine", "seat": 0}, None)]})
    del s["units"]["0.pz_archer"]
    s["players"][0]["discard"].append("0.pz_archer")
    with pytest.raises(InvalidState) as exc:
        GAME.validate_state(s)
    assert "state.lasting.0.pz_banner" in exc.value.errors
