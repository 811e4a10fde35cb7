"""Signed states: a host can relay states through clients it does not trust.

With keys configured (``REFEREE_STATE_KEYS`` = ``key1,key2,...``; app config
``STATE_KEYS``), every state the service returns from a setup it made (``new``,
``replay``) or from a state that was itself signed (``apply``,
``apply-chance``) carries a top-level ``signature``::

    "signature": "hmac-sha256:<64 hex digits>"

the HMAC-SHA256, under the *first* key, of the state's canonical encoding:
orjson with sorted keys, the ``signature`` member left out.  Every key of
the list verifies, so keys rotate: put the new key first, keep the old one
after it until the states it signed are gone.

The HTTP layer strips the signature before the engine sees the state (the
engines know nothing of it).  A state arriving with a signature is always
verified: an altered one is refused (403 ``bad-signature``).  A state with no
signature is accepted unless signatures are required — server-wide with
``REFEREE_REQUIRE_SIGNED=1`` (config ``REQUIRE_SIGNED``), or per request with
the header ``Referee-Require-Signed: true`` — then it is refused (400
``unsigned-state``).  Without keys nothing is signed, a signature sent is
ignored (stripped), and requiring one is a 400 (the server cannot verify).
The header is ``true`` or ``false`` (any ASCII case, spaces around ignored),
sent once; any other value — ``yes``, ``1``, ``true, true``, the header twice —
is a 400 ``malformed-request`` naming it (``requested``): a request that asks
for something unclear is not served as if it had asked for nothing.
``false`` never lowers the server's own requirement.

Keys roll over several instances with verify-only keys
(``REFEREE_STATE_KEYS_VERIFY_ONLY``, ``REFEREE_SEALING_KEYS_VERIFY_ONLY``):
they verify (open) and never sign (seal); every instance learns the new key
that way before any signs with it (``docs/operations.md``).

A signature (or a seal) certifies that the state descends, through steps this
service adjudicated, from a setup it made: the answer to an unsigned state is
unsigned (``protect``), so an edited state cannot be laundered (``docs/trust.md``).

``accept`` and ``protect`` are the one way states come in and go out of every
route, so the other protections live here too: with sealing keys
(``REFEREE_SEALING_KEYS``, ``service.sealing``) states go out sealed instead
of signed and come in opened (a sealed state counts as signed); with signing
or sealing keys each state goes out with a ``chain`` (``service.transcripts``)
that its signature or seal covers and the engine never sees.

>>> keys = [b"new-key", b"old-key"]
>>> signed_state = signed({"game": "raiders", "turn": 3}, keys)
>>> signed_state["signature"][:12]
'hmac-sha256:'
>>> verified(signed_state, keys, required=True)
{'game': 'raiders', 'turn': 3}
>>> verified(signed({"turn": 3}, [b"old-key"]), keys, required=True)   # rotation
{'turn': 3}
>>> try:
...     verified({**signed_state, "turn": 4}, keys, required=False)
... except ProblemError as exc:
...     print(exc.status, exc.slug)
403 bad-signature
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Sequence
from typing import Any, cast

import orjson
from flask import Flask, current_app, request

from service import sealing, transcripts, valid_states
from service import seats as seats_mod
from service.games import registry
from service.games.base import AnyGame, GameState
from service.games.errors import MalformedInput
from service.games.messages import N_
from service.problems import ProblemError

FIELD = "signature"
PREFIX = "hmac-sha256:"
HEADER = "Referee-Require-Signed"
#: what a boolean setting (``REFEREE_REQUIRE_SIGNED``…) may be; anything else stops the start
TRUE = {"1", "true", "yes", "on"}
FALSE = {"0", "false", "no", "off"}
#: what the header may be (after trimming spaces and tabs, ASCII case-insensitive)
HEADER_VALUES = {"true": True, "false": False}
HEADER_FIELD = "headers." + HEADER


def parse_keys(text: str | Sequence[str] | None) -> list[bytes]:
    """``"k1,k2"`` (or a list) → the keys as bytes, blanks dropped.

    >>> parse_keys(" new , old,,")
    [b'new', b'old']
    """
    if not text:
        return []
    items = text.split(",") if isinstance(text, str) else list(text)
    return [k.strip().encode() for k in items if k and k.strip()]


def canonical(state: dict[str, Any]) -> bytes:
    """The bytes signed: orjson with sorted keys, the ``signature`` member left out."""
    if FIELD in state:
        state = {k: v for k, v in state.items() if k != FIELD}
    return orjson.dumps(state, option=orjson.OPT_SORT_KEYS)


def digest(state: dict[str, Any], key: bytes, encoded: bytes | None = None) -> str:
    """The signature of ``state`` under ``key``."""
    if encoded is None:
        encoded = canonical(state)
    return PREFIX + hmac.new(key, encoded, hashlib.sha256).hexdigest()


def signed(state: dict[str, Any], keys: Sequence[bytes]) -> dict[str, Any]:
    """``state`` with its signature under the first key (unchanged without keys)."""
    if not keys:
        return state
    return {**state, FIELD: digest(state, keys[0])}


NO_KEYS = N_("signed states are required but this server has no state keys "
             "(REFEREE_STATE_KEYS), so it cannot verify any")


def verified(state: dict[str, Any], keys: Sequence[bytes], required: bool) -> dict[str, Any]:
    """The state without its signature, once verified; a problem otherwise."""
    return verified_mac(state, keys, required)[0]


def verified_mac(state: dict[str, Any], keys: Sequence[bytes],
                 required: bool) -> tuple[dict[str, Any], bytes | None]:
    """``verified``, and the MAC its signature matched (``None``: it had none)."""
    if not isinstance(state, dict):
        return state, None  # the envelope or the engine names the error
    signature = state.get(FIELD)
    if signature is None:
        if required:
            raise ProblemError(400, "unsigned-state", "Unsigned state",
                               N_("this request requires a signed state and the state has no "
                                  "`signature`") if keys else NO_KEYS)
        return state, None
    bare = {k: v for k, v in state.items() if k != FIELD}
    if not keys:
        if required:
            raise ProblemError(400, "unsigned-state", "Unsigned state", NO_KEYS)
        return bare, None
    if not isinstance(signature, str) or not signature.startswith(PREFIX):
        raise ProblemError(403, "bad-signature", "Bad signature",
                           N_("`signature` must be a string \"{prefix}<hex>\" as the service "
                              "returned it", prefix=PREFIX))
    encoded = canonical(bare)
    for key in keys:
        mac = digest(bare, key, encoded)
        if hmac.compare_digest(mac, signature):
            return bare, bytes.fromhex(mac[len(PREFIX):])
    raise ProblemError(403, "bad-signature", "Bad signature",
                       N_("the state's signature does not match its content: it was "
                          "altered, or signed with a key this server does not have"))


# ------------------------------------------------------------- in a request
#: ``HEADER`` as the WSGI environ names it (read there: no header-object lookup per request)
ENVIRON_KEY = "HTTP_" + HEADER.upper().replace("-", "_")


def configure(app: Flask, setting: Callable[..., str | None],
              flag: Callable[[str | None, str], bool]) -> None:
    """Read the keys and switches once, at app creation (``service.middleware``).

    The verify-only keys of each kind go after its keys, so the first key still
    signs (seals) and every key verifies (opens); verify-only keys without a key
    that signs (seals) stop the start (``ValueError``), as a switch that is
    neither on nor off does (``flag``).
    """
    ext = app.extensions["referee"]
    ext["state_keys"] = with_verify_only(
        parse_keys(setting(app, "STATE_KEYS")),
        parse_keys(setting(app, "STATE_KEYS_VERIFY_ONLY")), "STATE_KEYS")
    ext["sealing_keys"] = with_verify_only(
        sealing.parse_keys(setting(app, "SEALING_KEYS")),
        sealing.parse_keys(setting(app, "SEALING_KEYS_VERIFY_ONLY")), "SEALING_KEYS")
    app.config["REQUIRE_SIGNED"] = flag(setting(app, "REQUIRE_SIGNED", "0"), "REQUIRE_SIGNED")
    app.config["SERVER_SEEDS"] = flag(setting(app, "SERVER_SEEDS", "0"), "SERVER_SEEDS")


def with_verify_only(keys: list[Any], verify_only: list[Any], name: str) -> list[Any]:
    """``keys`` then the ``verify_only`` keys not among them (the first key still signs).

    >>> with_verify_only([b"k1"], [b"k2", b"k1"], "STATE_KEYS")
    [b'k1', b'k2']
    >>> try:
    ...     with_verify_only([], [b"k2"], "STATE_KEYS")
    ... except ValueError as exc:
    ...     print(str(exc).split(":")[0])
    REFEREE_STATE_KEYS_VERIFY_ONLY is set but REFEREE_STATE_KEYS is not
    """
    if verify_only and not keys:
        raise ValueError(f"REFEREE_{name}_VERIFY_ONLY is set but REFEREE_{name} is not: "
                         "verify-only keys need a key that signs (docs/operations.md, "
                         "Key rotation)")
    return keys + [k for k in verify_only if k not in keys]


def app_keys() -> list[bytes]:
    keys: list[bytes] = current_app.extensions["referee"].get("state_keys", [])
    return keys


def sealing_keys() -> list[sealing.SealingKey]:
    keys: list[sealing.SealingKey] = current_app.extensions["referee"].get("sealing_keys", [])
    return keys


def requested(value: str | None) -> bool | None:
    """The header's value as the request sent it (``None``: not sent); a 400 naming the
    header unless it is exactly ``true`` or ``false`` (ASCII case-insensitive, spaces
    and tabs around ignored) — a repeated header arrives joined by commas, so it is
    refused too.

    >>> requested(None), requested(" TRUE "), requested("false")
    (None, True, False)
    >>> for value in ("yes", "1", "", "true, true", "false,true"):
    ...     try:
    ...         requested(value)
    ...     except MalformedInput as exc:
    ...         print(list(exc.errors))
    ['headers.Referee-Require-Signed']
    ['headers.Referee-Require-Signed']
    ['headers.Referee-Require-Signed']
    ['headers.Referee-Require-Signed']
    ['headers.Referee-Require-Signed']
    """
    if value is None:
        return None
    found = HEADER_VALUES.get(value.strip(" \t").lower()) if value.isascii() else None
    if found is None:
        shown = value if len(value) <= 40 else value[:40] + "…"
        raise MalformedInput({HEADER_FIELD: [N_("must be `true` or `false`, sent once; not "
                                                "{value!r}", value=shown)]})
    return found


def required_now() -> bool:
    """Signatures required: server-wide, or by this request's header (``requested``:
    a header that is neither ``true`` nor ``false`` is a 400, even when the server
    requires signatures anyway; ``false`` never lowers the server's requirement)."""
    asked = requested(request.environ.get(ENVIRON_KEY))
    return bool(current_app.config.get("REQUIRE_SIGNED")) or asked is True


NO_SEALING_KEYS = N_("this state is sealed but this server has no sealing keys "
                     "(REFEREE_SEALING_KEYS), so it cannot open it")


def accept(state: Any, required: bool | None = None) -> Any:
    """An incoming state as the engine takes it: opened if sealed, verified if
    signed, without its ``signature``, ``sealed`` and ``chain`` members.

    ``required`` (default: ``required_now()``): refuse a state neither signed
    nor sealed.  A sealed state counts as signed.
    """
    if not isinstance(state, dict):
        return state  # the envelope or the engine names the error
    plain = FIELD not in state and sealing.FIELD not in state and transcripts.FIELD not in state
    if required is None:
        if plain and ENVIRON_KEY not in request.environ \
                and not current_app.config.get("REQUIRE_SIGNED"):
            return state  # the common request: nothing to open, drop or require
        required = required_now()
    if not required and plain:
        return state  # a plain state, and none other is required: nothing to open or drop
    if sealing.FIELD in state:
        keys = sealing_keys()
        if not keys:
            raise ProblemError(403, "bad-seal", "Bad seal", NO_SEALING_KEYS)
        inner = sealing.open_sealed(state, keys)
        inner.pop(transcripts.FIELD, None)
        return inner
    if required and FIELD not in state and sealing_keys() and not app_keys():
        raise ProblemError(400, "unsigned-state", "Unsigned state",
                           N_("this request requires a sealed state and the state has no "
                              "`sealed`"))
    bare, mac = verified_mac(state, app_keys(), required)
    if transcripts.FIELD in bare:
        bare = {k: v for k, v in bare.items() if k != transcripts.FIELD}
    if mac is not None:  # its canonical encoding is hashed already: valid_states takes the MAC
        valid_states.KNOWN.vouch(bare, valid_states.SIGNED + mac[:valid_states.DIGEST_BYTES])
    return bare


def authenticated(received: dict[str, Any]) -> bool:
    """Was ``received`` — a state this request already passed to ``accept`` — signed or
    sealed under this server's keys?  (``accept`` refused it otherwise.)"""
    return ((sealing.FIELD in received and bool(sealing_keys()))
            or (FIELD in received and bool(app_keys())))


def protect(state: dict[str, Any], after: dict[str, Any] | None = None, steps: int = 1,
         chain: dict[str, Any] | None = None) -> dict[str, Any]:
    """An outgoing state: sealed with sealing keys, else signed with state keys,
    else as it is — but only a state that descends from one this service made.

    A signature or a seal certifies that the state descends, through steps this
    service adjudicated, from a setup it created (``docs/trust.md``).  So an
    answer is signed or sealed only when ``chain`` is given (``new``,
    ``replay``: the service made the setup) or when ``after`` — the state this
    request received and ``accept``-ed — was itself signed or sealed; then it
    carries the chain following ``after``'s by ``steps`` actions.  An answer to
    a plain state goes out plain: an edited state cannot be laundered into a
    signed one.
    """
    ext = current_app.extensions["referee"]  # one lookup: this runs on every answer
    seal_with, sign_with = ext.get("sealing_keys"), ext.get("state_keys")
    chained = _chained(state, after, steps, chain) if seal_with or sign_with else None
    if chained is None:
        return state
    if seal_with:
        return sealing.seal(chained, public_part(chained), seal_with)
    return signed(chained, sign_with)


def _chained(state: dict[str, Any], after: dict[str, Any] | None, steps: int,
             chain: dict[str, Any] | None) -> dict[str, Any] | None:
    """``state`` with the chain it goes out with, or ``None`` when it goes out plain
    (``protect``: nothing certifies where it comes from)."""
    if chain is None:
        if after is None or not authenticated(after):
            return None
        chain = transcripts.follow(after, steps)
    return {**state, transcripts.FIELD: chain} if chain is not None else state


def seat_tokens(chain: dict[str, Any], seats: int) -> list[str] | None:
    """The seat tokens of a sealed game that ``new`` or ``replay`` opens under ``chain``
    (``service.seats``); ``None`` on a server that does not seal."""
    keys = sealing_keys()
    return seats_mod.issue(keys, chain["game"], seats) if keys else None


def caller(received: Any) -> seats_mod.Caller:
    """Who this request speaks for about ``received`` — a state it sent, already
    ``accept``-ed: on a sealed state, the seats its ``Referee-Seat-Token`` header
    proves (``service.seats``); on any other state the host (it hides nothing from
    its holder)."""
    if not isinstance(received, dict) or sealing.FIELD not in received:
        return seats_mod.HOST
    chain = received.get(transcripts.FIELD)
    game_id = chain.get("game") if isinstance(chain, dict) else None
    players = received.get("players")
    return seats_mod.caller(request.environ.get(seats_mod.ENVIRON_KEY), sealing_keys(),
                            game_id if isinstance(game_id, str) else "",
                            len(players) if isinstance(players, list) else 0)


def returned(game: AnyGame, state: GameState, after: dict[str, Any] | None = None, steps: int = 1,
             chain: dict[str, Any] | None = None) -> Any:
    """A state the engine returned, as an answer carries it: remembered as valid
    (``valid_states``: the client's next request sends it back), then ``protect``-ed.

    Each goes out encoded once: a plain state as the encoding the digest was taken of,
    a signed one as its canonical encoding with the signature after it (its MAC is what
    ``valid_states`` remembers: the next request's ``accept`` computes the same); both as
    an ``orjson.Fragment``, which the answer does not serialise again."""
    ext = current_app.extensions["referee"]
    seal_with, sign_with = ext.get("sealing_keys"), ext.get("state_keys")
    plain = cast(dict[str, Any], state)  # the JSON object it is: protect adds its own fields
    chained = _chained(plain, after, steps, chain) if seal_with or sign_with else None
    if chained is None:
        return orjson.Fragment(valid_states.KNOWN.remember(game, state))
    if seal_with:
        valid_states.KNOWN.remember(game, state)
        return sealing.seal(chained, public_part(chained), seal_with)
    encoded = canonical(chained)
    mac = hmac.new(sign_with[0], encoded, hashlib.sha256)
    valid_states.KNOWN.remember_digest(
        game, valid_states.SIGNED + mac.digest()[:valid_states.DIGEST_BYTES])
    # ``canonical`` of a dict with a chain: ``{…}``, never ``{}``; the signature goes last
    return orjson.Fragment(b"%s,\"%s\":\"%s%s\"}" % (encoded[:-1], FIELD.encode(),
                                                   PREFIX.encode(), mac.hexdigest().encode()))


def public_part(state: dict[str, Any]) -> dict[str, Any]:
    """What a sealed state shows: the spectator's view (without its ``view``
    marker; the chance seed and counter are gone), and the ``chain``."""
    public = registry.get_game(state["game"]).view(state, None)
    public.pop("view", None)
    if transcripts.FIELD in state:
        public[transcripts.FIELD] = state[transcripts.FIELD]
    return public
