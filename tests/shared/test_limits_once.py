"""Every limit is defined once, in ``service/limits.py`` (issue 37 item 3): a value of that
module written again as a literal where a bound is declared fails here.

Read from the source (AST) of the service's packages: the places a bound is written are a
shape's or marshmallow's keyword (``max_items=``, ``maximum=``, ``max=``…), a positional
bound of ``Int``/``Num``/``Str``, a hand-written JSON Schema keyword (``"maxItems": …``) and
a module-level ``MAX_…``/``MIN_…`` name.  Tests may write the numbers (a black-box test pins
the documented value); ``ALLOWED`` lists each other literal that equals a limit without
being it, and why.
"""

from __future__ import annotations

import ast
import operator
import pathlib
from collections.abc import Iterator
from typing import Any

from service import limits

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("service", "schemas", "card_db", "workers", "bench")
LIMITS_FILE = "service/limits.py"
#: keywords that declare a bound: shape specs, marshmallow's validators, a playout's budget
BOUND_KEYWORDS = {"max_items", "min_items", "maximum", "minimum", "max_length", "min_length",
                  "max", "min", "equal", "max_steps"}
#: JSON Schema keywords written by hand (``service/openapi.py``, ``schemas/``)
SCHEMA_KEYWORDS = {"maxItems", "minItems", "maximum", "minimum", "maxLength", "minLength"}
#: specs whose positional arguments are bounds (``shape.Int(0, 15)``, ``shape.Str(64)``)
BOUNDED_SPECS = {"Int", "Num", "Str"}
#: too common to be a copy of a limit: none, one, a pair (a non-empty list, two players)
TRIVIAL = {0, 1, 2}
#: a card-data file's format (marshmallow, ``card_db``): its ranges are the card files' own
CARD_DATA = "card_schema.py"
#: (file, value): why the literal there is not the limit of that value.  Most are a game's
#: own rule sizes, which stay in its package (``service.limits``' docstring).
ALLOWED: dict[tuple[str, float], str] = {
    ("service/games/kozyablo/shapes.py", 9): "a lasting effect's turns, a trigger's index",
    ("service/games/kozyablo/shapes.py", 10): "a Kozyablo deck's sector cards",
    ("service/games/kozyablo/shapes.py", 16): "sectors on the table, not seats",
    ("service/games/kozyablo/shapes.py", 60): "a combat's or an effect's lists of cards",
    ("service/games/kozyablo/shapes.py", 64): "Kozyablo's card id length and pile sizes",
    ("service/games/kozyablo/shapes.py", 100): "a Kozyablo deck's cards, not a name",
    ("service/games/kozyablo/shapes.py", 120): "Kozyablo's units on the table, not seconds",
    ("service/games/kozyablo/views.py", 64): "a Kozyablo pile's count in a view",
    ("service/games/kozyablo/views.py", 120): "Kozyablo's units in a view",
    ("service/games/kozyablo/actions.py", 16): "an ability's name in Kozyablo's card data",
    ("service/games/kozyablo/actions.py", 30): "creatures moved at once, not rounds",
    ("service/games/tremble/shapes.py", 60): "a Tremble army's choices",
    ("service/games/tremble/shapes.py", 120): "Tremble's card piles, not seconds",
    ("service/games/raiders/shapes.py", 1000): "a Raiders power modifier, not a turn limit",
    ("service/games/tremble/evaluations/battle_odds.py", 1000): "a Tremble side's strength",
    ("schemas/tournaments.py", 100): "an /events answer's setup ids (32 hex), not a name",
    ("service/rules_reference.py", 60): "a rules clause's title length, not a job timeout",
    ("workers/supervise.py", 10): "seconds between worker restarts, not widening",
    ("bench/report.py", 50): "a bench target in microseconds, not error paths",
    ("bench/engine_steps.py", 20_000): "a bench target in playout steps per second",
}
_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.FloorDiv: operator.floordiv}


def constant(node: ast.AST) -> float | None:
    """A number written as a literal expression (``20_000``, ``(1 << 53) - 1``, ``-5``).

    >>> constant(ast.parse("(1 << 53) - 1", mode="eval").body), constant(ast.parse("n + 1", mode="eval").body)
    (9007199254740991, None)
    """
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value  # type: ignore[no-any-return]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = constant(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = constant(node.left), constant(node.right)
        if left is not None and right is not None:
            return _BINARY[type(node.op)](left, right)  # type: ignore[no-any-return]
    return None


def bounds_written(tree: ast.AST) -> Iterator[tuple[int, float, str]]:
    """(line, value, where) of each number written where a bound is declared."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else \
                getattr(node.func, "id", "")
            for kw in node.keywords:
                if kw.arg in BOUND_KEYWORDS and (value := constant(kw.value)) is not None:
                    yield node.lineno, value, f"{name}({kw.arg}=…)"
            if name in BOUNDED_SPECS:
                for arg in node.args:
                    if (value := constant(arg)) is not None:
                        yield node.lineno, value, f"{name}(…)"
        elif isinstance(node, ast.Dict):
            for key, item in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value in SCHEMA_KEYWORDS \
                        and (value := constant(item)) is not None:
                    yield key.lineno, value, f'"{key.value}"'
    for node in getattr(tree, "body", []):
        if isinstance(node, ast.Assign) and (value := constant(node.value)) is not None:
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id.startswith(("MAX_", "MIN_")):
                    yield node.lineno, value, target.id


def limit_values() -> dict[float, list[str]]:
    """The values of ``service.limits``, each with the names that hold it."""
    out: dict[float, list[str]] = {}
    for name, value in vars(limits).items():
        if name.isupper() and type(value) in (int, float):
            out.setdefault(value, []).append(name)
    return out


def repeated(sources: dict[str, str]) -> list[str]:
    """``path:line`` of each limit written again outside ``service/limits.py``."""
    values = limit_values()
    found = []
    for path, text in sorted(sources.items()):
        if path == LIMITS_FILE:
            continue
        for line, value, where in bounds_written(ast.parse(text, path)):
            if value in values and value not in TRIVIAL and (path, value) not in ALLOWED:
                found.append(f"{path}:{line}: {where} writes {value!r}, which is "
                             f"{' or '.join(values[value])}: import it from service.limits")
    return found


def _sources() -> dict[str, str]:
    return {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8")
            for package in PACKAGES for p in (ROOT / package).rglob("*.py")
            # state_types.py: written from the shapes, never edited
            if p.name not in ("state_types.py", CARD_DATA)}


def test_every_limit_is_written_once():
    found = repeated(_sources())
    assert not found, "\n".join(found)


def test_every_allowed_literal_is_still_there():
    """An exception outlives no reason: each allowed literal is still written in its file."""
    sources = _sources()
    written = {(path, value) for path, text in sources.items()
               for _, value, _ in bounds_written(ast.parse(text, path))}
    assert not set(ALLOWED) - written, sorted(set(ALLOWED) - written)


def test_the_check_sees_a_limit_written_again():
    """No rubber stamp: the copies this issue removed are each found."""
    found = repeated({
        "schemas/x.py": 'A = shape.ListOf(ACTION, max_items=20_000)\nMAX_SEATS = 16\n',
        "service/x.py": 'S = {"type": "string", "maxLength": 1 << 20}\nT = shape.Int(0, 15)\n'
                        'F = fields.List(X, validate=validate.Length(max=20_000))\n',
        LIMITS_FILE: "MAX_SEATS = 16\n"})
    assert [f.split(": ")[0] for f in found] == [
        "schemas/x.py:1", "schemas/x.py:2", "service/x.py:1", "service/x.py:2", "service/x.py:3"]
    assert "MAX_REPLAY_ACTIONS" in found[0] and "MAX_SEAT" in found[3]


def test_limits_imports_nothing_of_the_service():
    """The bottom layer: games, schemas, http and evaluations import it, it imports none."""
    tree = ast.parse((ROOT / LIMITS_FILE).read_text(encoding="utf-8"))
    imported: list[Any] = [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert all(isinstance(n, ast.ImportFrom) and n.module == "__future__" for n in imported)
