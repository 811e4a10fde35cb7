"""Clients generated from openapi.yaml play every game against the real server (issue 13).

A third-party app starts by generating a client from ``openapi.yaml``; this module
does what it would, with the spec as it is in the checkout at test time:

- openapi-python-client generates a Python package and @hey-api/openapi-ts a
  TypeScript client (fetch, types, zod validators on every request and answer),
  each with ZERO warnings; ``tsc`` (strict) type-checks the generated client
  together with ``play.ts``, with zero diagnostics;
- against the Procfile's gunicorn on loopback, ``play_python.py`` and ``play.ts``
  play one seeded random game of every game in both chance modes to the end
  through the generated functions and models only, then replay it and check the
  replay's final state and outcome;
- forward compatibility (docs/clients.md): a real ``apply`` answer with an event
  of a type and a field no version has yet, served by a loopback stub, is parsed
  by both generated clients without error.

The tools come from ``make test`` (``openapi-python-client`` in the test extra,
``npm ci`` for ``package.json``); ``docs/clients.md`` has the recipes.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from bench.servers import SERVICE_APP, gunicorn

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SPEC = REPO / "openapi.yaml"
PYTHON_GENERATOR = Path(sys.executable).with_name("openapi-python-client")
NODE_BIN = REPO / "node_modules" / ".bin"
NODE = shutil.which("node")
SEED = 7
GAMES = {"raiders", "kozyablo", "tremble"}
#: an event type and a response field that no version of the service has (yet)
FUTURE_EVENT = {"type": "comet_passed", "rule": "RAI-99", "brightness": 3}
FUTURE_FIELD = "forecast"


def run(cmd: list[str], cwd: Path, timeout: float, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "NO_COLOR": "1", **(env or {})})


def require(tool: Path | str | None, how: str) -> None:
    if not tool or not Path(tool).exists():
        pytest.fail(f"{tool or 'node'} is missing: {how}")


@pytest.fixture(scope="module")
def python_client(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    """(the folder holding the generated ``referee_client`` package, the generator's run)."""
    require(PYTHON_GENERATOR, "make test installs it (pyproject.toml, test extra)")
    out = tmp_path_factory.mktemp("python_client")
    done = run([str(PYTHON_GENERATOR), "generate", "--path", str(SPEC), "--meta", "none",
                "--config", str(HERE / "python_client.yaml"),
                "--output-path", str(out / "referee_client")], cwd=out, timeout=120)
    return out, done


@pytest.fixture(scope="module")
def typescript_client(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess, subprocess.CompletedProcess]:
    """(the folder with ``out/play.js``, the generator's run, tsc's run)."""
    require(NODE, "make test installs nodejs and npm (apt) when missing")
    require(NODE_BIN / "openapi-ts", "make test runs `npm ci` (package.json)")
    build = tmp_path_factory.mktemp("typescript_client")
    (build / "node_modules").symlink_to(REPO / "node_modules", target_is_directory=True)
    shutil.copy(HERE / "play.ts", build / "play.ts")
    shutil.copy(HERE / "tsconfig.json", build / "tsconfig.json")
    generated = run([str(NODE_BIN / "openapi-ts"), "--file", str(HERE / "openapi-ts.config.mjs")],
                    cwd=build, timeout=120,
                    env={"REFEREE_OPENAPI": str(SPEC), "REFEREE_TS_OUT": str(build / "gen")})
    compiled = run([str(NODE_BIN / "tsc"), "-p", str(build)], cwd=build, timeout=180)
    return build, generated, compiled


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    """The base URL of the Procfile's gunicorn on a free loopback port."""
    log = tmp_path_factory.mktemp("clients_server") / "gunicorn.log"
    with gunicorn(SERVICE_APP, log) as url:
        yield url


def generator_warnings(output: str) -> list[str]:
    """The lines of a generator's output that warn (or fail), banner and progress left out."""
    return [line for line in output.splitlines()
            if re.search(r"warn|error|unable|cannot|could not|skipping", line, re.IGNORECASE)]


def test_python_client_generates_without_warnings(python_client):
    out, done = python_client
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert not generator_warnings(output), "openapi-python-client warned:\n" + output
    assert (out / "referee_client" / "models" / "apply_response.py").exists(), output


def test_typescript_client_generates_and_type_checks_without_warnings(typescript_client):
    build, generated, compiled = typescript_client
    output = generated.stdout + generated.stderr
    assert generated.returncode == 0, output
    assert not generator_warnings(output), "@hey-api/openapi-ts warned:\n" + output
    assert not generated.stderr.strip(), output
    diagnostics = compiled.stdout + compiled.stderr
    assert compiled.returncode == 0 and not diagnostics.strip(), "tsc:\n" + diagnostics
    assert (build / "out" / "play.js").exists()


def played(done: subprocess.CompletedProcess, client: str) -> list[dict]:
    assert done.returncode == 0, f"{client} client failed:\n{done.stdout}\n{done.stderr[-4000:]}"
    games = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert {(g["game"], g["chance"]) for g in games} == {(g, c) for g in GAMES for c in ("server", "table")}
    assert all(g["actions"] > 0 and g["winners"] for g in games), games
    return games


def test_python_client_plays_and_replays_every_game(python_client, server):
    """Every game, chance server and table, played to the end and replayed with the
    generated Python client (its functions and attrs models only)."""
    out, _ = python_client
    done = run([sys.executable, str(HERE / "play_python.py"), "--base-url", server, "--seed", str(SEED)],
               cwd=out, timeout=120, env={"PYTHONPATH": str(out)})
    games = played(done, "python")
    assert {g["state_type"] for g in games} == {"RaidersState", "KozyabloState", "TrembleState"}
    # one view type per game (issue 23): legal-actions took the view answer's object as it is
    assert all(g["from_view"] > 0 for g in games), games


def test_typescript_client_plays_and_replays_every_game(typescript_client, server):
    """Every game, chance server and table, played to the end and replayed with the
    generated TypeScript SDK, every body validated by its zod schemas."""
    build, _, compiled = typescript_client
    assert compiled.returncode == 0, compiled.stdout
    done = run([NODE, str(build / "out" / "play.js"), "--base-url", server, "--seed", str(SEED)],
               cwd=build, timeout=120)
    games = played(done, "typescript")
    # one view type per game (issue 23): legal-actions took the view answer's object as it is
    assert all(g["from_view"] > 0 for g in games), games


@pytest.fixture(scope="module")
def future_apply(server) -> Iterator[str]:
    """A loopback stub answering every POST with a real Raiders ``apply`` answer plus
    ``FUTURE_EVENT`` (an event type no version has) and ``FUTURE_FIELD`` (an unknown
    optional field, on the answer and on the event)."""
    def post(path: str, body: dict) -> dict:
        request = urllib.request.Request(server + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.load(answer)

    state = post("/v1/games/raiders/new", {"players": 2, "seed": SEED, "options": {"chance": "server"}})["state"]
    action = post("/v1/games/raiders/legal-actions", {"state": state})["actions"][0]
    answer = post("/v1/games/raiders/apply", {"state": state, "action": action})
    answer["events"].append({**FUTURE_EVENT, FUTURE_FIELD: {"next": "turn"}})
    answer[FUTURE_FIELD] = {"rain": 0.2}
    body = json.dumps(answer).encode()

    class Stub(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args) -> None:
            pass

    stub = ThreadingHTTPServer(("127.0.0.1", 0), Stub)
    threading.Thread(target=stub.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{stub.server_address[1]}"
    finally:
        stub.shutdown()
        stub.server_close()


def parsed_future(done: subprocess.CompletedProcess, client: str) -> dict:
    assert done.returncode == 0, (f"the {client} client cannot parse an apply answer with an unknown "
                                  f"event type and field:\n{done.stdout}\n{done.stderr[-4000:]}")
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["event_types"][-1] == FUTURE_EVENT["type"], result
    # kept, not dropped: a client can pass on or log what it does not know
    assert FUTURE_FIELD in result["answer_fields"], result
    assert {FUTURE_FIELD, "rule", "brightness"} <= set(result["last_event_fields"]), result
    return result


def test_python_client_parses_unknown_event_types_and_fields(python_client, server, future_apply):
    """Forward compatibility: RaidersApplyResponse.from_dict (via the generated
    ``raiders_apply``) accepts an event type and fields added by a later version,
    and keeps them (``additional_properties``)."""
    out, _ = python_client
    done = run([sys.executable, str(HERE / "play_python.py"), "--base-url", server,
                "--forward-url", future_apply], cwd=out, timeout=60, env={"PYTHONPATH": str(out)})
    result = parsed_future(done, "python")
    assert result["state_type"] == "RaidersState"


def test_typescript_client_parses_unknown_event_types_and_fields(typescript_client, server, future_apply):
    """Forward compatibility: the generated SDK's ``raidersApply`` (zod-validated)
    accepts an event type and fields added by a later version, and keeps them."""
    build, _, compiled = typescript_client
    assert compiled.returncode == 0, compiled.stdout
    done = run([NODE, str(build / "out" / "play.js"), "--base-url", server,
                "--forward-url", future_apply], cwd=build, timeout=60)
    result = parsed_future(done, "typescript")
    assert result["state_game"] == "raiders"
