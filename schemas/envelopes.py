"""Request and response envelopes of the HTTP API.

The envelopes are the small JSON objects around a game state: ``{state,
action}``, ``{players, options, seed}`` and so on.

* **Requests** are declared once, as ``shape`` specs (``Envelope``): the same
  declaration checks an incoming body (its JSON Schema compiled by
  jsonschema-rs, the field paths and messages from ``shape.validate`` when it
  refuses), fills the defaults in, and is the request's component in
  ``openapi.yaml`` (``Envelope.schema``).  The state inside passes through
  as any object: the engine's ``validate_state`` checks it.
* **Responses** are shape specs too (``Answer``), never checked against: the
  same declarations document them (``shape.published``: the spelling the
  contract has given them since 1.0.0) and name their members.

``load`` is the one way a request body is checked, on every route: an
``Envelope``, or a game operation's or a tournament's ``shape`` spec (one of
``shape_1_0`` where a request answers as its 1.0.0 marshmallow schema did).

Fields whose shape depends on the game (state, action, event) are ``$ref``s
to the components built from the engines' shape specs (``GameState``,
``Action``…): ``shape.Ref`` (checked as any object, documented as the component).

>>> NEW.load({"players": 2, "seed": 7})
{'options': None, 'seed': 7, 'card_set': 'reference', 'players': 2}
>>> try:
...     APPLY.load({"state": {}, "actoin": {}})
... except MalformedInput as exc:
...     exc.errors
{'action': ['missing required field'], 'actoin': ['unknown field']}
"""

from __future__ import annotations

from typing import Any

from service.games import shape, shape_1_0
from service.games.base import CARD_SET_REF
from service.games.errors import MalformedInput
from service.games.messages import N_
from service.limits import (
    MAX_BATCH_ITEMS,
    MAX_BATCH_PREVIEWS,
    MAX_ID_LENGTH,
    MAX_OUTCOMES,
    MAX_PREVIEW_ACTIONS,
    MAX_REPLAY_ACTIONS,
    MAX_SEAT,
    MAX_SEATS,
    MAX_SEED,
    MAX_STATE_SEED,
    MAX_STATES,
)
from service.problem_types import PROBLEM_BASE


def _ref(name: str, description: str = "") -> dict[str, Any]:
    return {"ref": name, "description": description} if description else {"ref": name}


# ------------------------------------------------------------------ requests
class Envelope:
    """A request body: its ``shape`` spec (an ``Obj``), checked and loaded at once.

    ``load`` answers the body with every optional field's default filled in
    (``shape.Default``; in a nested envelope too), or raises ``MalformedInput``
    naming each field.  A body the compiled schema accepts costs one call.
    """

    def __init__(self, name: str, spec: shape.Obj, description: str | None = None):
        self.name, self.spec, self.description = name, spec, description
        self.defaults = {k: s.value for k, s in spec.optional.items()
                         if isinstance(s, shape.Default)}
        self.nested = [(k, _ENVELOPE_OF[id(s.spec)]) for k, s in spec.required.items()
                       if isinstance(s, shape.Ref) and id(s.spec) in _ENVELOPE_OF]
        _ENVELOPE_OF[id(spec)] = self

    def load(self, body: Any) -> dict[str, Any]:
        errors = shape.field_errors(self.spec, body)
        if errors:
            raise MalformedInput(errors)
        return self.filled(body)

    def filled(self, body: dict[str, Any]) -> dict[str, Any]:
        out = {**self.defaults, **body}
        for key, inner in self.nested:
            out[key] = inner.filled(out[key])
        return out

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the ``openapi.yaml`` component ``name``."""
        out = self.spec.schema()
        if self.description:
            out["description"] = self.description
        return out


_ENVELOPE_OF: dict[int, Envelope] = {}

_OBJECT = shape.Obj({}, extra=True)  # any JSON object, its contents checked later
_SEAT = shape.Int(0, MAX_SEAT)


def _for_player(what: str, rest: str) -> shape.Spec:
    return shape.Nullable(_SEAT, description=(
        f"Also answer what this seat may see: {what}; `null`: a spectator. {rest}"))


_FOR_HOST = "The full `state` and `events` are still returned, for the host."


def _sync_params() -> shape.Spec:
    from service.evaluations.suggest import SYNC_PARAMS  # the search's own declaration

    return SYNC_PARAMS


STATE = shape.Ref("GameState", _OBJECT, "A full game state.")
#: a player's view in place of the state (issue 15): the answer is that player's own
#: one type with the view answers (``<Game>View``): a spectator's (``player: null``) fits it,
#: and is refused as a state (400 ``invalid-state``: it answers nothing), not for its shape
PLAYER_VIEW = shape.Obj({"view": shape.Obj({"player": shape.Nullable(_SEAT)}, extra=True)},
                        extra=True, description=(
    "Instead of `state`: the view a player was given (`view`, or `apply`/`replay`/`new` with "
    "`for_player`), as it came. The answer is that player's own, the same as from the full "
    "state; a game takes views when `GET /v1/games/{game}` says `takes_views`. A spectator's "
    "view (`view.player: null`) answers nothing: 400 `invalid-state`."))
ACTION = shape.Ref("Action", _OBJECT, "An action object, as `legal-actions` lists it.")

SETUP = Envelope("Setup", shape.Obj({
    "players": shape.OneOf(
        shape.Int(1, MAX_SEATS),
        shape.ListOf(shape.Ref("PlayerSetup", _OBJECT), max_items=MAX_SEATS,
                     min_items=1),
        message=N_("must be a player count or a list of player setups"),
        description="A player count, or one setup object per player (e.g. "
                    "`{\"name\": \"Ann\"}`; some games take more, such as a Kozyablo deck)."),
}, {
    "options": shape.Default(shape.Nullable(_OBJECT, description=(
        "Game options by name; omitted ones take their defaults (`GET /v1/games/{game}` "
        "lists them).")), None),
    "seed": shape.Default(shape.Nullable(shape.Int(0, MAX_STATE_SEED), description=(
        "Seed of the chance generator (`chance: server`); random when omitted. Same seed "
        "and actions, same game. At most 2^53 - 1 in `new` (every seed the service draws "
        "is); a replay also takes the 63-bit seeds builds before 1.0.0 drew.")), None),
    "card_set": shape.Default(shape.Str(MAX_ID_LENGTH, non_empty=True, description=(
        "Card set id (`GET /v1/games/{game}` lists them).")), "reference"),
}))  # how a game starts: the same fields as `new`
#: `new` names a seed every JSON client keeps exactly (JavaScript's Number.MAX_SAFE_INTEGER)
_NEW_SEED = shape.Default(shape.Nullable(shape.Int(0, MAX_SEED), description=(
    "Seed of the chance generator (`chance: server`); random when omitted. Same seed and "
    "actions, same game. At most 2^53 - 1, so that JavaScript keeps it exactly.")), None)

NEW = Envelope("NewRequest", shape.Obj(SETUP.spec.required, {
    **SETUP.spec.optional, "seed": _NEW_SEED,
    "for_player": _for_player("`view` (its view of the new state) and `events_for_player` "
                              "(the setup events with every card it may not see replaced by "
                              "`\"hidden\"`), as `apply` and `replay` do", _FOR_HOST),
}))
LEGAL_ACTIONS = Envelope("LegalActionsRequest", shape.Obj({}, {
    "state": STATE, "view": PLAYER_VIEW,
    "player": shape.Default(shape.Nullable(shape.OneOf(_SEAT, shape.Enum("chance")), description=(
        "Only this player's actions (a seat, or `chance`); all pending players when "
        "omitted. Not with `view`: a view answers for its own player.")), None),
    "preview": shape.Default(shape.Bool(description=(
        "Also answer `previews`: per listed action, the events it would cause as the seat "
        "taking it would see them and each seat's score change, stopped before a chance "
        "node (`stop.at: chance`, the host also gets its `outcomes`) or before it reveals "
        "a card that seat cannot see (`stop.at: secret`, nothing told). No state. At most "
        f"{MAX_PREVIEW_ACTIONS} actions (`MAX_PREVIEW_ACTIONS`), else 400 naming "
        "`preview`.")), False)},
    either=("state", "view"), excludes=("player",)))
APPLY = Envelope("ApplyRequest", shape.Obj({"state": STATE, "action": ACTION}, {
    "for_player": _for_player("`view` (its view of the new state) and `events_for_player` "
                              "(the events with every card it may not see replaced by "
                              "`\"hidden\"`)", _FOR_HOST)}))
CHECK = Envelope("CheckRequest", shape.Obj({"action": ACTION}, {"state": STATE, "view": PLAYER_VIEW},
                                           either=("state", "view")))
SCORE = Envelope("ScoreRequest", shape.Obj({"state": STATE}))
VIEW = Envelope("ViewRequest", shape.Obj({"state": STATE, "player": shape.Nullable(
    _SEAT, description="The seat whose view to return; `null` for a spectator.")}))
REPLAY = Envelope("ReplayRequest", shape.Obj({
    "setup": shape.Ref("Setup", SETUP.spec),
    "actions": shape.ListOf(shape.Ref("Action", _OBJECT, "One action."),
                            max_items=MAX_REPLAY_ACTIONS, description=(
                                "The actions in order: the players' decisions, plus the chance "
                                "outcomes in `chance: table` games.")),
}, {"for_player": _for_player(
    "`view` (its view of the final state) and `events_for_player` (every step's events, each "
    "card it may not see before or after that step replaced by `\"hidden\"`, as `apply` does)",
    "The full answer is still returned."),
    "rules_version": shape.Default(shape.Nullable(shape.Str(MAX_ID_LENGTH, non_empty=True, description=(
        "The rules version the actions were recorded under (default: the one played, "
        "`GET /v1/games/{game}`). An older served version's actions are carried over by its "
        "declared migration and replayed under today's rules; the answer says so "
        "(`rules_upgrade`). Another declared version: `rules-changed`, naming the clauses "
        "that changed."))), None)}))

SUGGEST = Envelope("SuggestRequest", shape.Obj({"params": _sync_params()},
                                               {"state": STATE, "view": PLAYER_VIEW},
                                               either=("state", "view")))

CHANCE_BATCH = Envelope("ChanceBatchRequest", shape.Obj({
    "state": shape.Ref("GameState", _OBJECT, "A `chance: table` state."),
    "outcomes": shape.ListOf(shape.Ref("Action", _OBJECT), max_items=MAX_OUTCOMES, min_items=1,
                             description="Chance outcomes in the order they came up, each as "
                                         "`legal-actions` lists it (`probability` may be left "
                                         "out)."),
}))
VERIFY_TRANSCRIPT = Envelope("VerifyTranscriptRequest", shape.Obj({
    "states": shape.ListOf(shape.Ref("GameState", _OBJECT), max_items=MAX_STATES, min_items=1,
                           description="States of one game, signed or sealed, as the service "
                                       "returned them, in any order."),
}))

#: every request envelope by component name (``service.openapi`` documents them)
REQUESTS = {e.name: e for e in (SETUP, NEW, LEGAL_ACTIONS, APPLY, CHECK, SCORE, VIEW, REPLAY,
                                SUGGEST, CHANCE_BATCH, VERIFY_TRANSCRIPT)}

#: a request declaration ``load`` takes (``Operation.request``: a shape spec)
Request = Envelope | shape.Spec


def load(request: Request, body: Any) -> dict[str, Any]:
    """``body`` checked against its declaration (defaults filled in), or ``MalformedInput``
    naming each field: the one path every request body takes (module docstring)."""
    if isinstance(request, Envelope):
        return request.load(body)
    errors = shape.field_errors(request, body, "")
    if errors:
        raise MalformedInput(errors)
    checked: dict[str, Any] = body  # an object: the spec said so
    return request.filled(checked) if isinstance(request, shape_1_0.Record) else checked


# ----------------------------------------------------------------- responses
class Answer:
    """A response body: its ``shape`` spec, documented as the component ``name`` in the
    spelling the answers have had since 1.0.0 (``shape.published``).  Never checked
    against: the service writes it.  ``closed``: the component says
    ``additionalProperties: false`` (the answers of ``apply-chance`` and
    ``transcripts/verify``, as they always did)."""

    def __init__(self, name: str, spec: shape.Obj, closed: bool = False) -> None:
        self.name, self.spec, self.closed = name, spec, closed

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the ``openapi.yaml`` component ``name``."""
        return shape.published(self.spec, closed=self.closed)


_TEXT = shape.Str()
_INT = shape.Int()
_NUMBER = shape.Num()
_BOOL = shape.Bool()
_ANY_OBJECT = shape.MapOf(shape.Any_())  # documented as `additionalProperties: {}`
_SCALAR = shape.OneOf(shape.Bool(), shape.Int(), shape.Str())
_EVENTS = shape.ListOf(shape.Ref("Event", _OBJECT))
#: any object, said so (``additionalProperties: true``)
_OPEN = shape.Annotated(shape.Obj({}, extra=True), additionalProperties=True)


def _text(description: str) -> shape.Str:
    return shape.Str(description=description)


def _answer(spec: shape.Spec, name: str) -> shape.Ref:
    """A member that is another answer's component (its spec is never checked)."""
    return shape.Ref(name, spec)


PENDING = shape.Obj({"player": shape.OneOf(shape.Int(0), shape.Enum("chance")),
                     "decision": _text("The kind of decision.")}, extra=True)
PLAYER_SCORE = shape.Obj({
    "player": _INT, "total": _NUMBER,
    "breakdown": shape.OneOf(_OPEN, shape.ListOf(_OPEN),
                             description="Where the total comes from (game-specific: the typed "
                                         "operations give each game's own shape)."),
}, extra=True)
UPGRADE_CHANGE = shape.Obj({
    "clause": shape.Nullable(_TEXT), "subject": _TEXT,
    "summary": _text("The change, in the request's language (`Accept-Language`)."),
})
#: a state (or a replay) of an older rules version was carried over (docs/api.md,
#: "States of older rules versions")
RULES_UPGRADE = shape.Obj({
    "from": _text("The rules version the state (or replay) was written for."),
    "to": _text("The rules version played."),
    "clauses": shape.ListOf(_TEXT, description="The clauses that changed between them."),
    "changes": shape.ListOf(_answer(UPGRADE_CHANGE, "UpgradeChange"), description=(
        "What each step changed (`GET /v1/games/{game}`: `rules_versions`).")),
})
_RULES_UPGRADE: dict[str, shape.Spec] = {"rules_upgrade": shape.Ref("RulesUpgrade", RULES_UPGRADE, (
    "Only when the state (or the replay) was of an older rules version this service serves: "
    "it was upgraded on read (also said by the header `Referee-Rules-Upgraded`). The answer "
    "is about the upgraded state."))}
#: scores, whether the game is over, and the winners (``rules_upgrade``: in `score`'s answer)
OUTCOME = shape.Obj({"finished": _BOOL, "winners": shape.ListOf(_INT),
                     "scores": shape.ListOf(_answer(PLAYER_SCORE, "PlayerScore"))},
                    _RULES_UPGRADE, extra=True)
_OUTCOME = _answer(OUTCOME, "Outcome")
_SEAT_TOKENS = shape.ListOf(_TEXT, description=(
    "On a server that seals states (`REFEREE_SEALING_KEYS`): one token per seat, in seat "
    "order. Hand each player its own; on a sealed state, what a seat may see needs its token "
    "in `Referee-Seat-Token` (docs/trust.md)."))


def _view(description: str) -> shape.Obj:
    return shape.Obj({}, extra=True, description=description)


def _state(description: str) -> shape.Ref:
    return shape.Ref("GameState", _OBJECT, description)


NEW_RESPONSE = shape.Obj({"state": _state("The state after setup."), "events": _EVENTS}, {
    "seat_tokens": _SEAT_TOKENS,
    "view": _view("With `for_player`: that seat's view of the new state."),
    "events_for_player": shape.ListOf(shape.Ref("Event", _OBJECT), description=(
        "With `for_player`: the setup events, every card that seat may not see replaced by "
        "`\"hidden\"`.")),
})
LEGAL_ACTIONS_RESPONSE = shape.Obj({
    "pending": shape.ListOf(_answer(PENDING, "Pending")),
    "actions": shape.ListOf(shape.Ref("Action", _OBJECT), description=(
        "Every legal action; each can be sent to `apply` as it is. Chance outcomes carry their "
        "exact `probability` (`p/q`).")),
}, {"constraints": shape.MapOf(shape.Obj({}, extra=True), description=(
    "Per player (seat as key): the machine-readable constraint of a decision too large to "
    "list; `apply` validates the whole.")),
    "previews": shape.ListOf(shape.Ref("Preview", _OBJECT), description=(
        "With `preview: true`: per listed action, in the same order, what it would do.")),
    **_RULES_UPGRADE})
APPLY_RESPONSE = shape.Obj({"state": _state("The new state."), "events": _EVENTS,
                            "outcome": _OUTCOME}, {
    "view": _view("With `for_player`: that seat's view of the new state."),
    "events_for_player": shape.ListOf(shape.Ref("Event", _OBJECT), description=(
        "With `for_player`: the events, every card that seat may not see (in the old or the "
        "new state) replaced by `\"hidden\"`.")),
    **_RULES_UPGRADE})
CHECK_RESPONSE = shape.Obj({"legal": _BOOL}, {
    "rule": _text("The clause the action breaks (`RAI-15`)."),
    "reason": _text("One sentence why."),
    "fizzles": shape.Bool(description=(
        "Only with `legal: false`: the action breaks `rule`, yet `apply` would accept it and "
        "let it fizzle: no effect, its card just goes to the discard (Raiders `illegal_play: "
        "fizzle`, RAI-30).")),
    **_RULES_UPGRADE})
VIEW_RESPONSE = shape.Obj({"view": _view(
    "The state as that player may see it: hidden cards become counts or opaque ids, the "
    "random state is gone. Not accepted back as a state.")}, _RULES_UPGRADE)
REPLAY_STEP = shape.Obj({
    "index": shape.Nullable(shape.Int(description="The action's index; `null` for the setup.")),
    "events": _EVENTS})
_REPLAY_STEP = _answer(REPLAY_STEP, "ReplayStep")
REPLAY_RESPONSE = shape.Obj({
    "state": _state("The final state."), "outcome": _OUTCOME,
    "events": shape.ListOf(_REPLAY_STEP, description=(
        "Per step, what happened: first the setup, then each action.")),
}, {
    "seat_tokens": _SEAT_TOKENS,
    "view": _view("With `for_player`: that seat's view of the final state."),
    "events_for_player": shape.ListOf(_REPLAY_STEP, description=(
        "With `for_player`: `events` with every card that seat may not see (before or after "
        "each step) replaced by `\"hidden\"`.")),
    **_RULES_UPGRADE})
RANKED_ACTION = shape.Obj({
    "action": shape.Ref("Action", _OBJECT),
    "visits": shape.Int(description="Search iterations that began with this action."),
    "mean": shape.Nullable(shape.Num(), description=(
        "Its mean result for the player: 1 a win, 0 a loss, ½ a shared win (an unfinished "
        "rollout is rated by the position); `null`: never tried.")),
    "ci95": shape.Nullable(shape.ListOf(_NUMBER, min_items=2, max_items=2), description=(
        "95% interval of `mean`, clipped to [0, 1]; `null`: never tried.")),
})
LINE_STEP = shape.Obj({"action": shape.Ref("Action", _OBJECT), "visits": _INT})
#: the player's legal actions ranked by the search (most visited first)
SUGGEST_RESPONSE = shape.Obj({
    "game": _TEXT, "player": _INT,
    "iterations": shape.Int(description="Iterations searched."),
    "best": shape.Nullable(shape.Ref("Action", _OBJECT), description=(
        "The most visited action (`null` only if none was tried).")),
    "actions": shape.ListOf(_answer(RANKED_ACTION, "RankedAction"), description=(
        "Every legal action of the player, most visited first.")),
    "principal_line": shape.ListOf(_answer(LINE_STEP, "LineStep"), description=(
        "`best`, then the most visited reply at each step below it (any player's decision; "
        "chance left out).")),
    "cpu_ms": shape.Nullable(shape.Num(), description="CPU time the search took."),
    "seed": shape.Int(description=(
        "The search's seed: the same request with it and an iteration budget gives the same "
        "answer.")),
})
TITLE = shape.Obj({"en": _TEXT, "ru": _TEXT})
PLAYER_COUNT = shape.Obj({"min": _INT, "max": _INT})
OPTION_INFO = shape.Obj({
    "name": _TEXT, "type": shape.Enum("boolean", "integer", "string"),
    "default": shape.Nullable(_SCALAR, description=(
        "The value the game takes when the option is left out; `null` also when it depends "
        "on the player count (`default_by_players`).")),
    "description": _TEXT, "nullable": _BOOL,
}, {
    "default_by_players": shape.MapOf(_SCALAR, description=(
        "Present when the default depends on the player count: the value the game takes when "
        "the option is left out, by player count (`\"5\": true`).")),
    "clause": _TEXT, "choices": shape.ListOf(_SCALAR), "minimum": _INT, "maximum": _INT,
}, order=("name", "type", "default", "default_by_players", "description", "nullable", "clause",
          "choices", "minimum", "maximum"))
RULES_CHANGE = shape.Obj({
    "clause": shape.Nullable(_text(
        "The clause id of the rules reference (`RAI-6a`), or null for a change of the wire "
        "only.")),
    "subject": _text("What a client sees change: `rule`, `action <type>[.<field>]`, "
                     "`event <type>[.<field>]`, `decision <kind>`, `state <field>`."),
    "summary": shape.Ref("Title", TITLE, "The change, in English and Russian."),
})
RULES_VERSION_INFO = shape.Obj({
    "id": _text("The `rules_version` a state of this version carries (`raiders/2`)."),
    "version": _text("Its semantic version (`MAJOR.MINOR.PATCH`; the id names the major)."),
    "current": shape.Bool(description=(
        "The version this service plays: new games and answers are written in it.")),
    "served": shape.Bool(description=(
        "A state or replay of this version is accepted (an older one is upgraded on read by "
        "its declared migration).")),
    "changes": shape.ListOf(_answer(RULES_CHANGE, "RulesChange"), description=(
        "What this version changed from the one before it (empty for the first).")),
})
GAME_INFO = shape.Obj({
    "id": _TEXT, "title": _answer(TITLE, "Title"), "rules_version": _TEXT,
    "rules_semver": _text(
        "The semantic version of the rules played (`MAJOR.MINOR.PATCH`); `rules_version` "
        "names its major (docs/api.md, \"Versions\")."),
    "rules_versions": shape.ListOf(_answer(RULES_VERSION_INFO, "RulesVersionInfo"), description=(
        "Every rules version of the game, newest first, with the clauses each one changed and "
        "whether a state of it is served.")),
    "players": _answer(PLAYER_COUNT, "PlayerCount"),
    "options": shape.ListOf(_answer(OPTION_INFO, "OptionInfo")),
    "action_types": shape.MapOf(_TEXT),
    "decisions": shape.MapOf(shape.ListOf(_TEXT), description=(
        "Each pending `decision` kind with the action types that may be sent while it is "
        "pending.")),
    "event_types": shape.MapOf(_TEXT),
    "card_sets": shape.ListOf(_TEXT),
    "takes_views": shape.Bool(description=(
        "`legal-actions` and `check` take a player's `view` in place of the state; `suggest` "
        "too, but for Kozyablo, whose view does not show the card lists its search deals from "
        "(KOZ-1).")),
    "suggests": shape.Bool(description=(
        "`suggest` ranks a player's actions (the game implements `determinize`).")),
}, {"targets": shape.MapOf(shape.Any_(), description=(
    "Raiders only: the money a side needs to win and the clause of each rule (RAI-6 36; RAI-7 "
    "`short_game` by player count; RAI-8 `teams` combined)."))})
GAME_LIST = shape.Obj({"games": shape.ListOf(_answer(GAME_INFO, "GameInfo"))})
CARDS_RESPONSE = shape.Obj({
    "game": _TEXT, "card_set": _answer(CARD_SET_REF, "CardSetRef"),
    "meta": shape.MapOf(shape.Any_(), description=(
        "The set's metadata (source, whether reconstructed).")),
    "filters": shape.MapOf(_TEXT, description="The filters applied (query parameters)."),
    "count": shape.Int(description="Cards listed, over all groups."),
    "cards": shape.MapOf(shape.ListOf(_ANY_OBJECT), description=(
        "The set's card lists by group (as in the card file), filtered.")),
    "tables": shape.MapOf(shape.Any_(), description=(
        "The set's other data (e.g. set bonuses by property kind), unfiltered.")),
})
HEALTH = shape.Obj({"status": shape.Enum("ok")})
READY = shape.Obj({"status": shape.Enum("ready"), "checks": shape.MapOf(_TEXT)})
#: a clause an option error refers to
CLAUSE_LINK = shape.Obj({"rule": _text("Clause id (`RAI-8`).")}, {
    "rule_text": _text("The clause's short text."),
    "rule_url": _text("Where the whole clause is served.")})
#: an error, as ``application/problem+json`` (RFC 9457)
PROBLEM = shape.Obj({
    "type": shape.Annotated(_TEXT, format="uri-reference", anyOf=[
        {"$ref": "#/components/schemas/ProblemType"}, {"type": "string"}], description=(
        f"`{PROBLEM_BASE}<slug>`, relative to this server: a stable id of the kind of error, "
        "and a page that explains it (`GET /problems`). One of the known types, or one a later "
        "version added (a minor version may add types for new cases: treat an unknown one by "
        "its `status`).")),
    "title": _TEXT, "status": _INT, "detail": _TEXT,
}, {
    "instance": shape.Annotated(_TEXT, format="uri",
                                example="urn:referee:request:4f1c0a9e2b7d3c18000000000000002a",
                                description=(
        "`urn:referee:request:<X-Request-Id>`: this occurrence (the log lines of the request "
        "carry the same id).")),
    "rule": _text("Illegal action: the clause it breaks (`RAI-15`)."),
    "rule_text": _text("The clause's short text from the rules reference, in the language of "
                       "`Accept-Language` (`Content-Language` says which)."),
    "rule_url": _text("The clause in the rules reference: `/v1/games/<game>/rules/<id>`."),
    "index": shape.Int(description="Replay: the index of the first illegal action."),
    "errors": shape.MapOf(shape.ListOf(_TEXT), description=(
        "Malformed request: field path (`state.players.0.hand`) → messages.")),
    "clauses": shape.MapOf(_answer(CLAUSE_LINK, "ClauseLink"), description=(
        "Invalid options: option field (`options.teams`) → the clause behind that option, "
        "with its text and link.")),
    "violations": shape.ListOf(_ANY_OBJECT, description=(
        "Invalid setup: every violation at once, each `{rule, reason, ...}` plus `rule_text` "
        "and `rule_url`.")),
    "from_version": _text(
        "Rules changed: the rules version the state, view or replay was written for."),
    "to_version": _text("Rules changed: the version played."),
    "changed_clauses": shape.ListOf(_TEXT, description=(
        "Rules changed: the clauses that changed between the two versions (those the state "
        "is in the middle of, when a migration refused it).")),
    "changes": shape.ListOf(_answer(UPGRADE_CHANGE, "UpgradeChange"), description=(
        "Rules changed: what each of those clauses changed.")),
    "game": _text("Step spent (`step-spent`): the game id (`chain.game`) of the step."),
    "step": shape.Int(description=(
        "Step spent (`step-spent`): the step (`chain.step`) already played.")),
}, extra=True)
_LANGUAGE = shape.Enum("en", "ru")
#: one clause of a game's rules reference
RULE_CLAUSE = shape.Obj({
    "id": _text("The id errors cite (`RAI-12`)."), "title": _TEXT,
    "short": _text("The first paragraph, plain text: what a problem's `rule_text` quotes."),
    "text": _text("The whole clause, markdown."),
    "ruling": shape.Bool(description=(
        "The clause is a ruling: the service's decision where the original rulebook is "
        "silent or ambiguous.")),
    "has_ruling": shape.Bool(description="A ruling, or a rule with a ruling paragraph in it."),
    "section": _text("The section it is in."),
    "url": _text("Where this clause is served."),
}, {"game": _text("Present when one clause is asked for."), "language": _LANGUAGE},
    order=("game", "language", "id", "title", "short", "text", "ruling", "has_ruling", "section",
           "url"))
RULES_REFERENCE = shape.Obj({"game": _TEXT, "language": _LANGUAGE, "title": _TEXT,
                             "clauses": shape.ListOf(_answer(RULE_CLAUSE, "RuleClause"))})
PROBLEM_TYPE_INFO = shape.Obj({
    "type": _text("The `type` URI."), "slug": _TEXT,
    "status": shape.Nullable(shape.Int(), description=(
        "The HTTP status it comes with (null: varies).")),
    "title": _TEXT, "when": _TEXT, "fix": _TEXT})
PROBLEM_TYPE_LIST = shape.Obj({
    "problem_types": shape.ListOf(_answer(PROBLEM_TYPE_INFO, "ProblemTypeInfo"))})
CHANCE_BATCH_RESPONSE = shape.Obj({
    "state": _state("The state after the last."), "events": shape.ListOf(_REPLAY_STEP),
    "outcome": _OUTCOME})
TRANSCRIPT_FORK = shape.Obj({"step": _INT, "states": shape.ListOf(_INT, description=(
    "Indexes (in `states`) of the different states at this step."))})
TRANSCRIPT_BREAK = shape.Obj({
    "state": shape.Nullable(shape.Int(), description=(
        "Index in `states`; `null` when it concerns them all.")),
    "reason": _TEXT})
VERIFY_TRANSCRIPT_RESPONSE = shape.Obj({
    "valid": shape.Bool(description="No fork and no break."),
    "game": shape.Nullable(_TEXT, description="The game id of the chain (`new` drew it)."),
    "steps": shape.ListOf(_INT, description="The steps seen (actions since `new`), ascending."),
    "forks": shape.ListOf(_answer(TRANSCRIPT_FORK, "TranscriptFork")),
    "breaks": shape.ListOf(_answer(TRANSCRIPT_BREAK, "TranscriptBreak")),
})

#: every answer by component name (``service.openapi`` documents them)
ANSWERS = {a.name: a for a in (
    Answer("Pending", PENDING), Answer("PlayerScore", PLAYER_SCORE),
    Answer("UpgradeChange", UPGRADE_CHANGE), Answer("RulesUpgrade", RULES_UPGRADE),
    Answer("Outcome", OUTCOME), Answer("ReplayStep", REPLAY_STEP), Answer("Title", TITLE),
    Answer("PlayerCount", PLAYER_COUNT), Answer("OptionInfo", OPTION_INFO),
    Answer("RulesChange", RULES_CHANGE), Answer("RulesVersionInfo", RULES_VERSION_INFO),
    Answer("GameInfo", GAME_INFO), Answer("CardSetRef", CARD_SET_REF),
    Answer("NewResponse", NEW_RESPONSE), Answer("LegalActionsResponse", LEGAL_ACTIONS_RESPONSE),
    Answer("ApplyResponse", APPLY_RESPONSE), Answer("CheckResponse", CHECK_RESPONSE),
    Answer("ViewResponse", VIEW_RESPONSE), Answer("ReplayResponse", REPLAY_RESPONSE),
    Answer("RankedAction", RANKED_ACTION), Answer("LineStep", LINE_STEP),
    Answer("SuggestResponse", SUGGEST_RESPONSE), Answer("GameList", GAME_LIST),
    Answer("CardsResponse", CARDS_RESPONSE), Answer("Health", HEALTH), Answer("Ready", READY),
    Answer("ClauseLink", CLAUSE_LINK), Answer("Problem", PROBLEM),
    Answer("RuleClause", RULE_CLAUSE), Answer("RulesReference", RULES_REFERENCE),
    Answer("ProblemTypeInfo", PROBLEM_TYPE_INFO), Answer("ProblemTypeList", PROBLEM_TYPE_LIST),
    Answer("ChanceBatchResponse", CHANCE_BATCH_RESPONSE, closed=True),
    Answer("TranscriptFork", TRANSCRIPT_FORK, closed=True),
    Answer("TranscriptBreak", TRANSCRIPT_BREAK, closed=True),
    Answer("VerifyTranscriptResponse", VERIFY_TRANSCRIPT_RESPONSE, closed=True))}


# ------------------------------------------------------------------------ batch (issue 38)
# Shape specs and JSON Schema, not marshmallow: ``POST /v1/games/{game}/batch``
# (``service.http.batch``).  Its items are the contract routes' own requests: an item is
# checked by the route's envelope, so the batch declares only what it adds (``op``, ``id``,
# the shared ``state`` or ``view``) and builds the rest from the routes' declarations.

#: what a batch item adds to its route's request: which route, and a label of its own
BATCH_ITEM_FIELDS: dict[str, shape.Spec] = {
    "id": shape.OneOf(shape.Str(MAX_ID_LENGTH), shape.Int(0, MAX_SEED), description=(
        "A label of the caller's (a string or an integer), answered back with the item.")),
}
#: the fields of a route's request a batch may send once for every item
BATCH_SHARED = ("state", "view")


def batch_envelope(ops: dict[str, Envelope]) -> Envelope:
    """The batch's request: ``items`` (each ``op`` one of ``ops``, its route's request;
    the rest of it is checked by that request when the item runs) and a shared
    ``state`` or ``view`` each item without its own takes, as if it had sent it."""
    item = shape.Obj({"op": shape.Enum(*ops, description="The route the item calls.")},
                     BATCH_ITEM_FIELDS, extra=True)
    return Envelope("BatchRequest", shape.Obj({
        "items": shape.ListOf(item, max_items=MAX_BATCH_ITEMS, min_items=1, description=(
            f"The questions, answered in this order: at most {MAX_BATCH_ITEMS} "
            f"(`MAX_BATCH_ITEMS`), of which at most {MAX_BATCH_PREVIEWS} "
            "`legal-actions` with `preview: true` (`MAX_BATCH_PREVIEWS`); more → 400 naming "
            "`items`."))}, {
        "state": STATE, "view": PLAYER_VIEW}, description=(
        "Items of the game contract, each answered exactly as the route of its `op` "
        "answers the item without `op` and `id` (with the same headers). An item without "
        "`state` and `view` takes the shared one, checked once.")))


def batch_item_schema(op: str, request: Envelope) -> dict[str, Any]:
    """The JSON Schema of a batch item calling ``op``: its route's request (``request``)
    plus ``op`` and ``id``, its ``state``/``view`` optional (a shared one stands in).  A
    request of two forms (``Obj.either``) takes either or neither here."""
    spec = request.spec
    fields_ = {**spec.required, **spec.optional}
    required = {k: s for k, s in spec.required.items() if k not in BATCH_SHARED}
    optional = {k: s for k, s in fields_.items() if k not in required}
    item = shape.Obj({"op": shape.Enum(op), **required}, {**BATCH_ITEM_FIELDS, **optional})
    schema = item.schema()
    if spec.either is not None:
        schema["not"] = {"required": list(spec.either)}
    schema["description"] = (f"`{op}`: its request ({request.name}), `state` or `view` "
                             "optional (the batch's shared one stands in).")
    return schema


def batch_response_schema() -> dict[str, Any]:
    """``BatchResponse``: the items' answers (``BatchItemAnswer``; an NDJSON line is one)."""
    return {"type": "object", "required": ["items"], "additionalProperties": False,
            "properties": {"items": {"type": "array", "maxItems": MAX_BATCH_ITEMS, "items": {
                "$ref": "#/components/schemas/BatchItemAnswer"}}},
            "description": "The items' answers in request order."}


def batch_item_answer_schema(answers: dict[str, str]) -> dict[str, Any]:
    """``BatchItemAnswer``: one item's status and body, as its route answers it alone."""
    bodies = [{"$ref": f"#/components/schemas/{name}"} for name in dict.fromkeys(answers.values())]
    return {"type": "object", "required": ["status", "body"], "additionalProperties": False,
            "properties": {
                "id": {**BATCH_ITEM_FIELDS["id"].schema(), "description": "The item's `id`."},
                "status": {"type": "integer", "description": (
                    "The status the route answers the item with alone: 200, or a problem's.")},
                "body": {"anyOf": [*bodies, {"$ref": "#/components/schemas/Problem"}],
                         "description": "The route's answer (its 200 body, or the problem "
                                        "it answers with, `rule` and all)."}},
            "description": "One item's answer, exactly as its route answers it alone."}


def preview_schema() -> dict[str, Any]:
    """``Preview``: what one listed action would do (``service.previews``)."""
    return {"type": "object", "required": ["events", "score_change", "stop"],
            "additionalProperties": False, "properties": {
                "events": {"type": "array", "items": {"$ref": "#/components/schemas/Event"},
                           "description": "The events the action would cause up to `stop`, "
                                          "as the seat taking it would see them (its "
                                          "`events_for_player`)."},
                "score_change": {"type": ["array", "null"], "items": {"type": "number"},
                                 "description": "Each seat's score total change up to "
                                                "`stop`, by seat; `null` at a secret."},
                "stop": {"anyOf": [{"type": "null"}, {
                    "type": "object", "required": ["at"], "additionalProperties": False,
                    "properties": {
                        "at": {"enum": ["chance", "secret"], "description": (
                            "`chance`: the next step is a chance node (the events stop "
                            "before it); `secret`: the action reveals a card that seat "
                            "cannot see, so nothing is told.")},
                        "outcomes": {"type": "array", "items": {
                            "$ref": "#/components/schemas/Action"}, "description": (
                            "At a chance node, for the host only: its outcomes with their "
                            "exact `probability`, as `legal-actions` for `chance` lists "
                            "them.")}}}],
                    "description": "Where the preview stops short of the whole action; "
                                   "`null`: it is the whole action."}},
            "description": "What one listed action would do, told only as far as it does "
                           "not tell what only `apply` may. No state."}
