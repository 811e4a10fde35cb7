"""A tiny declarative shape language for JSON states, actions and request envelopes.

Each game declares the shape of its state and actions once with these specs
(and ``schemas.envelopes`` the request envelopes).  From that one declaration:

* ``schema()`` exports JSON Schema: what ``openapi.yaml`` documents, and
* what ``field_errors`` enforces: the exported schema compiled by jsonschema-rs
  answers whether a value is valid (a few µs for a mid-game state; chosen by
  measurement over ``fastjsonschema`` and the spec's own Python checks:
  ``python -m bench validation``), and only a value it refuses is walked by
  ``validate``, which names every problem with its field path and an English
  message (``N_``, translated per request).

Every rule is one JSON Schema can say, so both agree on every value (but
``MAX_DEPTH``, a bound on the spec itself: a spec that deep is checked by
``validate`` alone).  Numbers follow JSON Schema, where ``1.0`` is the
integer ``1``: the compiled check is strict (Draft 4's ``integer`` has no
fraction part, so a valid value holds Python ``int``s wherever the spec says
integer, as the engines need), and ``field_errors`` reads an integral float the
compiled check refused as the integer it is, rewriting it in place
(``integral``) before naming any problem.

>>> spec = Obj({"turn": Int(minimum=1), "hand": ListOf(Str())})
>>> field_errors(spec, {"turn": 0, "hand": ["a", 3]}, "state")
{'state.turn': ['must be at least 1'], 'state.hand.1': ['must be a string']}
>>> sent = {"turn": 1.0, "hand": []}
>>> field_errors(spec, {"turn": 1, "hand": []}, "state"), field_errors(spec, sent), sent
({}, {}, {'turn': 1, 'hand': []})
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, cast

import jsonschema_rs

from service.games.messages import N_
from service.games.objects import Errors, JsonObject
from service.limits import MAX_DEPTH


def _add(errors: Errors, path: str, message: str) -> None:
    errors.setdefault(path, []).append(message)


def _json_equal(a: object, b: object) -> bool:
    """Equal as JSON values: ``1 == 1.0``, but ``true`` is not ``1``.

    >>> _json_equal(1, 1.0), _json_equal(True, 1), _json_equal("a", "a"), _json_equal([1], [1])
    (True, False, True, False)
    """
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and not isinstance(a, (dict, list)) and a == b


#: the characters a ``pattern`` must escape to match them literally (ECMAScript's
#: SyntaxCharacter); the only escapes that mean the same in Python ``re``, jsonschema-rs and
#: JavaScript's unicode mode, where ``re.escape``'s ``\-`` or ``\#`` is a syntax error
_SYNTAX_CHARACTERS = frozenset("^$\\.*+?()[]{}|/")


def literal_pattern(text: str) -> str:
    """A regular expression matching ``text`` exactly, valid in every JSON Schema dialect.

    >>> literal_pattern("S-SAUCER#2"), literal_pattern("a.b(c)")
    ('S-SAUCER#2', 'a\\\\.b\\\\(c\\\\)')
    """
    return "".join("\\" + c if c in _SYNTAX_CHARACTERS else c for c in text)


class Spec:
    """Base class: ``validate`` appends to ``errors``; ``schema`` is JSON Schema.

    ``ok(value)`` is the fast verdict (the compiled schema, see ``compiled``):
    ``True`` exactly when ``validate`` would add no error.
    """

    description: str | None = None
    _checks: int  # ``field_errors`` calls so far (set by ``field_errors``)
    _compiled: Callable[[object], bool]  # set by ``compiled``

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        raise NotImplementedError

    def ok(self, value: object, depth: int = 0) -> bool:
        return compiled(self)(value)

    def schema(self) -> JsonObject:
        raise NotImplementedError

    def _described(self, schema: JsonObject) -> JsonObject:
        if self.description:
            schema["description"] = self.description
        return schema

    def inside(self) -> tuple[list[Spec], list[Spec]]:
        """(specs at the same level, specs one level down): where a compiled check finds
        the ``Ref``s it resolves (a spec of another family, ``shape_1_0``, says its own)."""
        return _inside(self)


class Spelled(Spec):
    """A spec whose ``schema`` is already in the published spelling (``published`` takes
    it as it is): ``shape_1_0``'s, declared once for their check and their document."""


class Any_(Spec):  # noqa: N801  (the engines spell it so; `Any` is typing's)
    def __init__(self, description: str | None = None) -> None:
        self.description = description

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        if depth > MAX_DEPTH:
            _add(errors, path, N_("nested deeper than {max_depth} levels", max_depth=MAX_DEPTH))

    def schema(self) -> JsonObject:
        return self._described({})


class Bool(Spec):
    def __init__(self, description: str | None = None) -> None:
        self.description = description

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        if not isinstance(value, bool):
            _add(errors, path, N_("must be a boolean"))

    def schema(self) -> JsonObject:
        return self._described({"type": "boolean"})


class Num(Spec):
    """A number (an integer or not) within bounds.

    >>> field_errors(Num(0, 10), 2.5), field_errors(Num(0, 10), "much"), field_errors(Num(0, 10), 11)
    ({}, {'': ['must be a number']}, {'': ['must be at most 10']})
    """

    #: what the value must be (``bool`` never is), its JSON Schema type, the refusal
    kinds: tuple[type, ...] = (int, float)
    json_type = "number"
    not_one = N_("must be a number")

    def __init__(self, minimum: float | None = None, maximum: float | None = None,
                 description: str | None = None) -> None:
        self.minimum, self.maximum, self.description = minimum, maximum, description

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        if not isinstance(value, self.kinds) or isinstance(value, bool):
            _add(errors, path, self.not_one)
            return
        number = cast(float, value)
        if self.minimum is not None and number < self.minimum:
            _add(errors, path, N_("must be at least {minimum}", minimum=self.minimum))
        elif self.maximum is not None and number > self.maximum:
            _add(errors, path, N_("must be at most {maximum}", maximum=self.maximum))

    def schema(self) -> JsonObject:
        out: dict[str, Any] = {"type": self.json_type}
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return self._described(out)


class Int(Num):
    kinds = (int,)
    json_type = "integer"
    not_one = N_("must be an integer")

    def __init__(self, minimum: int | None = None, maximum: int | None = None,
                 description: str | None = None) -> None:
        super().__init__(minimum, maximum, description)


class Str(Spec):
    def __init__(self, max_length: int = 200, description: str | None = None,
                 non_empty: bool = False) -> None:
        self.max_length, self.non_empty = max_length, non_empty
        self.description = description

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        if not isinstance(value, str):
            _add(errors, path, N_("must be a string"))
        elif len(value) > self.max_length:
            _add(errors, path, N_("longer than {max_length} characters",
                                  max_length=self.max_length))
        elif self.non_empty and not value:
            _add(errors, path, N_("empty"))

    def schema(self) -> JsonObject:
        out: dict[str, Any] = {"type": "string", "maxLength": self.max_length}
        if self.non_empty:
            out["minLength"] = 1
        return self._described(out)


class Enum(Spec):
    def __init__(self, *values: object, description: str | None = None) -> None:
        self.values, self.description = values, description

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        if not any(_json_equal(value, v) for v in self.values):
            _add(errors, path, N_("must be one of {items}", items=", ".join(map(str, self.values))))

    def schema(self) -> JsonObject:
        return self._described({"enum": list(self.values)})


class Nullable(Spec):
    def __init__(self, inner: Spec, description: str | None = None) -> None:
        self.inner, self.description = inner, description or inner.description

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        if value is not None:
            self.inner.validate(value, path, errors, depth)

    def schema(self) -> JsonObject:
        inner = dict(self.inner.schema())
        inner.pop("description", None)
        forms = inner["anyOf"] if list(inner) == ["anyOf"] else [inner]  # a OneOf: its forms
        return self._described({"anyOf": [*forms, {"type": "null"}]})


class OneOf(Spec):
    """The value must match at least one of ``options`` (tried in order)."""

    def __init__(self, *options: Spec, description: str | None = None,
                 message: str | None = None) -> None:
        self.options, self.description, self.message = options, description, message

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        for option in self.options:
            trial: Errors = {}
            option.validate(value, path, trial, depth)
            if not trial:
                return
        _add(errors, path, self.message or N_("does not match any allowed form"))

    def schema(self) -> JsonObject:
        return self._described({"anyOf": [o.schema() for o in self.options]})


class ListOf(Spec):
    def __init__(self, item: Spec, max_items: int = 1000, min_items: int = 0,
                 description: str | None = None) -> None:
        self.item, self.max_items, self.min_items = item, max_items, min_items
        self.description = description

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        if not isinstance(value, list):
            _add(errors, path, N_("must be a list"))
            return
        if len(value) > self.max_items:
            _add(errors, path, N_("has more than {max_items} items", max_items=self.max_items))
            return
        if len(value) < self.min_items:
            _add(errors, path, N_("has fewer than {min_items} items", min_items=self.min_items))
        if depth >= MAX_DEPTH:
            _add(errors, path, N_("nested deeper than {max_depth} levels", max_depth=MAX_DEPTH))
            return
        item = self.item
        for i, v in enumerate(value):
            item.validate(v, f"{path}.{i}", errors, depth + 1)

    def schema(self) -> JsonObject:
        out = {"type": "array", "items": self.item.schema(), "maxItems": self.max_items}
        if self.min_items:
            out["minItems"] = self.min_items
        return self._described(out)


class MapOf(Spec):
    """An object with free keys (ids) whose values share one shape."""

    def __init__(self, value: Spec, max_items: int = 1000, description: str | None = None) -> None:
        self.value, self.max_items, self.description = value, max_items, description

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        if not isinstance(value, dict):
            _add(errors, path, N_("must be an object"))
            return
        if len(value) > self.max_items:
            _add(errors, path, N_("has more than {max_items} entries", max_items=self.max_items))
            return
        if depth >= MAX_DEPTH:
            _add(errors, path, N_("nested deeper than {max_depth} levels", max_depth=MAX_DEPTH))
            return
        for k, v in value.items():
            self.value.validate(v, f"{path}.{k}", errors, depth + 1)

    def schema(self) -> JsonObject:
        return self._described({"type": "object", "additionalProperties": self.value.schema(),
                                "maxProperties": self.max_items})


class Ref(Spec):
    """Checked as ``spec``; documented as a ``$ref`` to the OpenAPI component
    ``name`` (which the document defines: a game's state, an action…)."""

    def __init__(self, name: str, spec: Spec, description: str | None = None) -> None:
        self.name, self.spec, self.description = name, spec, description

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        self.spec.validate(value, path, errors, depth)

    def schema(self) -> JsonObject:
        return {**self._described({}), "$ref": f"#/components/schemas/{self.name}"}


class Default(Spec):
    """An optional field's ``spec`` and the value a loader fills in when it is left out."""

    def __init__(self, spec: Spec, value: Any) -> None:
        self.spec, self.value, self.description = spec, value, spec.description

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        self.spec.validate(value, path, errors, depth)

    def schema(self) -> JsonObject:
        return {"default": self.value, **self.spec.schema()}


class Annotated(Spec):
    """Checked (and compiled) as ``spec``; ``published`` adds the JSON Schema ``keywords``
    beside its own (a ``format``, an ``example``, the known values of an open string): what
    a client of an answer reads, never what a check refuses.

    >>> spec = Annotated(Str(10), format="uri")
    >>> spec.schema(), published(spec)
    ({'type': 'string', 'maxLength': 10}, {'type': 'string', 'format': 'uri'})
    """

    def __init__(self, spec: Spec, description: str | None = None, **keywords: Any) -> None:
        self.spec, self.keywords = spec, keywords
        self.description = description or spec.description

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        self.spec.validate(value, path, errors, depth)

    def schema(self) -> JsonObject:
        out = dict(self.spec.schema())
        out.pop("description", None)
        return self._described(out)


class Obj(Spec):
    """An object with known keys; unknown keys are errors unless ``extra``.

    ``either``: two optional keys of which exactly one must be present; the
    second one's presence requires the keys ``excludes`` absent.  ``name``: the
    ``TypedDict`` that ``service.games.typegen`` writes for it (a state's objects).
    ``order``: the order its members are documented in, where an optional member
    comes before a required one (default: the required, then the optional).
    Its schema is a ``oneOf`` of two whole objects, one per form (``forms``),
    which a client generator reads as a union of two types.

    >>> spec = Obj({}, {"state": Any_(), "view": Any_(), "player": Any_()},
    ...            either=("state", "view"), excludes=("player",))
    >>> field_errors(spec, {"view": {}, "player": 1}), field_errors(spec, {})
    ({'player': ['not with `view`']}, {'state': ['send `state` or `view`: exactly one of them']})
    """

    def __init__(self, required: dict[str, Spec], optional: dict[str, Spec] | None = None,
                 extra: bool = False, description: str | None = None,
                 either: tuple[str, str] | None = None, excludes: tuple[str, ...] = (),
                 name: str | None = None, order: tuple[str, ...] = ()) -> None:
        self.required, self.optional, self.name = required, optional or {}, name
        assert not order or sorted(order) == sorted({**self.required, **self.optional}), order
        self.order = order
        self.extra, self.description = extra, description
        self.either, self.excludes = either, excludes

    def validate(self, value: object, path: str, errors: Errors, depth: int) -> None:
        if not isinstance(value, dict):
            _add(errors, path, N_("must be an object"))
            return
        if depth >= MAX_DEPTH:
            _add(errors, path, N_("nested deeper than {max_depth} levels", max_depth=MAX_DEPTH))
            return
        prefix = f"{path}." if path else ""
        for key, spec in self.required.items():
            if key not in value:
                _add(errors, prefix + key, N_("missing required field"))
            else:
                spec.validate(value[key], prefix + key, errors, depth + 1)
        for key, spec in self.optional.items():
            if key in value:
                spec.validate(value[key], prefix + key, errors, depth + 1)
        if not self.extra:
            for key in value:
                if key not in self.required and key not in self.optional:
                    _add(errors, prefix + str(key), N_("unknown field"))
        if self.either is not None:
            first, second = self.either
            if (first in value) == (second in value):
                _add(errors, prefix + first, N_("send `{first}` or `{second}`: exactly one of "
                                                "them", first=first, second=second))
            elif second in value:
                for key in self.excludes:
                    if key in value:
                        _add(errors, prefix + key, N_("not with `{second}`", second=second))

    def schema(self) -> JsonObject:
        if self.either is not None:
            return self._described({"oneOf": self.forms()})
        return self._described(self._object(self.required, self.optional))

    def members(self) -> dict[str, Spec]:
        """Every member, in its documented order (``order``)."""
        both = {**self.required, **self.optional}
        return {k: both[k] for k in self.order} if self.order else both

    def _object(self, required: dict[str, Spec], optional: dict[str, Spec]) -> JsonObject:
        both = {**required, **optional}
        keys = [k for k in self.order if k in both] if self.order else list(both)
        props = {k: both[k].schema() for k in keys}
        out: dict[str, Any] = {"type": "object", "properties": props,
                               "additionalProperties": self.extra}
        if required:
            out["required"] = list(required)
        return out

    def forms(self) -> list[JsonObject]:
        """With ``either``: the object with the first key (and not the second), and
        the object with the second (and neither the first nor ``excludes``)."""
        assert self.either is not None
        first, second = self.either
        out = []
        for present, absent in ((first, (second,)), (second, (first, *self.excludes))):
            optional = {k: s for k, s in self.optional.items() if k != present and k not in absent}
            out.append(self._object({**self.required, present: self.optional[present]}, optional))
        return out




def field_errors(spec: Spec, value: object, path: str = "") -> Errors:
    """Every error of ``value`` against ``spec``, keyed by field path (a 400's ``errors``).

    A valid value costs one call of the compiled schema (``compiled``: no
    paths, no messages).  A refused one has its integral floats made ``int``
    in place (``integral``; JSON Schema's ``1.0`` is ``1``), and is checked
    again; ``validate`` runs only to name what is still wrong.  A spec is
    compiled on its ``COMPILE_AFTER``-th check (compiling costs up to a
    millisecond): a spec built for one call never pays it.
    """
    fast = spec.__dict__.get("_compiled")
    if fast is None:
        spec._checks = seen = spec.__dict__.get("_checks", 0) + 1
        if seen >= COMPILE_AFTER:
            fast = compiled(spec)
    if fast is not None and fast(value):
        return {}
    if integral(value) and fast is not None and fast(value):
        return {}
    errors: Errors = {}
    spec.validate(value, path, errors, 0)
    return errors


#: a float past this is no exact integer (orjson reads a literal past 64 bits as a float)
MAX_EXACT_FLOAT = 2 ** 53


def first_difference(a: object, b: object, path: str) -> str:
    """The path of the first place where two unequal JSON values differ.

    >>> first_difference({"x": [1, 2]}, {"x": [1, 3]}, "view")
    'view.x.1'
    """
    if isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys():
        key = next(k for k in a if a[k] != b[k])
        return first_difference(a[key], b[key], f"{path}.{key}")
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        i = next(i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y)
        return first_difference(a[i], b[i], f"{path}.{i}")
    return path


def integral(value: Any, depth: int = 0) -> bool:
    """Make every integral float inside ``value`` (a dict or a list) an ``int``, in place;
    ``True`` if any was.  A float past ``MAX_EXACT_FLOAT`` stays (no integer takes it).
    Nothing deeper than ``MAX_DEPTH`` levels is visited: ``validate`` refuses it
    anyway, and a body nested a thousand levels (orjson reads 1,024) would
    otherwise exhaust Python's recursion limit (a 500, issue 24).

    >>> body = {"players": 2.0, "odds": [0.5, -0.0, 1e23], "n": 3}
    >>> integral(body), body
    (True, {'players': 2, 'odds': [0.5, 0, 1e+23], 'n': 3})
    >>> deep = [1.0]
    >>> for _ in range(1020):
    ...     deep = [deep]
    >>> integral({"players": deep})
    False
    """
    if depth > MAX_DEPTH:
        return False
    changed = False
    items = value.items() if isinstance(value, dict) else enumerate(value) \
        if isinstance(value, list) else ()
    for key, item in items:
        if type(item) is float:
            if item.is_integer() and abs(item) <= MAX_EXACT_FLOAT:
                value[key] = int(item)
                changed = True
        elif isinstance(item, (dict, list)):
            changed = integral(item, depth + 1) or changed
    return changed


#: checks of one spec before it is compiled (see ``field_errors``)
COMPILE_AFTER = 3


def compiled(spec: Spec) -> Callable[[object], bool]:
    """The spec's JSON Schema compiled by jsonschema-rs: its ``is_valid``, cached
    on the spec (specs are not changed after construction).  Compiled as Draft 4
    (every keyword the specs export is in it), whose ``integer`` is strict:
    ``1.0`` is refused here and made ``1`` by ``field_errors``.

    >>> fast = compiled(Obj({"n": Int(minimum=1)}, {"tags": ListOf(Str(max_length=3))}))
    >>> fast({"n": 1, "tags": ["a"]}), fast({"n": 1, "tags": ["long"]}), fast({"n": 1, "x": 0})
    (True, False, False)
    """
    fast = spec.__dict__.get("_compiled")
    if fast is None:
        if _deeper_than(spec, MAX_DEPTH):
            def fast(value: object) -> bool:
                errors: Errors = {}
                spec.validate(value, "", errors, 0)
                return not errors
        else:
            schema = spec.schema()
            pointed = {r.name: r.spec.schema() for r in refs(spec)}
            if pointed:  # where a document's ``$ref`` points: the checked spec
                schema["components"] = {"schemas": pointed}
            fast = jsonschema_rs.Draft4Validator(schema).is_valid
        spec._compiled = fast
    return fast


def _inside(spec: Spec) -> tuple[list[Spec], list[Spec]]:
    """(specs at the same level, specs one level down) of ``spec``."""
    if isinstance(spec, Nullable):
        return [spec.inner], []
    if isinstance(spec, OneOf):
        return list(spec.options), []
    if isinstance(spec, (Ref, Default, Annotated)):
        return [spec.spec], []
    if isinstance(spec, ListOf):
        return [], [spec.item]
    if isinstance(spec, MapOf):
        return [], [spec.value]
    if isinstance(spec, Obj):
        return [], [*spec.required.values(), *spec.optional.values()]
    return [], []


def refs(spec: Spec) -> list[Ref]:
    """Every ``Ref`` inside ``spec``, the first found first: the components its schema
    points to."""
    return [r for r in _walk(spec) if isinstance(r, Ref)]


def _deeper_than(spec: Spec, levels: int) -> bool:
    if levels < 0:
        return True
    same, below = spec.inside()
    return any(_deeper_than(s, levels) for s in same) or \
        any(_deeper_than(s, levels - 1) for s in below)


def _walk(spec: Spec) -> Iterator[Spec]:
    """``spec`` and every spec inside it."""
    yield spec
    same, below = spec.inside()
    for part in same + below:
        yield from _walk(part)


# ------------------------------------------------------------------ the published spelling
def published(spec: Spec, closed: bool = False, limits: bool = False) -> JsonObject:
    """``spec``'s JSON Schema in the spelling ``openapi.yaml`` has given the answers (and
    the requests of ``/tournaments/standings`` and Kozyablo's deck) since 1.0.0, so that
    the contract and every client generated from it stay as they are: ``type`` first
    (``["string", "null"]`` for a nullable scalar), then bounds, ``description``, and the
    structure (``items``, ``properties``, ``required`` sorted).  ``schema`` stays the
    spelling that is compiled and checked; both say the same of every value.

    ``closed``: an object without ``extra`` says ``additionalProperties: false`` (else
    nothing: an answer may gain members).  ``limits``: upper bounds are documented; an
    answer's are not (they bind what is read, not what the service writes), but for an
    exact length (``min_items == max_items``), which is the answer's shape.

    >>> published(Obj({"n": Nullable(Int())}, {"tags": ListOf(Str(), description="Tags.")}))
    {'type': 'object', 'properties': {'n': {'type': ['integer', 'null']}, \
'tags': {'type': 'array', 'description': 'Tags.', 'items': {'type': 'string'}}}, 'required': ['n']}
    >>> published(Obj({"id": Str(64)}), closed=True, limits=True)
    {'type': 'object', 'properties': {'id': {'type': 'string', 'maxLength': 64}}, \
'required': ['id'], 'additionalProperties': False}
    """
    if isinstance(spec, Spelled):
        return spec.schema()
    head, tail = _published(spec, closed, limits)
    described = {"description": spec.description} if spec.description else {}
    return {**head, **described, **tail}


def _published(spec: Spec, closed: bool, limits: bool) -> tuple[JsonObject, JsonObject]:
    """(what comes before the description, what comes after it) of ``published``."""
    def whole(part: Spec) -> JsonObject:
        return published(part, closed, limits)

    if isinstance(spec, Annotated):
        head, tail = _published(spec.spec, closed, limits)
        return {**head, **spec.keywords}, tail
    if isinstance(spec, Ref):
        return {}, {"$ref": f"#/components/schemas/{spec.name}"}
    if isinstance(spec, Default):
        head, tail = _published(spec.spec, closed, limits)
        first = dict(list(head.items())[:1])
        return {**first, "default": spec.value, **head}, tail
    if isinstance(spec, Nullable):
        head, tail = _published(spec.inner, closed, limits)
        kind = head.get("type")
        if kind is not None and "$ref" not in tail:
            head["type"] = [*(kind if isinstance(kind, list) else [kind]), "null"]
            return head, tail
        return {}, {"anyOf": [{**head, **tail}, {"type": "null"}]}
    if isinstance(spec, OneOf):  # a form that is an enum: its values say their type
        forms = [{"enum": list(o.values)} if isinstance(o, Enum) else whole(o)
                 for o in spec.options]
        if all(list(form) == ["type"] for form in forms):  # scalars: one list of types
            return {"type": [t for form in forms for t in (
                form["type"] if isinstance(form["type"], list) else [form["type"]])]}, {}
        return {}, {"anyOf": forms}
    if isinstance(spec, Enum):
        typed = {"type": "string"} if all(isinstance(v, str) for v in spec.values) else {}
        return {**typed, "enum": list(spec.values)}, {}
    if isinstance(spec, Bool):
        return {"type": "boolean"}, {}
    if isinstance(spec, Num):
        bounds = {k: v for k, v in (("minimum", spec.minimum), ("maximum", spec.maximum))
                  if v is not None}
        return {"type": spec.json_type, **bounds}, {}
    if isinstance(spec, Str):
        return {"type": "string", **({"minLength": 1} if spec.non_empty else {}),
                **({"maxLength": spec.max_length} if limits else {})}, {}
    if isinstance(spec, ListOf):
        bounds = {"minItems": spec.min_items} if spec.min_items else {}
        if limits:
            return {"type": "array", **bounds, "maxItems": spec.max_items}, \
                {"items": whole(spec.item)}
        exact = {**bounds, "maxItems": spec.max_items} if spec.min_items == spec.max_items \
            else bounds  # an answer's exact length is its shape, said with its items
        return {"type": "array"}, {**exact, "items": whole(spec.item)}
    if isinstance(spec, MapOf):
        return {"type": "object", **({"maxProperties": spec.max_items} if limits else {})}, \
            {"additionalProperties": whole(spec.value)}
    if isinstance(spec, Obj):
        if spec.either is not None:
            raise ValueError("published: an object with `either` has two forms (Obj.forms)")
        members: JsonObject = {}
        fields = spec.members()
        if fields:
            members["properties"] = {k: whole(s) for k, s in fields.items()}
        if spec.required:
            members["required"] = sorted(spec.required)
        if spec.extra and fields:
            members["additionalProperties"] = True
        elif not spec.extra and closed:
            members["additionalProperties"] = False
        return {"type": "object"}, members
    if isinstance(spec, Any_):
        return {}, {}
    if isinstance(spec, Spelled):
        own = dict(spec.schema())
        own.pop("description", None)
        return own, {}
    raise TypeError(f"published: no spelling for {type(spec).__name__}")
