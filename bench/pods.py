"""Pairings of ``POST /v1/tournaments/events``: repeat opponents and time.

``python -m bench.pods [--seeds 5] [--rounds 6] [--write]`` plays simulated
events (``service.tournaments.events``: each round's tables as ``next_round``
proposes them, each table's places drawn at random from ``--seeds`` seeds) and
prints one JSON summary; ``--write`` also writes ``bench/results/pods.{json,md}``.

``repeats``  for 16, 23 and 37 players (tables of 4, and duels), over
             ``--rounds`` rounds: pair meetings beyond a pair's first (a pair at
             one table in three rounds: 2), per seed, beside ``lower_bound``,
             the least any seating can have (``lower_bound`` says why)
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
from math import comb
from pathlib import Path

from service.tournaments.events import (
    Event,
    Round,
    Settings,
    Table,
    evaluate,
    met_before,
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


def play(players: int, settings: Settings, rounds: int, seed: int) -> Event:
    """An event of ``rounds`` rounds as ``next_round`` seats it, places at random."""
    rng = random.Random(seed)
    event = Event([f"p{i:03d}" for i in range(players)], settings, [])
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


def repeats(event: Event) -> int:
    return sum(len(r) - 1 for r in met_before(event.rounds).values())


def timing(runs: int = 5) -> dict:
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


def measure(seeds: int, rounds: int) -> dict:
    out: dict = {"rounds": rounds, "seeds": seeds, "repeats": []}
    for size in (4, 2):
        settings = Settings(table_size=size)
        for players in COUNTS:
            found = [repeats(play(players, settings, rounds, seed)) for seed in range(seeds)]
            out["repeats"].append({
                "players": players, "table_size": size,
                "tables": table_plan(players, settings)[0],
                "lower_bound": lower_bound(players, settings, rounds),
                "found": found, "mean": round(statistics.mean(found), 2)})
    out["timing"] = timing()
    return out


def markdown(result: dict) -> str:
    lines = ["# Event pairings (`python -m bench.pods`)", "",
             f"Repeat opponents over {result['rounds']} rounds, places drawn at random "
             f"({result['seeds']} seeds); the lower bound is `bench.pods.lower_bound`'s.", "",
             "| players | table size | tables | lower bound | found (per seed) | mean |",
             "|---:|---:|---|---:|---|---:|"]
    for row in result["repeats"]:
        lines.append(f"| {row['players']} | {row['table_size']} | "
                     f"{' '.join(map(str, row['tables']))} | {row['lower_bound']} | "
                     f"{', '.join(map(str, row['found']))} | {row['mean']} |")
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
