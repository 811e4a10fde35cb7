"""What the generated Python client's types hold: declared option defaults, older states.

Run by tests/clients/test_generated_clients.py with the generated package
(``referee_client``) on ``PYTHONPATH``; one JSON line per case on stdout::

    python tests/clients/types_python.py --base-url URL defaults CASES.json
    python tests/clients/types_python.py --base-url URL states STATES.json

``defaults``: ``CASES.json`` is ``{game: {"players": [n…], "defaults": {option: value}}}``
(the defaults ``openapi.yaml`` declares).  For every player count it starts a seeded game
with no options, then one per declared default with only that option set through the
game's generated options model (``RaidersOptions.from_dict({name: value})``), and one with
the model as the generator builds it with no arguments (every default it fills in, what a
bot that sets any option sends); each line says whether the state is the same.

``states``: ``STATES.json`` is a list of ``{game, rules_version, state}``; each state is
loaded into the game's generated state model (``RaidersState.from_dict``), must come back
unchanged from ``to_dict``, and is sent, as that model, to the typed ``legal-actions``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from referee_client import Client
from referee_client.api.kozyablo import kozyablo_legal_actions, kozyablo_new
from referee_client.api.raiders import raiders_legal_actions, raiders_new
from referee_client.api.tremble import tremble_legal_actions, tremble_new
from referee_client.models import (
    KozyabloLegalActionsRequest,
    KozyabloNewRequest,
    KozyabloOptions,
    KozyabloState,
    RaidersLegalActionsRequest,
    RaidersNewRequest,
    RaidersOptions,
    RaidersState,
    TrembleLegalActionsRequest,
    TrembleNewRequest,
    TrembleOptions,
    TrembleState,
)

SEED = 11
#: game → (new, its request, the options model, legal-actions, its request, the state model)
GAMES: dict[str, tuple[Any, type[Any], type[Any], Any, type[Any], type[Any]]] = {
    "raiders": (raiders_new, RaidersNewRequest, RaidersOptions,
                raiders_legal_actions, RaidersLegalActionsRequest, RaidersState),
    "kozyablo": (kozyablo_new, KozyabloNewRequest, KozyabloOptions,
                 kozyablo_legal_actions, KozyabloLegalActionsRequest, KozyabloState),
    "tremble": (tremble_new, TrembleNewRequest, TrembleOptions,
                tremble_legal_actions, TrembleLegalActionsRequest, TrembleState),
}


def started(client: Client, game: str, players: int, options: Any) -> tuple[int, Any]:
    """(the status of ``new``, the state as JSON or the problem's body)."""
    new, request, *_ = GAMES[game]
    body = request(players=players, seed=SEED) if options is None else \
        request(players=players, seed=SEED, options=options)
    answer = new.sync_detailed(client=client, body=body)
    if answer.status_code != 200:
        return int(answer.status_code), json.loads(answer.content)
    return 200, answer.parsed.state.to_dict()


def defaults(client: Client, cases: dict[str, Any]) -> None:
    for game, case in cases.items():
        model = GAMES[game][2]
        for players in case["players"]:
            status, alone = started(client, game, players, None)
            assert status == 200, (game, players, alone)
            tried = [(name, model.from_dict({name: value})) for name, value in case["defaults"].items()]
            tried.append(("<every default the model fills in>", model()))
            for name, options in tried:
                status, state = started(client, game, players, options)
                print(json.dumps({"game": game, "players": players, "option": name,
                                  "sent": options.to_dict(), "status": status,
                                  "same": status == 200 and state == alone,
                                  "problem": None if status == 200 else state}), flush=True)


def states(client: Client, cases: list[dict[str, Any]]) -> None:
    for case in cases:
        game, state = case["game"], case["state"]
        _, _, _, legal, request, model = GAMES[game]
        out: dict[str, Any] = {"game": game, "rules_version": case["rules_version"]}
        try:
            typed = model.from_dict(state)
        except Exception as exc:  # what the generated model says of the state
            print(json.dumps({**out, "loaded": False, "error": f"{type(exc).__name__}: {exc}"}), flush=True)
            continue
        answer = legal.sync_detailed(client=client, body=request(state=typed))
        problem = None if answer.status_code == 200 else json.loads(answer.content)
        print(json.dumps({**out, "loaded": True, "same": typed.to_dict() == state,
                          "status": int(answer.status_code),
                          "problem_type": problem and problem.get("type")}), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("mode", choices=("defaults", "states"))
    parser.add_argument("cases")
    args = parser.parse_args(argv)
    with open(args.cases, encoding="utf-8") as file:
        cases = json.load(file)
    with Client(base_url=args.base_url, timeout=60) as client:
        (defaults if args.mode == "defaults" else states)(client, cases)
    return 0


if __name__ == "__main__":
    sys.exit(main())
