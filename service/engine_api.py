"""The rules in-process: the engines' public Python API, with the checks and refusals of HTTP.

A bot, a tournament tool or a notebook plays a game in its own process, without a server,
through one ``Referee`` per game.  Its methods are the HTTP contract's
(``POST /v1/games/{game}/<verb>``, ``service.http.games``), taking the same fields as
keyword arguments and answering the same JSON objects: ``new``, ``legal_actions``,
``apply``, ``check``, ``score``, ``view``, ``replay`` (and ``describe``).  The same
rules version plays (``Referee.rules_version``), each request goes through the same checks
— the request envelope's shape (``schemas.envelopes``), ``Game.validate_state`` (once per
state: ``service.valid_states``, shared with HTTP), the seats, the players' names — and
a state of an older served rules version is upgraded on read, the answer saying so in
``rules_upgrade`` as over HTTP.  ``docs/library.md`` is the guide.

>>> referee = Referee("raiders")
>>> state = referee.new(2, options={"turn_limit": 6}, seed=7)["state"]
>>> listed = referee.legal_actions(state)
>>> listed["pending"]
[{'player': 0, 'decision': 'turn'}]
>>> after = referee.apply(state, listed["actions"][0])
>>> sorted(after), after["outcome"]["finished"]
(['events', 'outcome', 'state'], False)

A refusal is a ``Refused`` exception (``IllegalAction`` for an action the rules forbid),
carrying what the HTTP problem+json carries — its ``type``, ``status``, ``rule`` (the
clause), ``errors`` (field → messages) — and ``problem(language)``, the problem's
members in English or Russian, the same texts HTTP answers:

>>> try:
...     referee.apply(state, {"type": "pass", "player": 1})
... except IllegalAction as exc:
...     print(exc.rule, exc.status, exc.problem("ru")["title"])
RAI-5a 422 Недопустимое действие
>>> try:
...     referee.view(state, 5)
... except Refused as exc:
...     print(exc.slug, exc.errors)
no-such-seat {'player': ['no seat 5: this game has seats 0 to 1']}

What HTTP adds for trust between parties that do not trust each other is left out here —
signatures, sealed states, seat tokens, the register of spent steps: this library is the
referee of a bot's own process, which holds every state it plays.  A state that came
signed or sealed from a server is refused (send the plain state).  Views in place of states
(``{view}`` requests) and the ``suggest`` search are HTTP's for now.

No Flask: ``tests/shared/test_engine_api.py`` imports this module in a fresh interpreter
and finds no ``flask`` in ``sys.modules``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, cast

from schemas import envelopes
from service import names, valid_states
from service.games import registry
from service.games.base import AnyGame, GameState, StateIn
from service.games.chance import CHANCE
from service.games.errors import NoSuchSeat, RefereeError
from service.games.messages import N_, joined
from service.games.objects import JsonObject
from service.games.replay import replay as replay_game
from service.i18n import DEFAULT_LANGUAGE, LANGUAGES, localize
from service.problem_types import (
    PROBLEM_TYPES,
    ProblemType,
    error_members,
    localized_changes,
    problem_body,
)

__all__ = ["IllegalAction", "Refused", "Referee", "check_seat", "find_game", "listed",
           "refusal", "replay_note", "upgrade_notice"]

#: ``{"en": …, "ru": …}``: every language a refusal reads in
Texts = dict[str, str]


class Refused(Exception):
    """A request the referee refuses: what HTTP answers as ``application/problem+json``.

    ``slug`` is the problem type's (``type`` = ``/problems/<slug>``, a row of
    ``service.problem_types.PROBLEM_TYPES``), ``status`` the HTTP status it would have;
    ``members`` the problem's own members (``rule`` and ``index``, ``errors``,
    ``violations``…) with their messages as the engines wrote them.  The engine's exception,
    when there is one, is ``__cause__``.
    """

    def __init__(self, row: ProblemType, detail: str, members: Mapping[str, Any],
                 status: int | None = None, game_id: str | None = None) -> None:
        super().__init__(f"{members['rule']}: {detail}" if "rule" in members else detail)
        self.row, self.detail, self.members = row, detail, dict(members)
        self.status = status or row.status or 400
        self.game_id = game_id

    @property
    def slug(self) -> str:
        return self.row.slug

    @property
    def type(self) -> str:
        return self.row.uri

    @property
    def rule(self) -> str | None:
        """The clause an illegal action breaks (``RAI-15``), else ``None``."""
        found = self.members.get("rule")
        return found if isinstance(found, str) else None

    @property
    def index(self) -> int | None:
        """In a replay: the index of the first illegal (or malformed) action."""
        found = self.members.get("index")
        return found if isinstance(found, int) else None

    @property
    def errors(self) -> dict[str, list[str]]:
        """Field path (``action.card``, ``state.turn``) → messages; ``{}`` when none."""
        found = self.members.get("errors")
        return dict(found) if isinstance(found, dict) else {}

    def problem(self, language: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """The problem's members as HTTP answers them in ``language`` (``en`` or ``ru``):
        ``type``, ``title``, ``status``, ``detail`` and the rest, each clause with its
        ``rule_text`` and ``rule_url`` (only ``instance``, the HTTP request's id, is not
        here)."""
        return problem_body(self.status, self.slug, self.row.title, self.detail,
                            _language(language), **self._members(language))

    def texts(self) -> Texts:
        """``detail`` in every language: ``{"en": …, "ru": …}``."""
        return {language: self.problem(language)["detail"] for language in LANGUAGES}

    def _members(self, language: str) -> dict[str, Any]:
        cause = self.__cause__
        if isinstance(cause, RefereeError) and language != DEFAULT_LANGUAGE:
            # some members are rendered per language (a rules change's summaries)
            return error_members(cause, _language(language), self.game_id)[2]
        return self.members


class IllegalAction(Refused):
    """An action the rules forbid (``illegal-action``, 422): ``rule`` names the clause,
    ``detail`` says why; in a replay ``index`` is the step."""


def _language(language: str) -> str:
    if language not in LANGUAGES:
        raise ValueError(f"language {language!r}: one of {', '.join(LANGUAGES)}")
    return language


def refusal(exc: RefereeError, game_id: str | None = None) -> Refused:
    """The ``Refused`` (``IllegalAction`` for ``illegal-action``) of an engine error."""
    row, detail, members = error_members(exc, DEFAULT_LANGUAGE, game_id)
    kind = IllegalAction if row.slug == "illegal-action" else Refused
    refused = kind(row, detail, members, game_id=game_id)
    refused.__cause__ = exc
    return refused


@contextmanager
def refusals(game_id: str | None) -> Iterator[None]:
    """Every engine error raised inside as its ``Refused``."""
    try:
        yield
    except RefereeError as exc:
        raise refusal(exc, game_id) from exc


def find_game(game_id: str) -> AnyGame:
    """The engine of ``game_id``; ``Refused`` ``unknown-game`` (404) naming the games."""
    try:
        return registry.get_game(game_id)
    except registry.UnknownGame:
        raise Refused(PROBLEM_TYPES["unknown-game"],
                      N_("no game {game!r}; games: {items}", game=game_id,
                         items=joined(registry.GAME_IDS)), {}) from None


# ------------------------------------------------ the answers HTTP shares
def check_seat(state: GameState, player: object, field: str = "player") -> None:
    """``NoSuchSeat`` (422 ``no-such-seat``) at ``field`` when ``player`` is a seat number
    the state does not have (``chance``, ``None`` and the envelope's other values pass)."""
    if isinstance(player, int) and player >= len(state["players"]):
        raise NoSuchSeat({field: [N_("no seat {player}: this game has seats 0 to {last}",
                                         player=player, last=len(state["players"]) - 1)]})


def listed(game: AnyGame, state: StateIn, player: int | str | None) -> JsonObject:
    """``{pending, actions, constraints?}`` of ``state`` for ``player`` (``None``: everyone):
    the answer of ``legal-actions``."""
    pending = game.pending(state)
    out: JsonObject = {"pending": pending, "actions": game.legal_actions(state, player)}
    constraints = {}
    for entry in pending:
        seat = entry["player"]
        if seat == CHANCE or (player is not None and seat != player):
            continue
        found = game.constraints(state, seat)
        if found is not None:
            constraints[str(seat)] = found
    if constraints:
        out["constraints"] = constraints
    return out


def upgrade_notice(game: AnyGame, note: Mapping[str, Any], language: str) -> JsonObject:
    """``rules_upgrade`` of an answer about a state carried over from an older rules
    version: ``{from, to, clauses, changes}``, each change's summary in ``language``."""
    ids = [v.id for v in game.rules_versions]
    steps = game.rules_versions[ids.index(note["from"]) + 1:]
    changes = [c.describe() for step in steps for c in step.changes]
    return {**note, "changes": localized_changes(changes, language)}


def replay_note(game: AnyGame, recorded: object) -> JsonObject | None:
    """The upgrade note (``{from, to, clauses}``) of a replay whose actions were recorded
    under the older served version ``recorded``; ``None`` when it is today's."""
    if recorded in (None, game.rules_version):
        return None
    clauses = list(dict.fromkeys(c.clause for step in game.upgrade_steps(str(recorded), "")
                                 for c in step.changes if c.clause))
    return {"from": recorded, "to": game.rules_version, "clauses": clauses}


# ------------------------------------------------------------ the referee
class Referee:
    """One game's rules, in process: each method is the HTTP operation of the same name
    (``legal_actions`` is ``legal-actions``), the same checks, the same answer."""

    def __init__(self, game: str) -> None:
        self.game = find_game(game)

    @property
    def id(self) -> str:
        return self.game.id

    @property
    def rules_version(self) -> str:
        """The rules version played (``GET /v1/games/{game}``'s ``rules_version``)."""
        return self.game.rules_version

    def describe(self) -> JsonObject:
        """Player counts, options with defaults, action and event types, rules versions."""
        return self.game.describe()

    def new(self, players: int | list[JsonObject], *, options: JsonObject | None = None,
            seed: int | None = None, card_set: str = "reference") -> JsonObject:
        """A new game after setup → ``{state, events}``.  ``players``: a count or a setup per
        player (``{"name": "Ann"}``; a Kozyablo deck); ``seed``: the same seed and actions
        give the same game (random when ``None``)."""
        with refusals(self.id):
            body = envelopes.NEW.load({"players": players, "options": options,
                                       "seed": seed, "card_set": card_set})
            state, events = self.game.new_game(names.seated(body["players"]), body["options"],
                                               body["seed"], body["card_set"])
            names.check_seats(state["players"], "players")
            valid_states.KNOWN.remember(self.game, state)
        return {"state": state, "events": events}

    def legal_actions(self, state: Mapping[str, Any], player: int | str | None = None
                      ) -> JsonObject:
        """Who must decide and every legal action → ``{pending, actions, constraints?}``;
        ``player``: only that seat's (or ``"chance"``'s) actions.  Each action can be sent
        to ``apply`` as it is."""
        with refusals(self.id):
            body = envelopes.LEGAL_ACTIONS.load({"state": state, "player": player})
            valid, note = self._state(body["state"])
            check_seat(valid, body["player"])
            return self._noted(listed(self.game, valid, body["player"]), note)

    def apply(self, state: Mapping[str, Any], action: Mapping[str, Any]) -> JsonObject:
        """Apply an action → ``{state, events, outcome}``; the state given is not changed.
        An action the rules forbid: ``IllegalAction`` naming its clause."""
        with refusals(self.id):
            body = envelopes.APPLY.load({"state": state, "action": action})
            valid, note = self._state(body["state"])
            after, events = self.game.apply(valid, body["action"])
            valid_states.KNOWN.remember(self.game, after)
            return self._noted({"state": after, "events": events,
                                "outcome": self.game.score(after)}, note)

    def check(self, state: Mapping[str, Any], action: Mapping[str, Any], *,
              language: str = DEFAULT_LANGUAGE) -> JsonObject:
        """Whether an action is legal, without applying it → ``{legal, rule?, reason?}``
        (``reason`` in ``language``: ``en`` or ``ru``)."""
        with refusals(self.id):
            body = envelopes.CHECK.load({"state": state, "action": action})
            valid, note = self._state(body["state"])
            answer = self._noted(self.game.check(valid, body["action"]), note, language)
        return cast(JsonObject, localize(answer, _language(language)))

    def score(self, state: Mapping[str, Any]) -> JsonObject:
        """The outcome → ``{finished, winners, scores}``, each player's breakdown."""
        with refusals(self.id):
            body = envelopes.SCORE.load({"state": state})
            valid, note = self._state(body["state"])
            return self._noted(self.game.score(valid), note)

    def view(self, state: Mapping[str, Any], player: int | None) -> JsonObject:
        """The state as ``player`` may see it (``None``: a spectator) → ``{view}``."""
        with refusals(self.id):
            body = envelopes.VIEW.load({"state": state, "player": player})
            valid, note = self._state(body["state"])
            check_seat(valid, body["player"])
            return self._noted({"view": self.game.view(valid, body["player"])}, note)

    def replay(self, setup: Mapping[str, Any], actions: list[JsonObject], *,
               rules_version: str | None = None) -> JsonObject:
        """Re-run a recorded game → ``{state, outcome, events}`` (``events``: per step,
        ``{index, events}``, the setup's first).  The first illegal action: ``IllegalAction``
        with its ``index``.  ``rules_version``: the version the actions were recorded
        under, when an older served one (its actions are carried over)."""
        with refusals(self.id):
            body = envelopes.REPLAY.load({"setup": setup, "actions": actions,
                                          "rules_version": rules_version})
            setup_in = {**body["setup"], "players": names.seated(body["setup"]["players"])}

            def observe(before: GameState | None, after: GameState, events: object) -> None:
                if before is None:
                    names.check_seats(after["players"], "setup.players")

            out = replay_game(self.game, setup_in, body["actions"], observe=observe,
                              rules_version=body["rules_version"])
            valid_states.KNOWN.remember(self.game, out["state"])
            return self._noted(out, replay_note(self.game, body["rules_version"]))

    # ---------------------------------------------------------------- inside
    def _state(self, state: object) -> tuple[GameState, JsonObject | None]:
        """The state of a request, carried over to today's rules when of an older served
        version (and the note saying so), once known valid."""
        upgraded, note = self.game.upgrade_state(state)
        valid_states.KNOWN.validate(self.game, upgraded)
        return cast(GameState, upgraded), note  # validated just now: a state of this game

    def _noted(self, answer: JsonObject, note: JsonObject | None,
               language: str = DEFAULT_LANGUAGE) -> JsonObject:
        if note is not None:
            answer = {**answer, "rules_upgrade": upgrade_notice(self.game, note, language)}
        return answer

