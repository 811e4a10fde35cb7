"""A cheating bot probes the edges of HTTP: paths, encodings, lengths, and what
a browser would make of the answers (issue 34, item 7).

Before: ``GET //v1/games`` answered 200 under gunicorn (werkzeug strips leading
slashes before matching), though docs/operations.md said any ``//`` is 404; a
body sent ``Content-Encoding: gzip`` or ``charset=utf-16`` was read as identity
UTF-8; a body shorter than its ``Content-Length`` — the client half-closed after
the part that parses — was adjudicated as if whole; no answer carried
``X-Content-Type-Options: nosniff`` and the ``/problems`` pages had no
Content-Security-Policy (any site could frame them).

Now: ``//`` anywhere in a path is a 404 problem+json, on every route and
method; a ``Content-Encoding`` other than ``identity`` and a ``charset`` other
than ``utf-8`` are 415 ``unsupported-media-type`` naming the header; a short
body is 400 ``bad-request``, half-closed or silent until the read timeout;
every answer (errors, 404s, static files, gunicorn's own refusals) carries
``nosniff``, and every HTML page a CSP with ``frame-ancestors 'none'``.  Each
edge is played against the Procfile's gunicorn, the route walks in process.
"""

from __future__ import annotations

import gzip
import re
import time

import orjson
import pytest

from service.app import create_app
from tests.trust.conftest import PROBLEM_MIME
from tests.trust.rawhttp import send

NEW = orjson.dumps({"players": 2})
#: a sample value per URL variable, so every rule of the url_map gets a real URL
SAMPLES = {"game_id": "raiders", "clause_id": "RAI-1", "slug": "not-found",
           "eval_id": "0" * 32}
NAMES = {"/docs/assets/<name>": "swagger-ui.css", "/console/<name>": "console.js"}


@pytest.fixture(scope="module")
def server(serve):
    return serve("edges", READ_TIMEOUT="1")


@pytest.fixture(scope="module")
def app():
    return create_app({"TESTING": True, "ACCESS_LOG": False})


def _urls(app) -> list[tuple[str, str]]:
    """(method, URL) for every rule and method of the url_map."""
    out = []
    for rule in app.url_map.iter_rules():
        url = rule.rule
        for name in rule.arguments:
            value = NAMES[rule.rule] if name == "name" else SAMPLES[name]
            url = re.sub(r"<(?:[^:>]+:)?%s>" % name, value, url)
        out += [(method, url) for method in sorted(rule.methods)]
    return out


def _open(client, method: str, path: str):
    """``path`` as ``PATH_INFO``, as gunicorn hands it over (the test client would read
    ``//v1`` as a host)."""
    body = {"data": b"{}", "content_type": "application/json"} if method == "POST" else {}
    return client.open("/", method=method, environ_overrides={"PATH_INFO": path}, **body)


# ------------------------------------------------------------- security headers
def test_every_route_and_method_answers_nosniff_and_html_pages_a_framing_policy(app):
    client, seen_html = app.test_client(), set()
    for method, url in _urls(app) + [("GET", "/nope"), ("DELETE", "/v1/games"),
                                     ("GET", "/problems/nope")]:
        r = _open(client, method, url)
        assert r.headers.get("X-Content-Type-Options") == "nosniff", (method, url, r.status_code)
        if r.mimetype == "text/html":
            seen_html.add(url)
            csp = r.headers.get("Content-Security-Policy", "")
            assert "frame-ancestors 'none'" in csp, (method, url, csp)
            assert "'unsafe-inline'" not in csp.split("script-src")[-1].split(";")[0], csp
            assert r.headers.get("X-Frame-Options") == "DENY", (method, url)
    assert {"/console", "/docs", "/problems", "/problems/not-found"} <= seen_html


def test_the_problem_pages_load_their_style_and_nothing_else(app):
    r = app.test_client().get("/problems/not-found", headers={"Accept": "text/html"})
    csp = r.headers["Content-Security-Policy"]
    assert csp.startswith("default-src 'none'; style-src 'sha256-"), csp
    assert "<style>" in r.text and "<script" not in r.text


def test_gunicorns_answers_carry_nosniff_too(server):
    for method, path, headers in [("GET", "/v1/games", []), ("GET", "/nope", []),
                                  ("GET", "/problems", []), ("GET", "/console/console.js", []),
                                  ("GET", "/metrics", []), ("GET", "/openapi.yaml", []),
                                  ("GET", "/v1/games", [(b"Content-Length", b"x")])]:
        r = send(server, method, path, headers, length=False)
        assert r.headers.get("x-content-type-options") == "nosniff", (method, path, r.status)
    r = send(server, "GET", "/problems")
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]


# --------------------------------------------------------------------- // paths
@pytest.mark.parametrize("path", ["//v1/games", "///v1/games", "/v1//games", "//v1//games",
                                  "/v1/games//raiders", "//healthz"])
def test_a_doubled_slash_is_404_under_gunicorn(server, path):
    r = send(server, "GET", path)
    assert (r.status, r.headers["content-type"], r.json["type"]) == (
        404, PROBLEM_MIME, "/problems/not-found"), path


def test_a_doubled_slash_is_404_on_a_post_under_gunicorn(server):
    for path in ("//v1/games/raiders/new", "/v1//games/raiders/new", "/v1/games/raiders//new"):
        r = send(server, "POST", path, [(b"Content-Type", b"application/json")], NEW)
        assert (r.status, r.json["type"]) == (404, "/problems/not-found"), path


def test_a_doubled_slash_anywhere_in_any_route_is_404(app):
    client, tried = app.test_client(), 0
    for method, url in _urls(app):
        for at in [i for i, c in enumerate(url) if c == "/"]:
            doubled = url[:at] + "/" + url[at:]
            r = _open(client, method, doubled)
            assert (r.status_code, r.mimetype) == (404, PROBLEM_MIME), (method, doubled)
            tried += 1
    assert tried > 200


# -------------------------------------------------------------------- encodings
def _new(server, content_type: bytes, body: bytes = NEW, extra=()):
    return send(server, "POST", "/v1/games/raiders/new",
                [(b"Content-Type", content_type), *extra], body)


@pytest.mark.parametrize("coding", [b"gzip", b"GZIP", b"br", b"deflate", b"identity, gzip",
                                    b"x-unknown"])
def test_a_compressed_body_is_415_naming_content_encoding(server, coding):
    body = gzip.compress(NEW) if b"gzip" in coding.lower() else NEW
    r = _new(server, b"application/json", body, [(b"Content-Encoding", coding)])
    assert (r.status, r.json["type"]) == (415, "/problems/unsupported-media-type"), coding
    assert list(r.json["errors"]) == ["headers.Content-Encoding"]


@pytest.mark.parametrize("charset", [b"utf-16", b"UTF-16LE", b'"utf-16"', b"latin-1",
                                     b"us-ascii", b"utf8"])
def test_a_charset_other_than_utf8_is_415_naming_it(server, charset):
    r = _new(server, b"application/json; charset=" + charset, NEW.decode().encode("utf-16")
             if b"16" in charset else NEW)
    assert (r.status, r.json["type"]) == (415, "/problems/unsupported-media-type"), charset
    assert charset.strip(b'"').decode() in r.json["detail"]
    assert list(r.json["errors"]) == ["headers.Content-Type"]


@pytest.mark.parametrize("content_type", [b"application/json", b"application/json; charset=utf-8",
                                          b"application/json;charset=UTF-8",
                                          b'application/json; charset="utf-8"',
                                          b"Application/JSON"])
def test_json_in_utf8_without_a_coding_is_served(server, content_type):
    assert _new(server, content_type).status == 200
    assert _new(server, content_type, extra=[(b"Content-Encoding", b"identity")]).status == 200


# ------------------------------------------------------------------ short bodies
def test_a_body_shorter_than_its_length_then_half_closed_is_400(server):
    r = send(server, "POST", "/v1/games/raiders/new",
             [(b"Content-Type", b"application/json"), (b"Content-Length", b"100")], NEW)
    assert (r.status, r.json["type"]) == (400, "/problems/bad-request")
    assert f"{len(NEW)} of the 100 bytes" in r.json["detail"]


def test_a_body_shorter_than_its_length_then_silent_is_400_after_the_read_timeout(server):
    started = time.monotonic()
    r = send(server, "POST", "/v1/games/raiders/new",
             [(b"Content-Type", b"application/json"), (b"Content-Length", b"100")], NEW,
             half_close=False)
    assert (r.status, r.json["type"]) == (400, "/problems/bad-request")
    assert "Content-Length" in r.json["detail"]
    assert time.monotonic() - started < 10


def test_a_body_of_its_length_is_served_and_a_short_one_in_process_is_400(server, app):
    assert send(server, "POST", "/v1/games/raiders/new",
                [(b"Content-Type", b"application/json")], NEW).status == 200
    r = app.test_client().post("/v1/games/raiders/new", data=NEW, content_type="application/json",
                               environ_overrides={"CONTENT_LENGTH": "100"})
    assert (r.status_code, r.json["type"]) == (400, "/problems/bad-request")
