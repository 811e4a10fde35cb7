"""schemathesis hooks for a run from outside (``schemathesis.toml`` beside it loads them).

``schemathesis run http://HOST:PORT/openapi.yaml --checks all`` from the repo
root reads ``schemathesis.toml``, which loads this module: it replaces the
built-in ``positive_data_acceptance`` ("a schema-valid request is accepted")
by the same check with the one exception the document cannot express, as the
in-process test (``tests/hardening/test_schemathesis.py``) does: a game's
*semantics*.  A state that fits its schema may still break an invariant (a
card in two places), an action that fits may break a rule (422
``illegal-action``, by design: the answer cites the clause), a deck may break
KOZ-1…KOZ-6.  Such a refusal, with exactly one of ``SEMANTIC_REFUSALS``'
problem types on an operation that takes a state, an action or a setup, is
not a failure; on a generic ``/v1/games/{game}/…`` operation neither is the
refusal of a body that fits only another game (no OpenAPI construct ties a
body to a path parameter).  Anything else (a ``malformed-request``, an
``invalid-options``…) still fails: the document would not be precise enough.

It imports only what ``pip install schemathesis`` brings: the typed schemas are
checked with ``jsonschema_rs`` (a dependency of schemathesis itself), never
``jsonschema`` (``tests/hardening/test_schemathesis_hooks.py`` loads it without).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import jsonschema_rs
import schemathesis
from schemathesis import checks
from schemathesis.checks import CHECKS

#: problem type → why a schema-valid request may still be refused with it
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
#: ...answered by these operations (paths end so)
SEMANTIC_PATHS = ("/legal-actions", "/apply", "/check", "/score", "/view", "/replay", "/new",
                  "/suggest",
                  "/v1/evaluations", "/v1/tournaments/standings", "/v1/tournaments/events",
                  "/v1/transcripts/verify")

#: a request case of any operation (its type parameters are schemathesis's own)
Case = schemathesis.Case[Any]

_builtin_positive_data_acceptance: schemathesis.CheckFunction = checks.positive_data_acceptance
_builtin_negative_data_rejection: schemathesis.CheckFunction = checks.negative_data_rejection


def problem_type(response: schemathesis.Response) -> str:
    try:
        return str(response.json().get("type", "")).rsplit("/", 1)[-1]
    except Exception:
        return ""


def _camel(name: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in name.replace("-", "_").split("_") if p)


_DOCS: dict[int, dict[str, Any]] = {}  # id → the document (lru_cache keys on the id, not the dict)


@lru_cache(maxsize=256)
def _validator(doc_id: int, name: str) -> jsonschema_rs.Validator:
    """A compiled validator of ``#/components/schemas/<name>`` (its ``$ref``s resolved
    inside the document: the components ride along as an unknown keyword)."""
    doc = _DOCS[doc_id]
    return jsonschema_rs.validator_for({"$schema": "https://json-schema.org/draft/2020-12/schema",
                                        "$ref": f"#/components/schemas/{name}",
                                        "components": doc["components"]})


def fits_typed_schema(doc: dict[str, Any], name: str, body: object) -> bool:
    """``body`` is valid against ``doc``'s component schema ``name`` (JSON Schema 2020-12)."""
    _DOCS.setdefault(id(doc), doc)
    valid: bool = _validator(id(doc), name).is_valid(body)
    return valid


def fits_the_paths_game(case: Case) -> bool:
    """The body fits the typed request of the ``{game}`` in the path (``<Game><Verb>Request``)."""
    doc = case.operation.schema.raw_schema
    game = (case.path_parameters or {}).get("game")
    media = case.operation.definition.raw["requestBody"]["content"]["application/json"]
    schema = media["schema"]
    for ref in [schema] if "$ref" in schema else schema["oneOf"]:  # a state or a view form
        typed = _camel(str(game)) + ref["$ref"].rsplit("/", 1)[1]
        if typed in doc["components"]["schemas"] and fits_typed_schema(doc, typed, case.body):
            return True
    return False


def tolerated(response: schemathesis.Response, case: Case) -> bool:
    """A refusal of a schema-valid request that is the game's semantics, not the document's."""
    if problem_type(response) in SEMANTIC_REFUSALS and case.path.endswith(SEMANTIC_PATHS):
        return True
    return "{game}" in case.path and case.method.upper() == "POST" \
        and not fits_the_paths_game(case)


CHECKS.unregister("positive_data_acceptance")  # replaced (by name) with the one below


@schemathesis.check
def positive_data_acceptance(ctx: schemathesis.CheckContext, response: schemathesis.Response,
                             case: Case) -> bool | None:
    """The built-in check of that name, but for the refusals ``tolerated`` names."""
    try:
        return _builtin_positive_data_acceptance(ctx, response, case)
    except AssertionError:
        if tolerated(response, case):
            return None
        raise


CHECKS.unregister("negative_data_rejection")  # replaced (by name) with the one below


@schemathesis.check
def negative_data_rejection(ctx: schemathesis.CheckContext, response: schemathesis.Response,
                            case: Case) -> bool | None:
    """The built-in check of that name, but a batch: a body breaking an item's schema (or
    the shared ``state``/``view`` its items take) answers 200 with that item refused as
    its route refuses it alone (``docs/batch.md``), so the refusal is in the items."""
    try:
        return _builtin_negative_data_rejection(ctx, response, case)
    except AssertionError:
        if case.path.endswith("/batch") and response.status_code == 200:
            items = response.json().get("items", [])
            if any(400 <= item["status"] < 500 for item in items):
                return None
        raise
