"""The fuzz tests' one mutator: random edits of a JSON value (a state or a view)."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every path into ``value`` (dict keys and list indexes), the root first."""
    yield prefix
    items = value.items() if isinstance(value, dict) else \
        enumerate(value) if isinstance(value, list) else ()
    for k, v in items:
        yield from paths(v, prefix + (k,))


def bend(value: Any, rng: random.Random, values: Sequence[Any] | Callable[[], Any]) -> Any:
    """A deep copy of ``value`` with one to three random edits: an item or a key
    deleted, or a value replaced by one of ``values`` (or what it returns)."""
    value = copy.deepcopy(value)
    where = list(paths(value))[1:]
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(where)
        parent = value
        try:
            for k in path[:-1]:
                parent = parent[k]
            roll = rng.random()
            if roll < 0.2 and isinstance(parent, list):
                parent.pop(path[-1])
            elif roll < 0.35 and isinstance(parent, dict):
                del parent[path[-1]]
            else:
                parent[path[-1]] = values() if callable(values) else rng.choice(values)
        except (LookupError, TypeError):
            pass
    return value
