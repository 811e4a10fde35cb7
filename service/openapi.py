"""Generate ``openapi.yaml`` (OpenAPI 3.1) with apispec.

Built from the declarations, so the documented shapes and the enforced shapes
cannot drift:

* every operation's record (``service.http.route.Route``, declared beside its
  handler in the blueprints of ``service.http.blueprints``): its path and method,
  body, answers, examples and problem statuses (``operation``);
* the envelopes in ``schemas/envelopes.py``: the requests' JSON Schema from
  their shape declarations (the same that checks them), the responses and
  ``Problem`` from theirs (``envelopes.ANSWERS``, ``shape.published``);
* each engine's shape specs (``game.state_spec``, ``game.action_specs``,
  ``game.player_setup_spec``) as JSON Schema: components ``<Game>State``,
  ``<Game>Action`` (one of its action types, each a component of its own),
  ``<Game>PlayerSetup`` and ``<Game>Event``, gathered in ``GameState``,
  ``Action``, ``PlayerSetup`` and ``Event``.

Each route of the game contract (``Route.contract``) then gets its typed twin per
game (``finish``): ``/v1/games/<id>/<verb>`` with ``<Game>NewRequest``,
``<Game>ApplyResponse``… — the generic envelopes with their game refs pointed at
that game's types, player counts and seats bounded, and the option rules of each
player count read from the options' own ``check`` (``per_count_rules``) — plus a
real example from a seeded mid-game state (``mid_game``, ``Contract.example``) and
``links`` from every answer holding a state.  The generic paths (``{game}`` an
enum of the registered ids) follow them.

Run ``python -m service.openapi > openapi.yaml``; a test fails when the
committed file differs from a fresh generation, and another when a Flask rule is
not a declared route (``tests/http/test_routes.py``).  A new route is one
``Routes.declare`` beside its handler; a component it names that is new goes in
``schemas/envelopes.py``, registered here.  Every status a route can answer with
must be listed (the HTTP tests check real responses against the document); error
responses reference the shared ``#/components/responses/<status>`` (a
``Problem``); add a status missing from ``ERROR_RESPONSES`` (e.g. 409) with
``spec.components.response``.
"""

from __future__ import annotations

import copy
import random
import sys
from collections.abc import Callable, Mapping
from typing import Any

import yaml
from apispec import APISpec

import card_db
from schemas import envelopes, tournaments
from schemas.document import EXAMPLE_SEED, camel, options_for_count
from service.cards import filterable_fields, matches, split_card_data
from service.games import registry, shape
from service.games.base import AnyGame, StateIn
from service.games.chance import CHANCE
from service.games.objects import ActionObject
from service.games.options import Option
from service.games.playout import random_playout
from service.games.versions import RulesVersion
from service.http import batch, blueprints
from service.http.route import GAME, MidGame, Param, Route, Success
from service.limits import MAX_BODY_BYTES, MAX_PLAYOUT_STEPS, MAX_SIGNATURE_LENGTH
from service.problem_types import PROBLEM_MIME, PROBLEM_TYPES
from service.version import CONTRACT_VERSION

#: ``info.version``: the contract's semantic version (``service.version``; pyproject.toml's
#: ``version`` is the same number)
API_VERSION = CONTRACT_VERSION
JSON = "application/json"

DESCRIPTION = """\
A referee that keeps no game: send a game state and a proposed action; get
back the legal actions, the new state, what happened and the scores.  It
remembers only what fairness needs: the steps of sealed games already played
(a step answers one action: another → 409 `step-spent`), and who owns an
evaluation.

Errors are `application/problem+json` (RFC 9457): `type`, `title`, `status`,
`detail`, `instance` (`urn:referee:request:<X-Request-Id>`), plus `rule` (and
`index` in a replay) for an illegal action and `errors` (field path →
messages) for a malformed request. `type` is `/problems/<slug>`, relative to
this server, where a page explains it (`GET /problems` lists them). A problem
that names a clause also carries `rule_text`, the clause's short text in the
language of `Accept-Language` (`en` or `ru`), and `rule_url`, the clause in
the rules reference (`GET /v1/games/{game}/rules/{clause}`).

Limits: a body over `MAX_CONTENT_LENGTH` (1 MiB by default) → 413; JSON nested
deeper than 1024 levels, a state nested deeper than 32, or a list longer than
its shape allows → 400 naming the field; a replay of more than 20,000 actions
→ 400; evaluation work per job is capped per kind (`GET /v1/evaluations/kinds`,
the refusal names the cap).

Numbers: where a schema says `integer`, any number without a fraction part is
taken, however written (`3.0` is `3`, as JSON Schema reads it); answers write
integers as `3`.

Sealed states: with `REFEREE_SEALING_KEYS` every state returned is the
spectator's view plus `sealed` (the whole state, AES-256-GCM-SIV); with signing or
sealing keys each carries a `chain` (`POST /v1/transcripts/verify`).

Signed states: with `REFEREE_STATE_KEYS` configured every state returned
carries `signature` (HMAC-SHA256 of the state's orjson encoding with sorted
keys, `signature` left out); a state sent back with an altered signature →
403 `bad-signature`; with `REFEREE_REQUIRE_SIGNED=1`, or the request header
`Referee-Require-Signed: true`, a state without one → 400 `unsigned-state`.

Operations: every response carries `X-Request-Id` (the client's, or a new
one); with `REFEREE_API_KEYS`, `/v1/evaluations` needs `Authorization: Bearer
<key>` or `X-API-Key` (else 401), and an evaluation answers only the key that
submitted it (any other: 404); with rate limits configured a client over
its limit gets 429 with `Retry-After` (also, with
`REFEREE_RATE_LIMIT_FAILURE=closed`, while the rate-limit counters in Redis do
not answer).
"""

ENVELOPES = (  # the requests' (``envelopes.REQUESTS``) and answers' (``envelopes.ANSWERS``)
    "Pending", "PlayerScore", "UpgradeChange", "RulesUpgrade", "Outcome", "ReplayStep", "Setup",
    "Title", "PlayerCount", "OptionInfo", "RulesChange", "RulesVersionInfo", "GameInfo",
    "CardSetRef",
    "NewRequest", "NewResponse", "LegalActionsRequest", "LegalActionsResponse",
    "ApplyRequest", "ApplyResponse", "CheckRequest", "CheckResponse", "ScoreRequest",
    "ViewRequest", "ViewResponse", "ReplayRequest", "ReplayResponse",
    "RankedAction", "LineStep", "SuggestRequest", "SuggestResponse",
    "GameList", "CardsResponse", "Health", "Ready", "ClauseLink", "Problem",
)

#: reusable error responses: status -> description
ERROR_RESPONSES = {
    400: "Malformed request: not JSON, a schema error, an invalid state (`errors` names each "
         "field), or an unsigned state where signatures are required (`unsigned-state`).",
    401: "An API key is required (`Authorization: Bearer <key>` or `X-API-Key`).",
    403: "The state's `signature` does not match it (`bad-signature`), or its `sealed` does "
         "not open (`bad-seal`); on a sealed state (or an evaluation of one), the request "
         "lacks the seat token it needs (`seat-token-required`) or sends one that is not "
         "this game's (`bad-seat-token`).",
    404: "Unknown game, card set, clause or route.",
    405: "This path does not take that method (`Allow` lists the ones it does).",
    409: "A conflict: the evaluation is already over (finished or failed: nothing to cancel), "
         "or the step of a sealed game was already played with another action (`step-spent`: "
         "`game` and `step` name it; the same action again answers as before).",
    413: "Request body larger than `MAX_CONTENT_LENGTH`.",
    415: "The body is not `application/json`.",
    422: "An illegal action (`rule`, `detail`; `index` in a replay) or an invalid setup (`violations`).",
    429: "Too many requests from this client, or (with `REFEREE_RATE_LIMIT_FAILURE=closed`) "
         "the rate-limit counters do not answer; `Retry-After` says when to retry.",
    500: "An unexpected failure (logged); never caused by bad input.",
    503: "Not ready: card data not loaded or Redis unreachable; or the register of played "
         "steps does not answer (`step-register-unavailable`: nothing was played); "
         "`Retry-After` says when to retry.",
}


def error(status: int) -> dict[str, Any]:
    return {"$ref": f"#/components/responses/{status}"}


def ok(schema: str, description: str, mime: str = JSON) -> dict[str, Any]:
    return {"description": description,
            "content": {mime: {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}


def body(schema: str, example: dict[str, Any] | None = None) -> dict[str, Any]:
    media = {"schema": {"$ref": f"#/components/schemas/{schema}"}}
    if example is not None:
        media["example"] = example
    return {"required": True, "content": {JSON: media}}


def _older_served(game: AnyGame) -> list[tuple[RulesVersion, list[str]]]:
    """Each step of the game's rules with the served versions before it (oldest first):
    their states are read as they were written, without what the step added."""
    history = game.rules_versions
    return [(step, before) for n, step in enumerate(history)
            for before in [[v.id for v in history[:n] if v.id in game.served_versions]] if before]


def _older_hashes(game: AnyGame) -> dict[str, list[str]]:
    """Set id → the hashes a served older version's states carry for it besides today's."""
    out: dict[str, list[str]] = {}
    for step, _ in _older_served(game):
        for digest, set_id in step.previous_card_set_hashes.items():
            out.setdefault(set_id, []).append(digest)
    return out


def _older_shapes(game: AnyGame, state: dict[str, Any]) -> None:
    """The state schema (in place) without requiring the fields a served older version's
    states lack (``RulesVersion.added_state_fields``), each saying which versions lack it."""
    for step, before in _older_served(game):
        for path in step.added_state_fields:
            _not_required(state, path, f"Absent in a state of {', '.join(before)} (read as "
                                       f"written and upgraded); every state of {step.id} "
                                       "and later has it.")


def _not_required(schema: dict[str, Any], path: str, note: str) -> None:
    """The field at ``path`` (``players[].out``) no longer required by its
    object (in place; through ``anyOf`` a nullable object), with ``note`` said of it.

    >>> schema = {"type": "object", "required": ["p"], "properties": {"p": {"type": "array",
    ...     "items": {"required": ["out"], "properties": {"out": {"type": "boolean"}}}}}}
    >>> _not_required(schema, "p[].out", "Absent in v1.")
    >>> schema["properties"]["p"]["items"]
    {'required': [], 'properties': {'out': {'type': 'boolean', 'description': 'Absent in v1.'}}}
    """
    def obj(node: dict[str, Any]) -> dict[str, Any]:  # a nullable object: its object branch
        return next((b for b in node.get("anyOf", []) if "properties" in b), node)

    *parents, name = path.split(".")
    node = obj(schema)
    for part in parents:
        node = node["properties"][part.removesuffix("[]")]
        node = obj(node["items"] if part.endswith("[]") else node)
    node["required"] = [k for k in node.get("required", []) if k != name]
    field = node["properties"][name]
    said = field.get("description", "").rstrip()
    field["description"] = f"{said}{'' if not said or said.endswith('.') else '.'} {note}".strip()


def game_components(spec: APISpec, game: AnyGame) -> None:
    """``<Game>State``, ``<Game>Action`` (+ one per action type) and ``<Game>Event``."""
    name = camel(game.id)
    state = game.state_spec.schema()
    state["properties"] = {**state["properties"], "game": {"const": game.id},
                           "signature": {"type": "string", "maxLength": MAX_SIGNATURE_LENGTH,
                                         "examples": ["hmac-sha256:" + "0" * 64],
                                         "description": "Present when the service signs states "
                                                        "(`REFEREE_STATE_KEYS`): `hmac-sha256:` "
                                                        "and 64 hex digits; send it back as is. A "
                                                        "server without keys ignores it; one with "
                                                        "keys answers 403 `bad-signature` to any "
                                                        "other value."},
                           "sealed": {"type": "string", "maxLength": MAX_BODY_BYTES, "description":
                                      "Present when the service seals states "
                                      "(`REFEREE_SEALING_KEYS`): `a256gcmsiv:<key id>:<data>`, "
                                      "the whole state padded and encrypted (an older "
                                      "`a256gcm:` seal still opens); the other members are then only "
                                      "the spectator's view. Send it back as is (403 `bad-seal` "
                                      "otherwise)."},
                           "chain": {"type": "object", "required": ["game", "step", "prev"],
                                     "properties": {
                                         "game": {"type": "string"},
                                         "step": {"type": "integer", "minimum": 0},
                                         "prev": {"type": ["string", "null"]}},
                                     "description": "Present on signed or sealed states: the "
                                                    "game id, the actions since `new`, the "
                                                    "SHA-256 of the state before "
                                                    "(`POST /v1/transcripts/verify`)."}}
    state["description"] = (state.get("description") or "") + \
        " Send it back as it was returned; only the engine changes it."
    props = state["properties"]
    if "rules_version" in props:
        served = [v for v in game.served_versions if v != game.rules_version]
        # every served version: a saved game of an older one must fit the client's type
        props["rules_version"] = {
            **({"enum": [game.rules_version, *served]} if served else {"const": game.rules_version}),
            "description": (
                f"The rules version the state was written for; the service writes `{game.rules_version}`. "
                + (f"A state of an older version it serves ({', '.join(served)}, as that version "
                   "wrote it: a field it lacks is optional here and says so) is upgraded on read "
                   "by a declared migration, and the answer says so (`rules_upgrade`, header "
                   "`Referee-Rules-Upgraded`); " if served else "")
                + "a state of another declared version is refused naming the clauses that "
                  "changed (`rules-changed`), any other (`incompatible-state`).")}
        _older_shapes(game, state)
    if "options" in props:  # every option, resolved, as `new` wrote them
        props["options"] = {
            "type": "object", "additionalProperties": False,
            "required": [o.name for o in game.options],
            "properties": {o.name: {k: v for k, v in _option_schema(o).items() if k != "default"}
                           for o in game.options},
            "description": "Every option with its value, as `new` resolved them."}
    if "card_set" in props:
        sets = {s: card_db.get(game.id, s).ref()["hash"] for s in card_db.available(game.id)}
        older = _older_hashes(game)
        props["card_set"] = {"description": "The card set the state was dealt from.", "oneOf": [
            {"type": "object", "additionalProperties": False, "required": ["id", "hash"],
             "properties": {"id": {"const": set_id}, "hash": {"enum": [digest, *older[set_id]]}
                            if older.get(set_id) else {"const": digest}}}
            for set_id, digest in sets.items()]}
    spec.components.schema(f"{name}State", state)
    refs = []
    for action_type, action_spec in game.action_specs.items():
        schema = action_spec.schema()
        schema["properties"] = {**schema["properties"], "type": {"const": action_type}}
        component = f"{name}{camel(action_type)}Action"
        spec.components.schema(component, schema)
        refs.append({"$ref": f"#/components/schemas/{component}"})
    spec.components.schema(f"{name}Action", {
        "description": f"One {game.id} action (its `type` says which).", "oneOf": refs,
        "discriminator": {"propertyName": "type", "mapping": {
            t: f"#/components/schemas/{name}{camel(t)}Action" for t in game.action_specs}}})
    setup = game.player_setup_spec.schema()
    setup["description"] = f"One {game.id} player's setup in `new` (instead of a player count)."
    if game.player_setup_one_of:
        setup["oneOf"] = [{"required": [field]} for field in game.player_setup_one_of]
        setup["description"] += " Exactly one of: " + ", ".join(
            f"`{f}`" for f in game.player_setup_one_of) + "."
    spec.components.schema(f"{name}PlayerSetup", setup)
    known = sorted({*game.event_types, "chance"})
    spec.components.schema(f"{name}EventType", {
        "type": "string", "enum": known,
        "description": f"The {game.id} event types of this version; a later version may add "
                       "more (an event's `type` is any string, see the compatibility policy)."})
    spec.components.schema(f"{name}Event", {
        "type": "object", "required": ["type"],
        "properties": {"type": {
            "anyOf": [{"$ref": f"#/components/schemas/{name}EventType"}, {"type": "string"}],
            "description": "What happened: one of the known types, or a type a later "
                           "version added (keep it, skip what you do not know)."}},
        "additionalProperties": True,
        "description": f"Something that happened in a {game.id} game "
                       "(`chance`: a chance outcome the server resolved). Open: later versions "
                       "may add event types and optional fields."})


def build_spec() -> APISpec:
    """The whole document for the registered games and the service's routes."""
    games = registry.all_games()
    spec = APISpec(title="referee", version=API_VERSION, openapi_version="3.1.0",
                   info={"description": DESCRIPTION, "license": LICENSE},
                   servers=SERVERS, security=[])  # no key by default: see with_security

    for game in games:
        game_components(spec, game)
    by_name = [camel(g.id) for g in games]
    spec.components.schema("GameState", {
        "description": "A full game state; `game` says which game.",
        "oneOf": [{"$ref": f"#/components/schemas/{n}State"} for n in by_name],
        "discriminator": {"propertyName": "game", "mapping": {
            g.id: f"#/components/schemas/{camel(g.id)}State" for g in games}}})
    spec.components.schema("Action", {
        "description": "An action of the game in the path.",
        "anyOf": [{"$ref": f"#/components/schemas/{n}Action"} for n in by_name]})
    spec.components.schema("Event", {
        "description": "An event of the game in the path.",
        "anyOf": [{"$ref": f"#/components/schemas/{n}Event"} for n in by_name]})
    spec.components.schema("PlayerSetup", {
        "description": "A per-player setup of the game in the path.",
        "anyOf": [{"$ref": f"#/components/schemas/{n}PlayerSetup"} for n in by_name]})
    for name in ENVELOPES:  # requests: their one declaration's JSON Schema (shape)
        request = envelopes.REQUESTS.get(name)
        if request is not None and request.spec.either is not None:
            # two forms, two named types (``Obj.forms``): the state's and the view's
            state_form, view_form = request.spec.forms()
            spec.components.schema(name, {**state_form, "description": (
                "With the full `state` (the other form: " + view_name(name) + ").")})
            spec.components.schema(view_name(name), {**view_form, "description": (
                "With a player's own `view` in place of the state: the answer is that "
                "player's own.")})
            continue
        spec.components.schema(name, (request or envelopes.ANSWERS[name]).schema())

    spec.components.parameter("game", "path", {
        "description": "Game id.", "required": True,
        "schema": {"type": "string", "enum": [g.id for g in games]}})
    spec.components.schema("ProblemType", {
        "type": "string", "enum": [t.uri for t in PROBLEM_TYPES.values()],
        "description": "The problem types of this version; a later minor version may add more "
                       "(a problem's `type` is any string: read an unknown one by its "
                       "`status`)."})
    for name, scheme in SECURITY_SCHEMES.items():
        spec.components.security_scheme(name, scheme)
    for status, description in ERROR_RESPONSES.items():
        spec.components.response(str(status), {
            "description": description,
            "content": {PROBLEM_MIME: {"schema": {"$ref": "#/components/schemas/Problem"}}}})

    _route_components(spec)
    _route_paths(spec)
    return spec


def view_name(request: str) -> str:
    """The component of a request's view form: ``LegalActionsRequest`` → ``LegalActionsViewRequest``."""
    return request.removesuffix("Request") + "ViewRequest"


def either_body(request: str, example: dict[str, Any] | None = None) -> dict[str, Any]:
    """A request body that is the ``request`` form or its view form (``view_name``)."""
    out = body(request, example)
    out["content"][JSON]["schema"] = {"oneOf": [
        {"$ref": f"#/components/schemas/{request}"},
        {"$ref": f"#/components/schemas/{view_name(request)}"}]}
    return out


def takes_view(request: str) -> bool:
    """The request has a view form (``Obj.either``: ``state`` or ``view``)."""
    taken = envelopes.REQUESTS.get(request)
    return taken is not None and taken.spec.either is not None


# ------------------------------------------- the routes, from their records
# Each route is one ``Route`` record beside its handler (``service.http.route``); this
# part registers the components the routes' bodies and answers name and documents each
# record: its path and method, body, answers, examples and problem statuses.

#: error responses only the evaluation routes answer with: status -> description
EVALUATION_ERRORS = {
    409: "The evaluation is already over (finished or failed): nothing to cancel.",
    410: "The evaluation existed but its result has expired; submit it again.",
}


def _evaluation_schemas() -> dict[str, dict[str, Any]]:
    """``EvaluationRequest`` (refined per kind by ``_evaluation_request``),
    ``EvaluationStatus`` and ``EvaluationKinds``."""
    from service.evaluations import kinds as kinds_mod

    problem_ref = {"$ref": "#/components/schemas/Problem"}
    kinds = sorted(kinds_mod.all_kinds(), key=lambda k: k.name)  # not import order
    inputs: dict[str, Any] = {}
    for kind in kinds:
        for name, spec in kind.inputs.items():
            inputs.setdefault(name, spec.schema())
    params: dict[str, Any] = {}
    for kind in kinds:
        params.update(shape.Obj({}, kind.params).schema()["properties"])
    request = {
        "type": "object", "required": ["game", "kind"],
        "description": "An evaluation: `kind` says which inputs it takes — "
                       + "; ".join(f"`{k.name}`: {', '.join(k.inputs) or 'none'}" for k in kinds)
                       + ". Caps: " + "; ".join(f"`{k.name}` {k.caps}" for k in kinds if k.caps),
        "properties": {"game": {"type": "string"},
                       "kind": {"enum": [k.name for k in kinds]},
                       **inputs,
                       "params": {"type": "object", "properties": params,
                                  "additionalProperties": False,
                                  "description": "Kind parameters "
                                                 "(see GET /v1/evaluations/kinds)."}},
        "additionalProperties": False}
    when = {"type": ["string", "null"], "format": "date-time"}
    status = {
        "type": "object",
        "required": ["id", "game", "kind", "status", "progress", "submitted_at", "expires_at",
                     "chunks", "incidents"],
        "properties": {
            "id": {"type": "string"}, "game": {"type": "string"}, "kind": {"type": "string"},
            "status": {"enum": ["queued", "started", "finished", "failed", "canceled"]},
            "progress": {"type": "number", "minimum": 0, "maximum": 1},
            "submitted_at": {"type": "string", "format": "date-time"},
            "started_at": when, "finished_at": when,
            "expires_at": {**when, "description": "When a finished, failed or canceled "
                                                  "evaluation is forgotten (then 410)."},
            "chunks": {"type": "integer", "minimum": 1},
            "incidents": {"type": "array", "items": {"type": "object"},
                          "description": "E.g. a worker that died mid-chunk "
                                         "(`worker-died`) and what was done about it."},
            "result": {"type": "object", "description": "When finished: the kind's result."},
            "error": problem_ref,
        }}
    return {"EvaluationRequest": request, "EvaluationStatus": status,
            "EvaluationKinds": {"type": "object", "properties": {
                "kinds": {"type": "array", "items": {"type": "object"}},
                "backend": {"enum": ["embedded", "rq"]}}}}


def _evaluation_components(spec: APISpec) -> None:
    """The evaluation routes' components (``service.http.evaluations``)."""
    for name, schema in _evaluation_schemas().items():
        spec.components.schema(name, schema)
    for status, text in EVALUATION_ERRORS.items():
        if status not in ERROR_RESPONSES:
            spec.components.response(str(status), {"description": text, "content": {
                PROBLEM_MIME: {"schema": {"$ref": "#/components/schemas/Problem"}}}})


def _declared_schema(spec: APISpec, name: str, declared: shape.Spec | Mapping[str, Any],
                     refine: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> None:
    """Component ``name`` of an operation's request or response: a shape spec (each
    ``Ref`` inside it not yet a component is one, first) or a JSON Schema (``refine``:
    ``Operation.document_request``)."""
    if isinstance(declared, shape.Spec):
        for ref in shape.refs(declared):
            if ref.name not in spec.components.schemas:
                spec.components.schema(ref.name, shape.published(ref.spec, limits=True))
    schema = declared.schema() if isinstance(declared, shape.Spec) else dict(declared)
    spec.components.schema(name, refine(schema) if refine else schema)


def _game_operation_components(spec: APISpec) -> None:
    """The request and answer of every game's own operations (``Game.operations``)."""
    for game in registry.all_games():
        for operation in game.operations:
            _declared_schema(spec, operation.request_name, operation.request,
                             operation.document_request)
            _declared_schema(spec, operation.response_name, operation.response)


def _route_components(spec: APISpec) -> None:
    """The components the service's own routes name, beyond the games' contract."""
    _evaluation_components(spec)
    _game_operation_components(spec)
    spec.components.schema("RuleClause", envelopes.ANSWERS["RuleClause"].schema())
    spec.components.schema("RulesReference", envelopes.ANSWERS["RulesReference"].schema())
    spec.components.schema("ProblemTypeInfo", envelopes.ANSWERS["ProblemTypeInfo"].schema())
    spec.components.schema("ProblemTypeList", envelopes.ANSWERS["ProblemTypeList"].schema())
    spec.components.schema("ChanceBatchRequest", envelopes.CHANCE_BATCH.schema())
    spec.components.schema("ChanceBatchResponse", envelopes.ANSWERS["ChanceBatchResponse"].schema())
    for name, schema in tournaments.components(registry.all_games()).items():
        spec.components.schema(name, schema)
    spec.components.schema("TranscriptFork", envelopes.ANSWERS["TranscriptFork"].schema())
    spec.components.schema("TranscriptBreak", envelopes.ANSWERS["TranscriptBreak"].schema())
    spec.components.schema("VerifyTranscriptRequest", envelopes.VERIFY_TRANSCRIPT.schema())
    spec.components.schema("VerifyTranscriptResponse", envelopes.ANSWERS["VerifyTranscriptResponse"].schema())
    _batch_components(spec)


def batch_item_name(op: str) -> str:
    """The component of a batch item calling ``op``: ``check`` → ``BatchCheckItem``."""
    return f"Batch{camel(op.replace('-', '_'))}Item"


def _batch_components(spec: APISpec) -> None:
    """The batch's request (an item per op, from each op's route: ``batch.OPS``), its answer
    and ``Preview`` (``legal-actions`` with ``preview``)."""
    spec.components.schema("Preview", envelopes.preview_schema())
    for op, found in batch.OPS.items():
        spec.components.schema(batch_item_name(op), envelopes.batch_item_schema(op, found.request))
    request = batch.BATCH.schema()
    request["properties"]["items"]["items"] = {
        "oneOf": [{"$ref": f"#/components/schemas/{batch_item_name(op)}"} for op in batch.OPS],
        "discriminator": {"propertyName": "op", "mapping": {
            op: f"#/components/schemas/{batch_item_name(op)}" for op in batch.OPS}}}
    spec.components.schema("BatchRequest", request)
    spec.components.schema("BatchItemAnswer", envelopes.batch_item_answer_schema(
        {op: str(found.route.answers[200].schema) for op, found in batch.OPS.items()}))
    spec.components.schema("BatchResponse", envelopes.batch_response_schema())


def _example(declared: object) -> Any:
    """A declared example: a value, or the function that gives it (called now)."""
    return declared() if callable(declared) else copy.deepcopy(declared)


def _answer(answer: Success) -> dict[str, Any]:
    """The OpenAPI response of a route's success ``answer``."""
    out: dict[str, Any] = {"description": answer.description}
    if answer.headers:
        out["headers"] = copy.deepcopy(dict(answer.headers))
    if answer.schema is not None:
        media: dict[str, Any] = {"schema": {"$ref": f"#/components/schemas/{answer.schema}"}}
        example = _example(answer.example)
        if example is not None:
            media["example"] = example
        out["content"] = {JSON: media}
    if answer.content is not None:  # other media types, beside JSON or instead of it
        out["content"] = {**out.get("content", {}), **copy.deepcopy(dict(answer.content))}
    return out


def parameter(param: Param) -> str | dict[str, Any]:
    """The OpenAPI parameter of ``param``: inline, or its component's name (apispec makes
    the ``$ref``)."""
    if param.ref is not None:
        return param.ref
    return copy.deepcopy(dict(param.doc or {}))


def operation(route: Route) -> dict[str, Any]:
    """The OpenAPI operation of ``route``: every status it may answer (the HTTP tests check
    real answers against them), each problem a ``#/components/responses/<status>``."""
    out: dict[str, Any] = {"summary": route.summary}
    if route.description:
        out["description"] = route.description
    out["tags"] = list(route.tags)
    out["operationId"] = route.operation_id
    if route.parameters:
        out["parameters"] = [parameter(p) for p in route.parameters]
    if route.request is not None:
        example = _example(route.request_example)
        out["requestBody"] = (either_body if takes_view(route.request) else body)(
            route.request, example)
    responses = {status: _answer(a) for status, a in route.answers.items()}
    responses.update({status: error(status) for status in route.errors})
    out["responses"] = {str(status): responses[status] for status in sorted(responses)}
    return out


def _route_paths(spec: APISpec) -> None:
    """Every route's operation, in the blueprints' order (``service.http.blueprints``)."""
    paths: dict[str, dict[str, Any]] = {}
    for route in blueprints.routes():
        paths.setdefault(route.path, {})[route.method] = operation(route)
    for path, operations in paths.items():
        spec.path(path, operations=operations)


# ------------------------------------------------------------- typed games
#: generic component → the suffix of its per-game counterpart (``Raiders`` + suffix)
GENERIC_NAMES = {"GameState": "State", "Action": "Action", "Event": "Event",
                 "PlayerSetup": "PlayerSetup", "Outcome": "Outcome",
                 "PlayerScore": "PlayerScore", "ReplayStep": "ReplayStep", "Setup": "Setup",
                 "RankedAction": "RankedAction", "LineStep": "LineStep", "Preview": "Preview"}
#: seeded mid-game examples: a fixed seed and a fixed number of random legal actions
EXAMPLE_STEPS = 12  # and ``EXAMPLE_SEED`` (``schemas.document``)


def _retarget(schema: Any, name: str) -> Any:
    """A deep copy of a generic schema whose game refs point at game ``name``'s types.

    >>> _retarget({"items": {"$ref": "#/components/schemas/Event"}}, "Raiders")
    {'items': {'$ref': '#/components/schemas/RaidersEvent'}}
    """
    if isinstance(schema, list):
        return [_retarget(s, name) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key == "$ref" and isinstance(value, str) and value.rsplit("/", 1)[1] in GENERIC_NAMES:
            value = f"#/components/schemas/{name}{GENERIC_NAMES[value.rsplit('/', 1)[1]]}"
        out[key] = _retarget(value, name)
    return out


def _seat(last: int) -> dict[str, Any]:
    return {"type": "integer", "minimum": 0, "maximum": last}


#: the largest integer a request can carry (orjson reads a larger one as a float)
MAX_JSON_INTEGER = (1 << 64) - 1


def _option_schema(opt: Option) -> dict[str, Any]:
    base: dict[str, Any] = {"type": opt.type}
    if opt.choices is not None:
        base["enum"] = list(opt.choices)
    if opt.minimum is not None:
        base["minimum"] = opt.minimum
    if opt.maximum is not None:
        base["maximum"] = opt.maximum
    elif opt.type == "integer":  # what JSON reaches the server as an integer (64 bits)
        base["maximum"] = MAX_JSON_INTEGER
    text = opt.description + (f" ({opt.clause})" if opt.clause else "")
    if opt.nullable:
        base = {"anyOf": [base, {"type": "null"}]}
    if opt.default_for is not None:  # by player count: a declared one would be sent as a choice
        return {**base, "description": text}
    return {**base, "description": text, "default": opt.default}




def _nest(path: tuple[str, ...], schema: dict[str, Any]) -> dict[str, Any]:
    """``("setup", "players")`` → ``{"properties": {"setup": {"properties": {"players": …}}}}``."""
    for key in reversed(path):
        schema = {"properties": {key: schema}}
    return schema


def _nest_required(path: tuple[str, ...], schema: dict[str, Any]) -> dict[str, Any]:
    """``_nest`` with each key of ``path`` required: an ``if`` on a field that may be
    absent (``state`` where a ``view`` stands instead) must not hold vacuously."""
    for key in reversed(path):
        schema = {"required": [key], "properties": {key: schema}}
    return schema


def per_count_rules(game: AnyGame, players: tuple[str, ...], seats: tuple[tuple[str, ...], ...],
                    options: tuple[str, ...] | None) -> list[dict[str, Any]]:
    """``if`` the player count (a number, or a list's length, at ``players``) is n
    ``then`` every seat field is below n and the options are those n players allow."""
    rules = []
    for n in range(game.min_players, game.max_players + 1):
        then: list[dict[str, Any]] = []
        if n < game.max_players:  # ``maximum`` binds a number only: null, "chance" pass
            then += [_nest(path, {"maximum": n - 1}) for path in seats]
        narrowed = options_for_count(game, n) if options else None
        if narrowed is not None and options is not None:
            then.append(_nest(options, narrowed))
        if then:
            # a count of n, or a list of n setups (each keyword binds its own type)
            is_n = {"minimum": n, "maximum": n, "minItems": n, "maxItems": n}
            rules.append({"if": _nest_required(players, is_n),
                          "then": then[0] if len(then) == 1 else {"allOf": then}})
    return rules


def mid_game(game: AnyGame) -> MidGame:
    """A seeded game ``EXAMPLE_STEPS`` random legal actions in.

    Deterministic (fixed seed, fixed RNG), so regenerating the document gives
    the same examples.  Stops early at the end of the game.
    """
    rng = random.Random(EXAMPLE_SEED)
    setup = {"players": game.min_players, "seed": EXAMPLE_SEED}
    state, _ = game.new_game(game.min_players, None, EXAMPLE_SEED, "reference")
    states, actions = [state], []
    for _ in range(EXAMPLE_STEPS):
        legal = _decisions(game, state)
        if not legal:
            break
        action = rng.choice(legal)
        after, _ = game.apply(state, action)
        if not _decisions(game, after):  # keep a state that still has a decision to show
            break
        state = after
        actions.append(action)
        states.append(state)
    return MidGame(setup, actions, states, _decisions(game, state)[0])


def _decisions(game: AnyGame, state: StateIn) -> list[ActionObject]:
    """The players' legal actions in ``state`` (chance outcomes left out)."""
    return [a for a in game.legal_actions(state, None) if a.get("player") != CHANCE]


def contract_routes() -> list[Route]:
    """The routes of the game contract (``Route.contract``), in order."""
    return [r for r in blueprints.routes() if r.contract is not None]


def verb(route: Route) -> str:
    """``/v1/games/{game}/legal-actions`` → ``legal-actions``."""
    return route.path.rsplit("/", 1)[1]


def game_examples(game: AnyGame) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """verb → (request, 200 answer) of each contract route the game serves, from the seeded
    mid-game state (``mid_game``)."""
    mid = mid_game(game)
    return {verb(r): r.contract.example(game, mid) for r in contract_routes()
            if r.contract is not None and r.contract.served(game)}


def _player_score(game: AnyGame, scores: list[dict[str, Any]]) -> dict[str, Any]:
    """``<Game>PlayerScore``: the breakdown typed from the game's own scores."""
    breakdown: dict[str, Any] = {"description": f"Where the total comes from ({game.id})."}
    sample = next((s["breakdown"] for s in scores), None)
    rows = {"type": "array", "items": {"type": "object", "additionalProperties": True}}
    if isinstance(sample, list):
        breakdown.update(rows)
    else:
        # the keys of a mid-game score and of a finished one (Tremble adds its missions)
        merged: dict[str, Any] = {}
        for score in scores:
            merged.update(score["breakdown"])
        breakdown.update({"type": "object", "additionalProperties": {"type": "integer"},
                          "properties": {k: rows if isinstance(v, list) else {"type": "integer"}
                                         for k, v in sorted(merged.items())}})
    return {"type": "object", "required": ["player", "total", "breakdown"],
            "additionalProperties": True, "properties": {
                "player": _seat(game.max_players - 1),
                "total": {"type": "number"}, "breakdown": breakdown}}


def _narrow_seats(schema: dict[str, Any], last: int) -> None:
    """Seat fields of a typed request (and of its ``params``) go up to the game's last
    seat (in place)."""
    for field in ("player", "for_player"):
        prop = schema.get("properties", {}).get(field)
        if prop is None:
            continue
        for branch in prop.get("anyOf", []):
            if branch.get("type") == "integer":
                branch["maximum"] = last
        if prop.get("type") == "integer":
            prop["maximum"] = last
    params = schema.get("properties", {}).get("params")
    if isinstance(params, dict) and "properties" in params:
        schema["properties"]["params"] = params = {**params,
                                                   "properties": dict(params["properties"])}
        if "player" in params["properties"]:
            params["properties"]["player"] = {**params["properties"]["player"], "maximum": last}


def typed_game(doc: dict[str, Any], game: AnyGame) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Components and paths of one game's typed operations (``/v1/games/<id>/<verb>``);
    the examples they show (``game_examples``)."""
    schemas = doc["components"]["schemas"]
    name, last = camel(game.id), game.max_players - 1
    sets = card_db.available(game.id)
    schemas[f"{name}Options"] = {
        "type": "object", "additionalProperties": False,
        "description": f"{game.id} options; omitted ones take their defaults.",
        "properties": {o.name: _option_schema(o) for o in game.options}}
    setup = _retarget(schemas["Setup"], name)
    setup["properties"]["players"] = {
        "description": f"{game.min_players} to {game.max_players} players: a count, or one "
                       "setup object per player.",
        "oneOf": [{"type": "integer", "minimum": game.min_players, "maximum": game.max_players},
                  {"type": "array", "minItems": game.min_players, "maxItems": game.max_players,
                   "items": {"$ref": f"#/components/schemas/{name}PlayerSetup"}}]}
    setup["properties"]["options"] = {
        "anyOf": [{"$ref": f"#/components/schemas/{name}Options"}, {"type": "null"}],
        "description": setup["properties"]["options"].get("description", "")}
    setup["properties"]["card_set"] = {**setup["properties"]["card_set"], "enum": sets}
    setup.pop("description", None)
    schemas[f"{name}Setup"] = setup
    examples = game_examples(game)
    finished, _, _ = random_playout(game, examples["score"][0]["state"], seed=EXAMPLE_SEED,
                                    max_steps=MAX_PLAYOUT_STEPS)
    schemas[f"{name}PlayerScore"] = _player_score(
        game, examples["score"][1]["scores"] + game.score(finished)["scores"])
    for generic in ("Outcome", "ReplayStep", "RankedAction", "LineStep", "Preview"):
        schemas[f"{name}{generic}"] = _retarget(schemas[generic], name)

    title = game.title["en"] if isinstance(game.title, dict) else str(game.title)
    for route in contract_routes():
        typed = route.contract
        assert typed is not None and route.request is not None
        if not typed.served(game):  # suggest, of a game without ``determinize``
            continue
        request, response = route.request, route.answers[200].schema
        req = _retarget(schemas[request], name)
        if request == "NewRequest" or request == "ReplayRequest":
            for key in ("players", "options", "card_set"):  # `seed`: NewRequest's own (2^53 - 1)
                if request == "NewRequest":
                    req["properties"][key] = setup["properties"][key]
            if request == "ReplayRequest":
                req["properties"]["setup"] = {"$ref": f"#/components/schemas/{name}Setup"}
        _narrow_seats(req, last)
        if typed.counts is not None:
            rules = per_count_rules(game, *typed.counts)
            if rules:
                req["allOf"] = rules
        schemas[f"{name}{request}"] = req
        with_view = view_name(request) in schemas and typed.takes_view(game)
        if with_view:
            schemas[f"{name}{view_name(request)}"] = _retarget(schemas[view_name(request)], name)
        if typed.shared_response:
            answer = str(response)
        elif response == "Outcome":
            answer = f"{name}Outcome"
        else:
            answer = f"{name}{response}"
            schemas[answer] = _retarget(schemas[response], name)
        request_example, answer_example = examples[verb(route)]
        responses = {"200": ok(answer, typed.ok_text)}
        responses["200"]["content"][JSON]["example"] = answer_example
        for status in route.errors:
            if status != 404:  # the game is in the path: it exists
                responses[str(status)] = error(status)
        documented: dict[str, Any] = {
            "operationId": f"{game.id}_{verb(route).replace('-', '_')}",
            "summary": typed.summary.format(title=title), "tags": [game.id],
            "description": route.description,
            "requestBody": (either_body if with_view else body)(f"{name}{request}",
                                                               request_example),
            "responses": responses}
        headers = [parameter(p) for p in route.parameters if p is not GAME]
        if headers:
            documented["parameters"] = headers
        doc["paths"][f"/v1/games/{game.id}/{verb(route)}"] = {"post": documented}
    one_view_type(schemas, name, game)
    return examples


def typed_batch(doc: dict[str, Any], game: AnyGame,
                examples: dict[str, tuple[dict[str, Any], dict[str, Any]]]) -> None:
    """``/v1/games/<id>/batch``: the batch with that game's types — each item its op's
    typed request (``<Game>Batch<Op>Item``), each body its op's typed answer — and an
    example of one item per op on the seeded mid-game state (their own examples)."""
    schemas = doc["components"]["schemas"]
    name, last = camel(game.id), game.max_players - 1
    refs, bodies = {}, {}
    for op, found in batch.OPS.items():
        item = _retarget(schemas[batch_item_name(op)], name)
        _narrow_seats(item, last)
        typed = found.route.contract
        if typed is not None and not typed.takes_view(game):
            item["properties"].pop("view", None)
        elif "view" in item["properties"] and f"{name}View" in schemas:  # ``one_view_type``
            item["properties"]["view"] = {"$ref": f"#/components/schemas/{name}View"}
        schemas[f"{name}{batch_item_name(op)}"] = item
        refs[op] = f"#/components/schemas/{name}{batch_item_name(op)}"
        response = str(found.route.answers[200].schema)
        bodies[op] = response if typed is not None and typed.shared_response \
            else f"{name}{response}"
    request = _retarget(schemas["BatchRequest"], name)
    request["properties"]["items"]["items"] = {
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "discriminator": {"propertyName": "op", "mapping": refs}}
    if not game.takes_views:
        request["properties"].pop("view", None)
    elif f"{name}View" in schemas:
        request["properties"]["view"] = {"$ref": f"#/components/schemas/{name}View"}
    schemas[f"{name}BatchRequest"] = request
    schemas[f"{name}BatchItemAnswer"] = _retarget(envelopes.batch_item_answer_schema(bodies), name)
    schemas[f"{name}BatchResponse"] = {**schemas["BatchResponse"], "properties": {"items": {
        **schemas["BatchResponse"]["properties"]["items"],
        "items": {"$ref": f"#/components/schemas/{name}BatchItemAnswer"}}}}
    state = examples["score"][0]["state"]
    shown = [op for op in batch.OPS if op in examples]
    example_request = {"state": state, "items": [
        {"id": op, "op": op, **{k: v for k, v in examples[op][0].items() if k != "state"}}
        for op in shown]}
    example_answer = {"items": [{"id": op, "status": 200, "body": examples[op][1]}
                                for op in shown]}
    generic = doc["paths"]["/v1/games/{game}/batch"]["post"]
    responses = {"200": ok(f"{name}BatchResponse", generic["responses"]["200"]["description"])}
    responses["200"]["content"][JSON]["example"] = example_answer
    responses["200"]["content"][batch.NDJSON] = {
        "schema": {"$ref": f"#/components/schemas/{name}BatchItemAnswer"}}
    for status, response in generic["responses"].items():
        if status not in ("200", "404"):  # the game is in the path: it exists
            responses[status] = response
    doc["paths"][f"/v1/games/{game.id}/batch"] = {"post": {
        "operationId": f"{game.id}_batch", "summary": f"{generic['summary']} ({game.id})",
        "tags": [game.id], "description": generic["description"],
        "parameters": [p for p in generic["parameters"]
                       if p != {"$ref": "#/components/parameters/game"}],
        "requestBody": body(f"{name}BatchRequest", example_request), "responses": responses}}


def one_view_type(schemas: dict[str, Any], name: str, game: AnyGame) -> None:
    """``<Game>View``: the one type of a player's view, in every answer that holds one
    (``view``; ``new``, ``apply``, ``replay`` with ``for_player``) and in every request that
    takes one (``legal-actions``, ``check``, ``suggest``), so a generated client passes the
    answer's object to the request as it is (issue 23: no ``to_dict``/``from_dict``)."""
    generic = schemas["LegalActionsViewRequest"]["properties"]["view"]
    schemas[f"{name}View"] = {
        **generic, "description": (
            f"A {game.id} state as one player (or, `view.player: null`, a spectator) may see "
            "it: hidden cards are counts or opaque ids. What `view` answers (and `new`, "
            "`apply`, `replay` with `for_player`); `legal-actions`, `check` and `suggest` "
            "take it as it came, for that player (a spectator's answers nothing: 400 "
            "`invalid-state`). Its other members are the game's; keep them.")}
    ref = f"#/components/schemas/{name}View"
    for key, schema in schemas.items():
        props = schema.get("properties") if isinstance(schema, dict) else None
        if not key.startswith(name) or key == f"{name}View" or not props or "view" not in props:
            continue
        if key.endswith("Response") or key.endswith("ViewRequest"):
            described = props["view"].get("description")
            props["view"] = {"$ref": ref, **({"description": described} if described else {})}


def _links(doc: dict[str, Any], games: list[AnyGame]) -> None:
    """OpenAPI links: a state a typed operation answers goes on to the operations taking
    a state (score, view, legal-actions, check, apply), so stateful tools and docs
    follow a real game (schemathesis's stateful phase uses them)."""
    for game in games:
        for verb in ("new", "apply", "replay"):
            operation = doc["paths"][f"/v1/games/{game.id}/{verb}"]["post"]
            links = {}
            for target in ("legal-actions", "score", "view", "apply", "check"):
                request: dict[str, str | int] = {"state": "$response.body#/state"}
                if target == "view":
                    request["player"] = 0
                links[f"{target.replace('-', '_')}"] = {
                    "operationId": f"{game.id}_{target.replace('-', '_')}",
                    "requestBody": request,
                    "description": f"`{target}` on the state this answer holds."}
            operation["responses"]["200"]["links"] = links


def _cards_paths(doc: dict[str, Any], games: list[AnyGame]) -> None:
    """``/v1/games/<game>/cards`` per game: each card field of that game a documented
    query parameter; the generic ``{game}`` path keeps only ``set`` and ``q`` (its
    filters depend on the game, so they are the typed paths' business)."""
    generic = doc["paths"]["/v1/games/{game}/cards"]["get"]
    plain = [p for p in generic["parameters"] if p.get("name") not in ("filters",)]
    generic["parameters"] = plain
    typed = {}
    for game in games:
        groups, _ = split_card_data(card_db.get(game.id, "reference").data)
        fields = sorted(filterable_fields(groups) - {"set", "q"})
        operation = {**generic, "operationId": f"{game.id}_cards", "tags": [game.id],
                     "summary": generic["summary"] + f" ({game.id})"}
        parameters = []
        for p in plain:
            if p.get("$ref"):
                continue
            p = dict(p)
            if p["name"] == "set":
                p["schema"] = {**p["schema"], "enum": card_db.available(game.id)}
            parameters.append(p)
        for field in fields:
            parameters.append({
                "name": field, "in": "query", "required": False, "style": "form",
                "explode": True, "schema": {"type": "array", "items": {"type": "string"}},
                "description": f"Keep cards whose `{field}` is one of these values "
                               "(repeat the key for several)."})
        operation["parameters"] = parameters
        operation["description"] = (
            "Filters compare the field's text (`true`/`false` for booleans). Every card field "
            "is a query parameter; any other key is refused (400, naming the fields), never "
            "silently ignored: a mistyped filter would otherwise list every card.")
        operation["responses"] = {k: v for k, v in generic["responses"].items()}
        typed[f"/v1/games/{game.id}/cards"] = {"get": operation}
    generic["description"] = (
        "Filter by card field with `?<field>=<value>` (repeat for several values): the "
        "fields depend on the game and are listed as parameters of the typed "
        "`/v1/games/<game>/cards`; any other key → 400 naming the fields.")
    doc["paths"] = {**typed, **doc["paths"]}


def _evaluation_request(doc: dict[str, Any], games: list[AnyGame]) -> None:
    """``EvaluationRequest``: one schema per kind (its ``kind``, its games, its own inputs
    and params), so a request mixing two kinds' inputs is outside the document."""
    from service.evaluations import kinds as kinds_mod
    schema = doc["components"]["schemas"].get("EvaluationRequest")
    if not schema or "kind" not in schema.get("properties", {}):
        return
    schemas = doc["components"]["schemas"]
    ids = [g.id for g in games]
    variants = []
    for kind in sorted(kinds_mod.all_kinds(), key=lambda k: k.name):
        kind_games = [g for g in (kind.games or ids) if g in ids]
        if not kind_games:
            continue
        head = {"game": {"enum": kind_games}, "kind": {"const": kind.name}}
        if kind.params:
            params = shape.Obj({}, kind.params).schema()
            params["description"] = f"`{kind.name}` parameters (see GET /v1/evaluations/kinds)."
            schemas[f"Evaluation{camel(kind.name.replace('.', '_'))}Params"] = params
            head["params"] = {
                "$ref": f"#/components/schemas/Evaluation{camel(kind.name.replace('.', '_'))}Params"}
        forms = schemas.get(kind.request_schema, {}).get("oneOf") if kind.request_schema else None
        if forms:
            for form in forms:  # its inputs' forms, as its game's operation documents them
                variants.append({**form, "title": camel(kind.name.replace(".", "_")) + form["title"],
                                 "required": ["game", "kind", *form["required"]],
                                 "properties": {**head, **form["properties"]}})
            continue
        inputs = {k: v.schema() for k, v in kind.inputs.items()}
        # a kind that takes a state: one schema per game, the state of that game
        for game_id in kind_games if "state" in inputs else [None]:
            props = {**head, **inputs}
            if game_id is not None:
                props["game"] = {"const": game_id}
                props["state"] = {"$ref": f"#/components/schemas/{camel(game_id)}State",
                                  "description": "A full game state (not a player's view)."}
            variants.append({"title": camel(kind.name.replace(".", "_")) + camel(game_id or ""),
                             "type": "object", "additionalProperties": False,
                             "required": ["game", "kind", *kind.inputs], "properties": props})
    for variant in variants:
        schemas[f"EvaluationRequest{variant['title']}"] = variant
    schemas["EvaluationRequest"] = {
        "description": schema.get("description", ""),
        "oneOf": [{"$ref": f"#/components/schemas/EvaluationRequest{v['title']}"} for v in variants]}


def _cards_example(game: AnyGame) -> tuple[str, dict[str, Any]]:
    """``q`` (the first card's English name) and the real answer to ``?q=<it>``."""
    card_set = card_db.get(game.id, "reference")
    groups, tables = split_card_data(card_set.data)
    first = next(c for g in groups.values() for c in g)
    name = first.get("name")
    q = (name.get("en") or next(iter(name.values()))) if isinstance(name, dict) else \
        str(name or first["id"])
    listed = {k: [c for c in g if matches(c, {}, q.casefold())] for k, g in groups.items()}
    return q, {"game": game.id, "card_set": card_set.ref(), "meta": card_set.meta,
               "filters": {"q": q}, "count": sum(len(g) for g in listed.values()),
               "cards": listed, "tables": tables}


def _cards_examples(doc: dict[str, Any], games: list[AnyGame]) -> None:
    """Real answers of the card listings, generic (the first game's) and typed."""
    if not games:
        return
    for path, game in [("/v1/games/{game}/cards", games[0]),
                       *((f"/v1/games/{g.id}/cards", g) for g in games)]:
        q, example = _cards_example(game)
        doc["paths"][path]["get"]["responses"]["200"]["content"][JSON]["example"] = example
        for param in doc["paths"][path]["get"]["parameters"]:
            if param.get("name") == "q":
                param["example"] = q


def finish(doc: dict[str, Any], games: list[AnyGame]) -> dict[str, Any]:
    """Typed per-game operations first, then the routes as declared."""
    generic = dict(doc["paths"])
    for game in games:
        typed_batch(doc, game, typed_game(doc, game))
    doc["paths"] = {**{p: o for p, o in doc["paths"].items() if p not in generic}, **generic}
    if games:  # the generic operations show the first game's examples
        doc["components"]["parameters"]["game"]["example"] = games[0].id
    for route in contract_routes():
        said = verb(route)
        operation = doc["paths"][route.path]["post"]
        shown = next((g for g in games if f"/v1/games/{g.id}/{said}" in doc["paths"]), None)
        if shown is not None:
            operation["parameters"] = [  # inline, so tools read the example of {game}
                {**doc["components"]["parameters"]["game"], "example": shown.id}
                if p == {"$ref": "#/components/parameters/game"} else p
                for p in operation.get("parameters", [])]
            typed = doc["paths"][f"/v1/games/{shown.id}/{said}"]["post"]
            operation["requestBody"]["content"][JSON]["example"] = \
                typed["requestBody"]["content"][JSON]["example"]
            operation["responses"]["200"]["content"][JSON]["example"] = \
                typed["responses"]["200"]["content"][JSON]["example"]
        operation["description"] += (" Generic over the games (`{game}`); the typed "
                                     f"`/v1/games/<game>/{said}` takes and returns that "
                                     "game's own types.")
    if games:  # the generic batch shows the first game's example
        batched = doc["paths"]["/v1/games/{game}/batch"]["post"]
        typed = doc["paths"][f"/v1/games/{games[0].id}/batch"]["post"]
        batched["requestBody"]["content"][JSON]["example"] = \
            typed["requestBody"]["content"][JSON]["example"]
        batched["responses"]["200"]["content"][JSON]["example"] = \
            typed["responses"]["200"]["content"][JSON]["example"]
    _links(doc, games)
    _evaluation_request(doc, games)
    _cards_paths(doc, games)
    _cards_examples(doc, games)
    used = [tag for ops in doc["paths"].values() for op in ops.values()
            if isinstance(op, dict) for tag in op.get("tags", [])]
    doc["tags"] = [{"name": tag, "description": _tag_description(tag, games)}
                   for tag in dict.fromkeys(used)]
    return doc


TAG_DESCRIPTIONS = {
    "games": "The same operations generic over every game (`{game}` in the path).",
    "evaluations": "Long computations (odds, playouts) run as jobs.",
    "rules": "The rules reference every error and event cites.",
    "operations": "Health, readiness, metrics, this document.",
}


def _tag_description(tag: str, games: list[AnyGame]) -> str:
    for game in games:
        if game.id == tag:
            title = game.title["en"] if isinstance(game.title, dict) else str(game.title)
            return f"{title}: its own typed operations (state, action, event and score types)."
    return TAG_DESCRIPTIONS.get(tag, tag)


#: the response header every answer carries (``service.middleware``)
REQUEST_ID_HEADER = {
    "description": "The request's id: the client's own `X-Request-Id` when it sent a sane one "
                   "(1–128 of `A-Z a-z 0-9 . _ : -`), else a new one (32 hex digits). "
                   "Log lines of the request carry it too.",
    "schema": {"type": "string", "pattern": r"^[A-Za-z0-9._:\-]{1,128}$"}}


def with_request_id(doc: dict[str, Any]) -> dict[str, Any]:
    """Document ``X-Request-Id`` on every response of every operation (in place).

    Responses given by ``$ref`` get it in their component.
    """
    ref = {"$ref": "#/components/headers/X-Request-Id"}
    components = doc.setdefault("components", {})
    components.setdefault("headers", {})["X-Request-Id"] = REQUEST_ID_HEADER
    responses = list(components.get("responses", {}).values())
    for operations in doc.get("paths", {}).values():
        for operation in operations.values():
            if isinstance(operation, dict) and "responses" in operation:
                responses += [r for r in operation["responses"].values() if "$ref" not in r]
    for response in responses:
        response.setdefault("headers", {})["X-Request-Id"] = ref
    return doc


#: the response fields of issue 36 (``service.middleware``, ``service.http.evaluations``)
HTTP_FIELDS = {
    "ETag": {"description": "A strong tag of the answer, derived from its content (the same on "
                            "every instance of a release); send it back in `If-None-Match`.",
             "schema": {"type": "string"}},
    "Cache-Control": {"description": "`public, max-age=300`: reusable for 5 minutes, then "
                                     "revalidated with `If-None-Match`.",
                      "schema": {"type": "string"}},
    "RateLimit-Policy": {"description": "With rate limits configured: each limit that counted "
                                        "this request (draft-ietf-httpapi-ratelimit-headers-11), "
                                        "e.g. `\"general\";q=600;w=60, \"evaluations\";q=20;w=60` "
                                        "(`q` requests per `w` seconds).",
                         "schema": {"type": "string"}},
    "RateLimit": {"description": "With rate limits configured: what is left of each limit, e.g. "
                                 "`\"general\";r=599;t=60` (`r` requests within `t` seconds).",
                  "schema": {"type": "string"}},
}
IF_NONE_MATCH = {"name": "If-None-Match", "in": "header", "required": False,
                 "description": "An `ETag` this client holds (weak or strong, a list, or `*`): "
                                "304 with no body while it is still the answer.",
                 "schema": {"type": "string"}}


def with_http_fields(doc: dict[str, Any]) -> dict[str, Any]:
    """Declare ``ETag``/``Cache-Control``/304 on the cacheable GETs (``Route.cacheable``, and
    their typed twins) and the ``RateLimit`` fields on the limited POSTs (in place)."""
    components = doc.setdefault("components", {}).setdefault("headers", {})
    components.update(HTTP_FIELDS)
    ref = {name: {"$ref": f"#/components/headers/{name}"} for name in HTTP_FIELDS}
    games = registry.all_games()
    cacheable = {r.path.replace("{game}", g) for r in blueprints.routes() if r.cacheable
                 for g in ("{game}", *(game.id for game in games))}
    for path, operations in doc.get("paths", {}).items():
        get = operations.get("get")
        if get is not None and path in cacheable:
            get.setdefault("parameters", []).append(IF_NONE_MATCH)
            get["responses"]["200"].setdefault("headers", {}).update(
                {"ETag": ref["ETag"], "Cache-Control": ref["Cache-Control"]})
            get["responses"]["304"] = {
                "description": "Not modified: the `ETag` sent in `If-None-Match` is still the "
                               "answer (no body).",
                "headers": {"ETag": ref["ETag"], "Cache-Control": ref["Cache-Control"]}}
        post = operations.get("post")
        if post is not None and path.startswith("/v1/"):
            for status, response in post["responses"].items():
                if status.startswith("2") and "$ref" not in response:
                    response.setdefault("headers", {}).update(
                        {"RateLimit-Policy": ref["RateLimit-Policy"],
                         "RateLimit": ref["RateLimit"]})
    too_many = doc["components"].get("responses", {}).get("429")
    if too_many is not None:
        too_many.setdefault("headers", {}).update(
            {"RateLimit-Policy": ref["RateLimit-Policy"], "RateLimit": ref["RateLimit"]})
    return doc


#: ``info.license``: the repository's LICENSE
LICENSE = {"name": "MIT", "identifier": "MIT"}
#: relative: the paths are the server's that serves this document (``GET /openapi.yaml``)
SERVERS = [{"url": "/", "description": "The server that serves this document."}]
#: ``REFEREE_API_KEYS`` (``service.middleware``): either header carries the key
SECURITY_SCHEMES = {
    "bearerAuth": {"type": "http", "scheme": "bearer", "description": (
        "An API key of `REFEREE_API_KEYS` as `Authorization: Bearer <key>` (taken before "
        "`X-API-Key`). Keys are optional server-side: a server without `REFEREE_API_KEYS` "
        "asks for none.")},
    "apiKeyAuth": {"type": "apiKey", "in": "header", "name": "X-API-Key", "description": (
        "An API key of `REFEREE_API_KEYS` as `X-API-Key: <key>`. Keys are optional "
        "server-side: a server without `REFEREE_API_KEYS` asks for none.")}}
#: an evaluation route: either key, or (a server without ``REFEREE_API_KEYS``) none — ``{}``
EVALUATION_SECURITY: list[dict[str, list[str]]] = [
    {"bearerAuth": []}, {"apiKeyAuth": []}, {}]


def with_security(doc: dict[str, Any]) -> dict[str, Any]:
    """``security`` on the operations the API-key check guards (in place): those under
    ``EVALUATIONS_PREFIX``, as ``service.middleware`` matches them; the others inherit the
    document's ``security: []``."""
    from service.middleware import EVALUATIONS_PREFIX

    for path, operations in doc.get("paths", {}).items():
        if path != EVALUATIONS_PREFIX and not path.startswith(EVALUATIONS_PREFIX + "/"):
            continue
        for operation in operations.values():
            if isinstance(operation, dict) and "responses" in operation:
                operation.setdefault("security", EVALUATION_SECURITY)
    return doc


_WITH_LIMITS = ("With rate limits configured (`REFEREE_RATE_LIMIT`, "
                "`REFEREE_EVALUATION_RATE_LIMIT`), on every answer of a limited route "
                "(`POST /v1/…`): ")
#: what Flask-Limiter (``headers_enabled``) and the service's own refusals send
LIMIT_HEADERS = {
    "Retry-After": {
        "description": "Seconds to wait: before retrying a 429 or 503, before polling a 202 "
                       "(an answer's own wait is kept under rate limits, a 429's is the "
                       "limit's). " + _WITH_LIMITS + "on an answer without a wait of its "
                       "own, the seconds until the client's window resets.",
        "schema": {"type": "integer", "minimum": 0}},
    "X-RateLimit-Limit": {
        "description": _WITH_LIMITS + "the requests the client's limit allows per window.",
        "schema": {"type": "integer", "minimum": 0}},
    "X-RateLimit-Remaining": {
        "description": _WITH_LIMITS + "the requests left in the current window (0 on a 429).",
        "schema": {"type": "integer", "minimum": 0}},
    "X-RateLimit-Reset": {
        "description": _WITH_LIMITS + "when the window resets, in seconds since the Unix epoch.",
        "schema": {"type": "integer", "minimum": 0}}}


def with_limit_headers(doc: dict[str, Any]) -> dict[str, Any]:
    """Declare ``Retry-After`` and ``X-RateLimit-*`` where they are sent (in place): on
    every shared error response and every answer of a ``POST /v1/…`` (never required: only
    a server with rate limits sends them on every answer). A header a response already
    declares keeps its declaration."""
    components = doc.setdefault("components", {})
    components.setdefault("headers", {}).update(LIMIT_HEADERS)
    refs = {name: {"$ref": f"#/components/headers/{name}"} for name in LIMIT_HEADERS}
    responses = list(components.get("responses", {}).values())
    for path, operations in doc.get("paths", {}).items():
        post = operations.get("post")
        if path.startswith("/v1/") and isinstance(post, dict):
            responses += [r for r in post.get("responses", {}).values() if "$ref" not in r]
    for response in responses:
        headers = response.setdefault("headers", {})
        for name, ref in refs.items():
            headers.setdefault(name, ref)
    return doc


def spec_dict() -> dict[str, Any]:
    """The document as a dict."""
    doc = finish(build_spec().to_dict(), registry.all_games())
    return with_request_id(with_http_fields(with_limit_headers(with_security(doc))))


class _Dumper(yaml.SafeDumper):
    """Plain YAML: no anchors and aliases for repeated sub-schemas."""

    def ignore_aliases(self, data: object) -> bool:
        return True


def spec_yaml() -> str:
    """The document as the committed ``openapi.yaml`` text."""
    return yaml.dump(spec_dict(), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def main() -> None:
    sys.stdout.write(spec_yaml())


if __name__ == "__main__":
    main()
