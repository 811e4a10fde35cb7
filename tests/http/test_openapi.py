"""openapi.yaml: valid OpenAPI 3.1, every route documented, committed = generated.

Responses are checked against the document by the ``api`` fixture in every
test of this directory; here the document itself is checked.
"""

from __future__ import annotations

import difflib
import os
import pathlib
import re
import subprocess
import sys

import pytest
from openapi_spec_validator import validate

from service.games import registry
from tests import document

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_generated_document_is_valid_openapi_3_1(api):
    validate(api.spec)
    assert api.spec["openapi"] == "3.1.0"


def _template(rule: str) -> str:
    return re.sub(r"<(?:[^:>]+:)?[^>]+>", "{}", rule)


def test_every_flask_route_and_method_is_documented(api):
    documented = {re.sub(r"\{[^}]+\}", "{}", path): set(ops) for path, ops in api.spec["paths"].items()}
    for rule in api.app.url_map.iter_rules():
        methods = {m.lower() for m in rule.methods} - {"head", "options"}
        path = _template(rule.rule)
        owner = api.app.view_functions[rule.endpoint].__module__
        assert path in documented, (
            f"route {rule.rule} ({owner}) is not in openapi.yaml: give {owner} a "
            "document(spec) function (example in the service.openapi docstring)")
        assert methods <= documented[path], f"{rule.rule}: {methods - documented[path]} undocumented"


def _served(path: str, rules: set[str]) -> bool:
    """``path`` is a route template, or a typed per-game path a ``{}`` route serves."""
    template = re.sub(r"\{[^}]+\}", "{}", path)
    return template in rules or any(
        re.fullmatch(re.escape(rule).replace(r"\{\}", "[^/]+"), template) for rule in rules)


def test_documented_paths_exist(api):
    rules = {_template(r.rule) for r in api.app.url_map.iter_rules()}
    for path in api.spec["paths"]:
        assert _served(path, rules), path


def test_every_error_status_is_documented_with_the_problem_schema(api):
    for path, ops in api.spec["paths"].items():
        for method, op in ops.items():
            codes = set(op["responses"])
            assert {"405", "500"} <= codes, (method, path)
            if method == "post" and "requestBody" in op:  # a body is parsed: it can be refused
                assert {"400", "413", "415"} <= codes, (method, path)
            for code in codes - {"200", "202", "204", "304"}:  # 304: not an error
                ref = op["responses"][code]["$ref"]
                content = api.spec["components"]["responses"][ref.rsplit("/", 1)[1]]["content"]
                assert content["application/problem+json"]["schema"] == {
                    "$ref": "#/components/schemas/Problem"}
    for verb in ("apply", "replay"):
        assert "422" in api.spec["paths"][f"/v1/games/{{game}}/{verb}"]["post"]["responses"]


def test_engine_shapes_become_components(api):
    schemas = api.spec["components"]["schemas"]
    assert schemas["PebblesState"]["properties"]["game"] == {"const": "pebbles"}
    assert schemas["PebblesAction"]["oneOf"] == [{"$ref": "#/components/schemas/PebblesTakeAction"}]
    assert schemas["GameState"]["discriminator"]["mapping"] == {
        "pebbles": "#/components/schemas/PebblesState"}
    assert schemas["ApplyRequest"]["properties"]["state"]["$ref"] == "#/components/schemas/GameState"


def test_a_response_that_breaks_the_spec_is_caught(api, contract):
    """The contract check the ``api`` fixture runs is not a no-op."""

    class Fake:
        status_code, mimetype = 200, "application/json"

        def get_data(self):
            return b'{"games": [{"id": 3}]}'
    with pytest.raises(contract.Violation):
        contract.check(api.spec, "GET", "/v1/games", Fake())
    Fake.status_code = 418
    with pytest.raises(contract.Violation):
        contract.check(api.spec, "GET", "/v1/games", Fake())


def test_committed_openapi_yaml_is_up_to_date():
    """``python -m service.openapi > openapi.yaml`` gives exactly the committed file.

    Run as that command, in a fresh process, so what other tests imported
    before (and in which order) cannot change the result.
    """
    committed = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "CARD_DB_PATH"}
    fresh = subprocess.run([sys.executable, "-m", "service.openapi"], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120, check=True).stdout
    if fresh != committed:
        diff = "".join(list(difflib.unified_diff(committed.splitlines(True), fresh.splitlines(True),
                                                 "openapi.yaml (committed)", "generated"))[:40])
        pytest.fail("openapi.yaml is stale: run `make openapi`\n" + diff, pytrace=False)
    doc = document.load(committed)
    validate(doc)
    assert set(doc["components"]["parameters"]["game"]["schema"]["enum"]) == set(registry.GAME_IDS)


def test_generation_is_deterministic_in_process():
    """Two generations in one process are identical (nothing set-ordered or random)."""
    from service.openapi import spec_yaml

    assert spec_yaml() == spec_yaml()


def test_spec_version_is_the_package_version():
    """``info.version`` is the version in pyproject.toml: one number for the package and
    its contract."""
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    doc = document.load()
    assert doc["info"]["version"] == project["version"]
