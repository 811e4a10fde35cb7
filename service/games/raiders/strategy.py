"""How good a Raiders position is: the greedy bot's heuristic (``Game.position_value``)."""

from __future__ import annotations

from service.games.base import Game, score_lead
from service.games.errors import RefereeError
from service.games.raiders.state_types import RaidersState


def position_value(game: Game[RaidersState], state: RaidersState, player: int) -> float:
    """Money of the properties held (RAI-6), ten times the lead, plus guarded
    properties and cards in hand.  A capture just declared is rated as if
    everyone passed (RAI-26), so the bot sees whether it would succeed
    (RAI-16, RAI-17) without guessing the opponents' tricks."""
    for _ in range(2 * len(state["players"])):
        if state.get("capture") is None or state["result"] is not None or not state["pending"]:
            break
        try:
            state, _ = game.apply(state, {"type": "pass", "player": state["pending"][0]["player"]})
        except RefereeError:
            break
    me = state["players"][player]
    return (10 * score_lead(game, state, player)
            + len(me["holdings"]) + 0.1 * len(me["hand"]))
