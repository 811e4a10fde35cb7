"""Player names: one spelling per player, however the name was typed.

Two names that look the same on a screen are the same player.  Text that
looks the same can be different code points: ``Åsa`` composed (NFC, one
``Å``) or decomposed (NFD, ``A`` + a combining ring), ``Ann`` and ``ann``,
fullwidth ``Ａｎｎ``, ``Ann`` followed by an invisible zero-width space.  So:

* a name is kept in **NFC** (``normal``): composed, the form most text
  already is in; the spelling a player registered is the one the answers show;
* names are compared by their **key** (``key``): NFKC (fullwidth and other
  compatibility forms become the plain letters), case-folded (``Ann`` =
  ``ann``; ``Straße`` = ``STRASSE``), whitespace runs as one space;
* a name is **refused** when it is empty, begins or ends with whitespace, or
  holds an invisible or control character: Unicode categories Cc, Cf (the
  zero-width space and joiners, bidirectional controls, the soft hyphen),
  Co, Cs, Cn (unassigned), Zl, Zp, and the other default-ignorable code
  points (variation selectors, the combining grapheme joiner, Hangul fillers);
* two names of one list with the same key are refused, naming both fields
  and both spellings.

What it does not do: letters of different scripts that look alike (Latin
``A`` and Cyrillic ``А``) stay different names — both are honest spellings
of real names, and telling them apart needs the Unicode confusables table.

>>> key("Ａｎｎ") == key("ann") == key("ANN") == key("Ann")
True
>>> normal("A\\u030asa") == "\\u00c5sa"      # NFD → NFC
True
>>> checked(["Ann", "Bob"], "players")
['Ann', 'Bob']
>>> try:
...     checked(["Ann", "Bob", "Cat", "Ａｎｎ"], "players")
... except MalformedInput as exc:
...     print(exc.errors)
{'players.3': ["'Ａｎｎ' is the same player as players.0 'Ann'"]}
>>> try:
...     checked(["Ann\\u200b", " Bob", ""], "seats")
... except MalformedInput as exc:
...     for field, messages in exc.errors.items():
...         print(field, messages[0])
seats.0 'Ann\\u200b' holds an invisible or control character (U+200B)
seats.1 ' Bob' begins or ends with whitespace
seats.2 a name cannot be empty
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from service.games.errors import InvalidName, MalformedInput
from service.games.messages import N_, Message

#: categories of characters no name may hold: controls, format (zero-width,
#: bidi), private use, surrogates, unassigned, line and paragraph separators
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
#: default-ignorable code points outside those categories (DerivedCoreProperties):
#: they render as nothing, so ``Ann`` + one of them looks like ``Ann``
_IGNORABLE_RANGES = ((0x034F, 0x034F), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
                     (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFFA0, 0xFFA0),
                     (0xE0100, 0xE01EF))


def normal(name: str) -> str:
    """The spelling kept: ``name`` in NFC."""
    return unicodedata.normalize("NFC", name)


def key(name: str) -> str:
    """What two names are compared by: NFKC, case-folded (NFKC again after folding, as
    Unicode's NFKC_Casefold), whitespace runs as one space.

    >>> key("Åsa") == key("A\\u030aSA"), key("Ann  Lee") == key("ann\\u00a0lee")
    (True, True)
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


def invisible(char: str) -> bool:
    """Whether ``char`` is a control or renders as nothing (see the module docstring).

    >>> [invisible(c) for c in ("a", " ", "\\u200b", "\\ufe0f", "\\x07", "\\u2028")]
    [False, False, True, True, True, True]
    """
    if unicodedata.category(char) in INVISIBLE_CATEGORIES:
        return True
    code = ord(char)
    return any(low <= code <= high for low, high in _IGNORABLE_RANGES)


def why_refused(name: object) -> Message | None:
    """Why ``name`` cannot be a player's name, or ``None`` when it can.

    >>> why_refused("Åsa"), why_refused("Ann\\u2067"), why_refused("Ann ")
    (None, "'Ann\\\\u2067' holds an invisible or control character (U+2067)", "'Ann ' begins or ends with whitespace")
    """
    if not isinstance(name, str):
        return N_("a name must be a string")
    if not name:
        return N_("a name cannot be empty")
    if name != name.strip():
        return N_("{name!r} begins or ends with whitespace", name=name)
    found = next((c for c in name if invisible(c)), None)
    if found is not None:
        return N_("{name!r} holds an invisible or control character ({code})", name=name,
                  code=f"U+{ord(found):04X}")
    return None


def checked(values: Sequence[str], path: str) -> list[str]:
    """``values`` — the names of a list at field ``path`` (``players``, ``setup.seats``) —
    each in NFC, once each is known to be a valid name and no two share a key.

    Raises ``MalformedInput`` with one error per refused field (``path.i``): a name
    ``why_refused`` refuses, or a name with the key of an earlier one — the message names
    the earlier field and both spellings as sent.
    """
    errors: dict[str, list[str]] = {}
    out: list[str] = []
    first: dict[str, int] = {}
    for i, value in enumerate(values):
        why = why_refused(value)
        if why is not None:
            errors[f"{path}.{i}"] = [why]
            out.append(value)
            continue
        spelled = normal(value)
        out.append(spelled)
        k = key(spelled)
        if k in first:
            j = first[k]
            errors[f"{path}.{i}"] = [N_("{name!r} is the same player as {other_field} {other!r}",
                                        name=value, other_field=f"{path}.{j}", other=values[j])]
        else:
            first[k] = i
    if errors:
        raise MalformedInput(errors)
    return out


def roster(registered: Iterable[str]) -> dict[str, str]:
    """Key → spelling of names already ``checked``: what ``resolved`` looks names up in.

    >>> roster(["Ann", "Åsa"])[key("ÅSA")]
    'Åsa'
    """
    return {key(name): name for name in registered}


def resolved(name: str, names: dict[str, str]) -> str | None:
    """The registered spelling of ``name`` (any spelling with its key), or ``None``
    when no registered name has that key.

    >>> names = roster(["Ann", "Bob"])
    >>> resolved("ＡＮＮ", names), resolved("Zed", names), resolved("Ann\\u200b", names)
    ('Ann', None, None)
    """
    if not isinstance(name, str) or why_refused(name) is not None:
        return None
    return names.get(key(name))


def player(name: str, names: dict[str, str], path: str) -> str:
    """The registered spelling of ``name``; a name no player has is refused naming ``path``.

    >>> player("ann", roster(["Ann"]), "rounds.0")
    'Ann'
    """
    found = resolved(name, names)
    if found is None:
        raise MalformedInput({path: [N_("{name!r} is not one of the tournament's players",
                                        name=name)]})
    return found


def seated(players: Any) -> Any:
    """A setup's ``players`` with each seat's ``name`` in NFC: the spelling the state
    keeps.  A count, or a seat without a name, is left as it is.

    >>> seated([{"name": "A\u030asa"}, {}]), seated(2)
    ([{'name': 'Åsa'}, {}], 2)
    """
    if not isinstance(players, list):
        return players
    return [{**p, "name": normal(p["name"])}
            if isinstance(p, dict) and isinstance(p.get("name"), str) else p for p in players]


def check_seats(players: Sequence[Any], path: str) -> None:
    """``InvalidName`` at ``<path>.<seat>.name`` for a seat's name ``checked`` refuses:
    the one check of a game's seat names, for ``new``/``replay`` (422 ``invalid-name``),
    the in-process library and the tournaments' verification."""
    try:
        checked([p["name"] for p in players], path)
    except MalformedInput as exc:
        raise InvalidName({f"{k}.name": v for k, v in exc.errors.items()}) from None
