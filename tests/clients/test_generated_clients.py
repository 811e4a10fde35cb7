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
  by both generated clients without error;
- declared defaults (issue 36): each option default ``openapi.yaml`` declares, sent alone
  by the Python client (and its options model as built with no arguments), starts the same
  game as no options at every player count (``types_python.py defaults``);
- older rules versions (issue 36): a state of every rules version the server serves (the
  current one's from ``new``, an older one's from ``tests/compat/fixtures``) loads into
  the generated Python model and the zod-validated TypeScript type unchanged, and plays
  on through the typed ``legal-actions`` (``types_python.py states``, ``states.ts``).

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
from typing import Any

import pytest
import yaml

from bench.servers import SERVICE_APP, gunicorn
from tests.compat.make_fixtures import FIXTURES, fixture_name

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


def run(cmd: list[str], cwd: Path, timeout: float, env: dict[Any, Any] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "NO_COLOR": "1", **(env or {})})


def require(tool: Path | str | None, how: str) -> None:
    if not tool or not Path(tool).exists():
        pytest.fail(f"{tool or 'node'} is missing: {how}")


@pytest.fixture(scope="module")
def python_client(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """(the folder holding the generated ``referee_client`` package, the generator's run)."""
    require(PYTHON_GENERATOR, "make test installs it (pyproject.toml, test extra)")
    out = tmp_path_factory.mktemp("python_client")
    done = run([str(PYTHON_GENERATOR), "generate", "--path", str(SPEC), "--meta", "none",
                "--config", str(HERE / "python_client.yaml"),
                "--output-path", str(out / "referee_client")], cwd=out, timeout=120)
    return out, done


@pytest.fixture(scope="module")
def typescript_client(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    """(the folder with ``out/play.js``, the generator's run, tsc's run)."""
    require(NODE, "make test installs nodejs and npm (apt) when missing")
    require(NODE_BIN / "openapi-ts", "make test runs `npm ci` (package.json)")
    build = tmp_path_factory.mktemp("typescript_client")
    (build / "node_modules").symlink_to(REPO / "node_modules", target_is_directory=True)
    for script in ("play.ts", "states.ts"):
        shutil.copy(HERE / script, build / script)
    # the README's recipe compiles play.ts alone with tsconfig.json; the tests add states.ts
    config = json.loads((HERE / "tsconfig.json").read_text(encoding="utf-8"))
    (build / "tsconfig.json").write_text(json.dumps({**config, "files": [*config["files"], "states.ts"]}),
                                         encoding="utf-8")
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


def played(done: subprocess.CompletedProcess[str], client: str) -> list[dict[Any, Any]]:
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
    # the typed batch (issue 38): its items answered as their single calls
    assert all(g["batched"] > 0 for g in games), games


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
    # the typed batch (issue 38): its items answered as their single calls
    assert all(g["batched"] > 0 for g in games), games


@pytest.fixture(scope="module")
def future_apply(server) -> Iterator[str]:
    """A loopback stub answering every POST with a real Raiders ``apply`` answer plus
    ``FUTURE_EVENT`` (an event type no version has) and ``FUTURE_FIELD`` (an unknown
    optional field, on the answer and on the event)."""
    def post(path: str, body: dict[Any, Any]) -> dict[Any, Any]:
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


def parsed_future(done: subprocess.CompletedProcess[str], client: str) -> dict[Any, Any]:
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


# ------------------------------------------------- declared defaults, older states (issue 36)
def declared_defaults() -> dict[str, dict[Any, Any]]:
    """Per game, from ``openapi.yaml``: the player counts ``<Game>Setup`` allows and every
    option default ``<Game>Options`` declares."""
    schemas = yaml.safe_load(SPEC.read_text(encoding="utf-8"))["components"]["schemas"]
    out = {}
    for game in sorted(GAMES):
        name = game.capitalize()
        count = schemas[f"{name}Setup"]["properties"]["players"]["oneOf"][0]
        out[game] = {"players": list(range(count["minimum"], count["maximum"] + 1)),
                     "defaults": {option: schema["default"] for option, schema
                                  in schemas[f"{name}Options"]["properties"].items()
                                  if "default" in schema}}
    return out


def test_every_declared_option_default_is_the_game_without_it(python_client, server, tmp_path):
    """A declared default is what the server does when the option is left out: the Python
    client sends each one alone, and then its options model as built with no arguments
    (what a bot that sets `turn_limit` sends besides), at every player count of every game,
    and gets the same seeded game as with no options."""
    out, _ = python_client
    cases = declared_defaults()
    assert all(case["defaults"] for case in cases.values()), cases  # `chance` at least
    (tmp_path / "defaults.json").write_text(json.dumps(cases), encoding="utf-8")
    done = run([sys.executable, str(HERE / "types_python.py"), "--base-url", server, "defaults",
                str(tmp_path / "defaults.json")], cwd=out, timeout=300, env={"PYTHONPATH": str(out)})
    assert done.returncode == 0, f"{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    expected = {(game, n, option) for game, case in cases.items() for n in case["players"]
                for option in [*case["defaults"], "<every default the model fills in>"]}
    assert {(x["game"], x["players"], x["option"]) for x in lines} == expected
    differ = [x for x in lines if not x["same"]]
    assert not differ, "declared defaults that change the game:\n" + "\n".join(map(json.dumps, differ))


@pytest.fixture(scope="module")
def saved_states(server, tmp_path_factory) -> Path:
    """A file of ``{game, rules_version, state}``: for every rules version each game serves
    (``GET /v1/games``), a state of it: the current one's from ``new``, an older one's from
    its fixtures (``tests/compat/fixtures``, written by that version's engine)."""
    with urllib.request.urlopen(server + "/v1/games", timeout=30) as answer:
        games = json.load(answer)["games"]
    saved = []
    for game in games:
        for version in (v for v in game["rules_versions"] if v["served"]):
            if version["current"]:
                request = urllib.request.Request(
                    f"{server}/v1/games/{game['id']}/new", headers={"Content-Type": "application/json"},
                    data=json.dumps({"players": 2, "seed": SEED}).encode())
                with urllib.request.urlopen(request, timeout=30) as answer:
                    states = [json.load(answer)["state"]]
            else:
                path = FIXTURES / game["id"] / fixture_name(version["id"])
                assert path.exists(), f"{version['id']} is served but has no fixtures ({path})"
                states = [entry["state"] for one in json.loads(path.read_text(encoding="utf-8"))["games"]
                          for entry in one["states"]]
            assert states and all(s["rules_version"] == version["id"] for s in states), version["id"]
            saved += [{"game": game["id"], "rules_version": version["id"], "state": s} for s in states]
    path = tmp_path_factory.mktemp("saved_states") / "states.json"
    path.write_text(json.dumps(saved), encoding="utf-8")
    return path


def held(done: subprocess.CompletedProcess[str], client: str, saved: Path) -> None:
    """Every saved state loaded into the client's type (unchanged, where the client says:
    Python's ``to_dict``), and played on (200)."""
    assert done.returncode == 0, f"{client}:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    expected = [(s["game"], s["rules_version"]) for s in json.loads(saved.read_text(encoding="utf-8"))]
    assert [(x["game"], x["rules_version"]) for x in lines] == expected
    refused = {(x["game"], x["rules_version"], x.get("error", "")[:600]) for x in lines if not x["loaded"]}
    assert not refused, f"the {client} types refuse states the server serves:\n" + "\n".join(map(str, refused))
    assert all(x.get("same", True) for x in lines), [x for x in lines if not x.get("same", True)][:3]
    assert all(x["status"] == 200 for x in lines), [x for x in lines if x["status"] != 200][:3]


def test_python_types_hold_a_state_of_every_served_rules_version(python_client, server, saved_states):
    """``RaidersState.from_dict`` (and Kozyablo's, Tremble's) takes a state of every rules
    version the server serves, ``to_dict`` gives it back unchanged, and the typed
    ``legal-actions`` plays it on."""
    out, _ = python_client
    done = run([sys.executable, str(HERE / "types_python.py"), "--base-url", server, "states",
                str(saved_states)], cwd=out, timeout=300, env={"PYTHONPATH": str(out)})
    held(done, "python", saved_states)


def test_typescript_types_hold_a_state_of_every_served_rules_version(typescript_client, server, saved_states):
    """The generated zod schemas (``zRaidersState``…) accept a state of every served rules
    version, held as it is in the generated type (``RaidersState``…), and the validated
    ``raidersLegalActions`` (and the other games') plays it on."""
    build, _, compiled = typescript_client
    assert compiled.returncode == 0, compiled.stdout
    done = run([NODE, str(build / "out" / "states.js"), "--base-url", server,
                "--states", str(saved_states)], cwd=build, timeout=300)
    held(done, "typescript", saved_states)
