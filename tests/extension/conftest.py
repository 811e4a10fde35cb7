"""``dice_duel``: the registry with the fourth game added by its one line."""

from __future__ import annotations

import pathlib

import pytest

import card_db
from service.games import registry

#: the game's card data: ``<dir>/dice_duel/reference.yaml``, ``<dir>`` on ``CARD_DB_PATH``
CARDS = pathlib.Path(__file__).parent / "dice_duel" / "cards"


@pytest.fixture
def dice_duel(monkeypatch):
    """The real games plus Dice Duel, registered as README "How it is built" says."""
    monkeypatch.setenv("CARD_DB_PATH", str(CARDS))
    monkeypatch.setattr(registry, "_sources", dict(registry._sources))
    monkeypatch.setattr(registry, "_games", dict(registry._games))
    monkeypatch.setattr(registry, "GAME_IDS", registry.GAME_IDS)
    registry.register("dice_duel", "tests.extension.dice_duel")
    card_db.clear_cache()
    yield registry.get_game("dice_duel")
    card_db.clear_cache()
