"""One answer per step: the register of the steps of sealed games already played.

A sealed state travels with its holders, and the service keeps nothing of it;
so, before this register, a bot could apply a trial action to a state, read
the answer (another seat's committed orders, a draw) and then apply another
action to the same state — or go back to an older one after a bad roll.  The
chain (``service.transcripts``) made that evident as a fork; this register
refuses it (``docs/trust.md``, "One answer per step").

A game's step is **spent** by the first action applied to it: the register
keeps, for ``(chain.game, chain.step)`` of the state applied to, a digest of
the state the action led to.  The same action again leads to the same state:
same digest, the same answer byte for byte (a retry is never refused).  Any
other action on a spent step is refused, 409 ``step-spent``, however old the
state sent.  ``apply`` spends one step; ``apply-chance`` spends the step it was
sent for with its whole list of outcomes (its answer counts ``step + n``).

Which states: sealed ones always; signed ones too with ``REFEREE_SPEND_SIGNED=1``
(a host that relays signed states through clients can have the same rule).
Plain states are the holder's own and never registered.  Nothing else spends a
step: ``legal-actions``, ``check``, ``view``, ``score`` and evaluations only read.

Where the register lives: in Redis when ``REDIS_URL`` is set (one hash per game,
``referee:steps:<game id>``, seen by every web instance), else in a SQLite file
shared by the gunicorn workers and every instance on the machine
(``REFEREE_STEP_REGISTER``, default ``$XDG_STATE_HOME/referee/spent-steps.sqlite3``)
— never one process's memory.  A game's entries expire ``REFEREE_STEP_REGISTER_DAYS``
(default 30) days after its last step (in SQLite within the hour after).  When the register does not answer — Redis
refused, dead or frozen past ``REFEREE_REDIS_TIMEOUT``, the SQLite file locked or
unwritable — a registered ``apply`` fails closed: 503 ``step-register-unavailable``
with ``Retry-After``, nothing spent, nothing answered.

>>> register = SQLiteSteps(":memory:", ttl_seconds=60)
>>> register.spend("g" * 32, 0, b"a" * 16)      # the first action: spent
True
>>> register.spend("g" * 32, 0, b"a" * 16)      # the same again: the same answer
True
>>> register.spend("g" * 32, 0, b"b" * 16)      # another action on a spent step
False
>>> register.spend("g" * 32, 1, b"b" * 16)      # the next step is free
True
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import orjson
from flask import Flask, current_app

from service import sealing, signing, transcripts
from service.games.messages import N_
from service.middleware import RedisBreaker
from service.problems import ProblemError

#: how long a game's entries outlive its last step, by default (``REFEREE_STEP_REGISTER_DAYS``)
DEFAULT_DAYS = 30.0
#: seconds a client is told to wait when the register does not answer
RETRY_AFTER = 1
#: the longest a SQLite write waits for another process's lock before it fails closed
SQLITE_BUSY_SECONDS = 2.0
#: how often a process sweeps expired games out of the SQLite file (seconds)
SWEEP_SECONDS = 3600.0
REDIS_PREFIX = "referee:steps:"


class RegisterDown(Exception):
    """The register did not answer: the request fails closed (503)."""


class StepRegister(Protocol):
    """Where spent steps are kept: ``RedisSteps`` or ``SQLiteSteps``."""

    #: ``redis`` or ``sqlite`` (``/readyz`` and the docs say which)
    backend: str

    def spend(self, game: str, step: int, digest: bytes) -> bool:
        """Record ``digest`` for step ``step`` of ``game`` unless the step is spent; True
        when the step is now spent with ``digest`` (just now, or before by the same
        answer), False when another answer spent it.  ``RegisterDown`` when the store
        does not answer: nothing is known to be spent."""
        ...


class SQLiteSteps:
    """The register in a SQLite file (WAL), one connection per process and thread.

    A spend is one statement, atomic on its own: insert the step's digest unless
    the step is there, and return the digest kept (``INSERT … ON CONFLICT DO UPDATE
    … RETURNING``; the update only moves the row's time on).  Two processes spending
    one step at once are serialised by the file's write lock: one inserts, the other
    reads the first one's digest.  A game's rows go when its latest row is older than
    the time to live (``sweep``, hourly in each process: a game expires within an
    hour after its time).
    """

    backend = "sqlite"
    SCHEMA = """
    CREATE TABLE IF NOT EXISTS spent_steps (game TEXT NOT NULL, step INTEGER NOT NULL,
        digest BLOB NOT NULL, at REAL NOT NULL, PRIMARY KEY (game, step)) WITHOUT ROWID;
    """
    SPEND = ("INSERT INTO spent_steps VALUES (?, ?, ?, ?) ON CONFLICT (game, step) "
             "DO UPDATE SET at = excluded.at RETURNING digest")

    def __init__(self, path: str, ttl_seconds: float,
                 clock: Callable[[], float] = time.time) -> None:
        if sqlite3.sqlite_version_info < (3, 35):  # RETURNING
            raise RuntimeError(f"the step register needs SQLite 3.35 or newer (this Python "
                               f"has {sqlite3.sqlite_version}); or set REDIS_URL")
        self.path, self.ttl, self.clock = path, ttl_seconds, clock
        self._local = threading.local()
        self._swept = clock()
        if path != ":memory:":
            directory = os.path.dirname(os.path.abspath(path))
            os.makedirs(directory, exist_ok=True)
        self._db()  # a file that cannot be opened stops the start, not the first apply

    def _db(self) -> sqlite3.Connection:
        """This thread's connection (a forked worker opens its own: the pid changes)."""
        local = self._local
        if getattr(local, "pid", None) != os.getpid():
            db = sqlite3.connect(self.path, timeout=SQLITE_BUSY_SECONDS, isolation_level=None,
                                 check_same_thread=False)
            if self.path != ":memory:":
                db.execute("PRAGMA journal_mode=WAL")
                # WAL + NORMAL: a commit is durable against a crash of the process, and
                # against power loss up to the last checkpoint; no fsync per apply
                db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(self.SCHEMA)
            local.db, local.pid = db, os.getpid()
        conn: sqlite3.Connection = local.db
        return conn

    def spend(self, game: str, step: int, digest: bytes) -> bool:
        now = self.clock()
        try:
            (kept,) = self._db().execute(self.SPEND, (game, step, digest, now)).fetchone()
            if now - self._swept > SWEEP_SECONDS:
                self._swept = now
                self.sweep(now)
        except sqlite3.Error as exc:
            raise RegisterDown(f"{type(exc).__name__}: {exc}") from exc
        return bool(kept == digest)

    def sweep(self, now: float | None = None) -> int:
        """Drop the games whose latest step is older than the time to live; how many rows.

        >>> register = SQLiteSteps(":memory:", ttl_seconds=10, clock=lambda: 0.0)
        >>> register.spend("old", 0, b"x"), register.spend("new", 0, b"y")
        (True, True)
        >>> register.clock = lambda: 5.0
        >>> register.spend("new", 1, b"z")
        True
        >>> register.sweep(now=12.0)   # "old" last played at 0, "new" at 5
        1
        """
        cutoff = (self.clock() if now is None else now) - self.ttl
        done = self._db().execute(
            "DELETE FROM spent_steps WHERE game IN "
            "(SELECT game FROM spent_steps GROUP BY game HAVING max(at) < ?)", (cutoff,))
        return int(done.rowcount)


class RedisSteps:
    """The register in Redis: a hash per game (field: the step, value: the digest),
    whose time to live starts again at each step.  One command per spend: a Lua
    script (atomic; ``HSETNX``, ``EXPIRE``, ``HGET``), sent as ``EVALSHA``: the client
    builds and parses one command where a ``MULTI`` pipeline took five
    (``python -m bench.spent_steps``: 486 k → 289 k instructions per sealed apply).  Behind
    the process's Redis breaker (``service.middleware.RedisBreaker``): once a call did
    not answer within the Redis timeout, registered applies fail at once until Redis
    answers again."""

    backend = "redis"
    SCRIPT = """
    redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
    redis.call('EXPIRE', KEYS[1], ARGV[3])
    return redis.call('HGET', KEYS[1], ARGV[1])
    """

    def __init__(self, url: str, timeout: float, ttl_seconds: float,
                 breaker: RedisBreaker | None = None) -> None:
        import redis

        self.ttl = max(1, int(ttl_seconds))
        self.client = redis.Redis.from_url(url, socket_timeout=timeout,
                                           socket_connect_timeout=timeout)
        self.script = self.client.register_script(self.SCRIPT)
        # the rate limiter's when it counts in the same Redis: one "Redis is down" per process
        self.breaker = breaker if breaker is not None else RedisBreaker(url, timeout)
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError, OSError)

    def spend(self, game: str, step: int, digest: bytes) -> bool:
        if self.breaker.down:
            raise RegisterDown(f"Redis ({self.breaker.url}) is not answering")
        try:
            kept = self.script(keys=[REDIS_PREFIX + game], args=[step, digest, self.ttl])
        except self._errors as exc:
            self.breaker.trip(exc)
            raise RegisterDown(f"{type(exc).__name__}: {exc}") from exc
        return bool(kept == digest)


def default_path() -> str:
    """``$XDG_STATE_HOME/referee/spent-steps.sqlite3`` (``~/.local/state`` when unset):
    kept across restarts, shared by every instance of this user on the machine."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"),
                                                            ".local", "state")
    return os.path.join(base, "referee", "spent-steps.sqlite3")


def configure(app: Flask, setting: Callable[..., Any], flag: Callable[[Any, str], bool]) -> None:
    """Read the register's settings once, at app creation (``service.app``).

    The register is made only where it can be needed — sealing keys, or state keys
    with ``SPEND_SIGNED`` — so a server without keys opens no file.
    """
    ext = app.extensions["referee"]
    spend_signed = flag(setting(app, "SPEND_SIGNED", "0"), "SPEND_SIGNED")
    days = float(setting(app, "STEP_REGISTER_DAYS", DEFAULT_DAYS))
    if not days > 0:
        raise ValueError(f"REFEREE_STEP_REGISTER_DAYS={days!r}: a number of days above 0")
    ext["spend_signed"] = spend_signed
    ext["step_register"] = None
    if not (ext.get("sealing_keys") or (spend_signed and ext.get("state_keys"))):
        return
    ttl = days * 86400
    url = app.config.get("REDIS_URL")
    register: StepRegister
    if url:
        register = RedisSteps(url, ext["redis_timeout"], ttl, ext.get("redis_breaker"))
    else:
        register = SQLiteSteps(str(setting(app, "STEP_REGISTER", "") or default_path()), ttl)
    ext["step_register"] = register


def registered(received: object) -> bool:
    """Is ``received`` — a state a request sent, already ``signing.accept``-ed — one whose
    steps the register keeps?  Sealed (under this server's keys), or signed with
    ``REFEREE_SPEND_SIGNED``; and carrying its chain."""
    if not isinstance(received, dict) or not isinstance(received.get(transcripts.FIELD), dict):
        return False
    ext = current_app.extensions["referee"]
    if sealing.FIELD in received:
        return bool(ext.get("sealing_keys"))
    return bool(ext.get("spend_signed")) and signing.FIELD in received \
        and bool(ext.get("state_keys"))


def answer_digest(state: Mapping[str, object]) -> bytes:
    """What the register keeps of the state an action led to: 128 bits of the SHA-256 of
    its sorted-key encoding (key order and the key that seals it make no difference: a
    retry re-sealed under a rotated key is still the same answer)."""
    return hashlib.sha256(orjson.dumps(state, option=orjson.OPT_SORT_KEYS)).digest()[:16]


def spend(received: object, answered: Mapping[str, object]) -> None:
    """Spend the step of ``received`` (the state a request applied to, as sent) with
    ``answered`` (the engine's state it led to), or refuse: 409 ``step-spent`` when
    another answer spent the step, 503 ``step-register-unavailable`` when the
    register does not answer.  Nothing for a state the register does not keep."""
    if not registered(received):
        return
    register: StepRegister | None = current_app.extensions["referee"].get("step_register")
    chain = received[transcripts.FIELD]  # type: ignore[index]  # registered: a dict with a chain
    game, step = str(chain.get("game")), chain.get("step")
    if register is None or not isinstance(step, int):
        return  # no keys of that kind: accept() refused the state before
    try:
        fresh = register.spend(game, step, answer_digest(answered))
    except RegisterDown:
        raise ProblemError.of("step-register-unavailable", N_(
            "the register of played steps is not answering, so this sealed game's step "
            "cannot be played now (it was not played); retry in {seconds} s",
            seconds=RETRY_AFTER), headers={"Retry-After": str(RETRY_AFTER)}) from None
    if not fresh:
        raise ProblemError.of("step-spent", N_(
            "step {step} of game {game} was already played with another action: a step of "
            "a sealed game answers only the first action applied to it; go on from the "
            "state that action returned", step=step, game=game),
            game=game, step=step)
