"""Code shape of each game package: the figures issue 12 reports before/after.

``python -m bench.code_stats [ROOT]`` prints, per game package under
``ROOT/service/games``: lines, places that name one of its action types (a
string literal equal to the type, anywhere in the package), ``if``/``elif``
tests that compare an action type, and functions longer than 50 lines.
"""

from __future__ import annotations

import ast
import pathlib
import sys

GAMES = ("raiders", "kozyablo", "tremble")
ACTION_TYPE_HINTS = ("kind", "type")


def _action_types(root: pathlib.Path, game: str) -> set[str]:
    """The game's action type names, read from its describe (imported live)."""
    sys.path.insert(0, str(root))
    try:
        from service.games.registry import get_game
        return set(get_game(game).describe()["action_types"])
    finally:
        sys.path.pop(0)


def _names_type(test: ast.expr, types: set[str]) -> bool:
    """Does an ``if`` test compare something with an action type literal?"""
    for node in ast.walk(test):
        if isinstance(node, ast.Compare):
            parts = [node.left, *node.comparators]
            literals = [p for p in parts if isinstance(p, ast.Constant) and p.value in types]
            literals += [e for p in parts if isinstance(p, (ast.Tuple, ast.Set, ast.List))
                         for e in p.elts if isinstance(e, ast.Constant) and e.value in types]
            if literals:
                return True
    return False


def stats(root: pathlib.Path, game: str) -> dict[str, int]:
    types = _action_types(root, game)
    lines = mentions = branches = long_functions = 0
    for path in sorted((root / "service" / "games" / game).glob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines += text.count("\n")
        tree = ast.parse(text)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and node.value in types:
                mentions += 1
            elif isinstance(node, ast.If) and _names_type(node.test, types):
                branches += 1
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if (node.end_lineno or node.lineno) - node.lineno + 1 > 50:
                    long_functions += 1
    return {"lines": lines, "action_type_mentions": mentions,
            "if_on_action_type": branches, "functions_over_50_lines": long_functions}


def main() -> None:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    print(f"{'game':10} {'lines':>6} {'type names':>10} {'if on type':>10} {'fn >50':>7}")
    for game in GAMES:
        s = stats(root, game)
        print(f"{game:10} {s['lines']:6} {s['action_type_mentions']:10} "
              f"{s['if_on_action_type']:10} {s['functions_over_50_lines']:7}")


if __name__ == "__main__":
    main()
