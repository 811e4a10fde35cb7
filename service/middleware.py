"""The request middleware: request ids, JSON logs, metrics, API keys, rate limits, CORS,
signing keys.

``init_app(app)`` wires it all; every part is configured from the
environment (or the app config of the same name without ``REFEREE_``):

==============================  ===============================================
``REFEREE_STATE_KEYS``          state signing keys, ``new,old`` (``service.signing``)
``REFEREE_STATE_KEYS_VERIFY_ONLY``  keys that verify and never sign (rolling rotation)
``REFEREE_REQUIRE_SIGNED``      ``1``: every incoming state must be signed
``REFEREE_SEALING_KEYS``        state sealing keys, ``new,old`` (``service.sealing``)
``REFEREE_SEALING_KEYS_VERIFY_ONLY``  keys that open and never seal
``REFEREE_SERVER_SEEDS``        ``1``: ``new`` draws the seed, refuses a client's
``REFEREE_API_KEYS``            keys for ``/v1/evaluations``: ``Authorization:
                                Bearer <key>`` or ``X-API-Key: <key>``; 401 without
``REFEREE_RATE_LIMIT``          e.g. ``600/minute``: per client, per route, on every
                                ``POST /v1/...``; 429 with ``Retry-After``; the
                                answers say it in ``X-RateLimit-*`` and in the IETF
                                ``RateLimit-Policy`` / ``RateLimit`` (``ietf_fields``)
``REFEREE_EVALUATION_RATE_LIMIT``  e.g. ``20/minute``: ``POST /v1/evaluations``
``REFEREE_RATE_LIMIT_FAILURE``  ``open`` (default) or ``closed``: what a rate limit
                                does while Redis does not answer (below)
``REFEREE_REDIS_TIMEOUT``       seconds (default ``0.5``) one Redis call of the web
                                process may take: rate limits, evaluation routes,
                                ``/readyz``
``REFEREE_CORS_ORIGINS``        ``https://a.example,https://b.example`` or ``*``
``REFEREE_LOG_FORMAT``          ``json`` (default) or ``text``
``REFEREE_ACCESS_LOG``          ``0`` turns the per-request log line off
==============================  ===============================================

A switch (``REQUIRE_SIGNED``, ``SERVER_SEEDS``, ``ACCESS_LOG``) is ``1``/``true``/
``yes``/``on`` or ``0``/``false``/``no``/``off``; any other value stops the start
(``flag``), as do verify-only keys without keys of their kind.

Rate limits count in Redis when ``REDIS_URL`` is set (shared by every
worker), else in each process's memory.  A Redis call that does not answer
within ``REFEREE_REDIS_TIMEOUT`` (refused, dead, or frozen) marks Redis as not
answering in this process (``RedisBreaker``): from then on no request waits on
Redis — the rate limit counts in this process's memory (``open``) or refuses
every limited request with 429 (``closed``) — and a background thread pings
Redis every ``RedisBreaker.PROBE_SECONDS`` until it answers again.  Game
routes therefore never wait on Redis for longer than one timeout, and only
the requests already waiting when it stopped answering do.

A client is its API key when it sends one of ``REFEREE_API_KEYS``, else its
address (an unknown key buys no bucket of its own).

Every response carries ``X-Request-Id``: the client's own (if it sent one of
at most 128 characters ``[A-Za-z0-9._:-]``) or a new one; the access log line
and every log record written while handling the request carry it too.

**Edges** (``_edges``, ``docs/operations.md``).  A path with an empty segment
(``//`` anywhere: werkzeug would match ``//v1/games`` as ``/v1/games``, leading
slashes stripped) is a 404 problem+json.  Every answer carries
``X-Content-Type-Options: nosniff``; an HTML page without its own
Content-Security-Policy gets ``EMPTY_PAGE_CSP`` (nothing loads, no frame) and
``X-Frame-Options: DENY``.  An API key with a byte that is not visible ASCII is
no key (``presented_key``): 401 on the evaluation routes, naming the header.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
import logging
import os
import re
import sys
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any, TextIO

import orjson
from flask import Flask, Request, Response, current_app, has_request_context, request

from service import metrics, problems, rate_limits, seats, signing
from service.games.messages import N_
from service.headers import visible_ascii
from service.problems import problem

log = logging.getLogger("referee")
access_log = logging.getLogger("referee.access")

REQUEST_ID = "X-Request-Id"
#: fullmatch: ``$`` would let a trailing newline through
_REQUEST_ID_OK = re.compile(r"[A-Za-z0-9._:\-]{1,128}")
EVALUATIONS_PREFIX = "/v1/evaluations"


def setting(app: Flask, name: str, default: object = None) -> Any:
    """App config ``NAME`` first, then the environment's ``REFEREE_NAME``."""
    value = app.config.get(name)
    if value is None:
        value = os.environ.get("REFEREE_" + name)
    return default if value in (None, "") else value


def flag(value: object, name: str = "") -> bool:
    """A switch: ``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off`` (any case),
    a bool in the app config, ``None`` off.  Anything else stops the start, naming the
    setting: a typo in ``REFEREE_REQUIRE_SIGNED`` must not leave a server running open.

    >>> flag("On"), flag(" 0 "), flag(True), flag(None)
    (True, False, True, False)
    >>> flag("y", "REQUIRE_SIGNED")
    Traceback (most recent call last):
    ...
    ValueError: REFEREE_REQUIRE_SIGNED='y': a switch is 1, true, yes or on (on), or 0, false, no or off (off)
    """
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in signing.TRUE:
        return True
    if text in signing.FALSE:
        return False
    raise ValueError(f"REFEREE_{name or 'setting'}={value!r}: a switch is 1, true, yes or "
                     "on (on), or 0, false, no or off (off)")


def init_app(app: Flask) -> None:
    ext = app.extensions["referee"]
    signing.configure(app, setting, flag)  # state and sealing keys, required, server seeds
    ext["api_keys"] = signing.parse_keys(setting(app, "API_KEYS"))
    ext["access_log"] = flag(setting(app, "ACCESS_LOG", "1"), "ACCESS_LOG")
    ext["redis_timeout"] = redis_timeout(app)
    _request_ids(app)
    _edges(app)
    _caching(app)
    _api_keys(app)
    _rate_limits(app)
    _cors(app)


# ------------------------------------------------------------ request ids
def current_request_id() -> str | None:
    return request.environ.get(problems.REQUEST_ID_ENVIRON) if has_request_context() else None


class RequestIds:
    """New request ids: 32 hex digits, a random per-process prefix and a counter.

    Unique across processes (64 random bits per process, drawn again in a
    forked child) and ten times cheaper than ``uuid4`` (no ``os.urandom``
    per request).

    >>> ids = RequestIds()
    >>> a, b = ids.new(), ids.new()
    >>> len(a) == 32 and a[:16] == b[:16] and int(b, 16) == int(a, 16) + 1
    True
    """

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.prefix = os.urandom(8).hex()
        self.counter = itertools.count(1)

    def new(self) -> str:
        return f"{self.prefix}{next(self.counter):016x}"


new_request_id = RequestIds()
os.register_at_fork(after_in_child=new_request_id.reset)


#: ``X-Request-Id`` as the WSGI environ holds it
_REQUEST_ID_ENVIRON = "HTTP_" + REQUEST_ID.upper().replace("-", "_")
#: the WSGI environ key of the request's ``Request`` (``KeptRequest``: Flask empties its own
#: ``werkzeug.request`` before the answer leaves the app; the route is read after)
REQUEST_OBJECT = "referee.request"
#: the WSGI environ key of what the rate limits counted of the request (``_rate_limits``)
RATE_LIMITS = "referee.rate_limits"


class KeptRequest(Request):
    """Flask's request, kept in the environ (``REQUEST_OBJECT``) for ``RequestEdges``."""

    def __init__(self, environ: dict[str, Any], populate_request: bool = True,
                 shallow: bool = False) -> None:
        super().__init__(environ, populate_request, shallow)
        environ[REQUEST_OBJECT] = self


class RequestEdges:
    """The one WSGI middleware around the app: the request id (given or new, in the
    environ for log records and problems), and on the way out its header, ``nosniff``
    (and an empty page's CSP), the rate limits' headers (``limit_headers``), the latency
    metric and the access line.

    One layer instead of a ``before_request`` and an ``after_request`` hook: Flask calls
    each hook through its blueprint chain, and each read of ``request`` or ``g`` there
    is a context-local lookup; here everything is the environ and the status line.
    """

    def __init__(self, app: Any, access: bool) -> None:
        self.app, self.access = app, access

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        started = time.perf_counter()
        given = environ.get(_REQUEST_ID_ENVIRON)
        rid = given if given and _REQUEST_ID_OK.fullmatch(given) else new_request_id.new()
        environ[problems.REQUEST_ID_ENVIRON] = rid
        answered: list[str] = []

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answered.append(status)
            html = csp = False
            retry_after = None
            for k, (name, value) in enumerate(headers):
                lower = name.lower()
                if lower == "content-type":
                    html = value[:9] == "text/html"
                elif lower == "content-security-policy":
                    csp = True
                elif lower == "retry-after":
                    retry_after = k
            headers += ((REQUEST_ID, rid), NOSNIFF)  # a JSON or text answer never runs
            if html and not csp:
                headers.append(("Content-Security-Policy", EMPTY_PAGE_CSP))
                if not any(n.lower() == "x-frame-options" for n, _ in headers):
                    headers.append(("X-Frame-Options", "DENY"))
            counted = environ.get(RATE_LIMITS)
            if counted:
                limit_headers(int(status[:3]), headers, retry_after, counted)
            return start_response(status, headers, exc_info)

        body = self.app(environ, start)
        elapsed = time.perf_counter() - started
        req = environ.pop(REQUEST_OBJECT, None)
        url_rule = req.url_rule if req is not None else None
        rule = url_rule.rule if url_rule is not None else "unmatched"
        method = environ.get("REQUEST_METHOD", "")
        status = int(answered[0][:3]) if answered else 500
        metrics.observe_request(method, rule, status, elapsed)
        if self.access and access_log.isEnabledFor(logging.INFO):
            path = req.path if req is not None else environ.get("PATH_INFO", "")
            log_access(rid, {"method": method, "path": path, "route": rule, "status": status,
                             "ms": round(elapsed * 1000, 3)})
        return body


def _request_ids(app: Flask) -> None:
    """``RequestEdges`` around the app's WSGI callable."""
    app.request_class = KeptRequest
    app.wsgi_app = RequestEdges(  # type: ignore[method-assign]
        app.wsgi_app, bool(app.extensions["referee"].get("access_log")))


def log_access(rid: str, http: dict[str, Any]) -> None:
    """The access line (called only when ``referee.access`` is enabled for INFO).

    When the only handler on its way is the JSON handler ``configure_logging``
    installed, the line is built with orjson from a small dict and written
    to that handler's stream directly: the same line as ``JsonFormatter``
    writes, without a ``LogRecord`` (~3 µs) or a caller lookup.  Any other
    logging setup gets a record handed to its handlers as usual.
    """
    handler = _JSON_HANDLER
    if handler is not None and logging.root.handlers == [handler] \
            and not (access_log.handlers or log.handlers or access_log.filters or log.filters) \
            and access_log.propagate and log.propagate \
            and handler.level <= logging.INFO and len(handler.filters) == 1:
        now = time.time()
        line = orjson.dumps({"ts": JsonFormatter.timestamp(now), "level": "info",
                             "logger": access_log.name, "msg": "request",
                             "request_id": rid, "http": http}, default=str)
        with handler.lock:  # type: ignore[union-attr]  # a Handler's lock exists once created
            try:
                handler.stream.write(line.decode() + "\n")
                handler.flush()
            except (OSError, ValueError):  # as logging does: a log line never fails a request
                pass
        return
    record = access_log.makeRecord(access_log.name, logging.INFO, __file__, 0, "request", (),
                                   None, extra={"request_id": rid, "http": http})
    access_log.handle(record)


# ------------------------------------------------------------------ edges
#: on every answer: browsers take the Content-Type as sent, never sniff a script
NOSNIFF = ("X-Content-Type-Options", "nosniff")
#: an HTML page that set no policy of its own: nothing loads, no site frames it
EMPTY_PAGE_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"


def _edges(app: Flask) -> None:
    """``//`` in a path is a 404 (werkzeug strips leading slashes before matching, so
    gunicorn's ``PATH_INFO`` ``//v1/games`` reached ``/v1/games``)."""

    @app.before_request
    def _empty_segment() -> Response | None:
        if "//" not in request.environ.get("PATH_INFO", ""):
            return None
        return problem(404, "not-found", "Not found", N_(
            "no route has an empty path segment: send the path without `//`"))


# ---------------------------------------------------------------- caching
#: ``app.extensions[CACHEABLE_ROUTES]``: the endpoints of the routes whose answer changes
#: only with a release (for a given URL, language and ``Accept``), declared by each route
#: (``Route.cacheable``): they carry a content-derived ``ETag`` and ``Cache-Control``
CACHEABLE_ROUTES = "referee.cacheable"
#: the pages of problem types answer HTML or JSON after ``Accept``
_BY_ACCEPT = frozenset({"rules.problem_types", "rules.problem_type_page"})
#: a cache may reuse such an answer for 5 minutes (after a release, at most that stale),
#: then revalidates it with ``If-None-Match`` (a 304 without a body while nothing changed)
CACHE_CONTROL = "public, max-age=300"


def content_etag(body: bytes, content_type: str) -> str:
    """A strong entity tag of an answer: a digest of its type and bytes, so every process
    and instance of one release tags the same answer alike (no mtime, no counter).

    >>> content_etag(b"{}", "application/json") == content_etag(b"{}", "application/json")
    True
    >>> content_etag(b"{}", "application/json") != content_etag(b"{}", "text/html")
    True
    >>> len(content_etag(b"", "text/plain"))
    32
    """
    digest = hashlib.sha256(content_type.encode() + b"\x00" + body).hexdigest()
    return digest[:32]


def _caching(app: Flask) -> None:
    """``ETag`` and ``Cache-Control`` on a 200 of a cacheable route; ``If-None-Match`` (a tag,
    weak or strong, a list, ``*``) answered 304 by werkzeug's weak comparison (RFC 9110
    §13.1.2: for ``If-None-Match`` a weak tag matches its strong twin)."""

    cacheable = app.extensions.get(CACHEABLE_ROUTES, set())

    @app.after_request
    def _tag(response: Response) -> Response:
        if response.status_code != 200 or request.method not in ("GET", "HEAD") \
                or request.endpoint not in cacheable or response.direct_passthrough:
            return response
        response.set_etag(content_etag(response.get_data(), response.content_type or ""))
        response.headers["Cache-Control"] = CACHE_CONTROL
        if request.endpoint in _BY_ACCEPT:
            response.vary.add("Accept")
        response.make_conditional(request.environ)  # in place: 304 when the tag matches
        return response


# ------------------------------------------------------------------- logs
class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, request id, extras.

    >>> rec = logging.LogRecord("referee", logging.INFO, __file__, 1, "hello", None, None)
    >>> sorted(orjson.loads(JsonFormatter().format(rec)))
    ['level', 'logger', 'msg', 'ts']
    """

    #: (second, its text): one strftime per second of logging, not per line
    _second: tuple[int, str] = (-1, "")

    @classmethod
    def timestamp(cls, created: float) -> str:
        """``2026-11-21T11:52:16.042Z`` (UTC, milliseconds) for a ``time.time()``."""
        second = int(created)
        cached = cls._second
        if cached[0] != second:
            cached = cls._second = (second, time.strftime("%Y-%m-%dT%H:%M:%S",
                                                          time.gmtime(second)))
        return f"{cached[1]}.{int((created - second) * 1000):03d}Z"

    def format(self, record: logging.LogRecord) -> str:
        out = {"ts": self.timestamp(record.created),
               "level": record.levelname.lower(), "logger": record.name,
               "msg": record.getMessage()}
        rid = getattr(record, "request_id", None) or current_request_id()
        if rid and rid != "-":
            out["request_id"] = rid
        http = getattr(record, "http", None)
        if http:
            out["http"] = http
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return orjson.dumps(out, default=str).decode()


class RequestIdFilter(logging.Filter):
    """Adds ``request_id`` to every record (for text formats: ``%(request_id)s``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id() or "-"
        return True


#: the JSON handler ``configure_logging`` installed on the root logger, if it did
_JSON_HANDLER: logging.StreamHandler[TextIO] | None = None


def configure_logging(fmt: str | None = None) -> None:
    """Root logging to stderr (JSON by default) when nothing configured it yet."""
    global _JSON_HANDLER
    root = logging.getLogger()
    if root.handlers:
        return
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(RequestIdFilter())
    if (fmt or os.environ.get("REFEREE_LOG_FORMAT") or "json") == "json":
        handler.setFormatter(JsonFormatter())
        _JSON_HANDLER = handler
    else:
        handler.setFormatter(logging.Formatter(
            "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"))
    root.addHandler(handler)
    root.setLevel(logging.INFO)


# --------------------------------------------------------------- API keys
def presented_key() -> str | None:
    """The API key sent (``Authorization: Bearer`` first, then ``X-API-Key``), or ``None``;
    ``INVALID_KEY`` for one with a byte that is not visible ASCII (no configured key has)."""
    found = _key_header()
    if found is None:
        return None
    return found[1] if visible_ascii(found[1]) else INVALID_KEY


def _key_header() -> tuple[str, str] | None:
    """(header name, the key as sent) or ``None``."""
    environ = request.environ
    auth = environ.get("HTTP_AUTHORIZATION", "")
    if auth[:7].lower() == "bearer ":
        key = auth[7:].strip(" \t")
        return ("Authorization", key) if key else None
    key = environ.get("HTTP_X_API_KEY", "")
    return ("X-API-Key", key) if key else None


#: what ``presented_key`` answers for a key with a non-ASCII or control byte
INVALID_KEY = "\x00"


def _api_keys(app: Flask) -> None:
    keys = app.extensions["referee"]["api_keys"]
    if not keys:
        return

    @app.before_request
    def _require_key() -> Response | None:
        if not request.path.startswith(EVALUATIONS_PREFIX) or request.method == "OPTIONS":
            return None
        given = presented_key()
        if given is not None and given != INVALID_KEY and is_known_key(given, keys):
            return None
        extra = {}
        sent = _key_header()
        if given == INVALID_KEY and sent is not None:
            extra["errors"] = {f"headers.{sent[0]}": [N_("an API key is visible ASCII")]}
        return problem(401, "unauthorized", "API key required",
                       N_("evaluations need an API key: `Authorization: Bearer <key>` or "
                          "`X-API-Key: <key>`") if given is None else N_("unknown API key"),
                       headers={"WWW-Authenticate": 'Bearer realm="referee"'}, **extra)


def is_known_key(given: str, keys: list[bytes]) -> bool:
    """Whether ``given`` is one of the configured API keys (constant-time per key).

    >>> is_known_key("k2", [b"k1", b"k2"]), is_known_key("k3", [b"k1", b"k2"])
    (True, False)
    """
    given_bytes = given.encode()
    return any(hmac.compare_digest(given_bytes, k) for k in keys)


# ------------------------------------------------------------ rate limits
def client_key() -> str:
    """The rate-limit bucket of this request: its API key once verified against
    ``REFEREE_API_KEYS`` (as a digest: Redis never holds a key), else its address.

    A key that is not configured — made up, or any key when none are
    configured — counts as no key: a fresh random key per request must not
    buy a fresh bucket.
    """
    key = presented_key()
    if key and key != INVALID_KEY:
        keys = current_app.extensions["referee"]["api_keys"]
        if keys and is_known_key(key, keys):
            return "key:" + hashlib.sha256(key.encode()).hexdigest()[:32]
    return "addr:" + (request.remote_addr or "unknown")


#: seconds one Redis call of the web process may take (``REFEREE_REDIS_TIMEOUT``)
DEFAULT_REDIS_TIMEOUT = 0.5
#: what a rate limit does while Redis does not answer (``REFEREE_RATE_LIMIT_FAILURE``)
RATE_LIMIT_FAILURES = ("open", "closed")


def redis_timeout(app: Flask) -> float:
    """``REFEREE_REDIS_TIMEOUT`` in seconds: a positive number, else a start-up error.

    >>> app = Flask(__name__)
    >>> app.config["REDIS_TIMEOUT"] = "0.2"
    >>> redis_timeout(app)
    0.2
    """
    raw = setting(app, "REDIS_TIMEOUT", DEFAULT_REDIS_TIMEOUT)
    try:
        value = float(raw)
    except (TypeError, ValueError):
        value = -1.0
    if not 0 < value <= 60:
        raise ValueError(f"REFEREE_REDIS_TIMEOUT must be seconds between 0 and 60, got {raw!r}")
    return value


def rate_limit_failure(app: Flask) -> str:
    """``REFEREE_RATE_LIMIT_FAILURE``: ``open`` or ``closed``, else a start-up error."""
    value = str(setting(app, "RATE_LIMIT_FAILURE", "open")).strip().lower()
    if value not in RATE_LIMIT_FAILURES:
        raise ValueError(f"REFEREE_RATE_LIMIT_FAILURE must be open or closed, got {value!r}")
    return value


class RedisNotAnswering(Exception):
    """Raised instead of calling a Redis this process found not answering."""


class RedisBreaker:
    """Whether this process's last Redis call answered (a circuit breaker).

    ``trip()`` (a call failed or timed out) marks Redis down and starts one
    daemon thread that pings it every ``PROBE_SECONDS`` (with the same
    timeout) until it answers; meanwhile ``down`` is true and callers skip
    Redis instead of waiting on it.  A forked child starts with Redis up.
    """

    PROBE_SECONDS = 1.0

    def __init__(self, url: str, timeout: float) -> None:
        self.url, self.timeout = url, timeout
        self.down = False
        self._lock = threading.Lock()
        self._probe: threading.Thread | None = None
        _BREAKERS.add(self)

    def _reset(self) -> None:
        """In a forked child: its parent's probe thread is not there."""
        self.down, self._lock, self._probe = False, threading.Lock(), None

    def trip(self, exc: BaseException | None = None) -> None:
        with self._lock:
            if self.down:
                return
            self.down = True
            log.warning("Redis did not answer within %.2f s (%s): rate limits and the step "
                        "register skip it until it answers again", self.timeout,
                        type(exc).__name__ if exc else "-")
            self._probe = threading.Thread(target=self._wait_until_up, name="redis-probe",
                                           daemon=True)
            self._probe.start()

    def _wait_until_up(self) -> None:
        import redis

        client = redis.Redis.from_url(self.url, socket_timeout=self.timeout,
                                      socket_connect_timeout=self.timeout)
        try:
            while True:
                time.sleep(self.PROBE_SECONDS)
                try:
                    if client.ping():
                        break
                except redis.RedisError:
                    continue
        finally:
            client.close()
        with self._lock:
            self.down, self._probe = False, None
        log.info("Redis answers again: rate limits and the step register use it again")


#: every breaker of this process, reset in a forked child
_BREAKERS: weakref.WeakSet[RedisBreaker] = weakref.WeakSet()


def _reset_breakers() -> None:
    for breaker in list(_BREAKERS):
        breaker._reset()


os.register_at_fork(after_in_child=_reset_breakers)


def _rate_limits(app: Flask) -> None:
    """``REFEREE_RATE_LIMIT`` on every ``POST /v1/…``, ``REFEREE_EVALUATION_RATE_LIMIT`` on
    ``POST /v1/evaluations`` after it (``service.rate_limits``: one Redis call a request),
    per client (``client_key``) and route; the answers say it (``limit_headers``)."""
    general = rate_limits.parse_limits("general", setting(app, "RATE_LIMIT"))
    evaluations = rate_limits.parse_limits("evaluations", setting(app, "EVALUATION_RATE_LIMIT"))
    failure = rate_limit_failure(app)
    if not general and not evaluations:
        return
    url = app.config.get("REDIS_URL")
    breaker = RedisBreaker(url, app.extensions["referee"]["redis_timeout"]) if url else None
    if breaker is not None and failure == "closed":
        _refuse_while_redis_is_down(app, breaker, bool(general))
    limiter = rate_limits.RateLimiter(
        rate_limits.RedisWindows(breaker.url, breaker.timeout, breaker) if breaker else None)
    app.extensions["referee"]["limiter"] = limiter
    app.extensions["referee"]["redis_breaker"] = breaker
    submit = "evaluations.submit"
    both = general + evaluations

    @app.before_request
    def _limit() -> Response | None:
        req = request._get_current_object()  # type: ignore[attr-defined]  # one lookup
        environ = req.environ
        if environ.get("REQUEST_METHOD") != "POST":
            return None
        endpoint = req.endpoint
        if endpoint is None:  # no route: a 404 counts against nothing
            return None
        limits = both if endpoint == submit else general
        if not limits or not environ.get("PATH_INFO", "").startswith("/v1/"):
            return None
        # no key sent: the bucket is the address (``client_key``), read here at once
        bucket = client_key() if "HTTP_AUTHORIZATION" in environ or "HTTP_X_API_KEY" in environ \
            else "addr:" + (environ.get("REMOTE_ADDR") or "unknown")
        counted = limiter.count(bucket, endpoint, limits)
        environ[RATE_LIMITS] = counted  # its headers: ``RequestEdges``, on the way out
        refused = counted[-1]
        if refused.allowed:
            return None
        log.info("rate limit %s/%ss of %s exceeded on %s", refused.limit.amount,
                 refused.limit.seconds, refused.limit.name, endpoint)
        return problem(429, "too-many-requests", "Too many requests",
                       N_("this client is over the rate limit of {amount} requests per "
                          "{seconds} s on this route; retry in {wait} s",
                          amount=refused.limit.amount, seconds=refused.limit.seconds,
                          wait=refused.wait))


def limit_headers(status: int, headers: list[tuple[str, str]], retry_after: int | None,
                  counted: list[rate_limits.Counted]) -> None:
    """To an answer's WSGI headers (``retry_after``: the index of its own ``Retry-After``):
    ``X-RateLimit-*`` (the nearest limit, ``rate_limits.header_limit``), the IETF
    ``RateLimit-Policy`` and ``RateLimit`` (every limit that counted), and ``Retry-After``:
    a 429's is the limit's; any other answer keeps its own (a 202's poll hint, a 503's
    wait), and one without gets the seconds until the nearest window frees a request."""
    nearest = rate_limits.header_limit(counted)
    wait = ("Retry-After", str(nearest.wait))
    if retry_after is None:
        headers.append(wait)
    elif status == 429:
        headers[retry_after] = wait
    policy, current = rate_limits.ietf_fields(counted)
    headers += (("X-RateLimit-Limit", str(nearest.limit.amount)),
                ("X-RateLimit-Remaining", str(nearest.remaining)),
                ("X-RateLimit-Reset", str(nearest.reset_epoch)),
                ("RateLimit-Policy", policy), ("RateLimit", current))


def _refuse_while_redis_is_down(app: Flask, breaker: RedisBreaker, general: bool) -> None:
    """``REFEREE_RATE_LIMIT_FAILURE=closed``: while Redis does not answer, a
    request a rate limit applies to is refused (429, ``Retry-After``) instead of
    counted in memory."""

    @app.before_request
    def _closed() -> Response | None:
        if not breaker.down or request.method != "POST":
            return None
        path = request.path
        if not (path.startswith("/v1/") if general else path == EVALUATIONS_PREFIX):
            return None
        retry = str(max(1, round(breaker.PROBE_SECONDS)))
        return problem(429, "too-many-requests", "Too many requests",
                       N_("the rate-limit counters (Redis) are not answering, and this server "
                          "refuses limited requests meanwhile (REFEREE_RATE_LIMIT_FAILURE="
                          "closed); retry in {seconds} s", seconds=retry),
                       headers={"Retry-After": retry})


# ------------------------------------------------------------------- CORS
#: what a page of an allowed origin may send (a header outside the CORS safelist makes the
#: browser ask first, and a preflight naming one not listed here is refused): every request
#: header the service reads
CORS_ALLOW_HEADERS = ("Content-Type", "Authorization", "X-API-Key", REQUEST_ID,
                      signing.HEADER, seats.HEADER, "Idempotency-Key",
                      "Accept-Language", "If-None-Match")
#: what its script may read of an answer (beyond the safelisted Content-Type,
#: Content-Language, Cache-Control…): every response header the service sets for a client
CORS_EXPOSE_HEADERS = (REQUEST_ID, "Retry-After", "Location", "ETag", "Referee-Rules-Upgraded",
                       "WWW-Authenticate", "RateLimit", "RateLimit-Policy",
                       "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset")


def _cors(app: Flask) -> None:
    origins = setting(app, "CORS_ORIGINS")
    if not origins:
        return
    from flask_cors import CORS

    listed = origins if not isinstance(origins, str) else \
        ("*" if origins.strip() == "*" else [o.strip() for o in origins.split(",") if o.strip()])
    CORS(app, origins=listed, expose_headers=list(CORS_EXPOSE_HEADERS),
         allow_headers=list(CORS_ALLOW_HEADERS), max_age=600)
