"""The HTTP layer's map (docs/architecture.md): the blueprints only route, and one
module, ``service.openapi``, builds the document from the declarations without
importing a blueprint.  Read from the source (AST), so a lazy import inside a
function counts as much as one at the top.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

from service import app as app_module

ROOT = pathlib.Path(__file__).resolve().parents[2]
BLUEPRINTS = sorted(m.__name__ for m in app_module.BLUEPRINT_MODULES)
#: what building the document looks like: apispec, the spec module, its calls
SPEC_NAMES = {"apispec", "service.openapi"}
SPEC_CALLS = {"path", "schema", "response", "parameter"}  # spec.path(…), spec.components.…(…)
#: what serving the finished document imports (``/openapi.yaml``): not building it
SERVES = {"service.openapi", "service.openapi.spec_yaml"}
#: a blueprint still documenting itself while its rewrite (issue 26) moves it: the test
#: fails once it no longer does, so the exception cannot outlive its reason
PENDING: set[str] = set()


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


def builds_spec(module: str) -> list[str]:
    """Where ``module`` builds document parts: a ``document`` function, an import of the
    spec module or apispec, a ``spec.path`` / ``spec.components.schema`` call."""
    tree = _source(module)
    spec_imports = {name for name in _imports(tree)
                    if any(name == s or name.startswith(s + ".") for s in SPEC_NAMES)}
    found = [] if spec_imports <= SERVES else [f"imports {name}" for name in sorted(spec_imports)]
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "document":
            found.append(f"line {node.lineno}: def document")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in SPEC_CALLS:
            owner = node.func.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if name in ("spec", "components"):
                found.append(f"line {node.lineno}: {ast.unparse(node.func)}(…)")
    return found


@pytest.mark.parametrize("module", BLUEPRINTS)
def test_a_blueprint_module_only_routes(module):
    found = builds_spec(module)
    if module in PENDING:
        assert found, f"{module} no longer builds the document: drop it from PENDING"
        return
    assert not found, (f"{module} builds document parts ({'; '.join(found)}): declare the "
                       "route in service/openapi.py (ROUTE_PATHS) and its request in "
                       "schemas/envelopes.py")


def test_the_spec_module_imports_no_blueprint():
    imported = _imports(_source("service.openapi"))
    reached = sorted(m for m in BLUEPRINTS if m in imported and m not in PENDING)
    assert not reached, f"service.openapi imports the blueprints {reached}"
    assert "service.app" not in imported, "service.openapi imports the app (a cycle)"
    assert not any(name.startswith("service.http.") and name not in PENDING
                   and name != "service.http.body" and not name.startswith(tuple(PENDING))
                   for name in imported), sorted(n for n in imported if "service.http" in n)


def test_the_checks_see_a_blueprint_that_documents_itself():
    """The AST checks are not no-ops: a ``document(spec)`` as the blueprints had is found."""
    tree = ast.parse("def document(spec):\n    from service.openapi import ok\n"
                     "    spec.components.schema('X', {})\n    spec.path('/x', operations={})\n")
    assert "service.openapi" in _imports(tree)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Attribute) and n.func.attr in SPEC_CALLS]
    assert len(calls) == 2


def test_the_console_files_documented_are_the_files_served():
    """The document lists the console's file types itself (it imports no blueprint)."""
    from service.http import console
    from service.openapi import CONSOLE_FILES

    assert set(CONSOLE_FILES) == set(console.MIME_TYPES.values())
