"""The layers of ``docs/architecture.md`` (Layers): every import points down or sideways,
never up, and the only import cycle is the evaluation kinds' registration.

The graph is read from the sources (AST) of ``service/``, ``schemas/``, ``card_db/`` and
``workers/``: every import at any depth counts, a lazy one inside a function and one under
``TYPE_CHECKING`` as much as one at the top (each is a dependency, only deferred).
``python -m tests.test_layers [ROOT]`` prints the figures: the modules, the cycles, the
imports that point up.
"""

from __future__ import annotations

import ast
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("service", "schemas", "card_db", "workers")
GAMES = ("raiders", "kozyablo", "tremble")

#: the layers, lowest first: a module may import its own layer and the ones below it.
#: Each is a list of patterns (a module, or a package with ``.*``: it and its modules).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # every limit, once (it imports nothing: ``tests/shared/test_limits_once.py``)
    ("limits", ("service.limits",)),
    ("card data", ("card_db",)),
    ("games core", ("service.games", "service.games.base", "service.games.bots",
                    "service.games.catalogue", "service.games.chance", "service.games.draft",
                    "service.games.errors", "service.games.ismcts", "service.games.kind",
                    "service.games.messages", "service.games.objects", "service.games.options",
                    "service.games.playout", "service.games.registry", "service.games.replay",
                    "service.games.shape", "service.games.shape_1_0", "service.games.state_types",
                    "service.games.typegen", "service.games.versions", "service.games.words")),
    # the registry imports each game by its name (``importlib``, at the first ask): a game
    # finds its own engine there (``get_game``), as every layer above does
    ("game packages", tuple(f"service.games.{game}.*" for game in GAMES)),
    ("service", ("service", "service.cards", "service.headers", "service.i18n",
                 "service.metrics", "service.middleware", "service.names",
                 "service.previews", "service.problem_types", "service.problems",
                 "service.rate_limits",
                 "service.redaction", "service.rules_reference", "service.sealing",
                 "service.seats", "service.signing", "service.spent_steps",
                 "service.transcripts", "service.valid_states", "service.version",
                 "service.tournaments.*")),
    ("evaluations", ("service.evaluations.*",)),
    ("schemas", ("schemas.*",)),
    # the rules in-process (no Flask): the request envelopes' checks and the engines'
    # answers, which the HTTP contract routes share
    ("library", ("service.engine_api",)),
    # every route is one record beside its handler; the document is built from them
    ("http", ("service.http.*",)),
    ("document", ("service.openapi",)),
    ("app", ("service.app", "service.gunicorn_conf")),
    ("workers", ("workers.*",)),
)
#: the one cycle kept: ``kinds`` imports the shared kinds' modules to register them
#: (``kinds._load``), and they import ``kinds.register``
ALLOWED_CYCLES = [{"service.evaluations.kinds", "service.evaluations.playouts",
                   "service.evaluations.suggest"}]


def modules(root: pathlib.Path = ROOT) -> dict[str, pathlib.Path]:
    """Every module of the packages by dotted name (a package by its own name)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imports(name: str, path: pathlib.Path, known: set[str]) -> set[str]:
    """The modules of ``known`` that module ``name`` imports (``from a import b``: ``a.b``
    when it is a module, else ``a``; relative imports resolved)."""

    def nearest(dotted: str) -> str | None:
        while dotted and dotted not in known:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str | None] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found |= {nearest(alias.name) for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = ".".join([*package[:len(package) - node.level + 1], node.module or ""]
                            ).strip(".") if node.level else node.module or ""
            found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in known else nearest(base)
                      for a in node.names}
    return {m for m in found if m and m != name}


def graph(root: pathlib.Path = ROOT) -> dict[str, set[str]]:
    found = modules(root)
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan), sorted.

    >>> [sorted(group) for group in cycles({"a": {"b"}, "b": {"a", "c"}, "c": set(), "d": {"d"}})]
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(edges.get(node, ())):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(edges) + 100))
    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(groups, key=sorted)


def layer(module: str) -> int | None:
    """The index in ``LAYERS`` of a module's layer, or ``None`` when none holds it.

    >>> [LAYERS[layer(m)][0] for m in ("service.games.kind", "service.games.tremble.flow",
    ...                                "service.evaluations.kinds", "schemas.document")]
    ['games core', 'game packages', 'evaluations', 'schemas']
    """
    for i, (_, patterns) in enumerate(LAYERS):
        for pattern in patterns:
            package = pattern.removesuffix(".*")
            if module == package or (pattern.endswith(".*") and module.startswith(package + ".")):
                return i
    return None


def _game(module: str) -> str | None:
    match = re.match(r"service\.games\.([a-z_]+)", module)
    return match.group(1) if match and match.group(1) in GAMES else None


def upward(edges: dict[str, set[str]]) -> list[str]:
    """The imports that point to a higher layer, or from one game package into another.

    >>> upward({"service.games.base": {"service.evaluations.kinds"},
    ...         "service.games.raiders.game": {"service.games.tremble.flow", "service.games.base"}})
    ['service.games.base -> service.evaluations.kinds (games core imports evaluations)', \
'service.games.raiders.game -> service.games.tremble.flow (one game imports another)']
    """
    found = []
    for source in sorted(edges):
        for target in sorted(edges[source]):
            low, high = layer(source), layer(target)
            if low is None or high is None:
                continue
            if high > low:
                found.append(f"{source} -> {target} ({LAYERS[low][0]} imports {LAYERS[high][0]})")
            elif _game(source) and _game(target) and _game(source) != _game(target):
                found.append(f"{source} -> {target} (one game imports another)")
    return found


def test_every_module_has_a_layer():
    unplaced = sorted(m for m in modules() if layer(m) is None)
    assert not unplaced, f"put these in a layer of LAYERS (docs/architecture.md): {unplaced}"


def test_no_import_points_up():
    found = upward(graph())
    assert not found, "imports against the layers (docs/architecture.md, Layers):\n" + \
        "\n".join(found)


def test_the_only_cycle_is_the_kinds_registration():
    found = cycles(graph())
    assert found == ALLOWED_CYCLES, f"import cycles: {[sorted(c) for c in found]}"


def test_the_checks_see_a_cycle_and_an_upward_import(tmp_path):
    """Not a rubber stamp: a game that imports the evaluations, and a schema and the
    document importing each other, are found (a relative import resolved too)."""
    for name, text in {"service/__init__.py": "", "service/games/__init__.py": "",
                       "service/games/base.py": "from service.evaluations import kinds\n",
                       "service/evaluations/__init__.py": "",
                       "service/evaluations/kinds.py": "from . import budget\n",
                       "service/evaluations/budget.py": "",
                       "service/openapi.py": "from schemas import tournaments\n",
                       "schemas/__init__.py": "",
                       "schemas/tournaments.py": "def f():\n    from service.openapi import camel\n"
                       }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    edges = graph(tmp_path)
    assert edges["service.evaluations.kinds"] == {"service.evaluations.budget"}
    assert cycles(edges) == [{"schemas.tournaments", "service.openapi"}]
    assert upward(edges) == [
        "schemas.tournaments -> service.openapi (schemas imports document)",
        "service.games.base -> service.evaluations.kinds (games core imports evaluations)"]


#: the modules that read card-data files, the only ones that import marshmallow (the card
#: files' format); every request and answer is a shape declaration (``service.games.shape``)
MARSHMALLOW_READERS = ("card_db", *(f"service.games.{game}.card_schema" for game in GAMES))


def marshmallow_imports(path: pathlib.Path) -> list[str]:
    """The marshmallow modules (apispec's marshmallow plugin too) a source imports, at
    any depth.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as where:
    ...     source = pathlib.Path(where, "m.py")
    ...     _ = source.write_text("import yaml; from marshmallow import fields; "
    ...                           "from apispec.ext.marshmallow import MarshmallowPlugin")
    ...     marshmallow_imports(source)
    ['apispec.ext.marshmallow', 'marshmallow']
    """
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
            [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level \
            else []
        found |= {n for n in names if n.split(".")[0] == "marshmallow"
                  or n.startswith("apispec.ext.marshmallow")}
    return sorted(found)


def test_only_the_card_data_readers_import_marshmallow():
    found = {name: marshmallow_imports(path) for name, path in modules().items()}
    others = {name: names for name, names in found.items()
              if names and name not in MARSHMALLOW_READERS}
    assert not others, f"marshmallow outside the card-data readers: {others}"
    assert all(found[name] for name in MARSHMALLOW_READERS), "a reader no longer needs it"


if __name__ == "__main__":  # the figures, for any checkout: python -m tests.test_layers [ROOT]
    where = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT
    edges = graph(where)
    print(f"{len(edges)} modules, {sum(map(len, edges.values()))} imports")
    found = cycles(edges)
    print(f"{len(found)} import cycles")
    for group in found:
        print("  ", " ".join(sorted(group)))
    up = upward(edges)
    print(f"{len(up)} imports against the layers")
    for line in up:
        print("  ", line)
