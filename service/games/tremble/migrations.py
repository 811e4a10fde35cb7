"""Tremble states of an older rules version carried over to this one (``Game.rules_history``).

``tremble-1`` → ``tremble/2`` (docs/tremble.md, CHANGELOG.md):

- RULING TRE-12a, the buy step is optional: each player first answers
  ``draw_or_decline``; the state keeps ``players[p].buy_choice``.  Under ``tremble-1``
  every player drew two ships at each buy step, so a player in a buy step has chosen
  ``draw`` (``buy_choice: "draw"``), and outside one nobody has chosen (``null``).
- ``draw_ship`` names the copy drawn: hands, offers and decks already held copy ids, so
  no id changes; only the chance action's field reads otherwise.  A replay recorded
  under ``tremble-1`` (``rules_version`` in the request) has its actions carried over by
  ``action_from_1``: a ``draw_ship`` naming a design names the first copy of it left in
  the deck, and where ``draw_or_decline`` is pending, each such player first answers
  ``draw_ships`` (every player drew under ``tremble-1``), one at a time.  A game whose
  chance the server dealt (``chance: server``) is refused at its first buy step naming
  TRE-12: ``tremble/2`` draws a copy where ``tremble-1`` drew a design, so the same seed
  deals other ships and the recorded buys no longer fit.
- RULING TRE-31a, a joining reserve ship counts toward the two ships per city: a state
  with a side of more than two ships, or a reserve step offered to a side of two, has no
  ``tremble/2`` equivalent and is refused naming TRE-31a.

>>> from_1({"phase": "buy", "players": [{"hand": []}], "attacks": [], "pending": []}
...        )["players"][0]["buy_choice"]
'draw'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from service.games.messages import N_
from service.games.objects import ActionObject, JsonObject
from service.games.tremble.battle import reserve_full
from service.games.tremble.cards import design_of
from service.games.tremble.planning import MAX_SHIPS_PER_CITY  # TRE-9
from service.games.tremble.state_types import TrembleState
from service.games.versions import NotUpgradable


def from_1(state: JsonObject) -> JsonObject:
    """A ``tremble-1`` state as a ``tremble/2`` one (the module docstring)."""
    for attack in state["attacks"]:
        for side in attack.get("sides") or []:
            if len(side["ships"]) > MAX_SHIPS_PER_CITY:
                raise NotUpgradable(["TRE-31a"], N_(
                    "a side has more than two ships at one city, which rules 2 never allow"))
    for entry in state["pending"]:
        # its battle, as both versions hold it
        if entry.get("decision") == "reserve" and reserve_full(cast(TrembleState, state),
                                                               entry["player"]):
            raise NotUpgradable(["TRE-31a"], N_(
                "a reserve step is offered to a side of two ships, which rules 2 do not offer"))
    buying = state["phase"] == "buy"
    players = [{**p, "buy_choice": "draw" if buying else None} for p in state["players"]]
    return {**state, "players": players}


def action_from_1(state: Mapping[str, Any], action: ActionObject) -> list[ActionObject]:
    """A ``tremble-1`` action as the ``tremble/2`` actions it stands for (the module
    docstring).

    >>> action_from_1({"pending": [{"player": 1, "decision": "draw_or_decline"}],
    ...                "chance": {"mode": "table"}, "ship_deck": []},
    ...               {"type": "buy", "player": 0, "ship": None})[0]
    {'type': 'draw_ships', 'player': 1}
    """
    before = [{"type": "draw_ships", "player": entry["player"]} for entry in state["pending"]
              if entry.get("decision") == "draw_or_decline"][:1]
    if before and state["chance"]["mode"] == "server":
        raise NotUpgradable(["TRE-12"], N_(
            "the server drew ships by design under rules 1 and draws copies under rules 2, so "
            "the draws of a server-dealt game differ; a table game (chance: table) replays"))
    ship = action.get("ship")
    if action.get("type") == "draw_ship" and isinstance(ship, str) \
            and ship not in state["ship_deck"]:
        copies = sorted(c for c in state["ship_deck"] if design_of(c) == ship)
        if copies:
            action = {**action, "ship": copies[0]}
    return [*before, action]
