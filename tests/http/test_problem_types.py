"""Problem types resolve (RFC 9457 §3.1.1): every ``type`` is a page on this server (issue 14).

Three ways a type outside ``PROBLEM_TYPES`` is caught:

* the ``Problem`` schema's ``type`` is an enum of the table, so every problem
  the HTTP suite sees through ``api``/``real_api`` (each response is validated
  against ``openapi.yaml``) must have a type in the table;
* a scan of the source for every slug a problem is built with;
* a battery of bad requests below, each checked here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

import pytest

from service.problem_types import PROBLEM_BASE, PROBLEM_TYPES
from service.problems import HTTP_PROBLEMS, INSTANCE_PREFIX

ROOT = Path(__file__).resolve().parents[2]
SLUG_SOURCES = ("service", "workers")
#: how the code names a problem's slug: ProblemError(404, "slug"…), problem(503, "slug"…),
#: ProblemError.of("slug"…), an exception class's row of ``ERROR_TYPES``
#: (``RuleViolation: "illegal-action",``), and ``PROBLEM_BASE + "slug"`` / a full type URI
SLUG_PATTERNS = (
    re.compile(r"\b(?:ProblemError|problem)\(\s*\d{3},\s*\"([a-z0-9-]+)\""),
    re.compile(r"\bProblemError\.of\(\s*\"([a-z0-9-]+)\""),
    re.compile(r"^\s+[A-Z]\w*: \"([a-z0-9-]+)\",$", re.M),
    re.compile(r"^\s*slug = \"([a-z0-9-]+)\"", re.M),
    re.compile(r"PROBLEM_BASE \+ \"([a-z0-9-]+)\""),
    re.compile(r"/problems/([a-z0-9-]+)\""),
)


def slugs_in_source() -> dict[str, str]:
    """Every slug the code builds a problem with → the first file naming it."""
    found: dict[str, str] = {}
    for top in SLUG_SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            for pattern in SLUG_PATTERNS:
                for slug in pattern.findall(text):
                    found.setdefault(slug, str(path.relative_to(ROOT)))
    return found


def test_every_slug_the_code_uses_is_in_the_table():
    found = slugs_in_source()
    assert {"illegal-action", "unknown-game", "bad-signature", "not-ready"} <= set(found)
    missing = {slug: where for slug, where in found.items() if slug not in PROBLEM_TYPES}
    assert not missing, f"problem slugs without a row in service.problems.PROBLEM_TYPES: {missing}"


def test_every_exception_class_maps_to_a_row():
    from service.problem_types import ERROR_TYPES

    assert set(ERROR_TYPES.values()) <= set(PROBLEM_TYPES)


def test_every_http_status_the_service_answers_itself_has_a_type():
    for status in (400, 404, 405, 413, 415, 429, 500, 503):
        assert HTTP_PROBLEMS[status][0] in PROBLEM_TYPES


def test_the_problem_type_schema_lists_exactly_the_table(real_api):
    """The known types are the table; a problem's ``type`` is open (a later minor version may
    add types), so the contract checker holds every problem the suite sees to the table
    (``tests/contract.py``)."""
    schemas = real_api.spec["components"]["schemas"]
    assert schemas["ProblemType"]["enum"] == [PROBLEM_BASE + slug for slug in PROBLEM_TYPES]
    assert schemas["Problem"]["properties"]["type"]["anyOf"] == [
        {"$ref": "#/components/schemas/ProblemType"}, {"type": "string"}]


def test_each_row_explains_when_and_what_to_do():
    for slug, row in PROBLEM_TYPES.items():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug) and row.slug == slug
        assert row.title and row.when.endswith(".") and row.fix.endswith(".")
        assert row.status is None or 400 <= row.status <= 599


@pytest.mark.parametrize("slug", list(PROBLEM_TYPES))
def test_every_problem_type_has_a_page(real_api, slug):
    row = PROBLEM_TYPES[slug]
    page = real_api.get(PROBLEM_BASE + slug)
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert row.title.replace("'", "&#39;") in html and "What to do" in html
    as_json = real_api.get(PROBLEM_BASE + slug, headers={"Accept": "application/json"})
    assert as_json.status_code == 200 and as_json.json == row.to_json()


def test_the_index_lists_every_problem_type(real_api):
    page = real_api.get("/problems").get_data(as_text=True)
    assert all(f'href="{PROBLEM_BASE}{slug}"' in page for slug in PROBLEM_TYPES)
    listed = real_api.get("/problems", headers={"Accept": "application/json"}).json
    assert [t["slug"] for t in listed["problem_types"]] == list(PROBLEM_TYPES)


def test_an_unknown_problem_type_is_a_404_problem(real_api):
    r = real_api.get("/problems/no-such-thing")
    assert r.status_code == 404 and r.json["type"] == "/problems/not-found"
    assert "no-such-thing" in r.json["detail"]


def _new_state(api) -> dict[Any, Any]:
    return api.post("/v1/games/raiders/new", json={"players": 2, "seed": 3}).json["state"]


def bad_requests(api) -> list[Any]:
    """A problem of most kinds the games API answers with."""
    state = _new_state(api)
    capture = {"type": "capture", "player": 0, "fighter": state["players"][0]["hand"][0],
               "property": "nowhere"}
    other_game = {**state, "game": "tremble"}
    return [
        api.get("/v1/games/chess"),                                             # unknown-game
        api.get("/v1/games/raiders/cards?set=nope"),                            # unknown-card-set
        api.get("/v1/games/raiders/rules/RAI-99"),                              # unknown-clause
        api.get("/v2/nothing"),                                                 # not-found
        api.open("DELETE", "/v1/games/raiders/new"),                            # method-not-allowed
        api.post("/v1/games/raiders/new", data="{", content_type="application/json"),
        api.post("/v1/games/raiders/new", data="x", content_type="text/plain"),
        api.post("/v1/games/raiders/new", json={"players": 2, "colour": 1}),    # malformed-request
        api.post("/v1/games/raiders/new", json={"players": 9}),                 # invalid-options
        api.post("/v1/games/raiders/apply", json={"state": state, "action": capture}),
        api.post("/v1/games/tremble/score", json={"state": other_game}),       # incompatible
        api.post("/v1/games/raiders/score", json={"state": {**state, "turn": "x"}}),
    ]


def test_every_problem_seen_resolves_and_names_its_request(real_api):
    """Each problem's ``type`` is in the table and resolves (against the request URL) to its
    page on this server; ``instance`` is the request's own id."""
    seen = set()
    for r in bad_requests(real_api):
        assert r.mimetype == "application/problem+json", (r.status_code, r.get_data()[:200])
        body = r.json
        slug = body["type"].removeprefix(PROBLEM_BASE)
        assert slug in PROBLEM_TYPES, body
        row = PROBLEM_TYPES[slug]
        assert row.status in (None, body["status"]), (slug, body["status"])
        assert body["instance"] == INSTANCE_PREFIX + r.headers["X-Request-Id"]
        resolved = urljoin("http://localhost/v1/games/raiders/apply", body["type"])
        assert resolved == f"http://localhost/problems/{slug}"
        assert real_api.get(resolved.removeprefix("http://localhost")).status_code == 200
        seen.add(slug)
    assert seen >= {"unknown-game", "unknown-card-set", "unknown-clause", "not-found",
                    "method-not-allowed", "unsupported-media-type",
                    "malformed-request", "invalid-options", "illegal-action",
                    "incompatible-state", "invalid-state"}, seen


def test_instance_is_the_clients_request_id(real_api):
    r = real_api.get("/v1/games/chess", headers={"X-Request-Id": "client-run-7"})
    assert r.json["instance"] == "urn:referee:request:client-run-7"
    assert r.headers["X-Request-Id"] == "client-run-7"
