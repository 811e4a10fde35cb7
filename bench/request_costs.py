"""Where one request's time goes: JSON, validation, the engine, the rest.

For the middle state of each game (``bench.states``), one ``apply`` and one
``legal-actions`` request are run through the real Flask app in process
(``app.test_client()``, no network) — the *request time* — and, separately,
the pieces a request is made of:

* ``json``       — ``orjson.loads`` of the body + ``orjson.dumps`` of the reply
* ``envelope``   — the request envelope's load (``{state, action}``; the state
  passes through untouched)
* ``validation`` — ``game.validate_state`` (shape, card set, options,
  invariants, pending)
* ``engine``     — ``apply`` + ``score``, or ``pending`` + ``legal_actions``
  + ``constraints``

Each share is the piece's best time over the request's best time (best of
several loops: the figure least disturbed by other load on the machine); what
is left is Flask/werkzeug (and the test client's own work).  Times are this
process's CPU time.  ``floor_us`` is
the same body through the floor app (``bench.floor_app``) the same way, so
``request_us - floor_us`` is what the service adds to one request.
"""

from __future__ import annotations

import time
import timeit
from collections.abc import Callable
from typing import Any

import orjson
from flask import Flask

from bench.states import Case
from service.games.base import AnyGame, StateIn
from service.games.chance import CHANCE
from service.games.registry import get_game

#: CPU time of this process (other load on the machine does not count)
CPU = time.process_time


def quiet_app() -> Flask:
    """The service's app as deployed (default config), its log lines (one per
    request when the access log is on) written to ``/dev/null`` instead of
    this terminal: formatted, as in production, but not shown."""
    import contextlib
    import os

    from service.app import create_app

    sink = open(os.devnull, "w")  # kept open: the log handler writes to it for good
    with contextlib.redirect_stderr(sink):
        app = create_app({"TESTING": True})
    return app


def best_us(fn: Callable[[], object], number: int, repeat: int = 5) -> float:
    """µs per call, best of ``repeat`` loops (the least disturbed by other load)."""
    return min(timeit.repeat(fn, number=number, repeat=repeat, timer=CPU)) / number * 1e6


def best_pair_us(a: Callable[[], object], b: Callable[[], object], number: int, rounds: int = 7
                 ) -> tuple[float, float]:
    """Best-of timings of ``a`` and ``b`` taken in turn, so both see the same load."""
    ta, tb = [], []
    for _ in range(rounds):
        ta.append(timeit.timeit(a, number=number, timer=CPU))
        tb.append(timeit.timeit(b, number=number, timer=CPU))
    return min(ta) / number * 1e6, min(tb) / number * 1e6


def _legal_reply(game: AnyGame, state: StateIn, player: int | str | None) -> dict[str, Any]:
    pending = game.pending(state)
    out = {"pending": pending, "actions": game.legal_actions(state, player)}
    found = {str(p["player"]): c for p in pending if p["player"] not in (CHANCE,)
             and p["player"] == player and (c := game.constraints(state, p["player"])) is not None}
    if found:
        out["constraints"] = found
    return out


def measure(app: Flask, case: Case, quick: bool = False) -> dict[Any, Any]:
    from bench.floor_app import create_app as floor_app
    from service.http import games as routes  # the HTTP layer's envelope schemas

    game = get_game(case.game)
    client = app.test_client()
    floor_client = floor_app().test_client()
    n = 100 if quick else 300
    out = {}
    for endpoint, body, schema in (("apply", case.apply_body(), routes.APPLY),
                                   ("legal-actions", case.legal_actions_body(),
                                    routes.LEGAL_ACTIONS)):
        raw = orjson.dumps(body)
        if endpoint == "apply":
            def engine() -> dict[str, Any]:
                new, events = game.apply(case.state, case.action)
                return {"state": new, "events": events, "outcome": game.score(new)}
        else:
            def engine() -> dict[str, Any]:
                return _legal_reply(game, case.state, case.player)
        reply = engine()
        path = f"/v1/games/{case.game}/{endpoint}"

        def request() -> None:
            r = client.post(path, data=raw, content_type="application/json")
            assert r.status_code == 200, r.get_data()[:300]
        def floor_request() -> None:
            r = floor_client.post(path, data=raw, content_type="application/json")
            assert r.status_code == 200

        request()
        floor_request()
        total, floor = best_pair_us(request, floor_request, max(20, n // 5))
        parts = {
            "json": best_us(lambda: orjson.loads(raw), n * 10)
            + best_us(lambda: orjson.dumps(reply), n * 10),
            "envelope": best_us(lambda: schema.load(orjson.loads(raw)), n * 5)
            - best_us(lambda: orjson.loads(raw), n * 5),
            "validation": best_us(lambda: game.validate_state(case.state), n * 2),
            "engine": best_us(engine, n * 2),
        }
        out[endpoint] = {
            "request_us": round(total, 1), "floor_us": round(floor, 1), "body_bytes": len(raw),
            "reply_bytes": len(orjson.dumps(reply)),
            **{f"{k}_us": round(v, 1) for k, v in parts.items()},
            # what the service's HTTP layer adds beyond the floor's Flask path
            "http_layer_above_floor_us": round(total - floor - sum(parts.values()), 1),
            **{f"{k}_share": round(v / total, 3) for k, v in parts.items()},
        }
    return out
