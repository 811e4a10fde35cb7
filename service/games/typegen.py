"""The state types, written from the shape specs: one declaration, the other derived.

A state's shape is declared once, as shape specs (``shapes.STATE_FIELDS`` of a game,
``base.COMMON_STATE_FIELDS``): they check the JSON that comes in and are exported to
``openapi.yaml``.  The ``TypedDict``s the engines are type-checked with are written from
them by this module into checked-in modules, ``service/games/state_types.py`` (the
common fields) and ``service/games/<game>/state_types.py`` (one per built-in game: its
objects, its ``Options`` from its declared options, and its state class).  A test
(``tests/shared/test_state_types.py``) fails when a checked-in module differs from what
this writes; ``python -m service.games.typegen`` rewrites them (``--check``: only say
which differ, exit 1).

Each ``shape.Obj`` inside a state names its ``TypedDict`` (``name=``); an unnamed one
that takes ``extra`` keys is an open JSON object (``dict[str, Any]``), any other
unnamed one is an error.  ``Enum`` is a ``Literal``, ``Nullable`` a ``| None``, an
optional key ``NotRequired``; a description is the class docstring or the field's
``#:`` comment.

>>> spec = shape.Obj({"hand": shape.ListOf(shape.Str()),
...                   "mark": shape.Nullable(shape.Enum("*"), description="the pile's mark")},
...                  {"winner": shape.Int()}, name="Pile")
>>> writer = Writer()
>>> writer.annotation(spec, "state.piles[]")
'Pile'
>>> print(writer.classes["Pile"])
class Pile(TypedDict):
    hand: list[str]
    #: the pile's mark
    mark: Literal["*"] | None
    winner: NotRequired[int]
<BLANKLINE>
"""

from __future__ import annotations

import argparse
import importlib
import json
import pathlib
import sys
import textwrap
from collections.abc import Iterator, Mapping

from service.games import shape
from service.games.options import Option

ROOT = pathlib.Path(__file__).resolve().parents[2]
HEADER = '"""{doc}\n\nWritten by ``python -m service.games.typegen`` from {source}: do not edit.\n"""\n'
#: the option types of ``Option.type``
OPTION_TYPES = {"boolean": "bool", "integer": "int", "string": "str"}


class Writer:
    """Collects the ``TypedDict`` classes a set of specs needs, each once, in an order
    where a class comes after the classes its fields name."""

    def __init__(self) -> None:
        self.classes: dict[str, str] = {}
        self.specs: dict[str, shape.Obj] = {}
        self.typing: set[str] = {"TypedDict"}

    def __iter__(self) -> Iterator[str]:
        for text in self.classes.values():
            yield "\n\n" + text

    def annotation(self, spec: shape.Spec, where: str) -> str:
        """The type of a value ``spec`` checks (``where``: its path, for errors)."""
        if isinstance(spec, (shape.Ref, shape.Default)):
            return self.annotation(spec.spec, where)
        if isinstance(spec, shape.Nullable):
            return f"{self.annotation(spec.inner, where)} | None"
        if isinstance(spec, shape.OneOf):
            return " | ".join(self.annotation(o, where) for o in spec.options)
        if isinstance(spec, shape.ListOf):
            return f"list[{self.annotation(spec.item, where + '[]')}]"
        if isinstance(spec, shape.MapOf):
            return f"dict[str, {self.annotation(spec.value, where + '{}')}]"
        if isinstance(spec, shape.Enum):
            self.typing.add("Literal")
            return _literal(spec.values)
        if isinstance(spec, shape.Obj):
            return self.object(spec, where)
        scalar = {shape.Bool: "bool", shape.Int: "int", shape.Num: "float", shape.Str: "str"}
        if type(spec) in scalar:
            return scalar[type(spec)]
        self.typing.add("Any")
        return "Any"

    def object(self, spec: shape.Obj, where: str) -> str:
        if spec.name is None:
            if spec.extra:
                self.typing.add("Any")
                return "dict[str, Any]"
            raise ValueError(f"{where}: an object in a state needs a name (shape.Obj(name=...))")
        known = self.specs.get(spec.name)
        if known is not None and known is not spec:
            raise ValueError(f"{where}: two objects named {spec.name}")
        if known is None:
            self.specs[spec.name] = spec
            self.typed_dict(spec.name, spec.required, spec.optional, spec.description, where)
        return spec.name

    def typed_dict(self, name: str, required: Mapping[str, shape.Spec],
                   optional: Mapping[str, shape.Spec], doc: str | None, where: str,
                   base: str = "TypedDict") -> None:
        lines = [f"class {name}({base}):"]
        if doc:
            lines += [f'    """{_sentence(doc)}"""', ""]
        for key, spec in {**required, **optional}.items():
            kind = self.annotation(spec, f"{where}.{key}")
            if key in optional:
                self.typing.add("NotRequired")
                kind = f"NotRequired[{kind}]"
            if spec.description and not (isinstance(spec, shape.Obj) and spec.name):
                lines += _comment(spec.description)
            lines.append(f"    {key}: {kind}")
        if lines[-1] == "":
            lines.pop()
        if len(lines) == 1:
            lines.append("    pass")
        self.classes[name] = "\n".join(lines) + "\n"

    def options(self, options: tuple[Option, ...]) -> None:
        """``Options``: a state's ``options``, as the game declares them."""
        lines = ["class Options(TypedDict):"]
        for option in options:
            if option.description:
                lines += _comment(option.description)
            if option.choices is not None:
                self.typing.add("Literal")
                kind = _literal(option.choices)
            else:
                kind = OPTION_TYPES[option.type]
            lines.append(f"    {option.name}: {kind}{' | None' if option.nullable else ''}")
        self.classes["Options"] = "\n".join(lines) + "\n"

    def module(self, doc: str, source: str, imports: list[str]) -> str:
        typing = f"from typing import {', '.join(sorted(self.typing))}\n"
        head = HEADER.format(doc=doc, source=source) + "\nfrom __future__ import annotations\n\n"
        return head + typing + "".join(f"\n{line}" for line in imports) + \
            ("\n" if imports else "") + "".join(self)


def _literal(values: tuple[object, ...]) -> str:
    return f"Literal[{', '.join(json.dumps(v) if isinstance(v, str) else repr(v) for v in values)}]"


def _comment(text: str) -> list[str]:
    return textwrap.wrap(text, 96, initial_indent="    #: ", subsequent_indent="    #: ")


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] + ("" if text.endswith(".") else ".")


def common_module() -> str:
    """``service/games/state_types.py``: the fields every state has (``options`` and
    ``players`` are each game's own)."""
    from service.games.base import COMMON_STATE_FIELDS
    writer = Writer()
    fields = {k: v for k, v in COMMON_STATE_FIELDS.items() if k != "options"}
    writer.typed_dict("CommonState", fields, {}, "The fields every game state has.", "state")
    return writer.module("The types of the fields every game state has.",
                         "``base.COMMON_STATE_FIELDS``", [])


def game_module(game_id: str) -> tuple[pathlib.Path, str]:
    """Where a built-in game's state types live, and their text."""
    from service.games import registry
    game = registry.get_game(game_id)
    writer = Writer()
    writer.options(game.options)
    writer.typed_dict(f"{type(game).__name__}State", {"options": shape.Any_(),
                                                    **game.state_fields}, {},
                      f"A whole {type(game).__name__} state: the common fields and its zones.",
                      "state", base="CommonState")
    text = writer.module(f"The types of a {type(game).__name__} state.",
                         "its ``state_fields`` and options",
                         ["from service.games.state_types import CommonState"])
    text = text.replace("    options: Any\n", "    options: Options\n")
    if "Any]" not in text and ": Any" not in text:
        text = text.replace("from typing import Any, ", "from typing import ")
    package = importlib.import_module(type(game).__module__.rsplit(".", 1)[0])
    assert package.__file__ is not None
    return pathlib.Path(package.__file__).parent / "state_types.py", text


def modules() -> dict[pathlib.Path, str]:
    """Every checked-in state types module and the text it must hold."""
    from service.games import registry
    out = {ROOT / "service" / "games" / "state_types.py": common_module()}
    for game in registry.all_games():
        if type(game).__module__.startswith("service.games."):  # not a test's own game
            path, text = game_module(game.id)
            out[path] = text
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m service.games.typegen",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 naming each module that differs")
    args = parser.parse_args(argv)
    stale = [path for path, text in modules().items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    for path in stale:
        print(f"{'differs' if args.check else 'wrote'}: {path.relative_to(ROOT)}")
        if not args.check:
            path.write_text(modules()[path], encoding="utf-8")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
