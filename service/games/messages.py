"""Translatable messages for the engines: one marker, ``N_``.

An engine writes every sentence a client reads (a rule violation's reason, a
field error, a deck violation) as ``N_(msgid, **params)``: the msgid is the
English text with named ``{placeholders}``, the params fill them.  The result
*is* a ``str`` — the English text — so logs, ``str(exc)``, comparisons and JSON
stay exactly as before; it also keeps its msgid and params, so the HTTP layer
(``service.i18n``) can render it in the request's language from the gettext
catalogs.  ``pybabel extract`` finds the msgids by the keyword ``N_``
(``babel.cfg``).  Nothing here knows about Flask or Babel.

>>> m = N_("only the active player (seat {seat}) captures", seat=2)
>>> m
'only the active player (seat 2) captures'
>>> m.msgid, m.params
('only the active player (seat {seat}) captures', {'seat': 2})
>>> m == "only the active player (seat 2) captures"
True

A param may itself be a message; it is rendered in the same language:

>>> N_("orders.{key}: {why}", key=0, why=N_("{ship} has two orders", ship="S1"))
'orders.0: S1 has two orders'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class Message(str):
    """English text that remembers its msgid and params (see the module docstring)."""

    __slots__ = ("msgid", "params")
    msgid: str
    params: dict[str, Any]

    def __new__(cls, msgid: str, params: dict[str, Any]) -> Message:
        self = _new_str(cls, msgid.format_map(params) if params else msgid)
        self.msgid = msgid
        self.params = params
        return self

    def __reduce__(self) -> tuple[type[Message], tuple[str, dict[str, Any]]]:
        # pickles (RQ jobs) and copies as a message, not a bare str
        return (Message, (self.msgid, self.params))


_new_str = str.__new__
#: one shared message per literal msgid without params (engines test for problems in
#: loops, e.g. while listing legal actions); bounded: ``N_`` takes literals only
_CONSTANTS: dict[str, Message] = {}


def N_(msgid: str, /, **params: Any) -> Message:  # noqa: N802 (gettext's name)
    """Mark ``msgid`` for translation and fill its ``{placeholders}`` from ``params``."""
    if params:
        return Message(msgid, params)
    found = _CONSTANTS.get(msgid)
    if found is None:
        found = _CONSTANTS[msgid] = Message(msgid, params)
    return found


def join_messages(items: Iterable[object], separator: str = "; ") -> Message:
    """Messages joined into one, each rendered in the reader's language.

    >>> join_messages([N_("the game is over"), "RAI-6"]).params
    {'m0': 'the game is over', 'm1': 'RAI-6'}
    """
    items = list(items)
    msgid = separator.join(f"{{m{i}}}" for i in range(len(items)))
    return Message(msgid, {f"m{i}": item for i, item in enumerate(items)})


def either(items: Iterable[str]) -> str:
    """Alternatives for a message param: ``a or b or c`` in English, ``a или b или c`` in
    Russian (each ``or`` is a message of its own).

    >>> either(["'strike'", "'evade'", "'defend'"])
    "'strike' or 'evade' or 'defend'"
    >>> either(["x"]), either([])
    ('x', '')
    """
    items = list(items)
    out = items[0] if items else ""
    for item in items[1:]:
        out = N_("{first} or {second}", first=out, second=item)
    return out


def joined(items: Iterable[object]) -> str:
    """A list of ids for a message param: ``a, b, c`` (ids are never translated).

    >>> joined(["S1", "S2"])
    'S1, S2'
    """
    return ", ".join(map(str, items))
