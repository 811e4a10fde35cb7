"""``openapi.yaml`` is lint-clean and every schema compiles in JavaScript (issue 36, item 5).

* Redocly CLI (package.json) lints it with the ``recommended`` ruleset (``redocly.yaml``):
  no error, and no warning but those of ``ACCEPTED_WARNINGS``, each a rule that misreads
  this document (the reason is beside it), so a new kind of warning fails here too.
* ``contract/compile_schemas.mjs`` compiles every schema — each component, each inline
  request, response, parameter and header schema — with Ajv (JSON Schema 2020-12, regular
  expressions in unicode mode, as a JavaScript client validates) and validates each
  example beside a schema, naming any that fails.
* The Tremble ship-id pattern, no longer ``re.escape``'s (``\\-`` is a syntax error in
  JavaScript's unicode mode), accepts and refuses exactly what it did.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import card_db
from service.games import registry, shape
from tests import document

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "openapi.yaml"
NODE = shutil.which("node")
REDOCLY = REPO / "node_modules" / "@redocly" / "cli" / "bin" / "cli.js"
COMPILE = REPO / "contract" / "compile_schemas.mjs"
#: no telemetry and no update check: the lint asks no server anything
OFFLINE = {"REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true"}

#: warnings of ``recommended`` left standing, by rule, and why each is not a defect
ACCEPTED_WARNINGS = {
    # Redocly's own example check (@redocly/ajv 8.18, bundled) refuses examples of schemas
    # built of `$ref`, `oneOf` and `if`/`then`, e.g. "must NOT have unevaluated properties
    # `state`" for RaidersViewRequest, which has no `unevaluatedProperties`; Ajv 8.20
    # (compile_schemas.mjs, test below) accepts every example, as the server does
    "no-invalid-media-type-examples":
        "examples valid by Ajv 2020 and jsonschema-rs (Redocly's validator misreads them)",
    # `required` inside `if`/`not` tests a member's presence; `properties` beside it (in
    # the enclosing schema) declares the member: the JSON Schema idiom for "when present"
    "no-required-schema-properties-undefined":
        "`required` in an `if`/`not` test, its member declared by the enclosing schema",
    # generated from the shipped data: one card set (`oneOf` of one), one forbidden option
    # (`not: {anyOf: [one]}`); a list, so a second one is an addition for clients
    "no-illogical-composition-keywords":
        "a data-driven `oneOf`/`anyOf` that has one member while one card set ships",
}


def _need_node() -> str:
    if not NODE or not REDOCLY.is_file() or not (REPO / "node_modules" / "ajv").is_dir():
        pytest.fail("node, @redocly/cli or ajv missing: make test installs them (npm ci)")
    return NODE


def redocly_lint(spec: Path) -> dict[str, Any]:
    """Redocly's report on ``spec``: ``totals`` and ``problems`` (JSON format)."""
    node = _need_node()
    done = subprocess.run(
        [node, str(REDOCLY), "lint", str(spec), "--config", str(REPO / "redocly.yaml"),
         "--format", "json", "--max-problems", "100000"],
        cwd=REPO, capture_output=True, text=True, timeout=300, env={**os.environ, **OFFLINE})
    assert done.stdout.strip(), done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def compile_schemas(doc: object, tmp: Path) -> tuple[int, dict[str, Any]]:
    """``contract/compile_schemas.mjs`` on ``doc``: its exit code and its report."""
    node = _need_node()
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "openapi.json").write_text(json.dumps(doc))
    done = subprocess.run([node, str(COMPILE), str(tmp / "openapi.json")], cwd=REPO,
                          capture_output=True, text=True, timeout=300)
    assert done.stdout.strip(), done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return done.returncode, report


def _where(problem: dict[str, Any]) -> str:
    return ", ".join(loc.get("pointer", "?") for loc in problem.get("location", []))


def test_redocly_recommended_finds_no_error():
    report = redocly_lint(SPEC)
    errors = [p for p in report["problems"] if p["severity"] == "error"]
    assert report["totals"]["errors"] == 0 and not errors, "\n".join(
        f"{p['ruleId']}: {p['message']} at {_where(p)}" for p in errors[:50])


def test_redocly_warns_only_where_the_rule_misreads_the_document():
    report = redocly_lint(SPEC)
    unexpected = [p for p in report["problems"]
                  if p["severity"] == "warn" and p["ruleId"] not in ACCEPTED_WARNINGS]
    assert not unexpected, "\n".join(
        f"{p['ruleId']}: {p['message']} at {_where(p)}" for p in unexpected[:50])


def test_every_schema_compiles_with_ajv_in_unicode_mode_and_every_example_validates(tmp_path):
    code, report = compile_schemas(document.load(), tmp_path)
    assert not report["failed"], "schemas Ajv cannot compile:\n" + "\n".join(
        f"{f['pointer']}: {f['error']}" for f in report["failed"])
    assert not report["invalid"], "examples their schema refuses:\n" + "\n".join(
        f"{f['pointer']}: {json.dumps(f['errors'])[:400]}" for f in report["invalid"])
    assert code == 0
    doc = document.load()
    assert report["compiled"] >= len(doc["components"]["schemas"]) + len(doc["paths"])


def test_the_compile_script_names_a_pattern_javascript_refuses(tmp_path):
    """What the script is for: today's fixed ``\\-`` (Python's ``re`` takes it) fails it."""
    doc: dict[str, Any] = {"openapi": "3.1.0", "paths": {"/x": {"post": {"requestBody": {"content": {
        "application/json": {"schema": {"type": "string"}, "example": 3}}}}}},
        "components": {"schemas": {"Id": {"type": "string", "pattern": r"^S\-1$"}}}}
    re.compile(doc["components"]["schemas"]["Id"]["pattern"])
    code, report = compile_schemas(doc, tmp_path)
    assert code == 1
    assert [f["pointer"] for f in report["failed"]] == ["#/components/schemas/Id"]
    assert [f["pointer"] for f in report["invalid"]] == [
        "#/paths/~1x/post/requestBody/content/application~1json/example"]


# ------------------------------------------------------------------ the ship-id pattern
registry.get_game("tremble")  # registers its card schema, which reading its data needs
SHIPS = [ship["id"] for ship in card_db.get("tremble", "reference").data["ships"]]
#: the pattern as it was documented (``re.escape``), which Python's ``re`` reads
BEFORE = "^(" + "|".join(map(re.escape, SHIPS)) + ")(#[0-9]+)?$"


@functools.cache
def _documented_pattern() -> str:
    schema = document.load()["components"]["schemas"]["OddsRequest"]
    fleets = next(f for f in schema["oneOf"] if "fleets" in f["properties"])
    pattern: str = fleets["properties"]["fleets"]["items"]["items"]["pattern"]
    return pattern


def _accepts(pattern: str, text: str) -> tuple[bool, bool]:
    """Whether Python's ``re`` and jsonschema-rs (the server's validator) accept ``text``."""
    return (re.search(pattern, text) is not None,
            jsonschema_rs.validator_for({"type": "string", "pattern": pattern}).is_valid(text))


def test_the_ship_id_pattern_is_the_same_language_as_before():
    after = _documented_pattern()
    assert SHIPS and "\\-" not in after and after != BEFORE
    near = [variant for ship in SHIPS for variant in (
        ship, ship + "#0", ship + "#12", ship + "#", ship + "#x", ship.lower(), ship[:-1],
        ship + "-", "-" + ship, ship.replace("-", "\\-"), ship.replace("-", ""),
        ship.replace("-", "_"), " " + ship, ship + "\n", ship + "#1#2")]
    for text in near + ["", "S-", "S\\-START", "#1", "S-START|S-CRUISER"]:
        assert _accepts(after, text) == _accepts(BEFORE, text), text
    assert all(_accepts(after, ship) == (True, True) for ship in SHIPS)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="".join(sorted(set("".join(SHIPS)))) + "#0123456789\\-.|", max_size=24)
       | st.sampled_from(SHIPS).flatmap(lambda s: st.text(max_size=3).map(lambda t: s + t)))
def test_the_ship_id_pattern_decides_any_text_as_before(text):
    assert _accepts(_documented_pattern(), text) == _accepts(BEFORE, text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=12), st.text(max_size=4))
def test_a_literal_pattern_matches_its_text_alone_in_python_and_the_server(text, other):
    pattern = "^" + shape.literal_pattern(text) + "$"
    assert _accepts(pattern, text) == (True, True)
    if other != text:  # Python's `$` also matches before a final newline
        assert _accepts(pattern, other) == (other == text + "\n", False)


# ------------------------------------------------------ what the document now declares
def _response(doc: dict[str, Any], path: str, method: str, status: int) -> dict[str, Any]:
    found: dict[str, Any] = doc["paths"][path][method]["responses"][str(status)]
    while "$ref" in found:
        found = doc["components"]["responses"][found["$ref"].rsplit("/", 1)[1]]
    return found


def test_security_is_declared_on_the_routes_the_api_key_check_guards():
    from service.middleware import EVALUATIONS_PREFIX

    doc = document.load()
    assert set(doc["components"]["securitySchemes"]) == {"bearerAuth", "apiKeyAuth"}
    assert doc["security"] == [] and doc["servers"] == [{"url": "/", "description": (
        "The server that serves this document.")}]
    for path, operations in doc["paths"].items():
        guarded = path == EVALUATIONS_PREFIX or path.startswith(EVALUATIONS_PREFIX + "/")
        for method, operation in operations.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            assert ("security" in operation) == guarded, (method, path)
            if guarded:  # either key, or none when the server has no keys
                assert operation["security"] == [{"bearerAuth": []}, {"apiKeyAuth": []}, {}]
                assert "401" in operation["responses"], (method, path)


LIMIT_HEADERS = ("Retry-After", "X-RateLimit-Limit", "X-RateLimit-Remaining",
                 "X-RateLimit-Reset")


def test_every_rate_limit_header_sent_is_declared_on_its_response():
    from service.app import create_app

    client = create_app({"TESTING": True, "RATE_LIMIT": "3/minute", "API_KEYS": "k",
                         "ACCESS_LOG": False}).test_client()
    odds = {"game": "tremble", "kind": "tremble.battle_odds", "strengths": [16, 17]}
    sent = [("/v1/games/{game}/new", client.post("/v1/games/raiders/new", json={"players": 2})),
            ("/v1/games/{game}/new", client.post("/v1/games/raiders/new", json={"players": "x"})),
            ("/v1/evaluations", client.post("/v1/evaluations", json=odds,
                                            headers={"X-API-Key": "k"})),
            ("/v1/games/{game}/new", client.post("/v1/games/raiders/new", json={"players": 2})),
            ("/v1/games/{game}/new", client.post("/v1/games/raiders/new", json={"players": 2}))]
    assert [r.status_code for _, r in sent] == [200, 400, 202, 200, 429]
    doc = document.load()
    for path, answer in sent:
        declared = _response(doc, path, "post", answer.status_code).get("headers", {})
        here = [h for h in LIMIT_HEADERS if h in answer.headers]
        assert here == list(LIMIT_HEADERS), (path, answer.status_code, here)
        assert not [h for h in here if h not in declared], (path, answer.status_code)
        assert all(not declared[h].get("required") for h in here)
