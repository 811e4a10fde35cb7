"""Seating one round's tables: as few repeat opponents as the search finds, then
players of similar standing together (``seat``); duels with no rematch (``pair``,
the Swiss's pairing, tried first for duels).

**The rule** (lexicographic, as the duel Swiss, which never pairs a rematch while
a pairing without one exists): of two seatings, the better has

1. fewer **repeats**: pairs seated together again, each counted once per earlier
   meeting (``events.met_before``);
2. at equal repeats, the smaller **spread**: the sum over the tables of the
   squared distances of their players' points to the table's mean points
   (players on equal points are interchangeable).

**The search** (deterministic: no clock, no randomness; the same request gives
the same tables):

1. the players, best standing first, fill the tables top-down (``sizes`` in order);
2. **descent**: while some move lowers (repeats, spread), each player in a repeat
   makes the best such move that takes them from their table: a **swap** with a
   player of another table (swaps alone first), or a **rotation** of three
   players of three tables (the first to the second's table, the second to the
   third's, the third to the first's);
3. **tabu search** when repeats remain: ``TABU_STEPS`` steps of the best swap of a
   player in a repeat, even one that keeps or adds repeats (the players swapped
   may not go back for ``TENURE`` steps); the best seating met is kept;
4. **polish**: the players away from their top-down table swap while a swap
   lowers (repeats, spread); then the descent (swaps and rotations) once more.

``settled`` is the truth of "no swap and no rotation lowers the repeats": the last
descent ended because no move did (not because ``BUDGET`` ran out).

>>> from fractions import Fraction as F
>>> met = {frozenset("ab"): [1], frozenset("cd"): [1]}
>>> s = seat(list("abcd"), [2, 2], met, dict.fromkeys("abcd", F(0)))
>>> s.tables, s.settled
([['b', 'c'], ['a', 'd']], True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

#: move evaluations before the search stops where it is (bounds the time: no clock is
#: read, so the answer never depends on the machine's speed); the polish may use a
#: quarter of it, and the last descent a quarter more
BUDGET = 160_000
#: steps of the tabu search (each: the best swap of a player in a repeat)
TABU_STEPS = 300
#: steps a player swapped away may not return to the table it left
TENURE = 4


def pair(order: list[str], met: set[frozenset[str]], budget: list[int]
         ) -> list[tuple[str, str]] | None:
    """Duels of ``order`` (best standing first) with no rematch, top-down: the first
    player meets the highest one not met yet, backtracking when the rest cannot be
    paired; ``None`` when no such pairing is found within ``budget[0]`` steps (shared
    by the calls that pass the same list).

    >>> pair(list("abcd"), {frozenset("ab")}, [100])
    [('a', 'c'), ('b', 'd')]
    """
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if frozenset((first, other)) in met:
            continue
        tail = pair(rest[:i] + rest[i + 1:], met, budget)
        if tail is not None:
            return [(first, other), *tail]
    return None


@dataclass
class Seating:
    """The tables (each in standing order) and whether the search settled."""

    tables: list[list[str]]
    #: no swap of two players and no rotation of three lowers the repeats
    settled: bool


def seat(order: Sequence[str], sizes: Sequence[int], met: Mapping[frozenset[str], Sequence[int]],
         points: Mapping[str, Fraction], budget: int | None = None) -> Seating:
    """Seat ``order`` (best standing first) at tables of ``sizes`` (module docstring),
    within ``budget`` move evaluations (default ``BUDGET``)."""
    budget = BUDGET if budget is None else budget
    search = _Search(order, sizes, met, points)
    settled = True
    if search.repeats():
        search.descend(budget, rotations=False)
        if search.repeats():
            search.descend(budget)
        if search.repeats():
            search.tabu(budget)
        search.polish(min(budget, search.evaluations + budget // 4))
        settled = search.descend(budget + budget // 4)
    return Seating([[order[p] for p in sorted(m)] for m in search.members], settled)


class _Search:
    """The seating being improved: players are indices in standing order."""

    def __init__(self, order: Sequence[str], sizes: Sequence[int],
                 met: Mapping[frozenset[str], Sequence[int]], points: Mapping[str, Fraction]) -> None:
        n = len(order)
        index = {p: i for i, p in enumerate(order)}
        #: met[p][x]: earlier meetings of p and x (only pairs that met)
        self.met: list[dict[int, int]] = [{} for _ in range(n)]
        for pair, rounds in met.items():
            both = [index.get(p) for p in pair]
            if len(both) == 2 and None not in both and rounds:
                a, b = both
                self.met[a][b] = self.met[b][a] = len(rounds)  # type: ignore[index]
        scale = lcm(*(points[p].denominator for p in order)) if order else 1
        self.value = [int(points[p] * scale) for p in order]
        self.size = list(sizes)
        self.unit = lcm(*sizes) if sizes else 1
        self.members: list[list[int]] = []
        self.where = [0] * n
        for t, size in enumerate(sizes):
            start = sum(len(m) for m in self.members)
            self.members.append(list(range(start, start + size)))
            for p in self.members[t]:
                self.where[p] = t
        #: conn[p][t]: p's earlier meetings with the players at table t
        self.conn = [[0] * len(sizes) for _ in range(n)]
        for p in range(n):
            for x, count in self.met[p].items():
                self.conn[x][self.where[p]] += count
        self.total = [sum(self.value[p] for p in m) for m in self.members]
        self.squares = [sum(self.value[p] ** 2 for p in m) for m in self.members]
        self.spread = [self._spread(t, self.total[t], self.squares[t]) for t in range(len(sizes))]
        self.evaluations = 0

    # ----------------------------------------------------------------- costs and moves
    def _spread(self, t: int, total: int, squares: int) -> int:
        """The table's spread × ``unit`` (an integer: k Σv² − (Σv)² = k² × variance)."""
        k = self.size[t]
        return (self.unit // k) * (k * squares - total * total)

    def _change(self, t: int, out: int, into: int) -> int:
        """The change of table ``t``'s spread when ``into`` takes ``out``'s seat."""
        v, w = self.value[out], self.value[into]
        return self._spread(t, self.total[t] - v + w, self.squares[t] - v * v + w * w) \
            - self.spread[t]

    def repeats(self) -> int:
        return sum(self.conn[p][self.where[p]] for p in range(len(self.where))) // 2

    def _move(self, p: int, to: int) -> None:
        was = self.where[p]
        for x, count in self.met[p].items():
            self.conn[x][was] -= count
            self.conn[x][to] += count
        self.members[was].remove(p)
        self.members[to].append(p)
        self.where[p] = to
        for t, sign in ((was, -1), (to, 1)):
            self.total[t] += sign * self.value[p]
            self.squares[t] += sign * self.value[p] ** 2
            self.spread[t] = self._spread(t, self.total[t], self.squares[t])

    def best_move(self, p: int, rotations: bool = True
                  ) -> tuple[tuple[int, int], list[tuple[int, int]]] | None:
        """The move taking ``p`` from its table that lowers (repeats, spread) most:
        its (change of repeats, change of spread) and each mover's new table."""
        met, conn, where = self.met, self.conn, self.where
        a = where[p]
        best: tuple[tuple[int, int], list[tuple[int, int]]] | None = None
        leave = conn[p][a]
        for b, at_b in enumerate(self.members):
            if b == a:
                continue
            gain = conn[p][b] - leave  # p's change at b, before the one leaving b
            for q in at_b:
                base = gain - met[p].get(q, 0) - conn[q][b]
                self.evaluations += 1
                dr = base + conn[q][a] - met[q].get(p, 0)
                if dr <= 0:
                    key = (dr, self._change(a, p, q) + self._change(b, q, p))
                    if key < (0, 0) and (best is None or key < best[0]):
                        best = (key, [(p, b), (q, a)])
                if not rotations:
                    continue
                for c, at_c in enumerate(self.members):
                    if c == a or c == b:
                        continue
                    base_q = base + conn[q][c]
                    for r in at_c:
                        self.evaluations += 1
                        dr = base_q - met[q].get(r, 0) - conn[r][c] + conn[r][a] \
                            - met[r].get(p, 0)
                        if dr < 0 and (best is None or dr <= best[0][0]):
                            key = (dr, self._change(a, p, r) + self._change(b, q, p)
                                   + self._change(c, r, q))
                            if best is None or key < best[0]:
                                best = (key, [(p, b), (q, c), (r, a)])
        return best

    # -------------------------------------------------------------------- the search
    def descend(self, budget: int, rotations: bool = True) -> bool:
        """Make each player-in-a-repeat's best move while one lowers (repeats, spread);
        ``True`` when a whole pass made no move (so none lowers the repeats), ``False``
        when the budget ran out first."""
        while True:
            moved = False
            for p in range(len(self.where)):
                if self.conn[p][self.where[p]] == 0:
                    continue
                if self.evaluations > budget:
                    return False
                found = self.best_move(p, rotations)
                if found is not None:
                    for who, to in found[1]:
                        self._move(who, to)
                    moved = True
            if not moved:
                return True

    def tabu(self, budget: int) -> None:
        """``TABU_STEPS`` best swaps of a player in a repeat, whatever they do to the
        repeats (a swapped player returns to the table they left within ``TENURE``
        steps only if that reaches fewer repeats than ever, or no other swap is
        left); back to the best seating met."""
        met, conn, where, members = self.met, self.conn, self.where, self.members
        current = self.repeats()
        best_key = (current, sum(self.spread))
        best = [list(m) for m in members]
        banned: dict[tuple[int, int], int] = {}
        for step in range(1, TABU_STEPS + 1):
            if current == 0 or self.evaluations > budget:
                break
            choice: tuple[bool, int, int, int, int] | None = None
            for p in range(len(where)):
                a = where[p]
                leave = conn[p][a]
                if leave == 0:
                    continue
                for b, at_b in enumerate(members):
                    if b == a:
                        continue
                    gain = conn[p][b] - leave
                    for q in at_b:
                        self.evaluations += 1
                        dr = gain - met[p].get(q, 0) - conn[q][b] + conn[q][a] - met[q].get(p, 0)
                        held = (banned.get((p, b), 0) >= step or banned.get((q, a), 0) >= step) \
                            and current + dr >= best_key[0]
                        if choice is not None and (held, dr) > choice[:2]:
                            continue
                        # a fixed scramble breaks ties, so that the steps do not cycle
                        key = (held, dr,
                               (p * 40503 + q * 9973 + step * 65599) * 2654435761 % 65521, p, q)
                        if choice is None or key < choice:
                            choice = key
            if choice is None:
                break
            _, dr, _, p, q = choice
            a, b = where[p], where[q]
            self._move(p, b)
            self._move(q, a)
            banned[(p, a)] = banned[(q, b)] = step + TENURE
            current += dr
            if (current, sum(self.spread)) < best_key:
                best_key, best = (current, sum(self.spread)), [list(m) for m in members]
        for t, players in enumerate(best):
            for p in players:
                if where[p] != t:
                    self._move(p, t)

    def polish(self, budget: int) -> None:
        """Swaps of players away from their top-down table that lower (repeats,
        spread), while any does."""
        home = [t for t, size in enumerate(self.size) for _ in range(size)]
        while self.evaluations <= budget:
            moved = False
            for p in range(len(self.where)):
                if self.where[p] == home[p] or self.evaluations > budget:
                    continue
                found = self.best_move(p, rotations=False)
                if found is not None:
                    for who, to in found[1]:
                        self._move(who, to)
                    moved = True
            if not moved:
                return
