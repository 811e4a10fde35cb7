"""schemathesis's own CLI from outside, as a third party runs it (docs/api.md).

``schemathesis run BASE/openapi.yaml --checks all`` against the Procfile's
gunicorn on a free loopback port, from the repository root so that
``schemathesis.toml`` (and the hooks it loads) apply: the outside run must
report 0 failures, as the in-process ``test_schemathesis.py`` does.  Bounded
(a few examples per operation, the examples, fuzzing and stateful phases,
a fixed seed): about a minute; the coverage phase runs in process.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.servers import REPO, SERVICE_APP, gunicorn
from tests.size import sized

#: hypothesis examples per operation in the fuzzing phase (tests/size.py: 1 in a quick run)
EXAMPLES = sized(2)


def _schemathesis() -> str | None:
    found = Path(sys.executable).with_name("schemathesis")
    return str(found) if found.exists() else shutil.which("schemathesis")


@pytest.mark.skipif(_schemathesis() is None, reason="schemathesis CLI not installed")
def test_an_outside_run_with_the_repos_config_reports_no_failure(tmp_path):
    cli = _schemathesis()
    assert cli is not None
    with gunicorn(SERVICE_APP, tmp_path / "server.log") as base:
        run = subprocess.run(
            [cli, "run", f"{base}/openapi.yaml", "--checks", "all",
             "--phases", "examples,fuzzing,stateful", "-n", str(EXAMPLES), "--seed", "1",
             "--no-color"],
            cwd=REPO, capture_output=True, text=True, timeout=900)
    summary = run.stdout[-3000:]
    assert run.returncode == 0, summary + run.stderr[-2000:]
    assert " passed" in summary and "failed" not in summary.split("SUMMARY")[-1], summary
