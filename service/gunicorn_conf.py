"""gunicorn settings of the Procfile's ``web`` line (``--config python:service.gunicorn_conf``).

Metrics of every worker in one scrape: before the first worker starts, the
master points ``PROMETHEUS_MULTIPROC_DIR`` at a fresh empty directory (made
for this start, removed when the master exits), so ``/metrics``
(``service.metrics``) sums the figures of all workers — prometheus-client's
multiprocess mode, which needs the directory empty at each start.  A
directory the operator set is kept (their choice; it must be emptied
between starts).  When a worker exits its live figures are retired
(``mark_process_dead``); its counters stay in the sums.

**Slow clients.**  ``gthread`` workers, ``threads`` each: a client that
sends its request slowly holds one thread of one worker, not the whole
worker (a sync worker blocks on it until the arbiter kills it: WORKER
TIMEOUT, and an embedded evaluation running in that worker dies with it).
``worker_connections = threads`` makes a worker whose threads are all busy
stop accepting, so new connections go to a worker with a free thread (with
the default 1000 a busy worker kept accepting and queued them behind its
slow clients: probes stalled).  That rules out kept-alive connections
(``keepalive = 0``: one request per connection, as with sync workers).
So the service keeps answering while fewer than ``2 × threads`` clients
hold a request open; beyond that, connections wait in the listen backlog.
A client that stops sending in the middle of its request is dropped after
``REFEREE_READ_TIMEOUT`` seconds (15; ``when_ready``): sync workers were
bounded by the arbiter killing the worker, gthread threads by nothing.
Figures: ``python -m bench.slow_clients`` and ``docs/operations.md``.

**Refused before the app.**  gunicorn answers a request it cannot parse
(bad request line — a raw non-ASCII URL too —, over the request line or
header limits, ``Content-Length`` with ``Transfer-Encoding``, a negative
``Content-Length``, an unknown transfer coding…) itself; ``post_fork``
makes each worker write those answers as problem+json
(``write_problem``) instead of gunicorn's HTML page.

**Its own log lines as JSON.**  gunicorn's error log (start, workers booted
and exiting, WORKER TIMEOUT, tracebacks) goes through ``JsonLogger``: one JSON
object per line with the access log's fields (``ts``, ``level``, ``logger``,
``msg``; ``exc`` for a traceback), so the log is one format to parse;
``REFEREE_LOG_FORMAT=text`` keeps gunicorn's own text lines, as it does the app's.

Everything else (workers, bind address) stays on the command line.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import struct
import tempfile
import time
from typing import Any

import orjson
from gunicorn import glogging
from gunicorn import util as gunicorn_util

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
_made: list[str] = []

# ---------------------------------------------------------------- workers
worker_class = "gthread"
#: per worker: the slow clients one worker can hold while it still answers others
threads = 64
#: a worker with no free thread accepts nothing (see the module docstring)
worker_connections = threads
keepalive = 0
#: a client silent this long in the middle of its request is dropped (``when_ready``)
READ_TIMEOUT_ENV = "REFEREE_READ_TIMEOUT"
DEFAULT_READ_TIMEOUT = 15.0


def fresh_metrics_dir() -> str:
    """Set ``PROMETHEUS_MULTIPROC_DIR`` to a new empty directory unless already set."""
    given = os.environ.get(MULTIPROC_ENV)
    if given:
        os.makedirs(given, exist_ok=True)
        return given
    path = tempfile.mkdtemp(prefix="referee-metrics-")
    _made.append(path)
    os.environ[MULTIPROC_ENV] = path
    return path


def on_starting(server: Any) -> None:
    path = fresh_metrics_dir()
    server.log.info("metrics of all workers: %s=%s", MULTIPROC_ENV, path)


def read_timeout() -> float:
    """``REFEREE_READ_TIMEOUT`` seconds (default 15; 0: none)."""
    return float(os.environ.get(READ_TIMEOUT_ENV) or DEFAULT_READ_TIMEOUT)


def when_ready(server: Any) -> None:
    """Give every listening socket a receive timeout (``SO_RCVTIMEO``), which the
    connections it accepts inherit: a client silent for that long in the middle
    of its request loses its thread (a read fails with EAGAIN) instead of
    holding it for good — gthread workers have no such bound of their own."""
    seconds = read_timeout()
    if seconds <= 0:
        return
    value = struct.pack("ll", int(seconds), int(seconds % 1 * 1_000_000))
    for listener in server.LISTENERS:
        getattr(listener, "sock", listener).setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO,
                                                       value)
    server.log.info("client read timeout: %s s (%s)", seconds, READ_TIMEOUT_ENV)


def child_exit(server: Any, worker: Any) -> None:
    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(worker.pid)  # type: ignore[no-untyped-call]


def on_exit(server: Any) -> None:
    while _made:
        shutil.rmtree(_made.pop(), ignore_errors=True)


# ------------------------------------------------------------ gunicorn's log
class JsonLineFormatter(logging.Formatter):
    """The line of ``service.middleware.JsonFormatter`` (``tests/http/test_gunicorn_log.py``
    holds them equal) without importing it: the master sets up its log before
    ``on_starting`` names the metrics directory, and importing the app's modules
    then would create its metrics in single-process mode.

    >>> rec = logging.LogRecord("gunicorn.error", logging.INFO, __file__, 1, "Booting %s", ("w",), None)
    >>> line = orjson.loads(JsonLineFormatter().format(rec))
    >>> sorted(line), line["msg"], line["level"]
    (['level', 'logger', 'msg', 'ts'], 'Booting w', 'info')
    """

    def format(self, record: logging.LogRecord) -> str:
        second = int(record.created)
        ts = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        out = {"ts": f"{ts}.{int((record.created - second) * 1000):03d}Z",
               "level": record.levelname.lower(), "logger": record.name,
               "msg": record.getMessage()}
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return orjson.dumps(out, default=str).decode()


def json_logs() -> bool:
    """Whether logs are JSON: ``REFEREE_LOG_FORMAT`` unset or ``json`` (as the app reads it)."""
    return (os.environ.get("REFEREE_LOG_FORMAT") or "json") == "json"


class JsonLogger(glogging.Logger):  # type: ignore[misc]  # gunicorn ships no types
    """gunicorn's logger, its error log's handlers writing ``JsonLineFormatter`` lines."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        if json_logs():
            for handler in self.error_log.handlers:
                handler.setFormatter(JsonLineFormatter())


logger_class = JsonLogger


# ------------------------------------------------- errors before the app
#: what to do about a request line gunicorn refuses, most often a raw URL
REQUEST_LINE_HINT = ("percent-encode the URL: non-ASCII characters and spaces as UTF-8 %XX "
                     "(curl -G --data-urlencode 'q=дама' URL)")


#: gunicorn's own (HTML) error writer
HTML_WRITE_ERROR = gunicorn_util.write_error


def write_problem(sock: Any, status_int: int, reason: str, mesg: str) -> None:
    """``gunicorn.util.write_error`` answering problem+json instead of HTML.

    gunicorn calls it for a request it refused before the app saw it (and
    for an error no app handler caught); the body has the service's
    problem fields, ``instance`` and ``X-Request-Id`` a new request id.
    Should building it fail, gunicorn's own page is sent rather than nothing.
    """
    try:
        answer = problem_answer(status_int, reason, mesg)
    except Exception:
        HTML_WRITE_ERROR(sock, status_int, reason, mesg)
        return
    gunicorn_util.write_nonblock(sock, answer)


def problem_answer(status_int: int, reason: str, mesg: str) -> bytes:
    """The whole HTTP answer (head and problem+json body) for a refused request.

    >>> answer = problem_answer(414, "URI Too Long", "Request Line is too large (5014 > 4094)")
    >>> head, body = answer.split(b"\\r\\n\\r\\n")
    >>> head.splitlines()[0], orjson.loads(body)["status"], orjson.loads(body)["type"][-10:]
    (b'HTTP/1.1 414 URI Too Long', 414, 'http-error')
    """
    from service import problem_types, problems
    from service.middleware import new_request_id

    slug, title = problems.HTTP_PROBLEMS.get(status_int, ("http-error", reason))
    detail = readable(mesg) or reason
    if status_int == 400 and ("request line" in mesg.lower()
                              or ("HTTP Version" in mesg and "(" not in mesg)):
        detail = f"{mesg}: {REQUEST_LINE_HINT}"  # a raw or spaced URL breaks the request line
    rid = new_request_id.new()
    instance = problems.INSTANCE_PREFIX + rid
    body = orjson.dumps({"type": problem_types.problem_type(slug), "title": title,
                         "status": status_int, "detail": detail, "instance": instance})
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
            f"Content-Type: {problem_types.PROBLEM_MIME}\r\nContent-Length: {len(body)}\r\n"
            f"X-Request-Id: {rid}\r\nX-Content-Type-Options: nosniff\r\n\r\n")
    return head.encode("latin-1") + body


def readable(mesg: str) -> str:
    """gunicorn's message with the request's UTF-8 bytes shown as text (gunicorn
    decodes them as latin-1).

    >>> readable("Invalid HTTP request line: 'GET /cards?q=Ð´Ð°Ð¼Ð° HTTP/1.1'")
    "Invalid HTTP request line: 'GET /cards?q=дама HTTP/1.1'"
    >>> readable("Invalid HTTP Version: (9, 9)")
    'Invalid HTTP Version: (9, 9)'
    """
    try:
        return mesg.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return mesg


def post_fork(server: Any, worker: Any) -> None:
    """In each worker: gunicorn's error answers become problem+json."""
    gunicorn_util.write_error = write_problem
