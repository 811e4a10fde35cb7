"""Seat tokens: on a sealed state, a seat's hidden information is its holder's alone.

A sealed state hides the whole game from whoever holds it (``service.sealing``),
but the service opens it for any caller.  So that a player who can call the
service cannot ask it for another seat's hand, ``new`` and ``replay`` of a
sealed game answer one **seat token** per seat (``seat_tokens``), and on a
sealed state whatever reveals a seat's hidden information needs that seat's
token in the header ``Referee-Seat-Token``::

    Referee-Seat-Token: seat:1:<key id>:<mac>

A token is an HMAC, under a key derived from the sealing key (HKDF, its own
``info``), of the game id (``chain.game``, drawn at ``new``) and the seat:
nothing is stored, every instance with the key can check it, and it opens
nothing but that seat of that game.  Sealing keys rotate as before (the token
names its key by id; every configured key checks, the first issues).

The caller of a request on a sealed state is one of three (``Caller``):

* a **spectator** (no token): it gets what ``view(state, None)`` shows;
* a **seat** (that seat's token): what that player may know — its view, its
  own legal actions, ``check`` and ``apply`` of its own actions, ``apply``'s
  events as it may see them;
* the **host** (every seat's token, comma-separated or in repeated headers):
  everything, as for a plain state.

A plain or signed state hides nothing from its holder, so its caller is the
host.  The refusal (403 ``seat-token-required``) is decided from the request
alone, before the state is read: it tells nothing about hidden cards.

>>> from service.sealing import parse_keys
>>> keys = parse_keys("k")
>>> tokens = issue(keys, "g" * 32, 2)
>>> [t.split(":")[:2] for t in tokens]
[['seat', '0'], ['seat', '1']]
>>> caller(", ".join(tokens[1:]), keys, "g" * 32, 2)
1
>>> caller(", ".join(tokens), keys, "g" * 32, 2)
'host'
>>> caller(None, keys, "g" * 32, 2) is None
True
>>> try:
...     caller(tokens[0], keys, "h" * 32, 2)   # another game's token
... except ProblemError as exc:
...     print(exc.status, exc.slug)
403 bad-seat-token
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Sequence
from typing import Literal

from service.games.messages import N_
from service.headers import checked
from service.problems import ProblemError
from service.sealing import SealingKey

HEADER = "Referee-Seat-Token"
#: ``HEADER`` as the WSGI environ names it (repeated headers arrive joined by ", ")
ENVIRON_KEY = "HTTP_" + HEADER.upper().replace("-", "_")
PREFIX = "seat"
HOST: Literal["host"] = "host"
#: what a request for every seat (every pending player, every hidden card) asks of ``require``
ALL = "all"
#: who is asking: ``None`` a spectator, a seat, or ``HOST`` (every seat)
Caller = int | Literal["host"] | None


def _mac(key: SealingKey, game_id: str, seat: int) -> str:
    digest = hmac.new(key.seat_key, f"{game_id}/{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode()


def issue(keys: Sequence[SealingKey], game_id: str, seats: int) -> list[str]:
    """One token per seat of game ``game_id``, under the first (sealing) key."""
    key = keys[0]
    return [f"{PREFIX}:{seat}:{key.id}:{_mac(key, game_id, seat)}" for seat in range(seats)]


def _seat_of(token: str, keys: Sequence[SealingKey], game_id: str, seats: int) -> int:
    parts = token.split(":")
    # ASCII digits only: the header arrives latin-1 decoded, and '²'.isdigit() but not int('²')
    if len(parts) == 4 and parts[0] == PREFIX and parts[1].isascii() and parts[1].isdigit():
        seat = int(parts[1])
        key = next((k for k in keys if k.id == parts[2]), None)
        if key is not None and seat < seats and hmac.compare_digest(
                _mac(key, game_id, seat).encode(), parts[3].encode()):
            return seat
    raise ProblemError(403, "bad-seat-token", "Bad seat token", N_(
        "the `{header}` header holds a token that is not one of this game's seat tokens (it "
        "was altered, belongs to another game, or was issued under a key this server does "
        "not have)", header=HEADER), errors={f"headers.{HEADER}": [N_("not a seat token of "
                                                                     "this game")]})


def caller(header: str | None, keys: Sequence[SealingKey], game_id: str, seats: int) -> Caller:
    """Who a request with ``header`` (the raw ``Referee-Seat-Token`` value) speaks for,
    on a sealed state of game ``game_id`` with ``seats`` seats.  A byte that is not
    visible ASCII in the header is a 400 naming it (``service.headers``), before any
    token is read: a seat ``²`` (latin-1 ``0xB2``) is refused there, not by ``int()``.

    >>> from service.sealing import parse_keys
    >>> try:
    ...     caller("seat:\xb2:k:x", parse_keys("k"), "g" * 32, 2)
    ... except Exception as exc:  # MalformedInput
    ...     print(list(exc.errors))
    ['headers.Referee-Seat-Token']
    >>> try:
    ...     _seat_of("seat:\xb2:k:x", parse_keys("k"), "g" * 32, 2)  # and ASCII digits only here
    ... except ProblemError as exc:
    ...     print(exc.status, exc.slug)
    403 bad-seat-token
    """
    tokens = [t.strip() for t in (checked(HEADER, header) or "").split(",") if t.strip()]
    proven = {_seat_of(t, keys, game_id, seats) for t in tokens}
    if not proven:
        return None
    if len(proven) == seats:
        return HOST
    if len(proven) == 1:
        return next(iter(proven))
    raise ProblemError(400, "malformed-request", "Malformed request", N_(
        "send one seat's token (a player) or every seat's (the host), not some of them"),
        errors={f"headers.{HEADER}": [N_("the tokens of some seats but not all")]})


def may_see(who: Caller, seat: object) -> bool:
    """May ``who`` learn what ``seat`` (a seat, ``chance`` or ``None``) hides?

    >>> may_see(1, 1), may_see(1, 0), may_see(None, None), may_see("host", "chance")
    (True, False, True, True)
    >>> may_see(1, "chance")   # a chance outcome at the table: the host's
    False
    """
    return who == HOST or seat is None or (seat == who and not isinstance(seat, bool))


def require(who: Caller, seat: object, field: str) -> None:
    """403 ``seat-token-required`` unless ``who`` may act or ask for ``seat`` (at ``field``)."""
    if may_see(who, seat):
        return
    if seat == "chance":
        detail = N_("this state is sealed: chance outcomes are the host's; send every seat's "
                    "token in `{header}`", header=HEADER)
    elif isinstance(seat, int) and not isinstance(seat, bool):
        detail = N_("this state is sealed: what player {seat} may see needs player {seat}'s "
                    "token in `{header}`", seat=seat, header=HEADER)
    else:
        detail = N_("this state is sealed: answering for every seat needs every seat's token "
                    "in `{header}`", header=HEADER)
    raise ProblemError(403, "seat-token-required", "Seat token required", detail,
                       errors={field: [N_("needs that seat's token in `{header}`",
                                          header=HEADER)]})
