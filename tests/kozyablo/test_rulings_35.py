"""Issue 35 (rules ``kozyablo/5``): RULING KOZ-25a, each of Two attacks held on its own,
and RULING KOZ-39a, Armor against creatures only.  The step itself (what a
``kozyablo/4`` state or replay does now) is ``test_rules_5_migration.py``."""

from __future__ import annotations

from typing import Any

from service.games.kozyablo import GAME
from service.games.kozyablo.cards import Catalogue
from service.games.kozyablo.damage import strike_damage
from tests.kozyablo.builder import act, listed, table, types
from tests.kozyablo.test_http import Table
from tests.kozyablo.test_rulings_25 import play

HELD = {"type": "strike_held", "unit": "0.pz_swordsman", "rule": "KOZ-25a"}


def swordsman_against_gilen() -> dict[Any, Any]:
    """Player 0's Swordsman (Two attacks) attacks player 1's Wild Gilen: its turn."""
    s = table(units={0: [("pz_swordsman", "0.gold_mine")], 1: [("tr_wild_gilen", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    assert s["combat"]["turn"] == ["0.pz_swordsman"]
    return s


# ------------------------------------------------------------------ KOZ-25a
def test_koz_25a_holding_the_first_of_two_attacks_leaves_the_second():
    """RULING KOZ-25a with KOZ-32: the Swordsman holds its first strike; its second is
    still its own to make, and it strikes with it; then the Gilen's turn comes."""
    s, ev = play(swordsman_against_gilen(), act("hold", 0, unit="0.pz_swordsman"))
    assert HELD in ev
    assert s["pending"] == [{"player": 0, "decision": "strike"}]  # not the Gilen yet
    assert s["combat"]["current"] == "0.pz_swordsman" and s["combat"]["strikes_left"] == 1
    assert listed(s, 0, "strike") == [act("strike", 0, unit="0.pz_swordsman",
                                          targets=["1.tr_wild_gilen"])]
    assert listed(s, 0, "hold") == [act("hold", 0, unit="0.pz_swordsman")]
    assert GAME.legal_actions(s, 1) == []
    s, ev = play(s, act("strike", 0, unit="0.pz_swordsman", targets=["1.tr_wild_gilen"]))
    assert s["units"]["1.tr_wild_gilen"]["damage"] == 2  # one strike, the second
    assert s["pending"] == [{"player": 1, "decision": "strike"}]
    assert s["combat"]["turn"] == ["1.tr_wild_gilen"] and s["combat"]["current"] is None


def test_koz_25a_both_of_two_attacks_may_be_held():
    """RULING KOZ-25a: hold, then hold again: two public holds, no damage, and the
    Swordsman's turn is over."""
    s, first = play(swordsman_against_gilen(), act("hold", 0, unit="0.pz_swordsman"))
    s, second = play(s, act("hold", 0, unit="0.pz_swordsman"))
    assert HELD in first and HELD in second
    assert s["units"]["1.tr_wild_gilen"]["damage"] == 0
    assert s["pending"] == [{"player": 1, "decision": "strike"}]
    assert "0.pz_swordsman" not in s["combat"]["waiting"] and s["combat"]["current"] is None
    s, ev = play(s, act("hold", 1, unit="1.tr_wild_gilen"))
    assert "combat_ended" in types(ev)


def test_koz_25a_strike_then_hold_is_one_strike():
    """RULING KOZ-25a: strike with the first, hold the second: 2 damage, not 4."""
    s, _ = play(swordsman_against_gilen(),
                act("strike", 0, unit="0.pz_swordsman", targets=["1.tr_wild_gilen"]))
    s, ev = play(s, act("hold", 0, unit="0.pz_swordsman"))
    assert HELD in ev and s["units"]["1.tr_wild_gilen"]["damage"] == 2
    assert s["pending"] == [{"player": 1, "decision": "strike"}]


def test_koz_25a_a_two_attacks_creature_strikes_once_in_a_retreat_attack_held_or_not():
    """RULING KOZ-25a with KOZ-16a and KOZ-32: nobody declared a retreat attack, so the
    Swordsman has one strike there; holding it ends its turn."""
    s = table("trutni", "pozorki", units={0: [("tr_wild_gilen", "0.gold_mine")],
                                          1: [("pz_swordsman", "0.gold_mine")]})
    s, ev = play(s, act("move", 0, **{"from": "0.gold_mine", "to": "0.crystal_mine"},
                        units=["0.tr_wild_gilen"]))
    assert "retreat_attack" in types(ev)
    s, ev = play(s, act("hold", 1, unit="1.pz_swordsman"))
    assert {"type": "strike_held", "unit": "1.pz_swordsman", "rule": "KOZ-25a"} in ev
    assert s["combat"] is None and s["units"]["0.tr_wild_gilen"]["sector"] == "0.crystal_mine"


def test_koz_28_the_swordsman_may_hold_its_first_strike_and_still_make_the_second():
    """KOZ-28 with RULING KOZ-25a: the Bumblebee kills the Archer; the Swordsman holds
    its first strike, so the service asks player 0 again (not the Gilen), and its
    second strike deals 2 to the Gilen, who then strikes the Swordsman for 2 and kills
    him."""
    s = table("pozorki", "trutni", units={
        0: [("pz_archer", "0.gold_mine"), ("pz_swordsman", "0.gold_mine")],
        1: [("tr_bumblebee", "0.gold_mine"), ("tr_wild_gilen", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    s, _ = play(s, act("strike", 1, unit="1.tr_bumblebee", targets=["0.pz_archer"]))
    assert "0.pz_archer" not in s["units"]
    s, ev = play(s, act("hold", 0, unit="0.pz_swordsman"))
    assert HELD in ev and s["pending"] == [{"player": 0, "decision": "strike"}]
    s, _ = play(s, act("strike", 0, unit="0.pz_swordsman", targets=["1.tr_wild_gilen"]))
    assert s["units"]["1.tr_wild_gilen"]["damage"] == 2
    s, ev = play(s, act("strike", 1, unit="1.tr_wild_gilen", targets=["0.pz_swordsman"]))
    assert "0.pz_swordsman" not in s["units"] and "combat_ended" in types(ev)
    assert s["active"] == 1


def koz_28_table(client) -> Table:
    """The KOZ-28 position over HTTP (``test_http``'s table), the Bumblebee to strike."""
    t = Table(client, [{"race": "pozorki"}, {"race": "trutni"}])
    for card in ("pz_archer", "pz_swordsman", "pz_spark", "pz_spark", "pz_rumor", "pz_haste"):
        t.reveal(0, card)
    for card in ("tr_bumblebee", "tr_wild_gilen", "tr_grub", "tr_grub", "tr_swarm", "tr_wings"):
        t.reveal(1, card)
    for action in KOZ_28_SCRIPT:
        t.apply(action)
    return t


KOZ_28_SCRIPT = [
    {"type": "keep", "player": 0}, {"type": "keep", "player": 1},
    {"type": "play_card", "player": 0, "card": "0.pz_archer", "sector": "0.gold_mine"},
    {"type": "play_card", "player": 1, "card": "1.tr_bumblebee", "sector": "1.gold_mine"},
    {"type": "play_card", "player": 0, "card": "0.pz_swordsman", "sector": "0.gold_mine"},
    {"type": "play_card", "player": 1, "card": "1.tr_wild_gilen", "sector": "1.gold_mine"},
    {"type": "skip", "player": 0},
    {"type": "move", "player": 1, "from": "1.gold_mine", "to": "0.gold_mine",
     "units": ["1.tr_bumblebee", "1.tr_wild_gilen"]},
    {"type": "attack", "player": 0, "sector": "0.gold_mine"},
    {"type": "strike", "player": 1, "unit": "1.tr_bumblebee", "targets": ["0.pz_archer"]},
]


def test_koz_25a_over_http_the_swordsman_holds_its_first_strike_and_keeps_the_second(client):
    """RULING KOZ-25a in the KOZ-28 fight over HTTP: after the hold, the strike decision
    is still player 0's and lists the Swordsman's second strike and its hold."""
    t = koz_28_table(client)
    assert t.state["pending"] == [{"player": 0, "decision": "strike"}]
    events = t.apply({"type": "hold", "player": 0, "unit": "0.pz_swordsman"})
    assert events == [HELD]
    legal = t.legal()
    assert legal["pending"] == [{"player": 0, "decision": "strike"}]
    assert legal["actions"] == [{"type": "strike", "player": 0, "unit": "0.pz_swordsman",
                                 "targets": ["1.tr_wild_gilen"]},
                                {"type": "hold", "player": 0, "unit": "0.pz_swordsman"}]
    events = t.apply({"type": "strike", "player": 0, "unit": "0.pz_swordsman",
                      "targets": ["1.tr_wild_gilen"]})
    assert {"type": "damage", "target": "1.tr_wild_gilen", "amount": 2,
            "source": "0.pz_swordsman"} in events
    assert t.state["pending"] == [{"player": 1, "decision": "strike"}]
    view = client.post("/v1/games/kozyablo/view", json={"state": t.state, "player": 1})
    assert view.get_json()["view"]["combat"]["turn"] == ["1.tr_wild_gilen"]


# ------------------------------------------------------------------ KOZ-39a
def spire_and_iron() -> dict[Any, Any]:
    """Player 0's (trutni) Stinger Spire (a building: attack 2, speed 4) in their capital,
    where player 1's Iron Zhlob (Armor 1, attack 3, speed 1) stands; player 1 to act."""
    return table("trutni", "zhloby", active=1, buildings={0: ["tr_spire"]},
                 units={1: [("zh_iron", "cap0")]})


def test_koz_39a_a_buildings_strike_in_a_declared_combat_is_not_reduced_by_armor():
    """RULING KOZ-39a: the Spire strikes the Iron Zhlob (Armor 1) for its whole 2; the
    Zhlob's own strike at the capital (Armor 2) is a creature's and is still reduced."""
    s = spire_and_iron()
    capital = s["players"][0]["capital"]
    s, _ = play(s, act("attack", 1, sector=capital))
    assert s["pending"] == [{"player": 0, "decision": "strike"}]  # the Spire, speed 4
    s, ev = play(s, act("strike", 0, unit="0.tr_spire", targets=["1.zh_iron"]))
    assert {"type": "damage", "target": "1.zh_iron", "amount": 2, "source": "0.tr_spire"} in ev
    s, ev = play(s, act("strike", 1, unit="1.zh_iron", targets=[capital]))
    assert {"type": "damage", "target": capital, "amount": 1, "source": "1.zh_iron"} in ev


def test_koz_39a_a_buildings_retreat_attack_is_not_reduced_by_armor():
    """RULING KOZ-39a with KOZ-16a: the Iron Zhlob leaves the capital; the Spire's retreat
    strike deals it 2, and it arrives with them."""
    s = spire_and_iron()
    s, ev = play(s, act("move", 1, **{"from": s["players"][0]["capital"], "to": "0.gold_mine"},
                        units=["1.zh_iron"]))
    assert "retreat_attack" in types(ev) and s["pending"] == [{"player": 0, "decision": "strike"}]
    s, ev = play(s, act("strike", 0, unit="0.tr_spire", targets=["1.zh_iron"]))
    assert {"type": "damage", "target": "1.zh_iron", "amount": 2, "source": "0.tr_spire"} in ev
    assert s["units"]["1.zh_iron"] == {**s["units"]["1.zh_iron"], "sector": "0.gold_mine",
                                       "damage": 2}


def test_koz_39a_a_defender_with_armor_takes_a_buildings_strike_whole():
    """RULING KOZ-39a with KOZ-45a: the damage is worked out against the Defender, and a
    building's strike meets no Armor there either: Old Billy (Armor 1) takes the
    Spire's 2 in the Scout's place."""
    s = table("trutni", "kozly", active=1, buildings={0: ["tr_spire"]},
              units={1: [("kz_scout", "cap0"), ("kz_hero", "cap0")]})
    s, _ = play(s, act("attack", 1, sector=s["players"][0]["capital"]))
    s, _ = play(s, act("hold", 1, unit="1.kz_scout"))  # speed 4: the declarer's first
    assert s["pending"] == [{"player": 0, "decision": "strike"}]  # the Spire, speed 4
    s, _ = play(s, act("strike", 0, unit="0.tr_spire", targets=["1.kz_scout"]))
    assert s["pending"] == [{"player": 1, "decision": "defend"}]
    s, ev = play(s, act("defend", 1, unit="1.kz_hero"))
    assert {"type": "damage", "target": "1.kz_hero", "amount": 2, "source": "0.tr_spire"} in ev


def test_koz_39a_a_building_with_armor_reduces_a_creatures_strike():
    """RULING KOZ-39a: a building's own Armor reduces creatures' strikes at it (the
    Fortified Barn, Armor 1, takes 2 of the Iron Zhlob's 3); a building striking
    another building would meet no Armor (the Spire at the Barn: 2)."""
    s = table("kozly", "zhloby", buildings={0: ["kz_barn"]}, units={1: [("zh_iron", "cap0")]})
    cat = Catalogue.of_state(s)
    barn = next(b for b in s["buildings"])
    assert strike_damage(s, cat, "1.zh_iron", barn) == 2
    t = table("kozly", "trutni", buildings={0: ["kz_barn"], 1: ["tr_spire"]})
    assert strike_damage(t, cat, "1.tr_spire", barn) == 2


def test_koz_39a_magic_events_and_abilities_are_not_reduced_by_armor():
    """RULING KOZ-39a: the Spark of Shame (magic, 2) and the Goat Altar's smite (a
    building's ability, 2) each deal the Iron Zhlob (Armor 1) 2; Extortion (an event,
    2) deals the capital (Armor 2) 2."""
    s = table("pozorki", "zhloby", hands={0: ["pz_spark"]}, units={1: [("zh_iron", "1.gold_mine")]})
    s, ev = play(s, act("play_card", 0, card="0.pz_spark", target="1.zh_iron"))
    assert {"type": "damage", "target": "1.zh_iron", "amount": 2, "source": "0.pz_spark"} in ev

    s = table("kozly", "zhloby", buildings={0: ["kz_altar"]}, units={1: [("zh_iron", "cap0")]})
    smite = act("use_ability", 0, source="0.kz_altar", ability="smite", target="1.zh_iron")
    assert smite in listed(s, 0, "use_ability")
    s, ev = play(s, smite)
    assert {"type": "damage", "target": "1.zh_iron", "amount": 2, "source": "0.kz_altar"} in ev

    s = table("zhloby", "kozly", hands={0: ["zh_taxes"]},
              control={"0.gold_mine": 0, "0.crystal_mine": 0})
    capital = s["players"][1]["capital"]
    s, ev = play(s, act("play_card", 0, card="0.zh_taxes"))
    assert {"type": "damage", "target": capital, "amount": 2, "source": "0.zh_taxes"} in ev


def test_koz_39a_over_http_the_spire_deals_the_iron_zhlob_2(client):
    """RULING KOZ-39a over HTTP: the Spire's strike in a declared combat, its damage
    event and the state both say 2."""
    s = spire_and_iron()
    base = "/v1/games/kozyablo"
    r = client.post(base + "/apply", json={"state": s, "action": act(
        "attack", 1, sector=s["players"][0]["capital"])})
    assert r.status_code == 200, r.get_json()
    r = client.post(base + "/apply", json={"state": r.get_json()["state"], "action": act(
        "strike", 0, unit="0.tr_spire", targets=["1.zh_iron"])})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert {"type": "damage", "target": "1.zh_iron", "amount": 2,
            "source": "0.tr_spire"} in body["events"]
    assert body["state"]["units"]["1.zh_iron"]["damage"] == 2
    assert body["state"]["rules_version"] == "kozyablo/5"
