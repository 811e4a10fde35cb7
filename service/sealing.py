"""Sealed states: the hidden parts of a state travel encrypted, their size padded away.

With sealing keys configured (``REFEREE_SEALING_KEYS`` = ``key1,key2,...``;
app config ``SEALING_KEYS``), every state the service returns is *sealed*:
its public parts — what a spectator may see, ``view(state, None)`` — stay
readable, and the whole state travels as AES-256-GCM-SIV ciphertext beside them::

    {...the spectator's view..., "sealed": "a256gcmsiv:<key id>:<base64url nonce+ciphertext>"}

The cipher is ``cryptography``'s AES-GCM-SIV (RFC 8452; authenticated: a flipped
byte in the ciphertext, or any change to the public parts, which are its associated
data, fails to open).  A sealed state arriving is opened transparently; one
that does not open is refused (403 ``bad-seal``), as an altered signature is.
Keys rotate as signing keys do: the first key seals, every key opens (the key
id, a hash of the key, says which); ``REFEREE_SEALING_KEYS_VERIFY_ONLY`` keys
open and never seal (a rolling rotation, ``service.signing.configure``).  A key is any string; the AES key is
derived from it with HKDF-SHA256.

**The length hides the secrets** (issue 34): the plaintext is padded
(``padded_size``) to a size that depends on the public parts alone — twice their
size and 512 bytes, rounded up to 1 KiB — so two states with the same public
parts seal to the same length, whatever their hands, orders or deck lists.  Only
a state larger than that bound (none in random games of the three games: the
tests) shows more: its own size rounded up to 1 KiB.

Sealing is deterministic — the same state seals to the same token, and a
retried request answers the same sealed state: the nonce is synthetic
(``synthetic_nonce``), a PRF of the padded state and its public parts.

Seals of the first scheme, ``a256gcm`` (AES-256-GCM, unpadded), still open with
the configured keys; nothing is sealed with it any more, so a game sealed before
goes on in the new scheme from its next step.

So a host may keep a whole game in untrusted clients, or let players pass the
state round the table, and no one reads a hidden card, the deck order or the
random seed — they are only in the ciphertext, and its length does not tell them.

>>> keys = parse_keys("new-key,old-key")
>>> state = {"game": "g", "turn": 3, "hand": ["secret"]}
>>> public = {"game": "g", "turn": 3, "hand_count": 1}
>>> sealed = seal(state, public, keys)
>>> sorted(sealed), sealed["sealed"].startswith("a256gcmsiv:")
(['game', 'hand_count', 'sealed', 'turn'], True)
>>> seal(state, public, keys) == sealed   # deterministic (synthetic nonce)
True
>>> "secret" in str(sealed)
False
>>> open_sealed(sealed, keys) == state
True
>>> longer = seal({**state, "hand": ["a much longer secret card id"]}, public, keys)
>>> len(longer["sealed"]) == len(sealed["sealed"])   # the same public parts: the same length
True
>>> try:
...     open_sealed({**sealed, "turn": 4}, keys)
... except ProblemError as exc:
...     print(exc.status, exc.slug)
403 bad-seal
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from cryptography.exceptions import InvalidTag, UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM, AESGCMSIV
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from service.games.messages import N_
from service.problems import ProblemError

FIELD = "sealed"
#: the scheme every state is sealed with: AES-256-GCM-SIV of the padded state
SCHEME = "a256gcmsiv"
#: the first scheme (AES-256-GCM, unpadded: its length showed the state's size), open only
LEGACY_SCHEME = "a256gcm"
NONCE_BYTES = 12
TAG_BYTES = 16
#: the padded plaintext is a multiple of this, and at least ``PUBLIC_FACTOR`` times the
#: public parts plus ``PUBLIC_MARGIN`` (``padded_size``)
BUCKET = 1024
PUBLIC_FACTOR, PUBLIC_MARGIN = 2, 512
_PAD_MARK = b"\x80"  # then zeros: unpads unambiguously (ISO/IEC 7816-4), orjson never ends in 0
_SALT = b"referee sealed states"
_INFO = b"referee/a256gcm/v1"
_NONCE_INFO = b"referee/a256gcm/v1/nonce"
_SIV_INFO = b"referee/a256gcmsiv/v1"
_SIV_NONCE_INFO = b"referee/a256gcmsiv/v1/nonce"
_SEAT_INFO = b"referee/seat-token/v1"


@dataclass(frozen=True)
class SealingKey:
    """One configured secret's derived keys: the AES-256-GCM-SIV key that seals and
    the key of its synthetic nonces; the AES-256-GCM key and nonce key of the first
    scheme (they open old seals); the key of its seat tokens (``service.seats``); and
    its public id (16 hex digits, the same for both schemes: seat tokens name it)."""

    id: str
    siv: AESGCMSIV
    siv_nonce_key: bytes
    aead: AESGCM
    nonce_key: bytes
    seat_key: bytes


def _hkdf(secret: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=_SALT, info=info).derive(secret)


def derive(secret: bytes) -> SealingKey:
    """The AES keys of a configured secret (HKDF-SHA256, one label each), and its id.

    The id and the seat key are derived as before the GCM-SIV scheme, so a running
    game keeps its seat tokens.

    >>> derive(b"k").id == derive(b"k").id != derive(b"other").id
    True
    """
    raw = _hkdf(secret, _INFO)
    try:
        siv = AESGCMSIV(_hkdf(secret, _SIV_INFO))
    except UnsupportedAlgorithm as exc:  # a cryptography built against an OpenSSL < 3.2
        raise RuntimeError("sealed states need AES-GCM-SIV: cryptography's wheels have it "
                           "(OpenSSL >= 3.2); this build does not") from exc
    return SealingKey(hashlib.sha256(b"key id " + raw).hexdigest()[:16], siv,
                      _hkdf(secret, _SIV_NONCE_INFO), AESGCM(raw), _hkdf(secret, _NONCE_INFO),
                      _hkdf(secret, _SEAT_INFO))


def parse_keys(text: str | Sequence[str] | None) -> list[SealingKey]:
    """``"k1,k2"`` (or a list) → the derived keys, the sealing one first; blanks dropped.

    >>> [len(k.id) for k in parse_keys(" a , b,,")]
    [16, 16]
    """
    if not text:
        return []
    items = text.split(",") if isinstance(text, str) else list(text)
    return [derive(k.strip().encode()) for k in items if k and k.strip()]


def _associated(public: dict[str, Any]) -> bytes:
    """The public parts as the cipher binds them: sorted-key orjson."""
    return orjson.dumps(public, option=orjson.OPT_SORT_KEYS)


def padded_size(plain: int, public: int) -> int:
    """The size a plaintext of ``plain`` bytes is padded to, beside public parts of
    ``public`` bytes: a multiple of ``BUCKET``, at least ``PUBLIC_FACTOR`` × ``public``
    + ``PUBLIC_MARGIN``, and more than ``plain`` (the pad mark takes a byte).

    Why not only a multiple of 1 KiB: a secret that changes the size by a few bytes
    then shows whenever the state sits just under a multiple — and whoever calls
    ``new`` can put it there, with seat names of the right length.  Bounded by the
    public parts, which the cipher already shows, the size says nothing more unless
    the state outgrows the bound (a state is 0.8–2 × its public parts in random games
    of the three games; ``tests/trust/test_seal_length.py``).

    >>> padded_size(3420, 2350), padded_size(3480, 2350)   # Tremble orders of 0 and 2 ships
    (6144, 6144)
    >>> padded_size(1000, 100), padded_size(1023, 100), padded_size(1024, 100)
    (1024, 1024, 2048)
    """
    floor = max(plain + len(_PAD_MARK), PUBLIC_FACTOR * public + PUBLIC_MARGIN)
    return -(-floor // BUCKET) * BUCKET


def _pad(plain: bytes, public: int) -> bytes:
    """``plain``, the pad mark, then zeros to ``padded_size``.

    >>> _unpad(_pad(b'{"a":1}', 10)) == b'{"a":1}' and len(_pad(b'{"a":1}', 10)) == 1024
    True
    """
    return plain + _PAD_MARK + bytes(padded_size(len(plain), public) - len(plain) - 1)


def _unpad(padded: bytes) -> bytes | None:
    """The plaintext of a padded one; ``None`` if it has no pad mark."""
    body = padded.rstrip(b"\x00")
    return body[:-1] if body.endswith(_PAD_MARK) else None


def seal(state: dict[str, Any], public: dict[str, Any], keys: Sequence[SealingKey]) -> dict[str, Any]:
    """``public`` plus the whole ``state``, padded and sealed under the first key."""
    key = keys[0]
    associated = _associated(public)
    padded = _pad(orjson.dumps(state), len(associated))
    nonce = synthetic_nonce(key.siv_nonce_key, padded, associated)
    body = key.siv.encrypt(nonce, padded, associated)
    token = base64.urlsafe_b64encode(nonce + body).rstrip(b"=").decode()
    return {**public, FIELD: f"{SCHEME}:{key.id}:{token}"}


def synthetic_nonce(nonce_key: bytes, plain: bytes, associated: bytes) -> bytes:
    """The nonce of a message: HMAC-SHA256 of it under the nonce key, cut to 96 bits.

    Deterministic, so the same state sealed twice is the same sealed state
    (a retried ``apply`` is no fork of its chain, ``service.transcripts``).
    Why not a fixed nonce, which GCM-SIV would allow: GCM-SIV derives each
    message's keys from its nonce, so distinct nonces keep every message under
    keys of its own (the bounds of nonce-respecting use); a PRF of the message
    gives distinct messages distinct nonces as often as random ones would, and
    should two ever collide, GCM-SIV (nonce-misuse resistant) would show only
    whether they are equal.  What it shows: whether two sealed states are the
    same state, nothing more.
    """
    mac = hmac.new(nonce_key, len(associated).to_bytes(8, "big"), hashlib.sha256)
    mac.update(associated)
    mac.update(plain)
    return mac.digest()[:NONCE_BYTES]


BAD_SEAL = N_("the sealed state does not open: it was altered, or sealed with a key this "
              "server does not have")


def open_sealed(sealed: dict[str, Any], keys: Sequence[SealingKey]) -> dict[str, Any]:
    """The whole state inside a sealed one — of either scheme; 403 ``bad-seal`` if it
    does not open."""
    token = sealed.get(FIELD)
    scheme = token.split(":", 1)[0] if isinstance(token, str) else None
    if not isinstance(token, str) or token.count(":") != 2 \
            or scheme not in (SCHEME, LEGACY_SCHEME):
        raise ProblemError(403, "bad-seal", "Bad seal",
                           N_("`sealed` must be the string \"{scheme}:<key id>:<data>\" the "
                              "service returned", scheme=SCHEME))
    _, key_id, data = token.split(":")
    key = next((k for k in keys if k.id == key_id), None)
    try:
        raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    except ValueError:
        raw = b""
    public = {k: v for k, v in sealed.items() if k != FIELD}
    if key is None or len(raw) <= NONCE_BYTES:
        raise ProblemError(403, "bad-seal", "Bad seal", BAD_SEAL)
    nonce, body, associated = raw[:NONCE_BYTES], raw[NONCE_BYTES:], _associated(public)
    try:
        if scheme == SCHEME:
            plain = _unpad(key.siv.decrypt(nonce, body, associated))
        else:  # verify-only compatibility: a state sealed before GCM-SIV
            plain = key.aead.decrypt(nonce, body, associated)
    except InvalidTag:
        raise ProblemError(403, "bad-seal", "Bad seal", BAD_SEAL) from None
    state = orjson.loads(plain) if plain is not None else None
    if not isinstance(state, dict):  # only the service seals, so never; but never a 500
        raise ProblemError(403, "bad-seal", "Bad seal", BAD_SEAL)
    return state
