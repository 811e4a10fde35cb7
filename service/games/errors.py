"""The engine's error taxonomy: four exceptions, each with one HTTP meaning.

Engines raise these; the HTTP layer (``service.problems``) maps each to an
``application/problem+json`` response.  Nothing here knows about Flask.

>>> try:
...     raise RuleViolation("RAI-15", "you already control that property")
... except RuleViolation as exc:
...     exc.rule, str(exc)
('RAI-15', 'RAI-15: you already control that property')
"""

from __future__ import annotations

from service.games.messages import N_, join_messages


class RefereeError(Exception):
    """Base of every error an engine raises on purpose."""

    #: short, stable problem type slug (its ``type`` is ``/problems/<slug>``)
    slug = "referee-error"
    title = "Referee error"
    status = 400


class RuleViolation(RefereeError):
    """An action that the rules forbid (HTTP 422).

    ``rule`` is the clause id the action breaks (``RAI-15``) and ``reason`` one
    sentence saying why (an ``N_`` message, so the HTTP layer can translate it).
    ``index`` is set by replay to the failing step.
    """

    slug = "illegal-action"
    title = "Illegal action"
    status = 422

    def __init__(self, rule: str, reason: str, index: int | None = None):
        super().__init__(f"{rule}: {reason}")
        self.rule = rule
        self.reason = reason
        self.index = index


class MalformedInput(RefereeError):
    """Input that does not have the documented shape (HTTP 400).

    ``errors`` maps a field path (``state.players.0.hand``) to messages, the
    same form marshmallow uses, so clients handle one format.
    """

    slug = "malformed-request"
    title = "Malformed request"
    status = 400

    def __init__(self, errors: dict[str, list[str]], detail: str | None = None):
        self.errors = errors
        first = next(iter(errors.items()), ("", ["invalid"]))
        self.detail = detail or N_("{path}: {message}", path=first[0] or "body",
                                   message=first[1][0])
        super().__init__(self.detail)


class InvalidState(MalformedInput):
    """A game state that is corrupt: wrong shape or a broken invariant (400)."""

    slug = "invalid-state"
    title = "Invalid game state"


class IncompatibleState(MalformedInput):
    """A state written for another game, rules version or card set (400)."""

    slug = "incompatible-state"
    title = "Incompatible game state"


class InvalidOptions(MalformedInput):
    """Unknown options, bad values, or a player count the game does not allow."""

    slug = "invalid-options"
    title = "Invalid game options"


class InvalidSetup(RefereeError):
    """A per-player setup the rules forbid, e.g. an illegal deck (HTTP 422).

    ``violations`` lists every problem at once, each ``{rule, reason, ...}``.
    """

    slug = "invalid-setup"
    title = "Invalid setup"
    status = 422

    def __init__(self, violations: list[dict]):
        self.violations = violations
        each = [N_("{rule}: {reason}", rule=v["rule"], reason=v["reason"]) for v in violations]
        self.detail = N_("{count} setup violation(s): {violations}", count=len(violations),
                         violations=join_messages(each))
        super().__init__(self.detail)


def errors_at(path: str, message: str) -> dict[str, list[str]]:
    """One-entry error map, the form every ``MalformedInput`` carries."""
    return {path: [message]}
