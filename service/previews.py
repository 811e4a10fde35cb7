"""Previews: what each listed action would do, told only as far as an ``apply`` may not matter.

``legal-actions`` with ``preview: true`` answers, beside ``actions``, one preview per listed
action (``previews``, in the same order): the events the action would cause, as the seat
that takes it would see them (``events_for_player`` of an ``apply`` with that
``for_player``; a chance outcome's, the asker's: only the host lists them), and the change of
each seat's score total (``score_change``, by seat).  A preview never tells what only an
``apply`` may (``docs/trust.md``), so it stops early:

* **chance** (``stop: {"at": "chance"}``): the action leads to a chance node (a draw, a
  roll, a reveal of the deck).  The preview is the action's consequences up to that node —
  the action is applied as in ``chance: table`` (``Game._settle`` stops at the node there):
  the same events, in the same order, as an ``apply`` in either mode until its first
  ``chance`` event.  The host (who may see chance, ``service.seats.may_see``) also gets
  ``outcomes``: the node's outcomes with their exact probabilities, as ``legal-actions``
  for ``chance`` lists them; a seat or a spectator does not (they would tell the deck).
* **secret** (``stop: {"at": "secret"}``): the action makes a card the acting seat could
  not see visible to it (another seat's orders resolved, a creature out of the shadow).
  Then the preview holds no events and no score change: only an ``apply`` reveals.

No state comes back, signed, sealed or plain: a preview is a query and spends nothing.

>>> from service.games.registry import get_game
>>> game = get_game("raiders")
>>> state, _ = game.new_game(2, {"chance": "table"}, seed=3)
>>> state, _ = game.apply(state, game.legal_actions(state, "chance")[0])  # cut for trump
>>> action = game.legal_actions(state, None)[0]
>>> sorted(preview(game, state, action, "host"))
['events', 'score_change', 'stop']
"""

from __future__ import annotations

from typing import Any

from service import seats
from service.games.base import AnyGame, StateIn
from service.games.chance import CHANCE
from service.games.errors import MalformedInput
from service.games.messages import N_
from service.games.objects import ActionObject
from service.limits import MAX_PREVIEW_ACTIONS
from service.redaction import events_for


def previews(game: AnyGame, state: StateIn, actions: list[ActionObject],
             who: seats.Caller) -> list[dict[str, Any]]:
    """One ``preview`` per action of ``actions`` (listed for ``state``), asked by ``who``;
    400 naming ``preview`` past ``MAX_PREVIEW_ACTIONS`` actions (the work cap)."""
    if len(actions) > MAX_PREVIEW_ACTIONS:
        raise MalformedInput({"preview": [N_(
            "this state lists {count} actions; a preview covers at most {limit} "
            "(MAX_PREVIEW_ACTIONS): ask for one player's actions (`player`)",
            count=len(actions), limit=MAX_PREVIEW_ACTIONS)]})
    before = _totals(game, state)
    return [preview(game, state, action, who, before) for action in actions]


def preview(game: AnyGame, state: StateIn, action: ActionObject, who: seats.Caller,
            before: list[float] | None = None) -> dict[str, Any]:
    """``{events, score_change, stop}`` of ``action`` on ``state`` (module docstring)."""
    player = action.get("player")
    seat = player if isinstance(player, int) and not isinstance(player, bool) else None
    blind = {**state, "chance": {**state["chance"], "mode": "table"}}  # type: ignore[dict-item]
    after, events = game.apply(blind, action)
    if seat is not None and game.secret_cards(state, seat) - game.secret_cards(after, seat):
        return {"events": [], "score_change": None, "stop": {"at": "secret"}}
    seen = events if seat is None and who == seats.HOST else events_for(
        game, state, after, events, seat if seat is not None else None)
    stop: dict[str, Any] | None = None
    pending = after["pending"]
    if after["result"] is None and pending and pending[0]["player"] == CHANCE:
        stop = {"at": "chance"}
        if seats.may_see(who, CHANCE):
            stop["outcomes"] = game.legal_actions(after, CHANCE)
    totals = _totals(game, after)
    start = before if before is not None else _totals(game, state)
    return {"events": seen, "score_change": [a - b for a, b in zip(totals, start, strict=True)],
            "stop": stop}


def _totals(game: AnyGame, state: StateIn) -> list[float]:
    """Each seat's score total, by seat."""
    return [s["total"] for s in sorted(game.score(state)["scores"], key=lambda s: s["player"])]
