"""A cheating bot puts bytes the service does not expect in the headers it reads
(issue 34, item 6).

Before: ``Referee-Seat-Token: seat:²:x:y`` (the latin-1 byte ``0xB2``) was a 500
on ``legal-actions``, ``view``, ``apply`` and evaluations: WSGI hands header
values over latin-1 decoded, ``'²'.isdigit()`` is true and ``int('²')`` fails.
``X-Request-Id: abc\\n`` passed a ``$``-anchored check.

Now: every header the service acts on is read as visible ASCII or refused
(``service.headers``): a control or 8-bit byte in ``Referee-Seat-Token``,
``Referee-Require-Signed``, ``Content-Type``, ``Content-Encoding`` or
``Content-Length`` is a 400 ``malformed-request`` naming ``headers.<Name>``; in
``Authorization``/``X-API-Key`` it is no key (401 naming the header on the
evaluation routes, the address's rate-limit bucket elsewhere).  Advisory
headers (``Accept-Language``, ``Accept``, ``X-Request-Id``, ``Origin``, the
conditional and range headers, ``Host``) are never refused: what is not
understood in them is ignored.  The property sends arbitrary bytes in each of
them, over a raw socket to the Procfile's gunicorn and in process, to every
kind of route that reads them: never a 5xx.
"""

from __future__ import annotations

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.app import create_app
from service.headers import visible_ascii
from tests.size import sized
from tests.trust.conftest import call
from tests.trust.rawhttp import send

SEALING_KEY, API_KEY = "header-bytes-sealing-key", "header-bytes-api-key"
SETTINGS = {"SEALING_KEYS": SEALING_KEY, "API_KEYS": API_KEY,
            "CORS_ORIGINS": "https://a.example", "RATE_LIMIT": "1000000/minute"}
#: every request header the service reads; the first ones strictly (docs/operations.md)
STRICT = ("Referee-Seat-Token", "Referee-Require-Signed", "Content-Type", "Content-Encoding",
          "Content-Length", "Authorization", "X-API-Key")
ADVISORY = ("X-Request-Id", "Accept-Language", "Accept", "Origin",
            "Access-Control-Request-Method", "Access-Control-Request-Headers", "If-None-Match",
            "If-Modified-Since", "If-Range", "Range", "Host", "Transfer-Encoding")
#: where a fuzzed byte goes: in place of ``{}`` in a value that is otherwise good
TEMPLATES = {
    "Referee-Seat-Token": ["seat:{}:{kid}:{mac}", "{}", "seat:0:{kid}:{mac}, seat:{}:{kid}:x"],
    "Referee-Require-Signed": ["true{}", "{}"], "Content-Type": ["application/json; charset={}",
                                                                "application/{}json", "{}"],
    "Content-Encoding": ["identity{}", "{}"], "Content-Length": ["{}", "1{}"],
    "Authorization": ["Bearer {}", "Bearer " + API_KEY + "{}", "{}"], "X-API-Key": ["{}"],
    "Accept-Language": ["ru;q={}", "{}"], "Accept": ["application/json;q={}", "{}"],
    "Range": ["bytes={}-", "{}"], "If-Modified-Since": ["{}"],
}
#: bytes that broke parsers before: latin-1 digits, controls, DEL, 8-bit, separators
NASTY = st.sampled_from([b"\xb2", b"\xb9", b"\xbd", b"\x00", b"\x01", b"\x7f", b"\xff", b"\t",
                         b",", b";", b"=", b'"', b"\\", b"%00", b"-1", b"99999999999999999999"])
FUZZ = st.one_of(NASTY, st.lists(st.one_of(NASTY, st.binary(min_size=1, max_size=4)),
                                    max_size=6).map(b"".join))


def _value(data, name: str, token: str) -> bytes:
    kid, mac = token.split(":")[2:]
    template = data.draw(st.sampled_from(TEMPLATES.get(name, ["{}"])))
    before, _, after = template.partition("{}")
    fill = data.draw(FUZZ)
    value = (before.format(kid=kid, mac=mac).encode() + fill
             + after.format(kid=kid, mac=mac).encode())
    one_line: bytes = value.replace(b"\r", b"").replace(b"\n", b"")  # a line break ends the header
    return one_line


@pytest.fixture(scope="module")
def server(serve):
    return serve("header-bytes", READ_TIMEOUT="1", **SETTINGS)


@pytest.fixture(scope="module")
def sealed(server):
    r = call(server, "/v1/games/raiders/new", {"players": 2})
    assert r.status == 200 and r.json["seat_tokens"]
    return r.json["state"], r.json["seat_tokens"]


def _requests(sealed) -> list[tuple[str, str, bytes]]:
    """(method, path, body): a route of each kind that reads request headers."""
    state, _ = sealed
    view = orjson.dumps({"state": state, "player": 0})
    return [("POST", "/v1/games/raiders/view", view), ("POST", "/v1/games/raiders/new", b'{"players": 2}'),
            ("GET", "/v1/evaluations/kinds", b""), ("GET", "/v1/games/raiders/rules", b""),
            ("GET", "/problems/not-found", b""), ("GET", "/console/console.js", b""),
            ("OPTIONS", "/v1/games/raiders/view", b"")]


def _base_headers(name: str, token: str) -> list[tuple[bytes, bytes]]:
    """The headers of a good request, but ``name`` (the fuzzed one)."""
    base = [(b"Content-Type", b"application/json"), (b"Referee-Seat-Token", token.encode()),
            (b"Authorization", b"Bearer " + API_KEY.encode()), (b"Origin", b"https://a.example")]
    return [(k, v) for k, v in base if k.decode().lower() != name.lower()]


# ----------------------------------------------------------- the attack, for real
def test_a_latin1_digit_in_a_seat_token_is_refused_not_a_500(server, sealed):
    state, tokens = sealed
    kid, mac = tokens[1].split(":")[2:]
    for path, body in (("/v1/games/raiders/view", {"state": state, "player": 1}),
                       ("/v1/games/raiders/legal-actions", {"state": state, "player": 1}),
                       ("/v1/games/raiders/apply", {"state": state, "action": {"type": "pass"}})):
        for seat in (b"\xb2", b"\xb9", b"\xb3"):
            r = send(server, "POST", path, [(b"Content-Type", b"application/json"),
                                            (b"Referee-Seat-Token",
                                             b"seat:" + seat + f":{kid}:{mac}".encode())],
                     orjson.dumps(body))
            assert (r.status, r.json["type"]) == (400, "/problems/malformed-request"), (path, seat)
            assert list(r.json["errors"]) == ["headers.Referee-Seat-Token"]


@pytest.mark.parametrize("name", ["Referee-Seat-Token", "Referee-Require-Signed", "Content-Type",
                                  "Content-Encoding"])
def test_an_8bit_byte_in_a_strict_header_is_400_naming_it(server, sealed, name):
    state, tokens = sealed
    r = send(server, "POST", "/v1/games/raiders/view",
             [*_base_headers(name, tokens[0]),
              (name.encode(), b"application/json\xb2" if name == "Content-Type" else b"x\xb2")],
             orjson.dumps({"state": state, "player": 0}))
    assert (r.status, r.json["type"]) == (400, "/problems/malformed-request"), name
    assert list(r.json["errors"]) == [f"headers.{name}"]


@pytest.mark.parametrize("name, value", [("Authorization", b"Bearer k\xb2"),
                                         ("X-API-Key", b"k\xff")])
def test_an_api_key_that_is_not_ascii_is_no_key(server, name, value):
    r = send(server, "GET", "/v1/evaluations/kinds", [(name.encode(), value)])
    assert (r.status, r.json["type"]) == (401, "/problems/unauthorized")
    assert list(r.json["errors"]) == [f"headers.{name}"]


def test_a_request_id_with_a_trailing_newline_is_not_taken(app):
    r = app.get("/healthz", environ_overrides={"HTTP_X_REQUEST_ID": "abc\n"})
    assert r.headers["X-Request-Id"] != "abc\n" and len(r.headers["X-Request-Id"]) == 32
    assert app.get("/healthz", headers={"X-Request-Id": "abc"}).headers["X-Request-Id"] == "abc"


# ------------------------------------------------------------------ the property
@settings(max_examples=sized(120, least=20), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
@pytest.mark.parametrize("name", STRICT + ADVISORY)
def test_no_header_bytes_make_gunicorn_answer_a_5xx(server, sealed, name, data):
    token = sealed[1][0]
    value = _value(data, name, token)
    for method, path, body in _requests(sealed):
        r = send(server, method, path, [*_base_headers(name, token), (name.encode(), value)],
                 body, length=name != "Content-Length")
        # a transfer coding gunicorn does not know is its 501 (RFC 9112 6.1), before the app
        assert r.status < 500 or (name, r.status) == ("Transfer-Encoding", 501), \
            (name, value, method, path, r.status, r.body[:300])
        if name in STRICT[:4] and not visible_ascii(value.decode("latin-1")) \
                and method == "POST" and path.endswith("/view"):  # reads all four
            named = f"headers.{name}" in r.json.get("errors", {}) or (  # gunicorn's: controls
                r.json["type"] == "/problems/bad-request" and name.upper() in r.json["detail"])
            assert r.status == 400 and named, (name, value, path, r.status, r.body[:300])


@pytest.fixture(scope="module")
def app():
    return create_app({"TESTING": True, "ACCESS_LOG": False, **SETTINGS}).test_client()


@pytest.fixture(scope="module")
def sealed_here(app):
    r = app.post("/v1/games/raiders/new", json={"players": 2})
    return r.json["state"], r.json["seat_tokens"]


def _environ_key(name: str) -> str:
    key = name.upper().replace("-", "_")
    return key if key in ("CONTENT_TYPE", "CONTENT_LENGTH") else "HTTP_" + key


@settings(max_examples=sized(200, least=25), deadline=None,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
@pytest.mark.parametrize("name", STRICT + ADVISORY)
def test_no_header_bytes_make_the_app_answer_a_5xx(app, sealed_here, name, data):
    token = sealed_here[1][0]
    value = _value(data, name, token) + data.draw(st.sampled_from([b"", b"\n", b"\r\n"]))
    for method, path, body in _requests(sealed_here):
        headers = {k.decode(): v.decode() for k, v in _base_headers(name, token)}
        r = app.open(path, method=method, data=body, headers=headers,
                     environ_overrides={_environ_key(name): value.decode("latin-1")})
        assert r.status_code < 500, (name, value, method, path, r.status_code, r.data[:300])
