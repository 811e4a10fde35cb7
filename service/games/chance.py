"""Chance nodes and the seeded generator kept in the state.

Every random event (a deal, a reveal, a roll) is a *chance node*: the engine
reports ``pending = [{"player": "chance", "decision": ...}]`` and lists the
outcomes as ordinary actions with ``"player": "chance"`` and an exact
``"probability"`` (a ``"p/q"`` string).

* ``chance: server`` (default) — the engine resolves the node itself with the
  generator below, so the same seed and actions always give the same game.
* ``chance: table`` — the node stays pending; the client applies the outcome
  it saw at the table (the card that came up, the dice that were thrown).

Decks are kept as *unordered* multisets, so there is no hidden deck order to
protect and both modes draw from exactly the same distribution: a shuffled
deck's next card is uniform over what is left in it.

The generator is SplitMix64 over ``(seed, counter)``: stateless apart from a
counter in the state, portable (a client can re-implement it in a few lines)
and cheap enough to call per draw.

>>> rng = {"mode": "server", "seed": 7, "counter": 0}
>>> [draw_below(rng, 6) for _ in range(5)]
[3, 5, 5, 3, 5]
>>> rng["counter"]
5
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import TypeVar

from service.games.objects import JsonObject

T = TypeVar("T")

CHANCE = "chance"
"""The pseudo-player that owns chance nodes."""

_MASK = (1 << 64) - 1


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def draw_below(rng: JsonObject, n: int) -> int:
    """A uniform integer in ``[0, n)``; advances ``rng["counter"]`` (mutates).

    Exact: rejection sampling removes the modulo bias.
    """
    if n <= 0:
        raise ValueError("draw_below needs n > 0")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        counter = rng["counter"]
        rng["counter"] = counter + 1
        value = _splitmix64((rng["seed"] * 0x100000001B3 + counter) & _MASK)
        if value < limit:
            return value % n


def pick_weighted(rng: JsonObject, weighted: Sequence[tuple[T, int]]) -> T:
    """Pick one item of ``[(item, weight), ...]`` with probability weight/total."""
    total = sum(w for _, w in weighted)
    r = draw_below(rng, total)
    for item, weight in weighted:
        if r < weight:
            return item
        r -= weight
    raise AssertionError("unreachable")  # pragma: no cover


def with_probabilities(outcomes: Iterable[tuple[JsonObject, int]]) -> list[JsonObject]:
    """Outcome actions with their exact probability attached as ``"p/q"``."""
    outcomes = list(outcomes)
    total = sum(w for _, w in outcomes)
    listed = []
    for action, weight in outcomes:
        listed.append({**action, "probability": _fraction_text(Fraction(weight, total))})
    return listed


def _fraction_text(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}"


def count_weights(cards: Iterable[str],
                  face: Callable[[str], str] = lambda card: card) -> list[tuple[str, int]]:
    """Group a multiset of card ids by face: ``[(face, copies), ...]`` sorted.

    A face drawn from a deck with two copies is twice as likely; the outcome
    names the face, and the engine takes the first matching copy.
    """
    counts: dict[str, int] = {}
    for card in cards:
        key = face(card)
        counts[key] = counts.get(key, 0) + 1
    return sorted(counts.items())
