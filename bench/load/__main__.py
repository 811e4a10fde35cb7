"""``make load``: 60 s of a realistic request mix against gunicorn (2 workers) on loopback.

The mix: for each game, states spread over two seeded random games (bench
setups, ``bench.states.trajectory``), each sent to ``legal-actions`` and to
``apply`` with an action that is legal there — half and half, the three
games equally.  ``wrk`` (installed by ``make load`` like ``make bench``)
cycles through the requests from 4 connections; a Lua script builds them.

Printed: requests, requests/s, p50/p99 latency, errors (any non-2xx answer,
timeout, connect or write error: must be 0), and each worker's resident
memory after a 5 s warm-up and after the run (growth must stay under 10%).
Exit status 1 when either condition fails.

    .venv/bin/python -m bench.load [--seconds 60] [--connections 4]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import orjson

from bench.servers import REPO, SERVICE_APP, free_port, gunicorn_command, wait_ready
from bench.states import trajectory

GAMES = ("raiders", "tremble", "kozyablo")
SEEDS = (1, 2)
PER_GAME = 60  # (state, action) pairs per game → 2 requests each
MAX_RSS_GROWTH = 0.10

LUA = r"""
local reqs = {}
init = function(args)
  for line in io.lines("%(file)s") do
    local tab = line:find("\t", 1, true)
    reqs[#reqs + 1] = wrk.format("POST", line:sub(1, tab - 1),
                                 {["Content-Type"] = "application/json"}, line:sub(tab + 1))
  end
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
  idx = math.random(#reqs)
end
request = function()
  idx = idx %% #reqs + 1
  return reqs[idx]
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'LOAD {"requests": %%d, "duration_us": %%d, "p50_us": %%d, "p90_us": %%d, "p99_us": %%d, ' ..
    '"max_us": %%d, "connect": %%d, "read": %%d, "write": %%d, "status": %%d, "timeout": %%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max, e.connect, e.read, e.write, e.status, e.timeout))
end
"""


def request_mix() -> list[tuple[str, bytes]]:
    """``(path, body)`` pairs: legal-actions and apply, every game equally."""
    out = []
    for game in GAMES:
        pairs = [p for seed in SEEDS for p in trajectory(game, seed, vary=True)]
        rng = random.Random(game)
        for state, action in rng.sample(pairs, min(PER_GAME, len(pairs))):
            out.append((f"/v1/games/{game}/legal-actions", orjson.dumps({"state": state})))
            out.append((f"/v1/games/{game}/apply",
                        orjson.dumps({"state": state, "action": action})))
    random.Random(0).shuffle(out)
    return out


def workers_of(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return sorted(int(c) for c in children)


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def wrk(url: str, requests_file: Path, seconds: int, connections: int, tmp: Path) -> dict[Any, Any]:
    script = tmp / "mix.lua"
    script.write_text(LUA % {"file": requests_file})
    out = subprocess.run(["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s",
                          "-s", str(script), url], capture_output=True, text=True, check=True).stdout
    line = next(x for x in out.splitlines() if x.startswith("LOAD "))
    raw = json.loads(line[len("LOAD "):])
    # gunicorn's sync workers close each connection after answering: wrk counts
    # that as a read error only when it came before an answer, so reads are not errors
    raw["errors"] = raw["status"] + raw["timeout"] + raw["write"] + raw["connect"]
    raw["seconds"] = raw["duration_us"] / 1e6
    raw["rps"] = raw["requests"] / raw["seconds"]
    return raw


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--connections", type=int, default=4)
    ap.add_argument("--warmup", type=int, default=5)
    args = ap.parse_args(argv)
    if not shutil.which("wrk"):
        print("make load needs wrk (apt-get install -y wrk)", file=sys.stderr)
        return 2
    mix = request_mix()
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        requests_file = tmp / "requests.tsv"
        requests_file.write_bytes(b"".join(p.encode() + b"\t" + b + b"\n" for p, b in mix))
        port = free_port()
        log = tmp / "gunicorn.log"
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        env.pop("REDIS_URL", None)
        with open(log, "wb") as out:
            proc = subprocess.Popen(gunicorn_command(SERVICE_APP, port), cwd=REPO, env=env,
                                    stdout=out, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_ready(url, proc, log)
            wrk(url, requests_file, args.warmup, args.connections, tmp)
            workers = workers_of(proc.pid)
            before = {w: rss_kib(w) for w in workers}
            result = wrk(url, requests_file, args.seconds, args.connections, tmp)
            after = {w: rss_kib(w) for w in workers_of(proc.pid)}
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    growth = {w: (after.get(w, 0) - before[w]) / before[w] for w in before}
    print(f"load: {len(mix)} distinct requests (legal-actions and apply, {', '.join(GAMES)}), "
          f"{args.connections} connections, {args.seconds} s, gunicorn 2 workers")
    print(f"  requests {result['requests']}  ({result['rps']:.0f}/s)  errors {result['errors']}")
    print(f"  latency p50 {result['p50_us'] / 1000:.2f} ms  p90 {result['p90_us'] / 1000:.2f} ms  "
          f"p99 {result['p99_us'] / 1000:.2f} ms  max {result['max_us'] / 1000:.1f} ms")
    for w in before:
        print(f"  worker {w}: RSS {before[w] / 1024:.1f} MiB → {after.get(w, 0) / 1024:.1f} MiB "
              f"({growth[w] * 100:+.1f}%)")
    restarted = set(after) != set(before)
    if restarted:
        print("  a worker was restarted during the run", file=sys.stderr)
    ok = result["errors"] == 0 and not restarted and all(g < MAX_RSS_GROWTH for g in growth.values())
    print("  OK" if ok else "  FAILED (errors, a restarted worker, or RSS growth ≥ 10%)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
