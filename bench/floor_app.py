"""The floor of the HTTP benchmark: a no-op Flask endpoint.

It does what every real endpoint must do before any game logic — read the
body and parse it as JSON with the service's codec (orjson), refusing a body
that is not a JSON object — and answers ``{}``.  ``bench.http_load`` serves
it under the same gunicorn command as the service (the Procfile's ``web``
line with this app) and loads it the same way, on the same bodies, so
``requests/s of an endpoint / requests/s of the floor`` is what the service
adds on top of Flask, gunicorn and JSON parsing.

>>> client = create_app().test_client()
>>> r = client.post("/v1/games/raiders/apply", data=b'{"state": {}}',
...                 content_type="application/json")
>>> r.status_code, r.get_data()
(200, b'{}')
>>> client.post("/v1/games/raiders/apply", data=b"[1]").status_code
400
"""

from __future__ import annotations

import orjson
from flask import Flask, Response, request

EMPTY = b"{}"


def create_app() -> Flask:
    app = Flask(__name__, static_folder=None)

    @app.post("/v1/games/<game_id>/<endpoint>")
    def noop(game_id: str, endpoint: str) -> Response:
        try:
            body = orjson.loads(request.get_data(cache=False))
        except orjson.JSONDecodeError:
            body = None
        if not isinstance(body, dict):
            return Response(b'{"status": 400}', status=400, mimetype="application/json")
        return Response(EMPTY, mimetype="application/json")

    return app
