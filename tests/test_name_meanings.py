"""One meaning per name: a name the packages define means one thing wherever it is read.

Read from the sources (AST) of ``service/``, ``schemas/``, ``workers/`` and ``card_db/``:

* a public (no leading ``_``) class or function at a module's top level is defined in one
  module only, but for ``SAME_MEANING`` (each entry says why, and where it may be defined);
* no module-level function takes the name of a public method of ``service.games.base.Game``
  (``check``: is an action legal; ``resolve``: an action carried out on the draft) unless it
  is what a game's own ``Game`` subclass delegates that method to.

Not counted, each for a reason the code states:

* a Flask view: its name is its endpoint (``games.apply``, ``evaluations.submit``), which the
  middleware and the metrics look routes up by; it is named after the route it serves;
* a game's implementation of a ``Game`` method (``views.hide``, which ``Raiders.hide``
  returns): the method's one meaning, in that game;
* a subclass named as the class it specialises (each game's ``cards.Catalogue`` of
  ``catalogue.Catalogue``).

``NOT_YET`` lists the names with two meanings still to be renamed, each with why not yet; it
may only shrink (a name renamed must leave it).  ``python -m tests.test_name_meanings``
prints every name defined in two modules and every reused ``Game`` method name.
"""

from __future__ import annotations

import ast
import fnmatch
import functools
import pathlib
import sys
from collections import defaultdict
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("service", "schemas", "workers", "card_db")
#: the decorators that make a function a route's handler: Flask's (blueprint or app), a
#: ``Routes.declare`` record, a route of the game contract (``service.http.games.contract``:
#: its answer is that operation's, e.g. ``check`` answers ``Game.check`` over HTTP)
ROUTE_DECORATORS = frozenset({"get", "post", "put", "patch", "delete", "route", "declare",
                              "contract"})

#: name -> (the modules that may define it, fnmatch patterns; why it is one meaning)
SAME_MEANING: dict[str, tuple[tuple[str, ...], str]] = {
    # the per-game protocol: what each game defines for itself in its own package
    "Player": (("service.games.*.state_types",),
               "a seat's record in that game's state (typegen writes each game's from its shapes)"),
    "Options": (("service.games.*.state_types",), "that game's options as its state holds them"),
    "CardSetSchema": (("service.games.*.card_schema",), "that game's card file, validated at start-up"),
    "MetaSchema": (("service.games.*.card_schema",), "the ``meta`` block of that game's card file"),
    "NameSchema": (("service.games.*.card_schema",), "a card's Russian and English names in that file"),
    "BonusSchema": (("service.games.*.card_schema",), "a set bonus entry of that game's card file"),
    "ConditionSchema": (("service.games.*.card_schema",), "a condition entry of that game's card file"),
    "face": (("service.games.*.cards",), "the card id an instance id of that game stands for"),
    "instance_ids": (("service.games.*.cards",), "that game's instance ids for the copies of a card"),
    "errors": (("service.games.*.invariants",), "that game's state invariants broken, by path"),
    "from_1": (("service.games.*.migrations",), "the migration of that game's rules version 1"),
    "EffectType": (("service.games.kozyablo.effects", "service.games.raiders.vocabulary"),
                   "one type of that game's closed effect vocabulary (card behaviour is data)"),
    "TargetType": (("service.games.kozyablo.effects", "service.games.raiders.vocabulary"),
                   "whom one effect of that game's vocabulary may reach"),
    "begin_turn": (("service.games.*.turn", "service.games.tremble.flow"), "that game's turn begins"),
    "end_turn": (("service.games.*.turn", "service.games.tremble.flow"), "that game's turn ends"),
    "advance": (("service.games.raiders.turn", "service.games.tremble.flow"),
                "that game's automatic steps, up to the next decision or chance node"),
    # the conventions of a module
    "main": (("service.openapi", "service.games.typegen", "workers.supervise"),
             "the command line of a ``python -m`` module"),
    "configure": (("service.signing", "service.spent_steps"),
                  "read that module's settings once, at app creation"),
    "clear_cache": (("service.rules_reference", "card_db"), "forget the files that module loaded"),
    # one record, two declarations while the envelopes are marshmallow: the one in
    # schemas/envelopes.py goes when that module's schemas become shapes (in progress)
}

#: names with two meanings, not renamed yet: the files are being restructured (the
#: engineers' other branches); each goes when its rename lands
NOT_YET: dict[str, str] = {
    # in service/games/kozyablo/ (being sped up on another branch) and another module
    "Stats": "kozyablo.stats (a unit's figures) and tremble.state_types (a player's tallies; a contract component name)",
    "affordable": "kozyablo.play (why a seat cannot pay) and tremble.buying (whether people buy a ship)",
    "check_capture": "kozyablo.turn (KOZ-48, a capital captured) and raiders.capture (a capture's enforce)",
    "deal": "kozyablo.effect_damage (damage dealt), tremble.missions (a mission dealt), tremble.views (a re-deal)",
    "declare": "kozyablo.turn (a main action declared) and raiders.capture (a capture declared)",
    "decline": "kozyablo.combat and .effect_damage: no reaction to a strike, to an effect's damage",
    "defend": "kozyablo.combat and .effect_damage: a Defender takes a strike, an effect's damage",
    "defenders": "kozyablo.combat and .effect_damage: who may take a strike, an effect's damage",
    "reaction": "kozyablo.combat and .effect_damage: the offer now, of a strike, of an effect's damage",
    "finish": "kozyablo.combat (a combat ends), tremble.flow (TRE-28, the game ends), service.openapi",
    "holds": "kozyablo.wins (a win condition holds) and tremble.battle (TRE-24, searchers hold)",
    "may_take": "kozyablo.effect_damage (an effect may reach a creature) and tremble.credit (TRE-26)",
    "resolve_reveal": "kozyablo.setup (a card revealed to the hand) and raiders.deck (RAI-11, a property)",
    "reveal": "kozyablo.effects (creatures turned face up) and tremble.intel (TRE-13, a card revealed)",
    "start": "kozyablo.combat (KOZ-24, a combat), tremble.battle (a battle), service.transcripts (a chain)",
    "step": "kozyablo.combat (the combat run on) and service.games.replay (one replayed action)",
    "apply": "kozyablo.effects: an effect carried out, not Game.apply",
    "hide": "kozyablo.effects: KOZ-41, a creature hides, not Game.hide (a player's view)",
    # in files another branch restructures (service/http, service/openapi.py, service/signing.py,
    # service/valid_states.py, schemas/) and another module
    "caller": "service.seats (a seat token's seat) and service.signing (who speaks about a state)",
    "digest": "service.signing (a state's signature) and service.valid_states (a state's content hash)",
    "idempotency_key": "evaluations.rq_runner and http.evaluations (an Idempotency-Key header's key)",
    "load": "schemas.envelopes (a body checked against its declaration) and card_db (a card set read)",
    "parse_keys": "service.sealing (derived sealing keys) and service.signing (signing keys as bytes)",
    # elsewhere
    "available": "service.rules_reference (a game has a rules file) and card_db (a game's set ids)",
    "checked": "service.headers (a header's value), service.names (a list of names), tournaments.events",
    "draw": "raiders.effects (owed draws as chance nodes) and tremble.buying (a ship into the offer)",
    "register": "evaluations.kinds (a kind), games.registry (a game), service.problems (the handlers)",
    "search": "service.games.ismcts (a tree search) and tremble.reward (TRE-22, ships sent searching)",
    "standings": "tournaments.events (the lines) and tournaments.verify (/standings' body as an event)",
}


@dataclass(frozen=True)
class Definition:
    module: str
    line: int
    kind: str  # "class" or "def"
    #: why it does not count (a view, a delegate, a subclass), or "" when it does
    excused: str = ""


@functools.cache
def modules(root: pathlib.Path = ROOT) -> dict[str, ast.Module]:
    """Every module of the packages by dotted name (a package by its own name), parsed
    (once: the tests read the same tree; do not change what it returns)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return found


def _names(node: ast.expr) -> str | None:
    """The last name of ``a.b.c`` or ``c`` (``None`` for anything else)."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def game_methods(tree: ast.Module) -> set[str]:
    """The public methods of ``Game`` in ``service/games/base.py``."""
    game = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game")
    return {n.name for n in game.body
            if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}


def _imported(module: str, tree: ast.Module) -> dict[str, str]:
    """What each name a module imports stands for: ``from a import b`` -> ``a.b``."""
    package = module.rpartition(".")[0]
    found = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            source = node.module or package
            found.update({a.asname or a.name: f"{source}.{a.name}" for a in node.names})
        elif isinstance(node, ast.Import):
            found.update({a.asname or a.name: a.name for a in node.names})
    return found


def delegates(parsed: dict[str, ast.Module], methods: set[str]) -> set[tuple[str, str]]:
    """``(module, name)`` of each function a game's ``Game`` subclass (in
    ``service.games.<game>.game``) delegates the method of the same name to:
    ``def hide(...): return views.hide(...)`` or ``position_value = strategy.position_value``."""
    found = set()
    for module, tree in parsed.items():
        parts = module.split(".")
        if len(parts) != 4 or parts[:2] != ["service", "games"] or parts[3] != "game":
            continue
        imported = _imported(module, tree)

        def target(node: ast.expr, name: str) -> str | None:
            """The module ``node`` (``views.hide``, or ``hide`` imported) takes ``name`` from."""
            if isinstance(node, ast.Attribute) and node.attr == name and isinstance(node.value, ast.Name):
                return imported.get(node.value.id)
            if isinstance(node, ast.Name) and node.id == name and name in imported:
                return imported[name].rpartition(".")[0]
            return None

        for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
            for member in cls.body:
                if isinstance(member, ast.FunctionDef) and member.name in methods:
                    found |= {(source, member.name) for call in ast.walk(member)
                              if isinstance(call, ast.Call)
                              and (source := target(call.func, member.name)) is not None}
                elif isinstance(member, ast.Assign) and len(member.targets) == 1 \
                        and isinstance(member.targets[0], ast.Name) and member.targets[0].id in methods:
                    name = member.targets[0].id
                    if (source := target(member.value, name)) is not None:
                        found.add((source, name))
    return found


def _excuse(module: str, node: ast.stmt, delegated: set[tuple[str, str]]) -> str:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
            isinstance(d, ast.Call) and _names(d.func) in ROUTE_DECORATORS
            for d in node.decorator_list):
        return "view"
    if isinstance(node, ast.ClassDef) and any(_names(b) == node.name for b in node.bases):
        return "subclass"
    if (module, getattr(node, "name", "")) in delegated:
        return "delegate"
    return ""


def definitions(root: pathlib.Path = ROOT) -> dict[str, list[Definition]]:
    """Every public top-level class and function of the packages, by name."""
    parsed = modules(root)
    base = parsed.get("service.games.base")
    methods = game_methods(base) if base is not None else set()
    delegated = delegates(parsed, methods)
    found: dict[str, list[Definition]] = defaultdict(list)
    for module, tree in parsed.items():
        for node in tree.body:
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and not node.name.startswith("_"):
                kind = "class" if isinstance(node, ast.ClassDef) else "def"
                found[node.name].append(Definition(module, node.lineno, kind,
                                                   _excuse(module, node, delegated)))
    return found


def twice(found: dict[str, list[Definition]]) -> dict[str, list[Definition]]:
    """The names that count in two modules or more."""
    counted = {name: [d for d in where if not d.excused] for name, where in found.items()}
    return {name: where for name, where in sorted(counted.items())
            if len({d.module for d in where}) > 1}


def reused_methods(found: dict[str, list[Definition]], methods: set[str]) -> dict[str, list[Definition]]:
    """Module-level functions named as a public ``Game`` method (views and delegates aside)."""
    return {name: where for name in sorted(methods)
            if (where := [d for d in found.get(name, []) if d.kind == "def" and not d.excused])}


def allowed(name: str, where: list[Definition]) -> bool:
    """Whether ``SAME_MEANING`` lets ``name`` be defined where it is."""
    if name not in SAME_MEANING:
        return False
    patterns = SAME_MEANING[name][0]
    return all(any(fnmatch.fnmatchcase(d.module, p) for p in patterns) for d in where)


def _shown(name: str, where: list[Definition]) -> str:
    return f"{name}: " + ", ".join(f"{d.module}:{d.line}" for d in where)


# --------------------------------------------------------------------------------- the tests
def test_a_public_name_is_defined_in_one_module():
    found = twice(definitions())
    unexplained = [_shown(n, w) for n, w in found.items() if not allowed(n, w) and n not in NOT_YET]
    assert not unexplained, (
        "one name, two meanings: rename all but the one the design and docs use (or, the "
        "same thing in each game, add it to SAME_MEANING saying why):\n  " + "\n  ".join(unexplained))


def test_no_function_takes_a_game_method_name():
    base = modules()["service.games.base"]
    reused = reused_methods(definitions(), game_methods(base))
    unexplained = [_shown(n, w) for n, w in reused.items() if n not in NOT_YET]
    assert not unexplained, (
        "a module-level function named as a Game method means something else there "
        "(Game.check: is an action legal; Game.resolve: the action carried out):\n  "
        + "\n  ".join(unexplained))


def test_the_lists_hold_only_what_is_needed():
    """An entry of ``SAME_MEANING`` or ``NOT_YET`` whose name is defined once is stale."""
    found = definitions()
    doubled = set(twice(found))
    reused = set(reused_methods(found, game_methods(modules()["service.games.base"])))
    assert not (set(SAME_MEANING) - doubled), "defined once now: drop them from SAME_MEANING"
    assert not (set(NOT_YET) - doubled - reused), "renamed: drop them from NOT_YET"
    assert not (set(SAME_MEANING) & set(NOT_YET))


_PLANTED = {
    "service/games/base.py": "class Game:\n    def check(self): ...\n    def _private(self): ...\n",
    "service/games/toy/game.py": ("from service.games.toy import views\n\n\nclass Toy:\n"
                                  "    def check(self):\n        return views.check()\n"),
    "service/games/toy/views.py": "def check(): ...\n",
    "service/tournaments.py": "def check(): ...\n\n\ndef _private(): ...\n",
    "service/http/games.py": "@bp.post('/check')\ndef check(): ...\n\n\nclass Catalogue(base.Catalogue): ...\n",
    "service/cards.py": "class Catalogue: ...\n\n\ndef _private(): ...\n",
    "schemas/envelopes.py": "class Catalogue: ...\n",
}


def test_the_checks_find_a_planted_second_meaning(tmp_path):
    """On a tree with ``check`` and ``Catalogue`` planted twice: a view, a game's delegate
    and a namesake subclass do not count; the others do."""
    for path, text in _PLANTED.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    found = definitions(tmp_path)
    assert {d.excused for d in found["check"]} == {"view", "delegate", ""}
    assert {n: sorted(d.module for d in w) for n, w in twice(found).items()} == {
        "Catalogue": ["schemas.envelopes", "service.cards"]}
    reused = reused_methods(found, game_methods(modules(tmp_path)["service.games.base"]))
    assert {n: [d.module for d in w] for n, w in reused.items()} == {"check": ["service.tournaments"]}
    assert not allowed("Catalogue", twice(found)["Catalogue"])
    assert allowed("Player", [Definition("service.games.toy.state_types", 1, "class")])
    assert not allowed("Player", [Definition("service.seats", 1, "class")])


if __name__ == "__main__":
    root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT
    everything = definitions(root)
    for name, where in twice(everything).items():
        mark = "same meaning" if allowed(name, where) else "not yet" if name in NOT_YET else "TWO MEANINGS"
        print(f"{mark:>13}  {_shown(name, where)}")
    for name, where in reused_methods(everything, game_methods(modules(root)["service.games.base"])).items():
        print(f"{'Game.' + name:>13}  {_shown(name, where)}")
