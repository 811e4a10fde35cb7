"""Request and response envelopes of the HTTP API (marshmallow).

The envelopes are the small JSON objects around a game state: ``{state,
action}``, ``{players, options, seed}`` and so on.  They serve twice:

* ``service.openapi`` turns them into ``openapi.yaml`` with apispec;
* the request schemas validate incoming envelopes (``schema.load``), cheap
  because the big part — the state — is a ``GameStateField`` that marshmallow
  passes through untouched.  The state itself is checked by the engine's own
  ``validate_state`` (a few µs, against ~1 ms for a marshmallow load of a
  nested state), so no state ever goes through marshmallow.

On the hot path the request envelopes are checked by a precompiled ``shape``
spec instead (``ENVELOPE_SHAPES``, a few hundred ns against ~25 µs for a
marshmallow ``load``): ``service.http.body.load_envelope`` takes the fast
verdict when it accepts and falls back to marshmallow — for its messages —
when it refuses.  ``tests/http/test_envelope_shapes.py`` checks on a fuzzed
corpus that both accept and refuse the same envelopes, with the same result.

Fields whose shape depends on the game (state, action, event) carry a
``ref`` in their metadata: the OpenAPI generator emits a ``$ref`` to the
component built from the engines' shape specs (``GameState``, ``Action``…).

>>> NewRequest().load({"players": 2, "seed": 7})
{'players': 2, 'options': None, 'seed': 7, 'card_set': 'reference'}
>>> try:
...     ApplyRequest().load({"state": {}, "actoin": {}})
... except Exception as exc:
...     sorted(exc.messages)
['action', 'actoin']
"""

from __future__ import annotations

from marshmallow import EXCLUDE, INCLUDE, RAISE, Schema, ValidationError, fields, validate

from service.games import shape
from service.problems import PROBLEM_BASE, PROBLEM_TYPES

MAX_SEED = (1 << 63) - 1
MAX_PLAYERS_LISTED = 16


def _ref(name: str, description: str = "") -> dict:
    return {"ref": name, "description": description} if description else {"ref": name}


class GameStateField(fields.Raw):
    """A full game state (checked by the engine, never by marshmallow)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, dict):
            raise ValidationError("must be an object (a game state as `new` or `apply` returned it)")
        return value


class ObjectField(fields.Raw):
    """Any JSON object, passed through as it is (its content is checked later)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, dict):
            raise ValidationError("must be an object")
        return value


class PlayersField(fields.Raw):
    """A player count, or a list of per-player setup objects."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool):
            raise ValidationError("must be a player count or a list of player setups")
        if isinstance(value, int):
            if not 0 < value <= MAX_PLAYERS_LISTED:
                raise ValidationError(f"must be from 1 to {MAX_PLAYERS_LISTED}")
            return value
        if isinstance(value, list):
            if not 0 < len(value) <= MAX_PLAYERS_LISTED:
                raise ValidationError(f"must list 1 to {MAX_PLAYERS_LISTED} players")
            if not all(isinstance(v, dict) for v in value):
                raise ValidationError("every player setup must be an object")
            return value
        raise ValidationError("must be a player count or a list of player setups")


class SeatField(fields.Raw):
    """A seat number (0-based), or ``"chance"`` when ``allow_chance``."""

    def __init__(self, *, allow_chance: bool = False, **kwargs):
        self.allow_chance = allow_chance
        super().__init__(**kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 15:
            return value
        if self.allow_chance and value == "chance":
            return value
        raise ValidationError("must be a seat number" + (' or "chance"' if self.allow_chance else ""))


class StrictInteger(fields.Integer):
    def __init__(self, **kwargs):
        super().__init__(strict=True, **kwargs)


# ------------------------------------------------------------------ requests
class _Request(Schema):
    class Meta:
        unknown = RAISE


class Setup(_Request):
    """How a game starts: the same fields as ``new``."""

    players = PlayersField(required=True, metadata={
        "description": "A player count, or one setup object per player (e.g. `{\"name\": \"Ann\"}`; "
                       "some games take more, such as a Kozyablo deck).",
        "oneOf": [{"type": "integer", "minimum": 1, "maximum": MAX_PLAYERS_LISTED},
                  {"type": "array", "minItems": 1, "maxItems": MAX_PLAYERS_LISTED,
                   "items": {"$ref": "#/components/schemas/PlayerSetup"}}]})
    options = ObjectField(load_default=None, allow_none=True, metadata={
        "type": "object",
        "description": "Game options by name; omitted ones take their defaults "
                       "(`GET /v1/games/{game}` lists them)."})
    seed = StrictInteger(load_default=None, allow_none=True,
                         validate=validate.Range(0, MAX_SEED), metadata={
                             "description": "Seed of the chance generator (`chance: server`); "
                                            "random when omitted. Same seed and actions, same game."})
    card_set = fields.String(load_default="reference", validate=validate.Length(1, 64), metadata={
        "description": "Card set id (`GET /v1/games/{game}` lists them)."})


class NewRequest(Setup):
    """Start a game."""

    for_player = SeatField(allow_none=True, metadata={
        "description": "Also answer what this seat may see: `view` (its view of the new "
                       "state) and `events_for_player` (the setup events with every card it "
                       "may not see replaced by `\"hidden\"`), as `apply` and `replay` do; "
                       "`null`: a spectator. The full `state` and `events` are still returned, "
                       "for the host.",
        "anyOf": [{"type": "integer", "minimum": 0, "maximum": 15}, {"type": "null"}]})


class StateRequest(_Request):
    """Any request about one state."""

    state = GameStateField(required=True, metadata=_ref("GameState", "A full game state."))


class LegalActionsRequest(StateRequest):
    player = SeatField(allow_chance=True, load_default=None, allow_none=True, metadata={
        "description": "Only this player's actions (a seat, or `chance`); all pending players when omitted.",
        "anyOf": [{"type": "integer", "minimum": 0, "maximum": 15},
                  {"enum": ["chance"]}, {"type": "null"}]})


class ActionRequest(StateRequest):
    action = ObjectField(required=True, metadata=_ref("Action", "An action object, as `legal-actions` lists it."))


class ApplyRequest(ActionRequest):
    """Apply one action."""

    for_player = SeatField(allow_none=True, metadata={
        "description": "Also answer what this seat may see: `view` (its view of the new state) "
                       "and `events_for_player` (the events with every card it may not see "
                       "replaced by `\"hidden\"`); `null`: a spectator. The full `state` and "
                       "`events` are still returned, for the host.",
        "anyOf": [{"type": "integer", "minimum": 0, "maximum": 15}, {"type": "null"}]})


class CheckRequest(ActionRequest):
    """Check one action without applying it."""


class ScoreRequest(StateRequest):
    """Score a state."""


class ViewRequest(StateRequest):
    player = SeatField(required=True, allow_none=True, metadata={
        "description": "The seat whose view to return; `null` for a spectator.",
        "anyOf": [{"type": "integer", "minimum": 0, "maximum": 15}, {"type": "null"}]})


class ReplayRequest(_Request):
    setup = fields.Nested(Setup, required=True)
    actions = fields.List(ObjectField(metadata=_ref("Action", "One action.")), required=True,
                          validate=validate.Length(max=20_000), metadata={
                              "description": "The actions in order: the players' decisions, plus the "
                                             "chance outcomes in `chance: table` games."})
    for_player = SeatField(allow_none=True, metadata={
        "description": "Also answer what this seat may see: `view` (its view of the final "
                       "state) and `events_for_player` (every step's events, each card it may "
                       "not see before or after that step replaced by `\"hidden\"`, as `apply` "
                       "does); `null`: a spectator. The full answer is still returned.",
        "anyOf": [{"type": "integer", "minimum": 0, "maximum": 15}, {"type": "null"}]})


# ------------------------------------------- the same requests as shape specs
class _NonEmptyStr(shape.Str):
    """A string of 1 to ``max_length`` characters (as ``validate.Length(1, n)``)."""

    def ok(self, value, depth):
        return isinstance(value, str) and 0 < len(value) <= self.max_length


_OBJECT = shape.Obj({}, extra=True)  # any JSON object, contents checked later
_SEAT = shape.Int(0, 15)
_SEAT_OR_CHANCE = shape.OneOf(_SEAT, shape.Enum("chance"))
_SETUP_FIELDS = {
    "players": shape.OneOf(shape.Int(1, MAX_PLAYERS_LISTED),
                           shape.ListOf(_OBJECT, max_items=MAX_PLAYERS_LISTED, min_items=1)),
}
_SETUP_OPTIONAL = {"options": shape.Nullable(_OBJECT), "seed": shape.Nullable(shape.Int(0, MAX_SEED)),
                   "card_set": _NonEmptyStr(max_length=64)}
_SETUP = shape.Obj(_SETUP_FIELDS, _SETUP_OPTIONAL)
_STATE = {"state": _OBJECT}
_ACTION = {"state": _OBJECT, "action": _OBJECT}

#: request schema → the shape spec accepting exactly the envelopes its ``load`` accepts
ENVELOPE_SHAPES: dict[type[Schema], shape.Spec] = {
    NewRequest: shape.Obj(_SETUP_FIELDS, {**_SETUP_OPTIONAL, "for_player": shape.Nullable(_SEAT)}),
    LegalActionsRequest: shape.Obj(_STATE, {"player": shape.Nullable(_SEAT_OR_CHANCE)}),
    ApplyRequest: shape.Obj(_ACTION, {"for_player": shape.Nullable(_SEAT)}),
    CheckRequest: shape.Obj(_ACTION),
    ScoreRequest: shape.Obj(_STATE),
    ViewRequest: shape.Obj({**_STATE, "player": shape.Nullable(_SEAT)}),
    ReplayRequest: shape.Obj({"setup": _SETUP, "actions": shape.ListOf(_OBJECT, max_items=20_000)},
                             {"for_player": shape.Nullable(_SEAT)}),
}


# ----------------------------------------------------------------- responses
class _Response(Schema):
    class Meta:
        unknown = EXCLUDE


class Pending(_Response):
    player = fields.Raw(required=True, metadata={
        "anyOf": [{"type": "integer", "minimum": 0}, {"enum": ["chance"]}]})
    decision = fields.String(required=True, metadata={"description": "The kind of decision."})

    class Meta:
        unknown = INCLUDE


class PlayerScore(_Response):
    player = fields.Integer(required=True)
    total = fields.Raw(required=True, metadata={"type": "number"})
    breakdown = fields.Raw(required=True, metadata={
        "description": "Where the total comes from (game-specific: the typed operations "
                       "give each game's own shape).",
        "anyOf": [{"type": "object", "additionalProperties": True},
                  {"type": "array", "items": {"type": "object", "additionalProperties": True}}]})

    class Meta:
        unknown = INCLUDE


class Outcome(_Response):
    """Scores, whether the game is over, and the winners."""

    finished = fields.Boolean(required=True)
    winners = fields.List(fields.Integer(), required=True)
    scores = fields.List(fields.Nested(PlayerScore), required=True)

    class Meta:
        unknown = INCLUDE


class NewResponse(_Response):
    state = GameStateField(required=True, metadata=_ref("GameState", "The state after setup."))
    events = fields.List(fields.Raw(metadata=_ref("Event")), required=True)
    view = fields.Raw(metadata={"type": "object", "description":
                                "With `for_player`: that seat's view of the new state."})
    events_for_player = fields.List(fields.Raw(metadata=_ref("Event")), metadata={
        "description": "With `for_player`: the setup events, every card that seat may not "
                       "see replaced by `\"hidden\"`."})


class LegalActionsResponse(_Response):
    pending = fields.List(fields.Nested(Pending), required=True)
    actions = fields.List(fields.Raw(metadata=_ref("Action")), required=True, metadata={
        "description": "Every legal action; each can be sent to `apply` as it is. "
                       "Chance outcomes carry their exact `probability` (`p/q`)."})
    constraints = fields.Dict(keys=fields.String(), values=fields.Raw(metadata={"type": "object"}),
                              metadata={"description":
                                        "Per player (seat as key): the machine-readable constraint of a "
                                        "decision too large to list; `apply` validates the whole."})


class ApplyResponse(_Response):
    state = GameStateField(required=True, metadata=_ref("GameState", "The new state."))
    events = fields.List(fields.Raw(metadata=_ref("Event")), required=True)
    outcome = fields.Nested(Outcome, required=True)
    view = fields.Raw(metadata={"type": "object", "description":
                                "With `for_player`: that seat's view of the new state."})
    events_for_player = fields.List(fields.Raw(metadata=_ref("Event")), metadata={
        "description": "With `for_player`: the events, every card that seat may not see (in "
                       "the old or the new state) replaced by `\"hidden\"`."})


class CheckResponse(_Response):
    legal = fields.Boolean(required=True)
    rule = fields.String(metadata={"description": "The clause the action breaks (`RAI-15`)."})
    reason = fields.String(metadata={"description": "One sentence why."})
    fizzles = fields.Boolean(metadata={
        "description": "Only with `legal: false`: the action breaks `rule`, yet `apply` would "
                       "accept it and let it fizzle: no effect, its card just goes to the "
                       "discard (Raiders `illegal_play: fizzle`, RAI-30)."})


class ViewResponse(_Response):
    view = fields.Raw(required=True, metadata={
        "type": "object",
        "description": "The state as that player may see it: hidden cards become counts or opaque "
                       "ids, the random state is gone. Not accepted back as a state."})


class ReplayStep(_Response):
    index = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The action's index; `null` for the setup."})
    events = fields.List(fields.Raw(metadata=_ref("Event")), required=True)


class ReplayResponse(_Response):
    state = GameStateField(required=True, metadata=_ref("GameState", "The final state."))
    outcome = fields.Nested(Outcome, required=True)
    events = fields.List(fields.Nested(ReplayStep), required=True, metadata={
        "description": "Per step, what happened: first the setup, then each action."})
    view = fields.Raw(metadata={"type": "object", "description":
                                "With `for_player`: that seat's view of the final state."})
    events_for_player = fields.List(fields.Nested(ReplayStep), metadata={
        "description": "With `for_player`: `events` with every card that seat may not see "
                       "(before or after each step) replaced by `\"hidden\"`."})


class Title(_Response):
    en = fields.String(required=True)
    ru = fields.String(required=True)


class PlayerCount(_Response):
    min = fields.Integer(required=True)
    max = fields.Integer(required=True)


class OptionInfo(_Response):
    name = fields.String(required=True)
    type = fields.String(required=True, validate=validate.OneOf(["boolean", "integer", "string"]))
    default = fields.Raw(required=True, allow_none=True, metadata={
        "type": ["boolean", "integer", "string"]})
    description = fields.String(required=True)
    nullable = fields.Boolean(required=True)
    clause = fields.String()
    choices = fields.List(fields.Raw(metadata={"type": ["boolean", "integer", "string"]}))
    minimum = fields.Integer()
    maximum = fields.Integer()


class GameInfo(_Response):
    id = fields.String(required=True)
    title = fields.Nested(Title, required=True)
    rules_version = fields.String(required=True)
    players = fields.Nested(PlayerCount, required=True)
    options = fields.List(fields.Nested(OptionInfo), required=True)
    action_types = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    decisions = fields.Dict(
        keys=fields.String(), values=fields.List(fields.String()), required=True,
        metadata={"description": "Each pending `decision` kind with the action types that "
                                 "may be sent while it is pending."})
    event_types = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    card_sets = fields.List(fields.String(), required=True)
    targets = fields.Dict(metadata={
        "description": "Raiders only: the money a side needs to win and the clause of each "
                       "rule (RAI-6 36; RAI-7 `short_game` by player count; RAI-8 `teams` "
                       "combined)."})


class GameList(_Response):
    games = fields.List(fields.Nested(GameInfo), required=True)


class CardSetRef(_Response):
    id = fields.String(required=True)
    hash = fields.String(required=True)


class CardsResponse(_Response):
    game = fields.String(required=True)
    card_set = fields.Nested(CardSetRef, required=True)
    meta = fields.Dict(required=True, metadata={"description": "The set's metadata (source, whether reconstructed)."})
    filters = fields.Dict(keys=fields.String(), values=fields.String(), required=True, metadata={
        "description": "The filters applied (query parameters)."})
    count = fields.Integer(required=True, metadata={"description": "Cards listed, over all groups."})
    cards = fields.Dict(keys=fields.String(), values=fields.List(fields.Dict()), required=True, metadata={
        "description": "The set's card lists by group (as in the card file), filtered."})
    tables = fields.Dict(required=True, metadata={
        "description": "The set's other data (e.g. set bonuses by property kind), unfiltered."})


class Health(_Response):
    status = fields.String(required=True, metadata={"enum": ["ok"]})


class Ready(_Response):
    status = fields.String(required=True, metadata={"enum": ["ready"]})
    checks = fields.Dict(keys=fields.String(), values=fields.String(), required=True)


class ClauseLink(_Response):
    """A clause an option error refers to."""

    rule = fields.String(required=True, metadata={"description": "Clause id (`RAI-8`)."})
    rule_text = fields.String(metadata={"description": "The clause's short text."})
    rule_url = fields.String(metadata={"description": "Where the whole clause is served."})


class Problem(_Response):
    """An error, as ``application/problem+json`` (RFC 9457)."""

    type = fields.String(required=True, metadata={
        "format": "uri-reference", "enum": [t.uri for t in PROBLEM_TYPES.values()],
        "description": f"`{PROBLEM_BASE}<slug>`, relative to this server: a stable id of the "
                       "kind of error, and a page that explains it (`GET /problems`)."})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True)
    instance = fields.String(metadata={
        "format": "uri", "example": "urn:referee:request:4f1c0a9e2b7d3c18000000000000002a",
        "description": "`urn:referee:request:<X-Request-Id>`: this occurrence (the log lines "
                       "of the request carry the same id)."})
    rule = fields.String(metadata={"description": "Illegal action: the clause it breaks (`RAI-15`)."})
    rule_text = fields.String(metadata={
        "description": "The clause's short text from the rules reference, in the language of "
                       "`Accept-Language` (`Content-Language` says which)."})
    rule_url = fields.String(metadata={
        "description": "The clause in the rules reference: `/v1/games/<game>/rules/<id>`."})
    index = fields.Integer(metadata={"description": "Replay: the index of the first illegal action."})
    errors = fields.Dict(keys=fields.String(), values=fields.List(fields.String()), metadata={
        "description": "Malformed request: field path (`state.players.0.hand`) → messages."})
    clauses = fields.Dict(keys=fields.String(), values=fields.Nested(ClauseLink), metadata={
        "description": "Invalid options: option field (`options.teams`) → the clause behind "
                       "that option, with its text and link."})
    violations = fields.List(fields.Dict(), metadata={
        "description": "Invalid setup: every violation at once, each `{rule, reason, ...}` "
                       "plus `rule_text` and `rule_url`."})

    class Meta:
        unknown = INCLUDE


class RuleClause(_Response):
    """One clause of a game's rules reference."""

    game = fields.String(metadata={"description": "Present when one clause is asked for."})
    language = fields.String(metadata={"enum": ["en", "ru"]})
    id = fields.String(required=True, metadata={"description": "The id errors cite (`RAI-12`)."})
    title = fields.String(required=True)
    short = fields.String(required=True, metadata={
        "description": "The first paragraph, plain text: what a problem's `rule_text` quotes."})
    text = fields.String(required=True, metadata={"description": "The whole clause, markdown."})
    ruling = fields.Boolean(required=True, metadata={
        "description": "The clause is a ruling: the service's decision where the original "
                       "rulebook is silent or ambiguous."})
    has_ruling = fields.Boolean(required=True, metadata={
        "description": "A ruling, or a rule with a ruling paragraph in it."})
    section = fields.String(required=True, metadata={"description": "The section it is in."})
    url = fields.String(required=True, metadata={"description": "Where this clause is served."})


class RulesReference(_Response):
    game = fields.String(required=True)
    language = fields.String(required=True, metadata={"enum": ["en", "ru"]})
    title = fields.String(required=True)
    clauses = fields.List(fields.Nested(RuleClause), required=True)


class ProblemTypeInfo(_Response):
    type = fields.String(required=True, metadata={"description": "The `type` URI."})
    slug = fields.String(required=True)
    status = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The HTTP status it comes with (null: varies)."})
    title = fields.String(required=True)
    when = fields.String(required=True)
    fix = fields.String(required=True)


class ProblemTypeList(_Response):
    problem_types = fields.List(fields.Nested(ProblemTypeInfo), required=True)


def flatten_messages(messages, prefix: str = "") -> dict[str, list[str]]:
    """Marshmallow's nested messages as ``{"field.path": [messages]}``.

    >>> flatten_messages({"setup": {"players": ["bad"]}, "x": ["Unknown field."]})
    {'setup.players': ['bad'], 'x': ['unknown field']}
    """
    out: dict[str, list[str]] = {}
    if isinstance(messages, dict):
        for key, sub in messages.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            for k, v in flatten_messages(sub, path).items():
                out.setdefault(k, []).extend(v)
    elif isinstance(messages, list):
        for m in messages:
            if isinstance(m, (dict, list)):
                for k, v in flatten_messages(m, prefix).items():
                    out.setdefault(k, []).extend(v)
            else:
                out.setdefault(prefix or "body", []).append(_plain(str(m)))
    else:
        out.setdefault(prefix or "body", []).append(_plain(str(messages)))
    return out


_PLAIN = {"Unknown field.": "unknown field",
          "Missing data for required field.": "missing required field",
          "Field may not be null.": "may not be null",
          "Not a valid integer.": "must be an integer",
          "Not a valid string.": "must be a string",
          "Not a valid list.": "must be a list"}


def _plain(message: str) -> str:
    return _PLAIN.get(message, message)
