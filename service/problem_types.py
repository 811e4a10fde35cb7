"""The kinds of problem (RFC 9457) and what each refusal of the engines says: no Flask.

``service.problems`` turns a problem into an ``application/problem+json`` response and
installs the app's handlers; this module holds what the in-process library
(``service.engine_api``) shares with it, so that a refusal reads the same in a bot's own
process as over HTTP: the rows of ``PROBLEM_TYPES`` (slug, status, title, when, fix),
``ERROR_TYPES`` (which row each engine exception is), and ``problem_body`` /
``error_members`` (a problem's members in a language, with each clause's text and link).

>>> row, detail, extra = error_members(RuleViolation("RAI-6", N_("the game is over")), "ru")
>>> body = problem_body(row.status or 400, row.slug, row.title, detail, "ru", **extra)
>>> body["type"], body["title"], body["detail"], body["rule"]
('/problems/illegal-action', 'Недопустимое действие', 'игра окончена', 'RAI-6')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service import rules_reference
from service.games.errors import (
    IncompatibleState,
    InvalidName,
    InvalidOptions,
    InvalidSetup,
    InvalidState,
    MalformedInput,
    NoSuchSeat,
    RefereeError,
    RulesChanged,
    RuleViolation,
)
from service.games.kind import ChunkTimeout, UnknownKind
from service.games.messages import N_
from service.i18n import DEFAULT_LANGUAGE, gettext, localize
from service.limits import MAX_ERRORS

#: every problem ``type`` is ``PROBLEM_BASE + slug`` (a path on this server)
PROBLEM_BASE = "/problems/"
PROBLEM_MIME = "application/problem+json"


@dataclass(frozen=True)
class ProblemType:
    """One kind of error: its slug, usual status, title, when it happens and what to do."""

    slug: str
    status: int | None  # None: varies (the problem's own ``status`` says)
    title: str
    when: str
    fix: str

    @property
    def uri(self) -> str:
        return PROBLEM_BASE + self.slug

    def to_json(self, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """The type as ``GET /problems/<slug>`` shows it, its texts in ``language``."""
        return {"type": self.uri, "slug": self.slug, "status": self.status,
                "title": gettext(self.title, language), "when": gettext(self.when, language),
                "fix": gettext(self.fix, language)}


#: every problem type the service answers with, by slug (one row per kind of error)
PROBLEM_TYPES: dict[str, ProblemType] = {t.slug: t for t in (
    # --- requests
    ProblemType("bad-request", 400, N_("Bad request"),
                N_("The HTTP request itself could not be read, e.g. a broken chunked body, or a "
                   "body shorter than its `Content-Length`."),
                N_("Send a well-formed HTTP request; `detail` says what was wrong.")),
    ProblemType("malformed-request", 400, N_("Malformed request"),
                N_("The body is not valid JSON, or does not have the documented shape: a "
                   "missing or unknown field, a wrong type, a list too long. `errors` maps each "
                   "field path (`state.players.0.hand`, or `body`) to its messages."),
                N_("Fix each field named in `errors`; the request schemas are in "
                   "`/openapi.yaml`.")),
    ProblemType("invalid-state", 400, N_("Invalid game state"),
                N_("The game state sent is corrupt: a wrong shape, or a broken invariant (a card "
                   "in two places, a count that does not add up). `errors` names the field."),
                N_("Send back the state exactly as the service returned it; only the engine "
                   "changes a state.")),
    ProblemType("incompatible-state", 400, N_("Incompatible game state"),
                N_("The state was written for another game, another rules version or another "
                   "card set than the one it is sent to; it is refused rather than misread."),
                N_("Send it to the game it belongs to, or start a new game with `new`.")),
    ProblemType("rules-changed", 400, N_("Rules changed since this state"),
                N_("The state was written for an older rules version of the game that this "
                   "service does not carry over: that version has no declared migration, or "
                   "the state is in the middle of a clause that changed. `from_version` and "
                   "`to_version` name the versions, `changed_clauses` the clauses that changed, "
                   "`changes` what each one changed."),
                N_("Finish the game where it was started, or start a new one with `new`; "
                   "`GET /v1/games/{game}` lists the versions served (`rules_versions`).")),
    ProblemType("invalid-options", 400, N_("Invalid game options"),
                N_("An unknown option, a value of the wrong type or out of range, a combination "
                   "the rules do not allow, or a player count the game does not take. `errors` "
                   "names each field; `clauses` links the rule behind an option."),
                N_("See `GET /v1/games/{game}` for the options, their values and player counts.")),
    ProblemType("unsupported-media-type", 415, N_("Unsupported media type"),
                N_("The body is not sent as `application/json` in UTF-8, as is: another "
                   "`Content-Type`, a `charset` other than `utf-8`, or a `Content-Encoding` "
                   "other than `identity` (`errors` names the header)."),
                N_("Send `Content-Type: application/json` (no charset, or `charset=utf-8`) "
                   "and the body uncompressed.")),
    ProblemType("payload-too-large", 413, N_("Request body too large"),
                N_("The body is larger than the service accepts (`MAX_CONTENT_LENGTH`, 1 MiB by "
                   "default)."),
                N_("Send a smaller body; a replay can be checked in parts.")),
    ProblemType("not-found", 404, N_("Not found"),
                N_("No such route, or nothing at that address (a problem type or rules reference "
                   "that does not exist)."),
                N_("Check the path against `/openapi.yaml`.")),
    ProblemType("method-not-allowed", 405, N_("Method not allowed"),
                N_("The path exists but does not take that HTTP method; `Allow` lists the ones "
                   "it does."),
                N_("Use a method from the `Allow` header.")),
    ProblemType("too-many-requests", 429, N_("Too many requests"),
                N_("This client is over its rate limit (configured by the operator)."),
                N_("Wait as long as `Retry-After` says, then retry.")),
    ProblemType("http-error", None, N_("HTTP error"),
                N_("Another HTTP-level error; its `status` and `title` say which."),
                N_("Read `detail`; the request should be changed before it is sent again.")),
    # --- games and rules
    ProblemType("unknown-game", 404, N_("Unknown game"),
                N_("The path names a game the service does not have; `detail` lists the games."),
                N_("Use a game id from `GET /v1/games`.")),
    ProblemType("unknown-card-set", 404, N_("Unknown card set"),
                N_("The game has no card set with that id; `detail` lists its sets."),
                N_("Use a set the game lists, or leave it out for `reference`.")),
    ProblemType("unknown-clause", 404, N_("Unknown clause"),
                N_("The game's rules reference has no clause with that id."),
                N_("List the clauses with `GET /v1/games/{game}/rules`.")),
    ProblemType("illegal-action", 422, N_("Illegal action"),
                N_("The action breaks a rule of the game. `rule` names the clause "
                   "(`RAI-15`), `rule_text` quotes it, `rule_url` links it, `detail` says why in "
                   "one sentence; a replay adds the `index` of the first illegal action."),
                N_("Choose an action from `legal-actions`; the state is unchanged.")),
    ProblemType("invalid-setup", 422, N_("Invalid setup"),
                N_("A player's setup breaks the rules (for example an illegal Kozyablo deck). "
                   "`violations` lists every problem at once, each with its clause (`rule`, "
                   "`rule_text`, `rule_url`)."),
                N_("Fix every listed violation; decks can be checked first with "
                   "`POST /v1/games/kozyablo/decks/validate`.")),
    ProblemType("invalid-tournament", 422, N_("Invalid tournament"),
                N_("The rounds sent to `/v1/tournaments/standings` or `/events` cannot have "
                   "happened: a player who is not in the tournament, plays twice in a round, "
                   "after dropping or before joining; a game that is not finished, was played "
                   "by other players than its match or table, or is counted twice; a table "
                   "size or points list the event cannot have. `errors` names the field."),
                N_("Fix each field named in `errors`; send each finished game once, at the "
                   "match or table of the players who played it.")),
    ProblemType("referee-error", 400, N_("Referee error"),
                N_("An engine refused the request for a reason without a more specific type."),
                N_("Read `detail`.")),
    # --- signed states, access
    ProblemType("unsigned-state", 400, N_("Unsigned state"),
                N_("The service requires signed states (`REFEREE_REQUIRE_SIGNED`, or the request "
                   "header `Referee-Require-Signed: true`) and the state has no `signature`."),
                N_("Send the state with the `signature` the service returned with it.")),
    ProblemType("bad-signature", 403, N_("Bad signature"),
                N_("The state's `signature` does not match the state: it was changed, or signed "
                   "with a key this service does not hold."),
                N_("Send the state exactly as it was returned, signature included.")),
    ProblemType("bad-seal", 403, N_("Bad seal"),
                N_("The sealed state does not open: its public parts or its `sealed` data were "
                   "changed, or it was sealed with a key this service does not hold."),
                N_("Send the sealed state exactly as it was returned.")),
    ProblemType("no-such-seat", 422, N_("No such seat"),
                N_("The request names a seat the game does not have (`player: 3` at a table of "
                   "three), in an action, `player` or `for_player`. `errors` names the field."),
                N_("Seats are numbered from 0 to the number of players less one.")),
    ProblemType("invalid-name", 422, N_("Invalid name"),
                N_("A player's name the service refuses: empty, with spaces at its ends, holding "
                   "an invisible or control character, or the same name as another seat's in "
                   "another spelling (case, width, composition). `errors` names each field."),
                N_("Give each player a visible name of its own; two players whose names differ "
                   "only in case or width are one player.")),
    ProblemType("seat-token-required", 403, N_("Seat token required"),
                N_("The state is sealed, and the request asks for what a seat hides (its view, "
                   "its legal actions, its actions, its events) without that seat's token: "
                   "whoever holds a sealed state sees only what a spectator sees."),
                N_("Send the seat's token (`seat_tokens` of `new` or `replay`) in the "
                   "`Referee-Seat-Token` header; the host sends every seat's, "
                   "comma-separated.")),
    ProblemType("bad-seat-token", 403, N_("Bad seat token"),
                N_("The `Referee-Seat-Token` header holds a token that is not one of this "
                   "game's: altered, another game's, or issued under a key this service does "
                   "not hold."),
                N_("Send the token exactly as `new` or `replay` answered it for this game.")),
    ProblemType("step-spent", 409, N_("Step already played"),
                N_("The state is a step of a sealed game (or of a signed one, where the server "
                   "says so) that was already played with another action: a step answers only "
                   "the first action applied to it, the same action again gets the same answer. "
                   "`game` and `step` name the step."),
                N_("Go on from the state the first action returned; a step cannot be tried "
                   "twice, nor an older state played again.")),
    ProblemType("step-register-unavailable", 503, N_("Step register unavailable"),
                N_("The register of played steps (Redis, or the SQLite file of the embedded "
                   "default) did not answer, so a step of a sealed game cannot be played now; "
                   "nothing was played."),
                N_("Retry after `Retry-After` seconds; the operator should check `GET /readyz`.")),
    ProblemType("unauthorized", 401, N_("API key required"),
                N_("Evaluations need an API key on this server, and none or an unknown one was "
                   "sent."),
                N_("Send `Authorization: Bearer <key>` or `X-API-Key: <key>`.")),
    # --- evaluations
    ProblemType("unknown-evaluation", 404, N_("Unknown evaluation"),
                N_("No evaluation with that id (it never existed, or it expired long ago)."),
                N_("Check the id from the `Location` of the submission.")),
    ProblemType("evaluation-expired", 410, N_("Evaluation expired"),
                N_("The evaluation existed, but its result has expired."),
                N_("Submit it again.")),
    ProblemType("evaluation-over", 409, N_("Evaluation already over"),
                N_("Cancelling an evaluation that has already finished or failed."),
                N_("Nothing to do; read its result with `GET`.")),
    ProblemType("unknown-evaluation-kind", 400, N_("Unknown evaluation kind"),
                N_("No evaluation kind of that name, or not for that game."),
                N_("See `GET /v1/evaluations/kinds`.")),
    ProblemType("idempotency-key-reused", 422, N_("Idempotency key reused"),
                N_("The `Idempotency-Key` of this `POST /v1/evaluations` already made an "
                   "evaluation of another request body (the same key and the same body "
                   "answer that evaluation again)."),
                N_("Send a new key for a new evaluation; to get the first one's, send its "
                   "body again, or poll the `Location` it answered.")),
    ProblemType("evaluations-busy", 503, N_("Too many evaluations"),
                N_("The service holds as many unfinished evaluations as it can."),
                N_("Retry after `Retry-After` seconds.")),
    ProblemType("evaluation-backend-unavailable", 503, N_("Evaluation backend unavailable"),
                N_("The queue (Redis) behind evaluations cannot be reached."),
                N_("Retry later; the operator should check `GET /readyz`.")),
    ProblemType("evaluation-failed", 500, N_("Evaluation failed"),
                N_("An evaluation failed while it ran (reported in its `error`, not as the "
                   "response's status)."),
                N_("Read `detail`; submit again if it was a passing failure.")),
    ProblemType("evaluation-timeout", 500, N_("Evaluation timed out"),
                N_("A part of an evaluation ran longer than its time limit."),
                N_("Ask for less work (fewer playouts), or submit again.")),
    # --- the service
    ProblemType("not-ready", 503, N_("Service not ready"),
                N_("The service is not ready: card data not loaded, or Redis unreachable."),
                N_("Retry later; `GET /readyz` says which check fails.")),
    ProblemType("internal-error", 500, N_("Internal server error"),
                N_("The service failed to handle the request: a bug, never bad input. It has "
                   "been logged with the request id (`instance`)."),
                N_("Report it with the `X-Request-Id`; retrying will not help.")),
)}


def problem_type(slug: str) -> str:
    """The ``type`` URI of a slug.

    >>> problem_type("illegal-action")
    '/problems/illegal-action'
    """
    return PROBLEM_BASE + slug


#: the problem type of each exception the engines and the evaluations raise on
#: purpose: the engines name what went wrong, this table what HTTP says about it
#: (the nearest class in the exception's MRO decides)
ERROR_TYPES: dict[type[Exception], str] = {
    RuleViolation: "illegal-action",
    InvalidSetup: "invalid-setup",
    InvalidState: "invalid-state",
    NoSuchSeat: "no-such-seat",
    InvalidName: "invalid-name",
    RulesChanged: "rules-changed",
    IncompatibleState: "incompatible-state",
    InvalidOptions: "invalid-options",
    UnknownKind: "unknown-evaluation-kind",
    MalformedInput: "malformed-request",
    RefereeError: "referee-error",
    ChunkTimeout: "evaluation-timeout",
}


def type_of(exc: BaseException) -> ProblemType | None:
    """The problem type of an exception (``ERROR_TYPES``), ``None`` for any other.

    >>> type_of(RuleViolation("RAI-15", "no")).slug, type_of(InvalidState({"x": ["bad"]})).status
    ('illegal-action', 400)
    >>> type_of(KeyError("x")) is None
    True
    """
    for cls in type(exc).__mro__:
        slug = ERROR_TYPES.get(cls)
        if slug is not None:
            return PROBLEM_TYPES[slug]
    return None


def rule_links(clause_id: object, language: str) -> dict[str, Any]:
    """``{rule_text, rule_url}`` of a clause, or ``{}`` when no reference has it."""
    if not isinstance(clause_id, str):
        return {}
    found = rules_reference.short_text(clause_id, language)
    if found is None:
        return {}
    return {"rule_text": found[0], "rule_url": found[1]}


def with_rule_links(body: dict[str, Any], language: str) -> bool:
    """Add ``rule_text``/``rule_url`` wherever ``body`` names a clause (in place).

    True if any clause was found in the reference.
    """
    found = False
    if "rule" in body:
        links = rule_links(body["rule"], language)
        body.update(links)
        found = bool(links)
    violations = body.get("violations")
    if isinstance(violations, list):
        linked = []
        for v in violations:
            links = rule_links(v.get("rule"), language) if isinstance(v, dict) else {}
            linked.append({**v, **links} if links else v)
            found = found or bool(links)
        body["violations"] = linked
    return found


def option_clauses(errors: dict[str, Any], language: str, game_id: str | None) -> dict[str, Any]:
    """``{"options.teams": {rule, rule_text, rule_url}}`` for each option error whose
    option of game ``game_id`` names its clause."""
    if not game_id:
        return {}
    from service.games import registry

    try:
        declared = {o.name: o for o in registry.get_game(game_id).game_options}
    except (registry.UnknownGame, AttributeError):
        return {}
    out = {}
    for path in errors:
        name = path.removeprefix("options.")
        clause = getattr(declared.get(name), "clause", None) if name != path else None
        if clause:
            out[path] = {"rule": clause, **rule_links(clause, language)}
    return out


def error_members(exc: RefereeError, language: str, game_id: str | None = None
                  ) -> tuple[ProblemType, str, dict[str, Any]]:
    """The problem of an engine error: its row, its ``detail`` and its own members
    (``rule`` and ``index``, ``errors``, ``violations``, the versions of a rules change,
    the clauses of options of game ``game_id``); the messages still ``N_`` ones, for
    ``problem_body`` to render in ``language``."""
    extra: dict[str, Any] = {}
    if isinstance(exc, RuleViolation):
        extra["rule"] = exc.rule
        if exc.index is not None:
            extra["index"] = exc.index
        detail = exc.reason
    elif isinstance(exc, MalformedInput):
        extra["errors"] = capped(exc.errors)
        detail = exc.detail
        if isinstance(exc, RulesChanged):
            extra.update(from_version=exc.source, to_version=exc.target,
                         changed_clauses=exc.clauses,
                         changes=localized_changes(exc.changes, language))
        if isinstance(exc, InvalidOptions):
            clauses = option_clauses(extra["errors"], language, game_id)
            if clauses:
                extra["clauses"] = clauses
    elif isinstance(exc, InvalidSetup):
        extra["violations"] = exc.violations
        detail = exc.detail
    else:
        detail = str(exc)
    return type_of(exc) or PROBLEM_TYPES["referee-error"], detail, extra


def problem_body(status: int, slug: str, title: str, detail: str, language: str,
                 instance: str | None = None, **extra: Any) -> dict[str, Any]:
    """A problem's members in ``language``: ``type``, ``title``, ``status``, ``detail``
    (``instance`` when given), then ``extra`` (``rule``, ``errors``…); every ``N_``
    message rendered, and each clause named with its text and link (``with_rule_links``).

    >>> problem_body(422, "no-such-seat", "No such seat", N_("player: {m}", m="x"), "en",
    ...              errors={"player": ["x"]})["errors"]
    {'player': ['x']}
    """
    body: dict[str, Any] = {"type": problem_type(slug), "title": gettext(title, language),
                            "status": status, "detail": detail}
    if instance:
        body["instance"] = instance
    body.update(extra)
    body = localize(body, language)
    if isinstance(body.get("errors"), dict):  # plain messages (shape_1_0's) are msgids
        body["errors"] = {path: [gettext(m, language) if isinstance(m, str) else m for m in found]
                          for path, found in body["errors"].items()}
    with_rule_links(body, language)
    return body


def localized_changes(changes: list[dict[str, Any]], language: str) -> list[dict[str, Any]]:
    """Declared rules changes (``Change.describe``) with ``summary`` in ``language``.

    >>> localized_changes([{"clause": "X-1", "subject": "rule", "summary": {"en": "a", "ru": "б"}}], "ru")
    [{'clause': 'X-1', 'subject': 'rule', 'summary': 'б'}]
    """
    return [{**c, "summary": c["summary"].get(language, c["summary"]["en"])} for c in changes]


def capped(errors: dict[str, list[str]], limit: int = MAX_ERRORS) -> dict[str, list[str]]:
    """At most ``limit`` field paths, so a body with 100 000 bad keys gets a short answer.

    >>> capped({f"o{i}": ["bad"] for i in range(60)}, 2)
    {'o0': ['bad'], 'o1': ['bad'], '…': ['and 58 more fields']}
    """
    if len(errors) <= limit:
        return errors
    kept = dict(list(errors.items())[:limit])
    kept["…"] = [N_("and {count} more fields", count=len(errors) - limit)]
    return kept

