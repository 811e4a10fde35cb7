"""Generate ``openapi.yaml`` (OpenAPI 3.1) with apispec.

Two sources, so the documented shapes and the enforced shapes cannot drift:

* the marshmallow envelopes in ``schemas/envelopes.py`` (requests, responses,
  ``Problem``), converted by apispec's marshmallow plugin;
* each engine's shape specs (``game.state_spec``, ``game.action_specs``,
  ``game.player_setup_spec``) as JSON Schema: components ``<Game>State``,
  ``<Game>Action`` (one of its action types, each a component of its own),
  ``<Game>PlayerSetup`` and ``<Game>Event``, gathered in ``GameState``,
  ``Action``, ``PlayerSetup`` and ``Event``.

Paths are written once for all games (``{game}`` is an enum of the registered
ids).  Other blueprint modules add their own paths through a ``document(spec)``
function (see ``service.app.BLUEPRINT_MODULES``).

Run ``python -m service.openapi > openapi.yaml``; a test fails when the
committed file differs from a fresh generation, and another when a Flask route
or method is missing from the document.

Documenting a blueprint (``service.http.<name>``), e.g.::

    def document(spec):
        from service.openapi import body, error, ok
        spec.components.schema("OddsRequest", schema=OddsRequestSchema)   # marshmallow
        spec.components.schema("OddsResponse", schema=OddsResponseSchema)
        spec.path("/v1/games/tremble/odds", operations={"post": {
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

import importlib.metadata
import sys

import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from schemas import envelopes
from service.games import registry
from service.games.base import Game
from service.problems import PROBLEM_MIME

#: ``info.version``: the package version (pyproject.toml), one number for both
API_VERSION = importlib.metadata.version("referee")
JSON = "application/json"

DESCRIPTION = """\
A referee that keeps no memory: send a game state and a proposed action; get
back the legal actions, the new state, what happened and the scores.

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

Signed states: with `REFEREE_STATE_KEYS` configured every state returned
carries `signature` (HMAC-SHA256 of the state's orjson encoding with sorted
keys, `signature` left out); a state sent back with an altered signature →
403 `bad-signature`; with `REFEREE_REQUIRE_SIGNED=1`, or the request header
`Referee-Require-Signed: true`, a state without one → 400 `unsigned-state`.

Operations: every response carries `X-Request-Id` (the client's, or a new
one); with `REFEREE_API_KEYS`, `/v1/evaluations` needs `Authorization: Bearer
<key>` or `X-API-Key` (else 401); with rate limits configured a client over
its limit gets 429 with `Retry-After`.
"""

ENVELOPES = (  # nested schemas first: apispec registers them by name on first use
    "Pending", "PlayerScore", "Outcome", "ReplayStep", "Setup", "Title", "PlayerCount",
    "OptionInfo", "GameInfo", "CardSetRef",
    "NewRequest", "NewResponse", "LegalActionsRequest", "LegalActionsResponse",
    "ApplyRequest", "ApplyResponse", "CheckRequest", "CheckResponse", "ScoreRequest",
    "ViewRequest", "ViewResponse", "ReplayRequest", "ReplayResponse",
    "GameList", "CardsResponse", "Health", "Ready", "Problem",
)

#: reusable error responses: status -> description
ERROR_RESPONSES = {
    400: "Malformed request: not JSON, a schema error, an invalid state (`errors` names each "
         "field), or an unsigned state where signatures are required (`unsigned-state`).",
    401: "An API key is required (`Authorization: Bearer <key>` or `X-API-Key`).",
    403: "The state's `signature` does not match it (`bad-signature`).",
    404: "Unknown game, card set, clause or route.",
    405: "This path does not take that method (`Allow` lists the ones it does).",
    413: "Request body larger than `MAX_CONTENT_LENGTH`.",
    415: "The body is not `application/json`.",
    422: "An illegal action (`rule`, `detail`; `index` in a replay) or an invalid setup (`violations`).",
    429: "Too many requests from this client (`Retry-After` says when to retry).",
    500: "An unexpected failure (logged); never caused by bad input.",
    503: "Not ready: card data not loaded or Redis unreachable.",
}


def camel(name: str) -> str:
    """``play_trick`` → ``PlayTrick``.

    >>> camel("raiders"), camel("play-trick_now")
    ('Raiders', 'PlayTrickNow')
    """
    return "".join(p[:1].upper() + p[1:] for p in name.replace("-", "_").split("_") if p)


def _ref_attribute(converter, field, **kwargs) -> dict:
    """apispec attribute function: ``metadata={"ref": "GameState"}`` → ``$ref``."""
    ref = field.metadata.get("ref")
    if not ref:
        return {}
    return {"$ref": f"#/components/schemas/{ref}"}


def error(status: int) -> dict:
    return {"$ref": f"#/components/responses/{status}"}


def ok(schema: str, description: str, mime: str = JSON) -> dict:
    return {"description": description,
            "content": {mime: {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}


def body(schema: str, example: dict | None = None) -> dict:
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
    "schema": {"type": "string", "enum": ["true", "false", "1", "0"]},
    "description": "`true`: refuse the state unless it carries a valid `signature` "
                   "(400 `unsigned-state`); `REFEREE_REQUIRE_SIGNED=1` does it for every request."}


def game_components(spec: APISpec, game: Game) -> None:
    """``<Game>State``, ``<Game>Action`` (+ one per action type) and ``<Game>Event``."""
    name = camel(game.id)
    state = game.state_spec.schema()
    state["properties"] = {**state["properties"], "game": {"const": game.id},
                           "signature": {"type": "string", "pattern": "^hmac-sha256:[0-9a-f]{64}$",
                                         "description": "Present when the service signs states "
                                                        "(`REFEREE_STATE_KEYS`); send it back as is."}}
    state["description"] = (state.get("description") or "") + \
        " Send it back as it was returned; only the engine changes it."
    spec.components.schema(f"{name}State", state)
    refs = []
    for action_type, action_spec in game.action_specs.items():
        schema = action_spec.schema()
        schema["properties"] = {**schema["properties"], "type": {"const": action_type}}
        component = f"{name}{camel(action_type)}Action"
        spec.components.schema(component, schema)
        refs.append({"$ref": f"#/components/schemas/{component}"})
    spec.components.schema(f"{name}Action", {
        "description": f"One {game.id} action (its `type` says which).", "oneOf": refs})
    setup = game.player_setup_spec.schema()
    setup["description"] = f"One {game.id} player's setup in `new` (instead of a player count)."
    spec.components.schema(f"{name}PlayerSetup", setup)
    spec.components.schema(f"{name}Event", {
        "type": "object", "required": ["type"],
        "properties": {"type": {"enum": sorted({*game.event_types, "chance"})}},
        "additionalProperties": True,
        "description": f"Something that happened in a {game.id} game "
                       "(`chance`: a chance outcome the server resolved)."})


def build_spec(modules=None) -> APISpec:
    """The whole document for the registered games and blueprint modules."""
    if modules is None:
        from service.app import blueprint_modules
        modules = blueprint_modules()
    games = registry.all_games()
    plugin = MarshmallowPlugin()
    spec = APISpec(title="referee", version=API_VERSION, openapi_version="3.1.0",
                   plugins=[plugin], info={"description": DESCRIPTION})
    plugin.converter.add_attribute_function(_ref_attribute)

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
    for name in ENVELOPES:
        spec.components.schema(name, schema=getattr(envelopes, name))

    spec.components.parameter("game", "path", {
        "description": "Game id.", "required": True,
        "schema": {"type": "string", "enum": [g.id for g in games]}})
    for status, description in ERROR_RESPONSES.items():
        spec.components.response(str(status), {
            "description": description,
            "content": {PROBLEM_MIME: {"schema": {"$ref": "#/components/schemas/Problem"}}}})

    _core_paths(spec)
    for module in modules:
        document = getattr(module, "document", None)
        if document is not None and module.__name__ not in ("service.http.ops", "service.http.games"):
            document(spec)
    return spec


def _post(summary: str, description: str, request: str, response: str, ok_text: str,
          extra_errors: tuple = (), example: dict | None = None) -> dict:
    responses = {"200": ok(response, ok_text)}
    for status in sorted(set(POST_ERRORS) | set(extra_errors)):
        responses[str(status)] = error(status)
    parameters = [GAME_PARAM]
    if set(STATE_ERRORS) <= set(extra_errors):
        parameters.append(REQUIRE_SIGNED_HEADER)
    return {"post": {"summary": summary, "description": description, "tags": ["games"],
                     "parameters": parameters, "requestBody": body(request, example),
                     "responses": responses}}


def _core_paths(spec: APISpec) -> None:
    def get(summary, responses, tags, parameters=None, description=None):
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
        "The pending decisions and the legal actions.", STATE_ERRORS))
    spec.path("/v1/games/{game}/apply", operations=_post(
        "Apply an action", "Pure: the state sent is not changed. An illegal action → 422 with "
        "the clause (`rule`) it breaks.", "ApplyRequest", "ApplyResponse",
        "The new state, what happened, and the outcome (and, with `for_player`, that seat's "
        "`view` and `events_for_player`).", (422, *STATE_ERRORS)))
    spec.path("/v1/games/{game}/check", operations=_post(
        "Check an action without applying it", "200 whether legal or not; a malformed action → 400.",
        "CheckRequest", "CheckResponse", "Whether the action is legal; if not, the clause and why.",
        STATE_ERRORS))
    spec.path("/v1/games/{game}/score", operations=_post(
        "Score a state", "Scores with their breakdown, whether the game is over, the winners.",
        "ScoreRequest", "Outcome", "The outcome.", STATE_ERRORS))
    spec.path("/v1/games/{game}/view", operations=_post(
        "The state as one player may see it", "Other players' hidden cards become counts or "
        "opaque ids; the random state is removed. `player: null` is a spectator.",
        "ViewRequest", "ViewResponse", "The player's view.", STATE_ERRORS))
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


#: the response header every answer carries (``service.operations``)
REQUEST_ID_HEADER = {
    "description": "The request's id: the client's own `X-Request-Id` when it sent a sane one "
                   "(1–128 of `A-Z a-z 0-9 . _ : -`), else a new one (32 hex digits). "
                   "Log lines of the request carry it too.",
    "schema": {"type": "string", "pattern": r"^[A-Za-z0-9._:\-]{1,128}$"}}


def with_request_id(doc: dict) -> dict:
    """Document ``X-Request-Id`` on every response of every operation (in place).

    Responses given by ``$ref`` get it in their component.
    """
    ref = {"$ref": "#/components/headers/X-Request-Id"}
    components = doc.setdefault("components", {})
    components.setdefault("headers", {})["X-Request-Id"] = REQUEST_ID_HEADER
    responses = list(components.get("responses", {}).values())
    for operations in doc.get("paths", {}).values():
        for method, operation in operations.items():
            if isinstance(operation, dict) and "responses" in operation:
                responses += [r for r in operation["responses"].values() if "$ref" not in r]
    for response in responses:
        response.setdefault("headers", {})["X-Request-Id"] = ref
    return doc


def spec_dict(app=None) -> dict:
    modules = app.extensions["referee"]["modules"] if app is not None else None
    return with_request_id(build_spec(modules).to_dict())


class _Dumper(yaml.SafeDumper):
    """Plain YAML: no anchors and aliases for repeated sub-schemas."""

    def ignore_aliases(self, data):
        return True


def spec_yaml(app=None) -> str:
    """The document as the committed ``openapi.yaml`` text."""
    return yaml.dump(spec_dict(app), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def main() -> None:
    sys.stdout.write(spec_yaml())


if __name__ == "__main__":
    main()
