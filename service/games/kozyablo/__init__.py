"""Kozyablo (Козябло): a two-player card battle of four races.  See ``game``;
the card files' schema is ``card_schema``."""

from __future__ import annotations

from service.games.kozyablo.game import GAME, Kozyablo

__all__ = ["GAME", "Kozyablo"]
