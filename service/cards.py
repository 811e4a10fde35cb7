"""The card listing of ``GET /v1/games/{game}/cards``: a card set's card lists, the
fields they can be filtered by, the filter and name search, the name shown.

Shared by the route (``service.http.games``) and the document's examples
(``service.openapi``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from service.i18n import pick

#: query parameters of ``/cards`` that are not card-field filters
QUERY_KEYS = ("set", "q")
_SCALARS = (str, int, float, bool, type(None))


def with_display_name(card: dict[str, Any], language: str) -> dict[str, Any]:
    """The card with ``display_name``: its ``name`` in ``language`` (names are ``{en, ru}``).

    >>> with_display_name({"id": "S-6", "name": {"en": "Punk of spades", "ru": "Шпана (пики)"}}, "ru")
    {'id': 'S-6', 'name': {'en': 'Punk of spades', 'ru': 'Шпана (пики)'}, 'display_name': 'Шпана (пики)'}
    >>> with_display_name({"id": "x"}, "ru")
    {'id': 'x'}
    """
    name = card.get("name")
    if not isinstance(name, dict):
        return card
    return {**card, "display_name": pick(name, language)}


def split_card_data(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Card lists (lists of objects with ``id``) and the set's other data.

    >>> split_card_data({"meta": {}, "fighters": [{"id": "S-6"}], "bonuses": {"gold": 3}})
    ({'fighters': [{'id': 'S-6'}]}, {'bonuses': {'gold': 3}})
    """
    groups: dict[str, Any] = {}
    tables: dict[str, Any] = {}
    for key, value in data.items():
        if key == "meta":
            continue
        if isinstance(value, list) and value and all(isinstance(c, dict) and "id" in c for c in value):
            groups[key] = value
        else:
            tables[key] = value
    return groups, tables


def filterable_fields(groups: dict[str, Any]) -> set[str]:
    """Top-level card fields holding a scalar (not null) in at least one card."""
    return {k for group in groups.values() for card in group
            for k, v in card.items() if v is not None and isinstance(v, _SCALARS)}


def _text(value: object) -> str:
    """How a filter names a value: ``true``/``false``, ``null``, or its text."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return str(value)


def _names(card: dict[str, Any]) -> Iterator[str]:
    for key, value in card.items():
        if key == "name" or key.startswith("name_"):
            if isinstance(value, str):
                yield value
            elif isinstance(value, dict):
                yield from (v for v in value.values() if isinstance(v, str))


def matches(card: dict[str, Any], filters: dict[str, list[str]], needle: str) -> bool:
    """``card`` passes every filter (one of the values given for a field) and ``q``.

    >>> matches({"suit": "hearts", "name": {"en": "Pirate", "ru": "Пират"}},
    ...          {"suit": ["hearts", "spades"]}, "пир")
    True
    """
    for field, wanted in filters.items():
        value = card.get(field)
        if not isinstance(value, _SCALARS) or _text(value) not in wanted:
            return False
    return not needle or any(needle in n.casefold() for n in _names(card))
