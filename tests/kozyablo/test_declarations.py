"""Each action type, effect and card type declared once: the declarations hold
together, and the refusal of a type the pending decision does not take keeps
its clause and text (``Kozyablo.wrong_decision``)."""

from __future__ import annotations

import pytest

from service.games.kozyablo import GAME
from service.games.kozyablo import card_schema as schema
from tests.kozyablo.builder import act, play, table

MAIN_TAKES = "play_card, draw, move, attack, use_ability, skip"


@pytest.mark.parametrize("action", [
    act("strike", 0, unit="0.pz_archer", targets=["1.tr_grub"]),
    act("keep", 0), act("decline", 0), act("lot", 0, first=0),
])
def test_koz_15_the_main_phase_names_what_it_takes(action):
    s = table(units={0: [("pz_archer", "0.gold_mine")]})
    assert GAME.check(s, action) == {
        "legal": False, "rule": "KOZ-15",
        "reason": f"{action['type']!r} is not possible now; the main phase takes: {MAIN_TAKES}"}


def test_koz_25_a_combat_names_what_it_waits_for():
    s = table(units={0: [("zh_brute", "0.gold_mine")], 1: [("tr_grub", "0.gold_mine")]},
              p0="zhloby")
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    assert s["phase"] == "combat"
    seat = s["pending"][0]["player"]
    verdict = GAME.check(s, act("move", seat, **{"from": "0.gold_mine", "to": "0.crystal_mine",
                                                 "units": ["0.zh_brute"]}))
    assert verdict["legal"] is False and verdict["rule"] == "KOZ-25"
    assert verdict["reason"] == "'move' is not possible now: the combat waits for strike or hold"


def test_every_action_type_answers_a_decision_and_main_actions_carry_out():
    from service.games.kozyablo.actions import MAIN
    answered = {t for types in GAME.decisions.values() for t in types}
    assert answered == set(GAME.actions)
    assert tuple(MAIN) == GAME.decisions["action"]
    for kind, declared in MAIN.items():
        assert declared.enforce is not None and declared.carry is not None, kind


def test_the_card_schema_reads_the_engines_vocabulary():
    from service.games.kozyablo.effects import EFFECTS, TARGETS
    from service.games.kozyablo.play import CARD_TYPES
    assert set(schema.EFFECT_KINDS) == {k for k, e in EFFECTS.items() if e.printed}
    assert all(set(e.targets) <= set(TARGETS) for e in EFFECTS.values())
    assert schema.CARD_TYPES == tuple(CARD_TYPES)
    # a choiceless target reaches creatures with no player choosing (triggers, KOZ-14)
    assert {"self", "ally_squad", "enemy_squad", "all_creatures", "player",
            "enemy_capital"} == set(schema.CHOICELESS_TARGETS)
