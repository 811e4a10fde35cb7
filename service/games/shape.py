"""A tiny declarative shape language for JSON states and actions.

Each game declares the shape of its state and actions once with these specs.
The same declaration

* checks incoming JSON fast (a few µs for a typical state — a marshmallow
  ``load`` of the same state costs about 1 ms, too much for the hot path),
  collecting every problem with its field path; and
* exports a JSON Schema for ``openapi.yaml``, so the documented shape and the
  enforced shape cannot drift apart.

>>> spec = Obj({"turn": Int(minimum=1), "hand": ListOf(Str())})
>>> check(spec, {"turn": 0, "hand": ["a", 3]}, "state")
{'state.turn': ['must be at least 1'], 'state.hand.1': ['must be a string']}
>>> check(spec, {"turn": 1, "hand": []}, "state")
{}
"""

from __future__ import annotations

from typing import Any

from service.games.messages import N_

Errors = dict[str, list[str]]
MAX_DEPTH = 32


def _add(errors: Errors, path: str, message: str) -> None:
    errors.setdefault(path, []).append(message)


class Spec:
    """Base class: ``validate`` appends to ``errors``; ``schema`` is JSON Schema.

    ``ok(value, depth)`` is the fast path of ``check``: ``True`` exactly when
    ``validate`` would add no error, found without building any field path
    or message (a valid state is the common case on the hot path).  A spec
    without its own ``ok`` falls back to ``validate``.
    """

    description: str | None = None

    def validate(self, value: Any, path: str, errors: Errors, depth: int) -> None:
        raise NotImplementedError

    def ok(self, value: Any, depth: int) -> bool:
        errors: Errors = {}
        self.validate(value, "", errors, depth)
        return not errors

    def schema(self) -> dict:
        raise NotImplementedError

    def _described(self, schema: dict) -> dict:
        if self.description:
            schema["description"] = self.description
        return schema


class Any_(Spec):
    def __init__(self, description: str | None = None):
        self.description = description

    def validate(self, value, path, errors, depth):
        if depth > MAX_DEPTH:
            _add(errors, path, N_("nested deeper than {max_depth} levels", max_depth=MAX_DEPTH))

    def ok(self, value, depth):
        return depth <= MAX_DEPTH

    def schema(self):
        return self._described({})


class Bool(Spec):
    def __init__(self, description: str | None = None):
        self.description = description

    def validate(self, value, path, errors, depth):
        if not isinstance(value, bool):
            _add(errors, path, N_("must be a boolean"))

    def ok(self, value, depth):
        return isinstance(value, bool)

    def schema(self):
        return self._described({"type": "boolean"})


class Int(Spec):
    def __init__(self, minimum: int | None = None, maximum: int | None = None,
                 description: str | None = None):
        self.minimum, self.maximum, self.description = minimum, maximum, description

    def validate(self, value, path, errors, depth):
        if not isinstance(value, int) or isinstance(value, bool):
            _add(errors, path, N_("must be an integer"))
        elif self.minimum is not None and value < self.minimum:
            _add(errors, path, N_("must be at least {minimum}", minimum=self.minimum))
        elif self.maximum is not None and value > self.maximum:
            _add(errors, path, N_("must be at most {maximum}", maximum=self.maximum))

    def ok(self, value, depth):
        return (isinstance(value, int) and not isinstance(value, bool)
                and (self.minimum is None or value >= self.minimum)
                and (self.maximum is None or value <= self.maximum))

    def schema(self):
        out = {"type": "integer"}
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return self._described(out)


class Str(Spec):
    def __init__(self, max_length: int = 200, description: str | None = None):
        self.max_length, self.description = max_length, description

    def validate(self, value, path, errors, depth):
        if not isinstance(value, str):
            _add(errors, path, N_("must be a string"))
        elif len(value) > self.max_length:
            _add(errors, path, N_("longer than {max_length} characters",
                                  max_length=self.max_length))

    def ok(self, value, depth):
        return isinstance(value, str) and len(value) <= self.max_length

    def schema(self):
        return self._described({"type": "string", "maxLength": self.max_length})


class Enum(Spec):
    def __init__(self, *values, description: str | None = None):
        self.values, self.description = values, description

    def validate(self, value, path, errors, depth):
        if isinstance(value, (dict, list)) or not any(
                value == v and type(value) is type(v) for v in self.values):
            _add(errors, path, N_("must be one of {items}", items=", ".join(map(str, self.values))))

    def ok(self, value, depth):
        return not isinstance(value, (dict, list)) and any(
            value == v and type(value) is type(v) for v in self.values)

    def schema(self):
        return self._described({"enum": list(self.values)})


class Nullable(Spec):
    def __init__(self, inner: Spec, description: str | None = None):
        self.inner, self.description = inner, description or inner.description

    def validate(self, value, path, errors, depth):
        if value is not None:
            self.inner.validate(value, path, errors, depth)

    def ok(self, value, depth):
        return value is None or self.inner.ok(value, depth)

    def schema(self):
        inner = dict(self.inner.schema())
        inner.pop("description", None)
        return self._described({"anyOf": [inner, {"type": "null"}]})


class OneOf(Spec):
    """The value must match at least one of ``options`` (tried in order)."""

    def __init__(self, *options: Spec, description: str | None = None):
        self.options, self.description = options, description

    def validate(self, value, path, errors, depth):
        for option in self.options:
            trial: Errors = {}
            option.validate(value, path, trial, depth)
            if not trial:
                return
        _add(errors, path, N_("does not match any allowed form"))

    def ok(self, value, depth):
        return any(option.ok(value, depth) for option in self.options)

    def schema(self):
        return self._described({"anyOf": [o.schema() for o in self.options]})


class ListOf(Spec):
    def __init__(self, item: Spec, max_items: int = 1000, min_items: int = 0,
                 description: str | None = None):
        self.item, self.max_items, self.min_items = item, max_items, min_items
        self.description = description

    def validate(self, value, path, errors, depth):
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

    def ok(self, value, depth):
        if not isinstance(value, list) or not self.min_items <= len(value) <= self.max_items \
                or depth >= MAX_DEPTH:
            return False
        item = self.item
        if type(item) is Str:  # the commonest list (card ids): no call per item
            longest = item.max_length
            for v in value:
                if not isinstance(v, str) or len(v) > longest:
                    return False
            return True
        ok, depth = item.ok, depth + 1
        for v in value:
            if not ok(v, depth):
                return False
        return True

    def schema(self):
        out = {"type": "array", "items": self.item.schema(), "maxItems": self.max_items}
        if self.min_items:
            out["minItems"] = self.min_items
        return self._described(out)


class MapOf(Spec):
    """An object with free keys (ids) whose values share one shape."""

    def __init__(self, value: Spec, max_items: int = 1000, description: str | None = None):
        self.value, self.max_items, self.description = value, max_items, description

    def validate(self, value, path, errors, depth):
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

    def ok(self, value, depth):
        if not isinstance(value, dict) or len(value) > self.max_items or depth >= MAX_DEPTH:
            return False
        ok, depth = self.value.ok, depth + 1
        for v in value.values():
            if not ok(v, depth):
                return False
        return True

    def schema(self):
        return self._described({"type": "object", "additionalProperties": self.value.schema(),
                                "maxProperties": self.max_items})


class Obj(Spec):
    """An object with known keys; unknown keys are errors unless ``extra``."""

    def __init__(self, required: dict[str, Spec], optional: dict[str, Spec] | None = None,
                 extra: bool = False, description: str | None = None):
        self.required, self.optional = required, optional or {}
        self.extra, self.description = extra, description
        self._allowed = frozenset(self.required) | frozenset(self.optional)

    def validate(self, value, path, errors, depth):
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

    def ok(self, value, depth):
        if not isinstance(value, dict) or depth >= MAX_DEPTH:
            return False
        if not self.extra and not self._allowed.issuperset(value):
            return False
        depth += 1
        for key, spec in self.required.items():
            if key not in value or not spec.ok(value[key], depth):
                return False
        for key, spec in self.optional.items():
            if key in value and not spec.ok(value[key], depth):
                return False
        return True

    def schema(self):
        props = {k: s.schema() for k, s in {**self.required, **self.optional}.items()}
        out = {"type": "object", "properties": props,
               "additionalProperties": self.extra}
        if self.required:
            out["required"] = list(self.required)
        return self._described(out)


def check(spec: Spec, value: Any, path: str = "") -> Errors:
    """Every problem of ``value`` against ``spec``, keyed by field path.

    A valid value costs one call of the spec's compiled check (``compiled``:
    no paths, no messages); the detailed pass runs only to name what is wrong.
    A spec is compiled on its ``COMPILE_AFTER``-th check (compiling costs a
    few hundred µs): a spec built for one call never pays it.
    """
    fast = spec.__dict__.get("_compiled")
    if fast is None:
        spec._checks = seen = spec.__dict__.get("_checks", 0) + 1
        if seen >= COMPILE_AFTER:
            fast = compiled(spec)
    if fast(value) if fast is not None else spec.ok(value, 0):
        return {}
    errors: Errors = {}
    spec.validate(value, path, errors, 0)
    return errors


_MISSING = object()
#: checks of one spec before it is compiled (see ``check``)
COMPILE_AFTER = 3


def compiled(spec: Spec):
    """``spec.ok(value, 0)`` as one generated function, cached on the spec.

    The spec tree becomes straight-line Python (``isinstance`` tests, bounds,
    one ``for`` loop per list or map), so checking a valid state makes no
    call per field.  It answers exactly as ``ok`` does; a spec it cannot
    inline (``OneOf``, a game's own ``Spec`` subclass) is called through its
    ``ok``.  Specs are not changed after construction (the cache relies on it).

    >>> fast = compiled(Obj({"n": Int(minimum=1)}, {"tags": ListOf(Str(max_length=3))}))
    >>> fast({"n": 1, "tags": ["a"]}), fast({"n": 1, "tags": ["long"]}), fast({"n": 1, "x": 0})
    (True, False, False)
    """
    consts: dict[str, Any] = {"_MISSING": _MISSING}
    lines = ["def _fast(v0):"]
    names = iter(range(1, 1 << 30))

    def const(value) -> str:
        name = f"_k{len(consts)}"
        consts[name] = value
        return name

    def emit(sp: Spec, var: str, depth: int, ind: int) -> None:
        pad = "    " * ind
        kind = type(sp)
        if kind is Any_:
            if depth > MAX_DEPTH:
                lines.append(f"{pad}return False")
        elif kind is Bool:
            lines.append(f"{pad}if not isinstance({var}, bool): return False")
        elif kind is Int:
            cond = f"not isinstance({var}, int) or isinstance({var}, bool)"
            if sp.minimum is not None:
                cond += f" or {var} < {sp.minimum!r}"
            if sp.maximum is not None:
                cond += f" or {var} > {sp.maximum!r}"
            lines.append(f"{pad}if {cond}: return False")
        elif kind is Str:
            lines.append(f"{pad}if not isinstance({var}, str) or len({var}) > {sp.max_length!r}: "
                         "return False")
        elif kind is Enum and sp.values and all(type(x) is str for x in sp.values):
            lines.append(f"{pad}if type({var}) is not str or {var} not in "
                         f"{const(frozenset(sp.values))}: return False")
        elif kind is Nullable:
            lines.append(f"{pad}if {var} is not None:")
            lines.append(f"{pad}    pass")
            emit(sp.inner, var, depth, ind + 1)
        elif kind in (ListOf, MapOf, Obj) and depth >= MAX_DEPTH:
            lines.append(f"{pad}return False")  # every value gets an error there
        elif kind is ListOf:
            lines.append(f"{pad}if not isinstance({var}, list) or not "
                         f"{sp.min_items!r} <= len({var}) <= {sp.max_items!r}: return False")
            item = f"v{next(names)}"
            lines.append(f"{pad}for {item} in {var}:")
            lines.append(f"{pad}    pass")
            emit(sp.item, item, depth + 1, ind + 1)
        elif kind is MapOf:
            lines.append(f"{pad}if not isinstance({var}, dict) or len({var}) > {sp.max_items!r}: "
                         "return False")
            item = f"v{next(names)}"
            lines.append(f"{pad}for {item} in {var}.values():")
            lines.append(f"{pad}    pass")
            emit(sp.value, item, depth + 1, ind + 1)
        elif kind is Obj:
            lines.append(f"{pad}if not isinstance({var}, dict): return False")
            if not sp.extra:
                lines.append(f"{pad}if not {const(sp._allowed)}.issuperset({var}): return False")
            for key, field in sp.required.items():
                item = f"v{next(names)}"
                lines.append(f"{pad}{item} = {var}.get({const(key)}, _MISSING)")
                lines.append(f"{pad}if {item} is _MISSING: return False")
                emit(field, item, depth + 1, ind)
            for key, field in sp.optional.items():
                item = f"v{next(names)}"
                lines.append(f"{pad}{item} = {var}.get({const(key)}, _MISSING)")
                lines.append(f"{pad}if {item} is not _MISSING:")
                lines.append(f"{pad}    pass")
                emit(field, item, depth + 1, ind + 1)
        else:  # OneOf, Enum of mixed values, a game's own Spec subclass
            lines.append(f"{pad}if not {const(sp)}.ok({var}, {depth}): return False")

    try:
        emit(spec, "v0", 0, 1)
        lines.append("    return True")
        namespace = dict(consts)
        exec(compile("\n".join(lines), f"<shape check of {type(spec).__name__}>", "exec"),
             namespace)
        fast = namespace["_fast"]
    except (SyntaxError, RecursionError, MemoryError):  # too deeply nested to inline
        def fast(value, _ok=spec.ok):
            return _ok(value, 0)
    spec._compiled = fast
    return fast
