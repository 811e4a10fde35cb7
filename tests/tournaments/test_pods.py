"""``service.tournaments.pods``: the next round's tables, as the adversary checks them.

The rule is (repeats, spread), lexicographic (docs/tournaments.md, "The next round").
Random events (hypothesis) must never seat a dropped, a not-yet-joined or a doubled
player, must report a repeat exactly when the pair met before, and must always give
the same answer to the same request; on small rounds the search's repeats are checked
against every seating there is.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from fractions import Fraction as F
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.tournaments import pods
from service.tournaments.events import (
    Entry,
    Round,
    Settings,
    Table,
    TournamentEvent,
    evaluate,
    met_before,
    table_plan,
)
from tests.size import sized

REPO = Path(__file__).resolve().parents[2]

#: 23 players (0–22), 6 rounds of five tables of 4 and one of 3, no pair twice: the
#: least repeats of 23 players over 6 rounds is 0, attained (``bench.pods.lower_bound``)
TWENTY_THREE = [
    [[20, 6, 13, 18], [15, 11, 1, 2], [17, 3, 9, 22], [16, 10, 8, 14], [5, 4, 12, 0], [21, 7, 19]],
    [[4, 18, 1, 22], [9, 12, 2, 20], [3, 14, 7, 13], [15, 0, 21, 8], [6, 17, 16, 11], [19, 10, 5]],
    [[12, 19, 11, 14], [18, 5, 3, 15], [10, 9, 4, 13], [20, 7, 8, 17], [2, 0, 22, 6], [16, 1, 21]],
    [[16, 13, 0, 19], [8, 12, 1, 3], [9, 5, 7, 11], [10, 15, 20, 22], [2, 17, 18, 14], [4, 6, 21]],
    [[20, 14, 5, 21], [8, 19, 9, 18], [16, 2, 4, 3], [17, 1, 10, 0], [15, 7, 12, 6], [13, 11, 22]],
    [[17, 15, 19, 4], [14, 6, 1, 9], [20, 0, 3, 11], [13, 2, 8, 5], [21, 12, 10, 18], [16, 7, 22]],
]


def repeats_of(tables, met) -> int:
    return sum(len(met.get(frozenset(pair), ())) for t in tables for pair in combinations(t, 2))


def spread_of(tables, points) -> F:
    out = F(0)
    for t in tables:
        values = [points[p] for p in t]
        mean = sum(values, F(0)) / len(values)
        out += sum(((v - mean) ** 2 for v in values), F(0))
    return out


def seatings(players, sizes):
    """Every way to seat ``players`` at tables of ``sizes`` (tables unordered)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes)):
        left = list(sizes)
        left.remove(size)
        for mates in combinations(rest, size - 1):
            others = [p for p in rest if p not in mates]
            for tail in seatings(others, left):
                yield [[first, *mates], *tail]


def moves(tables):
    """Every swap of two players and rotation of three between tables."""
    seat = [(t, i) for t, table in enumerate(tables) for i in range(len(table))]
    for (ta, ia), (tb, ib) in combinations(seat, 2):
        if ta != tb:
            new = [list(t) for t in tables]
            new[ta][ia], new[tb][ib] = new[tb][ib], new[ta][ia]
            yield new
    for x, y, z in combinations(seat, 3):
        if len({x[0], y[0], z[0]}) == 3:
            for (a, ia), (b, ib), (c, ic) in ((x, y, z), (x, z, y)):
                new = [list(t) for t in tables]
                new[a][ia], new[b][ib], new[c][ic] = tables[c][ic], tables[a][ia], tables[b][ib]
                yield new


# ----------------------------------------------------------------------- random events
def random_event(rng: random.Random) -> TournamentEvent:
    """Up to 6 rounds of any history that could have happened: random tables of the
    sizes allowed (not only the proposed ones), byes, drops, late entries."""
    size = rng.choice([2, 3, 4, 4, 5, 6])
    allowed = Settings(table_size=size).sizes()
    chosen = tuple(sorted(rng.sample(allowed, rng.randint(1, len(allowed)))))
    event_settings = Settings(table_size=size, table_sizes=chosen if size in chosen and
                              rng.random() < 0.3 else ())
    count = rng.randint(2, 26)
    players: list[str | Entry] = [f"p{i:02d}" if rng.random() < 0.85
                                   else Entry(f"p{i:02d}", rng.randint(2, 5))
                                   for i in range(count)]
    joins = {p if isinstance(p, str) else p.name: 1 if isinstance(p, str) else p.joins
             for p in players}
    event = TournamentEvent(players, event_settings, [])
    gone: set[str] = set()
    for r in range(rng.randint(0, 6)):
        active = [p for p in joins if p not in gone and joins[p] <= r + 1]
        sizes, byes = table_plan(len(active), event_settings)
        if not sizes:
            break
        if rng.random() < 0.5:
            _, proposal = evaluate(event)
            assert proposal is not None
            seated = [list(t) for t in proposal.tables]
            bye = [b["player"] for b in proposal.byes]
        else:
            rng.shuffle(active)
            bye, rest = active[:byes], active[byes:]
            seated, start = [], 0
            for s in sizes:
                seated.append(rest[start:start + s])
                start += s
        tables = []
        for t in seated:
            places = [rng.randint(1, len(t)) for _ in t]
            places = [1 + sum(1 for o in places if o < mine) for mine in places]
            tables.append(Table(t, [places]))
        drops = [p for p in active if rng.random() < 0.08]
        gone |= set(drops)
        event.rounds.append(Round(tables, bye, drops))
    return event


def same_answer(event: TournamentEvent):
    lines, proposal = evaluate(event)
    return ([(line.player, line.rank) for line in lines],
            None if proposal is None else proposal.to_json())


@settings(max_examples=sized(60, least=20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_a_proposal_seats_each_eligible_player_once_and_names_every_repeat(seed):
    rng = random.Random(seed)
    event = random_event(rng)
    lines, proposal = evaluate(event)
    number = len(event.rounds) + 1
    joins = {line.player: line.joins for line in lines}
    eligible = {line.player for line in lines if not line.dropped and joins[line.player] <= number}
    sizes, bye_count = table_plan(len(eligible), event.settings)
    if proposal is None:
        assert not sizes
        return
    seated = [p for t in proposal.tables for p in t]
    byes = [b["player"] for b in proposal.byes]
    assert sorted(seated + byes) == sorted(eligible)  # nobody twice, dropped or not yet in
    assert sorted(map(len, proposal.tables), reverse=True) == sizes and len(byes) == bye_count
    met = met_before(event.rounds)
    assert proposal.repeats == repeats_of(proposal.tables, met)
    line = {s.player: s for s in lines}
    for players, why in zip(proposal.tables, proposal.explanations, strict=True):
        expected = [{"players": sorted(pair), "rounds": met[frozenset(pair)]}
                    for pair in combinations(players, 2) if frozenset(pair) in met]
        assert why["repeats"] == expected  # a repeat is named iff the pair met, with when
        assert ("met in round" in why["why"]) == bool(expected)
        assert why["ranks"] == [line[p].rank for p in players]
        together = why["places"][-1] - why["places"][0] + 1 == len(players)
        assert why["seated"] == ("standing" if together else "swapped")
    assert same_answer(event) == same_answer(event)
    shuffled = TournamentEvent(list(reversed(event.players)), event.settings, event.rounds)
    assert same_answer(shuffled) == same_answer(event)  # the players' order is no input


def random_history(rng: random.Random, order: list[str], sizes: list[int],
                   rounds: int) -> dict[frozenset[Any], list[int]]:
    """Who met whom in ``rounds`` random seatings of ``order`` at tables of ``sizes``."""
    met: dict[frozenset[Any], list[int]] = {}
    for r in range(rounds):
        rng.shuffle(order)
        start = 0
        for s in sizes:
            for pair in combinations(order[start:start + s], 2):
                met.setdefault(frozenset(pair), []).append(r + 1)
            start += s
    return met


@settings(max_examples=sized(40, least=20), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_no_swap_or_rotation_lowers_the_repeats_of_a_settled_round(seed):
    """What every explanation with a repeat says ("no swap of two players and no
    rotation of three ... lowers the repeats"), checked move by move."""
    rng = random.Random(seed)
    count = rng.randint(6, 14)
    order = [f"p{i}" for i in range(count)]
    sizes, _ = table_plan(count, Settings(table_size=4))
    met = random_history(rng, order, sizes, rounds=rng.randint(1, 5))
    points = {p: F(rng.randint(0, 8), 2) for p in order}
    order.sort(key=lambda p: (-points[p], p))
    seating = pods.seat(order, sizes, met, points)
    assert seating.settled
    found = repeats_of(seating.tables, met)
    assert all(repeats_of(new, met) >= found for new in moves(seating.tables))


@pytest.mark.parametrize("seed", range(30))
def test_a_small_round_has_the_least_repeats_of_all_seatings(seed):
    """Against every seating of 6–12 players: the search's repeats are the least."""
    rng = random.Random(1000 + seed)
    count = rng.randint(6, 12)
    order = [f"p{i}" for i in range(count)]
    sizes, _ = table_plan(count, Settings(table_size=rng.choice([3, 4])))
    met = random_history(rng, order, sizes, rounds=rng.randint(1, 4))
    points = {p: F(rng.randint(0, 6)) for p in order}
    order.sort(key=lambda p: (-points[p], p))
    seating = pods.seat(order, sizes, met, points)
    assert repeats_of(seating.tables, met) == min(repeats_of(t, met)
                                                  for t in seatings(order, sizes))


# ---------------------------------------------------------------------------- the rule
def test_with_no_repeat_possible_the_tables_are_the_standings_top_down():
    order = list("abcdefgh")
    points = {p: F(7 - i) for i, p in enumerate(order)}
    assert pods.seat(order, [4, 4], {}, points).tables == [list("abcd"), list("efgh")]
    # a and b met: the least spread without that repeat moves b down, c and d up
    met = {frozenset("ab"): [1]}
    assert pods.seat(order, [4, 4], met, points).tables == [list("acde"), list("bfgh")]


def test_repeats_weigh_before_standing_and_the_cheapest_repeat_is_kept():
    """a, b and c all met (b and c twice): two tables of four put two of them together;
    a and b cost one repeat, b and c two, so a and b sit together."""
    order = list("abcdefgh")
    points = {p: F(7 - i) for i, p in enumerate(order)}
    met = {frozenset("ab"): [1], frozenset("ac"): [1], frozenset("bc"): [1, 2]}
    seating = pods.seat(order, [4, 4], met, points)
    assert seating.tables == [list("abde"), list("cfgh")] and seating.settled
    assert repeats_of(seating.tables, met) == 1


def test_twenty_three_players_can_play_six_rounds_without_a_repeat():
    """The counting bound for 23 players over 6 rounds (0) is attained: no better
    bound exists, and every repeat the bench reports is the search's, not forced."""
    met: dict[frozenset[Any], int] = {}
    for rnd in TWENTY_THREE:
        assert sorted(len(t) for t in rnd) == [3, 4, 4, 4, 4, 4]
        assert sorted(p for t in rnd for p in t) == list(range(23))
        for t in rnd:
            for pair in combinations(t, 2):
                met[frozenset(pair)] = met.get(frozenset(pair), 0) + 1
    assert max(met.values()) == 1
    assert table_plan(23, Settings(table_size=4))[0] == [4, 4, 4, 4, 4, 3]


def test_a_search_out_of_budget_says_so_and_still_seats_everyone(monkeypatch):
    monkeypatch.setattr(pods, "BUDGET", 0)
    r1 = Round([Table(list("abcd"), [[1, 2, 3, 4]]), Table(list("efgh"), [[1, 2, 3, 4]])])
    _, proposal = evaluate(TournamentEvent(list("abcdefgh"), Settings(table_size=4), [r1]))
    assert proposal is not None and proposal.repeats > 0
    assert sorted(p for t in proposal.tables for p in t) == list("abcdefgh")
    assert all("stopped at its step limit" in why["why"] for why in proposal.explanations
               if why["repeats"])


def test_the_answer_does_not_depend_on_the_hash_seed():
    """Two server processes (gunicorn workers) must give one request one answer:
    names hash differently in each, and nothing may depend on that."""
    script = (
        "import json, random\n"
        "from tests.tournaments.test_pods import random_event, same_answer\n"
        "print(json.dumps([same_answer(random_event(random.Random(s))) for s in range(8)]))\n")
    out = [subprocess.run([sys.executable, "-c", script], cwd=REPO, check=True, text=True,
                          capture_output=True, env={**os.environ, "PYTHONHASHSEED": seed}
                          ).stdout for seed in ("1", "2")]
    assert json.loads(out[0]) == json.loads(out[1])
