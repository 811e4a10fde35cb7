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

from collections.abc import Callable

from service.games.base import Game
from service.games.errors import MalformedInput, RuleViolation
from service.games.messages import N_

MAX_REPLAY_ACTIONS = 20_000


def replay(game: Game, setup: dict, actions: list, *, max_actions: int = MAX_REPLAY_ACTIONS,
           observe: Callable[[dict | None, dict, list[dict]], None] | None = None) -> dict:
    """Re-run a game; raise ``RuleViolation`` with ``index`` at the first illegal step.

    ``observe(before, after, events)``, when given, is called after every
    step (``before`` is None for the setup): e.g. to redact each step's events
    for one player (``service.redaction``).
    """
    if not isinstance(actions, list):
        raise MalformedInput({"actions": [N_("must be a list of actions")]})
    if len(actions) > max_actions:
        raise MalformedInput({"actions": [N_("at most {max_actions} actions per replay",
                                             max_actions=max_actions)]})
    if not isinstance(setup, dict):
        raise MalformedInput({"setup": [N_("must be an object")]})
    unknown = set(setup) - {"players", "options", "seed", "card_set"}
    if unknown:
        raise MalformedInput({f"setup.{k}": [N_("unknown field")] for k in sorted(unknown)})
    if "players" not in setup:
        raise MalformedInput({"setup.players": [N_("missing required field")]})
    state, events = game.new_game(setup["players"], setup.get("options"), setup.get("seed"),
                                  setup.get("card_set", "reference"))
    steps: list[dict] = [{"index": None, "events": events}]
    if observe is not None:
        observe(None, state, events)
    for index, action in enumerate(actions):
        before = state
        try:
            state, events = game.apply(state, action)
        except RuleViolation as exc:
            exc.index = index
            raise
        except MalformedInput as exc:
            raise type(exc)({f"actions.{index}" + k[len("action"):]: v
                             for k, v in exc.errors.items()}) from exc
        steps.append({"index": index, "events": events})
        if observe is not None:
            observe(before, state, events)
    return {"state": state, "outcome": game.score(state), "events": steps}
