"""Sealed states: the hidden parts of a state travel encrypted.

With sealing keys configured (``REFEREE_SEALING_KEYS`` = ``key1,key2,...``;
app config ``SEALING_KEYS``), every state the service returns is *sealed*:
its public parts — what a spectator may see, ``view(state, None)`` — stay
readable, and the whole state travels as AES-256-GCM ciphertext beside them::

    {...the spectator's view..., "sealed": "a256gcm:<key id>:<base64url nonce+ciphertext>"}

The cipher is ``cryptography``'s AES-GCM (authenticated: a flipped byte in
the ciphertext, or any change to the public parts, which are its associated
data, fails to open).  A sealed state arriving is opened transparently; one
that does not open is refused (403 ``bad-seal``), as an altered signature is.
Keys rotate as signing keys do: the first key seals, every key opens (the key
id, a hash of the key, says which); ``REFEREE_SEALING_KEYS_VERIFY_ONLY`` keys
open and never seal (a rolling rotation, ``service.signing.configure``).  A key is any string; the AES key is
derived from it with HKDF-SHA256.

The nonce is synthetic (``synthetic_nonce``): a PRF of the state and its
public parts, so sealing is deterministic — the same state seals to the same
token, and a retried request answers the same sealed state.

So a host may keep a whole game in untrusted clients, or let players pass the
state round the table, and no one reads a hidden card, the deck order or the
random seed — they are only in the ciphertext.

>>> keys = parse_keys("new-key,old-key")
>>> state = {"game": "g", "turn": 3, "hand": ["secret"]}
>>> public = {"game": "g", "turn": 3, "hand_count": 1}
>>> sealed = seal(state, public, keys)
>>> sorted(sealed), sealed["sealed"].startswith("a256gcm:")
(['game', 'hand_count', 'sealed', 'turn'], True)
>>> seal(state, public, keys) == sealed   # deterministic (synthetic nonce)
True
>>> "secret" in str(sealed)
False
>>> open_sealed(sealed, keys) == state
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
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from service.games.messages import N_
from service.problems import ProblemError

FIELD = "sealed"
SCHEME = "a256gcm"
NONCE_BYTES = 12
_SALT = b"referee sealed states"
_INFO = b"referee/a256gcm/v1"
_NONCE_INFO = b"referee/a256gcm/v1/nonce"
_SEAT_INFO = b"referee/seat-token/v1"


@dataclass(frozen=True)
class SealingKey:
    """One derived AES-256 key, the key of its synthetic nonces, the key of its seat
    tokens (``service.seats``), and its public id (16 hex digits)."""

    id: str
    aead: AESGCM
    nonce_key: bytes
    seat_key: bytes


def derive(secret: bytes) -> SealingKey:
    """The AES key of a configured secret (HKDF-SHA256), and its id.

    >>> derive(b"k").id == derive(b"k").id != derive(b"other").id
    True
    """
    raw = HKDF(algorithm=hashes.SHA256(), length=32, salt=_SALT, info=_INFO).derive(secret)
    nonce_key, seat_key = (HKDF(algorithm=hashes.SHA256(), length=32, salt=_SALT,
                                info=info).derive(secret) for info in (_NONCE_INFO, _SEAT_INFO))
    return SealingKey(hashlib.sha256(b"key id " + raw).hexdigest()[:16], AESGCM(raw), nonce_key,
                      seat_key)


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


def seal(state: dict[str, Any], public: dict[str, Any], keys: Sequence[SealingKey]) -> dict[str, Any]:
    """``public`` plus the whole ``state`` sealed under the first key."""
    key = keys[0]
    plain, associated = orjson.dumps(state), _associated(public)
    nonce = synthetic_nonce(key, plain, associated)
    body = key.aead.encrypt(nonce, plain, associated)
    token = base64.urlsafe_b64encode(nonce + body).rstrip(b"=").decode()
    return {**public, FIELD: f"{SCHEME}:{key.id}:{token}"}


def synthetic_nonce(key: SealingKey, plain: bytes, associated: bytes) -> bytes:
    """The nonce of a message: HMAC-SHA256 of it under the nonce key, cut to 96 bits.

    Deterministic, so the same state sealed twice is the same sealed state
    (a retried ``apply`` is no fork of its chain, ``service.transcripts``);
    a PRF of the message, so two different messages share a nonce no more
    often than random nonces would (the synthetic-IV construction).  What
    it shows: whether two sealed states are the same state, nothing more.
    """
    mac = hmac.new(key.nonce_key, len(associated).to_bytes(8, "big"), hashlib.sha256)
    mac.update(associated)
    mac.update(plain)
    return mac.digest()[:NONCE_BYTES]


BAD_SEAL = N_("the sealed state does not open: it was altered, or sealed with a key this "
              "server does not have")


def open_sealed(sealed: dict[str, Any], keys: Sequence[SealingKey]) -> dict[str, Any]:
    """The whole state inside a sealed one; 403 ``bad-seal`` if it does not open."""
    token = sealed.get(FIELD)
    if not isinstance(token, str) or token.count(":") != 2 or not token.startswith(SCHEME + ":"):
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
    try:
        plain = key.aead.decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:], _associated(public))
    except InvalidTag:
        raise ProblemError(403, "bad-seal", "Bad seal", BAD_SEAL) from None
    state = orjson.loads(plain)
    if not isinstance(state, dict):  # only the service seals, so never; but never a 500
        raise ProblemError(403, "bad-seal", "Bad seal", BAD_SEAL)
    return state
