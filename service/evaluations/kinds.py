"""Evaluation kinds: one class per kind, looked up by name.

An evaluation request is ``{game, kind, ...inputs, params?}``.  A kind turns
it into a *plan* at submission — validating everything, so a request that
cannot succeed is refused (400/422) before anything is queued — and then

* ``chunks(plan)`` — the independent pieces of work (seeded, JSON),
* ``run_chunk(plan, chunk, progress)`` — one piece, returning a JSON partial,
* ``aggregate(plan, partials)`` — the result, the same whatever the chunking.

Plans, chunks and partials are plain JSON, so the same code runs in-process
(embedded runner) and on RQ workers.

``progress(done, total)`` reports how far a chunk is; it raises
``Cancelled`` when the evaluation has been cancelled, so a chunk stops at its
next report.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from service.games import shape
from service.games.errors import MalformedInput

Progress = Callable[[int, int], None]


class Cancelled(Exception):
    """The evaluation was cancelled while a chunk was running."""


class ChunkTimeout(Exception):
    """A chunk ran past its time limit (``runner.CHUNK_TIMEOUT``)."""


class UnknownKind(MalformedInput):
    """No such evaluation kind, or not for that game."""


class Kind:
    """Base class of every evaluation kind."""

    name: ClassVar[str]
    #: the games this kind applies to (``None``: every registered game)
    games: ClassVar[tuple[str, ...] | None] = None
    description: ClassVar[str]
    #: request fields besides ``game``, ``kind`` and ``params``
    inputs: ClassVar[dict[str, shape.Spec]] = {}
    #: the ``params`` object
    params: ClassVar[dict[str, shape.Spec]] = {}
    #: documented limits on the work one job may ask for
    caps: ClassVar[dict[str, Any]] = {}

    def describe(self) -> dict:
        return {"kind": self.name, "games": list(self.games) if self.games else "all",
                "description": self.description,
                "inputs": {k: v.schema() for k, v in self.inputs.items()},
                "params": {k: v.schema() for k, v in self.params.items()},
                "caps": dict(self.caps)}

    def params_spec(self) -> shape.Obj:
        """The ``params`` object's spec, built once per kind (``shape.check``
        caches its compiled form on the spec)."""
        spec = self.__dict__.get("_params_spec")
        if spec is None:
            spec = self._params_spec = shape.Obj({}, self.params)
        return spec

    def request_spec(self) -> shape.Obj:
        """The request's one declaration: ``game``, ``kind``, the ``inputs`` and ``params``
        (which inputs a request needs is the kind's ``prepare`` to say), built once."""
        spec = self.__dict__.get("_request_spec")
        if spec is None:
            spec = self._request_spec = shape.Obj(
                {"game": shape.Str(), "kind": shape.Str()},
                {**self.inputs, "params": self.params_spec()})
        return spec

    def prepare(self, request: dict) -> dict:
        """The plan (JSON) for a request; raise MalformedInput / RuleViolation."""
        raise NotImplementedError

    def chunks(self, plan: dict) -> list[dict]:
        return [{"index": 0}]

    def run_chunk(self, plan: dict, chunk: dict, progress: Progress) -> Any:
        raise NotImplementedError

    def aggregate(self, plan: dict, partials: list) -> dict:
        return partials[0]

    def estimate_seconds(self, plan: dict) -> float:
        """Rough total work, for ``Retry-After`` and job timeouts."""
        return 0.01


_KINDS: dict[str, Kind] = {}


def register(kind: Kind) -> Kind:
    _KINDS[kind.name] = kind
    return kind


def all_kinds() -> list[Kind]:
    """Every kind, sorted by name (stable whatever the import order)."""
    _load()
    return [_KINDS[name] for name in sorted(_KINDS)]


def get_kind(name: str) -> Kind:
    _load()
    return _KINDS[name]


def _load() -> None:
    from service.evaluations import (  # noqa: F401  (importing registers)
        battle,
        playouts,
        search_risk,
        suggest,
    )


def prepare(request: dict[str, Any]) -> tuple[Kind, dict]:
    """Validate a ``POST /v1/evaluations`` body (a JSON object): ``game`` and ``kind``
    say which kind, whose one declaration (``Kind.request_spec``) then checks it all."""
    from service.games.registry import GAME_IDS

    _load()
    errors: dict[str, list[str]] = {}
    game, name = request.get("game"), request.get("kind")
    games = list(GAME_IDS) + [g for k in _KINDS.values() for g in k.games or ()
                              if g not in GAME_IDS]
    if not isinstance(game, str):
        errors["game"] = ["missing or not a string; one of " + ", ".join(games)]
    elif game not in games:
        errors["game"] = [f"unknown game {game!r}; one of " + ", ".join(games)]
    if not isinstance(name, str) or name not in _KINDS:
        errors["kind"] = ["unknown kind; one of " + ", ".join(_KINDS)]
    if errors or not isinstance(name, str):
        raise UnknownKind(errors)
    kind = _KINDS[name]
    if kind.games is not None and game not in kind.games:
        raise UnknownKind({"kind": [f"{name} is for {', '.join(kind.games)}, not {game}"]})
    errors = shape.check(kind.request_spec(), request)  # integral floats become ints in place
    if errors:
        raise MalformedInput(errors)
    return kind, kind.prepare(request)
