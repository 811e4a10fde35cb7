"""HTTP-layer fixtures: a tiny fake game, and a client that checks the contract.

``pebbles`` is a two-to-four-player game small enough to read at a glance,
registered in place of the real games so the generic HTTP layer is tested on
its own: a heap of pebble cards; on your turn you take one or two of them
(PEB-1) into your hidden hand; whoever takes the last pebble wins (PEB-2).
Acting out of turn breaks PEB-3, acting after the end PEB-4; an empty
player name is an invalid setup (PEB-5).

``api`` wraps the Flask test client: every response it returns has been
checked against ``openapi.yaml`` as generated for the running app — the
status is documented for that path and method, the content type is
documented, and the body validates against the documented JSON Schema.
"""

from __future__ import annotations

import re
import types
from typing import Any

import jsonschema_rs
import orjson
import pytest
from jsonschema import Draft202012Validator
from marshmallow import Schema, fields, validate
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

import card_db
from service.games import registry, shape
from service.games.base import Action, Game, conservation_errors
from service.games.chance import draw_below
from service.games.errors import InvalidSetup, RuleViolation
from tests import document

PEBBLES_CARDS = """\
meta: {title: Pebbles test set, reconstructed: false}
pebbles:
  - {id: P1, color: red, weight: 1, polished: true, name: {en: Ruby, ru: Рубин}}
  - {id: P2, color: red, weight: 2, polished: false, name: {en: Garnet, ru: Гранат}}
  - {id: P3, color: blue, weight: 3, polished: true, name: {en: Sapphire, ru: Сапфир}}
  - {id: P4, color: blue, weight: 1, polished: false, name: {en: Lapis, ru: Лазурит}}
  - {id: P5, color: green, weight: 2, polished: true, name: {en: Emerald, ru: Изумруд}}
  - {id: P6, color: green, weight: 3, polished: false, name: {en: Jade, ru: Нефрит}}
bonuses: {red: 1, blue: 2}
"""


class _Name(Schema):
    en = fields.String(required=True)
    ru = fields.String(required=True)


class _Pebble(Schema):
    id = fields.String(required=True)
    color = fields.String(required=True, validate=validate.OneOf(["red", "blue", "green"]))
    weight = fields.Integer(required=True, strict=True)
    polished = fields.Boolean(required=True)
    name = fields.Nested(_Name, required=True)


class _Meta(Schema):
    title = fields.String(required=True)
    reconstructed = fields.Boolean(required=True)


class PebblesCardSetSchema(Schema):
    meta = fields.Nested(_Meta, required=True)
    pebbles = fields.List(fields.Nested(_Pebble), required=True)
    bonuses = fields.Dict(keys=fields.String(), values=fields.Integer())


def _take_candidates(state, entry):
    heap, player = state["heap"], entry["player"]
    for i, a in enumerate(heap):
        yield {"type": "take", "player": player, "cards": [a]}
        for b in heap[i + 1:]:
            yield {"type": "take", "player": player, "cards": [a, b]}


def _check_take(state, action):
    cards = action["cards"]
    if not 1 <= len(cards) <= 2 or len(set(cards)) != len(cards):
        raise RuleViolation("PEB-1", "take one or two different pebbles")
    missing = [c for c in cards if c not in state["heap"]]
    if missing:
        raise RuleViolation("PEB-1", f"{missing[0]} is not in the heap")


def _take(draft, action, events):
    seat = action["player"]
    heap = draft.at("heap")
    for card in action["cards"]:
        heap.remove(card)
    draft.at("players", seat, "hand").extend(action["cards"])
    events.append({"type": "took", "player": seat, "count": len(action["cards"])})
    root = draft.root
    root["turn"] += 1
    if not heap:
        root["result"] = {"finished": True, "winners": [seat], "reason": "took the last pebble"}
        events.append({"type": "won", "player": seat})
    else:
        root["current"] = (seat + 1) % len(root["players"])


class Pebbles(Game):
    """The fake game (clause ids PEB-n are its own)."""

    id = "pebbles"
    title = {"en": "Pebbles", "ru": "Камешки"}
    rules_version = "pebbles-1"
    min_players, max_players = 2, 4
    actions = {"take": Action("Take one or two pebbles from the heap (PEB-1).",
                              {"cards": shape.ListOf(shape.Str(max_length=8), max_items=2)},
                              resolve=_take, enforce=_check_take, candidates=_take_candidates)}
    decisions = {"take": ("take",)}
    event_types = {"took": "A player took pebbles.", "won": "Someone took the last pebble."}
    state_fields = {
        "players": shape.ListOf(shape.Obj({"name": shape.Str(), "hand": shape.ListOf(shape.Str())}),
                                max_items=4),
        "heap": shape.ListOf(shape.Str()),
        "current": shape.Int(minimum=0, maximum=3),
    }
    not_your_turn_rule, game_over_rule = "PEB-3", "PEB-4"
    card_schema = PebblesCardSetSchema

    def setup(self, players, setups, options, cards, events):
        unnamed = [i for i, s in enumerate(setups) if s.get("name") == ""]
        if unnamed:
            raise InvalidSetup([{"rule": "PEB-5", "reason": "a player's name may not be empty",
                                 "player": i} for i in unnamed])
        rng = {"seed": 0, "counter": 0}
        return {"players": [{"name": s.get("name", f"P{i}"), "hand": []} for i, s in enumerate(setups)],
                "heap": sorted(cards.cards), "current": draw_below(rng, players), "phase": "play"}

    def compute_pending(self, state):
        return [{"player": state["current"], "decision": "take"}]

    def constraints(self, state, player):
        return {"take": {"min": 1, "max": 2, "from": "heap"}}

    def chance_outcomes(self, state):
        return []

    def compute_score(self, state):
        weights = {c["id"]: c["weight"] for c in self.card_set(state).data["pebbles"]}
        scores = [{"player": i, "total": sum(weights[c] for c in p["hand"]),
                   "breakdown": {"pebbles": len(p["hand"])}} for i, p in enumerate(state["players"])]
        result = state["result"]
        return {"finished": result is not None, "winners": result["winners"] if result else [],
                "scores": scores}

    def hide(self, state, player):
        seen = dict(state)
        seen["players"] = [p if i == player else {"name": p["name"], "hand_count": len(p["hand"])}
                           for i, p in enumerate(state["players"])]
        return seen

    def check_invariants(self, state, cards):
        zones = {"state.heap": state["heap"]}
        zones.update({f"state.players.{i}.hand": p["hand"] for i, p in enumerate(state["players"])})
        return conservation_errors(zones, list(cards.cards))

    def secret_cards(self, state, player):
        return {c for i, p in enumerate(state["players"]) if i != player for c in p["hand"]}


@pytest.fixture
def pebbles_env(monkeypatch, tmp_path):
    """Registry = {pebbles}; its card set in a temporary ``CARD_DB_PATH``."""
    (tmp_path / "pebbles").mkdir()
    (tmp_path / "pebbles" / "reference.yaml").write_text(PEBBLES_CARDS, encoding="utf-8")
    monkeypatch.setenv("CARD_DB_PATH", str(tmp_path))
    monkeypatch.setattr(registry, "_sources", {})
    monkeypatch.setattr(registry, "_games", {})
    monkeypatch.setattr(registry, "GAME_IDS", ())
    registry.register("pebbles", Pebbles())
    card_db.clear_cache()
    yield tmp_path
    card_db.clear_cache()


@pytest.fixture
def make_app(pebbles_env):
    """``make_app(**config)``: an app over the pebbles registry."""
    from service.app import create_app

    def make(**config):
        return create_app({"TESTING": True, **config})
    return make


@pytest.fixture
def app(make_app):
    return make_app()


_specs: dict[tuple[Any, ...], dict[Any, Any]] = {}


def spec_for(app) -> dict[Any, Any]:
    """The app's OpenAPI document (parsed from ``/openapi.yaml``), cached per registry."""
    key = (registry.GAME_IDS, tuple(m.__name__ for m in app.extensions["referee"]["modules"]))
    if key not in _specs:
        text = app.test_client().get("/openapi.yaml").get_data(as_text=True)
        _specs[key] = document.load(text)
    return _specs[key]


def path_template(spec: dict[Any, Any], path: str) -> str | None:
    """The spec path that ``path`` instantiates (``/v1/games/x/new`` → ``/v1/games/{game}/new``)."""
    exact = [p for p in spec["paths"] if "{" not in p and p == path]
    if exact:
        return exact[0]
    for template in spec["paths"]:
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path):
            return template
    return None


class ContractViolation(AssertionError):
    pass


def check_against_spec(spec: dict[Any, Any], method: str, path: str, response) -> None:
    """Fail unless ``response`` is documented for ``method path`` and its body validates."""
    template = path_template(spec, path.split("?")[0])
    status = str(response.status_code)
    if template is None:
        # an undocumented path must be a documented-style 404 problem
        assert status == "404" and response.mimetype == "application/problem+json", (path, status)
        responses = spec["components"]["responses"]
        doc = responses["404"]
    else:
        operation = spec["paths"][template].get(method.lower())
        if operation is None:
            # a method the path does not take: 405, documented on the path's operations
            assert status == "405", (method, path, status)
            operation = next(iter(spec["paths"][template].values()))
        doc = operation["responses"].get(status)
        if doc is None:
            raise ContractViolation(f"{method} {template} → {status} is not documented")
        if "$ref" in doc:
            doc = spec["components"]["responses"][doc["$ref"].rsplit("/", 1)[1]]
    content = doc.get("content", {})
    mimetype = response.mimetype
    if mimetype not in content:
        raise ContractViolation(f"{method} {path} → {status} {mimetype} not in {sorted(content)}")
    if mimetype.endswith("json"):
        schema = content[mimetype]["schema"]
        body = orjson.loads(response.get_data())
        if mimetype == "application/problem+json":  # ``type`` is open; the suite holds it to the table
            known = spec["components"]["schemas"]["ProblemType"]["enum"]
            if body.get("type") not in known:
                raise ContractViolation(f"{method} {path} → {status}: problem type "
                                        f"{body.get('type')!r} is not in the table")
        if _fast_validator(spec, schema)(body):
            return
        errors = sorted(_validator(spec, schema).iter_errors(body), key=str)
        if errors:
            raise ContractViolation(f"{method} {path} → {status}: body does not match the spec: "
                                    + "; ".join(f"{list(e.absolute_path)}: {e.message[:300]}"
                                                for e in errors[:5]))


#: (spec id, schema id) → (the spec, kept so that neither id is reused; is_valid)
_fast: dict[tuple[int, int], tuple[dict[Any, Any], object]] = {}


def _fast_validator(spec: dict[Any, Any], schema: dict[Any, Any]):
    """``is_valid`` of ``schema`` (compiled by jsonschema-rs, once per spec and schema): the
    quick yes; a no is explained by ``_validator``'s errors."""
    key = (id(spec), id(schema))  # a schema is a part of its spec
    if key not in _fast:
        root = {**schema, "components": spec["components"]} if "$ref" not in schema else \
            {"$ref": schema["$ref"], "components": spec["components"]}
        _fast[key] = spec, jsonschema_rs.Draft202012Validator(root).is_valid
    return _fast[key][1]


def _validator(spec: dict[Any, Any], schema: dict[Any, Any]) -> Draft202012Validator:
    resource = Resource.from_contents(spec, default_specification=DRAFT202012)
    reg = Registry().with_resource("urn:openapi", resource)
    if "$ref" in schema:
        schema = {"$ref": "urn:openapi" + schema["$ref"]}
    return Draft202012Validator(schema, registry=reg)


class Api:
    """The Flask test client, checking every response against the spec."""

    def __init__(self, app):
        self.app = app
        self.client = app.test_client()
        self.spec = spec_for(app)

    def open(self, method: str, path: str, **kwargs):
        response = self.client.open(path, method=method, **kwargs)
        check_against_spec(self.spec, method, path, response)
        return response

    def get(self, path, **kwargs):
        return self.open("GET", path, **kwargs)

    def post(self, path, **kwargs):
        return self.open("POST", path, **kwargs)


@pytest.fixture
def api(app):
    return Api(app)


@pytest.fixture
def make_api(make_app):
    """``make_api(**config)``: an ``Api`` over an app with that configuration."""
    return lambda **config: Api(make_app(**config))


@pytest.fixture
def contract():
    """The contract checker itself (``check``, ``Violation``), to test that it bites."""
    return types.SimpleNamespace(check=check_against_spec, Violation=ContractViolation)


@pytest.fixture
def real_api():
    """An ``Api`` over the real registry (Raiders and whatever else is registered)."""
    from service.app import create_app

    card_db.clear_cache()
    return Api(create_app({"TESTING": True}))
