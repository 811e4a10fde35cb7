"""What the declarations and the document share: a component's name (``camel``) and what a
player count allows of a game's options (``options_for_count``).

``schemas/`` feeds ``service.openapi`` (``docs/architecture.md``, Layers): the tournament
declarations build their per-game components with these, and the document imports them
from here, so neither imports the other both ways.
"""

from __future__ import annotations

from typing import Any

from service.games.base import AnyGame
from service.games.errors import InvalidOptions
from service.games.options import Option

#: the seed of the document's seeded examples, and of the setups ``options_for_count`` tries
EXAMPLE_SEED = 7


def camel(name: str) -> str:
    """``play_trick`` → ``PlayTrick``.

    >>> camel("raiders"), camel("play-trick_now")
    ('Raiders', 'PlayTrickNow')
    """
    return "".join(p[:1].upper() + p[1:] for p in name.replace("-", "_").split("_") if p)


def _probe_values(opt: Option) -> list[Any]:
    """The values of an option worth asking its player-count ``check`` about."""
    if opt.type == "boolean":
        return [False, True]
    if opt.choices is not None:
        return list(opt.choices)
    if opt.type == "integer" and opt.minimum is not None and opt.maximum is not None \
            and opt.maximum - opt.minimum <= 64:
        return list(range(opt.minimum, opt.maximum + 1))
    return []


def _setup_takes(game: AnyGame, players: int, name: str, value: object) -> bool:
    """The game's own setup takes ``name: value`` with ``players`` players (a rule of
    the setup rather than of the option, e.g. RAI-9: six players need ``double_deck``)."""
    try:
        game.new_game(players, {name: value}, EXAMPLE_SEED, "reference")
    except InvalidOptions as exc:
        return f"options.{name}" not in exc.errors
    return True


def options_for_count(game: AnyGame, players: int) -> dict[str, Any] | None:
    """What ``players`` seats allow of the options, found by asking each option's own
    ``refusal`` (the document follows the engine): values the count rules out, and
    boolean options that exclude each other.  ``None`` when the count narrows nothing."""
    narrowed: dict[str, Any] = {}
    exclusive: list[tuple[str, str]] = []
    for opt in game.options:
        values = _probe_values(opt)
        allowed = [v for v in values
                   if (opt.refusal is None or opt.refusal(v, players, {}) is None)
                   and _setup_takes(game, players, opt.name, v)]
        if allowed != values:  # type-specific keywords only: null (when allowed) passes
            if opt.type == "integer" and allowed:
                narrowed[opt.name] = {"minimum": min(allowed), "maximum": max(allowed)}
            else:
                narrowed[opt.name] = {"enum": allowed + ([None] if opt.nullable else [])}
        if opt.type == "boolean" and True in allowed:
            for other in game.options:
                if other.type == "boolean" and other.name != opt.name and opt.refusal is not None \
                        and opt.refusal(True, players, {other.name: True}) is not None \
                        and (other.refusal is None or other.refusal(True, players, {}) is None):
                    first, second = sorted((opt.name, other.name))
                    exclusive.append((first, second))
    if not narrowed and not exclusive:
        return None
    schema: dict[str, Any] = {"properties": narrowed}  # ``properties`` only bind an object: null passes
    if exclusive:  # at most one of each exclusive pair is true
        schema["not"] = {"anyOf": [{"type": "object", "required": list(pair), "properties": {
            k: {"const": True} for k in pair}} for pair in sorted(set(exclusive))]}
    return schema
