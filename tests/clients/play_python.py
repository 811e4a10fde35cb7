"""Play every game with the client openapi-python-client generated from openapi.yaml.

Run by tests/clients/test_generated_clients.py with the generated package
(``referee_client``) on ``PYTHONPATH``::

    python tests/clients/play_python.py --base-url http://127.0.0.1:8000 --seed 7

For every game and both chance modes it starts a game, plays it to the end by
picking seeded random actions among those ``legal-actions`` lists (the chance
seat's outcomes too, in ``chance: table`` games), applies each one, then sends
the setup and the recorded actions to ``replay`` and checks that the replay
ends in the same state and outcome.  It calls the typed per-game operations
(``raiders_apply``…): every request body is a generated model
(``RaidersApplyRequest``, ``RaidersOptions``…) and every answer is parsed into
one (``RaidersApplyResponse`` with a ``RaidersState``…); no JSON is built or
read by hand.  One JSON line per game goes to stdout; any mismatch, error
status or unparsed answer exits non-zero.

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
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from referee_client import Client
from referee_client.api.kozyablo import (
    kozyablo_apply,
    kozyablo_batch,
    kozyablo_legal_actions,
    kozyablo_new,
    kozyablo_replay,
    kozyablo_view,
)
from referee_client.api.raiders import (
    raiders_apply,
    raiders_batch,
    raiders_legal_actions,
    raiders_new,
    raiders_replay,
    raiders_view,
)
from referee_client.api.tremble import (
    tremble_apply,
    tremble_batch,
    tremble_legal_actions,
    tremble_new,
    tremble_replay,
    tremble_view,
)
from referee_client.models import (
    KozyabloApplyRequest,
    KozyabloApplyResponse,
    KozyabloBatchApplyItem,
    KozyabloBatchApplyItemOp,
    KozyabloBatchCheckItem,
    KozyabloBatchCheckItemOp,
    KozyabloBatchLegalActionsItem,
    KozyabloBatchLegalActionsItemOp,
    KozyabloBatchRequest,
    KozyabloBatchResponse,
    KozyabloLegalActionsRequest,
    KozyabloLegalActionsResponse,
    KozyabloLegalActionsViewRequest,
    KozyabloNewRequest,
    KozyabloNewResponse,
    KozyabloOptions,
    KozyabloOptionsChance,
    KozyabloReplayRequest,
    KozyabloReplayResponse,
    KozyabloSetup,
    KozyabloViewRequest,
    KozyabloViewResponse,
    RaidersApplyRequest,
    RaidersApplyResponse,
    RaidersBatchApplyItem,
    RaidersBatchApplyItemOp,
    RaidersBatchCheckItem,
    RaidersBatchCheckItemOp,
    RaidersBatchLegalActionsItem,
    RaidersBatchLegalActionsItemOp,
    RaidersBatchRequest,
    RaidersBatchResponse,
    RaidersLegalActionsRequest,
    RaidersLegalActionsResponse,
    RaidersLegalActionsViewRequest,
    RaidersNewRequest,
    RaidersNewResponse,
    RaidersOptions,
    RaidersOptionsChance,
    RaidersReplayRequest,
    RaidersReplayResponse,
    RaidersSetup,
    RaidersViewRequest,
    RaidersViewResponse,
    TrembleApplyRequest,
    TrembleApplyResponse,
    TrembleBatchApplyItem,
    TrembleBatchApplyItemOp,
    TrembleBatchCheckItem,
    TrembleBatchCheckItemOp,
    TrembleBatchLegalActionsItem,
    TrembleBatchLegalActionsItemOp,
    TrembleBatchRequest,
    TrembleBatchResponse,
    TrembleLegalActionsRequest,
    TrembleLegalActionsResponse,
    TrembleLegalActionsViewRequest,
    TrembleNewRequest,
    TrembleNewResponse,
    TrembleOptions,
    TrembleOptionsChance,
    TrembleReplayRequest,
    TrembleReplayResponse,
    TrembleSetup,
    TrembleViewRequest,
    TrembleViewResponse,
)

PLAYERS = 2  # the smallest table of every game: short games
CHANCE_MODES = ("server", "table")
MAX_STEPS = 2000


@dataclass(frozen=True)
class GameApi:
    """One game's typed operations and models, as the generator named them."""
    new: ModuleType
    legal_actions: ModuleType
    apply: ModuleType
    replay: ModuleType
    options: Callable[[str], Any]  # chance mode → the game's options model (turn limit set where it has one)
    new_request: type
    new_response: type
    legal_actions_request: type
    legal_actions_response: type
    apply_request: type
    apply_response: type
    setup: type
    replay_request: type
    replay_response: type
    view: ModuleType
    view_request: type
    view_response: type
    legal_actions_view_request: type  # takes the view answer's ``<Game>View`` as it is
    batch: ModuleType
    batch_request: type
    batch_response: type
    #: an action → the batch's items about it: check it, apply it, list with previews
    batch_items: Callable[[Any], list[Any]]


GAMES: dict[str, GameApi] = {
    "raiders": GameApi(
        raiders_new, raiders_legal_actions, raiders_apply, raiders_replay,
        lambda chance: RaidersOptions(chance=RaidersOptionsChance(chance), turn_limit=6),
        RaidersNewRequest, RaidersNewResponse, RaidersLegalActionsRequest, RaidersLegalActionsResponse,
        RaidersApplyRequest, RaidersApplyResponse, RaidersSetup, RaidersReplayRequest, RaidersReplayResponse,
        raiders_view, RaidersViewRequest, RaidersViewResponse, RaidersLegalActionsViewRequest,
        raiders_batch, RaidersBatchRequest, RaidersBatchResponse,
        lambda action: [RaidersBatchCheckItem(op=RaidersBatchCheckItemOp.CHECK, action=action, id="check"),
                        RaidersBatchApplyItem(op=RaidersBatchApplyItemOp.APPLY, action=action, id="apply"),
                        RaidersBatchLegalActionsItem(op=RaidersBatchLegalActionsItemOp.LEGAL_ACTIONS,
                                                 preview=True, id="previews")]),
    "kozyablo": GameApi(
        kozyablo_new, kozyablo_legal_actions, kozyablo_apply, kozyablo_replay,
        lambda chance: KozyabloOptions(chance=KozyabloOptionsChance(chance), turn_limit=6),
        KozyabloNewRequest, KozyabloNewResponse, KozyabloLegalActionsRequest, KozyabloLegalActionsResponse,
        KozyabloApplyRequest, KozyabloApplyResponse, KozyabloSetup, KozyabloReplayRequest, KozyabloReplayResponse,
        kozyablo_view, KozyabloViewRequest, KozyabloViewResponse, KozyabloLegalActionsViewRequest,
        kozyablo_batch, KozyabloBatchRequest, KozyabloBatchResponse,
        lambda action: [KozyabloBatchCheckItem(op=KozyabloBatchCheckItemOp.CHECK, action=action, id="check"),
                        KozyabloBatchApplyItem(op=KozyabloBatchApplyItemOp.APPLY, action=action, id="apply"),
                        KozyabloBatchLegalActionsItem(op=KozyabloBatchLegalActionsItemOp.LEGAL_ACTIONS,
                                                 preview=True, id="previews")]),
    "tremble": GameApi(
        tremble_new, tremble_legal_actions, tremble_apply, tremble_replay,
        lambda chance: TrembleOptions(chance=TrembleOptionsChance(chance)),
        TrembleNewRequest, TrembleNewResponse, TrembleLegalActionsRequest, TrembleLegalActionsResponse,
        TrembleApplyRequest, TrembleApplyResponse, TrembleSetup, TrembleReplayRequest, TrembleReplayResponse,
        tremble_view, TrembleViewRequest, TrembleViewResponse, TrembleLegalActionsViewRequest,
        tremble_batch, TrembleBatchRequest, TrembleBatchResponse,
        lambda action: [TrembleBatchCheckItem(op=TrembleBatchCheckItemOp.CHECK, action=action, id="check"),
                        TrembleBatchApplyItem(op=TrembleBatchApplyItemOp.APPLY, action=action, id="apply"),
                        TrembleBatchLegalActionsItem(op=TrembleBatchLegalActionsItemOp.LEGAL_ACTIONS,
                                                 preview=True, id="previews")]),
}


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
    api = GAMES[game]
    rng = random.Random(f"{game}/{chance}/{seed}")
    started = parsed(api.new.sync_detailed(
        client=client, body=api.new_request(players=PLAYERS, options=api.options(chance), seed=seed)),
        api.new_response, f"{game} new")
    state = started.state
    actions = []
    outcome = None
    from_view = batched = 0
    for step in range(MAX_STEPS):
        if state.result is not None:
            break
        listed = parsed(api.legal_actions.sync_detailed(
            client=client, body=api.legal_actions_request(state=state)),
            api.legal_actions_response, f"{game} legal-actions at step {step}")
        if not listed.actions:
            raise ClientError(f"{game}/{chance}: nothing to do at step {step}, game unfinished")
        seat = listed.pending[0].player
        if not from_view and isinstance(seat, int):
            from_view = legal_actions_from_view(client, api, state, seat, game)
        action = rng.choice(listed.actions)
        applied = parsed(api.apply.sync_detailed(
            client=client, body=api.apply_request(state=state, action=action)),
            api.apply_response, f"{game} apply at step {step}")
        if step % 10 == 0:
            batched += batch_round(client, api, state, action, applied, game)
        state, outcome = applied.state, applied.outcome
        actions.append(action)
    else:
        raise ClientError(f"{game}/{chance}: unfinished after {MAX_STEPS} actions")
    if outcome is None or not outcome.finished:
        raise ClientError(f"{game}/{chance}: the state has a result but the outcome is not finished")

    replayed = parsed(api.replay.sync_detailed(
        client=client, body=api.replay_request(
            setup=api.setup(players=PLAYERS, options=api.options(chance), seed=seed), actions=actions)),
        api.replay_response, f"{game} replay")
    if replayed.state.to_dict() != state.to_dict():
        raise ClientError(f"{game}/{chance}: the replay ends in another state")
    if replayed.outcome.to_dict() != outcome.to_dict():
        raise ClientError(f"{game}/{chance}: the replay has another outcome "
                          f"({replayed.outcome.to_dict()} != {outcome.to_dict()})")
    if len(replayed.events) != len(actions) + 1:
        raise ClientError(f"{game}/{chance}: {len(replayed.events)} replay steps for {len(actions)} actions")
    return {"client": "python", "game": game, "chance": chance, "actions": len(actions),
            "state_type": type(state).__name__, "winners": list(outcome.winners),
            "from_view": from_view, "batched": batched}


def batch_round(client: Client, api: GameApi, state: Any, action: Any, applied: Any,
                game: str) -> int:
    """The typed batch on ``state`` (its shared state): ``check`` and ``apply`` of
    ``action`` and a listing with previews, each answered as its single call (the apply
    as ``applied``); how many items."""
    items = api.batch_items(action)
    answered = parsed(api.batch.sync_detailed(
        client=client, body=api.batch_request(state=state, items=items)),
        api.batch_response, f"{game} batch")
    by_id = {item.id: item for item in answered.items}
    if [item.id for item in answered.items] != [item.id for item in items] \
            or any(item.status != 200 for item in answered.items):
        raise ClientError(f"{game} batch: {[(i.id, i.status) for i in answered.items]}")
    if by_id["check"].body.legal is not True:
        raise ClientError(f"{game} batch: check of a listed action: {by_id['check'].body}")
    if by_id["apply"].body.to_dict() != applied.to_dict():
        raise ClientError(f"{game} batch: the apply item differs from the single apply")
    listing = by_id["previews"].body
    if len(listing.previews) != len(listing.actions):
        raise ClientError(f"{game} batch: {len(listing.previews)} previews, "
                          f"{len(listing.actions)} actions")
    return len(items)


def legal_actions_from_view(client: Client, api: GameApi, state: Any, seat: int, game: str) -> int:
    """``legal-actions`` from the ``view`` answer's object as it is (one ``<Game>View`` type
    for both, no ``to_dict``/``from_dict``): the seat's actions, the same as from the state."""
    viewed = parsed(api.view.sync_detailed(client=client, body=api.view_request(state=state, player=seat)),
                    api.view_response, f"{game} view")
    mine = parsed(api.legal_actions.sync_detailed(
        client=client, body=api.legal_actions_view_request(view=viewed.view)),
        api.legal_actions_response, f"{game} legal-actions from a view")
    full = parsed(api.legal_actions.sync_detailed(
        client=client, body=api.legal_actions_request(state=state, player=seat)),
        api.legal_actions_response, f"{game} legal-actions of seat {seat}")
    if [a.to_dict() for a in mine.actions] != [a.to_dict() for a in full.actions]:
        raise ClientError(f"{game}: the view's legal actions differ from the state's")
    return len(mine.actions)


def parse_future_apply(client: Client, stub: Client, seed: int) -> dict[str, Any]:
    """An ``apply`` answer from a later version of the service, parsed by this client."""
    started: RaidersNewResponse = parsed(raiders_new.sync_detailed(
        client=client, body=RaidersNewRequest(players=PLAYERS, seed=seed)),
        RaidersNewResponse, "raiders new")
    listed: RaidersLegalActionsResponse = parsed(raiders_legal_actions.sync_detailed(
        client=client, body=RaidersLegalActionsRequest(state=started.state)),
        RaidersLegalActionsResponse, "raiders legal-actions")
    applied: RaidersApplyResponse = parsed(raiders_apply.sync_detailed(
        client=stub, body=RaidersApplyRequest(state=started.state, action=listed.actions[0])),
        RaidersApplyResponse, "raiders apply from a later version")
    return {"client": "python", "state_type": type(applied.state).__name__,
            "event_types": [getattr(e.type_, "value", e.type_) for e in applied.events],
            "answer_fields": sorted(applied.additional_properties),
            "last_event_fields": sorted(applied.events[-1].additional_properties)}


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
