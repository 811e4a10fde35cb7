"""Raiders states of an older rules version carried over to this one (``Game.rules_history``).

``raiders/1`` → ``raiders/2``: the state's shape is the same; what changed is how a
capture ends (docs/raiders.md, CHANGELOG.md):

- RULING RAI-6a: a win inside a response window closes the capture at once.  Under
  ``raiders/1`` the window stayed open after the win: a finished state with a capture
  still in progress has no ``raiders/2`` equivalent, and is refused naming RAI-6a.
- RULING RAI-17a: a capture of a property the attacker came to control ends without a
  fight.  A ``raiders/1`` state still fighting over such a property is refused naming
  RAI-17a (``raiders/2`` would have ended that capture already).
- RAI-30: a fizzled capture uses up the attempt.  A state does not record that an attempt
  fizzled, so a ``raiders/1`` state whose attempt fizzled keeps the attempt ``raiders/1``
  gave back (``capture_used`` as it was): the upgrade carries the position, not a
  re-judgement of moves already made.

Every other state is the same position under ``raiders/2``
(``tests/compat/test_old_rules.py`` plays the ``raiders/1`` fixtures on).

>>> from_1({"capture": None, "result": None, "players": []})["capture"] is None
True
"""

from __future__ import annotations

from service.games.messages import N_
from service.games.objects import JsonObject
from service.games.versions import NotUpgradable


def from_1(state: JsonObject) -> JsonObject:
    """A ``raiders/1`` state as a ``raiders/2`` one (the module docstring)."""
    capture = state["capture"]
    if capture is not None:
        if state["result"] is not None:
            raise NotUpgradable(["RAI-6a"], N_(
                "the game was won during a capture, which rules 2 close at once with no fight"))
        if capture["property"] in state["players"][capture["attacker"]]["holdings"]:
            raise NotUpgradable(["RAI-17a"], N_(
                "the attacker already controls the property under capture, a capture rules 2 "
                "end without a fight"))
    return dict(state)
