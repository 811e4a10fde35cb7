"""Tremble states of an older rules version carried over to this one (``Game.rules_history``).

``tremble-1`` → ``tremble/2`` (docs/tremble.md, CHANGELOG.md):

- RULING TRE-12a, the buy step is optional: each player first answers
  ``draw_or_decline``; the state keeps ``players[p].buy_choice``.  Under ``tremble-1``
  every player drew two ships at each buy step, so a player in a buy step has chosen
  ``draw`` (``buy_choice: "draw"``), and outside one nobody has chosen (``null``).
- ``draw_ship`` names the copy drawn: hands, offers and decks already held copy ids, so
  no id changes; only the chance action's field reads otherwise.
- RULING TRE-31a, a joining reserve ship counts toward the two ships per city: a state
  with a side of more than two ships, or a reserve step offered to a side of two, has no
  ``tremble/2`` equivalent and is refused naming TRE-31a.

>>> from_1({"phase": "buy", "players": [{"hand": []}], "attacks": [], "pending": []}
...        )["players"][0]["buy_choice"]
'draw'
"""

from __future__ import annotations

from service.games.messages import N_
from service.games.tremble.battle import reserve_full
from service.games.tremble.state import typed
from service.games.versions import NotUpgradable

#: TRE-9: at most this many ships of one player at a city
MAX_SHIPS_PER_CITY = 2


def from_1(state: dict) -> dict:
    """A ``tremble-1`` state as a ``tremble/2`` one (the module docstring)."""
    for attack in state["attacks"]:
        for side in attack.get("sides") or []:
            if len(side["ships"]) > MAX_SHIPS_PER_CITY:
                raise NotUpgradable(["TRE-31a"], N_(
                    "a side has more than two ships at one city, which rules 2 never allow"))
    for entry in state["pending"]:
        if entry.get("decision") == "reserve" and reserve_full(typed(state), entry["player"]):
            raise NotUpgradable(["TRE-31a"], N_(
                "a reserve step is offered to a side of two ships, which rules 2 do not offer"))
    buying = state["phase"] == "buy"
    players = [{**p, "buy_choice": "draw" if buying else None} for p in state["players"]]
    return {**state, "players": players}
