"""Issue 11 item 8: the embedded runner keeps one store per service
instance.  Two real gunicorn instances (the Procfile's ``web`` line) on two
ports, no store configured: neither answers the other's evaluations, and
each one's workers share its own store; the store of a stopped instance is
removed when another one starts."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import free_port

from .conftest import REPO

ODDS = {"game": "tremble", "kind": "tremble.battle_odds", "strengths": [16, 17]}


class Instance:
    def __init__(self, tmp: Path, name: str, env: dict[Any, Any]):
        web = next(line[4:] for line in (REPO / "Procfile").read_text().splitlines()
                   if line.startswith("web:"))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tmp / f"{name}.log"
        self.proc = subprocess.Popen(["sh", "-c", "exec " + web], cwd=REPO,
                                     env={**env, "PORT": str(self.port)},
                                     stdout=self.log.open("wb"), stderr=subprocess.STDOUT,
                                     start_new_session=True)

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while True:
            assert self.proc.poll() is None, self.log.read_text(errors="replace")
            try:
                urllib.request.urlopen(self.url + "/healthz", timeout=2).read()
                return
            except (urllib.error.URLError, OSError):
                assert time.monotonic() < deadline, self.log.read_text(errors="replace")
                time.sleep(0.1)

    def request(self, method: str, path: str, body: dict[Any, Any] | None = None) -> tuple[int, dict[Any, Any]]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)


@pytest.fixture
def instances(tmp_path):
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    env = {**os.environ, "TMPDIR": str(tmpdir),
           "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"}
    for name in ("PROMETHEUS_MULTIPROC_DIR", "REDIS_URL", "EVALUATION_DB",
                 "REFEREE_EVALUATION_STORE"):
        env.pop(name, None)
    started: list[Instance] = []

    def start(name: str) -> Instance:
        inst = Instance(tmp_path, name, env)
        started.append(inst)
        inst.wait_ready()
        return inst

    start.tmpdir = tmpdir
    yield start
    for inst in started:
        inst.stop()


def stores(tmpdir: Path) -> list[str]:
    return sorted(p.name for p in tmpdir.glob("referee-evaluations-*.sqlite3"))


def test_two_instances_on_two_ports_keep_their_own_evaluations(instances):
    one, two = instances("one"), instances("two")
    status, body = one.request("POST", "/v1/evaluations", ODDS)
    assert status == 202, body
    location = f"/v1/evaluations/{body['id']}"
    for _ in range(6):  # any of one's two workers answers: they share one store
        status, seen = one.request("GET", location)
        assert status == 200 and seen["id"] == body["id"], seen
    status, other = two.request("GET", location)
    assert status == 404, other  # two never heard of it
    assert two.request("DELETE", location)[0] == 404
    names = stores(instances.tmpdir)
    assert names == sorted(f"referee-evaluations-{os.getuid()}-{p}.sqlite3"
                           for p in (one.proc.pid, two.proc.pid)), names
    one.stop()
    three = instances("three")
    three.request("POST", "/v1/evaluations", ODDS)  # opens its store: one's is removed
    assert stores(instances.tmpdir) == sorted(
        f"referee-evaluations-{os.getuid()}-{p}.sqlite3" for p in (two.proc.pid, three.proc.pid))
