"""The rules step ``kozyablo/4`` → ``kozyablo/5`` (issue 35): ``migrations.from_4`` and
``migrations.action_from_4`` (service/games/kozyablo/migrations.py).

The ``kozyablo/4`` states here are what that engine wrote (the fixtures,
``tests/compat/fixtures/kozyablo/kozyablo-4.json``, made from commit e368a22) or a
``kozyablo/5`` position that ``kozyablo/4`` reached the same way, relabelled (``as_4``),
each case citing the clause that changed.  ``tests/compat/test_old_rules.py`` plays every
fixture state on and replays every fixture game.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from service.games.errors import RulesChanged
from service.games.kozyablo import GAME
from service.games.kozyablo.migrations import action_from_4, from_4
from service.games.versions import NotUpgradable
from tests.compat.test_old_rules import fixture
from tests.kozyablo.builder import act, table
from tests.kozyablo.test_rules_4_migration import plays_on
from tests.kozyablo.test_rulings_25 import play
from tests.kozyablo.test_rulings_35 import KOZ_28_SCRIPT, spire_and_iron, swordsman_against_gilen


def as_4(state: dict[Any, Any]) -> dict[Any, Any]:
    old = copy.deepcopy(state)
    old["rules_version"] = "kozyablo/4"
    return old


def upgraded(old: dict[Any, Any]) -> dict[Any, Any]:
    before = copy.deepcopy(old)
    state, note = GAME.upgrade_state(old)
    assert old == before, "the migration changed its input"
    assert note == {"from": "kozyablo/4", "to": "kozyablo/5", "clauses": ["KOZ-25a", "KOZ-39a"]}
    GAME.validate_state(state)
    return state


def refused(old: dict[Any, Any]) -> list[str]:
    with pytest.raises(NotUpgradable) as exc:
        from_4(old)
    with pytest.raises(RulesChanged) as answer:
        GAME.upgrade_state(old)
    assert answer.value.clauses == exc.value.clauses
    return exc.value.clauses


def test_the_step_declares_koz_25a_and_koz_39a_and_keeps_the_card_set():
    """The step names RULINGS KOZ-25a (Two attacks) and KOZ-39a (Armor); the reference set
    and its hash are the ones ``kozyablo/4`` wrote."""
    step = GAME.rules_versions[-1]
    assert (step.id, step.version) == ("kozyablo/5", "5.0.0") == (GAME.rules_version,
                                                                  GAME.rules_semver)
    assert step.clauses == ["KOZ-25a", "KOZ-39a"]
    assert "kozyablo/4" in GAME.served_versions
    old = fixture("kozyablo", "kozyablo/4")["games"][0]["states"][-1]["state"]
    assert old["card_set"] == table()["card_set"]


# ------------------------------------------------------------------ KOZ-25a
def test_koz_25a_a_combat_after_a_two_attacks_creatures_turn_is_refused():
    """RULING KOZ-25a: under ``kozyablo/4`` a Swordsman that held its first strike lost
    the second and the Gilen's turn came: the position is the one ``kozyablo/5`` reaches
    by holding both.  Whether it held or struck is not in the state, and ``kozyablo/5``
    would have asked for the second strike: refused naming the clause."""
    s, _ = play(swordsman_against_gilen(), act("hold", 0, unit="0.pz_swordsman"))
    s, _ = play(s, act("hold", 0, unit="0.pz_swordsman"))
    assert s["pending"] == [{"player": 1, "decision": "strike"}]
    assert refused(as_4(s)) == ["KOZ-25a"]


def test_koz_25a_the_refusal_over_http_names_the_clause(client):
    s, _ = play(swordsman_against_gilen(), act("hold", 0, unit="0.pz_swordsman"))
    s, _ = play(s, act("hold", 0, unit="0.pz_swordsman"))
    answer = client.post("/v1/games/kozyablo/legal-actions", json={"state": as_4(s)},
                         headers={"Accept-Language": "ru"})
    assert answer.status_code == 400
    problem = answer.get_json()
    assert problem["type"] == "/problems/rules-changed"
    assert problem["changed_clauses"] == ["KOZ-25a"]
    assert problem["from_version"] == "kozyablo/4" and problem["to_version"] == "kozyablo/5"
    assert [c["clause"] for c in problem["changes"]] == ["KOZ-25a"]
    message = problem["errors"]["state.rules_version"][0]
    assert "KOZ-25a" in message and "Двумя атаками" in message  # in Russian


def test_koz_25a_a_two_attacks_creature_waiting_for_its_second_strike_is_upgraded():
    """RULING KOZ-25a: a first strike made and the second to come is the same position in
    both versions (each held or struck alike): carried over as it is, and plays on."""
    s, _ = play(swordsman_against_gilen(),
                act("strike", 0, unit="0.pz_swordsman", targets=["1.tr_wild_gilen"]))
    state = upgraded(as_4(s))
    assert state == s
    state, _ = play(state, act("hold", 0, unit="0.pz_swordsman"))
    plays_on(state, 5)


def test_koz_25a_a_combat_before_the_two_attacks_creatures_turn_is_upgraded():
    """RULING KOZ-25a: the Swordsman's turn has not come: nothing was lost."""
    s = swordsman_against_gilen()
    assert upgraded(as_4(s)) == s


# ------------------------------------------------------------------ KOZ-39a
def spire_at_scout(ally: str) -> dict[Any, Any]:
    """The Spire's strike at player 1's Scout waits for a Defender decision (``ally``)."""
    s = table("trutni", "kozly", active=1, buildings={0: ["tr_spire"]},
              units={1: [("kz_scout", "cap0"), (ally, "cap0")]})
    s, _ = play(s, act("attack", 1, sector=s["players"][0]["capital"]))
    s, _ = play(s, act("hold", 1, unit="1.kz_scout"))
    s, _ = play(s, act("strike", 0, unit="0.tr_spire", targets=["1.kz_scout"]))
    assert s["pending"] == [{"player": 1, "decision": "defend"}]
    return s


def test_koz_39a_a_buildings_strike_being_resolved_against_armor_is_refused():
    """RULING KOZ-39a: the Spire's strike waits for player 1 to let Old Billy (Armor 1)
    take it; ``kozyablo/4`` would deal him 1, ``kozyablo/5`` deals 2, and the decision
    was offered under the old amount: refused naming the clause."""
    assert refused(as_4(spire_at_scout("kz_hero"))) == ["KOZ-39a"]


def test_koz_39a_a_buildings_strike_that_meets_no_armor_is_upgraded():
    """RULING KOZ-39a: with a Guard (no Armor) as the Defender the amount is the same in
    both versions: carried over, and plays on."""
    s = spire_at_scout("kz_guard")
    assert upgraded(as_4(s)) == s
    plays_on(s, 6)


def test_the_kozyablo_4_fixtures_upgrade_unchanged_but_for_the_id():
    """No fixture game reached a changed clause: each state is carried over as it was."""
    for one in fixture("kozyablo", "kozyablo/4")["games"]:
        for entry in one["states"]:
            old = entry["state"]
            assert upgraded(old) == {**old, "rules_version": "kozyablo/5"}


# ------------------------------------------------------------------ replays
def test_koz_25a_a_replayed_hold_of_the_first_of_two_attacks_holds_the_second_too():
    """RULING KOZ-25a: ``kozyablo/4`` took both strikes with the first hold, so a recorded
    game goes on with the Gilen's strike; ``kozyablo/5`` asks the Swordsman again first,
    and the replay holds that second strike for it."""
    s, _ = play(swordsman_against_gilen(), act("hold", 0, unit="0.pz_swordsman"))
    recorded = act("strike", 1, unit="1.tr_wild_gilen", targets=["0.pz_swordsman"])
    second = act("hold", 0, unit="0.pz_swordsman")
    assert action_from_4(s, recorded) == [second, recorded]
    assert action_from_4(s, second) == [second]  # a recorded hold of it is its own
    s, _ = play(s, second)
    assert action_from_4(s, recorded) == [recorded]


def test_koz_39a_a_replayed_building_strike_at_armor_is_refused():
    """RULING KOZ-39a: the recorded game went on after the Spire dealt the Iron Zhlob 1;
    ``kozyablo/5`` deals it 2, so a replay cannot reproduce it and says so.  A creature's
    strike at Armor is replayed as it was."""
    s = spire_and_iron()
    s, _ = play(s, act("attack", 1, sector=s["players"][0]["capital"]))
    with pytest.raises(NotUpgradable) as exc:
        action_from_4(s, act("strike", 0, unit="0.tr_spire", targets=["1.zh_iron"]))
    assert exc.value.clauses == ["KOZ-39a"]
    assert action_from_4(s, act("hold", 0, unit="0.tr_spire")) == [act("hold", 0, unit="0.tr_spire")]


def test_koz_28_replayed_over_http_as_kozyablo_4_played_a_held_first_strike(client):
    """KOZ-28 with RULING KOZ-25a over HTTP: a game recorded under ``kozyablo/4`` where the
    Swordsman held its first strike (and so lost the second) and the Gilen then killed
    him.  Replayed naming ``kozyablo/4`` it ends the same way, the second strike held
    for it; replayed as a ``kozyablo/5`` game the Gilen's strike comes too early."""
    reveals = [{"type": "reveal", "player": "chance", "seat": seat, "face": card}
               for seat, cards in ((0, ("pz_archer", "pz_swordsman", "pz_spark", "pz_spark",
                                        "pz_rumor", "pz_haste")),
                                   (1, ("tr_bumblebee", "tr_wild_gilen", "tr_grub", "tr_grub",
                                        "tr_swarm", "tr_wings")))
               for card in cards]
    actions = [*reveals, *KOZ_28_SCRIPT,
               {"type": "hold", "player": 0, "unit": "0.pz_swordsman"},
               {"type": "strike", "player": 1, "unit": "1.tr_wild_gilen",
                "targets": ["0.pz_swordsman"]}]
    body = {"setup": {"players": [{"race": "pozorki"}, {"race": "trutni"}],
                      "options": {"chance": "table"}, "seed": 28}, "actions": actions}
    answer = client.post("/v1/games/kozyablo/replay", json={**body, "rules_version": "kozyablo/4"})
    assert answer.status_code == 200, answer.get_json()
    result = answer.get_json()
    assert result["rules_upgrade"]["from"] == "kozyablo/4"
    state = result["state"]
    assert "0.pz_swordsman" not in state["units"] and state["units"]["1.tr_wild_gilen"]["damage"] == 0
    held = [e for step in result["events"] for e in step["events"] if e["type"] == "strike_held"]
    assert held == [{"type": "strike_held", "unit": "0.pz_swordsman", "rule": "KOZ-25a"}] * 2
    as_today = client.post("/v1/games/kozyablo/replay", json=body)
    assert as_today.status_code == 422
    assert as_today.get_json()["rule"] == "KOZ-25"
