"""Exact Tremble battle odds: 2d6 contests with re-rolls, as rationals.

TRE-19/TRE-20: every fighter adds 2d6 to their strength; the highest total
wins.  On a tie the tied fighters roll again from their *base* strength (the
earlier roll is forgotten); with three or more fighters only those tied for
the highest total re-roll, the others have lost (RULING).  TRE-24: a
searching fleet holds against an army when strength + 2d6 >= army strength.

The re-roll recursion is solved exactly, not by truncated iteration: for a
set S of fighters let W(T) be the number of the 36^|S| equally likely rolls
in which exactly the fighters T share the highest total.  Then

    P_S(i) = (W({i}) + sum over T, i in T, 1 < |T| < |S| of W(T) * P_T(i))
             / (36^|S| - W(S))

(the all-tied rolls W(S) start the same contest again, a geometric series
whose sum is the division).  Only strength differences matter and a fighter
more than 10 below the strongest can never win, so results are cached by the
tuple of clamped differences from the strongest; every contest of up to four
fighters is solved at import (``_prewarm``).

Every rule comes from the engine (``service.games.tremble.battle``): the 2d6
table ``ROLL_WEIGHTS``, who is at the top (``highest``: one wins, several
re-roll) and the hold comparison (``holds``); ``tests/tremble/test_odds_rules.py``
plays every roll through the engine's own battle and compares.

>>> battle_odds([16, 17])
[Fraction(435, 1156), Fraction(721, 1156)]
>>> battle_odds([10, 10, 10])
[Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)]
>>> battle_odds([5, 20])
[Fraction(0, 1), Fraction(1, 1)]
>>> hold_probability(14, 20)
Fraction(13, 18)
>>> totals_distribution(3)[10]
Fraction(1, 6)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from math import gcd, lcm

from service.games.tremble import battle as rules

#: the engine's 2d6 table (TRE-20): ways out of 36 of each total
DICE = rules.ROLL_WEIGHTS
_OUTCOMES = sum(DICE.values())
_LOW, _HIGH = min(DICE), max(DICE)
#: a fighter this far (or further) below the strongest can never win: the
#: strongest's lowest total beats the other's highest
_OUT_OF_REACH = _HIGH - _LOW + 1

MAX_FIGHTERS = 5


def battle_odds(strengths: Sequence[int]) -> list[Fraction]:
    """Each fighter's exact chance to win the battle (TRE-20), in input order.

    One fighter wins without a battle (TRE-18/TRE-19).
    """
    n = len(strengths)
    if not 1 <= n <= MAX_FIGHTERS:
        raise ValueError(f"1 to {MAX_FIGHTERS} fighters, not {n}")
    top = max(strengths)
    order = sorted(range(n), key=lambda i: -strengths[i])
    diffs = tuple(min(top - strengths[i], _OUT_OF_REACH) for i in order)
    nums, den = _solve(diffs)
    out = [Fraction(0)] * n
    for rank, i in enumerate(order):
        out[i] = Fraction(nums[rank], den)
    return out


def _rows(d: int) -> tuple[list[int], list[int]]:
    """For a fighter ``d`` below the strongest: per candidate highest total m
    (relative to the strongest's base, ``_LOW`` .. ``_HIGH``), the ways the
    fighter's dice tie m at the top, and the ways they fall below it — both
    judged by the engine's ``highest`` (TRE-20)."""
    at, below = [], []
    for m in range(_LOW, _HIGH + 1):
        outcome = {t: rules.highest([m, t - d]) for t in DICE}
        at.append(sum(w for t, w in DICE.items() if outcome[t] == [0, 1]))
        below.append(sum(w for t, w in DICE.items() if outcome[t] == [0]))
    return at, below


#: per difference d: ``_rows(d)`` (the ways to tie the top total m, and to
#: fall below it)
_AT_ROWS, _BELOW_ROWS = zip(*(_rows(d) for d in range(_OUT_OF_REACH)), strict=True)


@lru_cache(maxsize=8192)
def _solve(diffs: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """Win chances for fighters ``diffs`` below the strongest (sorted, first 0),
    as integer numerators over one common denominator."""
    n = len(diffs)
    if n == 1:
        return (1,), 1
    live = [i for i, d in enumerate(diffs) if d < _OUT_OF_REACH]
    if len(live) < n:  # fighters out of reach never win and never tie the top
        nums, den = _solve(tuple(diffs[i] for i in live))
        out = [0] * n
        for k, i in enumerate(live):
            out[i] = nums[k]
        return tuple(out), den
    # vectors over m, the highest total (relative to the strongest's base)
    # by_mask[T][m]: ways that exactly the fighters in T show the highest
    # total m, the others less; m runs over 2..12 (relative to the strongest's
    # base), since the strongest alone already shows at least 2
    by_mask: dict[int, list[int]] = {0: [1] * (_HIGH - _LOW + 1)}
    for i, d in enumerate(diffs):
        at = _AT_ROWS[d]
        below = _BELOW_ROWS[d]
        bit = 1 << i
        nxt: dict[int, list[int]] = {}
        for mask, vec in by_mask.items():
            v = [x * y for x, y in zip(vec, at, strict=True)]
            if any(v):
                nxt[mask | bit] = v
            v = [x * y for x, y in zip(vec, below, strict=True)]
            if any(v):
                nxt[mask] = v
        by_mask = nxt
    everyone = (1 << n) - 1
    singles = [0] * n
    shared: list[tuple[int, list[int], tuple[int, ...], int]] = []
    common = 1
    for mask, vec in by_mask.items():
        w = sum(vec)
        if not mask or mask == everyone or not w:
            continue
        members = [i for i in range(n) if mask >> i & 1]
        if len(members) == 1:
            singles[members[0]] += w
            continue
        low = diffs[members[0]]
        nums, den = _solve(tuple(diffs[i] - low for i in members))
        shared.append((w, members, nums, den))
        common = lcm(common, den)
    numer = [s * common for s in singles]
    for w, members, nums, den in shared:
        scale = w * (common // den)
        for k, i in enumerate(members):
            numer[i] += scale * nums[k]
    again = sum(by_mask.get(everyone, ()))
    denominator = (_OUTCOMES ** n - again) * common
    g = gcd(denominator, *numer)
    return tuple(x // g for x in numer), denominator // g


def totals_distribution(strength: int) -> dict[int, Fraction]:
    """The chance of each total ``strength + 2d6`` (TRE-20)."""
    return {strength + t: Fraction(w, _OUTCOMES) for t, w in DICE.items()}


def hold_probability(strength: int, army: int) -> Fraction:
    """TRE-24: the chance that the engine's ``holds(strength, 2d6, army)``."""
    return Fraction(sum(w for t, w in DICE.items() if rules.holds(strength, t, army)), _OUTCOMES)


def fraction_text(f: Fraction) -> str:
    """``"p/q"`` (``"1/1"`` and ``"0/1"`` included), the service's exact form."""
    return f"{f.numerator}/{f.denominator}"


def _prewarm(max_fighters: int = 4) -> None:
    """Solve every contest of up to ``max_fighters`` once, at import (363
    difference tuples, ~15 ms): every sub-contest of a five-fighter battle is
    then already in the cache, and a new five-fighter battle costs only its
    own top level."""
    from itertools import combinations_with_replacement

    for n in range(2, max_fighters + 1):
        for rest in combinations_with_replacement(range(_OUT_OF_REACH), n - 1):
            _solve((0,) + rest)


_prewarm()
