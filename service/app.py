"""The Flask application factory.

``gunicorn 'service.app:create_app()'`` runs it (see the Procfile).  At start
it loads and validates every card set of every game, so a broken card file
stops the service with the file, card and field named (``card_db.CardDataError``),
and compiles the translation catalogs (``service.i18n``).

Configuration comes from the environment, overridable by ``config``:

=====================  ==================================================
``REDIS_URL``          RQ/Redis for evaluations; ``/readyz`` pings it
``CARD_DB_PATH``       extra card-set directories (``dir1:dir2``)
``MAX_CONTENT_LENGTH``  largest request body in bytes (default 1 MiB) → 413
``REFEREE_*``          signing keys, API keys, rate limits, CORS, logs
                       (``service.middleware``)
=====================  ==================================================

Blueprints are the modules of ``service.http.blueprints``.  A game adds no
module: its own routes are data (``Game.operations``), served by
``service.http.game_operations``.  Each module exposes ``bp``, a ``Routes``
blueprint whose every route is one ``Route`` record: ``service.openapi``
documents those records (a Flask rule that is not one fails
``tests/http/test_openapi.py``).

>>> app = create_app({"TESTING": True})
>>> app.test_client().get("/healthz").json
{'status': 'ok'}
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import Any

from flask import Flask, Response

import card_db
from service import i18n, middleware, problems, spent_steps
from service.games import registry
from service.http import blueprints, health
from service.limits import MAX_BODY_BYTES

DEFAULT_MAX_CONTENT_LENGTH = MAX_BODY_BYTES

#: blueprint modules, registered in this order (``service.http.blueprints``)
BLUEPRINT_MODULES: tuple[ModuleType, ...] = blueprints.MODULES


class RefereeApp(Flask):
    """Flask, answering in its own formats where Flask would answer on its own.

    ``OPTIONS`` (which Flask answers for every route) is ``204 No Content`` with
    ``Allow``: no body and no ``text/html`` type (CORS preflights get their
    headers added to it as before).  URLs are never redirected: ``//`` is not
    merged (werkzeug answered ``POST /v1//evaluations`` with a 308, an HTML
    body and a ``Location`` built from the ``Host`` header), so such a URL is
    a 404 problem+json like any unknown one (issue 24).
    """

    def make_default_options_response(self) -> Response:
        response = super().make_default_options_response()
        response.status_code = 204
        response.headers.pop("Content-Type", None)
        response.headers.pop("Content-Length", None)
        return response


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the app: configuration, card data, error handlers, blueprints."""
    app = RefereeApp(__name__, static_folder=None)
    app.url_map.merge_slashes = False
    app.url_map.redirect_defaults = False
    app.config.from_mapping(
        REDIS_URL=os.environ.get("REDIS_URL") or None,
        CARD_DB_PATH=os.environ.get("CARD_DB_PATH") or None,
        MAX_CONTENT_LENGTH=int(os.environ.get("MAX_CONTENT_LENGTH") or DEFAULT_MAX_CONTENT_LENGTH),
    )
    if config:
        app.config.update(config)
    _use_card_db_path(app.config["CARD_DB_PATH"])
    if not app.debug:
        middleware.configure_logging()

    app.extensions["referee"] = {"cards_loaded": False, "modules": [],
                                 health.DOCUMENT_KEY: _document}
    load_card_data()
    app.extensions["referee"]["cards_loaded"] = True
    i18n.load_all()  # the gettext catalogs (en, ru): a broken .po stops the start here

    problems.register(app)
    for module in blueprint_modules():
        app.register_blueprint(module.bp)
        app.extensions["referee"]["modules"].append(module)
    middleware.init_app(app)
    spent_steps.configure(app, middleware.setting, middleware.flag)
    return app


def _document() -> str:
    """``GET /openapi.yaml``'s text: the document built from the routes (a layer above them)."""
    from service.openapi import spec_yaml

    return spec_yaml()


def blueprint_modules() -> list[ModuleType]:
    """The modules of ``BLUEPRINT_MODULES``."""
    return list(BLUEPRINT_MODULES)


def load_card_data() -> dict[tuple[str, str], card_db.CardSet]:
    """Load and validate every card set of every game; raise on the first broken one."""
    loaded = {}
    for game in registry.all_games():
        for set_id in card_db.available(game.id):
            loaded[game.id, set_id] = card_db.get(game.id, set_id)
    return loaded


def _use_card_db_path(path: str | None) -> None:
    """``card_db`` reads ``CARD_DB_PATH`` from the environment; keep them in step."""
    if (path or None) != (os.environ.get("CARD_DB_PATH") or None):
        if path:
            os.environ["CARD_DB_PATH"] = path
        else:
            os.environ.pop("CARD_DB_PATH", None)
        card_db.clear_cache()
