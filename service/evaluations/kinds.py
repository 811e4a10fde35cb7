"""Evaluation kinds: one class per kind, looked up by name.

An evaluation request is ``{game, kind, ...inputs, params?}``.  A kind turns
it into a *plan* at submission — validating everything, so a request that
cannot succeed is refused (400/422) before anything is queued — and then

* ``chunks(plan)`` — the independent pieces of work (seeded, JSON),
* ``run_chunk(plan, chunk, progress)`` — one piece, returning a JSON partial,
* ``aggregate(plan, partials)`` — the result, the same whatever the chunking.

Plans, chunks and partials are plain JSON, so the same code runs in-process
(embedded runner) and on RQ workers.

A kind is declared as a ``Kind`` (``service.games.kind``, with ``Progress``
and the errors a chunk raises); this module finds every kind and checks a request.
"""

from __future__ import annotations

from typing import Any

from service.games import shape
from service.games.errors import MalformedInput

# the declaration of a kind lives with the engines (a game declares its own kinds without
# importing this layer); re-exported here, where the runners and tests have found them
from service.games.kind import Cancelled, ChunkTimeout, Kind, Progress, UnknownKind

__all__ = ["Cancelled", "ChunkTimeout", "Kind", "Progress", "UnknownKind", "all_kinds",
           "get_kind", "prepare", "register"]

#: the kinds every game shares (``playouts``, ``suggest``), registered as imported
_SHARED: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    """A kind for every game (a game's own kinds are its ``evaluation_kinds``)."""
    _SHARED[kind.name] = kind
    return kind


def _kinds() -> dict[str, Kind]:
    """Every kind by name: the shared ones, then each registered game's own
    (``Game.evaluation_kinds``, declared like its ``operations``), found
    through the registry: this module names no game."""
    from service.games.registry import all_games

    _load()
    found = dict(_SHARED)
    for game in all_games():
        for kind in game.evaluation_kinds:
            if game.id not in (kind.games or ()):
                raise TypeError(f"{game.id}'s evaluation kind {kind.name!r} is not for "
                                f"{game.id} (its `games`: {kind.games})")
            if found.setdefault(kind.name, kind) is not kind:
                raise TypeError(f"two evaluation kinds named {kind.name!r}")
    return found


def all_kinds() -> list[Kind]:
    """Every kind, sorted by name (stable whatever the import order)."""
    kinds = _kinds()
    return [kinds[name] for name in sorted(kinds)]


def get_kind(name: str) -> Kind:
    return _kinds()[name]


def _load() -> None:
    from service.evaluations import playouts, suggest  # noqa: F401  (importing registers)


def prepare(request: dict[str, Any]) -> tuple[Kind, dict[str, Any]]:
    """Validate a ``POST /v1/evaluations`` body (a JSON object): ``game`` and ``kind``
    say which kind, whose one declaration (``Kind.request_spec``) then checks it all."""
    from service.games.registry import GAME_IDS

    kinds = _kinds()
    errors: dict[str, list[str]] = {}
    game, name = request.get("game"), request.get("kind")
    games = list(GAME_IDS) + [g for k in kinds.values() for g in k.games or ()
                              if g not in GAME_IDS]
    if not isinstance(game, str):
        errors["game"] = ["missing or not a string; one of " + ", ".join(games)]
    elif game not in games:
        errors["game"] = [f"unknown game {game!r}; one of " + ", ".join(games)]
    if not isinstance(name, str) or name not in kinds:
        errors["kind"] = ["unknown kind; one of " + ", ".join(sorted(kinds))]
    if errors or not isinstance(name, str):
        raise UnknownKind(errors)
    kind = kinds[name]
    if kind.games is not None and game not in kind.games:
        raise UnknownKind({"kind": [f"{name} is for {', '.join(kind.games)}, not {game}"]})
    errors = shape.field_errors(kind.request_spec(), request)  # integral floats become ints in place
    if errors:
        raise MalformedInput(errors)
    return kind, kind.prepare(request)
