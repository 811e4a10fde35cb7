"""The engine's error taxonomy: precise exceptions, no HTTP in them.

Engines raise these; the HTTP layer maps each class to a problem type
(``service.problem_types.ERROR_TYPES``: its slug, status and title) and an
``application/problem+json`` response.  Nothing here knows about HTTP.

>>> try:
...     raise RuleViolation("RAI-15", "you already control that property")
... except RuleViolation as exc:
...     exc.rule, str(exc)
('RAI-15', 'RAI-15: you already control that property')
"""

from __future__ import annotations

from service.games.messages import N_, join_messages
from service.games.objects import Errors, JsonObject


class RefereeError(Exception):
    """Base of every error an engine raises on purpose."""


class RuleViolation(RefereeError):
    """An action that the rules forbid.

    ``rule`` is the clause id the action breaks (``RAI-15``) and ``reason`` one
    sentence saying why (an ``N_`` message, so the HTTP layer can translate it).
    ``index`` is set by replay to the failing step.
    """

    def __init__(self, rule: str, reason: str, index: int | None = None):
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason
        self.index = index


class MalformedInput(RefereeError):
    """Input that does not have the documented shape.

    ``errors`` maps a field path (``state.players.0.hand``) to messages, the
    same form marshmallow uses, so clients handle one format.
    """

    def __init__(self, errors: Errors, detail: str | None = None):
        self.errors = errors
        first = next(iter(errors.items()), ("", ["invalid"]))
        self.detail = detail or N_("{path}: {message}", path=first[0] or "body",
                                   message=first[1][0])
        super().__init__(self.detail)


class NoSuchSeat(MalformedInput):
    """A seat the game does not have (``player: 3`` at a table of three).  Well-formed, and
    only the state knows how many seats there are: a 422 (``no-such-seat``), the same from
    every route and field that names a seat."""


class InvalidName(MalformedInput):
    """A player's name refused (``service.names``): invisible, blank-edged, or another
    seat's in another spelling.  Well-formed JSON the rules of names refuse: a 422
    (``invalid-name``)."""


class InvalidState(MalformedInput):
    """A game state that is corrupt: wrong shape or a broken invariant."""


class IncompatibleState(MalformedInput):
    """A state written for another game, rules version or card set."""


class RulesChanged(IncompatibleState):
    """A state of an older rules version that is not upgraded: the step has no declared
    migration, or the state is in the middle of a clause that changed.  Names the
    versions and the clauses that changed between them (``service.games.versions``)."""

    def __init__(self, errors: Errors, source: str, target: str,
                 clauses: list[str], changes: list[JsonObject]):
        super().__init__(errors)
        self.source, self.target = source, target
        self.clauses, self.changes = clauses, changes


class InvalidOptions(MalformedInput):
    """Unknown options, bad values, or a player count the game does not allow."""


class InvalidSetup(RefereeError):
    """A per-player setup the rules forbid, e.g. an illegal deck.

    ``violations`` lists every problem at once, each ``{rule, reason, ...}``.
    """

    def __init__(self, violations: list[JsonObject]):
        self.violations = violations
        each = [N_("{rule}: {reason}", rule=v["rule"], reason=v["reason"]) for v in violations]
        self.detail = N_("{count} setup violation(s): {violations}", count=len(violations),
                         violations=join_messages(each))
        super().__init__(self.detail)
