"""Start and stop gunicorn exactly as the Procfile's ``web`` line does.

``gunicorn_command(app)`` reads the Procfile, swaps in the WSGI target
(``bench.floor_app:create_app()`` for the floor) and binds loopback on a free
port; every other flag (``--workers 2``, the worker class…) stays as the
Procfile has it, so the service and its floor run under one configuration.

>>> cmd = gunicorn_command("bench.floor_app:create_app()", 8123)
>>> cmd[1:3], "--bind" in cmd, cmd[cmd.index("--bind") + 1]
(['bench.floor_app:create_app()', '--workers'], True, '127.0.0.1:8123')
"""

from __future__ import annotations

import os
import shlex
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SERVICE_APP = "service.app:create_app()"
FLOOR_APP = "bench.floor_app:create_app()"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def procfile_web() -> list[str]:
    for line in (REPO / "Procfile").read_text().splitlines():
        if line.startswith("web:"):
            return shlex.split(line[len("web:"):])
    raise RuntimeError("the Procfile has no web line")


def gunicorn_command(app: str, port: int) -> list[str]:
    """The Procfile's web command serving ``app`` on ``127.0.0.1:port``."""
    words = procfile_web()
    if words[0] != "gunicorn" or words[1] != SERVICE_APP:
        raise RuntimeError(f"unexpected Procfile web line: {words}")
    words = [str(Path(sys.executable).with_name("gunicorn")), app, *words[2:]]
    words = [w.replace("$PORT", str(port)).replace("${PORT}", str(port)) for w in words]
    at = words.index("--bind")
    words[at + 1] = f"127.0.0.1:{port}"
    words[0] = "gunicorn" if not Path(words[0]).exists() else words[0]
    return words


def wait_ready(url: str, proc: subprocess.Popen[bytes], log: Path, seconds: float = 60) -> None:
    """Wait until the server at ``url`` answers anything (a 404 on ``/`` is
    fine); fail naming ``log`` if it exits or stays silent."""
    deadline = time.monotonic() + seconds
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"gunicorn exited ({proc.returncode}); see {log}")
        try:
            urllib.request.urlopen(url + "/", timeout=1)
            return
        except urllib.error.HTTPError:
            return  # it answers
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer on {url}; see {log}") from None
            time.sleep(0.1)


@contextmanager
def gunicorn(app: str, log: Path, env: dict[Any, Any] | None = None,
             extra_args: list[str] | None = None, stop_seconds: float = 30):
    """Serve ``app`` under the Procfile's gunicorn command (plus ``extra_args``,
    which override it); yield its base URL, stop it after.  The server inherits
    none of the caller's service settings (``REFEREE_*``; ``REDIS_URL``: no RQ;
    ``PROMETHEUS_MULTIPROC_DIR``: its own metrics directory): only ``env``."""
    port = free_port()
    cmd = gunicorn_command(app, port) + list(extra_args or [])
    inherited = ("REDIS_URL", "PROMETHEUS_MULTIPROC_DIR")
    environ = {k: v for k, v in os.environ.items()
               if not k.startswith("REFEREE_") and k not in inherited}
    environ["PYTHONPATH"] = str(REPO)
    environ.update(env or {})
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, env=environ, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_ready(url, proc, log)
        yield url
    finally:
        stop(proc, stop_seconds)


def stop(proc: subprocess.Popen[bytes], seconds: float = 30) -> None:
    """SIGTERM, then SIGKILL after ``seconds``."""
    proc.terminate()
    try:
        proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
