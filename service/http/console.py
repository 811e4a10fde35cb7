"""``GET /console``: the scorekeeper's console, a static page on the public API.

The page and its ES modules live in ``service/console/`` (shipped as package
data: no CDN, no build step, it works offline).  It records a game played at
a table, verifies a reported game, exports the verified result, charts
playouts and runs an event (its tables, their results, the standings), in
English or Russian (``docs/console.md``).  Everything it does goes through the routes of
``openapi.yaml``; this module only serves the files.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import orjson
from flask import Response, send_from_directory

from service.games import registry
from service.games.messages import N_
from service.games.words import COMMON
from service.http.route import Param, Routes, Success
from service.problems import ProblemError

ASSETS = Path(__file__).resolve().parents[1] / "console"
#: the games' words (each game's ``words``, ``service.games.words``), written as a module
#: the console imports, beside its files: the same documented ``/console/{name}``
GAME_WORDS = "game-words.js"
#: the files served besides the page (anything else is a 404)
MIME_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}

bp = Routes("console", __name__)
_ERRORS = (404, 405, 500)

#: the page is never shown inside another site's frame (clickjacking): the
#: CSP directive, and the older header for browsers without it (also ``/docs``)
NOT_FRAMED = ("frame-ancestors 'none'", "DENY")


@bp.declare("get", "/console", operation_id="console_page",
            summary="The scorekeeper's console (an HTML page)", tags=("console",),
            description="Record a game at the table, verify a reported game, export the result, "
                        "chart playouts, tournament standings; built on this API only "
                        "(`docs/console.md`).",
            answers={200: Success("The page.", content={"text/html": {"schema": {"type": "string"}}})},
            errors=_ERRORS)
def page() -> Response:
    """The console page."""
    response = send_from_directory(ASSETS, "index.html", mimetype="text/html", max_age=0)
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; style-src 'self'; script-src 'self'; img-src 'self' data: blob:; "
        "connect-src 'self'; " + NOT_FRAMED[0])
    response.headers["X-Frame-Options"] = NOT_FRAMED[1]
    return response


@cache
def game_words() -> str:
    """``game-words.js``: ``WORDS`` (game id → its words) and ``COMMON``, as the games
    declare them (built once: the registry is fixed when the app is)."""
    words = {game.id: game.words for game in registry.all_games()}
    return ("// The games' words, written from their declarations (service/games/<game>/words.py)\n"
            f"export const WORDS = {orjson.dumps(words).decode()};\n"
            f"export const COMMON = {orjson.dumps(COMMON).decode()};\n")


@bp.declare("get", "/console/{name}", operation_id="console_asset",
            summary="A file of the console (script, style)", tags=("console",),
            parameters=(Param("name", {"name": "name", "in": "path", "required": True,
                                       "schema": {"type": "string", "example": "console.js"}}),),
            answers={200: Success("The file.", content={
                mime: {"schema": {"type": "string"}} for mime in MIME_TYPES.values()})},
            errors=_ERRORS)
def asset(name: str) -> Response:
    """One of the page's files (``console.js``, ``console.css``…), or the games' words."""
    if name == GAME_WORDS:
        response = Response(game_words(), mimetype=MIME_TYPES[".js"])
        response.cache_control.no_cache, response.cache_control.max_age = True, 0  # as the files
        return response
    mime = MIME_TYPES.get(Path(name).suffix)
    if mime is None or not (ASSETS / name).is_file():
        raise ProblemError(404, "not-found", "Not found",
                           N_("no console file {name!r}", name=name))
    return send_from_directory(ASSETS, name, mimetype=mime, max_age=0)
