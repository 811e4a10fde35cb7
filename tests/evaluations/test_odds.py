"""Exact Tremble battle odds (TRE-20 re-rolls, TRE-24 holding) against hand
computations, an independent brute-force solver and a large Monte Carlo."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from service.evaluations.stats import wilson
from service.games.tremble.evaluations import odds

DICE = {t: 6 - abs(t - 7) for t in range(2, 13)}


def test_tre20_two_fighters_hand_case():
    """TRE-20: 16+2d6 against 17+2d6, ties re-roll from base strength.

    By hand: P(first ahead) = 435/1296, P(tie) = 140/1296; re-rolls form a
    geometric series: 435/1296 / (1 - 140/1296) = 435/1156.
    """
    assert odds.battle_odds([16, 17]) == [Fraction(435, 1156), Fraction(721, 1156)]
    assert odds.battle_odds([17, 16]) == [Fraction(721, 1156), Fraction(435, 1156)]


def test_tre20_equal_strengths_are_even_and_out_of_reach_never_wins():
    assert odds.battle_odds([9, 9]) == [Fraction(1, 2)] * 2
    assert odds.battle_odds([7, 7, 7, 7, 7]) == [Fraction(1, 5)] * 5
    # 11 below the strongest: 2+11 > 12, can neither win nor tie
    assert odds.battle_odds([20, 9]) == [Fraction(1), Fraction(0)]
    # exactly 10 below: only a three-way 12-vs-2-vs-2 tie, then the same again
    assert odds.battle_odds([20, 20, 10]) == [Fraction(1, 2), Fraction(1, 2), Fraction(0)]


def test_tre20_three_fighters_only_those_tied_for_highest_reroll():
    """TRE-20 RULING: with three fighters, a tie below the top does not matter,
    and two tied at the top fight on alone — the third has lost."""
    a, b, c = odds.battle_odds([10, 10, 0])
    # c (10 below) can only tie: never wins; a and b split the rest evenly
    assert (a, b, c) == (Fraction(1, 2), Fraction(1, 2), Fraction(0))
    # hand case: 0, 0, 9 — the strong one loses only if both weak ones beat it;
    # a re-roll between the weak two is a fair coin
    got = odds.battle_odds([0, 0, 9])
    assert got[0] == got[1] and sum(got) == 1
    assert got[2] == _brute_force([0, 0, 9])[2]


def _brute_force(strengths: list[int]) -> list[Fraction]:
    """Independent exact solver: enumerate every roll, then solve the re-roll
    equations subset by subset (largest first is not needed: a subset only
    re-rolls into itself or smaller subsets)."""
    n = len(strengths)
    memo: dict[tuple[int, ...], dict[int, Fraction]] = {}

    def solve(members: tuple[int, ...]) -> dict[int, Fraction]:
        if members in memo:
            return memo[members]
        if len(members) == 1:
            memo[members] = {members[0]: Fraction(1)}
            return memo[members]
        wins = {i: Fraction(0) for i in members}
        again = Fraction(0)
        total = Fraction(36) ** len(members)
        for rolls in itertools.product(range(2, 13), repeat=len(members)):
            w = Fraction(1)
            for r in rolls:
                w *= DICE[r]
            w /= total
            totals = [strengths[i] + r for i, r in zip(members, rolls)]
            top = max(totals)
            tied = tuple(i for i, t in zip(members, totals) if t == top)
            if len(tied) == 1:
                wins[tied[0]] += w
            elif tied == members:
                again += w
            else:
                for i, p in solve(tied).items():
                    wins[i] += w * p
        memo[members] = {i: p / (1 - again) for i, p in wins.items()}
        return memo[members]

    got = solve(tuple(range(n)))
    return [got[i] for i in range(n)]


@pytest.mark.parametrize("strengths", [[0, 0, 9], [12, 14, 15], [5, 8, 8], [20, 11, 15],
                                       [10, 12, 13, 15], [7, 7, 9, 3]])
def test_tre20_matches_brute_force_enumeration(strengths):
    assert odds.battle_odds(strengths) == _brute_force(strengths)


def test_tre20_five_fighters_sum_to_one_and_are_monotone():
    got = odds.battle_odds([10, 12, 13, 15, 16])
    assert sum(got) == 1
    assert got == sorted(got)


def _simulate(strengths: list[int], rng: random.Random) -> int:
    fighters = list(range(len(strengths)))
    while True:
        totals = {i: strengths[i] + rng.randint(1, 6) + rng.randint(1, 6) for i in fighters}
        top = max(totals.values())
        fighters = [i for i in fighters if totals[i] == top]
        if len(fighters) == 1:
            return fighters[0]


@pytest.mark.parametrize("strengths", [[16, 17], [12, 14, 15, 15]])
def test_tre20_exact_odds_within_monte_carlo_interval(strengths):
    """TRE-20: a 60,000-battle simulation of the rule as written agrees with
    the exact odds (each inside the simulation's 99.9% Wilson interval)."""
    rng = random.Random(20)
    n = 60_000
    wins = [0] * len(strengths)
    for _ in range(n):
        wins[_simulate(strengths, rng)] += 1
    for p, w in zip(odds.battle_odds(strengths), wins):
        lo, hi = wilson(w, n, z=3.29)
        assert lo <= p <= hi, (p, w / n, lo, hi)


def test_tre24_holding_against_an_army():
    """TRE-24: strength + 2d6 >= army holds (equal is enough); the army does not roll."""
    assert odds.hold_probability(14, 20) == Fraction(26, 36)  # needs 6+
    assert odds.hold_probability(18, 20) == 1  # needs 2+
    assert odds.hold_probability(8, 20) == Fraction(1, 36)  # needs 12
    assert odds.hold_probability(7, 20) == 0  # needs 13
    assert odds.hold_probability(10, 17) == Fraction(21, 36)  # needs exactly 7+: 7 holds


def test_totals_distribution():
    dist = odds.totals_distribution(16)
    assert sum(dist.values()) == 1
    assert dist[23] == Fraction(1, 6) and dist[18] == Fraction(1, 36) and min(dist) == 18


def test_refuses_bad_fighter_counts():
    with pytest.raises(ValueError):
        odds.battle_odds([])
    with pytest.raises(ValueError):
        odds.battle_odds([1] * 6)
