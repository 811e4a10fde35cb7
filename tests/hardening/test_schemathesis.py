"""schemathesis over every operation of ``openapi.yaml``, in process (WSGI, no network).

For each operation schemathesis generates requests from the documented
schemas (valid and invalid ones) and checks every answer: never a server
error, a documented status code, a documented content type, a body that
validates against the documented schema, the documented headers.  Bounded:
``MAX_EXAMPLES`` per operation (the whole file runs in well under a minute).

The app runs with every optional feature on (signing keys, API keys, rate
limits, CORS) so their answers are checked against the spec too; the rate
limit is high enough that schemathesis never meets it.
"""

from __future__ import annotations

import pathlib
from collections import Counter

import pytest
import schemathesis
from schemathesis import checks
from schemathesis.config import SchemathesisConfig
from hypothesis import HealthCheck, settings

MAX_EXAMPLES = 12
#: schemathesis's boundary-value phase (thousands of requests): on by default
COVERAGE_PHASE = True
SPEC = pathlib.Path(__file__).resolve().parents[2] / "openapi.yaml"


def _app():
    from service.app import create_app

    return create_app({"TESTING": True, "STATE_KEYS": "schemathesis-key",
                       "API_KEYS": "schemathesis-api-key", "RATE_LIMIT": "100000/minute",
                       "CORS_ORIGINS": "*", "ACCESS_LOG": False})


APP = _app()
#: a rejection is any documented 4xx (413: a generated body over the size limit)
CONFIG = SchemathesisConfig.from_dict({
    "checks": {"negative_data_rejection": {"expected-statuses": [
        400, 401, 403, 404, 405, 409, 410, 413, 415, 422, 429]}},
    "phases": {"coverage": {"enabled": COVERAGE_PHASE}}})
schema = schemathesis.openapi.from_path(str(SPEC), config=CONFIG)


#: ``positive_data_acceptance`` is left out: the spec cannot express the
#: semantic checks (a state's invariants, a card field of *this* game), so a
#: schema-valid request may rightly be a 400.  Its opposite,
#: ``negative_data_rejection`` (schema-invalid → 4xx), is kept.
EXCLUDED = [checks.positive_data_acceptance]
#: requests sent, by operation (printed at the end with ``-s``)
SENT: Counter = Counter()


@pytest.fixture(scope="module", autouse=True)
def _report():
    yield
    print(f"\nschemathesis: {sum(SENT.values())} requests over {len(SENT)} operations")


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_conforms(case):
    SENT[case.operation.label] += 1
    case.call_and_validate(app=APP, headers={"X-API-Key": "schemathesis-api-key"},
                           excluded_checks=EXCLUDED)
