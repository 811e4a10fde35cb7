"""Every answer of the Kozyablo engine along seeded random games, against a recorded corpus.

The seeded digests (``tests/shared/test_seeded_digests.py``) hash the actions and the
final state of each game; an optimisation could still change an answer they do not
see: the order of a legal-action list, an event, an intermediate state, a refusal's
clause.  Here every step of every game is fingerprinted — the whole
``legal_actions`` listing (every pending seat, and each seat alone), the events and
the state ``apply`` returns, the score, and ``check`` of two actions that are
usually illegal there (the previous step's action and the chosen action sent by the
next seat) — and each game's digest is compared with ``engine_answers.json``.  The
games cover two to four players, both chance modes and ``response_window: always``.
A failure names the game; a deliberate rules change rewrites the corpus:

    .venv/bin/python -m tests.kozyablo.test_engine_answers --write
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import random
import sys

import orjson
import pytest

from service.games.chance import CHANCE
from service.games.kozyablo import GAME
from service.games.kozyablo.setup import RACE_ORDER
from service.games.playout import choose_chance, next_actor

CORPUS = pathlib.Path(__file__).with_name("engine_answers.json")
#: ``(name, players, options, seed)`` of every recorded game
GAMES = [
    *((f"2p-{a}-{b}", [{"race": a}, {"race": b}], {"turn_limit": 60}, 3 + k)
      for k, (a, b) in enumerate((a, b) for a in RACE_ORDER for b in RACE_ORDER)),
    *((f"{n}p-seed{s}", n, {"turn_limit": 30}, s) for n in (3, 4) for s in range(4)),
    *((f"2p-table-seed{s}", 2, {"turn_limit": 30, "chance": "table"}, s) for s in range(4)),
    *((f"2p-always-seed{s}", 2, {"turn_limit": 30, "response_window": "always"}, s)
      for s in range(4)),
]


def _dump(value: object) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def game_digest(players: object, options: dict, seed: int) -> str:
    """The digest of every answer along one seeded random game."""
    h = hashlib.sha256()
    state, events = GAME.new_game(players, options, seed)
    h.update(_dump([state, events]))
    rng = random.Random(seed)
    seats = range(len(state["players"]))
    previous: dict | None = None
    while state["result"] is None:
        h.update(_dump(GAME.legal_actions(state)))
        for seat in seats:
            h.update(_dump(GAME.legal_actions(state, seat)))
        who = next_actor(state, rng)
        if who == CHANCE:
            action = choose_chance(GAME, state, rng)
        else:
            listed = GAME.legal_actions(state, who)
            action = listed[rng.randrange(len(listed))]
            other = {**action, "player": (who + 1) % len(seats)}
            h.update(_dump([GAME.check(state, other), GAME.check(state, previous or other)]))
        state, events = GAME.apply(state, action)
        h.update(_dump([action, events, state, GAME.score(state)]))
        previous = action
    return h.hexdigest()


def recorded() -> dict[str, str]:
    return json.loads(CORPUS.read_text(encoding="utf-8"))


def test_the_corpus_has_every_game():
    assert set(recorded()) == {name for name, *_ in GAMES}


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g[0])
def test_every_answer_is_the_recorded_one(game):
    name, players, options, seed = game
    assert game_digest(players, options, seed) == recorded()[name], (
        f"{name}: an answer of the engine changed (a listing's order, an event, a state, a "
        "score or a refusal); if a rule changed on purpose, rewrite the corpus with "
        "`python -m tests.kozyablo.test_engine_answers --write` and say so")


def main(argv: list[str]) -> int:
    if argv != ["--write"]:
        print(__doc__)
        return 2
    CORPUS.write_text(json.dumps({name: game_digest(p, o, s) for name, p, o, s in GAMES},
                                 indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
