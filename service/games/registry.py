"""The games this service adjudicates, by id.

Each game lives in ``service/games/<id>/`` and exposes ``GAME``, an instance
of its ``Game`` subclass.  Adding a game is one line here.
"""

from __future__ import annotations

import importlib

from service.games.base import Game

GAME_IDS = ("raiders", "tremble", "kozyablo")

_games: dict[str, Game] = {}


class UnknownGame(KeyError):
    """No game with that id."""


def get_game(game_id: str) -> Game:
    if game_id not in GAME_IDS:
        raise UnknownGame(game_id)
    game = _games.get(game_id)
    if game is None:
        game = _games[game_id] = importlib.import_module(f"service.games.{game_id}").GAME
    return game


def all_games() -> list[Game]:
    return [get_game(g) for g in GAME_IDS]
