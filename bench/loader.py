"""A bounded HTTP load on loopback: ``wrk`` with a Lua script, or Python.

``load(url, body, seconds)`` POSTs the same JSON body over and over from a
fixed number of connections for ``seconds`` and returns::

    {"loader", "requests", "seconds", "rps", "p50_us", "p99_us", "errors"}

``wrk`` (Debian package ``wrk``) is used when it is on the PATH: its Lua
script sets the method, the body and the header, and prints the summary as
JSON.  Otherwise several Python processes each run one connection at a time
(``http.client``), which costs far more CPU per request than wrk: figures
from the two loaders are not comparable with each other, only with a floor
loaded the same way.  A non-2xx answer counts as an error, and the bench
refuses to report a figure with errors.
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

#: concurrent connections: enough to keep 2 sync workers busy, few enough not
#: to starve them of the 2 cores
CONNECTIONS = 4

LUA = r"""
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = assert(io.open("%(body)s", "rb"))
wrk.body = f:read("*a")
f:close()

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests": %%d, "duration_us": %%d, "p50_us": %%d, "p99_us": %%d, ' ..
    '"connect": %%d, "read": %%d, "write": %%d, "status": %%d, "timeout": %%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.status, e.timeout))
end
"""


#: the pool script: each body of a file (one JSON text a line) sent ``repeats`` times in a
#: row, from line ``offset`` (the script's argument) on; ``sent`` says how far it got
POOL_LUA = r"""
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local bodies = {}
for line in io.lines("%(bodies)s") do bodies[#bodies + 1] = line end
local repeats = %(repeats)d
offset, sent = 0, 0
local threads = {}

function setup(thread) table.insert(threads, thread) end
function init(args) offset = tonumber(args[1]) or 0 end

function request()
  local i = offset + math.floor(sent / repeats)
  sent = sent + 1
  return wrk.format(nil, nil, nil, bodies[(i %% #bodies) + 1])
end

done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests": %%d, "duration_us": %%d, "p50_us": %%d, "p99_us": %%d, ' ..
    '"connect": %%d, "read": %%d, "write": %%d, "status": %%d, "timeout": %%d, "sent": %%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect, e.read, e.write, e.status, e.timeout, threads[1]:get("sent")))
end
"""


def loader_name() -> str:
    return "wrk" if shutil.which("wrk") else "python"


def load(url: str, body: bytes, seconds: float, connections: int = CONNECTIONS) -> dict[Any, Any]:
    if shutil.which("wrk"):
        return _wrk(url, body, seconds, connections)
    return _python(url, body, seconds, connections)


def load_pool(url: str, bodies: Path, seconds: float, offset: int, repeats: int,
              connections: int = CONNECTIONS) -> dict[str, Any]:
    """``load`` on the bodies of a file (one JSON text a line), each sent ``repeats`` times
    in a row from line ``offset`` on (wrk only); ``sent``: the requests it sent, so the
    next slice goes on at ``offset + sent // repeats``."""
    if not shutil.which("wrk"):
        raise RuntimeError("a pool of bodies needs wrk (apt-get install -y wrk)")
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp, "pool.lua")
        script.write_text(POOL_LUA % {"bodies": bodies, "repeats": repeats})
        return _run_wrk(url, script, seconds, connections, [str(offset)])


def _wrk(url: str, body: bytes, seconds: float, connections: int) -> dict[Any, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        body_file = Path(tmp, "body.json")
        body_file.write_bytes(body)
        script = Path(tmp, "post.lua")
        script.write_text(LUA % {"body": body_file})
        return _run_wrk(url, script, seconds, connections)


def _run_wrk(url: str, script: Path, seconds: float, connections: int,
             args: list[str] | None = None) -> dict[str, Any]:
    printed = subprocess.run(
        ["wrk", "-t1", f"-c{connections}", f"-d{max(1, round(seconds))}s",
         "--timeout", "10s", "-s", str(script), url, *(["--", *args] if args else [])],
        capture_output=True, text=True, check=True).stdout
    line = next(x for x in printed.splitlines() if x.startswith("BENCH "))
    raw = json.loads(line[len("BENCH "):])
    secs = raw["duration_us"] / 1e6
    # gunicorn's sync workers close every connection after the answer; wrk
    # counts the close as a read error only if it happened before an answer
    errors = raw["status"] + raw["timeout"] + raw["write"] + raw["connect"]
    result = {"loader": "wrk", "requests": raw["requests"], "seconds": round(secs, 3),
            "rps": raw["requests"] / secs, "p50_us": raw["p50_us"], "p99_us": raw["p99_us"],
            "errors": errors}
    if "sent" in raw:
        result["sent"] = raw["sent"]
    return result


def _client_loop(args: tuple[Any, ...]) -> tuple[int, int, list[float]]:
    host, port, path, body, go, deadline = args
    time.sleep(max(0.0, go - time.monotonic()))
    headers = {"Content-Type": "application/json", "Connection": "close"}
    latencies, errors = [], 0
    while time.monotonic() < deadline:
        t = time.perf_counter()
        conn = http.client.HTTPConnection(host, port, timeout=10)
        try:
            conn.request("POST", path, body, headers)
            response = conn.getresponse()
            response.read()
            if not 200 <= response.status < 300:
                errors += 1
        except OSError:
            errors += 1
        finally:
            conn.close()
        latencies.append(time.perf_counter() - t)
    return len(latencies), errors, latencies


def _python(url: str, body: bytes, seconds: float, connections: int) -> dict[Any, Any]:
    parts = urlsplit(url)
    go = time.monotonic() + 0.5  # every process is up by then (fork)
    job = (parts.hostname, parts.port, parts.path, body, go, go + seconds)
    with multiprocessing.get_context("fork").Pool(connections) as pool:
        results = pool.map(_client_loop, [job] * connections)
    elapsed = time.monotonic() - go
    latencies = sorted(x for _, _, lat in results for x in lat)
    requests = sum(n for n, _, _ in results)
    return {"loader": "python", "requests": requests, "seconds": round(elapsed, 3),
            "rps": requests / seconds, "p50_us": latencies[len(latencies) // 2] * 1e6,
            "p99_us": latencies[int(len(latencies) * 0.99)] * 1e6,
            "errors": sum(e for _, e, _ in results)}
