"""Profile one request in process with pyinstrument (``pip install -e '.[bench]'``).

Run: ``.venv/bin/python -m bench.profile GAME [ENDPOINT] [STAGE] [--requests N]``,
e.g. ``.venv/bin/python -m bench.profile tremble apply middle``.  The request
is the one ``make bench`` sends (``bench.states``), run through the real
Flask app (test client) N times under the sampling profiler; the text tree
goes to stdout.  ``--engine`` profiles the engine calls alone (``apply`` +
``score`` or ``legal_actions``), ``--validate`` only ``validate_state``.
"""

from __future__ import annotations

import argparse

import orjson

from bench.states import STAGES, representative_cases
from service.games.registry import get_game


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m bench.profile")
    ap.add_argument("game")
    ap.add_argument("endpoint", nargs="?", default="apply", choices=("apply", "legal-actions"))
    ap.add_argument("stage", nargs="?", default="middle", choices=tuple(STAGES))
    ap.add_argument("--requests", type=int, default=2000)
    what = ap.add_mutually_exclusive_group()
    what.add_argument("--engine", action="store_true")
    what.add_argument("--validate", action="store_true")
    args = ap.parse_args()
    from pyinstrument import Profiler

    case = next(c for c in representative_cases(args.game) if c.stage == args.stage)
    game = get_game(args.game)
    if args.validate:
        def once() -> None:
            game.validate_state(case.state)
    elif args.engine and args.endpoint == "apply":
        def once() -> None:
            game.score(game.apply(case.state, case.action)[0])
    elif args.engine:
        def once() -> None:
            game.legal_actions(case.state, case.player)
    else:
        from bench.request_costs import quiet_app

        client = quiet_app().test_client()
        body = orjson.dumps(case.apply_body() if args.endpoint == "apply"
                            else case.legal_actions_body())
        path = f"/v1/games/{args.game}/{args.endpoint}"

        def once() -> None:
            r = client.post(path, data=body, content_type="application/json")
            assert r.status_code == 200, r.get_data()[:300]
    once()
    profiler = Profiler(interval=0.0001)
    profiler.start()
    for _ in range(args.requests):
        once()
    profiler.stop()
    print(profiler.output_text(unicode=True, color=False))


if __name__ == "__main__":
    main()
