"""Shape specs that refuse a body as the 1.0.0 declarations of ``/tournaments/standings``
and Kozyablo's ``decks/validate`` did (marshmallow schemas then), so that their clients
read the same field paths and messages: ``may not be null`` before any other check;
``Length must be between 1 and 100.`` (plain English, as then: no ``N_``); a list's
length checked only once each item is right; an object that is none refused at
``<path>._schema`` (``Invalid input type.``); an unknown member refused, or dropped
(``unknown="exclude"``).  Their ``schema`` is the JSON Schema the compiled check runs
and the document shows (``shape.Spelled``: the spelling those components had).

>>> spec = Record({"name": Text(1, 5), "tags": Items(Text(), max_items=2)}, required=("name",))
>>> shape.field_errors(spec, {"name": "", "tags": [None, 1]}, "")
{'name': ['Length must be between 1 and 5.'], 'tags.0': ['may not be null'], \
'tags.1': ['must be a string']}
>>> shape.field_errors(spec, {"name": "ab", "tags": ["a", "b", "c"], "x": 1}, "")
{'tags': ['Longer than maximum length 2.'], 'x': ['unknown field']}
>>> shape.field_errors(Record({"deck": Record({})}), {"deck": 3}, "")
{'deck._schema': ['Invalid input type.']}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from service.games import shape
from service.games.objects import Errors, JsonObject

NULL = "may not be null"


def _add(errors: Errors, path: str, message: str) -> None:
    errors.setdefault(path, []).append(message)


def _under(path: str, key: object) -> str:
    return f"{path}.{key}" if path else str(key)


def length_problem(length: int, minimum: int | None, maximum: int | None) -> str | None:
    """marshmallow's ``validate.Length`` message for ``length``, or ``None``.

    >>> length_problem(3, 2, 2), length_problem(0, 1, None), length_problem(9, None, 8)
    ('Length must be 2.', 'Shorter than minimum length 1.', 'Longer than maximum length 8.')
    """
    if minimum is not None and minimum == maximum:
        return None if length == minimum else f"Length must be {minimum}."
    if (minimum is not None and length < minimum) or (maximum is not None and length > maximum):
        if minimum is not None and maximum is not None:
            return f"Length must be between {minimum} and {maximum}."
        return f"Shorter than minimum length {minimum}." if minimum is not None \
            else f"Longer than maximum length {maximum}."
    return None


def _bounds(kind: str, minimum: int | None, maximum: int | None) -> JsonObject:
    out: JsonObject = {}
    if minimum is not None:
        out[f"min{kind}"] = minimum
    if maximum is not None:
        out[f"max{kind}"] = maximum
    return out


class Text(shape.Spelled):
    """A string, its length within bounds (none by default)."""

    def __init__(self, min_length: int | None = None, max_length: int | None = None,
                 description: str | None = None, default: str | None = None) -> None:
        self.min_length, self.max_length, self.description = min_length, max_length, description
        self.default = default  # what ``Record.filled`` writes when it is left out

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        if value is None:
            _add(errors, path, NULL)
        elif not isinstance(value, str):
            _add(errors, path, "must be a string")
        else:
            problem = length_problem(len(value), self.min_length, self.max_length)
            if problem:
                _add(errors, path, problem)

    def schema(self) -> JsonObject:
        default = {} if self.default is None else {"default": self.default}
        return self._described({"type": "string", **default,
                                **_bounds("Length", self.min_length, self.max_length)})


class Items(shape.Spelled):
    """A list of ``item``; its length checked once every item is right."""

    def __init__(self, item: shape.Spec, min_items: int | None = None,
                 max_items: int | None = None, description: str | None = None,
                 unique: bool = False) -> None:
        self.item, self.min_items, self.max_items = item, min_items, max_items
        self.description, self.unique = description, unique  # ``unique``: documented only

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        if value is None:
            _add(errors, path, NULL)
            return
        if not isinstance(value, list):
            _add(errors, path, "must be a list")
            return
        found: Errors = {}
        for i, item in enumerate(value):
            self.item.validate(item, _under(path, i), found, depth + 1)
        if found:
            for key, messages in found.items():
                errors.setdefault(key, []).extend(messages)
            return
        problem = length_problem(len(value), self.min_items, self.max_items)
        if problem:
            _add(errors, path, problem)

    def schema(self) -> JsonObject:
        out: JsonObject = {"type": "array", **_bounds("Items", self.min_items, self.max_items)}
        if self.unique:
            out["uniqueItems"] = True
        return {**self._described(out), "items": shape.published(self.item, limits=True)}

    def inside(self) -> tuple[list[shape.Spec], list[shape.Spec]]:
        return [], [self.item]


class AnObject(shape.Spelled):
    """Any JSON object, passed through (its content is checked later); ``message`` says
    what else is refused."""

    def __init__(self, message: str = "must be an object") -> None:
        self.message = message

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        if value is None:
            _add(errors, path, NULL)
        elif not isinstance(value, dict):
            _add(errors, path, self.message)

    def schema(self) -> JsonObject:
        return {"type": "object"}


class Record(shape.Spelled):
    """An object of known members (in their order), ``required`` of them; an unknown one
    refused (``unknown="raise"``) or dropped from the loaded value (``"exclude"``);
    ``defaults``: what ``filled`` writes for a member left out (a callable: called; a
    ``Text``'s ``default`` too)."""

    def __init__(self, fields: Mapping[str, shape.Spec], required: tuple[str, ...] = (),
                 unknown: Literal["raise", "exclude"] = "raise",
                 defaults: Mapping[str, Any] | None = None) -> None:
        self.fields, self.required, self.unknown = dict(fields), required, unknown
        self.defaults = {**{k: s.default for k, s in self.fields.items()
                            if isinstance(s, Text) and s.default is not None}, **(defaults or {})}

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        if value is None:
            _add(errors, path, NULL)
            return
        if not isinstance(value, dict):
            _add(errors, _under(path, "_schema"), "Invalid input type.")
            return
        for key, spec in self.fields.items():
            if key in value:
                spec.validate(value[key], _under(path, key), errors, depth + 1)
            elif key in self.required:
                _add(errors, _under(path, key), "missing required field")
        if self.unknown == "raise":
            for key in value:
                if key not in self.fields:
                    _add(errors, _under(path, key), "unknown field")

    def filled(self, value: dict[str, Any]) -> dict[str, Any]:
        """A checked ``value`` as it is loaded: defaults in, unknown members out."""
        out = {**{k: v() if callable(v) else v for k, v in self.defaults.items()}}
        for key, item in value.items():
            spec = self.fields.get(key)
            if spec is not None:
                out[key] = _filled(spec, item)
        return {k: out[k] for k in [*self.fields] if k in out}

    def schema(self) -> JsonObject:
        out: JsonObject = {"type": "object", "properties": {
            k: shape.published(s, limits=True) for k, s in self.fields.items()}}
        if self.required:
            out["required"] = sorted(self.required)
        if self.unknown == "raise":
            out["additionalProperties"] = False
        return self._described(out)

    def inside(self) -> tuple[list[shape.Spec], list[shape.Spec]]:
        return [], list(self.fields.values())


class Checked(shape.Spelled):
    """A value checked by a request's own declaration (``Setup``): its paths under this
    member's, its messages as plain text (as 1.0.0 flattened them)."""

    def __init__(self, spec: shape.Obj, filled: Any, name: str) -> None:
        self.spec, self.fill, self.name = spec, filled, name

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        if value is None:
            _add(errors, path, NULL)
            return
        for key, messages in shape.field_errors(self.spec, value, "").items():
            errors.setdefault(f"{path}.{key}", []).extend(str(m) for m in messages)

    def schema(self) -> JsonObject:
        return {"$ref": f"#/components/schemas/{self.name}"}

    def inside(self) -> tuple[list[shape.Spec], list[shape.Spec]]:
        return [shape.Ref(self.name, self.spec)], []


def _filled(spec: shape.Spec, value: Any) -> Any:
    if isinstance(spec, shape.Ref):
        return _filled(spec.spec, value)
    if isinstance(spec, Record):
        return spec.filled(value)
    if isinstance(spec, Items):
        return [_filled(spec.item, v) for v in value]
    if isinstance(spec, Checked):
        return spec.fill(value)
    return value
