"""Rate limits: exact moving windows, shared by every worker, one Redis call a request.

``REFEREE_RATE_LIMIT`` (every ``POST /v1/…``) and ``REFEREE_EVALUATION_RATE_LIMIT``
(``POST /v1/evaluations``, after the general one) are lists of limits in the syntax of
the ``limits`` package: ``600/minute;10/second``.  A limit of *n* per *w* seconds is a
moving window: a request is refused (429) when *n* requests of the same client on the
same route were counted in the *w* seconds before it.  The limits of a request are
counted in order and the first that refuses stops the count: it and the ones after it
do not count the refused request (as flask-limiter's ``moving-window`` strategy, which
counted before, with a Redis call per limit and one more per answer for its headers).

**In Redis** (``RedisWindows``, ``REDIS_URL`` set): one sorted set per bucket (a member
per counted request, scored by the time in ms) and one Lua script (``SCRIPT``) that, for
every limit of the request at once and atomically, drops what left the window, counts,
adds the request where it fits and answers what the headers need: one ``EVALSHA`` per
request, exact across workers and instances.  The time is the Redis server's
(``TIME``), so web processes whose clocks differ still count in one window.

**In memory** (``MemoryWindows``): the same count in this process, without Redis or
while the breaker says Redis does not answer (``service.middleware.RedisBreaker``:
``REFEREE_RATE_LIMIT_FAILURE=open``).

>>> windows = MemoryWindows()
>>> limits = parse_limits("general", "2/minute;5/hour")
>>> [(c.limit.name, c.allowed, c.remaining) for c in windows.count("addr:a", "r", limits)]
[('general', True, 1), ('general-2', True, 4)]
>>> _ = windows.count("addr:a", "r", limits)
>>> [(c.limit.name, c.allowed, c.remaining) for c in windows.count("addr:a", "r", limits)]
[('general', False, 0)]
>>> windows.count("addr:b", "r", limits)[0].remaining   # another client, its own bucket
1
"""

from __future__ import annotations

import collections
import itertools
import os
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any, Protocol

#: the prefix of every bucket's key in Redis
KEY_PREFIX = "referee-limits:"

SCRIPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local out = {now}
for i, key in ipairs(KEYS) do
  local amount, window = tonumber(ARGV[2 * i]), tonumber(ARGV[2 * i + 1])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  local allowed = count < amount
  if allowed then
    redis.call('ZADD', key, now, ARGV[1])
    redis.call('PEXPIRE', key, window)
    count = count + 1
  end
  local oldest = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  out[#out + 1] = allowed and 1 or 0
  out[#out + 1] = count
  out[#out + 1] = (oldest[2] and tonumber(oldest[2]) or now) + window
  if not allowed then break end
end
return out
"""


@dataclass(frozen=True)
class Limit:
    """One limit of a setting: ``amount`` requests per ``seconds``; ``name`` is its policy
    in ``RateLimit-Policy`` (the setting's name, ``-2``… for its further limits)."""

    name: str
    amount: int
    seconds: int


def parse_limits(name: str, text: str | None) -> list[Limit]:
    """The limits of a setting (``ValueError`` for one ``limits`` cannot read).

    >>> parse_limits("general", "600/minute;10/second")
    [Limit(name='general', amount=600, seconds=60), Limit(name='general-2', amount=10, seconds=1)]
    >>> parse_limits("evaluations", None)
    []
    """
    from limits import parse_many

    if not text:
        return []
    return [Limit(name + (f"-{k + 1}" if k else ""), item.amount, item.get_expiry())
            for k, item in enumerate(parse_many(text))]


class Counted:
    """What one limit said of a request: ``allowed``, the requests in its window (this one
    included when allowed), and ``reset_ms``/``now_ms`` on the counter's clock (ms since
    the epoch): when the oldest of them leaves the window, and when it counted."""

    __slots__ = ("limit", "allowed", "count", "reset_ms", "now_ms")

    def __init__(self, limit: Limit, allowed: bool, count: int, reset_ms: int,
                 now_ms: int) -> None:
        self.limit, self.allowed, self.count = limit, allowed, count
        self.reset_ms, self.now_ms = reset_ms, now_ms

    def __repr__(self) -> str:
        return (f"Counted({self.limit.name}, allowed={self.allowed}, count={self.count}, "
                f"wait={self.wait})")

    @property
    def remaining(self) -> int:
        return max(0, self.limit.amount - self.count)

    @property
    def wait(self) -> int:
        """Whole seconds until the window frees a request (at most the window)."""
        return min(self.limit.seconds, max(0, -(-(self.reset_ms - self.now_ms) // 1000)))

    @property
    def reset_epoch(self) -> int:
        return -(-self.reset_ms // 1000)


class Breaker(Protocol):
    """``service.middleware.RedisBreaker`` as the counter uses it."""

    @property
    def down(self) -> bool: ...

    def trip(self, exc: BaseException | None = None) -> None: ...


def bucket_key(client: str, route: str, limit: Limit) -> str:
    """The Redis key of one client's window of one limit on one route.

    >>> bucket_key("addr:10.0.0.7", "games.apply", Limit("general", 600, 60))
    'referee-limits:addr:10.0.0.7/games.apply/600/60'
    """
    return f"{KEY_PREFIX}{client}/{route}/{limit.amount}/{limit.seconds}"


class Members:
    """Unique members of the sorted sets: a per-process random prefix and a counter
    (drawn again in a forked child, as ``middleware.RequestIds``)."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.prefix = os.urandom(6).hex()
        self.counter = itertools.count()

    def new(self) -> str:
        return f"{self.prefix}{next(self.counter):x}"


_MEMBERS = Members()
os.register_at_fork(after_in_child=_MEMBERS.reset)


class ReplyError(Exception):
    """An error reply of Redis to the limiter's own connection (``Resp``)."""


class Resp:
    """The limiter's own Redis connections, one per thread, for its one command.

    redis-py spends about 260 k instructions on an ``EVALSHA`` (its client, pool, events
    and parser); writing the command and reading its array of integers here spends about
    45 k.  Only for what such a connection needs no more than host, port, database and
    credentials to reach (``redis://``, ``unix://``; ``from_url`` answers ``None`` for TLS
    or any other option: redis-py then).  A connection that fails or times out is closed;
    the next call opens a new one.
    """

    def __init__(self, params: dict[str, Any], timeout: float) -> None:
        self.params, self.timeout = params, timeout
        self._local = threading.local()

    @classmethod
    def from_url(cls, url: str, timeout: float) -> Resp | None:
        from redis.connection import UnixDomainSocketConnection, parse_url

        params = parse_url(url)  # type: ignore[no-untyped-call]  # redis-py: untyped
        kind = params.pop("connection_class", None)
        if kind not in (None, UnixDomainSocketConnection) \
                or set(params) - {"host", "port", "db", "username", "password", "path"}:
            return None
        return cls(params, timeout)

    def _open(self) -> tuple[socket.socket, Any]:
        params = self.params
        if "path" in params:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(self.timeout)
            sock.connect(params["path"])
        else:
            sock = socket.create_connection((params.get("host", "localhost"),
                                             params.get("port", 6379)), self.timeout)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.settimeout(self.timeout)
        reader = sock.makefile("rb")
        try:
            if params.get("password"):
                user = [params["username"]] if params.get("username") else []
                self._exchange(sock, reader, ["AUTH", *user, params["password"]])
            if params.get("db"):
                self._exchange(sock, reader, ["SELECT", params["db"]])
        except BaseException:
            sock.close()
            raise
        return sock, reader

    def call(self, *words: Any) -> Any:
        """One command's reply (``ReplyError`` for an error reply; ``OSError`` for a
        connection that failed, now closed)."""
        found = getattr(self._local, "conn", None)
        if found is None or found[2] != os.getpid():  # none yet, or the parent's
            found = self._local.conn = (*self._open(), os.getpid())
        try:
            return self._exchange(found[0], found[1], words)
        except (OSError, ValueError):
            self._local.conn = None
            found[0].close()
            raise

    @staticmethod
    def _exchange(sock: socket.socket, reader: Any, words: Any) -> Any:
        encoded = [w if isinstance(w, bytes) else str(w).encode() for w in words]
        sock.sendall(b"*%d\r\n%b" % (len(encoded), b"".join(
            b"$%d\r\n%b\r\n" % (len(w), w) for w in encoded)))
        return Resp._reply(reader)

    @staticmethod
    def _reply(reader: Any) -> Any:
        line = reader.readline()
        if not line.endswith(b"\r\n"):
            raise ConnectionError("Redis closed the connection")
        kind, rest = line[:1], line[1:-2]
        if kind == b":":
            return int(rest)
        if kind == b"*":
            return [Resp._reply(reader) for _ in range(int(rest))]
        if kind == b"$":
            size = int(rest)
            return None if size < 0 else reader.read(size + 2)[:-2]
        if kind == b"+":
            return rest
        if kind == b"-":
            raise ReplyError(rest.decode(errors="replace"))
        raise ConnectionError(f"not a Redis reply: {line[:40]!r}")


class RedisWindows:
    """The windows in Redis: one ``EVALSHA`` of ``SCRIPT`` per request (over ``Resp``
    where it can, else redis-py)."""

    def __init__(self, url: str, timeout: float, breaker: Breaker) -> None:
        import redis

        self.breaker = breaker
        self.client = redis.Redis.from_url(url, socket_timeout=timeout,
                                           socket_connect_timeout=timeout)
        self.script = self.client.register_script(SCRIPT)
        self.resp = Resp.from_url(url, timeout)

    def count(self, client: str, route: str, limits: list[Limit]) -> list[Counted]:
        keys = [bucket_key(client, route, limit) for limit in limits]
        args: list[Any] = [_MEMBERS.new()]
        for limit in limits:
            args += (limit.amount, limit.seconds * 1000)
        resp = self.resp
        if resp is None:
            found = self.script(keys=keys, args=args)
        else:
            try:
                found = resp.call(b"EVALSHA", self.script.sha, len(keys), *keys, *args)
            except ReplyError as exc:
                if not str(exc).startswith("NOSCRIPT"):
                    raise
                found = resp.call(b"EVAL", SCRIPT, len(keys), *keys, *args)  # caches it
        now = int(found[0])
        return [Counted(limit, bool(found[k]), int(found[k + 1]), int(found[k + 2]), now)
                for limit, k in zip(limits, range(1, len(found), 3), strict=False)]


class MemoryWindows:
    """The windows in this process's memory (bounded: a window holds at most its amount;
    a window whose newest request left it is dropped every ``SWEEP`` counts)."""

    SWEEP = 4096

    def __init__(self) -> None:
        self._windows: dict[str, collections.deque[int]] = {}
        self._lock = threading.Lock()
        self._counts = 0

    def count(self, client: str, route: str, limits: list[Limit]) -> list[Counted]:
        now = int(time.time() * 1000)
        out = []
        with self._lock:
            self._counts += 1
            if self._counts % self.SWEEP == 0:
                self._sweep(now)
            for limit in limits:
                key = bucket_key(client, route, limit)
                window = self._windows.get(key)
                if window is None:
                    window = self._windows[key] = collections.deque(maxlen=limit.amount or 1)
                span = limit.seconds * 1000
                while window and window[0] <= now - span:
                    window.popleft()
                allowed = len(window) < limit.amount
                if allowed:
                    window.append(now)
                oldest = window[0] if window else now
                out.append(Counted(limit, allowed, len(window), oldest + span, now))
                if not allowed:
                    break
        return out

    def _sweep(self, now: int) -> None:
        for key, window in list(self._windows.items()):
            span = int(key.rsplit("/", 1)[1]) * 1000
            if not window or window[-1] <= now - span:
                del self._windows[key]


class RateLimiter:
    """Counts each request in Redis when it answers, else in memory."""

    def __init__(self, redis: RedisWindows | None) -> None:
        import redis as redis_module

        self.redis, self.memory = redis, MemoryWindows()
        self._errors: tuple[type[BaseException], ...] = (redis_module.RedisError, OSError,
                                                          ReplyError)

    def count(self, client: str, route: str, limits: list[Limit]) -> list[Counted]:
        redis = self.redis
        if redis is not None and not redis.breaker.down:
            try:
                return redis.count(client, route, limits)
            except self._errors as exc:  # counted in memory meanwhile; the breaker probes
                redis.breaker.trip(exc)
        return self.memory.count(client, route, limits)


def header_limit(counted: list[Counted]) -> Counted:
    """The limit ``X-RateLimit-*`` describe: the one that refused, else the one with the
    fewest requests left (the first of those)."""
    if not counted[-1].allowed:
        return counted[-1]
    return min(counted, key=lambda c: c.remaining)


def ietf_fields(counted: list[Counted]) -> tuple[str, str]:
    """``RateLimit-Policy`` and ``RateLimit`` (draft-ietf-httpapi-ratelimit-headers-11,
    structured-field lists) of every limit that counted the request.

    >>> general, evaluations = Limit("general", 600, 60), Limit("evaluations", 20, 60)
    >>> ietf_fields([Counted(general, True, 1, 60_000, 0), Counted(evaluations, False, 20, 12_000, 0)])
    ('"general";q=600;w=60, "evaluations";q=20;w=60', '"general";r=599;t=60, "evaluations";r=0;t=12')
    """
    policy = ", ".join(f'"{c.limit.name}";q={c.limit.amount};w={c.limit.seconds}'
                       for c in counted)
    current = ", ".join(f'"{c.limit.name}";r={c.remaining};t={c.wait}' for c in counted)
    return policy, current
