"""How big the suite's long randomized runs are: one variable, ``REFEREE_TEST_SIZE``.

Each long run (the in-process schemathesis run, the stateful machines, the random
and steered games, the seat-token property…) writes its full size once, at its
call of :func:`sized`.  ``REFEREE_TEST_SIZE`` scales them all:

* ``full`` (``.ci/run``): every run at its written size;
* ``quick`` (the default of ``make test``): every run at a quarter of it, never
  below the least the run needs to mean anything (its ``least``);
* a number in (0, 1]: that fraction (``REFEREE_TEST_SIZE=0.5 make test``).

Nothing is skipped at either size: every test runs, on fewer seeds or examples.  A
seeded run takes its seeds from the start of its list, so its quick run is the first
part of the full one (a failure seen in ``quick`` is seen in ``full`` too); a hypothesis
run draws fewer examples; the schemathesis coverage phase sends every fourth case.

>>> sized(40, fraction=0.25), sized(3, fraction=0.25), sized(3, least=2, fraction=0.25)
(10, 1, 2)
>>> sized(12, fraction=1.0)
12
"""

from __future__ import annotations

import math
import os

NAMED = {"full": 1.0, "quick": 0.25}
VARIABLE = "REFEREE_TEST_SIZE"


def _fraction(text: str) -> float:
    if text in NAMED:
        return NAMED[text]
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= 1:
        raise SystemExit(f"{VARIABLE}={text!r}: use full, quick or a number in (0, 1]")
    return value


#: the share of each long run's written size that this run plays
FRACTION = _fraction(os.environ.get(VARIABLE, "quick").strip().lower())
FULL = FRACTION == 1.0


def sized(full: int, least: int = 1, fraction: float | None = None) -> int:
    """``full`` scaled by :data:`FRACTION` (rounded up), at least ``least``."""
    share = FRACTION if fraction is None else fraction
    return max(least, min(full, math.ceil(full * share)))
