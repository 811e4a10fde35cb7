"""``dice_duel``: the registry with the fourth game added by its one line."""

from __future__ import annotations

import pathlib
from typing import Any

import pytest

import card_db
from service.games import registry

#: the game's card data: ``<dir>/dice_duel/reference.yaml``, ``<dir>`` on ``CARD_DB_PATH``
CARDS = pathlib.Path(__file__).parent / "dice_duel" / "cards"


def _registered(monkeypatch, sources: dict[Any, Any]) -> object:
    monkeypatch.setenv("CARD_DB_PATH", str(CARDS))
    monkeypatch.setattr(registry, "_sources", dict(sources))
    monkeypatch.setattr(registry, "_games", {})
    monkeypatch.setattr(registry, "GAME_IDS", tuple(sources))
    registry.register("dice_duel", "tests.extension.dice_duel")  # the one registry line
    card_db.clear_cache()
    return registry.get_game("dice_duel")


@pytest.fixture
def dice_duel(monkeypatch):
    """The real games plus Dice Duel, registered as README "How it is built" says."""
    yield _registered(monkeypatch, registry._sources)
    card_db.clear_cache()


@pytest.fixture
def dice_duel_alone(monkeypatch):
    """Dice Duel as the only game (its OpenAPI document is built in a second)."""
    yield _registered(monkeypatch, {})
    card_db.clear_cache()
