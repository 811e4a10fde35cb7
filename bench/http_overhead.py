"""What the HTTP layer costs per request, around a representative Raiders state.

Run: ``.venv/bin/python bench/http_overhead.py`` (or ``make bench``).

The state is taken from a seeded random 6-player Raiders game part-way through
(the largest common case).  Each figure is the median over several repeats of
a timed loop, in µs per call.  The whole-request figures are measured through
the Flask test client against a floor in the same run: a no-op endpoint that
reads the same body and returns ``{}``.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import timeit

import orjson
from flask import Response, request

from service.app import create_app
from service.games.registry import get_game
from service.http.games import APPLY


def median_us(fn, number: int, repeat: int = 7) -> float:
    times = timeit.repeat(fn, number=number, repeat=repeat)
    return statistics.median(times) / number * 1e6


def representative_state(game, players: int = 6, steps: int = 60, seed: int = 3):
    rng = random.Random(seed)
    state, _ = game.new_game(players, {}, seed)
    for _ in range(steps):
        if state["result"]:
            break
        state, _ = game.apply(state, rng.choice(game.legal_actions(state)))
    return state


def main() -> None:
    game = get_game("raiders")
    state = representative_state(game)
    action = random.Random(1).choice(game.legal_actions(state))
    body = orjson.dumps({"state": state, "action": action})
    new_state, events = game.apply(state, action)
    reply = {"state": new_state, "events": events, "outcome": game.score(new_state)}
    parsed = orjson.loads(body)

    rows = [
        ("orjson parse of the apply body", median_us(lambda: orjson.loads(body), 5000)),
        ("stdlib json parse (comparison)", median_us(lambda: json.loads(body), 2000)),
        ("envelope validation (marshmallow, state passed through)",
         median_us(lambda: APPLY.load(parsed), 5000)),
        ("validate_state (engine)", median_us(lambda: game.validate_state(state), 1000)),
        ("engine apply (for scale)", median_us(lambda: game.apply(state, action), 1000)),
        ("orjson encode of the apply response", median_us(lambda: orjson.dumps(reply), 5000)),
        ("stdlib json encode (comparison)", median_us(lambda: json.dumps(reply), 2000)),
    ]

    app = create_app({"TESTING": True})

    @app.post("/bench/noop")
    def noop():
        request.get_data(cache=False)
        return Response(b"{}", mimetype="application/json")

    client = app.test_client()
    headers = {"Content-Type": "application/json"}

    def call(path):
        r = client.post(path, data=body, headers=headers)
        assert r.status_code == 200, r.get_data()
    floor = median_us(lambda: call("/bench/noop"), 300)
    full = median_us(lambda: call("/v1/games/raiders/apply"), 300)

    print(f"state: 6 players, {len(orjson.dumps(state))} bytes; request body {len(body)} bytes; "
          f"python {sys.version.split()[0]}")
    for label, us in rows:
        print(f"{us:10.1f} µs  {label}")
    print(f"{floor:10.1f} µs  floor: same body through a no-op Flask endpoint (test client)")
    print(f"{full:10.1f} µs  POST /v1/games/raiders/apply (test client)  = {full / floor:.2f} × floor")


if __name__ == "__main__":
    main()
