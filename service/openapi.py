"""Generate ``openapi.yaml`` (OpenAPI 3.1) with apispec.

Two sources, so the documented shapes and the enforced shapes cannot drift:

* the envelopes in ``schemas/envelopes.py``: the requests' JSON Schema from
  their shape declarations (the same that checks them), the responses and
  ``Problem`` from theirs (``envelopes.ANSWERS``, ``shape.published``);
* each engine's shape specs (``game.state_spec``, ``game.action_specs``,
  ``game.player_setup_spec``) as JSON Schema: components ``<Game>State``,
  ``<Game>Action`` (one of its action types, each a component of its own),
  ``<Game>PlayerSetup`` and ``<Game>Event``, gathered in ``GameState``,
  ``Action``, ``PlayerSetup`` and ``Event``.

Each game then gets its typed operations (``finish``): ``/v1/games/<id>/<verb>``
with ``<Game>NewRequest``, ``<Game>ApplyResponse``… — the generic envelopes
with their game refs pointed at that game's types, player counts and seats
bounded, and the option rules of each player count read from the options' own
``check`` (``per_count_rules``) — plus a real example from a seeded mid-game
state (``game_examples``) and ``links`` from every answer holding a state.
The generic paths (``{game}`` an enum of the registered ids) follow them.
The service's other routes are declared here too (``ROUTE_PATHS``: one
``_<name>_paths(spec)`` each, from their request ``Envelope`` and response
schemas in ``schemas/envelopes.py``); ``finish`` gives every operation
without an id its ``operationId`` (``OPERATION_IDS``).  This module imports
no blueprint: the blueprints in ``service.http`` only route
(``tests/http/test_layers.py``).

Run ``python -m service.openapi > openapi.yaml``; a test fails when the
committed file differs from a fresh generation, and another when a Flask route
or method is missing from the document.

Documenting a new route, e.g.::

    # schemas/envelopes.py: the request, checked and documented by one declaration
    ODDS = Envelope("OddsRequest", shape.Obj({"strengths": shape.ListOf(shape.Int(0))}))
    ODDS_ANSWER = Answer("OddsResponse", shape.Obj({"win": shape.Num(0, 1)}))

    # here: the paths, and ``_odds_paths`` in ``ROUTE_PATHS``
    def _odds_paths(spec):
        spec.components.schema("OddsRequest", envelopes.ODDS.schema())
        spec.components.schema("OddsResponse", envelopes.ODDS_ANSWER.schema())
        spec.path("/v1/odds", operations={"post": {
            "summary": "Exact battle odds", "tags": ["evaluations"],
            "requestBody": body("OddsRequest"),
            "responses": {"200": ok("OddsResponse", "The odds."),
                          **{str(s): error(s) for s in (400, 405, 413, 415, 500)}}}})

Every status a route can answer with must be listed (the HTTP tests check
real responses against the document); error responses reference the shared
``#/components/responses/<status>`` (a ``Problem``); add a status missing
from ``ERROR_RESPONSES`` (e.g. 409) with ``spec.components.response``.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any

import yaml
from apispec import APISpec

import card_db
from schemas import envelopes, tournaments
from schemas.document import EXAMPLE_SEED, camel, options_for_count
from service import rules_reference
from service.cards import filterable_fields, matches, split_card_data
from service.games import registry, shape
from service.games.base import AnyGame
from service.games.chance import CHANCE
from service.games.options import Option
from service.games.playout import random_playout
from service.games.replay import replay as replay_game
from service.games.versions import RulesVersion
from service.headers import IDEMPOTENCY_KEY_PATTERN
from service.limits import MAX_BODY_BYTES, MAX_IDEMPOTENCY_KEY, MAX_PLAYOUT_STEPS, MAX_SIGNATURE_LENGTH
from service.problems import PROBLEM_MIME, PROBLEM_TYPES
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


GAME_PARAM = "game"  # the parameter component, by name
POST_ERRORS = (400, 404, 405, 413, 415, 429, 500)
#: routes that take a state: a bad signature → 403 (``service.signing``)
STATE_ERRORS = (403,)
REQUIRE_SIGNED_HEADER = {
    "name": "Referee-Require-Signed", "in": "header", "required": False,
    "schema": {"type": "string", "pattern": "^[ \t]*([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])[ \t]*$"},
    "example": "false",
    "description": "`true` (any case): refuse the state unless it carries a valid `signature` "
                   "(400 `unsigned-state`); `false`: the server's own setting "
                   "(`REFEREE_REQUIRE_SIGNED=1` requires signatures on every request, and "
                   "`false` does not lower it). Sent once: any other value, or the header "
                   "twice, is a 400 `malformed-request` naming `headers.Referee-Require-Signed`."}

SEAT_TOKEN_HEADER = {
    "name": "Referee-Seat-Token", "in": "header", "required": False,
    "schema": {"type": "string"}, "example": "seat:0:0123456789abcdef:Zt0r",
    "description": "On a sealed state: the seat token `new` or `replay` answered for the seat "
                   "this request speaks for (`seat_tokens`), or every seat's, comma-separated "
                   "(the host). Without it the caller is a spectator: what reveals a seat's "
                   "hidden information → 403 `seat-token-required`. Ignored on other states."}


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

    _core_paths(spec)
    for paths in ROUTE_PATHS:
        paths(spec)
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


def _post(summary: str, description: str, request: str, response: str, ok_text: str,
          extra_errors: tuple[int, ...] = (), example: dict[str, Any] | None = None) -> dict[str, Any]:
    responses = {"200": ok(response, ok_text)}
    for status in sorted(set(POST_ERRORS) | set(extra_errors)):
        responses[str(status)] = error(status)
    parameters: list[str | dict[str, Any]] = [GAME_PARAM]
    if set(STATE_ERRORS) <= set(extra_errors):
        parameters += [REQUIRE_SIGNED_HEADER, SEAT_TOKEN_HEADER]
    taken = envelopes.REQUESTS.get(request)
    has_view = taken is not None and taken.spec.either is not None
    return {"post": {"summary": summary, "description": description, "tags": ["games"],
                     "parameters": parameters,
                     "requestBody": (either_body if has_view else body)(request, example),
                     "responses": responses}}


def _core_paths(spec: APISpec) -> None:
    def get(summary: str, responses: dict[int, Any], tags: list[str],
            parameters: list[Any] | None = None,
            description: str | None = None) -> dict[str, Any]:
        op = {"summary": summary, "tags": tags, "responses": {
            str(k): v for k, v in responses.items()}}
        if description:
            op["description"] = description
        if parameters:
            op["parameters"] = parameters
        return {"get": op}

    spec.path("/v1/games", operations=get(
        "List the games", {200: ok("GameList", "Every game."), 405: error(405), 500: error(500)},
        ["games"]))
    spec.path("/v1/games/{game}", operations=get(
        "Describe a game",
        {200: ok("GameInfo", "Player counts, options with defaults, action and event types."),
         404: error(404), 405: error(405), 500: error(500)}, ["games"], [GAME_PARAM]))
    spec.path("/v1/games/{game}/cards", operations=get(
        "The card set, filterable",
        {200: ok("CardsResponse", "The set's cards by group, filtered."),
         400: error(400), 404: error(404), 405: error(405), 500: error(500)},
        ["games"],
        [GAME_PARAM,
         {"name": "set", "in": "query", "schema": {"type": "string", "default": "reference"},
          "description": "Card set id."},
         {"name": "q", "in": "query", "schema": {"type": "string"},
          "description": "Substring of the card's Russian or English name (case-insensitive)."},
         {"name": "filters", "in": "query", "style": "form", "explode": True,
          "schema": {"type": "object", "additionalProperties": {"type": "string"}},
          "description": "Any top-level scalar card field, e.g. `?suit=H&rank=Q`; repeat a "
                         "field to accept several values. An unknown field → 400."}],
        description="Filters compare the field's text (`true`/`false` for booleans)."))
    spec.path("/v1/games/{game}/new", operations=_post(
        "Start a game", "The state after setup (deal, trump…): chance is resolved by the server "
        "unless `options.chance` is `table`.", "NewRequest", "NewResponse",
        "The new state and the setup events.", (422,),
        example={"players": 3, "options": {}, "seed": 42}))
    spec.path("/v1/games/{game}/legal-actions", operations=_post(
        "Who must decide, and every legal action",
        "Every listed action can be sent to `apply` as it is. `constraints` describes, per "
        "player, a decision too large to list.", "LegalActionsRequest", "LegalActionsResponse",
        "The pending decisions and the legal actions.", (422, *STATE_ERRORS)))
    spec.path("/v1/games/{game}/apply", operations=_post(
        "Apply an action", "Pure: the state sent is not changed. An illegal action → 422 with "
        "the clause (`rule`) it breaks. A step of a sealed game answers one action: the first "
        "applied to it spends it, the same action again gets the same answer, another → 409 "
        "`step-spent` (docs/trust.md, \"One answer per step\").", "ApplyRequest", "ApplyResponse",
        "The new state, what happened, and the outcome (and, with `for_player`, that seat's "
        "`view` and `events_for_player`).", (409, 422, 503, *STATE_ERRORS)))
    spec.path("/v1/games/{game}/check", operations=_post(
        "Check an action without applying it", "200 whether legal or not; a malformed action → 400.",
        "CheckRequest", "CheckResponse", "Whether the action is legal; if not, the clause and why.",
        (422, *STATE_ERRORS)))
    spec.path("/v1/games/{game}/score", operations=_post(
        "Score a state", "Scores with their breakdown, whether the game is over, the winners.",
        "ScoreRequest", "Outcome", "The outcome.", STATE_ERRORS))
    spec.path("/v1/games/{game}/view", operations=_post(
        "The state as one player may see it", "Other players' hidden cards become counts or "
        "opaque ids; the random state is removed. `player: null` is a spectator.",
        "ViewRequest", "ViewResponse", "The player's view.", (422, *STATE_ERRORS)))
    spec.path("/v1/games/{game}/suggest", operations=_post(
        "Rank a player's actions now (a search of at most 200 ms)",
        "Information-set MCTS over determinizations of `params.player`'s view (it never "
        "peeks): every legal action of that player with its visits, mean result and 95% "
        "interval, the best action and its principal line. At most 200 ms and 2,000 "
        "iterations (64 by default); larger budgets, fanned out on workers: the `suggest` "
        "evaluation (`POST /v1/evaluations`). A `params.player` with no decision pending → "
        "422 citing the turn order's clause, as an action out of turn.", "SuggestRequest",
        "SuggestResponse", "The ranked actions.", (422, *STATE_ERRORS)))
    spec.path("/v1/games/{game}/replay", operations=_post(
        "Replay a recorded game", "Setup + actions → the final state, outcome and per-step events; "
        "or 422 with the `index` of the first illegal action and its `rule`.",
        "ReplayRequest", "ReplayResponse", "The replayed game.", (422,)))

    spec.path("/healthz", operations=get(
        "Liveness", {200: ok("Health", "The process is alive."), 405: error(405), 500: error(500)},
        ["operations"]))
    spec.path("/readyz", operations=get(
        "Readiness", {200: ok("Ready", "Card data loaded; Redis reachable when configured."),
                      405: error(405), 500: error(500), 503: error(503)}, ["operations"]))
    spec.path("/openapi.yaml", operations=get(
        "This document", {200: {"description": "OpenAPI 3.1, YAML.",
                                "content": {"application/yaml": {"schema": {"type": "object"}}}},
                          405: error(405), 500: error(500)}, ["operations"]))
    spec.path("/docs", operations=get(
        "Interactive API docs (Swagger UI, works offline)",
        {200: {"description": "An HTML page.", "content": {"text/html": {"schema": {"type": "string"}}}},
         405: error(405), 500: error(500)}, ["operations"]))
    spec.path("/docs/assets/{name}", operations=get(
        "Static assets of the docs page",
        {200: {"description": "A CSS, JavaScript or image file.", "content": {
            "text/css": {"schema": {"type": "string"}},
            "text/javascript": {"schema": {"type": "string"}},
            "image/png": {"schema": {"type": "string"}}}},
         404: error(404), 405: error(405), 500: error(500)},
        ["operations"], [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}]))


# ------------------------------------------- the service's own routes (not per game)
# Each route's documentation is declared here, once, from the declarations it reads
# (the request envelopes and response schemas of ``schemas.envelopes``, the evaluation
# kinds, the games' ``operations``); the blueprints in ``service.http`` only route.
# A new route: its request ``Envelope`` (and response schema) in ``schemas/envelopes.py``,
# a ``_<name>_paths(spec)`` here, and its place in ``ROUTE_PATHS``.

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


def _evaluation_paths(spec: APISpec) -> None:
    """``/v1/evaluations``… (``service.http.evaluations``)."""
    for name, schema in _evaluation_schemas().items():
        spec.components.schema(name, schema)
    for status, text in EVALUATION_ERRORS.items():
        if status not in ERROR_RESPONSES:
            spec.components.response(str(status), {"description": text, "content": {
                PROBLEM_MIME: {"schema": {"$ref": "#/components/schemas/Problem"}}}})
    tags = ["evaluations"]
    eval_id = {"name": "eval_id", "in": "path", "required": True, "schema": {"type": "string"},
               "description": "The evaluation id (from `Location`)."}
    accepted = {"description": "Accepted: queued (or already done). `Location` is the "
                               "evaluation; poll it after `Retry-After` seconds.",
                "headers": {"Location": {"schema": {"type": "string"}},
                            "Retry-After": {"schema": {"type": "integer"}}},
                "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/EvaluationStatus"}}}}
    spec.path("/v1/evaluations", operations={"post": {
        "summary": "Submit an evaluation", "tags": tags,
        "description": "Validated first: nothing is queued for a request that cannot succeed "
                       "(400; a `suggest` for a seat with no decision pending: 422 citing the "
                       "turn order's clause). Runs on RQ workers with `REDIS_URL`, in-process "
                       "without.",
        "requestBody": body("EvaluationRequest", {
            "game": "tremble", "kind": "tremble.battle_odds", "strengths": [16, 17]}),
        "responses": {"202": accepted,
                      **{str(s): error(s) for s in (400, 401, 403, 405, 413, 415, 422, 429,
                                                    500, 503)}}}})
    spec.path("/v1/evaluations/kinds", operations={"get": {
        "summary": "Evaluation kinds, their inputs, params and caps", "tags": tags,
        "responses": {"200": ok("EvaluationKinds", "Every kind."),
                      "401": error(401), "405": error(405), "500": error(500)}}})
    owned = ("With `REFEREE_API_KEYS`, an evaluation answers only the API key that submitted "
             "it: any other key gets the 404 of an unknown id. One of a sealed state answers "
             "only with the `Referee-Seat-Token` of the seat it was asked for (`suggest`: "
             "`params.player`'s; any other kind: every seat's), whatever its status: 403 "
             "otherwise. Without API keys the id is a bearer capability.")
    seat_token = {**SEAT_TOKEN_HEADER, "description":
                  "For an evaluation of a sealed state: the token of the seat it was asked "
                  "for, or every seat's, comma-separated (the host). Ignored for any other."}
    # 400: some seats' tokens but not all; 403: a sealed state's evaluation without its seat's
    refused = {"400": error(400), "403": error(403)}
    spec.path("/v1/evaluations/{eval_id}", operations={
        "get": {"summary": "Status, progress, result or error of an evaluation", "tags": tags,
                "parameters": [eval_id, seat_token], "description": owned,
                "responses": {"200": ok("EvaluationStatus", "The evaluation."), **refused,
                              **{str(s): error(s) for s in (401, 404, 405, 410, 500, 503)}}},
        "delete": {"summary": "Remove an evaluation (stopping it first if it still runs)",
                   "tags": tags, "parameters": [eval_id, seat_token],
                   "description": "Forgets the evaluation — its status, result or error — "
                                  "whether it is queued, running, over or expired; a running "
                                  "one is stopped first. Afterwards every method on its "
                                  "address answers 404. To stop one and keep its status, "
                                  "`POST .../cancel`. " + owned,
                   "responses": {"204": {"description": "Removed."}, **refused,
                                 **{str(s): error(s) for s in (401, 404, 405, 500, 503)}}}})
    spec.path("/v1/evaluations/{eval_id}/cancel", operations={"post": {
        "summary": "Cancel a queued or running evaluation", "tags": tags,
        "parameters": [eval_id, seat_token],
        "description": "Stops it; its status stays readable (`canceled`) until it expires. "
                       "Cancelling a canceled one answers the same; one that finished or "
                       "failed is 409: an outcome never changes. " + owned,
        "responses": {"200": ok("EvaluationStatus", "Canceled."), **refused,
                      **{str(s): error(s) for s in (401, 404, 405, 409, 410, 429, 500,
                                                    503)}}}})


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


def _game_operation_paths(spec: APISpec) -> None:
    """Every game's own operations (``Game.operations``, served by
    ``service.http.game_operations``), each with the answer to its example."""
    import json

    for game in registry.all_games():
        for operation in game.operations:
            _declared_schema(spec, operation.request_name, operation.request,
                             operation.document_request)
            _declared_schema(spec, operation.response_name, operation.response)
            example = dict(operation.example)
            reply = ok(operation.response_name, operation.ok_text)
            reply["content"][JSON]["example"] = json.loads(json.dumps(  # lazy texts → str
                operation.handler(envelopes.load(operation.request, example)), default=str))
            documented: dict[str, Any] = {"summary": operation.summary}
            if operation.description:
                documented["description"] = operation.description
            documented |= {
                "tags": list(operation.tags or (game.id,)),
                "requestBody": body(operation.request_name, example),
                "responses": {"200": reply, **{str(s): error(s) for s in operation.errors}},
                "operationId": operation.operation_id}
            spec.path(f"/v1/games/{game.id}/{operation.path}", operations={"post": documented})


def _metrics_paths(spec: APISpec) -> None:
    """``/metrics`` (``service.http.metrics``)."""
    spec.path("/metrics", operations={"get": {
        "summary": "Prometheus metrics", "tags": ["operations"],
        "description": "`referee_http_request_duration_seconds` (histogram by method, route, "
                       "status), `referee_evaluation_jobs_total` (by kind and event), process "
                       "figures. Per worker unless `PROMETHEUS_MULTIPROC_DIR` is set.",
        "responses": {"200": {"description": "Prometheus text format.", "content": {
            "text/plain": {"schema": {"type": "string"}}}},
            "405": error(405), "500": error(500)}}})


ACCEPT_LANGUAGE = {
    "name": "Accept-Language", "in": "header", "required": False,
    "schema": {"type": "string", "example": "ru"},
    "description": "`en` (default) or `ru`; the answer says which in `Content-Language`."}
CONTENT_LANGUAGE = {"description": "The language of the texts: `en` or `ru`.",
                    "schema": {"type": "string", "enum": list(rules_reference.LANGUAGES)}}
CLAUSE_EXAMPLE = {
    "game": "raiders", "language": "en", "id": "RAI-12", "title": "One capture attempt per turn",
    "short": "In your own turn you have exactly one capture attempt, and you may decline it. "
             "One turn, one fighter, one attempt: a failed capture uses it up too.",
    "text": "In your own turn you have exactly one capture attempt, …", "ruling": False,
    "has_ruling": False, "section": "Turn", "url": "/v1/games/raiders/rules/RAI-12"}


def _rules_paths(spec: APISpec) -> None:
    """The rules reference and the problem-type pages (``service.http.rules``)."""
    spec.components.schema("RuleClause", envelopes.ANSWERS["RuleClause"].schema())
    spec.components.schema("RulesReference", envelopes.ANSWERS["RulesReference"].schema())
    spec.components.schema("ProblemTypeInfo", envelopes.ANSWERS["ProblemTypeInfo"].schema())
    spec.components.schema("ProblemTypeList", envelopes.ANSWERS["ProblemTypeList"].schema())

    def rules_ok(schema: str, description: str, example: dict[str, Any]) -> dict[str, Any]:
        return {"description": description, "headers": {"Content-Language": CONTENT_LANGUAGE},
                "content": {"application/json": {
                    "schema": {"$ref": f"#/components/schemas/{schema}"}, "example": example}}}

    def page_ok(schema: str, description: str) -> dict[str, Any]:
        return {"description": description, "content": {
            "text/html": {"schema": {"type": "string"}},
            "application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}

    errors = {str(s): error(s) for s in (404, 405, 500)}
    spec.path("/v1/games/{game}/rules", operations={"get": {
        "summary": "The game's rules reference", "tags": ["rules"],
        "description": "Every clause the service cites (`rule` in errors and events), "
                       "written from the original rulebook; rulings marked. 404 for a game "
                       "without a reference.",
        "parameters": ["game", ACCEPT_LANGUAGE],
        "responses": {"200": rules_ok("RulesReference", "Every clause, in file order.", {
            "game": "raiders", "language": "en", "title": "Raiders (Рейдеры) — rules reference",
            "clauses": [{k: v for k, v in CLAUSE_EXAMPLE.items()
                         if k not in ("game", "language")}]}), **errors}}})
    spec.path("/v1/games/{game}/rules/{clause}", operations={"get": {
        "summary": "One clause of the rules reference", "tags": ["rules"],
        "description": "The clause a problem's `rule_url` links to. An unknown clause → 404 "
                       "`unknown-clause`.",
        "parameters": ["game", ACCEPT_LANGUAGE, {
            "name": "clause", "in": "path", "required": True,
            "schema": {"type": "string", "example": "RAI-12"},
            "description": "Clause id, e.g. `RAI-12`, `KOZ-16a`."}],
        "responses": {"200": rules_ok("RuleClause", "The clause.", CLAUSE_EXAMPLE), **errors}}})
    spec.path("/problems", operations={"get": {
        "summary": "Every problem type", "tags": ["operations"],
        "description": "An HTML page, or JSON with `Accept: application/json`.",
        "responses": {"200": page_ok("ProblemTypeList", "The problem types."),
                      "405": error(405), "500": error(500)}}})
    spec.path("/problems/{slug}", operations={"get": {
        "summary": "One problem type (what a problem's `type` resolves to)",
        "tags": ["operations"],
        "description": "When it happens and what to do. An HTML page, or JSON with "
                       "`Accept: application/json`.",
        "parameters": [{"name": "slug", "in": "path", "required": True,
                        "schema": {"type": "string", "example": "illegal-action"}}],
        "responses": {"200": page_ok("ProblemTypeInfo", "The problem type."), **errors}}})


CHANCE_BATCH_TEXT = """\
At a real table (``chance: table``) a scorekeeper enters what came up: a
dealt hand is six single-card ``deal`` outcomes per player.  This route
applies a list of chance outcomes (``"player": "chance"``, as
``legal-actions`` lists them) one after another, as that many ``apply``
calls would: ``{state, outcomes}`` → ``{state, events, outcome}``, where
``events`` has one entry per outcome, ``[{index, events}]`` (the shape of a
replay's steps).  The first outcome that cannot happen stops it all: 422
``illegal-action`` with its ``index``, and nothing is applied.  An entry
that is not a chance outcome is a 400 naming it (players' decisions go
through ``apply``, one at a time).  On a sealed state the list spends the
step it was sent for as one action (``service.spent_steps``): the same list
again answers the same, another → 409 ``step-spent``."""


def chance_batch_example(deals: int = 6) -> dict[str, Any] | None:
    """An ``apply-chance`` request: a new two-player Raiders table game and its first hand,
    dealt at once (``None`` when Raiders is not served, as in the HTTP layer's own tests).

    >>> [o["card"] for o in chance_batch_example()["outcomes"]]
    ['C-10', 'C-6', 'C-7', 'C-8', 'C-9', 'C-A']
    """
    if "raiders" not in registry.GAME_IDS:
        return None
    game = registry.get_game("raiders")
    state, _ = game.new_game(2, {"chance": "table"}, 7, "reference")
    start, outcomes = state, []
    for _ in range(deals):
        outcome = {k: v for k, v in game.legal_actions(state, CHANCE)[0].items()
                   if k != "probability"}
        outcomes.append(outcome)
        state, _ = game.apply(state, outcome)
    return {"state": start, "outcomes": outcomes}


def _table_paths(spec: APISpec) -> None:
    """``/v1/games/{game}/apply-chance`` (``service.http.table``)."""
    spec.components.schema("ChanceBatchRequest", envelopes.CHANCE_BATCH.schema())
    spec.components.schema("ChanceBatchResponse", envelopes.ANSWERS["ChanceBatchResponse"].schema())
    spec.path("/v1/games/{game}/apply-chance", operations={"post": {
        "summary": "Apply several chance outcomes at once (a hand dealt at the table)",
        "description": CHANCE_BATCH_TEXT,
        "tags": ["games"], "operationId": "game_apply_chance", "parameters": [GAME_PARAM],
        "requestBody": body("ChanceBatchRequest", chance_batch_example()),
        "responses": {"200": ok("ChanceBatchResponse", "The state after every outcome."),
                      **{str(s): error(s) for s in (400, 403, 404, 405, 409, 413, 415, 422,
                                                    429, 500, 503)}}}})


def _tournament_paths(spec: APISpec) -> None:
    """``/v1/tournaments/standings`` and ``/events``: their declarations
    (``schemas.tournaments``: ``components`` and ``OPERATIONS``)."""
    games = registry.all_games()
    for name, schema in tournaments.components(games).items():
        spec.components.schema(name, schema)
    for op in tournaments.OPERATIONS:
        spec.path(op.path, operations={"post": {
            "summary": op.summary, "description": op.description, "tags": [op.tag],
            "operationId": op.operation_id, "requestBody": body(op.request, op.example()),
            "responses": {"200": ok(op.response, op.ok), **{str(s): error(s) for s in op.errors}}}})


VERIFY_TRANSCRIPT_TEXT = """\
With signing or sealing keys configured, every state the service returns
carries a `chain` (`{game, step, prev}`, `service.transcripts`) that its
signature or seal covers.  Send the states of one game that you collected
(``{"states": [...]}``, as the service returned them, signed or sealed): each
is authenticated first (unsigned → 400 `unsigned-state`, altered → 403
`bad-signature` / `bad-seal`, with the state's `index`), then the answer
says whether they are one line (`valid`), and names the `forks` (two
different states at one step: someone applied two actions to one state, or
went back to an old one) and the `breaks` (a state that follows none of the
others, or of another game).  The service keeps nothing: it checks only the
states sent."""


def verify_transcript_example() -> dict[str, Any] | None:
    """A ``transcripts/verify`` request: a new Raiders game and the state after its first
    action, signed under the key ``example-key`` (``None`` when Raiders is not served).

    >>> [s["chain"]["step"] for s in verify_transcript_example()["states"]]
    [0, 1]
    """
    from service import signing, transcripts

    if "raiders" not in registry.GAME_IDS:
        return None
    game, keys = registry.get_game("raiders"), signing.parse_keys("example-key")
    state, _ = game.new_game(2, {}, 7, "reference")
    first = signing.signed({**state, transcripts.FIELD: transcripts.start("0" * 32)}, keys)
    state, _ = game.apply(state, game.legal_actions(state, None)[0])
    second = signing.signed({**state, transcripts.FIELD: transcripts.follow(first)}, keys)
    return {"states": [first, second]}


def _transcript_paths(spec: APISpec) -> None:
    """``/v1/transcripts/verify`` (``service.http.transcripts``)."""
    spec.components.schema("TranscriptFork", envelopes.ANSWERS["TranscriptFork"].schema())
    spec.components.schema("TranscriptBreak", envelopes.ANSWERS["TranscriptBreak"].schema())
    spec.components.schema("VerifyTranscriptRequest", envelopes.VERIFY_TRANSCRIPT.schema())
    spec.components.schema("VerifyTranscriptResponse", envelopes.ANSWERS["VerifyTranscriptResponse"].schema())
    spec.path("/v1/transcripts/verify", operations={"post": {
        "summary": "Check that signed or sealed states form one unbroken game",
        "description": VERIFY_TRANSCRIPT_TEXT,
        "tags": ["games"], "operationId": "transcript_verify",
        "requestBody": body("VerifyTranscriptRequest", verify_transcript_example()),
        "responses": {"200": ok("VerifyTranscriptResponse", "Whether the states are one line, "
                                "their forks and breaks."),
                      **{str(s): error(s) for s in (400, 403, 405, 413, 415, 429, 500)}}}})


#: what ``/console/{name}`` serves besides the page (``service.http.console.MIME_TYPES``)
CONSOLE_FILES = ("text/javascript", "text/css", "image/svg+xml")


def _console_paths(spec: APISpec) -> None:
    """``/console`` and its files (``service.http.console``)."""
    errors = {str(s): error(s) for s in (404, 405, 500)}
    spec.path("/console", operations={"get": {
        "summary": "The scorekeeper's console (an HTML page)", "tags": ["console"],
        "operationId": "console_page",
        "description": "Record a game at the table, verify a reported game, export the "
                       "result, chart playouts, tournament standings; built on this API "
                       "only (`docs/console.md`).",
        "responses": {"200": {"description": "The page.",
                              "content": {"text/html": {"schema": {"type": "string"}}}},
                      **errors}}})
    spec.path("/console/{name}", operations={"get": {
        "summary": "A file of the console (script, style)", "tags": ["console"],
        "operationId": "console_asset",
        "parameters": [{"name": "name", "in": "path", "required": True,
                        "schema": {"type": "string", "example": "console.js"}}],
        "responses": {"200": {"description": "The file.", "content": {
            mime: {"schema": {"type": "string"}} for mime in CONSOLE_FILES}},
            **errors}}})


#: the service's own routes, documented in this order (after the games' contract)
ROUTE_PATHS: tuple[Callable[[APISpec], None], ...] = (
    _evaluation_paths, _game_operation_paths, _metrics_paths, _rules_paths, _table_paths,
    _tournament_paths, _transcript_paths, _console_paths)


# ------------------------------------------------------------- typed games
#: the contract operations, documented once per game with that game's own types:
#: verb → (summary, generic request, generic response, OK text, extra error statuses)
GAME_OPERATIONS = {
    "new": ("Start a {title} game", "NewRequest", "NewResponse",
            "The new state and the setup events.", (422,)),
    "legal-actions": ("Who must decide in {title}, and every legal action",
                      "LegalActionsRequest", "LegalActionsResponse",
                      "The pending decisions and the legal actions.", (422, *STATE_ERRORS)),
    "apply": ("Apply a {title} action", "ApplyRequest", "ApplyResponse",
              "The new state, what happened, and the outcome.", (409, 422, 503, *STATE_ERRORS)),
    "check": ("Check a {title} action without applying it", "CheckRequest", "CheckResponse",
              "Whether the action is legal; if not, the clause and why.", (422, *STATE_ERRORS)),
    "score": ("Score a {title} state", "ScoreRequest", "Outcome", "The outcome.", STATE_ERRORS),
    "view": ("A {title} state as one player may see it", "ViewRequest", "ViewResponse",
             "The player's view.", (422, *STATE_ERRORS)),
    "replay": ("Replay a recorded {title} game", "ReplayRequest", "ReplayResponse",
               "The replayed game.", (422,)),
    "suggest": ("Rank a {title} player's actions now", "SuggestRequest", "SuggestResponse",
                "The ranked actions.", (422, *STATE_ERRORS)),
}
#: generic component → the suffix of its per-game counterpart (``Raiders`` + suffix)
GENERIC_NAMES = {"GameState": "State", "Action": "Action", "Event": "Event",
                 "PlayerSetup": "PlayerSetup", "Outcome": "Outcome",
                 "PlayerScore": "PlayerScore", "ReplayStep": "ReplayStep", "Setup": "Setup",
                 "RankedAction": "RankedAction", "LineStep": "LineStep"}
#: responses that do not depend on the game
SHARED_RESPONSES = ("CheckResponse",)
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


def mid_game(game: AnyGame) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """A seeded game ``EXAMPLE_STEPS`` random legal actions in: (setup, actions, states).

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
    return setup, actions, states


def _decisions(game: AnyGame, state: dict[str, Any]) -> list[dict[str, Any]]:
    """The players' legal actions in ``state`` (chance outcomes left out)."""
    return [a for a in game.legal_actions(state, None) if a.get("player") != CHANCE]


def game_examples(game: AnyGame) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """verb → (request, 200 answer), from a seeded mid-game state."""
    setup, actions, states = mid_game(game)
    new_state, new_events = game.new_game(game.min_players, None, EXAMPLE_SEED, "reference")
    state = states[-1]
    action = _decisions(game, state)[0]
    after, events = game.apply(state, action)
    pending = game.pending(state)
    listed: dict[str, Any] = {"pending": pending, "actions": game.legal_actions(state, None)}
    constraints = {str(p["player"]): c for p in pending if p["player"] != CHANCE
                   for c in [game.constraints(state, p["player"])] if c is not None}
    if constraints:
        listed["constraints"] = constraints
    replayed = replay_game(game, {**setup, "options": None, "card_set": "reference"}, actions)
    return {
        "new": (setup, {"state": new_state, "events": new_events}),
        "legal-actions": ({"state": state}, listed),
        "apply": ({"state": state, "action": action},
                  {"state": after, "events": events, "outcome": game.score(after)}),
        "check": ({"state": state, "action": action}, game.check(state, action)),
        "score": ({"state": state}, game.score(state)),
        "view": ({"state": state, "player": 0}, {"view": game.view(state, 0)}),
        "replay": ({"setup": setup, "actions": actions}, replayed),
        **({"suggest": _suggest_example(game, state)} if game.searchable else {}),
    }


def _suggest_example(game: AnyGame, state: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A ``suggest`` request on the example state and its answer: an iteration budget
    and a seed (the same answer every time), its CPU time left out (``null``)."""
    from service.evaluations.suggest import suggest_now

    player = next(p["player"] for p in game.pending(state) if p["player"] != CHANCE)
    request = {"state": state, "params": {"player": player, "iterations": 16, "seed": 7}}
    return request, {**suggest_now(game, state, request["params"]), "cpu_ms": None}


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


#: where each typed request holds its player count, its seat fields and its options
_COUNTS = {
    "new": (("players",), (("for_player",),), ("options",)),
    "replay": (("setup", "players"), (("for_player",),), ("setup", "options")),
    "legal-actions": (("state", "players"), (("player",),), None),
    "apply": (("state", "players"), (("for_player",),), None),
    "view": (("state", "players"), (("player",),), None),
    "suggest": (("state", "players"), (("params", "player"),), None),
}


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


def typed_game(doc: dict[str, Any], game: AnyGame) -> None:
    """Components and paths of one game's typed operations (``/v1/games/<id>/<verb>``)."""
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
    for generic in ("Outcome", "ReplayStep", "RankedAction", "LineStep"):
        schemas[f"{name}{generic}"] = _retarget(schemas[generic], name)

    title = game.title["en"] if isinstance(game.title, dict) else str(game.title)
    for verb, (summary, request, response, ok_text, extra) in GAME_OPERATIONS.items():
        if verb not in examples:  # suggest, of a game without ``determinize``
            continue
        req = _retarget(schemas[request], name)
        if request == "NewRequest" or request == "ReplayRequest":
            for key in ("players", "options", "card_set"):  # `seed`: NewRequest's own (2^53 - 1)
                if request == "NewRequest":
                    req["properties"][key] = setup["properties"][key]
            if request == "ReplayRequest":
                req["properties"]["setup"] = {"$ref": f"#/components/schemas/{name}Setup"}
        _narrow_seats(req, last)
        if verb in _COUNTS:
            rules = per_count_rules(game, *_COUNTS[verb])
            if rules:
                req["allOf"] = rules
        schemas[f"{name}{request}"] = req
        takes_view = view_name(request) in schemas and (
            game.suggests_from_views if verb == "suggest" else game.takes_views)
        if takes_view:
            schemas[f"{name}{view_name(request)}"] = _retarget(schemas[view_name(request)], name)
        if response in SHARED_RESPONSES:
            answer = response
        elif response == "Outcome":
            answer = f"{name}Outcome"
        else:
            answer = f"{name}{response}"
            schemas[answer] = _retarget(schemas[response], name)
        request_example, answer_example = examples[verb]
        responses = {"200": ok(answer, ok_text)}
        responses["200"]["content"][JSON]["example"] = answer_example
        for status in sorted(set(POST_ERRORS) - {404} | set(extra)):
            responses[str(status)] = error(status)
        operation = {
            "operationId": f"{game.id}_{verb.replace('-', '_')}",
            "summary": summary.format(title=title), "tags": [game.id],
            "description": doc["paths"][f"/v1/games/{{game}}/{verb}"]["post"]["description"],
            "requestBody": (either_body if takes_view else body)(f"{name}{request}",
                                                                request_example),
            "responses": responses}
        if set(STATE_ERRORS) <= set(extra):
            operation["parameters"] = [REQUIRE_SIGNED_HEADER, SEAT_TOKEN_HEADER]
        doc["paths"][f"/v1/games/{game.id}/{verb}"] = {"post": operation}
    one_view_type(schemas, name, game)


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


#: operationId of the operations other modules document without one: (method, path) → id
OPERATION_IDS = {
    ("get", "/v1/games"): "list_games", ("get", "/v1/games/{game}"): "describe_game",
    ("get", "/v1/games/{game}/cards"): "list_cards",
    ("post", "/v1/evaluations"): "submit_evaluation",
    ("get", "/v1/evaluations/kinds"): "list_evaluation_kinds",
    ("get", "/v1/evaluations/{eval_id}"): "get_evaluation",
    ("delete", "/v1/evaluations/{eval_id}"): "delete_evaluation",
    ("post", "/v1/evaluations/{eval_id}/cancel"): "cancel_evaluation",
    ("get", "/v1/games/{game}/rules"): "get_rules", ("get", "/v1/games/{game}/rules/{clause}"): "get_rule",
    ("get", "/problems"): "list_problem_types", ("get", "/problems/{slug}"): "get_problem_type",
    ("get", "/healthz"): "healthz", ("get", "/readyz"): "readyz",
    ("get", "/openapi.yaml"): "openapi_document", ("get", "/docs"): "docs_page",
    ("get", "/docs/assets/{name}"): "docs_asset", ("get", "/metrics"): "metrics",
}


def operation_id(method: str, path: str) -> str:
    """The operationId of ``method path``: from ``OPERATION_IDS``, else made of the path.

    >>> operation_id("get", "/v1/things/{thing_id}/parts")
    'get_things_by_thing_id_parts'
    """
    if (method, path) in OPERATION_IDS:
        return OPERATION_IDS[method, path]
    words = [("by_" + w[1:-1]) if w.startswith("{") else w for w in path.split("/")
             if w and w != "v1"]
    return "_".join([method, *words]).replace("-", "_").replace(".", "_")


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


def _get_examples(doc: dict[str, Any], games: list[AnyGame]) -> None:
    """Real answers of the GET operations of the game list, the card sets and health."""
    def answer(path: str, example: object) -> None:
        operation = doc["paths"].get(path, {}).get("get")
        if operation is not None:
            operation["responses"]["200"]["content"][JSON]["example"] = example

    if not games:
        return
    answer("/v1/games", {"games": [g.describe() for g in games]})
    answer("/v1/games/{game}", games[0].describe())
    answer("/healthz", {"status": "ok"})
    answer("/readyz", {"status": "ready", "checks": {"card_data": "ok",
                                                    "redis": "not configured"}})
    for path, game in [("/v1/games/{game}/cards", games[0]),
                       *((f"/v1/games/{g.id}/cards", g) for g in games)]:
        q, example = _cards_example(game)
        answer(path, example)
        for parameter in doc["paths"][path]["get"]["parameters"]:
            if parameter.get("name") == "q":
                parameter["example"] = q


def finish(doc: dict[str, Any], games: list[AnyGame]) -> dict[str, Any]:
    """Typed per-game operations first, then every operation with its operationId."""
    generic = dict(doc["paths"])
    for game in games:
        typed_game(doc, game)
    doc["paths"] = {**{p: o for p, o in doc["paths"].items() if p not in generic}, **generic}
    if games:  # the generic operations show the first game's examples
        doc["components"]["parameters"]["game"]["example"] = games[0].id
    for verb in GAME_OPERATIONS:
        operation = doc["paths"][f"/v1/games/{{game}}/{verb}"]["post"]
        shown = next((g for g in games if f"/v1/games/{g.id}/{verb}" in doc["paths"]), None)
        if shown is not None:
            operation["parameters"] = [  # inline, so tools read the example of {game}
                {**doc["components"]["parameters"]["game"], "example": shown.id}
                if p == {"$ref": "#/components/parameters/game"} else p
                for p in operation.get("parameters", [])]
            typed = doc["paths"][f"/v1/games/{shown.id}/{verb}"]["post"]
            operation["requestBody"]["content"][JSON]["example"] = \
                typed["requestBody"]["content"][JSON]["example"]
            operation["responses"]["200"]["content"][JSON]["example"] = \
                typed["responses"]["200"]["content"][JSON]["example"]
        operation["operationId"] = f"game_{verb.replace('-', '_')}"
        operation["description"] += (" Generic over the games (`{game}`); the typed "
                                     f"`/v1/games/<game>/{verb}` takes and returns that "
                                     "game's own types.")
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            if isinstance(operation, dict) and "responses" in operation:
                operation.setdefault("operationId", operation_id(method, path))
    _links(doc, games)
    _evaluation_request(doc, games)
    _cards_paths(doc, games)
    _get_examples(doc, games)
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


#: the GETs with ``ETag`` and ``Cache-Control`` (``middleware.CACHEABLE``), and a 304
CACHEABLE_PATHS = re.compile(r"/v1/games(/[^/]+(/cards|/rules(/\{clause\})?)?)?|/problems(/\{slug\})?"
                             r"|/openapi\.yaml")
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
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key", "in": "header", "required": False,
    "description": "A key of the client's (draft-ietf-httpapi-idempotency-key-header: a quoted "
                   "string, or a bare token; 1-255 visible ASCII). The same key with the same "
                   "body answers the evaluation the first made (202, the same `Location`), "
                   "however many arrive at once; with another body 422 "
                   "`idempotency-key-reused`. Scoped to the API key when keys are configured; "
                   "it lasts as long as its evaluation answers (until it expires, "
                   "`EVALUATION_RESULT_TTL` after it ends, or is removed).",
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_IDEMPOTENCY_KEY + 2,
               "pattern": f"^(?:{IDEMPOTENCY_KEY_PATTERN})$"}}


def with_http_fields(doc: dict[str, Any]) -> dict[str, Any]:
    """Declare ``ETag``/``Cache-Control``/304 on the stable GETs, ``Idempotency-Key`` on
    ``POST /v1/evaluations`` and the ``RateLimit`` fields on the limited POSTs (in place)."""
    components = doc.setdefault("components", {}).setdefault("headers", {})
    components.update(HTTP_FIELDS)
    ref = {name: {"$ref": f"#/components/headers/{name}"} for name in HTTP_FIELDS}
    for path, operations in doc.get("paths", {}).items():
        get = operations.get("get")
        if get is not None and CACHEABLE_PATHS.fullmatch(path):
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
    doc["paths"]["/v1/evaluations"]["post"].setdefault("parameters", []).append(IDEMPOTENCY_KEY)
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
