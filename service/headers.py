"""Request header values, read strictly: visible ASCII, spaces and tabs, or refused.

WSGI hands every header value over decoded as latin-1, so a raw byte ``0xB2``
arrives as ``'²'``, for which ``str.isdigit()`` is true (and ``int()`` fails),
and ``re``'s ``\\d`` and ``\\w`` match non-ASCII letters and digits.  A header the
service acts on is therefore checked here first (RFC 9110 field values without
``obs-text``): a value with a non-ASCII or control byte is refused naming it,
``headers.<Name>``, before anything parses it.  Advisory headers
(``Accept-Language``, ``Accept``, ``X-Request-Id``…) are not refused: what is not
understood in them is ignored (``docs/operations.md`` lists which is which).

>>> visible_ascii("seat:1:k1:abc"), visible_ascii("true\\t"), visible_ascii("")
(True, True, True)
>>> visible_ascii("seat:²:k1:abc"), visible_ascii("a\\x01b"), visible_ascii("a\\x7f")
(False, False, False)
>>> try:
...     checked("Referee-Seat-Token", "seat:\\xb2:k:x")
... except MalformedInput as exc:
...     print(list(exc.errors))
['headers.Referee-Seat-Token']
"""

from __future__ import annotations

import re

from service.games.errors import MalformedInput
from service.games.messages import N_
from service.limits import MAX_IDEMPOTENCY_KEY

#: a field value (RFC 9110 5.5) without obs-text: HTAB, SP and VCHAR
_FIELD_VALUE = re.compile(r"[\t\x20-\x7e]*")


def visible_ascii(value: str) -> bool:
    """Whether ``value`` is only visible ASCII, spaces and tabs."""
    # the C fast path first (no tab in most values); DEL is not printable
    return (value.isascii() and value.isprintable()) or _FIELD_VALUE.fullmatch(value) is not None


def refused(name: str) -> MalformedInput:
    """The 400 ``malformed-request`` for header ``name`` holding a byte it may not."""
    return MalformedInput({f"headers.{name}": [N_(
        "holds a byte that is not visible ASCII (a control character, or 0x80-0xFF); send "
        "ASCII, percent-encode anything else")]})


def checked(name: str, value: str | None) -> str | None:
    """``value`` of header ``name`` if visible ASCII (or ``None``: absent), else a 400."""
    if value is None or visible_ascii(value):
        return value
    raise refused(name)


#: ``Idempotency-Key`` (``POST /v1/evaluations``): a structured-field string of 1-255
#: visible ASCII characters or spaces (no ``"`` or backslash), or a bare token of 1-255
#: visible ASCII characters but ``"``.  One text for the check and for the contract, in
#: a syntax Python, jsonschema-rs and JavaScript's unicode mode read alike.
IDEMPOTENCY_KEY_PATTERN = (rf'"([\x20\x21\x23-\x5b\x5d-\x7e]{{1,{MAX_IDEMPOTENCY_KEY}}})"'
                           rf'|([\x21\x23-\x7e]{{1,{MAX_IDEMPOTENCY_KEY}}})')
