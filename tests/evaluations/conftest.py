"""Fixtures for evaluation tests: apps on either runner, real RQ workers.

* ``make_app(redis_url=None, **config)`` — the Flask app (``create_app``)
  with or without ``REDIS_URL``;
* ``workers`` — starts real ``rq worker referee`` processes (the venv's
  ``rq`` script, ``PYTHONPATH`` = the repository) and kills them afterwards;
  ``workers.kill_machine(proc)`` SIGKILLs a worker and its work horse, as if
  the machine had died.
* ``fresh_redis`` — the session's redis-server, emptied for this test.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
RQ = Path(sys.executable).with_name("rq")


@pytest.fixture
def make_app(tmp_path):
    def build(redis_url: str | None = None, **config):
        from service.app import create_app

        return create_app({"TESTING": True, "REDIS_URL": redis_url,
                           "EVALUATION_DB": str(tmp_path / "evaluations.sqlite3"), **config})
    return build


@pytest.fixture
def fresh_redis(redis_url):
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    return redis_url


def children_of(pid: int) -> list[int]:
    """Pids whose parent is ``pid`` (the work horse of an RQ worker)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (workers under a supervisor, their horses)."""
    out, todo = [], [pid]
    while todo:
        for child in children_of(todo.pop()):
            out.append(child)
            todo.append(child)
    return out


def kill_tree(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL ``proc`` and everything below it, as a machine dying would."""
    tree = descendants(proc.pid)
    proc.send_signal(signal.SIGKILL)
    for pid in tree:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait(timeout=10)


class Workers:
    def __init__(self, url: str, tmp: Path):
        self.url, self.tmp, self.procs = url, tmp, []

    def start(self, name: str, **env_extra: str) -> subprocess.Popen[bytes]:
        env = {**os.environ, "PYTHONPATH": str(REPO), **env_extra}
        log = (self.tmp / f"{name}.log").open("wb")
        proc = subprocess.Popen([str(RQ), "worker", "referee", "--url", self.url, "--name", name,
                                 "--logging_level", "WARNING",
                                 "-w", "workers.worker.RefereeWorker"],
                                cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
        self.procs.append(proc)
        return proc

    def wait_registered(self, count: int, timeout: float = 20) -> None:
        import redis
        from rq import Worker

        conn = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + timeout
        while len(Worker.all(connection=conn)) < count:
            if time.monotonic() > deadline:
                raise AssertionError(f"{count} workers did not register: " + self.logs())
            time.sleep(0.05)

    def kill_machine(self, proc: subprocess.Popen[bytes]) -> None:
        kill_tree(proc)

    def logs(self) -> str:
        return "\n".join(p.read_text(errors="replace")[-2000:] for p in self.tmp.glob("*.log"))

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                for pid in children_of(proc.pid):
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                proc.kill()
                proc.wait(timeout=10)


@pytest.fixture
def workers(fresh_redis, tmp_path):
    import redis

    pool = Workers(fresh_redis, tmp_path)
    yield pool
    pool.stop_all()
    # killed workers leave their registrations (and /readyz would count them)
    redis.Redis.from_url(fresh_redis).flushdb()


def poll(client, location: str, until=("finished", "failed", "canceled"), timeout: float = 30):
    """GET ``location`` until its status is in ``until``; the last body."""
    deadline = time.monotonic() + timeout
    while True:
        r = client.get(location)
        assert r.status_code == 200, r.json
        if r.json["status"] in until:
            return r.json
        if time.monotonic() > deadline:
            raise AssertionError(f"still {r.json['status']} after {timeout} s: {r.json}")
        time.sleep(0.05)


def free_port_url() -> str:
    """A Redis URL where nothing listens."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"redis://127.0.0.1:{port}/0"
