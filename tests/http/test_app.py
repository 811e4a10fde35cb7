"""The app factory: card data checked at start-up, blueprints imported by name."""

from __future__ import annotations

import ast
import pathlib

import pytest

import card_db
from service import app as app_module


def test_broken_card_file_stops_startup_naming_file_card_and_field(pebbles_env, make_app):
    path = pebbles_env / "pebbles" / "reference.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("weight: 3, polished: true",
                                                             "weight: heavy, polished: true"),
                    encoding="utf-8")
    card_db.clear_cache()
    with pytest.raises(card_db.CardDataError) as info:
        make_app()
    message = str(info.value)
    assert str(path) in message and "'P3'" in message and "weight" in message


def test_every_card_set_is_loaded_at_startup(pebbles_env, make_app):
    (pebbles_env / "pebbles" / "second.yaml").write_text("meta: {title: x, reconstructed: true}\n"
                                                         "pebbles: [{id: Q}]\n", encoding="utf-8")
    card_db.clear_cache()
    with pytest.raises(card_db.CardDataError) as info:
        make_app()
    assert "second.yaml" in str(info.value)


def test_a_misspelt_blueprint_module_fails_at_import():
    """The list of blueprint modules names them in an import statement: a typo is an
    ImportError when ``service.http.blueprints`` is imported, never a silently missing
    route."""
    from service.http import blueprints

    tree = ast.parse(pathlib.Path(blueprints.__file__).read_text(encoding="utf-8"))
    imported = next(node for node in tree.body
                    if isinstance(node, ast.ImportFrom) and node.module == "service.http")
    names = [alias.name for alias in imported.names]
    assert {m.__name__.rsplit(".", 1)[1] for m in app_module.BLUEPRINT_MODULES} <= set(names)
    imported.names[names.index("metrics")].name = "metrcs"
    with pytest.raises(ImportError, match="metrcs"):
        exec(compile(tree, "service/http/blueprints.py", "exec"),
             {"__name__": "service.http.blueprints_with_a_typo"})


def test_every_blueprint_module_is_registered(make_app):
    app = make_app()
    names = [m.__name__ for m in app.extensions["referee"]["modules"]]
    assert names == [m.__name__ for m in app_module.BLUEPRINT_MODULES]
    assert names[:2] == ["service.http.games", "service.http.health"]
    assert set(app.blueprints) == {m.bp.name for m in app_module.BLUEPRINT_MODULES}


def test_card_db_path_config_is_applied(pebbles_env, tmp_path_factory, make_app):
    other = tmp_path_factory.mktemp("cards")
    (other / "pebbles").mkdir()
    (other / "pebbles" / "mine.yaml").write_text(
        (pebbles_env / "pebbles" / "reference.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    app = make_app(CARD_DB_PATH=f"{other}:{pebbles_env}")
    r = app.test_client().get("/v1/games/pebbles")
    assert r.json["card_sets"] == ["mine", "reference"]
