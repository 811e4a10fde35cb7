"""Fixtures shared by every test directory.

* ``app``       — the Flask app from ``service.app.create_app`` (real registry)
* ``client``    — its test client
* ``redis_url`` — a private ``redis-server`` for this test session, on a free
  port in a temporary directory (never the machine's shared Redis on 6379).
  A missing ``redis-server`` fails the test loudly: it is not skipped.
* ``private_redis`` — a redis-server of one test's own, to freeze, kill or empty.

``make test`` runs the suite on every core (pytest-xdist, ``-n auto``), each module
handed out whole to one worker (``tests/scheduling.py``).  Each worker is a pytest
session of its own: its ``redis_url``, its temporary directories, and free ports for
every server a fixture starts.

Every Flask app the tests make hands out ``tests.wsgi.QuickClient`` as its test
client: Flask's, with a shorter road for plain requests (that module says why).
"""

from __future__ import annotations

import pathlib
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

import flask
import pytest

from tests.wsgi import QuickClient, client_of

if TYPE_CHECKING:
    from bench.redis_faults import RedisProcess

flask.Flask.test_client_class = QuickClient


@pytest.fixture
def app() -> flask.Flask:
    from service.app import create_app

    return create_app({"TESTING": True})


@pytest.fixture
def client(app: flask.Flask) -> QuickClient:
    return client_of(app)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``redis://127.0.0.1:<port>/0`` of a redis-server started for this session."""
    import redis

    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is not installed; `make test` installs it "
                    "(apt-get install -y redis-server)", pytrace=False)
    workdir = tmp_path_factory.mktemp("redis")
    port = free_port()
    proc = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(workdir), "--daemonize", "no", "--protected-mode", "yes"],
        stdout=(workdir / "redis.log").open("wb"), stderr=subprocess.STDOUT)
    url = f"redis://127.0.0.1:{port}/0"
    deadline = time.monotonic() + 15
    try:
        while True:
            if proc.poll() is not None:
                pytest.fail(f"redis-server exited with {proc.returncode}: "
                            + (workdir / "redis.log").read_text(errors="replace")[-2000:],
                            pytrace=False)
            try:
                if redis.Redis.from_url(url, socket_connect_timeout=0.5).ping():
                    break
            except redis.ConnectionError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"redis-server on port {port} did not answer within 15 s", pytrace=False)
            time.sleep(0.05)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def private_redis(tmp_path: pathlib.Path) -> Iterator[RedisProcess]:
    """A redis-server of the test's own (``bench.redis_faults.RedisProcess``), which the
    test may freeze (SIGSTOP), kill or restart empty; stopped after the test."""
    from bench.redis_faults import RedisProcess

    server = RedisProcess(tmp_path)
    server.start()
    yield server
    server.stop()
