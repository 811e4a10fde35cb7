"""A game is one package: nothing shared names a game (README "How it is built").

Shared code is every module of ``service/`` outside ``service/games/<game>/``,
``schemas/``, ``workers/`` and ``card_db/*.py``.  It *names* a game when its
code (the syntax tree: identifiers, imports, and strings that are identifiers
or paths, such as ``"tremble"``, ``"tremble.battle_odds"``,
``"/v1/games/raiders/rules"``, ``"service.games.kozyablo"``) holds a game's id
as a word, in any case.  Documentation may name one: docstrings (doctests
included), comments and prose strings (with a space: descriptions that
end up in ``openapi.yaml``) are not code.  ``bench/`` measures each game by
name and is no part of the service; ``tests/`` neither.

Allowed: the registry's one ``register("<id>", "service.games.<id>")`` line
per game, and ``OPENAPI_EXAMPLES`` below — the HTTP layer's request examples
of ``openapi.yaml`` that still pick a game by name (to move into the games'
declarations); that list may only shrink.

A game's package, for its part, imports no other game's package.
"""

from __future__ import annotations

import ast
import pathlib
import re

from service.games.registry import GAME_IDS

ROOT = pathlib.Path(__file__).resolve().parents[2]
GAMES_DIR = ROOT / "service" / "games"
#: every game package (the registered ids, and any package of service/games)
GAMES = sorted(set(GAME_IDS) | {p.parent.name for p in GAMES_DIR.glob("*/__init__.py")})
#: shared module → the games its OpenAPI request examples still name (HTTP layer)
OPENAPI_EXAMPLES = {
    # the routes' example literals (each beside its route's record)
    "service/http/evaluations.py": {"tremble"}, "service/http/rules.py": {"raiders"},
    "service/http/table.py": {"raiders"}, "service/http/transcripts.py": {"raiders"},
    "schemas/tournaments.py": {"raiders"},  # the tournament routes' examples
}
REGISTRY = "service/games/registry.py"


def word_of(games: list[str]) -> re.Pattern[str]:
    """A game id as a word (``_`` separates words: ``tremble_odds`` names tremble).

    >>> bool(word_of(["tremble"]).search("Tremble.battle_odds")), bool(word_of(["raid"]).search("raiders"))
    (True, False)
    """
    return re.compile(r"(?<![A-Za-z0-9])(" + "|".join(map(re.escape, games)) + r")(?![A-Za-z0-9])",
                      re.IGNORECASE)


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                found.add(id(body[0].value))
    return found


def names_in(source: str, games: list[str]) -> list[tuple[int, str, str]]:
    """``(line, game, code)`` for each place the code of ``source`` names one of ``games``.

    >>> names_in('import service.games.kozyablo\\nx = "tremble.search_risk"\\n', ["kozyablo", "tremble"])
    [(1, 'kozyablo', 'service.games.kozyablo'), (2, 'tremble', 'tremble.search_risk')]
    >>> names_in("'''Raiders, as an example.'''\\n# tremble\\nHELP = 'see the raiders page'\\n",
    ...          ["raiders", "tremble"])
    []
    >>> names_in("from service.games import raiders\\n", ["raiders"])
    [(1, 'raiders', 'raiders')]
    """
    tree = ast.parse(source)
    docs, word, found = _docstrings(tree), word_of(games), []
    for node in ast.walk(tree):
        texts: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docs and not re.search(r"\s", node.value):
                texts = [node.value]
        elif isinstance(node, ast.Name):
            texts = [node.id]
        elif isinstance(node, ast.Attribute):
            texts = [node.attr]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            texts = [node.name]
        elif isinstance(node, ast.alias):
            texts = [node.name, node.asname or ""]
        elif isinstance(node, ast.ImportFrom):
            texts = [node.module or ""]
        for text in texts:
            match = word.search(text.replace("_", " "))
            if match:
                found.append((getattr(node, "lineno", 0), match.group(1).lower(), text))
    return sorted(set(found))


def shared_modules() -> list[pathlib.Path]:
    paths = [*ROOT.glob("service/**/*.py"), *ROOT.glob("schemas/**/*.py"),
             *ROOT.glob("workers/**/*.py"), *ROOT.glob("card_db/*.py")]
    return sorted(p for p in paths
                  if not (p.is_relative_to(GAMES_DIR) and len(p.relative_to(GAMES_DIR).parts) > 1))


def _register_line(path: str, line: str, game: str) -> bool:
    return path == REGISTRY and line.strip() == f'register("{game}", "service.games.{game}")'


def test_no_shared_module_names_a_game():
    leaks, examples = [], {}
    for path in shared_modules():
        rel = path.relative_to(ROOT).as_posix()
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for lineno, game, text in names_in(source, GAMES):
            if _register_line(rel, lines[lineno - 1], game):
                continue
            if game in OPENAPI_EXAMPLES.get(rel, ()):
                examples.setdefault(rel, set()).add(game)
                continue
            leaks.append(f"{rel}:{lineno}: {text!r} names {game}")
    assert not leaks, "shared code names a game; move it into the game's package:\n" + \
        "\n".join(leaks)
    assert examples == OPENAPI_EXAMPLES, \
        f"these no longer name a game: drop them from OPENAPI_EXAMPLES: " \
        f"{ {k: v - examples.get(k, set()) for k, v in OPENAPI_EXAMPLES.items()} }"


def test_the_registry_has_one_register_line_per_game():
    lines = (ROOT / REGISTRY).read_text(encoding="utf-8").splitlines()
    packages = sorted(p.parent.name for p in GAMES_DIR.glob("*/__init__.py"))
    assert packages, "no game package found"
    for game in packages:
        assert sum(_register_line(REGISTRY, line, game) for line in lines) == 1, game


def test_a_game_package_imports_no_other_game():
    leaks = []
    for game in GAMES:
        others = [g for g in GAMES if g != game]
        for path in sorted((GAMES_DIR / game).glob("**/*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                modules = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                    [node.module or ""] + [f"{node.module}.{a.name}" for a in node.names] \
                    if isinstance(node, ast.ImportFrom) else []
                for module in modules:
                    parts = module.split(".")
                    if parts[:2] == ["service", "games"] and len(parts) > 2 and parts[2] in others:
                        leaks.append(f"{path.relative_to(ROOT)}:{node.lineno}: imports {module}")
    assert not leaks, "\n".join(leaks)


def test_a_leak_is_found():
    """The check is no rubber stamp: code that names a game, as an import, a kind
    name or a route, is caught; the same words in prose are not."""
    leaky = ('from service.evaluations.kinds import get_kind\n'
             'import service.games.tremble.evaluations\n'
             'KIND = get_kind("tremble.battle_odds")\n'
             'URL = "/v1/games/kozyablo/decks/validate"\n'
             'def raiders_only(): ...\n'
             'HELP = "works for raiders and tremble"\n')
    assert [(line, game) for line, game, _ in names_in(leaky, GAMES)] == [
        (2, "tremble"), (3, "tremble"), (4, "kozyablo"), (5, "raiders")]
