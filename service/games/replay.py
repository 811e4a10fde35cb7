"""Replay a recorded game: setup + actions -> final state, or the first bad step.

Tournament organisers use it to verify a reported result.  In ``server``
mode the actions are the players' decisions only (chance is re-derived from
the seed); in ``table`` mode they include the chance outcomes as they
happened at the table.

>>> from service.games.registry import get_game
>>> replay(get_game("raiders"), {"players": 2, "seed": 1}, [])["outcome"]["finished"]
False
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from service.games.base import AnyGame, GameState, StateIn
from service.games.errors import MalformedInput, RulesChanged, RuleViolation
from service.games.messages import N_
from service.games.objects import ActionObject, Event, JsonObject
from service.games.versions import NotUpgradable, UpgradeAction
from service.limits import MAX_SEATS


def replay(game: AnyGame, setup: JsonObject, actions: list[Any], *,
           observe: Callable[[GameState | None, GameState, list[Event]], None] | None = None,
           rules_version: str | None = None) -> JsonObject:
    """Re-run a game; raise ``RuleViolation`` with ``index`` at the first illegal step.

    ``rules_version``: the version the actions were recorded under, when older than the
    one played: each action is carried over by the declared migrations of the steps
    between (``RulesVersion.upgrade_action``), then applied under today's rules; a
    version not served raises ``RulesChanged`` naming the clauses that changed.

    ``observe(before, after, events)``, when given, is called after every
    step (``before`` is None for the setup): e.g. to redact each step's events
    for one player (``service.redaction``).

    ``setup`` and ``actions`` are as their request declares them (``schemas.envelopes``:
    ``REPLAY``, at most ``service.limits.MAX_REPLAY_ACTIONS`` actions), checked there; each action is
    then the engine's to judge.
    """
    upgrades = () if rules_version in (None, game.rules_version) else tuple(
        step.upgrade_action for step in game.upgrade_steps(str(rules_version), "rules_version")
        if step.upgrade_action is not None)
    state, events = game.new_game(setup["players"], setup.get("options"), setup.get("seed"),
                                  setup.get("card_set", "reference"))
    steps: list[JsonObject] = [{"index": None, "events": events}]
    if observe is not None:
        observe(None, state, events)
    def current() -> GameState:  # the state as it stands while a recorded action is carried over
        return state

    for index, recorded in enumerate(actions):
        for action in _carried_over(upgrades, current, recorded, index, (game, rules_version)):
            before = state
            state, events = step(game, state, action, index, "actions")
            steps.append({"index": index, "events": events})
            if observe is not None:
                observe(before, state, events)
    return {"state": state, "outcome": game.score(state), "events": steps}


#: answers a migration may put before one recorded action (a new decision per player)
MAX_INSERTED = MAX_SEATS


def step(game: AnyGame, state: StateIn, action: object, index: int, path: str
         ) -> tuple[GameState, list[Event]]:
    """``game.apply`` of the ``index``-th action of a list at ``path`` (a replay's
    ``actions``, ``apply-chance``'s ``outcomes``): an illegal one names its ``index``, a
    malformed one its field (``actions.3.card``)."""
    try:
        return game.apply(state, action)
    except RuleViolation as exc:
        exc.index = index
        raise
    except MalformedInput as exc:
        raise type(exc)({f"{path}.{index}" + k[len("action"):]: v
                         for k, v in exc.errors.items()}) from exc


def _carried_over(upgrades: tuple[UpgradeAction, ...], state: Callable[[], GameState], recorded: object,
                  index: int, versions: tuple[AnyGame, str | None]) -> Iterator[object]:
    """The actions that stand for ``recorded`` under today's rules, one at a time: each
    step's ``upgrade_action`` rewords it, and may answer a new decision first (the
    first of its answers is applied, then it is asked again with the new state)."""
    if not upgrades or not isinstance(recorded, dict):
        yield recorded  # as it is (a malformed one for ``apply`` to name)
        return
    for _ in range(MAX_INSERTED):
        todo: list[ActionObject] = [recorded]
        for upgrade in upgrades:
            try:
                todo = [one for action in todo for one in upgrade(state(), action)]
            except NotUpgradable as exc:
                game, source = versions
                changes = [c.describe() for step in game.upgrade_steps(str(source), "")
                           for c in step.changes if c.clause in exc.clauses]
                raise RulesChanged({f"actions.{index}": [N_(
                    "recorded under {source!r} and not replayed under {target!r}: {reason} "
                    "(changed: {clauses})", source=source, target=game.rules_version,
                    reason=exc.reason, clauses=", ".join(exc.clauses))]},
                    str(source), game.rules_version, exc.clauses, changes) from None
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                raise MalformedInput({f"actions.{index}": [N_(
                    "not an action of the rules version it was recorded under")]}) from None
        if len(todo) == 1:
            yield todo[0]
            return
        yield todo[0]  # an answer the recorded version never asked for; then ask again
    raise MalformedInput({f"actions.{index}": [N_(
        "not an action of the rules version it was recorded under")]})
