"""Game options: declared once per game as data, validated the same way.

>>> opt = Option("turn_limit", "integer", None, minimum=1, nullable=True,
...              description="end after this many turns", clause="RAI-31")
>>> resolve_options((opt,), {"turn_limit": 40}, players=2)
{'turn_limit': 40}
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from service.games.errors import InvalidOptions
from service.games.messages import N_
from service.games.objects import Errors, JsonObject
from service.games.shape import MAX_EXACT_FLOAT

_TYPES = {"boolean": bool, "integer": int, "string": str}


@dataclass(frozen=True)
class Option:
    """One game option: its JSON type, default, allowed values and clause."""

    name: str
    type: str  # "boolean" | "integer" | "string"
    default: Any
    description: str = ""
    clause: str | None = None
    choices: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    #: default that depends on the player count (e.g. double_deck above 4): ``default`` is
    #: then ``None`` and the contract declares none, since a generated client sends a
    #: declared default as if it were the caller's choice (issue 36)
    default_for: Callable[[int], Any] | None = field(default=None, compare=False)
    #: returns an error message when the value is not allowed for this count
    refusal: Callable[[Any, int, JsonObject], str | None] | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.default_for is not None and self.default is not None:
            raise ValueError(f"{self.name}: a default by player count declares no fixed default")

    def describe(self, players: range = range(0)) -> JsonObject:
        """The option as ``GET /v1/games`` lists it; a default that depends on the count
        is ``null`` there, with ``default_by_players`` for each of ``players``.

        >>> deck = Option("deck", "boolean", None, default_for=lambda n: n > 4)
        >>> deck.describe(range(4, 6))["default_by_players"]
        {'4': False, '5': True}
        """
        out = {"name": self.name, "type": self.type, "default": self.default,
               "description": self.description, "nullable": self.nullable}
        if self.default_for is not None:
            out["default_by_players"] = {str(n): self.default_for(n) for n in players}
        if self.clause:
            out["clause"] = self.clause
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


CHANCE_OPTION = Option(
    "chance", "string", "server", choices=("server", "table"),
    description="server: the engine resolves shuffles and dice with a seeded "
                "generator kept in the state; table: chance nodes stay pending "
                "and the client enters what came up at the table")


def resolve_options(declared: tuple[Option, ...], given: JsonObject | None, players: int) -> JsonObject:
    """Fill defaults and validate; raise ``InvalidOptions`` naming each field."""
    given = {} if given is None else given
    if not isinstance(given, dict):
        raise InvalidOptions({"options": [N_("must be an object")]})
    by_name = {o.name: o for o in declared}
    errors: Errors = {}
    for name in given:
        if name not in by_name:
            errors[f"options.{name}"] = [N_("unknown option; known: {items}",
                                            items=", ".join(sorted(by_name)))]
    resolved: JsonObject = {}
    for opt in declared:
        if opt.name in given:
            value = given[opt.name]
        elif opt.default_for is not None:
            value = opt.default_for(players)
        else:
            value = opt.default
        if opt.type == "integer" and type(value) is float and value.is_integer() \
                and abs(value) <= MAX_EXACT_FLOAT:
            value = int(value)  # JSON Schema's integer: 6.0 is 6 (issue 23)
        problem = _type_problem(opt, value)
        if problem is None and opt.refusal is not None:
            problem = opt.refusal(value, players, given)
        if problem:
            errors[f"options.{opt.name}"] = [problem]
        resolved[opt.name] = value
    if errors:
        raise InvalidOptions(errors)
    return resolved


def _type_problem(opt: Option, value: Any) -> str | None:
    if value is None:
        return None if opt.nullable else N_("may not be null")
    pytype = _TYPES[opt.type]
    if not isinstance(value, pytype) or (pytype is int and isinstance(value, bool)):
        return N_("must be an integer") if pytype is int else N_("must be a {type}", type=opt.type)
    if opt.choices is not None and value not in opt.choices:
        return N_("must be one of {items}", items=', '.join(map(str, opt.choices)))
    if opt.minimum is not None and value < opt.minimum:  # type: ignore[operator]
        return N_("must be at least {minimum}", minimum=opt.minimum)
    if opt.maximum is not None and value > opt.maximum:  # type: ignore[operator]
        return N_("must be at most {maximum}", maximum=opt.maximum)
    return None
