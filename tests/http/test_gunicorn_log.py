"""gunicorn's own log lines in the service's log format (issue 36).

The Procfile's gunicorn (``bench.servers``) writes its error log (start,
workers booted, WORKER TIMEOUT…) through ``service.gunicorn_conf.JsonLogger``:
with the default ``REFEREE_LOG_FORMAT`` every line of the server's output is
one JSON object with the access log's fields; with ``text`` gunicorn's own
text lines are kept.
"""

from __future__ import annotations

import logging
import sys
import urllib.request
from pathlib import Path

import orjson

from bench.servers import SERVICE_APP, gunicorn
from service.gunicorn_conf import JsonLineFormatter
from service.middleware import JsonFormatter


def _serve_one_request(tmp_path: Path, env: dict[str, str]) -> list[str]:
    log = tmp_path / "gunicorn.log"
    with gunicorn(SERVICE_APP, log, env) as base:
        urllib.request.urlopen(base + "/healthz", timeout=10).read()
    return [line for line in log.read_text().splitlines() if line.strip()]


def test_gunicorn_lines_are_json_like_the_access_log(tmp_path):
    lines = _serve_one_request(tmp_path, {})
    records = [orjson.loads(line) for line in lines]  # every line: no text line left
    by_logger = {r["logger"] for r in records}
    assert {"gunicorn.error", "referee.access"} <= by_logger, lines
    booted = [r for r in records if r["msg"].startswith("Booting worker")]
    assert len(booted) == 2, lines
    access = next(r for r in records if r["logger"] == "referee.access")
    for record in booted:
        assert set(record) == {"ts", "level", "logger", "msg"}
        assert record["level"] == "info" and len(record["ts"]) == len(access["ts"])


def test_text_format_keeps_gunicorns_text(tmp_path):
    lines = _serve_one_request(tmp_path, {"REFEREE_LOG_FORMAT": "text"})
    assert any("[INFO] Booting worker" in line for line in lines), lines
    assert not any(line.startswith("{") for line in lines), lines


def test_the_two_formatters_write_the_same_line():
    """``JsonLineFormatter`` (gunicorn's master cannot import the app's) equals the app's
    ``JsonFormatter`` outside a request, a traceback included."""
    try:
        raise ValueError("boom")
    except ValueError:
        exc = sys.exc_info()
    for info in (None, exc):
        record = logging.LogRecord("gunicorn.error", logging.ERROR, __file__, 1,
                                   "Worker (pid:%s) exited", (42,), info)
        assert JsonLineFormatter().format(record) == JsonFormatter().format(record)
