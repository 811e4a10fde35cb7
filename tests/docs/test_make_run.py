"""``make run`` as a newcomer runs it (issue 36): the service's packages only, on loopback.

- ``make -n run`` in a copy of the checkout without a venv: the venv it would create
  gets the package alone (``-e .``), never the ``test`` extra that ``make test`` adds.
- ``make run`` itself (the venv linked, its stamps current: nothing to install) on a
  free port answers on 127.0.0.1, and gunicorn says it listens there and only there;
  ``HOST`` is what moves it.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
import urllib.request

from bench.servers import free_port
from tests.docs.test_walkthroughs import REPO, as_copy


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("REFEREE_", "MAKE")) and k not in ("REDIS_URL", "MFLAGS", "HOST")}
    return {**env, **extra}


def test_make_run_would_install_the_service_alone(tmp_path):
    for name in ("Makefile", "Procfile", "pyproject.toml"):
        (tmp_path / name).write_bytes((REPO / name).read_bytes())
    planned = subprocess.run(["make", "-n", "run"], cwd=tmp_path, env=_env(), text=True,
                             capture_output=True, check=True).stdout
    installs = [line for line in planned.splitlines() if "uv pip install" in line]
    assert installs and all(line.rstrip().endswith("-e .") for line in installs), installs
    assert "[test]" not in planned
    planned = subprocess.run(["make", "-n", "venv"], cwd=tmp_path, env=_env(), text=True,
                             capture_output=True, check=True).stdout
    assert "-e '.[test]'" in planned  # what make test builds: the test extra on the same venv


def test_make_run_answers_on_loopback_only(tmp_path):
    as_copy(tmp_path)
    port = free_port()
    log = tmp_path / "make-run.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(["make", "run"], cwd=tmp_path, env=_env(PORT=str(port)),
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                body = urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2).read()
                break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        assert b'"ok"' in body
        text = log.read_text()
        assert f"referee: http://127.0.0.1:{port}" in text
        assert re.findall(r"Listening at: (\S+)", text) == [f"http://127.0.0.1:{port}"], text
        assert "uv pip install" not in text  # the linked venv was current: nothing installed
    finally:
        os.killpg(proc.pid, signal.SIGTERM)  # make, its shell and gunicorn: the group started here
        proc.wait(timeout=30)
