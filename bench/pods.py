"""Pairings of ``POST /v1/tournaments/events``: repeat opponents and time.

``python -m bench.pods [--seeds 5] [--rounds 6] [--write]`` plays simulated
events (``service.tournaments.events``: each round's tables as ``next_round``
proposes them, each table's places drawn at random from ``--seeds`` seeds) and
prints one JSON summary; ``--write`` also writes ``bench/results/pods.{json,md}``.

``repeats``  for 16, 23 and 37 players (tables of 4, and duels), over
             ``--rounds`` rounds: pair meetings beyond a pair's first (a pair at
             one table in three rounds: 2), per seed, beside ``lower_bound``,
             the least any seating can have (``lower_bound`` says why); where a
             seed found more, ``round_least``: the least each round allowed after
             the same earlier rounds (``least_repeats``, every seating tried),
             summed over the rounds; and ``points_apart``: the mean, over the
             tables of rounds 2 on, of the points between a table's first and
             last player (how far apart in the standings the tables are)
``timing``   256 players after 5 rounds (so the 6th round is proposed): the
             model (``events.evaluate``: standings and the next round) and the
             whole request (``POST /v1/tournaments/events`` through the Flask
             test client: the body checked, every table's hand placements read),
             median and worst of 5 runs, in seconds
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

from service.tournaments.events import (
    Round,
    Settings,
    Table,
    TournamentEvent,
    evaluate,
    met_before,
    standings,
    table_plan,
)

RESULTS = Path(__file__).resolve().parent / "results"
COUNTS = (16, 23, 37)
TIMED = 256


def lower_bound(players: int, settings: Settings, rounds: int) -> int:
    """The fewest repeats any seating of ``rounds`` rounds can have, by counting.

    Every round seats the plan ``table_plan`` gives.  (1) A player at the
    smallest table of each round meets at least ``Σ (smallest - 1)`` opponents
    in all, among ``players - 1`` others: at least ``Σ (smallest - 1) -
    (players - 1)`` of those meetings are repeats, and each repeat is a pair,
    counted by both its players: half the sum over players.  (2) The rounds hold
    ``Σ C(size, 2)`` pair meetings among ``C(players, 2)`` pairs: at least the
    difference are repeats.  The bound is the larger.

    >>> lower_bound(16, Settings(table_size=4), 6)   # 18 meetings each among 15 others
    24
    >>> lower_bound(23, Settings(table_size=4), 6), lower_bound(5, Settings(table_size=4), 2)
    (0, 10)
    """
    sizes, _ = table_plan(players, settings)
    least = rounds * (min(sizes) - 1)
    per_player = -(-players * max(0, least - (players - 1)) // 2)
    meetings = rounds * sum(comb(s, 2) for s in sizes)
    return max(per_player, meetings - comb(players, 2))


def least_repeats(players: list[str], sizes: list[int], met: dict[frozenset[Any], list[int]],
                  ceiling: int) -> int:
    """The fewest repeats of any seating of ``players`` at tables of ``sizes``
    (at most ``ceiling``: a seating known to have it), by trying every seating:
    branch and bound, the player left with the fewest players left not met
    taking a table with each choice of mates; a branch stops when its repeats so far, plus those the players left
    must still have (each needs ``smallest - 1`` mates: those beyond the players
    left they have not met are repeats, each counted by both of its players),
    reach the best found.

    >>> least_repeats(list("abcdef"), [3, 3], {frozenset("ab"): [1], frozenset("cd"): [1]}, 2)
    0
    >>> least_repeats(list("abcdef"), [3, 3], {frozenset(p): [1] for p in ("ab", "ac", "bc")}, 9)
    1
    """
    index = {p: i for i, p in enumerate(players)}
    count = [[0] * len(players) for _ in players]
    for pair, rounds in met.items():
        a, b = (index.get(p) for p in pair)
        if a is not None and b is not None:
            count[a][b] = count[b][a] = len(rounds)
    fresh = [sum(1 << j for j in range(len(players)) if j != i and not count[i][j])
             for i in range(len(players))]
    best = [ceiling]

    def forced(left: list[int], sizes: list[int]) -> int:
        mask = sum(1 << p for p in left)
        need = min(sizes) - 1
        return (sum(max(0, need - (fresh[p] & mask).bit_count()) for p in left) + 1) // 2

    def seat(left: list[int], sizes: list[int], cost: int) -> None:
        if not left:
            best[0] = min(best[0], cost)
            return
        if cost + forced(left, sizes) >= best[0]:
            return
        mask = sum(1 << p for p in left)
        first = min(left, key=lambda p: (fresh[p] & mask).bit_count())
        rest = [p for p in left if p != first]
        for size in sorted(set(sizes)):
            others = list(sizes)
            others.remove(size)
            for mates in combinations(rest, size - 1):
                more = cost + sum(count[first][m] for m in mates) + sum(
                    count[a][b] for a, b in combinations(mates, 2))
                if more < best[0]:
                    seat([p for p in rest if p not in mates], others, more)

    seat(list(range(len(players))), list(sizes), 0)
    return best[0]


def round_least(event: TournamentEvent) -> int:
    """The least repeats each round allowed after the same earlier rounds, summed."""
    total = 0
    for r, rnd in enumerate(event.rounds):
        met = met_before(event.rounds[:r])
        found = sum(len(met.get(frozenset(pair), ())) for t in rnd.tables
                    for pair in combinations(t.players, 2))
        if found:
            total += least_repeats([p for t in rnd.tables for p in t.players],
                                   [len(t.players) for t in rnd.tables], met, found)
    return total


def play(players: int, settings: Settings, rounds: int, seed: int) -> TournamentEvent:
    """An event of ``rounds`` rounds as ``next_round`` seats it, places at random."""
    rng = random.Random(seed)
    event = TournamentEvent([f"p{i:03d}" for i in range(players)], settings, [])
    for _ in range(rounds):
        _, proposal = evaluate(event)
        assert proposal is not None
        tables = []
        for seated in proposal.tables:
            places = list(range(1, len(seated) + 1))
            rng.shuffle(places)
            tables.append(Table(seated, [places]))
        event.rounds.append(Round(tables, [b["player"] for b in proposal.byes]))
    return event


def repeats(event: TournamentEvent) -> int:
    return sum(len(r) - 1 for r in met_before(event.rounds).values())


def timing(runs: int = 5) -> dict[Any, Any]:
    """The model and the whole request for 256 players after 5 rounds."""
    from service.app import create_app

    event = play(TIMED, Settings(table_size=4), 5, seed=1)
    model = []
    for _ in range(runs):
        start = time.perf_counter()
        evaluate(event)
        model.append(time.perf_counter() - start)
    body = {"players": list(event.players), "settings": {"table_size": 4}, "rounds": [
        {"tables": [{"players": t.players, "placements": [
            [p for p, place in zip(t.players, t.games[0], strict=True) if place == k]
            for k in sorted(set(t.games[0]))]} for t in rnd.tables]} for rnd in event.rounds]}
    client = create_app({"TESTING": True}).test_client()
    request = []
    for _ in range(runs):
        start = time.perf_counter()
        answer = client.post("/v1/tournaments/events", json=body)
        request.append(time.perf_counter() - start)
        assert answer.status_code == 200, answer.json
    return {"players": TIMED, "rounds_played": 5,
            "model_s": {"median": round(statistics.median(model), 3), "max": round(max(model), 3)},
            "request_s": {"median": round(statistics.median(request), 3),
                          "max": round(max(request), 3)}}


def points_apart(event: TournamentEvent) -> float:
    """The mean, over the tables of rounds 2 on, of the points between the table's
    first and last player in the standings before that round."""
    gaps = []
    for r in range(1, len(event.rounds)):
        points = {line.player: line.points
                  for line in standings(TournamentEvent(event.players, event.settings, event.rounds[:r]))}
        gaps += [max(points[p] for p in t.players) - min(points[p] for p in t.players)
                 for t in event.rounds[r].tables]
    return round(float(statistics.mean(gaps)), 2) if gaps else 0.0


def measure(seeds: int, rounds: int) -> dict[Any, Any]:
    out: dict[Any, Any] = {"rounds": rounds, "seeds": seeds, "repeats": []}
    for size in (4, 2):
        settings = Settings(table_size=size)
        for players in COUNTS:
            bound = lower_bound(players, settings, rounds)
            events = [play(players, settings, rounds, seed) for seed in range(seeds)]
            found = [repeats(e) for e in events]
            out["repeats"].append({
                "players": players, "table_size": size,
                "tables": table_plan(players, settings)[0], "lower_bound": bound,
                "found": found, "mean": round(statistics.mean(found), 2),
                "round_least": [round_least(e) if f > bound else None
                                for e, f in zip(events, found, strict=True)],
                "points_apart": round(statistics.mean(points_apart(e) for e in events), 2)})
    out["timing"] = timing()
    return out


def markdown(result: dict[Any, Any]) -> str:
    lines = ["# Event pairings (`python -m bench.pods`)", "",
             f"Repeat opponents over {result['rounds']} rounds, places drawn at random "
             f"({result['seeds']} seeds); the lower bound is `bench.pods.lower_bound`'s. "
             "Round by round: where a seed found more than the bound, the least each round "
             "allowed after the same earlier rounds (every seating tried), summed; – where "
             "the bound was reached. Points apart: the mean points between a table's first "
             "and last player, rounds 2 on.", "",
             "| players | table size | tables | lower bound | found (per seed) | mean "
             "| least round by round | points apart |",
             "|---:|---:|---|---:|---|---:|---|---:|"]
    for row in result["repeats"]:
        least = ", ".join("–" if x is None else str(x) for x in row["round_least"])
        lines.append(f"| {row['players']} | {row['table_size']} | "
                     f"{' '.join(map(str, row['tables']))} | {row['lower_bound']} | "
                     f"{', '.join(map(str, row['found']))} | {row['mean']} | {least} | "
                     f"{row['points_apart']} |")
    t = result["timing"]
    lines += ["", f"{t['players']} players after {t['rounds_played']} rounds (the next round "
              f"proposed): the model {t['model_s']['median']} s median "
              f"({t['model_s']['max']} s worst), the whole request "
              f"{t['request_s']['median']} s median ({t['request_s']['max']} s worst).", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.pods", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--write", action="store_true", help="write bench/results/pods.*")
    args = ap.parse_args(argv)
    result = measure(args.seeds, args.rounds)
    print(json.dumps(result))
    if args.write:
        (RESULTS / "pods.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        (RESULTS / "pods.md").write_text(markdown(result), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
