"""The state types are written from the shape specs (``service.games.typegen``): one
declaration, the checked-in ``state_types.py`` modules derived from it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from service.games import shape, typegen
from service.games.registry import all_games


def test_every_checked_in_state_types_module_is_what_the_generator_writes():
    stale = [str(path) for path, text in typegen.modules().items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    assert not stale, f"run `python -m service.games.typegen`: {stale}"


def test_each_built_in_game_has_its_module_and_state_class():
    modules = typegen.modules()
    for game in all_games():
        if type(game).__module__.startswith("service.games."):
            path, _ = typegen.game_module(game.id)
            assert path in modules
            assert f"class {type(game).__name__}State(CommonState):" in modules[path]


def test_a_changed_spec_makes_the_check_fail(monkeypatch, tmp_path):
    """Adversary: a field added to a shape without regenerating is caught."""
    game = next(g for g in all_games() if g.id == "raiders")
    monkeypatch.setitem(game.state_fields, "added", shape.Int())
    path, text = typegen.game_module("raiders")
    assert "    added: int\n" in text and path.read_text(encoding="utf-8") != text


def test_check_mode_writes_nothing_and_exits_0_when_fresh():
    done = subprocess.run([sys.executable, "-m", "service.games.typegen", "--check"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == "", done.stdout + done.stderr


def test_an_unnamed_object_in_a_state_is_refused():
    writer = typegen.Writer()
    with pytest.raises(ValueError, match=r"state\.x: an object in a state needs a name"):
        writer.annotation(shape.Obj({"a": shape.Int()}), "state.x")


def test_two_objects_of_one_name_are_refused():
    writer = typegen.Writer()
    writer.annotation(shape.Obj({"a": shape.Int()}, name="Same"), "state.x")
    with pytest.raises(ValueError, match="two objects named Same"):
        writer.annotation(shape.Obj({"b": shape.Int()}, name="Same"), "state.y")


def test_the_shapes_map_to_their_types():
    writer = typegen.Writer()
    spec = shape.Obj({"n": shape.Nullable(shape.Int()), "kind": shape.Enum("a", "b"),
                      "ids": shape.MapOf(shape.ListOf(shape.Str())), "open": shape.Obj(
                          {"type": shape.Str()}, extra=True)},
                     {"maybe": shape.Bool()}, name="Thing")
    assert writer.annotation(spec, "state") == "Thing"
    assert writer.classes["Thing"] == (
        "class Thing(TypedDict):\n    n: int | None\n    kind: Literal[\"a\", \"b\"]\n"
        "    ids: dict[str, list[str]]\n    open: dict[str, Any]\n    maybe: NotRequired[bool]\n")


def test_a_new_state_has_exactly_the_keys_of_its_generated_type():
    """The written ``<Game>State`` names every key a real state holds, and no other."""
    import importlib

    for game in all_games():
        if not type(game).__module__.startswith("service.games."):
            continue
        package = type(game).__module__.rsplit(".", 1)[0]
        types = importlib.import_module(f"{package}.state_types")
        state_type = getattr(types, f"{type(game).__name__}State")
        state, _ = game.new_game(game.min_players, seed=3)
        assert set(state) == state_type.__required_keys__, game.id
        assert set(state["options"]) == types.Options.__required_keys__, game.id
