"""Instructions per request of the real app, by configuration: what each setting costs.

``python -m bench.request_instructions [--against REV] [--games g,...]``

Load cannot move an instruction count (``bench.instructions``).  One child process per
configuration (``CONFIGS``) builds the app in process (the test client: no gunicorn,
no socket), sends each game's ``legal-actions`` and ``apply`` bodies, and under
``valgrind --tool=callgrind --dump-before=getppid`` each segment between two
``os.getppid()`` calls is counted apart: one segment per game and endpoint, its
instructions over its requests.  Start-up and a warm-up of every route (other states)
run before callgrind instruments anything (``--instr-atstart=no``, then
``callgrind_control -i on``: 4 G instructions of start-up are not simulated); the
garbage collector is off during the segments.

* ``floor``        — the floor app (``bench.floor_app``) on the ``operators`` bodies
* ``bench``        — no keys, no limit, the middle state's body resent (``make bench``'s
  HTTP figures: every state known)
* ``operators``    — signing keys, the rate limit counted in a private ``redis-server``,
  each state of a bot's pool (``bench.operators.pool``) sent twice: once new, once known
  (in process there is one worker: ½ new, as 2 workers and 4 sends give 47 %)
* ``no-limit``     — ``operators`` without the rate limit
* ``no-keys``      — ``operators`` without keys (the same states unsigned)
* ``known``        — ``operators`` with every state sent once before the segment

So ``operators − no-limit`` is what the rate limiter costs a request, ``operators −
no-keys`` signing, and ``2 × (operators − known)`` a state new to the worker.
``--against REV`` counts a second checkout (a temporary ``git worktree``) the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
GAMES = ("raiders", "tremble", "kozyablo")
ENDPOINTS = ("legal-actions", "apply")
CONFIGS = ("floor", "bench", "operators", "no-limit", "no-keys", "known")
#: distinct states per segment (each sent twice) and per warm-up
STATES, WARM_UP = 20, 6
#: the child: the checkout's own app, the bodies from a file the parent wrote
CHILD = """
import gc, json, os, sys
config, bodies_file = json.loads(sys.argv[1]), sys.argv[2]
plan = json.load(open(bodies_file))
if config.pop("floor", False):
    from bench.floor_app import create_app
    app = create_app()
else:
    from service.app import create_app
    app = create_app(config)
client = app.test_client()
def send(path, body):
    r = client.post(path, data=body, content_type="application/json")
    assert r.status_code == 200, (path, r.status_code, r.get_data()[:300])
for segment in plan:
    for body in segment["warm_up"]:
        send(segment["path"], body)
gc.collect(); gc.freeze(); gc.disable()
print("READY", flush=True)
sys.stdin.readline()  # the parent has switched callgrind's instrumentation on
for segment in plan:
    os.getppid()
    for body in segment["measured"]:
        send(segment["path"], body)
os.getppid()
breaker = app.extensions.get("referee", {}).get("redis_breaker")
assert breaker is None or not breaker.down, "Redis stopped answering: counted in memory"
print(json.dumps([len(s["measured"]) for s in plan]))
"""
SUMMARY = re.compile(r"^summary: (\d+)$", re.M)


def plan(config: str, games: list[str]) -> list[dict[str, Any]]:
    """The segments of ``config``: per game and endpoint, the path, the warm-up bodies and
    the measured ones (JSON text, as sent)."""
    import orjson

    from bench import operators
    from bench.states import representative_cases

    keys = None if config in ("bench", "no-keys") else [operators.KEY.encode()]
    segments = []
    for game in games:
        middle = next(c for c in representative_cases(game) if c.stage == "middle")
        for endpoint in ENDPOINTS:
            bodies = [orjson.dumps(b).decode()
                      for b in operators.pool(game, endpoint, STATES + WARM_UP, keys)]
            warm_up, states = bodies[:WARM_UP], bodies[WARM_UP:]
            if config == "bench":
                same = orjson.dumps(middle.apply_body() if endpoint == "apply"
                                    else middle.legal_actions_body()).decode()
                warm_up, measured = [same], [same] * (2 * STATES)
            else:
                measured = [b for b in states for _ in range(2)]
                if config == "known":
                    warm_up = warm_up + states
            segments.append({"path": f"/v1/games/{game}/{endpoint}", "warm_up": warm_up,
                             "measured": measured})
    return segments


def app_config(config: str, redis_url: str | None) -> dict[str, Any]:
    from bench import operators

    if config == "floor":
        return {"floor": True}
    # a Redis call slowed down by valgrind must not trip the breaker (counting in memory)
    out: dict[str, Any] = {"TESTING": True, "ACCESS_LOG": True, "REDIS_TIMEOUT": "30"}
    if config in ("operators", "no-limit", "known"):
        out["STATE_KEYS"] = operators.KEY
    if config in ("operators", "no-keys", "known"):
        out["RATE_LIMIT"], out["REDIS_URL"] = operators.RATE_LIMIT, redis_url
    return out


def count(tree: Path, config: str, games: list[str], redis_url: str | None) -> list[int]:
    """Instructions per request of each segment of ``config`` in ``tree``."""
    with tempfile.TemporaryDirectory() as tmp:
        bodies = Path(tmp, "plan.json")
        bodies.write_text(json.dumps(plan(config, games)))
        child = subprocess.Popen(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out",
             "--instr-atstart=no", "--dump-before=getppid", sys.executable, "-c", CHILD,
             json.dumps(app_config(config, redis_url)), str(bodies)],
            cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, env={**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)})
        assert child.stdin is not None and child.stdout is not None
        if child.stdout.readline().strip() == "READY":
            subprocess.run(["callgrind_control", "-i", "on", str(child.pid)], check=True,
                           capture_output=True)
            child.stdin.write("\n")
            child.stdin.flush()
        stdout, stderr = child.communicate()
        if child.returncode:
            raise RuntimeError(f"{config} in {tree}: {stderr[-3000:]}")
        sizes = json.loads(stdout.split("\n")[-2])
        # cg.out.1 is the start and the warm-up; cg.out.2… the segments; cg.out the exit
        found = [int(_summary(Path(tmp, f"cg.out.{k + 2}").read_text()))
                 for k in range(len(sizes))]
    return [round(n / size) for n, size in zip(found, sizes, strict=True)]


def measure(tree: Path = REPO, games: list[str] | None = None, jobs: int = 2,
            configs: tuple[str, ...] = CONFIGS) -> dict[str, Any]:
    """``{config: {"game endpoint": instructions per request}}`` and, with every
    configuration, the shares."""
    from bench import operators

    games = list(games or GAMES)
    keys = [f"{g} {e}" for g in games for e in ENDPOINTS]
    with operators.redis_server() as url, ThreadPoolExecutor(jobs) as pool:
        counts = dict(zip(configs, pool.map(lambda c: count(tree, c, games, url), configs),
                          strict=True))
    out: dict[str, Any] = {c: dict(zip(keys, n, strict=True)) for c, n in counts.items()}
    if set(configs) != set(CONFIGS):
        return out
    ops = out["operators"]
    out["shares"] = {k: {"rate_limit": round((ops[k] - out["no-limit"][k]) / ops[k], 3),
                         "signing": round((ops[k] - out["no-keys"][k]) / ops[k], 3),
                         "new_state": 2 * (ops[k] - out["known"][k]),
                         "floor_over_operators": round(out["floor"][k] / ops[k], 3),
                         "floor_over_bench": round(out["floor"][k] / out["bench"][k], 3)}
                     for k in keys}
    return out


def markdown(found: dict[str, Any], before: dict[str, Any] | None = None, label: str = "") -> list[str]:
    keys = list(found["operators"])
    head = "| configuration | " + " | ".join(keys) + " |"
    lines = [head, "|---|" + "---:|" * len(keys)]
    for config in (c for c in CONFIGS if c in found):
        cells = []
        for k in keys:
            n = found[config][k]
            was = before[config][k] if before and config in before else None
            cells.append(f"{n:,}" + (f" ({(n / was - 1) * 100:+.1f} % vs {label})" if was else ""))
        lines.append(f"| {config} | " + " | ".join(cells) + " |")
    shares = found.get("shares", {})
    for name, fmt in (("rate_limit", "{:.1%}"), ("signing", "{:.1%}"), ("new_state", "{:,}"),
                      ("floor_over_operators", "{:.3f}"), ("floor_over_bench", "{:.3f}")):
        if shares:
            lines.append(f"| {name} | " + " | ".join(fmt.format(shares[k][name]) for k in keys)
                         + " |")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.request_instructions",
                                 description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--against", help="a git revision to compare with (a temporary worktree)")
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--json", help="also write the figures to this file")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        ap.error("valgrind is not installed (apt-get install valgrind)")
    games = args.games.split(",")
    now = measure(REPO, games)
    before = None
    if args.against:
        from bench.instructions import worktree

        tree = worktree(args.against)
        try:
            before = measure(tree, games)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=REPO,
                           capture_output=True)
    print("\n".join(markdown(now, before, args.against or "")))
    if args.json:
        Path(args.json).write_text(json.dumps({"now": now, "before": before}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())


def _summary(text: str) -> str:
    """The instruction total of a callgrind output (its ``summary:`` line)."""
    match = SUMMARY.search(text)
    assert match is not None, "callgrind wrote no summary"
    return match[1]
