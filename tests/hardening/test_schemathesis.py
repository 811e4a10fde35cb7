"""schemathesis over every operation of ``openapi.yaml``, in process (WSGI, no network).

For each operation schemathesis generates requests from the documented
schemas (valid and invalid ones) and checks every answer: never a server
error, a documented status code, a documented content type, a body that
validates against the documented schema, the documented headers, and a
schema-valid request accepted (``positive_data_acceptance``; the only refusals
tolerated are named below, each with its reason).  ``Workflow`` runs the
stateful phase over the document's links.  Bounded: ``MAX_EXAMPLES`` per
operation plus the coverage phase (about 40,000 requests over 60 operations at full
size).  ``REFEREE_TEST_SIZE`` (tests/size.py) sizes it: ``full`` (CI) runs 12
examples per operation and every coverage case; ``quick`` (``make test``'s default)
a quarter of the examples and every fourth coverage case, the first kept.

The app runs with every optional feature on (signing keys, API keys, rate
limits, CORS) so their answers are checked against the spec too; the rate
limit is high enough that schemathesis never meets it.
"""

from __future__ import annotations

import functools
import pathlib
from collections import Counter
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012
from schemathesis import checks
from schemathesis.config import SchemathesisConfig
from schemathesis.generation.hypothesis import builder as hypothesis_builder

from tests import document
from tests.size import FRACTION, sized

#: hypothesis examples per operation (besides the coverage phase's): 12 at full size
MAX_EXAMPLES = sized(12, least=3)
#: every how many coverage-phase cases one is sent: all at full size
COVERAGE_STRIDE = round(1 / FRACTION)
#: schemathesis's boundary-value phase (thousands of requests): on by default
COVERAGE_PHASE = True
SPEC = pathlib.Path(__file__).resolve().parents[2] / "openapi.yaml"


def _app():
    from service.app import create_app

    return create_app({"TESTING": True, "STATE_KEYS": "schemathesis-key",
                       "API_KEYS": "schemathesis-api-key", "RATE_LIMIT": "100000/minute",
                       "CORS_ORIGINS": "*", "ACCESS_LOG": False})


#: coverage-phase cases sent, by operation: each test builds its own when it first runs
COVERAGE_BUILT: Counter = Counter()


class _DeferredExamples(list):
    """A test's explicit examples — the schema's own examples and the coverage phase's
    cases — built when hypothesis first reads them (the test runs) instead of when
    pytest collects the test: under pytest-xdist every worker collects every test, and
    building every operation's examples and coverage cases (about a minute) in each
    worker would be repeated work.  The cases and their order are the same."""

    def __init__(self, examples, operation: str):
        super().__init__(examples)
        self._operation = operation
        self._builds: list[Any] = []

    def defer(self, build, coverage: bool) -> None:
        self._builds.append((build, coverage))

    def _complete(self) -> None:
        builds, self._builds = self._builds, []
        for build, coverage in builds:
            before = super().__len__()
            build()  # hypothesis.example(...)(test) appends to this list
            if coverage:
                added = self[before:]
                del self[before:]
                self.extend(added[::COVERAGE_STRIDE])
                COVERAGE_BUILT[self._operation] += super().__len__() - before

    def __len__(self) -> int:
        self._complete()
        return super().__len__()

    def __iter__(self):
        self._complete()
        return super().__iter__()

    def __reversed__(self):
        self._complete()
        return super().__reversed__()


def _deferred(test, operation) -> _DeferredExamples:
    examples = getattr(test, "hypothesis_explicit_examples", ())
    if not isinstance(examples, _DeferredExamples):
        examples = test.hypothesis_explicit_examples = _DeferredExamples(examples, operation.label)
    return examples


_add_examples_now = hypothesis_builder.add_examples
_add_coverage_now = hypothesis_builder.add_coverage


def _add_examples_when_run(test, operation, *args, **kwargs):
    _deferred(test, operation).defer(
        lambda: _add_examples_now(test, operation, *args, **kwargs), coverage=False)
    return test


def _add_coverage_when_run(test, operation, *args, **kwargs):
    _deferred(test, operation).defer(
        lambda: _add_coverage_now(test, operation, *args, **kwargs), coverage=True)
    return test


hypothesis_builder.add_examples = _add_examples_when_run
hypothesis_builder.add_coverage = _add_coverage_when_run
APP = _app()
#: a rejection is any documented 4xx (413: a generated body over the size limit)
CONFIG = SchemathesisConfig.from_dict({
    "checks": {"negative_data_rejection": {"expected-statuses": [
        400, 401, 403, 404, 405, 409, 410, 413, 415, 422, 429]}},
    "phases": {"coverage": {"enabled": COVERAGE_PHASE}}})
schema = schemathesis.openapi.from_path(str(SPEC), config=CONFIG)


#: Every check runs, ``positive_data_acceptance`` included (a schema-valid request
#: must be accepted).  The one thing the document cannot say is a game's semantics:
#: a state that matches its schema may still break an invariant (a card in two
#: places) or be written for another rules version or card set, an action that
#: matches its schema may break a rule, a deck may break KOZ-1…KOZ-6.  So a
#: schema-valid request refused with exactly one of these problem types is accepted
#: here, and only on the operations that take a state, an action or a deck:
#: anything else (a `malformed-request`, an `invalid-options`…) means the document
#: is not precise enough, and fails.
SEMANTIC_REFUSALS = {
    "invalid-state": "a schema-valid state that breaks an invariant (conservation, phase)",
    "incompatible-state": "a state for another card set or rules version (hash, version)",
    "rules-changed": "a state or replay of an older rules version not carried over (its clauses "
                     "named): a schema cannot say which states are inside a changed clause",
    "unsigned-state": "`Referee-Require-Signed: true` with a state that carries no signature, "
                      "or any state to `/v1/transcripts/verify` (it takes signed ones only)",
    "illegal-action": "a schema-valid action that breaks a rule (the clause is cited)",
    "invalid-setup": "a setup (e.g. a Kozyablo deck) that breaks a deck-building rule",
    "no-such-seat": "a seat the game does not have (`player: 3` at a table of three): only "
                    "the state knows its number of seats",
    "invalid-name": "a player's name that is invisible, blank-edged or another player's in "
                    "another spelling (service/names.py): Unicode categories no pattern names",
    "invalid-tournament": "rounds that cannot have happened (a name not among the players, "
                          "twice in a round) or a game not finished: no schema ties them",
    "idempotency-key-reused": "an `Idempotency-Key` already used with another body: only the "
                              "service knows which keys were used",
}
#: ...answered by these operations (paths end so); the generic ``{game}`` ones also
#: refuse a state of another game than the path's (`incompatible-state`)
SEMANTIC_PATHS = ("/legal-actions", "/apply", "/check", "/score", "/view", "/replay", "/new",
                  "/suggest",
                  "/v1/evaluations", "/v1/tournaments/standings", "/v1/tournaments/events",
                  "/v1/transcripts/verify")
#: JSON Schema's ``integer`` admits ``1.0`` (the same number as ``1``), and
#: schemathesis sends such values; the service reads them as the integer (issue 23:
#: ``shape.integral`` for the envelopes and shapes, ``resolve_options`` for a game's
#: options, whatever a game's typed options schema leaves open).  So the bodies are sent
#: as generated (``NORMALISE_INTEGRAL_FLOATS = False``); ``True`` would make ``1.0`` a ``1``
#: before sending, hiding a refusal of it.
NORMALISE_INTEGRAL_FLOATS = False


def _integral_floats_as_ints(value):
    if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 63:
        return int(value)
    if isinstance(value, list):
        return [_integral_floats_as_ints(v) for v in value]
    if isinstance(value, dict):
        return {k: _integral_floats_as_ints(v) for k, v in value.items()}
    return value


@schema.hook
def map_case(ctx, case):
    if NORMALISE_INTEGRAL_FLOATS and isinstance(case.body, (dict, list, float)):
        case.body = _integral_floats_as_ints(case.body)
    return case


#: requests sent, by operation (printed at the end with ``-s``)
SENT: Counter = Counter()
ACCEPTED_REFUSALS: Counter = Counter()


def _problem_type(response) -> str:
    try:
        return str(response.json().get("type", "")).rsplit("/", 1)[-1]
    except Exception:
        return ""


#: The generic ``/v1/games/{game}/<verb>`` operations cannot tie their body to the
#: ``{game}`` of the path (no OpenAPI construct does): a body only another game
#: takes (its state, 6 players, its options) is schema-valid there and refused.
#: Such a refusal is accepted when the body does not fit the typed schema of the
#: path's game (``<Game><Verb>Request``, what the typed operation documents);
#: a body that does fit must be accepted as on the typed path.
@functools.cache
def _document() -> tuple[dict[Any, Any], Registry]:
    """The document and a registry of it, read when a refusal first needs them, not when
    a worker collects (0.7 s; the worker of the waiting modules never needs them)."""
    doc = document.load()
    return doc, Registry().with_resource("urn:openapi", Resource.from_contents(
        doc, default_specification=DRAFT202012))


def _fits_the_paths_game(case) -> bool:
    from service.openapi import camel

    game = (case.path_parameters or {}).get("game")
    media = case.operation.definition.raw["requestBody"]["content"]["application/json"]
    schema = media["schema"]
    for ref in [schema] if "$ref" in schema else schema["oneOf"]:  # a state or a view form
        typed = f"{camel(str(game))}{ref['$ref'].rsplit('/', 1)[1]}"
        doc, registry = _document()
        if typed in doc["components"]["schemas"] and Draft202012Validator(
                {"$ref": f"urn:openapi#/components/schemas/{typed}"},
                registry=registry).is_valid(case.body):
            return True
    return False


@schemathesis.check
def positive_data_acceptance_but_semantics(ctx, response, case):
    """``positive_data_acceptance``, except a refusal in ``SEMANTIC_REFUSALS``, and on a
    generic ``{game}`` operation a body that does not fit the path's game."""
    try:
        return checks.positive_data_acceptance(ctx, response, case)
    except AssertionError:
        slug = _problem_type(response)
        if slug in SEMANTIC_REFUSALS and case.path.endswith(SEMANTIC_PATHS):
            ACCEPTED_REFUSALS[slug] += 1
            return None
        if "{game}" in case.path and case.method.upper() == "POST" \
                and not _fits_the_paths_game(case):
            ACCEPTED_REFUSALS["generic path, another game's body"] += 1
            return None
        raise


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    print(f"\nschemathesis: {sum(SENT.values())} requests over {len(SENT)} operations "
          f"({sum(COVERAGE_BUILT.values())} from the coverage phase); "
          f"semantic refusals of schema-valid requests: {dict(ACCEPTED_REFUSALS)}")
    # every operation tested here ran its coverage phase (built when it first ran)
    assert not COVERAGE_PHASE or set(SENT) <= set(COVERAGE_BUILT), set(SENT) - set(COVERAGE_BUILT)


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_conforms(case):
    SENT[case.operation.label] += 1
    case.call_and_validate(app=APP, headers={"X-API-Key": "schemathesis-api-key"},
                           excluded_checks=[checks.positive_data_acceptance],
                           additional_checks=[positive_data_acceptance_but_semantics])


def test_semantic_refusals_are_real_problem_types():
    """The refusals tolerated above are documented problem types (no typo hides a failure)."""
    from service.problem_types import PROBLEM_TYPES

    assert set(SEMANTIC_REFUSALS) <= set(PROBLEM_TYPES)


class Workflow(schema.as_state_machine()):
    """schemathesis's stateful phase: sequences that follow the document's ``links``
    (a state a typed operation answers goes on to score, view, legal-actions, check,
    apply) and the links it infers (an evaluation's ``Location``).  Every check runs,
    ``use_after_free`` included: ``DELETE /v1/evaluations/{id}`` removes the evaluation,
    and a later ``GET`` is 404."""

    def get_call_kwargs(self, case):
        return {"app": APP, "headers": {"X-API-Key": "schemathesis-api-key"}}

    def validate_response(self, response, case, additional_checks=None, **kwargs):
        case.validate_response(response, excluded_checks=[checks.positive_data_acceptance],
                               additional_checks=[positive_data_acceptance_but_semantics],
                               recorder=self.recorder)


TestWorkflow = Workflow.TestCase
TestWorkflow.settings = settings(max_examples=max(1, MAX_EXAMPLES * 2 // 3), stateful_step_count=6,
                                 deadline=None, suppress_health_check=list(HealthCheck))
