"""``/v1/games/...``: the engine contract over HTTP, generic over every game.

No route knows a particular game: each looks the game up in
``service.games.registry`` and calls the contract methods of ``Game``.
Every state in a request goes through ``game.validate_state`` before use,
once per process for the same state (``service.valid_states``: the digests
of states already checked or returned by the engine); the engine never
mutates it, and no game is kept between calls.

Language (``service.i18n``, ``docs/i18n.md``): ``check``'s ``reason`` and every
problem come in the request's ``Accept-Language`` (``en`` default, ``ru``); the
card listing adds ``display_name`` (the card's ``name`` in that language) to
each card with an ``{en, ru}`` name.  Such answers carry ``Content-Language``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any, TypeVar, cast

import orjson
from flask import Response, current_app, g, request

import card_db
from schemas import envelopes
from schemas.document import EXAMPLE_SEED
from service import names, seats, signing, spent_steps, transcripts, valid_states
from service.cards import QUERY_KEYS, filterable_fields, matches, split_card_data, with_display_name
from service.engine_api import (
    Refused,
    check_seat,
    find_game,
    listed,
    replay_note,
    upgrade_notice,
)
from service.evaluations.suggest import suggest_now
from service.games import registry
from service.games.base import AnyGame, GameState, view_marker
from service.games.chance import CHANCE
from service.games.errors import InvalidState, MalformedInput, RefereeError, RulesChanged
from service.games.messages import N_, joined
from service.games.objects import Event
from service.games.replay import replay as replay_game
from service.http.body import json_response, read_envelope
from service.http.route import (
    GAME,
    POST_ERRORS,
    REQUIRE_SIGNED,
    SEAT_TOKEN,
    STATE_ERRORS,
    Contract,
    MidGame,
    Param,
    Route,
    Routes,
    Success,
    statuses,
)
from service.i18n import localize, mark_language, request_language
from service.previews import previews
from service.problems import ProblemError
from service.redaction import ReplayRedaction, events_for

bp = Routes("games", __name__)

NEW, LEGAL_ACTIONS, APPLY = envelopes.NEW, envelopes.LEGAL_ACTIONS, envelopes.APPLY
CHECK, SCORE, VIEW, REPLAY = envelopes.CHECK, envelopes.SCORE, envelopes.VIEW, envelopes.REPLAY
SUGGEST = envelopes.SUGGEST

def game_or_404(game_id: str) -> AnyGame:
    try:
        return find_game(game_id)
    except Refused as exc:
        raise ProblemError(exc.status, exc.slug, exc.row.title, exc.detail) from None


def localized_json(payload: dict[str, Any]) -> Response:
    """A JSON reply whose messages (``reason``…) are in the request's language, saying which
    in ``Content-Language``."""
    language = request_language()
    return mark_language(json_response(localize(payload, language)), language)


def _valid_state(game: AnyGame, body: dict[str, Any]) -> GameState:
    def valid() -> GameState:
        state = upgraded(game, signing.accept(body["state"]))
        valid_states.KNOWN.validate(game, state)
        return cast(GameState, state)  # validated just now: a state of this game
    return prepared(game, body["state"], valid)


#: a batch's memo (``service.http.batch``, ``sharing``): the states (and views) its items
#: sent, each read once — by ``id``, the one object a shared ``state`` is in every item.
#: A context variable, not ``g``: it is read once per item, and ``g`` costs a proxy lookup
_PREPARED: ContextVar[dict[tuple[int, str], tuple[object, Any, Any, BaseException | None]]
                      | None] = ContextVar("prepared_states", default=None)
T = TypeVar("T")


@contextlib.contextmanager
def sharing() -> Iterator[None]:
    """Within it (a batch's items), ``prepared`` reads each state or view sent once."""
    token = _PREPARED.set({})
    try:
        yield
    finally:
        _PREPARED.reset(token)


def prepared(game: AnyGame, sent: object, prepare: Callable[[], T]) -> T:
    """``prepare()`` of the state or view ``sent``; in a batch (``sharing``), once per object
    sent: the items after the first get the same result (or the same refusal) and the same
    ``rules_upgrade`` note, as if each had sent it alone."""
    memo = _PREPARED.get()
    if memo is None:
        return prepare()
    key = (id(sent), game.id)
    found = memo.get(key)
    if found is None or found[0] is not sent:
        notes = g._get_current_object()  # the proxied g
        notes.pop("rules_upgrade", None)
        try:
            found = (sent, prepare(), notes.get("rules_upgrade"), None)
        except (RefereeError, ProblemError) as exc:
            found = (sent, None, notes.get("rules_upgrade"), exc)
        memo[key] = found
    _, result, note, refused = found
    if note is not None:
        g.rules_upgrade = note
    if refused is not None:
        raise refused
    return cast(T, result)


#: the response header that says a state was carried over from an older rules version
UPGRADE_HEADER = "Referee-Rules-Upgraded"


def upgraded(game: AnyGame, state: object) -> object:
    """``state``, carried over to the rules this service plays when it is of an older
    served version (``Game.upgrade_state``); the answer then says so (``_say_upgraded``)."""
    state, note = game.upgrade_state(state)
    if note is not None:
        g.rules_upgrade = (game, note)
    return state


def check_seat_names(state: GameState, path: str) -> None:
    """422 ``invalid-name`` at ``<path>.<seat>.name`` when a seat's name is invisible,
    blank-edged or another seat's in another spelling (``service.names``).  The names
    are the game's record of who sat where: the signature or seal covers them, and the
    tournament standings check them (``docs/trust.md``).  Asked after the game's own
    setup rules, which speak first."""
    names.check_seats(state["players"], path)


@bp.after_request
def _say_upgraded(response: Response) -> Response:
    """An answer about a state of an older rules version says it was upgraded: the header
    ``Referee-Rules-Upgraded: <from> -> <to>; clauses=<ids>`` and, in a JSON object answer,
    ``rules_upgrade: {from, to, clauses, changes}`` (each change's summary in the
    request's language)."""
    found = g.pop("rules_upgrade", None)
    if found is None:
        return response
    game, note = found
    response.headers[UPGRADE_HEADER] = (f"{note['from']} -> {note['to']}; "
                                        f"clauses={','.join(note['clauses'])}")
    if response.status_code == 200 and response.mimetype == "application/json":
        body = orjson.loads(response.get_data())
        if isinstance(body, dict):
            body["rules_upgrade"] = upgrade_notice(game, note, request_language())
            response.set_data(orjson.dumps(body))
    return response


# ------------------------------------------------------------------- reads
@bp.declare("get", "/v1/games", operation_id="list_games", summary="List the games",
            tags=("games",), cacheable=True,
            answers={200: Success("Every game.", schema="GameList",
                                 example=lambda: {"games": [g.describe()
                                                            for g in registry.all_games()]})},
            errors=(405, 500))
def list_games() -> Response:
    """Every game: player counts, options with defaults, action and event types."""
    return json_response({"games": [g.describe() for g in registry.all_games()]})


@bp.declare("get", "/v1/games/{game}", operation_id="describe_game", summary="Describe a game",
            tags=("games",), parameters=(GAME,), cacheable=True,
            answers={200: Success("Player counts, options with defaults, action and event types.",
                                 schema="GameInfo",
                                 example=lambda: next((g.describe() for g in
                                                       registry.all_games()), None))},
            errors=(404, 405, 500))
def describe_game(game_id: str) -> Response:
    return json_response(game_or_404(game_id).describe())


CARD_FILTERS = Param("filters", {
    "name": "filters", "in": "query", "style": "form", "explode": True,
    "schema": {"type": "object", "additionalProperties": {"type": "string"}},
    "description": "Any top-level scalar card field, e.g. `?suit=H&rank=Q`; repeat a "
                   "field to accept several values. An unknown field → 400."})


@bp.declare("get", "/v1/games/{game}/cards", operation_id="list_cards",
            summary="The card set, filterable", tags=("games",), cacheable=True,
            description="Filters compare the field's text (`true`/`false` for booleans).",
            parameters=(GAME, Param("set", {
                "name": "set", "in": "query", "schema": {"type": "string", "default": "reference"},
                "description": "Card set id."}), Param("q", {
                    "name": "q", "in": "query", "schema": {"type": "string"},
                    "description": "Substring of the card's Russian or English name "
                                   "(case-insensitive)."}), CARD_FILTERS),
            answers={200: Success("The set's cards by group, filtered.", schema="CardsResponse")},
            errors=(400, 404, 405, 500))
def cards(game_id: str) -> Response:
    """The card set (``?set=``), filtered by card fields and ``?q=`` (names)."""
    game = game_or_404(game_id)
    set_id = request.args.get("set", "reference")
    try:
        card_set = card_db.get(game.id, set_id)
    except card_db.UnknownCardSet:
        raise ProblemError(404, "unknown-card-set", "Unknown card set",
                           N_("{game} has no card set {card_set!r}; sets: {items}", game=game.id,
                              card_set=set_id, items=joined(card_db.available(game.id)))) from None
    groups, tables = split_card_data(card_set.data)
    filters = {k: request.args.getlist(k) for k in request.args if k not in QUERY_KEYS}
    known = filterable_fields(groups)
    unknown = sorted(set(filters) - known)
    if unknown:
        raise MalformedInput({f"query.{k}": [
            N_("not a card field; filter by: {items}, or q (name)", items=joined(sorted(known)))]
            for k in unknown})
    needle = request.args.get("q", "").strip().casefold()
    listed = {name: [c for c in group if matches(c, filters, needle)]
              for name, group in groups.items()}
    applied = {k: ",".join(v) for k, v in filters.items()}
    if needle:
        applied["q"] = request.args["q"]
    language = request_language()
    listed = {name: [with_display_name(c, language) for c in group] for name, group in listed.items()}
    return mark_language(json_response({
        "game": game.id, "card_set": card_set.ref(), "meta": card_set.meta,
        "filters": applied, "count": sum(len(g) for g in listed.values()),
        "cards": listed, "tables": tables}), language)


# ---------------------------------------------------------------- contract
#: the answer of a contract route to a checked body (``Route.answer``)
ContractAnswer = Callable[[AnyGame, dict[str, Any]], dict[str, Any]]
#: the contract routes take a state (or a view): signature and seat token headers
_STATE_PARAMS = (GAME, REQUIRE_SIGNED, SEAT_TOKEN)


def contract(verb: str, request: envelopes.Envelope, response: str, *, summary: str,
             description: str, ok_text: str, errors: tuple[int, ...], typed: Contract,
             localized: bool = False, batched: bool = True
             ) -> Callable[[ContractAnswer], ContractAnswer]:
    """Declare ``POST /v1/games/{game}/<verb>`` (``operationId`` ``game_<verb>``) answered by
    the decorated ``answer(game, body)``: its view finds the game (404), checks the body
    against ``request`` (400 naming each field) and sends the answer as JSON (``localized``:
    its messages in the request's language).  ``batched``: a batch item may call it."""
    def decorate(answer: ContractAnswer) -> ContractAnswer:
        def view(game_id: str) -> Response:
            game = game_or_404(game_id)
            out = answer(game, read_envelope(request))
            return localized_json(out) if localized else json_response(out)
        view.__name__ = answer.__name__
        view.__doc__ = answer.__doc__
        bp.add(Route(
            method="post", path=f"/v1/games/{{game}}/{verb}",
            operation_id=f"game_{verb.replace('-', '_')}", summary=summary,
            description=description, tags=("games",), view=view,
            parameters=_STATE_PARAMS if set(STATE_ERRORS) <= set(errors) else (GAME,),
            request=request.name, answers={200: Success(ok_text, schema=response)},
            errors=statuses(POST_ERRORS, errors), contract=typed, answer=answer,
            localized=localized, batched=batched))
        return answer
    return decorate


def _new_example(game: AnyGame, mid: MidGame) -> tuple[dict[str, Any], dict[str, Any]]:
    state, events = game.new_game(game.min_players, None, EXAMPLE_SEED, "reference")
    return mid.setup, {"state": state, "events": events}


@contract("new", NEW, "NewResponse", summary="Start a game",
          description="The state after setup (deal, trump…): chance is resolved by the server "
                      "unless `options.chance` is `table`.",
          ok_text="The new state and the setup events.", errors=(422,),
          batched=False,  # no state to share, and each game a new id and seat tokens
          typed=Contract("Start a {title} game", "The new state and the setup events.",
                         _new_example, (("players",), (("for_player",),), ("options",))))
def new(game: AnyGame, body: dict[str, Any]) -> dict[str, Any]:
    """A new game after setup: ``{players, options?, seed?, card_set?, for_player?}`` →
    ``{state, events}``.

    With ``for_player`` the answer also holds ``view`` and ``events_for_player``
    (``service.redaction``), as ``apply`` and ``replay`` do.
    """
    if body["seed"] is not None and current_app.config.get("SERVER_SEEDS"):
        raise MalformedInput({"seed": [N_("this server draws the seed itself "
                                          "(REFEREE_SERVER_SEEDS): leave `seed` out")]})
    state, events = game.new_game(names.seated(body["players"]), body["options"], body["seed"],
                                  body["card_set"])
    check_seat_names(state, "players")
    chain = transcripts.start(transcripts.new_game_id(), transcripts.setup_id(state))
    out = {"state": signing.returned(game, state, chain=chain), "events": events}
    tokens = signing.seat_tokens(chain, len(state["players"]))
    if tokens is not None:
        out["seat_tokens"] = tokens
    if "for_player" in body:
        seat = body["for_player"]
        check_seat(state, seat, "for_player")
        out["view"] = game.view(state, seat)
        out["events_for_player"] = events_for(game, None, state, events, seat)
    return out


def _state_or_view(game: AnyGame, body: dict[str, Any]) -> tuple[GameState, int | None, seats.Caller]:
    """The state of a request and whose answer it is: ``body["state"]`` for anyone, or
    the state ``state_from_view`` builds from ``body["view"]`` for the view's player
    (``Game.state_from_view``: its answers about that player's own decisions are those
    of the true state, ``tests/http/test_views_as_states.py``).  Not a spectator's view,
    in any game: it has no decisions, and the answers from it would be guesses.
    Third: who the caller speaks for (``signing.caller``; a view: its player)."""
    if "view" not in body:
        state = _valid_state(game, body)
        return state, None, signing.caller(body["state"])
    return prepared(game, body["view"], lambda: _from_view(game, body["view"]))


def _from_view(game: AnyGame, view: object) -> tuple[GameState, int | None, seats.Caller]:
    """``_state_or_view`` of a body with a ``view``."""
    if not game.takes_views:
        raise MalformedInput({"view": [N_("{game} does not take views (GET /v1/games/{game}: "
                                          "takes_views): send the full `state`", game=game.id)]})
    _older_view(game, view)
    if view_marker(view, game.id, game.rules_version)["player"] is None:
        # a state rebuilt from it would guess every hand: its answers would be guesses
        raise InvalidState({"view.view.player": [N_(
            "a spectator's view answers nothing: it has no decisions of its own and sees "
            "no hand; send the full state")]})
    try:
        state = game.state_from_view(cast(dict[str, Any], view), VIEW_SEED)  # an object: PLAYER_VIEW
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        # a view is untrusted input the builder indexes into; what it builds is validated
        raise InvalidState({"view": [N_("not a view of a {game} state as this service "
                                        "returns them", game=game.id)]}) from None
    if game.view_state_is_determinize:
        valid_states.KNOWN.validate(game, state)
    else:  # a builder with stand-ins validated what it built (``Game.state_from_view``)
        valid_states.KNOWN.remember(game, state)
    seat = cast(dict[str, Any], view)["view"]["player"]
    check_seat(state, seat, "view.view.player")
    return state, seat, seat


def _older_view(game: AnyGame, view: object) -> None:
    """A view of an older declared rules version is not carried over (a view is derived: ask
    for it again from the state, which is): ``RulesChanged`` naming the changed clauses."""
    if not isinstance(view, dict) or view.get("game") != game.id:
        return
    version = view.get("rules_version")
    ids = [v.id for v in game.rules_versions]
    if version == game.rules_version or version not in ids:
        return
    steps = game.rules_versions[ids.index(version) + 1:]
    changes = [c.describe() for step in steps for c in step.changes]
    clauses = list(dict.fromkeys(c["clause"] for c in changes if c["clause"]))
    raise RulesChanged({"view.rules_version": [N_(
        "a view of {source!r} is not carried over to {target!r}: ask `view` again with the "
        "state (a state of it is upgraded on read); the rules changed in {clauses}",
        source=version, target=game.rules_version, clauses=", ".join(clauses))]},
        str(version), game.rules_version, clauses, changes)


def _for_viewer(viewer: int | None, player: object, field: str) -> None:
    """A view answers for its own player only: ``player`` (at ``field``) must be it."""
    if viewer is not None and player != viewer:
        raise MalformedInput({field: [N_("a view answers for its own player: {viewer}",
                                         viewer=viewer)]})


#: the seed of the state a view stands for: any seed gives the same own answers
VIEW_SEED = 0


def _own_action(game: AnyGame, state: GameState, who: seats.Caller, action: object) -> None:
    """A seat of a sealed game acts and asks about its own actions only, naming only what
    its view shows (``Game.unseen_in_action``): the verdict then tells it nothing its
    view does not (``docs/trust.md``)."""
    if who == seats.HOST:
        return
    seat = action.get("player") if isinstance(action, dict) else None
    seats.require(who, seat if seat is not None else seats.ALL, "action.player")
    if isinstance(who, int) and isinstance(action, dict):
        unseen = game.unseen_in_action(game.view(state, who), action)
        if unseen:
            raise MalformedInput(unseen)


@contract("legal-actions", LEGAL_ACTIONS, "LegalActionsResponse",
          summary="Who must decide, and every legal action",
          description="Every listed action can be sent to `apply` as it is. `constraints` "
                      "describes, per player, a decision too large to list.",
          ok_text="The pending decisions and the legal actions.", errors=(422, *STATE_ERRORS),
          typed=Contract("Who must decide in {title}, and every legal action",
                         "The pending decisions and the legal actions.",
                         lambda game, mid: ({"state": mid.state}, listed(game, mid.state, None)),
                         (("state", "players"), (("player",),), None)))
def legal_actions(game: AnyGame, body: dict[str, Any]) -> dict[str, Any]:
    """``{state, player?, preview?}`` or ``{view, preview?}`` → ``{pending, actions,
    constraints?, previews?}`` (``previews``: ``service.previews``, with ``preview: true``)."""
    state, viewer, who = _state_or_view(game, body)
    player = body["player"] if viewer is None else viewer
    if player is None and who != seats.HOST:  # a seat of a sealed game: its own
        player = who if who is not None else seats.ALL
    seats.require(who, player, "player")
    check_seat(state, player)
    out = listed(game, state, player)
    if body["preview"]:
        out["previews"] = previews(game, state, out["actions"], who)
    return out


def _apply_example(game: AnyGame, mid: MidGame) -> tuple[dict[str, Any], dict[str, Any]]:
    after, events = game.apply(mid.state, mid.action)
    return ({"state": mid.state, "action": mid.action},
            {"state": after, "events": events, "outcome": game.score(after)})


@contract("apply", APPLY, "ApplyResponse", summary="Apply an action",
          description="Pure: the state sent is not changed. An illegal action → 422 with the "
                      "clause (`rule`) it breaks. A step of a sealed game answers one action: "
                      "the first applied to it spends it, the same action again gets the same "
                      "answer, another → 409 `step-spent` (docs/trust.md, \"One answer per "
                      "step\").",
          ok_text="The new state, what happened, and the outcome (and, with `for_player`, "
                  "that seat's `view` and `events_for_player`).",
          errors=(409, 422, 503, *STATE_ERRORS),
          typed=Contract("Apply a {title} action",
                         "The new state, what happened, and the outcome.", _apply_example,
                         (("state", "players"), (("for_player",),), None)))
def apply(game: AnyGame, body: dict[str, Any]) -> dict[str, Any]:
    """``{state, action, for_player?}`` → ``{state, events, outcome}``; illegal → 422 with ``rule``.

    With ``for_player`` the answer also holds ``view`` and ``events_for_player``
    (``service.redaction``): what the host relays to that seat.
    """
    state = _valid_state(game, body)
    who = signing.caller(body["state"])
    _own_action(game, state, who, body["action"])
    seat = body.get("for_player")
    seats.require(who, seat, "for_player")
    check_seat(state, seat, "for_player")
    new_state, events = game.apply(state, body["action"])
    spent_steps.spend(body["state"], new_state)  # a sealed step answers one action
    out = {"state": signing.returned(game, new_state, after=body["state"]),
           "events": events if who == seats.HOST else events_for(game, state, new_state,
                                                                 events, who),
           "outcome": game.score(new_state)}
    if "for_player" in body:
        out["view"] = game.view(new_state, seat)
        out["events_for_player"] = events_for(game, state, new_state, events, seat)
    return out


@contract("check", CHECK, "CheckResponse", summary="Check an action without applying it",
          description="200 whether legal or not; a malformed action → 400.",
          ok_text="Whether the action is legal; if not, the clause and why.",
          errors=(422, *STATE_ERRORS), localized=True,
          typed=Contract("Check a {title} action without applying it",
                         "Whether the action is legal; if not, the clause and why.",
                         lambda game, mid: ({"state": mid.state, "action": mid.action},
                                            game.check(mid.state, mid.action)),
                         shared_response=True))
def check(game: AnyGame, body: dict[str, Any]) -> dict[str, Any]:
    """``{state | view, action}`` → ``{legal, rule?, reason?}`` (200 even when illegal);
    ``reason`` in the request's ``Accept-Language``.  From a view, only that player's
    own actions (the answer is the full state's: ``tests/http/test_views_as_states.py``),
    naming only what the view shows where the game says so (``Game.unseen_in_action``)."""
    state, viewer, who = _state_or_view(game, body)
    action = body["action"]
    if viewer is None:
        _own_action(game, state, who, action)
    elif isinstance(action, dict):
        _for_viewer(viewer, action.get("player"), "action.player")
        unseen = game.unseen_in_action(body["view"], action)
        if unseen:
            raise MalformedInput(unseen)
    return game.check(state, action)


@contract("score", SCORE, "Outcome", summary="Score a state",
          description="Scores with their breakdown, whether the game is over, the winners.",
          ok_text="The outcome.", errors=STATE_ERRORS,
          typed=Contract("Score a {title} state", "The outcome.",
                         lambda game, mid: ({"state": mid.state}, game.score(mid.state))))
def score(game: AnyGame, body: dict[str, Any]) -> dict[str, Any]:
    """``{state}`` → ``{finished, winners, scores}``."""
    return game.score(_valid_state(game, body))


@contract("view", VIEW, "ViewResponse", summary="The state as one player may see it",
          description="Other players' hidden cards become counts or opaque ids; the random "
                      "state is removed. `player: null` is a spectator.",
          ok_text="The player's view.", errors=(422, *STATE_ERRORS),
          typed=Contract("A {title} state as one player may see it", "The player's view.",
                         lambda game, mid: ({"state": mid.state, "player": 0},
                                            {"view": game.view(mid.state, 0)}),
                         (("state", "players"), (("player",),), None)))
def view(game: AnyGame, body: dict[str, Any]) -> dict[str, Any]:
    """``{state, player}`` → ``{view}`` (``player: null`` for a spectator)."""
    state = _valid_state(game, body)
    seats.require(signing.caller(body["state"]), body["player"], "player")
    check_seat(state, body["player"])
    return {"view": game.view(state, body["player"])}


def _suggest_example(game: AnyGame, mid: MidGame) -> tuple[dict[str, Any], dict[str, Any]]:
    """A ``suggest`` request on the example state and its answer: an iteration budget
    and a seed (the same answer every time), its CPU time left out (``null``)."""
    player = next(p["player"] for p in game.pending(mid.state) if p["player"] != CHANCE)
    params = {"player": player, "iterations": 16, "seed": 7}
    return {"state": mid.state, "params": params}, {**suggest_now(game, mid.state, params),
                                                    "cpu_ms": None}


@contract("suggest", SUGGEST, "SuggestResponse",
          summary="Rank a player's actions now (a search of at most 200 ms)",
          description="Information-set MCTS over determinizations of `params.player`'s view (it "
                      "never peeks): every legal action of that player with its visits, mean "
                      "result and 95% interval, the best action and its principal line. At most "
                      "200 ms and 2,000 iterations (64 by default); larger budgets, fanned out on "
                      "workers: the `suggest` evaluation (`POST /v1/evaluations`). A "
                      "`params.player` with no decision pending → 422 citing the turn order's "
                      "clause, as an action out of turn.",
          ok_text="The ranked actions.", errors=(422, *STATE_ERRORS),
          batched=False,  # 200 ms of search each: past a batch's work cap
          typed=Contract("Rank a {title} player's actions now", "The ranked actions.",
                         _suggest_example, (("state", "players"), (("params", "player"),), None),
                         served=lambda game: game.searchable,
                         takes_view=lambda game: game.suggests_from_views))
def suggest(game: AnyGame, body: dict[str, Any]) -> dict[str, Any]:
    """``{state | view, params: {player, iterations?, milliseconds?, seed?, …}}`` → the
    player's legal actions ranked by a search of at most 200 ms
    (``service.evaluations.suggest``; larger budgets: the ``suggest`` evaluation).  From
    a view (``state_from_view``) the answer is the one the full state gives: the search
    starts every iteration from ``determinize``, which depends on the view only — where
    ``Game.suggests_from_views`` (not Kozyablo's views: 400 naming ``view``)."""
    if not game.searchable:
        raise ProblemError(404, "not-found", "Not found", N_(
            "{game} offers no suggestions: it does not implement determinize", game=game.id))
    if "view" in body and game.takes_views and not game.suggests_from_views:
        raise MalformedInput({"view": [N_(
            "{game} suggests from the full state only: its search deals the cards a player "
            "cannot see from what a view does not show ({rule}), and a view stands for them "
            "with stand-ins; legal-actions and check take the view",
            game=game.id, rule=game.view_stand_ins_rule)]})
    state, viewer, who = _state_or_view(game, body)
    params = body["params"]
    _for_viewer(viewer, params["player"], "params.player")
    seats.require(who, params["player"], "params.player")
    return suggest_now(game, state, params)


def _replay_example(game: AnyGame, mid: MidGame) -> tuple[dict[str, Any], dict[str, Any]]:
    return ({"setup": mid.setup, "actions": mid.actions},
            replay_game(game, {**mid.setup, "options": None, "card_set": "reference"},
                        mid.actions))


@contract("replay", REPLAY, "ReplayResponse", summary="Replay a recorded game",
          description="Setup + actions → the final state, outcome and per-step events; or 422 "
                      "with the `index` of the first illegal action and its `rule`.",
          ok_text="The replayed game.", errors=(422,),
          batched=False,  # up to 20,000 steps each, and no state to share
          typed=Contract("Replay a recorded {title} game", "The replayed game.",
                         _replay_example,
                         (("setup", "players"), (("for_player",),), ("setup", "options"))))
def replay(game: AnyGame, body: dict[str, Any]) -> dict[str, Any]:
    """``{setup, actions, for_player?}`` → ``{state, outcome, events}``; illegal step → 422 with ``index``.

    With ``for_player`` the answer also holds ``view`` (of the final state) and
    ``events_for_player`` (every step's events redacted as ``apply`` does).
    """
    redaction = None
    if "for_player" in body:
        seat = body["for_player"]
        redaction = ReplayRedaction(game, seat,
                                    lambda state: check_seat(state, seat, "for_player"))
    first: list[str] = []

    def observe(before: GameState | None, after: GameState, events: list[Event]) -> None:
        if before is None:
            check_seat_names(after, "setup.players")
            first.append(transcripts.setup_id(after))
        if redaction is not None:
            redaction(before, after, events)

    recorded = body.get("rules_version")
    setup = {**body["setup"], "players": names.seated(body["setup"]["players"])}
    out = replay_game(game, setup, body["actions"], observe=observe, rules_version=recorded)
    note = replay_note(game, recorded)
    if note is not None:
        g.rules_upgrade = (game, note)
    if redaction is not None:
        out["view"] = game.view(out["state"], redaction.player)
        out["events_for_player"] = redaction.steps
    chain = transcripts.replayed(len(body["actions"]), first[0])
    count = len(out["state"]["players"])
    out["state"] = signing.returned(game, out["state"], chain=chain)
    tokens = signing.seat_tokens(chain, count)
    if tokens is not None:
        out["seat_tokens"] = tokens
    return out
