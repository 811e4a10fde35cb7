"""Copy-on-write drafts of JSON states: ``apply`` never mutates its input.

A draft starts as a shallow copy of the state.  Reading goes through
``draft.root`` like any dict; *writing* goes through ``draft.at(path...)``,
which copies each container along the path once and returns the private copy.
Untouched parts stay shared with the input state (structural sharing), so an
action costs what it touches, not the size of the state.

>>> state = {"players": [{"hand": ["a", "b"]}, {"hand": ["c"]}], "turn": 1}
>>> d = Draft(state)
>>> d.at("players", 0, "hand").remove("a")
>>> d.root["turn"] += 1
>>> state["players"][0]["hand"], d.root["players"][0]["hand"]
(['a', 'b'], ['b'])
>>> d.root["players"][1] is state["players"][1]
True
"""

from __future__ import annotations

from typing import Any


class Draft:
    """A state being edited; ``root`` is the new state when done."""

    __slots__ = ("root", "_own")

    def __init__(self, base: dict) -> None:
        self.root = dict(base)
        self._own = {id(self.root)}

    def at(self, *path: str | int) -> Any:
        """The container at ``path``, copied (once) so it may be mutated."""
        node = self.root
        own = self._own
        for key in path:
            child = node[key]
            if id(child) not in own:
                child = child.copy()
                node[key] = child
                own.add(id(child))
            node = child
        return node
