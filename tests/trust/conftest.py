"""What a cheater tries, and what happens: one module per attack (issue 22).

Each module plays its attack for real against the Procfile's gunicorn on
loopback (``bench.slow_clients.served``: the real server, configured only by
the environment given) and covers the breadth in process (the Flask test
client of ``service.app.create_app``).

Fixtures and helpers:

* ``serve(name, raw=None, **settings)`` (module scope) — start one gunicorn with
  ``REFEREE_<setting>`` for each keyword (and ``raw``'s variables as they are, e.g.
  ``REDIS_URL``) and return its base URL; every server a module started stops at
  the module's end;
* ``call(url, path, body, headers)`` — one POST over a real connection, headers
  given as a list of pairs (so a header can be sent twice), the answer as
  ``Answer(status, headers, json)``;
* ``make_client(**config)`` — an in-process test client with that app config.
"""

from __future__ import annotations

import contextlib
import http.client
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import orjson
import pytest

from bench.slow_clients import served

PROBLEM_MIME = "application/problem+json"


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    json: dict[Any, Any]

    @property
    def type(self) -> str | None:
        return self.json.get("type") if isinstance(self.json, dict) else None


def call(url: str, path: str, body: dict[Any, Any] | None, headers: list[tuple[str, str]] = (),
         method: str = "POST") -> Answer:
    """``method`` (POST) ``body`` as JSON (``None``: no body) to ``url + path``, each of
    ``headers`` sent as given."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    try:
        data = orjson.dumps(body) if body is not None else None
        conn.putrequest(method, path)
        if data is not None:
            conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(len(data or b"")))
        for name, value in headers:
            conn.putheader(name, value)
        conn.endheaders(data)
        response = conn.getresponse()
        raw = response.read()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                      orjson.loads(raw) if raw else {})
    finally:
        conn.close()


@pytest.fixture(scope="module")
def serve(tmp_path_factory):
    """``serve(name, **settings)`` → the URL of a new gunicorn with those ``REFEREE_``
    settings (and nothing else of the caller's environment)."""
    with contextlib.ExitStack() as stack:
        def start(name: str, raw: dict[str, str] | None = None, **settings: str) -> str:
            log = tmp_path_factory.mktemp("trust") / f"{name}.log"
            env = {**(raw or {}), **{f"REFEREE_{k}": v for k, v in settings.items()}}
            env["REFEREE_ACCESS_LOG"] = "0"
            return stack.enter_context(served(log, None, env))

        yield start


@pytest.fixture
def make_client():
    from service.app import create_app

    def make(**config):
        return create_app({"TESTING": True, "ACCESS_LOG": False, **config}).test_client()

    return make
