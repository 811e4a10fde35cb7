"""Reading requests and writing JSON replies on the hot path.

Bodies are parsed with orjson (not ``request.get_json``): a few µs for a
typical state where the stdlib parser takes several times longer.  The
envelope (``{state, action}`` and the like) is checked by its marshmallow
schema, which passes the state through untouched; the engine's
``validate_state`` then checks the state itself.

Every failure here is a problem+json answer: a body that is not JSON → 400,
not an object → 400, a wrong ``Content-Type`` → 415, too large → 413
(``MAX_CONTENT_LENGTH``, enforced by werkzeug while reading).

>>> from flask import Flask
>>> app = Flask(__name__)
>>> with app.test_request_context(data=b'{"players": 2}', content_type="application/json"):
...     read_json()
{'players': 2}
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response, request
from marshmallow import Schema, ValidationError
from werkzeug.exceptions import UnsupportedMediaType

from schemas.envelopes import flatten_messages
from service.games.errors import MalformedInput


def is_json_mimetype(mimetype: str) -> bool:
    """``application/json`` or any ``application/*+json``."""
    return mimetype == "application/json" or (
        mimetype.startswith("application/") and mimetype.endswith("+json"))


def read_json() -> dict:
    """The request body as a JSON object, or a problem (400, 413, 415)."""
    if not is_json_mimetype(request.mimetype):
        raise UnsupportedMediaType(
            f"send the body as application/json (got {request.mimetype or 'no Content-Type'})")
    raw = request.get_data(cache=False)
    if not raw:
        raise MalformedInput({"body": ["empty; send a JSON object"]})
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise MalformedInput({"body": [f"not valid JSON: {exc}"]}) from None
    if not isinstance(body, dict):
        raise MalformedInput({"body": ["must be a JSON object"]})
    return body


def load_envelope(schema: Schema, body: Any) -> dict:
    """``schema.load(body)``, with marshmallow's messages as field paths."""
    try:
        return schema.load(body)
    except ValidationError as exc:
        raise MalformedInput(flatten_messages(exc.messages)) from None


def read_envelope(schema: Schema) -> dict:
    """Read the JSON body and validate it against an envelope schema."""
    return load_envelope(schema, read_json())


def json_response(payload: Any, status: int = 200, headers: dict | None = None) -> Response:
    """A JSON reply encoded with orjson."""
    return Response(orjson.dumps(payload), status=status, mimetype="application/json",
                    headers=headers)
