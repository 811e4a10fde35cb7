"""Answers the service must give in its own format, over the Procfile's real
gunicorn on loopback (issue 24):

- a body nested 1 to 1,200 levels deep in any field of any operation → 400
  problem+json naming that field (1,000–1,020 levels were a 500: Python's
  recursion limit in ``shape.integral``; past 1,024 the parser's refusal named
  only ``body``) — a property test over depth, operation and field;
- ``POST /v1//evaluations`` → 404 problem+json, no redirect (was a 308 with
  an HTML body and a ``Location`` built from the ``Host`` header);
- ``OPTIONS`` → 204 with ``Allow`` and no body (was an empty ``text/html``);
- ``/console`` and ``/docs`` may not be framed (``X-Frame-Options``, CSP
  ``frame-ancestors``), and ``/docs`` has a CSP (a real Chromium check is in
  ``tests/console/test_framing.py``);
- ``POST /v1/transcripts/verify`` with the first states of two games reports
  one thing, "more than one game", and no fork.
"""

from __future__ import annotations

import copy
import http.client
from typing import Any
from urllib.parse import urlsplit

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.slow_clients import served
from service.app import create_app
from tests import document
from tests.size import sized

PROBLEM_MIME = "application/problem+json"
STATE_KEY = "answers-test-key"
#: depths where something changed: the shape cap (32), Python's recursion
#: limit (~1,000), orjson's (1,024)
EDGES = (33, 34, 64, 500, 980, 990, 999, 1000, 1001, 1010, 1019, 1020, 1021, 1023, 1024,
         1025, 1100, 1200)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("http_answers")
    with served(tmp / "gunicorn.log", env={
            "REFEREE_STATE_KEYS": STATE_KEY, "REFEREE_ACCESS_LOG": "0",
            "REFEREE_EVALUATION_STORE": str(tmp / "evaluations.sqlite3")}) as url:
        yield url


def send(url: str, method: str, path: str, body: bytes | None = None,
         headers: dict[Any, Any] | None = None) -> tuple[int, dict[Any, Any], bytes]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    try:
        hdrs = {"Content-Type": "application/json", **(headers or {})} if body is not None \
            else dict(headers or {})
        conn.request(method, path, body=body, headers=hdrs)
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def _operations() -> list[tuple[str, dict[Any, Any]]]:
    """(path, example body) of every POST operation of ``openapi.yaml`` whose
    documented example is accepted as it is (templated paths: per game)."""
    from service.games import registry

    spec = document.load()
    client = create_app({"TESTING": True, "STATE_KEYS": STATE_KEY,
                         "ACCESS_LOG": "0"}).test_client()
    out = []
    for path, ops in spec["paths"].items():
        op = ops.get("post")
        content = (op or {}).get("requestBody", {}).get("content", {}).get("application/json")
        if not content or "example" not in content or "{eval_id}" in path \
                or path == "/v1/transcripts/verify":
            continue
        paths = [path.replace("{game}", g) for g in registry.GAME_IDS] if "{game}" in path \
            else [path]
        for concrete in paths:
            example = content["example"]
            if isinstance(example, dict) and example and client.post(
                    concrete, json=example).status_code < 300:
                out.append((concrete, example))
    # the documented example of verify holds states signed under another key: one of ours
    state = client.post("/v1/games/raiders/new", json={"players": 2, "seed": 1}).json["state"]
    out.append(("/v1/transcripts/verify", {"states": [state]}))
    return out


OPERATIONS = _operations()


def test_the_operations_cover_the_ones_the_issue_names():
    paths = {p for p, _ in OPERATIONS}
    for game in ("raiders", "tremble", "kozyablo"):
        for op in ("new", "replay", "score", "suggest", "apply", "legal-actions"):
            assert f"/v1/games/{game}/{op}" in paths, (game, op, sorted(paths))
    assert {"/v1/games/tremble/odds", "/v1/evaluations", "/v1/transcripts/verify"} <= paths


def nested(depth: int, as_object: bool) -> bytes:
    """A JSON value ``depth`` containers deep (lists, or objects ``{"x": …}``)."""
    if as_object:
        return b'{"x": ' * depth + b"1.5" + b"}" * depth
    return b"[" * depth + b"1.5" + b"]" * depth


def body_with(example: dict[Any, Any], field: str, value: bytes) -> bytes:
    marker = "\x00nested\x00"
    body = copy.deepcopy(example)
    body[field] = marker
    return orjson.dumps(body).replace(orjson.dumps(marker), value)


@settings(max_examples=sized(250, least=20), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data(), depth=st.one_of(st.sampled_from(EDGES), st.integers(33, 1200)),
       as_object=st.booleans())
def test_any_nesting_depth_in_any_field_is_a_400_naming_the_field(server, data, depth,
                                                                  as_object):
    """Deeper than 32 levels (the deepest a body may be) anywhere: 400 naming the
    field, never a 500, whichever depth, operation and field."""
    path, example = data.draw(st.sampled_from(OPERATIONS), label="operation")
    field = data.draw(st.sampled_from(sorted(example)), label="field")
    status, headers, raw = send(server, "POST", path, body_with(example, field,
                                                                nested(depth, as_object)))
    assert status == 400, (path, field, depth, raw[:300])
    assert headers["content-type"] == PROBLEM_MIME
    problem = orjson.loads(raw)
    assert _names(problem, field), (path, field, depth, problem)


def _names(problem: dict[Any, Any], field: str) -> bool:
    named = [k for k in problem.get("errors", {}) if k == field or k.startswith(field + ".")]
    return bool(named) or f"{field}:" in problem["detail"] or f"`{field}`" in problem["detail"]


def test_every_field_of_every_operation_at_the_depths_that_broke(server):
    """Beside the property: each (operation, field) once at the depths that were
    a 500 (1,000 and 1,020) and past the parser's limit (1,100)."""
    wrong = []
    for path, example in OPERATIONS:
        for field in sorted(example):
            for depth in (1000, 1020, 1100):
                status, headers, raw = send(server, "POST", path,
                                            body_with(example, field, nested(depth, False)))
                if status != 400 or headers["content-type"] != PROBLEM_MIME \
                        or not _names(orjson.loads(raw), field):
                    wrong.append((path, field, depth, status, raw[:120]))
    assert wrong == []


def test_a_double_slash_is_a_404_problem_not_a_redirect_built_from_host(server):
    for method in ("POST", "GET"):
        status, headers, raw = send(server, method, "/v1//evaluations",
                                    b"{}" if method == "POST" else None,
                                    {"Host": "attacker.example"})
        assert status == 404, (method, status, headers, raw[:200])
        assert headers["content-type"] == PROBLEM_MIME
        assert "location" not in headers
        assert b"attacker.example" not in raw and b"<" not in raw


def test_options_is_204_with_allow_and_no_html(server):
    for path in ("/v1/games/raiders/new", "/v1/evaluations", "/healthz", "/console"):
        status, headers, raw = send(server, "OPTIONS", path)
        assert status == 204, (path, status, headers)
        assert raw == b"" and "text/html" not in headers.get("content-type", "")
        assert "OPTIONS" in headers["allow"]


def test_the_console_and_docs_may_not_be_framed(server):
    for path in ("/console", "/docs"):
        status, headers, _ = send(server, "GET", path)
        assert status == 200
        assert headers.get("x-frame-options") == "DENY", (path, headers)
        csp = headers.get("content-security-policy", "")
        assert "frame-ancestors 'none'" in csp, (path, csp)
        assert "default-src 'self'" in csp and "unsafe-eval" not in csp


def test_the_first_states_of_two_games_are_one_break_not_a_fork(server):
    firsts = []
    for game in ("raiders", "raiders", "tremble"):
        status, _, raw = send(server, "POST", f"/v1/games/{game}/new",
                              orjson.dumps({"players": 2, "seed": 7}))
        assert status == 200, raw[:300]
        firsts.append(orjson.loads(raw)["state"])
    for pair in (firsts[:2], firsts[1:]):
        status, _, raw = send(server, "POST", "/v1/transcripts/verify",
                              orjson.dumps({"states": pair}))
        assert status == 200, raw[:300]
        found = orjson.loads(raw)
        assert found["valid"] is False
        assert found["forks"] == [], found
        assert found["breaks"] == [{"state": None, "reason": "states of more than one game"}]
