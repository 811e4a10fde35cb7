"""Events as one player may see them, written once for every game.

``apply`` and ``replay`` events are the host's: full information, so they
can name the card another player drew.  ``redact(events, secret)`` replaces
every string that is a secret card of that player — anywhere in the events,
as a value or as an object key — by ``"hidden"``.  The secret set is
``game.secret_cards(old_state, p) | game.secret_cards(new_state, p)``: a card
hidden from ``p`` before the action or after it (a card drawn from a face-down
deck into another hand is secret in both).

>>> redact([{"type": "drew", "player": 1, "card": "S-Q"}, {"type": "played", "card": "H-6"}],
...        {"S-Q"})
[{'type': 'drew', 'player': 1, 'card': 'hidden'}, {'type': 'played', 'card': 'H-6'}]
>>> redact({"S-Q": 2, "cards": ["S-Q", "H-6"]}, {"S-Q"})
{'hidden': 2, 'cards': ['hidden', 'H-6']}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.games.base import AnyGame, GameState, StateIn

HIDDEN = "hidden"


def redact(value: Any, secret: set[str] | frozenset[str]) -> Any:
    """A copy of ``value`` with every secret string replaced by ``"hidden"``."""
    if not secret:
        return value
    if isinstance(value, str):
        return HIDDEN if value in secret else value
    if isinstance(value, list):
        return [redact(v, secret) for v in value]
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for k, v in value.items():
            key = HIDDEN if k in secret else k
            if key in out:  # two secret keys: keep both, numbered
                key = f"{HIDDEN}#{sum(1 for o in out if o.startswith(HIDDEN)) + 1}"
            out[key] = redact(v, secret)
        return out
    return value


def events_for(game: AnyGame, old_state: StateIn | None, new_state: StateIn,
               events: list[Any], player: int | None) -> list[Any]:
    """``events`` as ``player`` may see them (``None``: a spectator).

    ``old_state`` is None for the setup's events (there is no state before).
    """
    secret = game.secret_cards(new_state, player)
    if old_state is not None:
        secret = secret | game.secret_cards(old_state, player)
    redacted: list[Any] = redact(events, secret)
    return redacted


class ReplayRedaction:
    """``replay(..., observe=r)`` collects every step's events as ``player`` may see them.

    The same redaction as ``apply`` with ``for_player``, step by step: the
    secret cards of the state before the step and after it.  ``steps`` is
    ``[{index, events}]`` like the replay's own ``events``.
    """

    def __init__(self, game: AnyGame, player: int | None,
                 check_seat: Callable[[GameState], None] | None = None) -> None:
        self.game, self.player, self.check_seat = game, player, check_seat
        self.steps: list[dict[str, Any]] = []

    def __call__(self, before: GameState | None, after: GameState,
                 events: list[Any]) -> None:
        if before is None and self.check_seat is not None:
            self.check_seat(after)  # the seat exists: known once the game is set up
        index = None if before is None else len(self.steps) - 1
        self.steps.append({"index": index,
                           "events": events_for(self.game, before, after, events, self.player)})
