"""The breaking-change gate (docs/api.md, "The breaking-change gate").

``contract/openapi-<version>.yaml`` is the contract of the last release
(``make contract-baseline`` writes it).  ``openapi.yaml`` may differ from it in
any way a client generated from it does not notice; a breaking change
(api-smart-diff's classification, ``contract/breaking.mjs``) fails here unless
``info.version``'s major is above the baseline's.  The version itself never
goes backwards and is ``pyproject.toml``'s.

The gate is one function, ``gate``; the last tests feed it deliberate breaks
(a renamed field, a new required request field) and an addition, so it is
shown to turn red and to stay green when it should.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest

from service.games.versions import parse_semver
from service.version import CONTRACT_VERSION
from tests import document

REPO = Path(__file__).resolve().parents[2]
SPEC = REPO / "openapi.yaml"
BASELINES = REPO / "contract"
SCRIPT = BASELINES / "breaking.mjs"
NODE = shutil.which("node")


def load(path: Path) -> dict[Any, Any]:
    return document.load(path.read_text(encoding="utf-8"))


def baseline_path() -> Path:
    """The newest ``contract/openapi-<version>.yaml`` (one is kept; the newest wins)."""
    found = sorted(BASELINES.glob("openapi-*.yaml"),
                   key=lambda p: parse_semver(p.name[len("openapi-"):-len(".yaml")]))
    if not found:
        pytest.fail("no contract/openapi-<version>.yaml: make openapi && make contract-baseline")
    return found[-1]


def breaking_changes(before: dict[Any, Any], after: dict[Any, Any], tmp: Path) -> list[dict[Any, Any]]:
    """api-smart-diff's breaking changes of ``after`` for a client of ``before``."""
    if not NODE or not (REPO / "node_modules" / "api-smart-diff").is_dir():
        pytest.fail("node or api-smart-diff missing: make test installs them (npm ci)")
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "before.json").write_text(json.dumps(before))
    (tmp / "after.json").write_text(json.dumps(after))
    done = subprocess.run([NODE, str(SCRIPT), str(tmp / "before.json"), str(tmp / "after.json")],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def gate(before: dict[Any, Any], after: dict[Any, Any], tmp: Path) -> list[str]:
    """Why ``after`` may not ship as a successor of ``before`` (empty: it may)."""
    old, new = before["info"]["version"], after["info"]["version"]
    if parse_semver(new) < parse_semver(old):
        return [f"info.version went backwards: {new} after the release {old}"]
    if parse_semver(new)[0] > parse_semver(old)[0]:
        return []  # a new major may break (CHANGELOG.md says how)
    found = breaking_changes(before, after, tmp)
    return [f"{c['action']} {c['path']}: {c['description']}".rstrip(": ") for c in found]


def test_the_contract_keeps_every_promise_of_the_last_release(tmp_path):
    base = baseline_path()
    problems = gate(load(base), load(SPEC), tmp_path)
    assert not problems, (
        f"{len(problems)} breaking change(s) of openapi.yaml against {base.name} with the same "
        f"major version: undo them, or make a new major version (service/version.py, "
        f"pyproject.toml, CHANGELOG.md, then `make contract-baseline` at the release):\n  "
        + "\n  ".join(problems[:40]))


def test_the_version_is_one_number_that_never_goes_backwards():
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["project"]["version"] == CONTRACT_VERSION
    assert load(SPEC)["info"]["version"] == CONTRACT_VERSION
    released = baseline_path().name[len("openapi-"):-len(".yaml")]
    assert parse_semver(CONTRACT_VERSION) >= parse_semver(released)
    assert load(baseline_path())["info"]["version"] == released
    changelog = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "## [Unreleased]" in changelog
    assert f"## [{released}] - " in changelog, f"CHANGELOG.md has no section for {released}"


# --------------------------------------------------------------- the gate, shown to work
@pytest.fixture(scope="module")
def current() -> dict[Any, Any]:
    return load(SPEC)


def renamed_reveal_face(doc: dict[Any, Any]) -> dict[Any, Any]:
    """Kozyablo's ``reveal.face`` renamed back to ``card`` (the break of issue 23)."""
    broken = copy.deepcopy(doc)
    reveal = broken["components"]["schemas"]["KozyabloRevealAction"]
    reveal["properties"]["card"] = reveal["properties"].pop("face")
    reveal["required"] = ["card" if r == "face" else r for r in reveal["required"]]
    return broken


def test_the_gate_refuses_a_renamed_field(current, tmp_path):
    problems = gate(current, renamed_reveal_face(current), tmp_path)
    assert problems
    assert any("/v1/games/kozyablo/apply" in p and "card" in p for p in problems), problems
    assert any("/v1/games/kozyablo/legal-actions" in p and "face" in p for p in problems), problems


def test_the_gate_refuses_a_new_required_request_field(current, tmp_path):
    broken = copy.deepcopy(current)
    schemas = broken["components"]["schemas"]
    request = next(name for name in ("KozyabloApplyRequest", "ApplyRequest") if name in schemas)
    schemas[request]["properties"]["table"] = {"type": "string"}
    schemas[request].setdefault("required", []).append("table")
    problems = gate(current, broken, tmp_path)
    assert any("table" in p and "/apply" in p for p in problems), problems


def test_the_gate_lets_a_break_through_with_a_new_major_only(current, tmp_path):
    broken = renamed_reveal_face(current)
    major = parse_semver(current["info"]["version"])[0]
    broken["info"]["version"] = f"{major}.1.0"
    assert gate(current, broken, tmp_path / "minor")
    broken["info"]["version"] = f"{major + 1}.0.0"
    assert gate(current, broken, tmp_path / "major") == []


def test_the_gate_takes_an_addition_and_refuses_a_version_going_backwards(current, tmp_path):
    grown = copy.deepcopy(current)
    reveal = grown["components"]["schemas"]["KozyabloRevealAction"]
    reveal["properties"]["note"] = {"type": "string", "maxLength": 80}  # optional
    grown["paths"]["/v1/games/{game}/history"] = copy.deepcopy(
        grown["paths"]["/v1/games/{game}"])  # a new operation
    for operation in grown["paths"]["/v1/games/{game}/history"].values():
        if isinstance(operation, dict) and "operationId" in operation:
            operation["operationId"] += "_history"
    assert gate(current, grown, tmp_path / "grown") == []
    older = copy.deepcopy(current)
    older["info"]["version"] = "0.1.0"  # what the builds before 1.0.0 said
    assert gate(current, older, tmp_path / "older") == [
        f"info.version went backwards: 0.1.0 after the release {current['info']['version']}"]
