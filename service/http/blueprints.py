"""Every blueprint module of the service, in one list: ``service.app`` registers them in this
order and ``service.openapi`` documents their routes (``Routes.routes``) in it."""

from __future__ import annotations

from types import ModuleType

from service.http import (
    batch,
    console,
    evaluations,
    game_operations,
    games,
    health,
    metrics,
    rules,
    table,
    tournaments,
    transcripts,
)
from service.http.route import Route, Routes

MODULES: tuple[ModuleType, ...] = (
    games, batch, health, evaluations, game_operations, metrics, rules, table, tournaments, transcripts,
    console)


def blueprints() -> list[Routes]:
    """The blueprint (``bp``) of each module of ``MODULES``."""
    return [module.bp for module in MODULES]


def routes() -> list[Route]:
    """Every route of every blueprint, in order."""
    return [route for bp in blueprints() for route in bp.routes]
