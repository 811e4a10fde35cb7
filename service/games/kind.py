"""What an evaluation kind is: the declaration a game's own kinds fill (``Game.evaluation_kinds``)
and the shared kinds too, with the errors a chunk run raises.

It lives with the engines, below ``service.evaluations`` (which finds, plans and runs the
kinds), so that a game declares its kinds without importing the layer above it
(``docs/architecture.md``, Layers); ``service.evaluations.kinds`` re-exports these names.

``progress(done, total)`` reports how far a chunk is; it raises ``Cancelled`` when the
evaluation has been cancelled, and ``ChunkTimeout`` when the chunk has spent its CPU budget
(``service.evaluations.budget``), so a chunk stops at its next report.

>>> class Echo(Kind):
...     name, description = "echo", "Says the request back."
>>> Echo().describe()["games"], Echo().chunks({})
('all', [{'index': 0}])
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
        """The ``params`` object's spec, built once per kind (``shape.field_errors``
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
