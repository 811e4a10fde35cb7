"""Card data: files per game and set, validated when loaded.

Layout: ``card_db/<game>/<set>.yaml``.  The shipped ``reference`` sets are
reconstructed (the rulebooks list no cards) and say so in their ``meta``.
An operator can put their own sets in a directory named by ``CARD_DB_PATH``
(``<dir>/<game>/<set>.yaml``, several dirs separated by ``:``); a set found
there shadows a shipped one of the same name.

A set may extend another of its game (``extends: <set id>``, top level): it is
that set with the file's own keys laid over it — lists (the card lists) get the
file's items appended, mappings (``reference_decks``) get its entries, and
anything else (``meta``) is the file's.  The result is validated and hashed as
one set, so a set that adds cards to ``reference`` leaves ``reference`` itself,
its hash and the states made with it, as they were.

Each game's file is validated by the marshmallow schema the game declares
(``Game.card_schema``, handed over with ``register_schema`` when the engine is
created: this package never imports the engines).  A broken file raises
``CardDataError`` naming the file, the card and the field, and the service
refuses to start.

>>> from service.games.registry import GAME_IDS, get_game
>>> game = get_game(GAME_IDS[0])  # a game's engine registers its card schema
>>> s = get(game.id, "reference")
>>> s.hash[:7], s.meta["reconstructed"]
('sha256:', True)
"""

from __future__ import annotations

import hashlib
import os
import pathlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import orjson
import yaml
from marshmallow import Schema, ValidationError

HERE = pathlib.Path(__file__).resolve().parent


class CardDataError(Exception):
    """A card file that cannot be used; the message names file, card, field."""

    def __init__(self, path: pathlib.Path | str, problems: list[str]):
        self.path = str(path)
        self.problems = problems
        super().__init__(f"{path}: " + "; ".join(problems))


class UnknownCardSet(KeyError):
    """No file for that game and set id."""


@dataclass(frozen=True)
class CardSet:
    """One validated set: ``data`` as loaded, ``cards`` indexed by id."""

    game: str
    id: str
    path: str
    hash: str
    meta: dict[str, Any]
    data: dict[str, Any]
    cards: dict[str, Any] = field(repr=False)

    def ref(self) -> dict[str, Any]:
        """How a state names this set: ``{"id", "hash"}``."""
        return {"id": self.id, "hash": self.hash}


#: the format of a game's card files: a marshmallow schema (its ``card_schema``), the one
#: place besides this package where marshmallow is read (``tests/test_layers.py``)
CardSchema = Schema

#: game id -> the marshmallow schema its card files are validated with
_schemas: dict[str, type[Schema]] = {}


def register_schema(game: str, schema: type[Schema]) -> None:
    """Validate ``game``'s card files with ``schema`` from now on."""
    _schemas[game] = schema


def search_dirs() -> list[pathlib.Path]:
    extra = [pathlib.Path(p) for p in os.environ.get("CARD_DB_PATH", "").split(":") if p]
    return extra + [HERE]


def available(game: str) -> list[str]:
    """Set ids available for a game, operator sets first."""
    seen: list[str] = []
    for root in search_dirs():
        for path in sorted((root / game).glob("*.y*ml")) + sorted((root / game).glob("*.json")):
            if path.stem not in seen:
                seen.append(path.stem)
    return seen


def _find(game: str, set_id: str) -> pathlib.Path:
    if not set_id.replace("-", "").replace("_", "").isalnum():
        raise UnknownCardSet(f"{game}/{set_id}")
    for root in search_dirs():
        for ext in ("yaml", "yml", "json"):
            path = root / game / f"{set_id}.{ext}"
            if path.is_file():
                return path
    raise UnknownCardSet(f"{game}/{set_id}")


#: libyaml's safe loader where PyYAML has it: the same data, ten times sooner than the
#: pure-Python one (a set loads at every process start and cache clear; the tests read
#: openapi.yaml with it too)
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _read(game: str, set_id: str, seen: tuple[str, ...] = ()) -> tuple[pathlib.Path, Any]:
    """A set file's data, with the set it ``extends`` laid under it (the module docstring)."""
    path = _find(game, set_id)
    try:
        raw = yaml.load(path.read_text(encoding="utf-8"), Loader=YAML_LOADER)
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise CardDataError(path, [f"not valid YAML: {exc}"]) from exc
    if not isinstance(raw, dict) or "extends" not in raw:
        return path, raw
    base_id = raw.pop("extends")
    if not isinstance(base_id, str) or base_id in (set_id, *seen):
        raise CardDataError(path, [f"extends: {base_id!r} is not another set of {game!r}"])
    try:
        _, base = _read(game, base_id, (*seen, set_id))
    except UnknownCardSet:
        raise CardDataError(path, [f"extends: no set {base_id!r} of {game!r}"]) from None
    return path, overlay(base, raw)


def overlay(base: Any, top: dict[str, Any]) -> Any:
    """``top`` laid over ``base``: lists appended, mappings merged, the rest replaced
    (``meta`` included, as a whole).

    >>> overlay({"meta": {"a": 1}, "cards": [1], "decks": {"x": 1}, "n": 1},
    ...         {"meta": {"b": 2}, "cards": [2], "decks": {"y": 2}})
    {'meta': {'b': 2}, 'cards': [1, 2], 'decks': {'x': 1, 'y': 2}, 'n': 1}
    """
    if not isinstance(base, dict):
        return top
    out = dict(base)
    for key, value in top.items():
        old = out.get(key)
        if key != "meta" and isinstance(old, list) and isinstance(value, list):
            out[key] = [*old, *value]
        elif key != "meta" and isinstance(old, dict) and isinstance(value, dict):
            out[key] = {**old, **value}
        else:
            out[key] = value
    return out


def load(game: str, set_id: str) -> CardSet:
    """Read and validate one set (uncached; see ``get``)."""
    path, raw = _read(game, set_id)
    schema_cls = _schemas.get(game)
    if schema_cls is None:
        raise CardDataError(path, [f"no card schema for {game!r}: its engine declares "
                                   "`card_schema` and registers it when created"])
    try:
        data = schema_cls().load(raw)
    except ValidationError as exc:
        raise CardDataError(path, _describe(exc.messages, raw)) from exc
    digest = hashlib.sha256(orjson.dumps(raw, option=orjson.OPT_SORT_KEYS)).hexdigest()
    cards = {card["id"]: card for card in _all_cards(data)}
    return CardSet(game=game, id=set_id, path=str(path), hash=f"sha256:{digest[:32]}",
                   meta=data.get("meta", {}), data=data, cards=cards)


def _all_cards(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for key, value in data.items():
        if key != "meta" and isinstance(value, list):
            for item in value:
                if isinstance(item, dict) and "id" in item:
                    yield item


def _describe(messages: Any, raw: Any, prefix: str = "") -> list[str]:
    """Flatten marshmallow messages, naming each card by its id."""
    out: list[str] = []
    if isinstance(messages, dict):
        for key, sub in messages.items():
            label = key
            if isinstance(key, int) and isinstance(raw, list) and key < len(raw) \
                    and isinstance(raw[key], dict) and "id" in raw[key]:
                label = f"{key} (card {raw[key]['id']!r})"
            nxt = raw[key] if isinstance(raw, (list, dict)) and _has(raw, key) else None
            out.extend(_describe(sub, nxt, f"{prefix}{label}."))
    elif isinstance(messages, list):
        for m in messages:
            if isinstance(m, (dict, list)):
                out.extend(_describe(m, raw, prefix))
            else:
                out.append(f"{prefix.rstrip('.') or 'file'}: {m}")
    return out


def _has(container: list[Any] | dict[Any, Any], key: Any) -> bool:
    if isinstance(container, list):
        return isinstance(key, int) and 0 <= key < len(container)
    return key in container


_cache: dict[tuple[str, str], CardSet] = {}
_lock = threading.Lock()


def get(game: str, set_id: str = "reference") -> CardSet:
    """The validated set, loaded once per process."""
    key = (game, set_id)
    found = _cache.get(key)
    if found is None:
        with _lock:
            found = _cache.get(key)
            if found is None:
                found = _cache[key] = load(game, set_id)
    return found


#: counts ``clear_cache`` calls: what was checked against the loaded sets (the
#: service's known-valid states, ``service.valid_states``) holds for one generation
_generation = 0


def clear_cache() -> None:
    """Forget loaded sets (tests that point ``CARD_DB_PATH`` elsewhere)."""
    global _generation
    _cache.clear()
    _generation += 1


def generation() -> int:
    """How many times the loaded sets were forgotten (``clear_cache``)."""
    return _generation
