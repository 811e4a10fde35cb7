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

import copy
from collections.abc import Mapping
from typing import Any, Generic, TypeVar

#: the type of the state (a game's ``TypedDict``, or a plain JSON object)
T = TypeVar("T", bound=Mapping[str, Any])


class Draft(Generic[T]):
    """A state being edited; ``root`` is the new state when done (of the state's
    own type: its top-level keys are written directly, ``draft.root["turn"] += 1``)."""

    __slots__ = ("root", "_own")

    def __init__(self, base: T) -> None:
        self.root: T = copy.copy(base)
        self._own = {id(self.root)}

    def at(self, *path: str | int) -> Any:
        """The container at ``path``, copied (once) so it may be mutated."""
        node: Any = self.root
        own = self._own
        for key in path:
            child = node[key]
            if id(child) not in own:
                child = child.copy()
                node[key] = child
                own.add(id(child))
            node = child
        return node
