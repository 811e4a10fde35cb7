"""Kozyablo (Козябло): a two-player card battle of four races.  See ``game``."""

from service.games.kozyablo.game import GAME, Kozyablo

__all__ = ["GAME", "Kozyablo"]
