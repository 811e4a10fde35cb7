"""Every request body is checked by its one declaration (``schemas.envelopes``), the
same one the document shows: ``apply-chance`` and ``transcripts/verify`` (formerly
marshmallow schemas of their own) and the evaluations (formerly checked by hand).
A client who sends what the document forbids gets a 400 naming the field, in its
language, and nothing is applied; one who sends what it allows is never refused
for its shape.
"""

from __future__ import annotations

import pytest

from schemas import envelopes
from service import limits
from service.games.objects import JsonObject

RU = {"Accept-Language": "ru"}


@pytest.fixture
def state(api):
    return api.post("/v1/games/pebbles/new", json={"players": 2, "seed": 1}).json["state"]


def _errors(r, status: int = 400) -> dict[str, list[str]]:
    assert r.status_code == status, r.get_data(as_text=True)[:300]
    assert r.json["type"] == "/problems/malformed-request"
    errors: dict[str, list[str]] = r.json["errors"]
    return errors


@pytest.mark.parametrize("name", ["ChanceBatchRequest", "VerifyTranscriptRequest"])
def test_the_document_shows_the_declaration_that_checks(api, name):
    assert api.spec["components"]["schemas"][name] == envelopes.REQUESTS[name].schema()


def test_apply_chance_names_each_field_it_refuses(api, state):
    path = "/v1/games/pebbles/apply-chance"
    assert _errors(api.post(path, json={"state": state, "outcomes": []})) == {
        "outcomes": ["has fewer than 1 items"]}
    too_many = [{"type": "x", "player": "chance"}] * (limits.MAX_OUTCOMES + 1)
    assert list(_errors(api.post(path, json={"state": state, "outcomes": too_many}))) == [
        "outcomes"]
    assert _errors(api.post(path, json={"state": 3, "outcomes": [{}], "extra": 1})) == {
        "state": ["must be an object"], "extra": ["unknown field"]}
    assert _errors(api.post(path, json={"outcomes": [5]})) == {
        "state": ["missing required field"], "outcomes.0": ["must be an object"]}


def test_apply_chance_refusals_come_in_russian(api, state):
    r = api.post("/v1/games/pebbles/apply-chance", json={"state": state, "outcomes": [],
                                                         "extra": 1}, headers=RU)
    errors = _errors(r)
    assert set(errors) == {"outcomes", "extra"}
    assert errors["extra"] != ["unknown field"] and errors["outcomes"][0].isascii() is False


def test_verify_names_each_field_it_refuses(api):
    path = "/v1/transcripts/verify"
    assert _errors(api.post(path, json={"states": {}})) == {"states": ["must be a list"]}
    assert _errors(api.post(path, json={"states": [1], "games": []})) == {
        "states.0": ["must be an object"], "games": ["unknown field"]}
    over: list[JsonObject] = [{}] * (limits.MAX_STATES + 1)
    assert list(_errors(api.post(path, json={"states": over}))) == ["states"]


def test_an_evaluation_is_checked_by_its_kinds_one_declaration(api):
    """An unknown field and a bad ``params`` at once, each named; in Russian on request."""
    from service.evaluations import kinds

    request = {"game": "pebbles", "kind": "playouts", "iterations": 3, "params": 5}
    errors = _errors(api.post("/v1/evaluations", json=request))
    assert errors == {"iterations": ["unknown field"], "params": ["must be an object"]}
    ru = _errors(api.post("/v1/evaluations", json=request, headers=RU))
    assert set(ru) == set(errors) and ru["params"] != errors["params"]
    kind = kinds.get_kind("playouts")
    assert kind.request_spec() is kind.request_spec()  # built once per kind
