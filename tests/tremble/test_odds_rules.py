"""The exact odds (``service.games.tremble.evaluations.odds``) follow the engine's own rules.

TRE-20 (2d6 each, the highest total wins, tied fighters re-roll from their
base strength, with 3+ only those tied for the highest) and TRE-24 (strength
+ 2d6 >= army) are implemented once, in ``service.games.tremble.battle``.
These tests would fail if the engine's rule changed and the odds did not:

* every roll of a contest is played through the engine's ``battle.roll`` on
  a battle state, and the exact chances so obtained (the all-tied rolls
  restart the same contest: a geometric series, solved as a division) must
  equal ``odds.battle_odds``;
* the hold odds must move when the engine's ``holds`` does.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any

import pytest

from service.games.draft import Draft
from service.games.tremble import battle
from service.games.tremble.evaluations import odds


def _battle_state(strengths: tuple[int, ...], fighters: tuple[int, ...]) -> dict[Any, Any]:
    """A battle at slot 1 waiting for the rolls of ``fighters`` (seats)."""
    sides = [{"player": p, "ships": [f"S-{p}"], "status": "fight", "strength": strengths[p]}
             for p in range(len(strengths))]
    return {"attacks": [{"slot": 1, "city": "C-X", "sides": sides, "resolved": False}],
            "battle": {"slot": 1, "step": "roll", "order": list(fighters), "next": 0,
                       "rolls": [{"player": p, "total": None} for p in fighters]}}


def _engine_odds(strengths: tuple[int, ...]) -> list[Fraction]:
    """Each fighter's chance to win, with every roll played by the engine."""

    @cache
    def contest(fighters: tuple[int, ...]) -> dict[int, Fraction]:
        won = {p: Fraction(0) for p in fighters}
        again = 0
        for dice in product(battle.ROLL_WEIGHTS, repeat=len(fighters)):
            weight = 1
            for total in dice:
                weight *= battle.ROLL_WEIGHTS[total]
            draft = Draft(_battle_state(strengths, fighters))
            for total in dice:
                battle.roll(draft, total, [])
            after = draft.root["battle"]
            if after["step"] == "lose":
                won[after["winner"]] += weight
                continue
            tied = tuple(r["player"] for r in after["rolls"])
            assert all(r["total"] is None for r in after["rolls"])
            if tied == fighters:
                again += weight
            else:
                for p, chance in contest(tied).items():
                    won[p] += weight * chance
        outcomes = sum(battle.ROLL_WEIGHTS.values()) ** len(fighters)
        return {p: w / (outcomes - again) for p, w in won.items()}

    found = contest(tuple(range(len(strengths))))
    return [found[p] for p in range(len(strengths))]


@pytest.mark.parametrize("strengths", [
    (16, 17), (9, 9), (5, 20), (5, 15), (10, 10, 10), (10, 12, 13), (20, 20, 10),
    (9, 9, 12), (0, 0, 9), (14, 3, 14)])
def test_exact_odds_equal_the_engine_played_roll_by_roll(strengths):
    assert odds.battle_odds(list(strengths)) == _engine_odds(strengths)


def test_the_odds_use_the_engines_dice_table():
    assert odds.DICE is battle.ROLL_WEIGHTS
    assert odds.totals_distribution(0) == {t: Fraction(w, 36)
                                          for t, w in battle.ROLL_WEIGHTS.items()}


@pytest.mark.parametrize("strength, army", [(14, 20), (10, 17), (8, 20), (7, 20), (18, 20),
                                            (0, 0), (30, 12)])
def test_hold_odds_count_the_engines_comparison(strength, army):
    holding = sum(w for dice, w in battle.ROLL_WEIGHTS.items()
                  if battle.holds(strength, dice, army))
    assert odds.hold_probability(strength, army) == Fraction(holding, 36)


def test_hold_odds_move_with_the_engines_rule(monkeypatch):
    before = odds.hold_probability(10, 17)  # needs 7 or more: 21/36
    monkeypatch.setattr(battle, "holds", lambda strength, dice, army: strength + dice > army)
    assert before == Fraction(21, 36)
    assert odds.hold_probability(10, 17) == Fraction(15, 36)  # now 8 or more
