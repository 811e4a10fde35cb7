"""Request and response envelopes of the HTTP API.

The envelopes are the small JSON objects around a game state: ``{state,
action}``, ``{players, options, seed}`` and so on.

* **Requests** are declared once, as ``shape`` specs (``Envelope``): the same
  declaration checks an incoming body (its JSON Schema compiled by
  jsonschema-rs, the field paths and messages from ``shape.validate`` when it
  refuses), fills the defaults in, and is the request's component in
  ``openapi.yaml`` (``Envelope.schema``).  The state inside passes through
  as any object: the engine's ``validate_state`` checks it.
* **Responses** are marshmallow schemas, for apispec only (never loaded).

``load`` is the one way a request body is checked, on every route: an
``Envelope``; a game operation's ``shape`` spec; or, where a request is not yet
a shape declaration (Kozyablo's deck, read by its card-data schema; the
tournament), a marshmallow schema, its messages flattened to field paths.

Fields whose shape depends on the game (state, action, event) are ``$ref``s
to the components built from the engines' shape specs (``GameState``,
``Action``…): ``shape.Ref`` in a request, ``ref`` metadata in a response.

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

from marshmallow import EXCLUDE, INCLUDE, Schema, ValidationError, fields, validate

from service.games import shape
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
from service.problems import PROBLEM_BASE


def _ref(name: str, description: str = "") -> dict[str, Any]:
    return {"ref": name, "description": description} if description else {"ref": name}


# ------------------------------------- fields for a blueprint's own marshmallow schemas
class GameStateField(fields.Raw):
    """A full game state (checked by the engine, never by marshmallow)."""

    def _deserialize(self, value: object, attr: str | None, data: Any,
                     **kwargs: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise ValidationError("must be an object (a game state as `new` or `apply` returned it)")
        return value


class ObjectField(fields.Raw):
    """Any JSON object, passed through as it is (its content is checked later)."""

    def _deserialize(self, value: object, attr: str | None, data: Any,
                     **kwargs: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise ValidationError("must be an object")
        return value


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
        errors = shape.problems(self.spec, body)
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

#: a request declaration ``load`` takes (``Operation.request``: a shape spec or a
#: marshmallow schema class)
Request = Envelope | shape.Spec | Schema | type[Schema]
#: one loaded marshmallow schema per schema class
_LOADERS: dict[type[Schema], Schema] = {}


def load(request: Request, body: Any) -> dict[str, Any]:
    """``body`` checked against its declaration (defaults filled in), or ``MalformedInput``
    naming each field: the one path every request body takes (module docstring)."""
    if isinstance(request, Envelope):
        return request.load(body)
    if isinstance(request, shape.Spec):
        errors = shape.problems(request, body, "")
        if errors:
            raise MalformedInput(errors)
        checked: dict[str, Any] = body  # an object: the spec said so
        return checked
    if isinstance(request, type):
        loader = _LOADERS.get(request)
        if loader is None:
            loader = _LOADERS[request] = request()
    else:
        loader = request
    try:
        loaded: dict[str, Any] = loader.load(body)
    except ValidationError as exc:
        raise MalformedInput(flatten_messages(exc.messages)) from None
    return loaded


def flatten_messages(messages: object, prefix: str = "") -> dict[str, list[str]]:
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
                out.setdefault(prefix or "body", []).append(_PLAIN.get(str(m), str(m)))
    else:
        out.setdefault(prefix or "body", []).append(_PLAIN.get(str(messages), str(messages)))
    return out


_PLAIN = {"Unknown field.": "unknown field",
          "Missing data for required field.": "missing required field",
          "Field may not be null.": "may not be null",
          "Not a valid integer.": "must be an integer",
          "Not a valid string.": "must be a string",
          "Not a valid list.": "must be a list"}


class Setup(Schema):
    """``SETUP`` for a blueprint's own marshmallow schema (``fields.Nested(Setup)``): it
    loads with the one declaration, and ``service.openapi`` documents it as ``Setup``."""

    def load(self, data: Any, **kwargs: Any) -> dict[str, Any]:
        try:
            return SETUP.load(data)
        except MalformedInput as exc:
            raise ValidationError(exc.errors) from None


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


class UpgradeChange(_Response):
    clause = fields.String(required=True, allow_none=True)
    subject = fields.String(required=True)
    summary = fields.String(required=True, metadata={
        "description": "The change, in the request's language (`Accept-Language`)."})


class RulesUpgrade(_Response):
    """A state (or a replay) of an older rules version was carried over (docs/api.md,
    "States of older rules versions")."""

    from_ = fields.String(required=True, data_key="from", metadata={
        "description": "The rules version the state (or replay) was written for."})
    to = fields.String(required=True, metadata={"description": "The rules version played."})
    clauses = fields.List(fields.String(), required=True, metadata={
        "description": "The clauses that changed between them."})
    changes = fields.List(fields.Nested(UpgradeChange), required=True, metadata={
        "description": "What each step changed (`GET /v1/games/{game}`: `rules_versions`)."})


def _rules_upgrade() -> fields.Nested:
    return fields.Nested(RulesUpgrade, metadata={
        "description": "Only when the state (or the replay) was of an older rules version this "
                       "service serves: it was upgraded on read (also said by the header "
                       "`Referee-Rules-Upgraded`). The answer is about the upgraded state."})


class Outcome(_Response):
    """Scores, whether the game is over, and the winners."""

    finished = fields.Boolean(required=True)
    winners = fields.List(fields.Integer(), required=True)
    scores = fields.List(fields.Nested(PlayerScore), required=True)
    rules_upgrade = _rules_upgrade()  # in the answer of `score` only

    class Meta:
        unknown = INCLUDE


class NewResponse(_Response):
    state = GameStateField(required=True, metadata=_ref("GameState", "The state after setup."))
    events = fields.List(fields.Raw(metadata=_ref("Event")), required=True)
    seat_tokens = fields.List(fields.String(), metadata={
        "description": "On a server that seals states (`REFEREE_SEALING_KEYS`): one token per "
                       "seat, in seat order. Hand each player its own; on a sealed state, "
                       "what a seat may see needs its token in `Referee-Seat-Token` "
                       "(docs/trust.md)."})
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
    previews = fields.List(fields.Raw(metadata=_ref("Preview")), metadata={
        "description": "With `preview: true`: per listed action, in the same order, what it "
                       "would do."})
    rules_upgrade = _rules_upgrade()


class ApplyResponse(_Response):
    state = GameStateField(required=True, metadata=_ref("GameState", "The new state."))
    events = fields.List(fields.Raw(metadata=_ref("Event")), required=True)
    outcome = fields.Nested(Outcome, required=True)
    view = fields.Raw(metadata={"type": "object", "description":
                                "With `for_player`: that seat's view of the new state."})
    events_for_player = fields.List(fields.Raw(metadata=_ref("Event")), metadata={
        "description": "With `for_player`: the events, every card that seat may not see (in "
                       "the old or the new state) replaced by `\"hidden\"`."})
    rules_upgrade = _rules_upgrade()


class CheckResponse(_Response):
    legal = fields.Boolean(required=True)
    rule = fields.String(metadata={"description": "The clause the action breaks (`RAI-15`)."})
    reason = fields.String(metadata={"description": "One sentence why."})
    fizzles = fields.Boolean(metadata={
        "description": "Only with `legal: false`: the action breaks `rule`, yet `apply` would "
                       "accept it and let it fizzle: no effect, its card just goes to the "
                       "discard (Raiders `illegal_play: fizzle`, RAI-30)."})
    rules_upgrade = _rules_upgrade()


class ViewResponse(_Response):
    view = fields.Raw(required=True, metadata={
        "type": "object",
        "description": "The state as that player may see it: hidden cards become counts or opaque "
                       "ids, the random state is gone. Not accepted back as a state."})
    rules_upgrade = _rules_upgrade()


class ReplayStep(_Response):
    index = fields.Integer(required=True, allow_none=True, metadata={
        "description": "The action's index; `null` for the setup."})
    events = fields.List(fields.Raw(metadata=_ref("Event")), required=True)


class ReplayResponse(_Response):
    state = GameStateField(required=True, metadata=_ref("GameState", "The final state."))
    outcome = fields.Nested(Outcome, required=True)
    events = fields.List(fields.Nested(ReplayStep), required=True, metadata={
        "description": "Per step, what happened: first the setup, then each action."})
    seat_tokens = fields.List(fields.String(), metadata={
        "description": "On a server that seals states (`REFEREE_SEALING_KEYS`): one token per "
                       "seat, in seat order. Hand each player its own; on a sealed state, "
                       "what a seat may see needs its token in `Referee-Seat-Token` "
                       "(docs/trust.md)."})
    view = fields.Raw(metadata={"type": "object", "description":
                                "With `for_player`: that seat's view of the final state."})
    events_for_player = fields.List(fields.Nested(ReplayStep), metadata={
        "description": "With `for_player`: `events` with every card that seat may not see "
                       "(before or after each step) replaced by `\"hidden\"`."})
    rules_upgrade = _rules_upgrade()


class RankedAction(_Response):
    action = fields.Raw(required=True, metadata=_ref("Action"))
    visits = fields.Integer(required=True, metadata={
        "description": "Search iterations that began with this action."})
    mean = fields.Float(required=True, allow_none=True, metadata={
        "description": "Its mean result for the player: 1 a win, 0 a loss, ½ a shared win (an "
                       "unfinished rollout is rated by the position); `null`: never tried."})
    ci95 = fields.List(fields.Float(), required=True, allow_none=True, metadata={
        "description": "95% interval of `mean`, clipped to [0, 1]; `null`: never tried.",
        "minItems": 2, "maxItems": 2})


class LineStep(_Response):
    action = fields.Raw(required=True, metadata=_ref("Action"))
    visits = fields.Integer(required=True)


class SuggestResponse(_Response):
    """The player's legal actions ranked by the search (most visited first)."""

    game = fields.String(required=True)
    player = fields.Integer(required=True)
    iterations = fields.Integer(required=True, metadata={"description": "Iterations searched."})
    best = fields.Raw(required=True, allow_none=True, metadata={
        "description": "The most visited action (`null` only if none was tried).",
        "anyOf": [{"$ref": "#/components/schemas/Action"}, {"type": "null"}]})
    actions = fields.List(fields.Nested(RankedAction), required=True, metadata={
        "description": "Every legal action of the player, most visited first."})
    principal_line = fields.List(fields.Nested(LineStep), required=True, metadata={
        "description": "`best`, then the most visited reply at each step below it (any "
                       "player's decision; chance left out)."})
    cpu_ms = fields.Float(required=True, allow_none=True, metadata={
        "description": "CPU time the search took."})
    seed = fields.Integer(required=True, metadata={
        "description": "The search's seed: the same request with it and an iteration budget "
                       "gives the same answer."})


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
        "type": ["boolean", "integer", "string"],
        "description": "The value the game takes when the option is left out; `null` also "
                       "when it depends on the player count (`default_by_players`)."})
    default_by_players = fields.Dict(keys=fields.String(), values=fields.Raw(metadata={
        "type": ["boolean", "integer", "string"]}), metadata={
        "description": "Present when the default depends on the player count: the value the "
                       "game takes when the option is left out, by player count (`\"5\": true`)."})
    description = fields.String(required=True)
    nullable = fields.Boolean(required=True)
    clause = fields.String()
    choices = fields.List(fields.Raw(metadata={"type": ["boolean", "integer", "string"]}))
    minimum = fields.Integer()
    maximum = fields.Integer()


class RulesChange(_Response):
    clause = fields.String(required=True, allow_none=True, metadata={
        "description": "The clause id of the rules reference (`RAI-6a`), or null for a change "
                       "of the wire only."})
    subject = fields.String(required=True, metadata={
        "description": "What a client sees change: `rule`, `action <type>[.<field>]`, "
                       "`event <type>[.<field>]`, `decision <kind>`, `state <field>`."})
    summary = fields.Nested(Title, required=True, metadata={"description": "The change, in "
                                                                          "English and Russian."})


class RulesVersionInfo(_Response):
    id = fields.String(required=True, metadata={
        "description": "The `rules_version` a state of this version carries (`raiders/2`)."})
    version = fields.String(required=True, metadata={
        "description": "Its semantic version (`MAJOR.MINOR.PATCH`; the id names the major)."})
    current = fields.Boolean(required=True, metadata={
        "description": "The version this service plays: new games and answers are written in it."})
    served = fields.Boolean(required=True, metadata={
        "description": "A state or replay of this version is accepted (an older one is upgraded "
                       "on read by its declared migration)."})
    changes = fields.List(fields.Nested(RulesChange), required=True, metadata={
        "description": "What this version changed from the one before it (empty for the first)."})


class GameInfo(_Response):
    id = fields.String(required=True)
    title = fields.Nested(Title, required=True)
    rules_version = fields.String(required=True)
    rules_semver = fields.String(required=True, metadata={
        "description": "The semantic version of the rules played (`MAJOR.MINOR.PATCH`); "
                       "`rules_version` names its major (docs/api.md, \"Versions\")."})
    rules_versions = fields.List(fields.Nested(RulesVersionInfo), required=True, metadata={
        "description": "Every rules version of the game, newest first, with the clauses each "
                       "one changed and whether a state of it is served."})
    players = fields.Nested(PlayerCount, required=True)
    options = fields.List(fields.Nested(OptionInfo), required=True)
    action_types = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    decisions = fields.Dict(
        keys=fields.String(), values=fields.List(fields.String()), required=True,
        metadata={"description": "Each pending `decision` kind with the action types that "
                                 "may be sent while it is pending."})
    event_types = fields.Dict(keys=fields.String(), values=fields.String(), required=True)
    card_sets = fields.List(fields.String(), required=True)
    takes_views = fields.Boolean(required=True, metadata={
        "description": "`legal-actions` and `check` take a player's `view` in place of the "
                       "state; `suggest` too, but for Kozyablo, whose view does not show the "
                       "card lists its search deals from (KOZ-1)."})
    suggests = fields.Boolean(required=True, metadata={
        "description": "`suggest` ranks a player's actions (the game implements `determinize`)."})
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
        "format": "uri-reference",
        "anyOf": [{"$ref": "#/components/schemas/ProblemType"}, {"type": "string"}],
        "description": f"`{PROBLEM_BASE}<slug>`, relative to this server: a stable id of the "
                       "kind of error, and a page that explains it (`GET /problems`). One of "
                       "the known types, or one a later version added (a minor version may "
                       "add types for new cases: treat an unknown one by its `status`)."})
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
    from_version = fields.String(metadata={
        "description": "Rules changed: the rules version the state, view or replay was "
                       "written for."})
    to_version = fields.String(metadata={"description": "Rules changed: the version played."})
    changed_clauses = fields.List(fields.String(), metadata={
        "description": "Rules changed: the clauses that changed between the two versions "
                       "(those the state is in the middle of, when a migration refused it)."})
    changes = fields.List(fields.Nested(UpgradeChange), metadata={
        "description": "Rules changed: what each of those clauses changed."})
    game = fields.String(metadata={
        "description": "Step spent (`step-spent`): the game id (`chain.game`) of the step."})
    step = fields.Integer(metadata={
        "description": "Step spent (`step-spent`): the step (`chain.step`) already played."})

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


# the answers of ``apply-chance`` and ``transcripts/verify``: unknown members refused
# (``additionalProperties: false`` in the document, as they always were)
class ChanceBatchResponse(Schema):
    state = GameStateField(required=True, metadata=_ref("GameState", "The state after the last."))
    events = fields.List(fields.Nested(ReplayStep), required=True)
    outcome = fields.Nested(Outcome, required=True)


class TranscriptFork(Schema):
    step = fields.Integer(required=True)
    states = fields.List(fields.Integer(), required=True, metadata={
        "description": "Indexes (in `states`) of the different states at this step."})


class TranscriptBreak(Schema):
    state = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Index in `states`; `null` when it concerns them all."})
    reason = fields.String(required=True)


class VerifyTranscriptResponse(Schema):
    valid = fields.Boolean(required=True, metadata={"description": "No fork and no break."})
    game = fields.String(required=True, allow_none=True, metadata={
        "description": "The game id of the chain (`new` drew it)."})
    steps = fields.List(fields.Integer(), required=True, metadata={
        "description": "The steps seen (actions since `new`), ascending."})
    forks = fields.List(fields.Nested(TranscriptFork), required=True)
    breaks = fields.List(fields.Nested(TranscriptBreak), required=True)


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
