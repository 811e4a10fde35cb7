"""Summary statistics for sampled evaluations: Wilson intervals, histograms.

>>> lo, hi = wilson(40, 100)
>>> round(lo, 4), round(hi, 4)
(0.3094, 0.498)
>>> wilson(0, 0)
(0.0, 1.0)
>>> histogram({3: 2, 5: 1, 9: 1}, bins=3)
{'edges': [3.0, 5.0, 7.0, 9.0], 'counts': [2, 1, 1]}
>>> summary({10: 3, 20: 1})["mean"]
12.5
"""

from __future__ import annotations

import math
from typing import Any

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def summary(counts: dict[float, int]) -> dict[str, Any]:
    """Mean, standard deviation and a 95% interval of the mean of a tally.

    Exactly rounded sums (``math.fsum``) over the values in order: the same
    tally gives the same figures whatever order it was merged in (chunks).

    >>> summary({3.1: 1, 0.1: 2}) == summary({0.1: 2, 3.1: 1})
    True
    """
    n = sum(counts.values())
    if n == 0:
        return {"n": 0, "mean": None, "stdev": None, "ci95": None, "min": None, "max": None}
    items = sorted(counts.items())
    mean = math.fsum(v * c for v, c in items) / n
    var = math.fsum(c * (v - mean) ** 2 for v, c in items) / (n - 1) if n > 1 else 0.0
    sd = math.sqrt(var)
    half = Z95 * sd / math.sqrt(n)
    return {"n": n, "mean": mean, "stdev": sd, "ci95": [mean - half, mean + half],
            "min": min(counts), "max": max(counts)}


def histogram(counts: dict[float, int], bins: int = 20) -> dict[str, Any]:
    """Equal-width bins over [min, max]: ``{"edges": [...], "counts": [...]}``.

    ``edges`` has one more entry than ``counts``; each bin is closed on the
    left, the last one on both sides.  Integer-valued tallies with few
    distinct values get one bin per value.
    """
    if not counts:
        return {"edges": [], "counts": []}
    lo, hi = min(counts), max(counts)
    if lo == hi:
        return {"edges": [float(lo), float(hi)], "counts": [sum(counts.values())]}
    if all(float(v).is_integer() for v in counts) and hi - lo + 1 <= bins:
        bins = int(hi - lo)
    width = (hi - lo) / bins
    out = [0] * bins
    for v, c in counts.items():
        out[min(int((v - lo) / width), bins - 1)] += c
    return {"edges": [lo + i * width for i in range(bins)] + [float(hi)], "counts": out}
