"""Faults at the HTTP server, against the Procfile's real gunicorn on loopback (issue 11).

One server for the module: the Procfile's ``web`` command (``service.gunicorn_conf``:
gthread workers, problem+json for requests gunicorn refuses) plus ``--timeout 10``,
so that a worker blocked by a slow client would be killed (WORKER TIMEOUT)
within the test instead of after gunicorn's default 30 s (10, not less: a
worker booting slower than that on a busy machine would be killed too).

- 50 slow clients connected (each dripping a request body one byte a second):
  probes keep answering, no worker is killed; a client that goes silent in
  the middle of its request is dropped after ``REFEREE_READ_TIMEOUT``;
- a chunked body over ``MAX_CONTENT_LENGTH`` → 413 problem+json, not cut;
- requests gunicorn refuses before the app (bad request line — a raw Cyrillic
  query among them —, Content-Length with Transfer-Encoding, a negative
  Content-Length, a long URI, large or many headers…) → problem+json, not HTML.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any
from urllib.parse import urlsplit

import orjson
import pytest

from bench.slow_clients import SlowClients, probe_for, served

PROBLEM_MIME = "application/problem+json"


#: REFEREE_READ_TIMEOUT of the module's server (15 s in production)
READ_TIMEOUT = 3


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """(base URL, gunicorn's log file) of the Procfile's gunicorn, ``--timeout 10``,
    clients' read timeout ``READ_TIMEOUT``."""
    log = tmp_path_factory.mktemp("web_faults") / "gunicorn.log"
    with served(log, ["--timeout", "10"], {"REFEREE_READ_TIMEOUT": str(READ_TIMEOUT)}) as url:
        yield url, log


def exchange(url: str, raw: bytes, send_in_background: bool = False,
             timeout: float = 15) -> tuple[int, dict[Any, Any], bytes]:
    """Send ``raw`` bytes, read the answer until the server closes: (status, headers, body).

    ``send_in_background``: keep sending while the answer is read (a server may
    answer before it has read a large request, then stop reading it)."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=timeout) as sock:
        if send_in_background:
            def send():
                try:
                    sock.sendall(raw)
                except OSError:
                    pass  # the server answered and closed before reading it all

            sender = threading.Thread(target=send, daemon=True)
            sender.start()
        else:
            sock.sendall(raw)
        data = b""
        try:
            while b"\r\n\r\n" not in data or len(data) < _expected_length(data):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        except ConnectionResetError:
            pass
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def _expected_length(data: bytes) -> int:
    head, sep, _ = data.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(head) + len(sep) + int(value)
    return 1 << 62  # no length: read until the server closes


def chunked(body: bytes, size: int = 64 * 1024) -> bytes:
    """``body`` in chunked transfer coding."""
    pieces = [b"%x\r\n%s\r\n" % (len(body[i:i + size]), body[i:i + size])
              for i in range(0, len(body), size)]
    return b"".join(pieces) + b"0\r\n\r\n"


def post_chunked(path: str, body: bytes) -> bytes:
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Transfer-Encoding: chunked\r\n\r\n").encode() + chunked(body)


def test_probes_keep_answering_while_50_slow_clients_are_connected(server):
    """Issue 11 item 3: 50 connections each dripping a 1,000-byte body one byte a
    second; meanwhile ``GET /healthz`` + ``POST /v1/games/raiders/new`` probes, one
    after another for 12 s, must all answer within 5 s, and no worker is killed.
    (Sync workers: every probe failed, then WORKER TIMEOUT.)"""
    url, log = server
    logged_before = log.stat().st_size
    with SlowClients(url, 50, interval=1.0) as slow:
        summary = probe_for(url, seconds=12, every=0.2, timeout=5)
        still_connected = slow.connected
    assert summary["failed"] == 0, summary
    assert summary["probes"] >= 10 and summary["longest_silence_s"] < 5, summary
    assert still_connected == 50, "the slow clients were dropped, not served alongside"
    with open(log, "rb") as lines:
        lines.seek(logged_before)
        assert b"WORKER TIMEOUT" not in lines.read()


@pytest.mark.parametrize("sent", [
    b"POST /v1/games/raiders/new HTTP/1.1\r\nHost: x\r\n",  # headers never finished
    b"POST /v1/games/raiders/new HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    b"Content-Length: 1000\r\n\r\n{\"players\"",  # body never finished
], ids=["in the headers", "in the body"])
def test_a_client_silent_mid_request_loses_its_thread(server, sent):
    """A gthread thread has no bound of its own on a client that stops sending
    (a sync worker had the arbiter's kill): the read timeout the listening
    socket hands to every connection (``SO_RCVTIMEO``) drops it — closed, or
    400 once the app was reading the body."""
    url, _ = server
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=20) as sock:
        sock.sendall(sent)
        started = time.monotonic()
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass
        waited = time.monotonic() - started
    assert READ_TIMEOUT - 0.5 < waited < READ_TIMEOUT + 5, waited
    assert answer == b"" or answer.startswith(b"HTTP/1.1 400"), answer[:100]


def test_a_chunked_body_over_the_limit_is_413_over_gunicorn(server):
    """Issue 11 item 5: ``{"players":2,"seed":1}`` + 2 MiB of spaces, chunked, was
    cut at 1 MiB and answered 200; now 413 problem+json naming the limit."""
    url, _ = server
    big = b'{"players":2,"seed":1}' + b" " * (2 << 20)
    status, headers, body = exchange(url, post_chunked("/v1/games/raiders/new", big),
                                     send_in_background=True)
    assert status == 413 and headers["content-type"] == PROBLEM_MIME
    assert "1048576 bytes" in orjson.loads(body)["detail"]
    status, _, body = exchange(url, post_chunked("/v1/games/raiders/new",
                                                 b'{"players":2,"seed":1}' + b" " * 1000))
    assert status == 200 and orjson.loads(body)["state"]


def test_a_broken_chunk_is_400_not_500(server):
    url, _ = server
    raw = (b"POST /v1/games/raiders/new HTTP/1.1\r\nHost: x\r\nContent-Type: application/json"
           b"\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
    status, headers, body = exchange(url, raw)
    assert status == 400 and headers["content-type"] == PROBLEM_MIME
    assert "chunk" in orjson.loads(body)["detail"]


REFUSED_BY_GUNICORN = {
    # name: (request bytes, status, a word of the detail)
    "content-length and transfer-encoding": (
        b"POST /v1/games/raiders/new HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400, "CONTENT-LENGTH"),
    "negative content-length": (
        b"POST /v1/games/raiders/new HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
        400, "CONTENT-LENGTH"),
    "two content-lengths": (
        b"POST /v1/games/raiders/new HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
        b"Content-Length: 3\r\n\r\n{}", 400, "CONTENT-LENGTH"),
    "unknown transfer coding": (
        b"POST /v1/games/raiders/new HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
        400, "TRANSFER-ENCODING"),
    "uri over 4094 bytes": (
        b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414, "too large"),
    "a header over 8190 bytes": (
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 9000 + b"\r\n\r\n",
        431, "headers"),
    "over 100 headers": (
        b"GET /healthz HTTP/1.1\r\nHost: x\r\n"
        + b"".join(b"X-H%d: 1\r\n" % i for i in range(120)) + b"\r\n", 431, "headers"),
    "a space in the path": (b"GET /a b HTTP/1.1\r\nHost: x\r\n\r\n", 400, "percent-encode"),
    "unknown http version": (b"GET / HTTP/9.9\r\nHost: x\r\n\r\n", 400, "Version"),
    "invalid method": (b"G@T / HTTP/1.1\r\nHost: x\r\n\r\n", 400, "method"),
    "invalid header name": (
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n", 400, "header name"),
    "not http at all (a TLS hello)": (
        b"\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03\r\n\r\n", 400, "request line"),
}


@pytest.mark.parametrize("name", sorted(REFUSED_BY_GUNICORN))
def test_requests_gunicorn_refuses_are_answered_with_problem_json(server, name):
    """Issue 11 item 7: gunicorn answers these before the app, with an HTML page
    of its own unless ``service.gunicorn_conf`` swaps its error writer."""
    url, _ = server
    raw, expected, word = REFUSED_BY_GUNICORN[name]
    status, headers, body = exchange(url, raw)
    assert status == expected
    assert headers["content-type"] == PROBLEM_MIME, body[:200]
    problem = orjson.loads(body)
    assert problem["status"] == expected and problem["type"].endswith(
        "/bad-request" if expected == 400 else "/http-error")
    assert word.lower() in problem["detail"].lower()
    assert problem["instance"].endswith(headers["x-request-id"])


def test_a_raw_cyrillic_query_gets_problem_json_saying_how_to_send_it(server):
    """Issue 14: ``/cards?q=дама`` sent without percent-encoding never reaches the
    app (gunicorn refuses the request line); the answer is problem+json quoting
    the query as text and saying how to encode it."""
    url, _ = server
    status, headers, body = exchange(
        url, "GET /v1/games/kozyablo/cards?q=дама HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert status == 400 and headers["content-type"] == PROBLEM_MIME
    detail = orjson.loads(body)["detail"]
    assert "q=дама" in detail and "percent-encode" in detail and "--data-urlencode" in detail
