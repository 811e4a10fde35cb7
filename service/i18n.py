"""The language of an answer: ``Accept-Language`` → ``en`` (default) or ``ru``.

One negotiation (``request_language``) for the whole service; the rules
reference, problems and every translated answer use it.  Texts are
translated with gettext catalogs (Babel): ``service/translations/messages.pot``
holds every msgid, ``service/translations/ru/LC_MESSAGES/messages.po`` the
Russian (``docs/i18n.md`` says how to update them).

The ``.po`` is compiled in memory the first time a language is used (and at
app start, so a broken catalog stops the service at once): no compiled
``.mo`` to commit or forget to rebuild, nothing to run on a fresh clone.

Engines mark their sentences with ``service.games.messages.N_``: a ``str``
holding the English text plus msgid and params.  ``localize`` walks an
answer and renders each such message (and nothing else) in the language:

>>> from service.games.messages import N_
>>> localize({"reason": N_("the game is over"), "rule": "RAI-6"}, "ru")
{'reason': 'игра окончена', 'rule': 'RAI-6'}
>>> localize({"reason": N_("the game is over")}, "en")
{'reason': 'the game is over'}
>>> gettext("Illegal action", "ru")
'Недопустимое действие'
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

from service.games.messages import Message

# the languages answers come in are the rules reference's; the first is the default and
# the msgids' language
from service.rules_reference import DEFAULT_LANGUAGE as DEFAULT_LANGUAGE
from service.rules_reference import LANGUAGES as LANGUAGES

if TYPE_CHECKING:
    from flask import Response

TRANSLATIONS_DIR = Path(__file__).with_name("translations")
DOMAIN = "messages"


def catalog_path(language: str) -> Path:
    return TRANSLATIONS_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(language: str) -> NullTranslations:
    """The gettext translations of ``language`` (``NullTranslations`` for English)."""
    if language == DEFAULT_LANGUAGE or language not in LANGUAGES:
        return NullTranslations()
    with catalog_path(language).open("rb") as f:
        catalog = read_po(f, locale=language, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy entries are left out, as msgfmt does
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


def load_all() -> None:
    """Compile every catalog now (app start): a broken ``.po`` fails loudly, once."""
    for language in LANGUAGES:
        translations(language)


def gettext(msgid: str, language: str) -> str:
    """``msgid`` in ``language`` (itself when the catalog has no translation)."""
    if language == DEFAULT_LANGUAGE:
        return msgid
    return translations(language).gettext(msgid)


def translate(text: Any, language: str) -> Any:
    """A ``Message`` rendered in ``language`` (its params too); anything else as is."""
    if not isinstance(text, Message) or language == DEFAULT_LANGUAGE:
        return text
    translated = gettext(text.msgid, language)
    if not text.params:  # no placeholders filled: braces are literal (`GET /v1/games/{game}`)
        return translated
    return translated.format(**{k: translate(v, language) for k, v in text.params.items()})


def localize(value: Any, language: str) -> Any:
    """``value`` (JSON: dicts, lists, strings) with every ``Message`` in ``language``.

    Returns ``value`` itself for English: messages already are English text.
    """
    if language == DEFAULT_LANGUAGE:
        return value
    if isinstance(value, Message):
        return translate(value, language)
    if isinstance(value, dict):
        return {k: localize(v, language) for k, v in value.items()}
    if isinstance(value, list):
        return [localize(v, language) for v in value]
    return value


def pick(names: Any, language: str) -> Any:
    """The entry of a ``{"en": …, "ru": …}`` name in ``language`` (English if missing).

    >>> pick({"en": "Raiders", "ru": "Рейдеры"}, "ru"), pick("S-6", "ru")
    ('Рейдеры', 'S-6')
    """
    if isinstance(names, dict):
        return names.get(language, names.get(DEFAULT_LANGUAGE))
    return names


def request_language() -> str:
    """The request's ``Accept-Language``, best of ``en``/``ru`` (``en`` outside a request)."""
    # Flask only here: the translations serve the in-process library too (service.engine_api)
    from flask import has_request_context, request

    if not has_request_context():
        return DEFAULT_LANGUAGE
    return negotiate(request.accept_languages)


def negotiate(ranges: Iterable[tuple[str, float]]) -> str:
    """The first supported language of ``(tag, quality)`` pairs taken best first (RFC 4647
    lookup by primary subtag: ``ru-RU`` is ``ru``); ``*`` or nothing supported → ``en``.

    Unlike a match of whole tags first, ``en-GB,ru;q=0.8`` is English:

    >>> negotiate([("en-GB", 1), ("ru", 0.8)]), negotiate([("de", 1), ("ru", 0.5)])
    ('en', 'ru')
    >>> negotiate([("RU_ru", 1)]), negotiate([("*", 1), ("ru", 0.5)]), negotiate([])
    ('ru', 'en', 'en')
    """
    for tag, quality in sorted(ranges, key=lambda r: -r[1]):
        if quality <= 0:
            continue
        primary = tag.replace("_", "-").split("-", 1)[0].lower()
        if primary in LANGUAGES:
            return primary
        if primary == "*":
            return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def mark_language(response: Response, language: str) -> Response:
    """``Content-Language`` and ``Vary: Accept-Language`` on a language-dependent answer."""
    response.headers["Content-Language"] = language
    response.vary.add("Accept-Language")
    return response
