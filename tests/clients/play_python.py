"""Play every game with the client openapi-python-client generated from openapi.yaml.

Run by tests/clients/test_generated_clients.py with the generated package
(``referee_client``) on ``PYTHONPATH``::

    python tests/clients/play_python.py --base-url http://127.0.0.1:8000 --seed 7

For every game and both chance modes it starts a game, plays it to the end by
picking seeded random actions among those ``legal-actions`` lists (the chance
seat's outcomes too, in ``chance: table`` games), applies each one, then sends
the setup and the recorded actions to ``replay`` and checks that the replay
ends in the same state and outcome.  Every request body is a generated model
and every answer is parsed into one (``ApplyResponse``, ``RaidersState``…); no
JSON is built or read by hand.  One JSON line per game goes to stdout; any
mismatch, error status or unparsed answer exits non-zero.

``--forward-url URL``: instead, check forward compatibility: start a Raiders
game on the real server, send its first legal action to ``apply`` at ``URL`` (a
stub answering a real ``apply`` response with an event type and a field this
client has never heard of) and print the event types it parsed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import Any

from referee_client import Client
from referee_client.api.games import (
    post_v1_games_game_apply,
    post_v1_games_game_legal_actions,
    post_v1_games_game_new,
    post_v1_games_game_replay,
)
from referee_client.models import (
    ApplyRequest,
    ApplyResponse,
    LegalActionsRequest,
    LegalActionsResponse,
    NewRequest,
    NewRequestOptionsType0,
    NewResponse,
    Outcome,
    ReplayRequest,
    ReplayResponse,
    Setup,
    SetupOptionsType0,
)

# Short games: the smallest table, and a turn limit where the game has one.
GAMES: dict[str, dict[str, Any]] = {
    "raiders": {"players": 2, "options": {"turn_limit": 6}},
    "kozyablo": {"players": 2, "options": {"turn_limit": 6}},
    "tremble": {"players": 2, "options": {}},
}
CHANCE_MODES = ("server", "table")
MAX_STEPS = 2000


class ClientError(AssertionError):
    """The server answered an error, or the client could not parse the answer."""


def parsed(response: Any, model: type, what: str) -> Any:
    """The parsed body of a 200 answer, or a ClientError saying what came back."""
    if response.status_code != 200 or not isinstance(response.parsed, model):
        raise ClientError(f"{what}: HTTP {int(response.status_code)}, parsed as "
                          f"{type(response.parsed).__name__}: {response.content[:400]!r}")
    return response.parsed


def play(client: Client, game: str, chance: str, seed: int) -> dict[str, Any]:
    """One seeded random game to the end, then its replay; returns a summary."""
    config = GAMES[game]
    options = {**config["options"], "chance": chance}
    rng = random.Random(f"{game}/{chance}/{seed}")

    new_options = NewRequestOptionsType0()
    new_options.additional_properties.update(options)
    started: NewResponse = parsed(post_v1_games_game_new.sync_detailed(
        game, client=client,
        body=NewRequest(players=config["players"], options=new_options, seed=seed)),
        NewResponse, f"{game} new")
    state = started.state
    actions = []
    outcome: Outcome | None = None
    for step in range(MAX_STEPS):
        if state.result is not None:
            break
        listed: LegalActionsResponse = parsed(post_v1_games_game_legal_actions.sync_detailed(
            game, client=client, body=LegalActionsRequest(state=state)),
            LegalActionsResponse, f"{game} legal-actions at step {step}")
        if not listed.actions:
            raise ClientError(f"{game}/{chance}: nothing to do at step {step}, game unfinished")
        action = rng.choice(listed.actions)
        applied: ApplyResponse = parsed(post_v1_games_game_apply.sync_detailed(
            game, client=client, body=ApplyRequest(state=state, action=action)),
            ApplyResponse, f"{game} apply at step {step}")
        state, outcome = applied.state, applied.outcome
        actions.append(action)
    else:
        raise ClientError(f"{game}/{chance}: unfinished after {MAX_STEPS} actions")
    if outcome is None or not outcome.finished:
        raise ClientError(f"{game}/{chance}: the state has a result but the outcome is not finished")

    setup_options = SetupOptionsType0()
    setup_options.additional_properties.update(options)
    replayed: ReplayResponse = parsed(post_v1_games_game_replay.sync_detailed(
        game, client=client,
        body=ReplayRequest(setup=Setup(players=config["players"], options=setup_options, seed=seed),
                           actions=actions)),
        ReplayResponse, f"{game} replay")
    if replayed.state.to_dict() != state.to_dict():
        raise ClientError(f"{game}/{chance}: the replay ends in another state")
    if replayed.outcome.to_dict() != outcome.to_dict():
        raise ClientError(f"{game}/{chance}: the replay has another outcome "
                          f"({replayed.outcome.to_dict()} != {outcome.to_dict()})")
    if len(replayed.events) != len(actions) + 1:
        raise ClientError(f"{game}/{chance}: {len(replayed.events)} replay steps for {len(actions)} actions")
    return {"client": "python", "game": game, "chance": chance, "actions": len(actions),
            "state_type": type(state).__name__, "winners": list(outcome.winners)}


def parse_future_apply(client: Client, stub: Client, seed: int) -> dict[str, Any]:
    """An ``apply`` answer from a later version of the service, parsed by this client."""
    options = NewRequestOptionsType0()
    options.additional_properties.update({"chance": "server"})
    started: NewResponse = parsed(post_v1_games_game_new.sync_detailed(
        "raiders", client=client, body=NewRequest(players=2, options=options, seed=seed)),
        NewResponse, "raiders new")
    listed: LegalActionsResponse = parsed(post_v1_games_game_legal_actions.sync_detailed(
        "raiders", client=client, body=LegalActionsRequest(state=started.state)),
        LegalActionsResponse, "raiders legal-actions")
    applied: ApplyResponse = parsed(post_v1_games_game_apply.sync_detailed(
        "raiders", client=stub, body=ApplyRequest(state=started.state, action=listed.actions[0])),
        ApplyResponse, "raiders apply from a later version")
    return {"client": "python", "state_type": type(applied.state).__name__,
            "event_types": [getattr(e.type, "value", e.type) for e in applied.events],
            "extra_fields": sorted(getattr(applied, "additional_properties", {}))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--forward-url", help="a stub answering apply as a later version would")
    args = parser.parse_args(argv)
    with Client(base_url=args.base_url, timeout=30) as client:
        if args.forward_url:
            with Client(base_url=args.forward_url, timeout=30) as stub:
                print(json.dumps(parse_future_apply(client, stub, args.seed)), flush=True)
            return 0
        for game in GAMES:
            for chance in CHANCE_MODES:
                print(json.dumps(play(client, game, chance, args.seed)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
