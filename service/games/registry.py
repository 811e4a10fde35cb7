"""The games this service adjudicates, by id.

A game is a package exposing ``GAME``, an instance of its ``Game``
subclass; one ``register`` line below adds it (README "How it is built").
A test registers a game of its own the same way
(``tests/extension``).  Packages are imported when a game is first asked for.

>>> "raiders" in GAME_IDS, get_game("raiders").id
(True, 'raiders')
"""

from __future__ import annotations

import importlib
from typing import Any

from service.games.base import AnyGame, Game

#: an engine whose own state type is forgotten: every game's ``Game[S]`` is one, and each
#: is one ``AnyGame`` (the seam's types) to whoever asks for it
Engine = Game[Any]

#: game id -> the module whose ``GAME`` is its engine (or the engine itself)
_sources: dict[str, str | Engine] = {}
_games: dict[str, Engine] = {}
#: the registered ids, in registration order (the order of ``GET /v1/games``)
GAME_IDS: tuple[str, ...] = ()


class UnknownGame(KeyError):
    """No game with that id."""


def register(game_id: str, source: str | Engine) -> None:
    """Serve ``game_id``: ``source`` names the module whose ``GAME`` is the
    engine (imported when first asked for), or is the engine itself."""
    global GAME_IDS
    _sources[game_id] = source
    _games.pop(game_id, None)
    GAME_IDS = tuple(_sources)


def get_game(game_id: str) -> AnyGame:
    known = _games.get(game_id)
    if known is not None:
        return known
    source = _sources.get(game_id)
    if source is None:
        raise UnknownGame(game_id)
    game: Engine = source if isinstance(source, Game) else importlib.import_module(source).GAME
    if game.id != game_id:
        raise TypeError(f"{source!r} is the engine of {game.id!r}, not {game_id!r}")
    _games[game_id] = game
    return game


def all_games() -> list[AnyGame]:
    return [get_game(g) for g in GAME_IDS]


register("raiders", "service.games.raiders")
register("tremble", "service.games.tremble")
register("kozyablo", "service.games.kozyablo")
