"""The rules step ``kozyablo/3`` → ``kozyablo/4`` (issue 25): ``migrations.from_3`` and
``migrations.action_from_3`` (service/games/kozyablo/migrations.py).

The ``kozyablo/3`` states here are either what that engine wrote (the fixtures,
``tests/compat/fixtures/kozyablo/kozyablo-3.json``, made from commit 1727368) or a
``kozyablo/4`` position put back the way ``kozyablo/3`` kept it (``as_3``), each case
citing the clause that changed.  ``tests/compat/test_old_rules.py`` plays every fixture
state on and replays every fixture game.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from service.games.errors import RulesChanged
from service.games.kozyablo import GAME
from service.games.kozyablo.migrations import action_from_3, from_3
from service.games.versions import NotUpgradable
from tests.compat.make_fixtures import FIXTURES
from tests.compat.test_old_rules import fixture
from tests.kozyablo.builder import act, table
from tests.kozyablo.test_rulings_25 import play, three


def as_3(state: dict[Any, Any], **changes) -> dict[Any, Any]:
    """``state`` with the ``kozyablo/3`` id and no ``combat.turn`` (which 3 never wrote)."""
    old = copy.deepcopy(state)
    old["rules_version"] = "kozyablo/3"
    if old["combat"] is not None:
        old["combat"].pop("turn", None)
    old.update(changes)
    return old


def step_4():
    """The step this file is about (later steps follow it when a state is upgraded)."""
    return next(v for v in GAME.rules_versions if v.id == "kozyablo/4")


def upgraded(old: dict[Any, Any]) -> dict[Any, Any]:
    """``old`` carried over by every step since ``kozyablo/3`` (``kozyablo/5`` changes none
    of these positions)."""
    before = copy.deepcopy(old)
    state, note = GAME.upgrade_state(old)
    assert old == before, "the migration changed its input"
    steps = GAME.rules_versions[[v.id for v in GAME.rules_versions].index("kozyablo/4"):]
    assert note == {"from": "kozyablo/3", "to": GAME.rules_version,
                    "clauses": list(dict.fromkeys(c for v in steps for c in v.clauses))}
    GAME.validate_state(state)
    assert state["pending"] == GAME.compute_pending(state)
    return state


def plays_on(state: dict[Any, Any], seed: int = 0) -> dict[Any, Any]:
    rng = random.Random(seed)
    for _ in range(2000):
        if GAME.score(state)["finished"]:
            return state
        seat = state["pending"][0]["player"]
        state, _ = GAME.apply(state, rng.choice(GAME.legal_actions(state, seat)))
    raise AssertionError("did not end")


def test_the_step_declares_its_clauses_and_keeps_the_card_set():
    """The step names RULINGS KOZ-25a, 41a, 45a, 53a, the capital events (KOZ-48, KOZ-49)
    and ``per_turn`` (KOZ-16); the reference set's hash is the one ``kozyablo/3`` wrote."""
    step = step_4()
    assert (step.id, step.version) == ("kozyablo/4", "4.0.0")
    assert step.clauses == ["KOZ-25a", "KOZ-41a", "KOZ-45a", "KOZ-53a", "KOZ-48", "KOZ-49",
                            "KOZ-16"]
    old = fixture("kozyablo", "kozyablo/3")["games"][0]["states"][-1]["state"]
    assert old["card_set"] == table()["card_set"]
    assert (FIXTURES / "kozyablo" / "kozyablo-3.json").exists()


# ------------------------------------------------------------------ KOZ-53a
def test_koz_53a_a_game_in_progress_with_a_player_out_plays_on():
    """RULING KOZ-53a: ``kozyablo/3`` left an out player's capital under their control;
    carried over, its control follows KOZ-11: the player whose creatures stand there."""
    s = three(units={0: [("pz_archer", "cap1")]}, active=2)
    s, _ = play(s, act("skip", 2))  # player 1's capital is captured: player 1 is out
    assert s["players"][1]["out"] and s["result"] is None
    old = as_3(s)
    old["sectors"]["1.tr_capital"]["controller"] = 1  # as kozyablo/3 kept it
    state = upgraded(old)
    assert state["sectors"]["1.tr_capital"]["controller"] == 0  # the Archer stands there
    assert state["pending"] == s["pending"]
    plays_on(state)


def test_koz_53a_a_fallen_capital_nobody_stands_in_is_nobodys():
    """RULING KOZ-53a with KOZ-11: nobody's creatures there, so nobody controls it."""
    s = three(units={0: [("pz_archer", "cap1")]}, active=2)
    s, _ = play(s, act("skip", 2))
    old = as_3(s)
    old["sectors"]["1.tr_capital"]["controller"] = 1
    old["units"]["0.pz_archer"]["sector"] = "0.gold_mine"
    old["sectors"]["0.gold_mine"]["controller"] = 0
    state = upgraded(old)
    assert state["sectors"]["1.tr_capital"]["controller"] is None
    plays_on(state, 1)


def test_koz_53a_a_finished_fall_marks_the_last_loser_out_and_keeps_the_winners():
    """RULING KOZ-53a: the last state of a ``kozyablo/3`` game won by a capture (the
    fixture) has its loser marked out as ``kozyablo/4`` does: their cards to their
    discard, nothing of theirs controlled, their capital's control by KOZ-11."""
    games = fixture("kozyablo", "kozyablo/3")["games"]
    old = next(g["states"][-1]["state"] for g in games
               if (g["states"][-1]["state"]["result"] or {}).get("reason") == "capture")
    loser = next(s for s in range(len(old["players"])) if s not in old["result"]["winners"])
    assert not old["players"][loser]["out"]  # kozyablo/3 did not mark the last to fall
    theirs = sorted([*(c for c, d in old["units"].items() if d["owner"] == loser),
                     *(a for d in old["units"].values() if d["owner"] == loser
                       for a in d["artifacts"]),
                     *(c for c, d in old["buildings"].items() if d["owner"] == loser),
                     *(c for c, d in old["lasting"].items() if d["owner"] == loser)])
    assert theirs, "the loser had cards on the table"
    state = upgraded(old)
    assert state["result"] == old["result"] and state["pending"] == []
    assert state["players"][loser]["out"]
    assert not any(d["owner"] == loser for pool in ("units", "buildings", "lasting")
                   for d in state[pool].values())
    assert sorted(set(state["players"][loser]["discard"])
                  - set(old["players"][loser]["discard"])) == theirs
    assert all(sec["controller"] != loser for sec in state["sectors"].values())
    capital = old["players"][loser]["capital"]
    standing = {d["owner"] for d in state["units"].values() if d["sector"] == capital}
    assert state["sectors"][capital]["controller"] == (standing.pop() if len(standing) == 1
                                                       else None)
    rows = {r["player"]: r for r in GAME.score(state)["scores"]}
    assert rows[loser]["breakdown"]["capital_life"] == 0  # like an earlier loser's
    assert GAME.score(state)["winners"] == old["result"]["winners"]


def test_a_finished_game_not_won_by_a_fall_is_only_relabelled():
    games = fixture("kozyablo", "kozyablo/3")["games"]
    old = next(g["states"][-1]["state"] for g in games
               if (g["states"][-1]["state"]["result"] or {}).get("reason") == "turn_limit")
    state = upgraded(old)
    assert {**state, "rules_version": "kozyablo/3"} == old


# ------------------------------------------------------------------ KOZ-41a, KOZ-25a
def declarer_brought_out() -> dict[Any, Any]:
    """Player 0 declared an attack beside their Sneak (Shadow): ``kozyablo/3`` brought it
    out of the shadow then, and its state says only that it is not hidden."""
    s = table("pozorki", "kozly", units={0: [("pz_sneak", "0.gold_mine", {"shadow": True}),
                                             ("pz_archer", "0.gold_mine")],
                                         1: [("kz_guard", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    old = as_3(s)
    old["units"]["0.pz_sneak"]["shadow"] = False
    old["units"]["0.pz_sneak"].pop("shadow_number", None)
    return old


def test_koz_41a_a_combat_where_the_declarer_may_have_left_the_shadow_is_refused():
    """RULING KOZ-41a (with KOZ-25a): whether the declarer's creature was hidden before the
    attack is not in a ``kozyablo/3`` state, and ``kozyablo/4`` would have left it hidden
    until its turn: no exact carry-over, so the state is refused naming the clauses."""
    old = declarer_brought_out()
    with pytest.raises(NotUpgradable) as exc:
        from_3(old)
    assert exc.value.clauses == ["KOZ-41a", "KOZ-25a"]
    with pytest.raises(RulesChanged) as refused:
        GAME.upgrade_state(old)
    assert refused.value.clauses == ["KOZ-41a", "KOZ-25a"]


def test_koz_41a_the_refusal_over_http_names_the_clauses(client):
    answer = client.post("/v1/games/kozyablo/legal-actions", json={"state": declarer_brought_out()},
                         headers={"Accept-Language": "ru"})
    assert answer.status_code == 400
    problem = answer.get_json()
    assert problem["type"] == "/problems/rules-changed"
    assert problem["changed_clauses"] == ["KOZ-41a", "KOZ-25a"]
    assert problem["from_version"] == "kozyablo/3" and problem["to_version"] == GAME.rules_version
    assert [c["clause"] for c in problem["changes"]] == ["KOZ-25a", "KOZ-25a", "KOZ-41a",
                                                         "KOZ-41a", "KOZ-25a"]  # and kozyablo/5's
    message = problem["errors"]["state.rules_version"][0]
    assert "KOZ-41a" in message and "тен" in message  # in Russian


def fast_bumblebee_against_a_hidden_sneak() -> tuple[dict[Any, Any], dict[Any, Any]]:
    """Player 1's Bumblebee (speed 6) and Wild Gilen attack where player 0's Sneak (5)
    hides beside their Archer (4): the position under ``kozyablo/4`` and as
    ``kozyablo/3`` kept it (the Sneak was no part of the combat)."""
    s = table("pozorki", "trutni", active=1,
              units={0: [("pz_sneak", "0.gold_mine", {"shadow": True}),
                         ("pz_archer", "0.gold_mine")],
                     1: [("tr_bumblebee", "0.gold_mine"), ("tr_wild_gilen", "0.gold_mine")]})
    s, _ = play(s, act("attack", 1, sector="0.gold_mine"))
    assert s["combat"]["turn"] == ["1.tr_bumblebee"]
    old = as_3(s)
    old["combat"]["waiting"].remove("0.pz_sneak")
    return s, old


def test_koz_41a_a_hidden_creature_slower_than_the_striker_now_waits_its_turn():
    """RULING KOZ-41a: a hidden creature slower than the striker whose turn it is would
    still be waiting under ``kozyablo/4``: carried over, it waits, and ``combat.turn``
    names whose turn it is; the position is the one ``kozyablo/4`` reaches itself."""
    s, old = fast_bumblebee_against_a_hidden_sneak()
    state = upgraded(old)
    assert "0.pz_sneak" in state["combat"]["waiting"]
    assert state["combat"]["turn"] == ["1.tr_bumblebee"]
    assert {**state, "rules_version": s["rules_version"]} == s
    state, _ = play(state, act("hold", 1, unit="1.tr_bumblebee"))  # KOZ-25a: optional now
    assert state["combat"]["turn"] == ["0.pz_sneak"]
    plays_on(state, 2)


def test_koz_41a_a_hidden_creature_whose_turn_has_passed_stayed_hidden():
    """RULING KOZ-41a: a hidden creature as fast as the striker or faster had its turn
    already under ``kozyablo/4``; carried over, it stayed hidden (no part of the combat)."""
    s = table("pozorki", "kozly", active=1,
              units={0: [("pz_sneak", "0.gold_mine", {"shadow": True}),
                         ("pz_archer", "0.gold_mine")],
                     1: [("kz_guard", "0.gold_mine")]})
    s, _ = play(s, act("attack", 1, sector="0.gold_mine"))
    s, _ = play(s, act("hold", 0, unit="0.pz_sneak"))  # what kozyablo/4 would have asked
    assert s["combat"]["turn"] == ["0.pz_archer"]
    old = as_3(s)
    state = upgraded(old)
    assert "0.pz_sneak" not in state["combat"]["waiting"] and state["units"]["0.pz_sneak"]["shadow"]
    assert state["combat"]["turn"] == ["0.pz_archer"]
    assert [a["type"] for a in GAME.legal_actions(state, 0)][-1] == "hold"  # KOZ-25a
    plays_on(state, 3)


def test_koz_41a_a_strike_being_resolved_names_no_turn():
    """``combat.turn`` only while a strike decision waits and nothing is being resolved:
    a carried-over state in a reaction (evade, defend) or a second strike has none."""
    s = table("zhloby", "kozly", units={0: [("zh_bouncer", "0.gold_mine")],
                                        1: [("kz_hero", "0.gold_mine"),
                                            ("kz_healer", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    s, _ = play(s, act("strike", 0, unit="0.zh_bouncer", targets=["1.kz_healer"]))
    assert s["pending"] == [{"player": 1, "decision": "defend"}]
    state = upgraded(as_3(s))
    assert state["combat"].get("turn") is None and state["pending"] == s["pending"]
    plays_on(state, 4)


# ------------------------------------------------------------------ replays
def test_a_replayed_attack_holds_for_a_hidden_creature_kozyablo_3_left_out():
    """A replay recorded under ``kozyablo/3``: the Sneak was no part of the Bumblebee's
    attack, so when its turn comes under ``kozyablo/4`` it holds (stays hidden), and the
    recorded action (here player 0's next turn: the Archer died, the Gilen had no target
    and the combat ended) is applied after."""
    s, _ = fast_bumblebee_against_a_hidden_sneak()
    s, _ = play(s, act("strike", 1, unit="1.tr_bumblebee", targets=["0.pz_archer"]))
    assert s["combat"]["turn"] == ["0.pz_sneak"]
    recorded = act("skip", 0)
    assert action_from_3(s, recorded) == [act("hold", 0, unit="0.pz_sneak"), recorded]
    s, events = play(s, act("hold", 0, unit="0.pz_sneak"))
    assert {"type": "stayed_hidden", "unit": "0.pz_sneak", "rule": "KOZ-41a"} in events
    assert s["combat"] is None and s["pending"] == [{"player": 0, "decision": "action"}]
    assert action_from_3(s, recorded) == [recorded]
    play(s, recorded)


def test_a_replayed_strike_declines_a_defender_decision_kozyablo_3_never_asked():
    """RULING KOZ-45a: a hidden Guard may now take the strike; ``kozyablo/3`` asked no
    one, so a replay declines before its next recorded action."""
    s = table("zhloby", "kozly", units={0: [("zh_bouncer", "0.gold_mine")],
                                        1: [("kz_guard", "0.gold_mine", {"shadow": True}),
                                            ("kz_healer", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    s, _ = play(s, act("strike", 0, unit="0.zh_bouncer", targets=["1.kz_healer"]))
    assert s["pending"] == [{"player": 1, "decision": "defend"}]
    recorded = act("strike", 1, unit="1.kz_healer", targets=["0.zh_bouncer"])
    assert action_from_3(s, recorded) == [act("decline", 1), recorded]
    assert action_from_3(s, act("decline", 1)) == [act("decline", 1)]


def test_a_replayed_attack_beside_the_declarers_hidden_creature_is_refused():
    """RULING KOZ-41a: ``kozyablo/3`` brought the declarer's hidden creatures out when
    the attack was declared (and let them be struck before their turn): a replay cannot
    reproduce it, and says so naming the clause."""
    s = table("pozorki", "kozly", units={0: [("pz_sneak", "0.gold_mine", {"shadow": True})],
                                         1: [("kz_guard", "0.gold_mine")]})
    with pytest.raises(NotUpgradable) as exc:
        action_from_3(s, act("attack", 0, sector="0.gold_mine"))
    assert exc.value.clauses == ["KOZ-41a"]
    assert action_from_3(s, act("attack", 0, sector="1.gold_mine")) == [
        act("attack", 0, sector="1.gold_mine")]


def test_a_replayed_attack_on_a_fallen_capital_with_nobody_to_fight_is_refused():
    """RULING KOZ-53a: ``kozyablo/3`` still saw player 1's fallen capital as an opposing
    card; ``kozyablo/4`` sees an ordinary sector held by player 0's Archer, with nothing
    to attack there: a replay says so naming the clause.  Player 2 still may attack it."""
    s = three(units={0: [("pz_archer", "cap1")]}, active=2)
    s, _ = play(s, act("skip", 2))
    assert s["players"][1]["out"] and s["pending"] == [{"player": 0, "decision": "action"}]
    with pytest.raises(NotUpgradable) as exc:
        action_from_3(s, act("attack", 0, sector="1.tr_capital"))
    assert exc.value.clauses == ["KOZ-53a"]
    assert action_from_3(s, act("attack", 2, sector="1.tr_capital")) == [
        act("attack", 2, sector="1.tr_capital")]
