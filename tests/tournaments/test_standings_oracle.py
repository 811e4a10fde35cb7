"""``/standings`` answered by the events model gives 1.0.0's answers, byte for byte.

Two oracles, as the route moved onto the events model (issue 37, item 4):

* **recorded answers**: ``standings_cases.request(seed)``, random Swiss tournaments
  with real replayed games (byes, drops, respellings, one fault in a third of them,
  some in Russian), each answer's status and SHA-256 as 1.0.0's route gave them
  (``standings_answers.json``);
* **the 1.0.0 engine**, kept in ``swiss_oracle.py``: on random tournaments (matches
  of one to three games won or drawn, byes, drops, rematches), its standings and
  pairing as JSON bytes against ``swiss.standings_answer`` of the same matches as a duel event.
"""

from __future__ import annotations

import json
import random

import orjson
import pytest

from service.app import create_app
from service.tournaments import events, swiss
from tests.size import sized
from tests.tournaments import swiss_oracle as old
from tests.tournaments.standings_cases import ANSWERS, CASES, answer

RECORDED = json.loads(ANSWERS.read_text())


@pytest.fixture(scope="module")
def client():
    return create_app({"TESTING": True}).test_client()


@pytest.mark.parametrize("seed", range(sized(CASES, least=200)))
def test_the_route_answers_as_it_did(client, seed):
    assert list(answer(client, seed)) == RECORDED[str(seed)]


def random_tournament(rng: random.Random) -> tuple[list[str], list[old.Round]]:
    """Players, and rounds of 1.0.0 matches: random pairs (rematches too), byes, drops."""
    players = [f"p{i}" for i in range(rng.randint(2, 14))]
    gone: set[str] = set()
    rounds = []
    for _ in range(rng.randint(0, 6)):
        order = [p for p in players if p not in gone]
        rng.shuffle(order)
        byes = [order.pop() for _ in range(len(order) % 2 + 2 * (rng.random() < 0.05))
                if order]
        matches = [old.Match((a, b), [rng.choice([a, b, None])
                                      for _ in range(rng.choice([1, 1, 2, 3]))])
                   for a, b in zip(order[::2], order[1::2], strict=True)]
        drops = [rng.choice(order)] if order and rng.random() < 0.2 else []
        rounds.append(old.Round(matches, byes, drops))
        gone |= set(drops)
    return players, rounds


def old_answer(players: list[str], rounds: list[old.Round]) -> bytes:
    """1.0.0's route's answer of already verified matches (``games_verified``: 0)."""
    table = old.standings(players, rounds)
    pairing = old.next_round(table, rounds)
    return orjson.dumps({
        "standings": [line.to_json() for line in table],
        "next_round": None if pairing is None else {
            "round": len(rounds) + 1, "pairings": [list(p) for p in pairing.pairs],
            "bye": pairing.bye},
        "games_verified": 0})


def new_answer(players: list[str], rounds: list[old.Round]) -> bytes:
    event = events.TournamentEvent(list(players), swiss.DUEL, [
        events.Round([swiss.match(*m.players, m.games) for m in rnd.matches], rnd.byes,
                     rnd.drops) for rnd in rounds], events.MATCHES)
    return orjson.dumps(swiss.standings_answer(events.checked(event), 0))


@pytest.mark.parametrize("seed", range(sized(600, least=200)))
def test_the_events_model_answers_as_the_swiss_engine_did(seed):
    players, rounds = random_tournament(random.Random(seed))
    assert new_answer(players, rounds) == old_answer(players, rounds)


def test_the_model_and_its_verification_import_no_flask():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", "import sys, service.tournaments.verify, "
                           "service.tournaments.swiss; print(sorted(m for m in sys.modules "
                           "if m.split('.')[0] in ('flask', 'werkzeug')))"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
