"""Random ``POST /v1/tournaments/standings`` requests with real games, and their
answers as 1.0.0 gave them (``standings_answers.json``).

``request(seed)`` builds a Swiss tournament: 2 to 9 players, up to 5 rounds of
matches of one to three replayed Raiders games (``played``: either seat wins, or
the game is drawn), byes, drops, names respelled (case, fullwidth) at the tables
and in the games' seats, and in about a third of the cases one fault: a stranger,
a player twice in a round or after dropping, a match of one player, a game
credited to others, reused, unfinished, illegal, of three seats, of an unknown
game, with an invisible seat name, or no game at all; some in Russian.

The answers were recorded before ``/standings`` was answered by the events model
(main at f1053f5, ``service/tournaments/swiss.py`` of then): ``python -m
tests.tournaments.standings_cases --write`` records them again, which is only
right when the 1.0.0 answers are meant to change.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from tests.tournaments.played import played_game, played_pod, winners

ANSWERS = Path(__file__).with_name("standings_answers.json")
CASES = 400
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
SEEDS = range(1, 41)
FAULTS = ("stranger", "twice", "after-drop", "self", "credited", "reused", "unfinished",
          "illegal", "three-seats", "unknown-game", "invisible", "no-game", "look-alike",
          "bye-and-match")


def respelled(rng: random.Random, name: str) -> str:
    """The same player as ``service.names`` compares them, sometimes spelled otherwise."""
    roll = rng.random()
    if roll < 0.1:
        return name.lower()
    if roll < 0.15:
        return "".join(chr(ord(c) + 0xFEE0) for c in name)  # fullwidth
    return name


def request(seed: int) -> tuple[dict[str, Any], dict[str, str]]:
    """The body and headers of case ``seed``."""
    rng = random.Random(seed)
    by_outcome: dict[tuple[int, ...], list[int]] = {}
    for s in SEEDS:
        by_outcome.setdefault(winners(s), []).append(s)
    players = NAMES[:rng.randint(2, 9)]
    used: set[tuple[int, str, str]] = set()

    def game(a: str, b: str) -> dict[str, Any]:
        """A fresh replayed game of ``a`` and ``b``: ``a`` wins, ``b`` wins or drawn."""
        outcome = rng.choice([(0,), (1,), (0, 1)])
        for _ in range(100):
            s = rng.choice(by_outcome[outcome])
            seats = (respelled(rng, a), respelled(rng, b))
            if rng.random() < 0.5:
                seats = seats[::-1]
            if (s, *seats) not in used:
                used.add((s, *seats))
                return played_game(s, seats)
        raise AssertionError("no fresh game left")

    rounds: list[dict[str, Any]] = []
    gone: set[str] = set()
    for _ in range(rng.randint(0, 5)):
        order = [p for p in players if p not in gone]
        rng.shuffle(order)
        byes = [order.pop()] if len(order) % 2 else []
        if len(order) >= 2 and rng.random() < 0.05:
            byes += [order.pop(), order.pop()]  # two byes: allowed, as 1.0.0 allowed them
        matches = [{"players": [respelled(rng, a), respelled(rng, b)],
                    "games": [game(a, b) for _ in range(rng.choice([1, 1, 1, 2, 3]))]}
                   for a, b in zip(order[::2], order[1::2], strict=True)]
        drops = [rng.choice(order)] if order and rng.random() < 0.15 else []
        rounds.append({"matches": matches, "byes": byes, "drops": drops})
        gone |= set(drops)
    if rng.random() < 0.35 and rounds:
        fault(rng, rng.choice(FAULTS), players, rounds)
    body = {"players": players, "rounds": rounds}
    headers = {"X-Request-Id": f"case-{seed}"}
    if rng.random() < 0.3:
        headers["Accept-Language"] = "ru"
    return body, headers


def fault(rng: random.Random, kind: str, players: list[str], rounds: list[dict[str, Any]]) -> None:
    """Spoil the tournament by one fault of ``kind`` (where it has a place to go)."""
    rnd = rng.choice(rounds)
    matches = rnd["matches"]
    match = rng.choice(matches) if matches else None
    games = [g for r in rounds for m in r["matches"] for g in m["games"]]
    if kind == "look-alike":
        players.append(players[0].upper())
    elif kind == "bye-and-match" and match is not None:
        rnd["byes"].append(match["players"][0])
    elif kind == "stranger" and match is not None:
        match["players"][1] = "Zed"
    elif kind == "twice" and len(matches) > 1:
        matches[1]["players"][0] = matches[0]["players"][1]
    elif kind == "self" and match is not None:
        match["players"][1] = match["players"][0]
    elif kind == "after-drop" and len(rounds) > 1 and rounds[0]["matches"]:
        rounds[0]["drops"] = [rounds[0]["matches"][0]["players"][0]]
    elif kind == "credited" and match is not None:
        for g in match["games"][:1]:
            g["setup"]["players"] = [{"name": "Zed"}, g["setup"]["players"][1]]
    elif kind == "reused" and match is not None and games:
        match["games"].append(json.loads(json.dumps(rng.choice(games))))
    elif kind == "unfinished" and match is not None:
        match["games"][0]["actions"] = match["games"][0]["actions"][:4]
    elif kind == "illegal" and match is not None:
        actions = match["games"][-1]["actions"]
        actions.insert(3, dict(actions[0]))
    elif kind == "three-seats" and match is not None:
        match["games"].append(played_pod(rng.randint(1, 5), (*match["players"], "Zed")))
    elif kind == "unknown-game" and match is not None:
        match["games"][0]["game"] = "chess"
    elif kind == "invisible" and match is not None:
        match["games"][0]["setup"]["players"][0]["name"] += "\u200b"
    elif kind == "no-game" and match is not None:
        match["games"][0] = {"game": "raiders"}


def answer(client: Any, seed: int) -> tuple[int, str]:
    """Case ``seed``'s status and the SHA-256 of its body's bytes."""
    body, headers = request(seed)
    r = client.post("/v1/tournaments/standings", json=body, headers=headers)
    return r.status_code, hashlib.sha256(r.data).hexdigest()


def main(argv: list[str]) -> int:
    from service.app import create_app

    if argv != ["--write"]:
        print(__doc__)
        return 2
    client = create_app({"TESTING": True}).test_client()
    ANSWERS.write_text(json.dumps({str(s): answer(client, s) for s in range(CASES)},
                                  indent=0) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
