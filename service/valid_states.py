"""States this process knows to be valid, so a state is checked once, not per request.

Every state a request carries goes through ``Game.validate_state`` (schema,
card set, options, invariants, pending): 30–80 µs of a mid-game request, the
largest share after Flask itself.  A bot sends back the state it was just
given, and asks ``legal-actions`` and then ``apply`` on the same state, so
most states arrive more than once.  ``ValidStates`` remembers the digest of
each state that passed validation, and of each state the engine itself
returned (valid by construction: the contract tests validate every state a
game produces), and skips the check when the same bytes come again.

The digest is SHA-256 (its first 128 bits; hardware-accelerated, twice as fast as
BLAKE2b here) of the state's orjson encoding *after*
validation: validation may normalise a state (``1.0`` → ``1``), so an input
that needed it never matches, and is checked each time.  Keys in another
order are another digest (a miss, checked again).  A digest is tied to the
card data loaded (``card_db.generation``) and to the game.  The memory is
bounded (``SIZE`` digests per process, oldest out first) and per process:
under gunicorn a state returned by one worker is checked once by the other.

A signed state is not encoded again for its digest: ``signing.accept`` has just
encoded it canonically and checked its MAC, and hands that MAC over (``vouch``) for
the state object it returns; ``signing.returned`` remembers the MAC of each state it
signs (``remember_digest``).  The MAC covers the chain too, so it names one state of
one line of play: the same bytes, sent again, are the same MAC (``SIGNED`` keeps the
two kinds of digest apart).

>>> from service.games.registry import get_game
>>> game = get_game("raiders")
>>> state, _ = game.new_game(2, seed=1)
>>> known = ValidStates(size=2)
>>> known.validate(game, state)    # checked, then remembered
>>> known.hits, known.misses
(0, 1)
>>> known.validate(game, dict(state))  # the same bytes: not checked again
>>> known.hits, known.misses
(1, 1)
>>> known.validate(game, {**state, "turn": -1})
Traceback (most recent call last):
...
service.games.errors.InvalidState: state.turn: must be at least 0
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Mapping

import orjson

import card_db
from service.games.base import AnyGame, StateIn

#: digests remembered per process (~50 bytes each with the dict's overhead)
SIZE = 8192
#: bytes of a digest kept (128 bits)
DIGEST_BYTES = 16
#: the first byte of a signed state's digest (its MAC), apart from a plain one's
SIGNED = b"s"

Key = tuple[int, str, bytes]


def digest(state: Mapping[str, object], encoded: bytes | None = None) -> bytes:
    """The first 128 bits of the SHA-256 of the state's orjson encoding (key order
    counts; ``encoded``: that encoding, when the caller has it)."""
    found = hashlib.sha256(orjson.dumps(state) if encoded is None else encoded).digest()
    return found[:DIGEST_BYTES]


class ValidStates:
    """A bounded set of digests of states known to pass ``validate_state``."""

    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._known: dict[Key, None] = {}
        self._lock = threading.Lock()
        self._vouched = threading.local()
        self.hits = self.misses = 0

    def vouch(self, state: StateIn, signed_digest: bytes) -> None:
        """The digest of ``state`` — the object this thread's request validates next — as
        its caller has it (``SIGNED`` + its MAC: ``signing.accept``)."""
        self._vouched.pair = (state, signed_digest)

    def validate(self, game: AnyGame, state: object) -> None:
        """``game.validate_state(state)``, unless this state is known valid."""
        key = None
        pair = getattr(self._vouched, "pair", None)
        if pair is not None:
            self._vouched.pair = None
            if pair[0] is state:
                key = (card_db.generation(), game.id, pair[1])
        if key is None and isinstance(state, dict):
            try:
                key = (card_db.generation(), game.id, digest(state))
            except (TypeError, orjson.JSONEncodeError):  # not JSON data: let validation say so
                key = None
        if key is not None and key in self._known:
            self.hits += 1
            return
        game.validate_state(state)
        self.misses += 1
        if key is not None and key[2][:1] == SIGNED:
            self._add(key)  # the signed bytes, sent again, are the same MAC
        else:
            self.remember(game, state)  # type: ignore[arg-type]  # validated: a state dict

    def remember(self, game: AnyGame, state: StateIn) -> bytes:
        """Remember ``state`` as valid: it passed validation, or ``game`` produced it.
        Its orjson encoding, which the digest is taken of (an answer can reuse it)."""
        encoded = orjson.dumps(state)
        self._add((card_db.generation(), game.id, digest(state, encoded)))
        return encoded

    def remember_digest(self, game: AnyGame, signed_digest: bytes) -> None:
        """Remember a state ``game`` produced by its digest (``SIGNED`` + its MAC)."""
        self._add((card_db.generation(), game.id, signed_digest))

    def _add(self, key: Key) -> None:
        with self._lock:
            self._known[key] = None
            while len(self._known) > self.size:
                del self._known[next(iter(self._known))]


#: the process's one memory (gunicorn forks workers before any request: each has its own)
KNOWN = ValidStates()
