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
``Cancelled`` when the evaluation has been cancelled, and ``ChunkTimeout``
when the chunk has spent its CPU budget (``service.evaluations.budget``), so
a chunk stops at its next report.
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
    """A chunk ran past its time limit: its CPU deadline (``budget.CpuDeadline``)
    or the embedded runner's wall clock (``runner.CHUNK_TIMEOUT``)."""


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
    #: a component schema of ``openapi.yaml`` (a ``oneOf`` of forms: a game's operation
    #: that answers the same question at once) documenting the inputs, if any
    request_schema: ClassVar[str | None] = None

    def describe(self) -> dict[str, Any]:
        return {"kind": self.name, "games": list(self.games) if self.games else "all",
                "description": self.description,
                "inputs": {k: v.schema() for k, v in self.inputs.items()},
                "params": {k: v.schema() for k, v in self.params.items()},
                "caps": dict(self.caps)}

    def params_spec(self) -> shape.Obj:
        """The ``params`` object's spec, built once per kind (``shape.problems``
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

    def prepare(self, request: dict[str, Any]) -> dict[str, Any]:
        """The plan (JSON) for a request; raise MalformedInput / RuleViolation."""
        raise NotImplementedError

    def chunks(self, plan: dict[str, Any]) -> list[dict[str, Any]]:
        return [{"index": 0}]

    def run_chunk(self, plan: dict[str, Any], chunk: dict[str, Any], progress: Progress) -> Any:
        raise NotImplementedError

    def aggregate(self, plan: dict[str, Any], partials: list[Any]) -> dict[str, Any]:
        result: dict[str, Any] = partials[0]
        return result

    def estimate_seconds(self, plan: dict[str, Any]) -> float:
        """The total work (CPU seconds on the reference machine, an upper bound
        where the kind can bound it), for ``Retry-After``, job timeouts and the
        work cap."""
        return 0.01

    def chunk_seconds(self, plan: dict[str, Any], chunk: dict[str, Any]) -> float:
        """The work of one chunk (its CPU deadline, ``budget.CpuDeadline``): by
        default an equal share of ``estimate_seconds``."""
        return self.estimate_seconds(plan) / len(self.chunks(plan))


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
    errors = shape.problems(kind.request_spec(), request)  # integral floats become ints in place
    if errors:
        raise MalformedInput(errors)
    return kind, kind.prepare(request)
