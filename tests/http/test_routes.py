"""One declaration per operation (docs/architecture.md): every Flask rule of the app is a
``Route`` record of its blueprint, the document is built from those records only, and a
blueprint builds no document part itself.  The AST checks read the source, so a lazy
import inside a function counts as much as one at the top.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

from service.http import blueprints
from service.http.route import GAME, Route, Routes, Success
from service.openapi import operation, spec_dict

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODULES = sorted(m.__name__ for m in blueprints.MODULES)
#: what building the document looks like: apispec, the spec module, its calls
SPEC_NAMES = {"apispec", "service.openapi"}
SPEC_CALLS = {"path", "schema", "response", "parameter"}  # spec.path(…), spec.components.…(…)


def _source(module: str) -> ast.Module:
    path = ROOT / (module.replace(".", "/") + ".py")
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _imports(tree: ast.Module) -> set[str]:
    """Every module a source imports, at any depth (``from a import b``: ``a`` and ``a.b``)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def builds_spec(tree: ast.Module) -> list[str]:
    """Where a source builds document parts: an import of the spec module or apispec, a
    ``spec.path`` / ``spec.components.schema`` call, a route added by ``bp.get``/``post``
    (a route that is no ``Route`` record)."""
    found = [f"imports {name}" for name in sorted(_imports(tree))
             if any(name == s or name.startswith(s + ".") for s in SPEC_NAMES)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if node.func.attr in SPEC_CALLS and name in ("spec", "components"):
                found.append(f"line {node.lineno}: {ast.unparse(node.func)}(…)")
            if node.func.attr in ("get", "post", "delete", "put", "route", "add_url_rule") \
                    and name == "bp":
                found.append(f"line {node.lineno}: bp.{node.func.attr}(…), not a Route")
    return found


@pytest.mark.parametrize("module", MODULES)
def test_a_blueprint_declares_its_routes_and_builds_no_document(module):
    found = builds_spec(_source(module))
    assert not found, (f"{module}: {'; '.join(found)}: declare each route once, with "
                       "`bp.declare(...)` (service.http.route), and let service.openapi "
                       "document it")


def test_the_checks_see_a_blueprint_that_documents_itself():
    """The AST checks are not no-ops: what the blueprints once did is found."""
    tree = ast.parse("def document(spec):\n    from service.openapi import ok\n"
                     "    spec.components.schema('X', {})\n    spec.path('/x', operations={})\n"
                     "@bp.post('/y')\ndef y(): pass\n")
    assert len(builds_spec(tree)) == 5


def test_every_rule_of_the_app_is_a_declared_route(api):
    """Flask's rules and the records are one list: nothing routed that is not declared."""
    declared = {(r.rule, r.method.upper()) for r in blueprints.routes()}
    served = {(rule.rule, method) for rule in api.app.url_map.iter_rules()
              for method in rule.methods - {"HEAD", "OPTIONS"}}
    assert served == declared


def test_every_route_is_documented_as_declared():
    """Each record is its operation in the document: path, method, operationId, every
    status it declares (and the typed twins of the contract's routes are each game's)."""
    doc = spec_dict()
    for route in blueprints.routes():
        documented = doc["paths"][route.path][route.method]
        assert documented["operationId"] == route.operation_id
        assert set(documented["responses"]) >= {str(s) for s in (*route.answers, *route.errors)}
    for route in (r for r in blueprints.routes() if r.contract is not None):
        for game in ("raiders", "kozyablo", "tremble"):
            typed = doc["paths"][route.path.replace("{game}", game)]["post"]
            assert typed["tags"] == [game]


def test_a_new_route_is_one_record():
    """What adding an operation takes: a record; the document's operation comes from it."""
    bp = Routes("probe", __name__)

    @bp.declare("post", "/v1/games/{game}/echo-state", operation_id="game_echo_state",
                summary="Echo", tags=("games",), parameters=(GAME,), request="ScoreRequest",
                answers={200: Success("The state.", schema="Outcome")}, errors=(400, 404))
    def echo(game_id: str) -> str:
        return game_id

    [route] = bp.routes
    assert isinstance(route, Route) and route.rule == "/v1/games/<game_id>/echo-state"
    documented = operation(route)
    assert documented["operationId"] == "game_echo_state"
    assert list(documented["responses"]) == ["200", "400", "404"]
    assert documented["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ScoreRequest"}


def test_the_cacheable_routes_are_the_declared_ones(api):
    """``Route.cacheable`` is the one list: the middleware tags those answers, the document
    says so (``ETag``), and no other GET carries an ``ETag``."""
    doc = spec_dict()
    for route in blueprints.routes():
        if route.method != "get":
            continue
        headers = doc["paths"][route.path]["get"]["responses"]["200"].get("headers", {})
        assert ("ETag" in headers) == route.cacheable, route.path
    assert api.get("/v1/games").headers.get("ETag")
    assert api.get("/healthz").headers.get("ETag") is None
