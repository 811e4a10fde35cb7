"""The compiled shape specs of the request envelopes agree with their marshmallow schemas.

``service.http.body.load_envelope`` trusts ``schemas.envelopes.ENVELOPE_SHAPES``
when it accepts an envelope and skips marshmallow; so on a fuzzed corpus
(valid envelopes, then fields dropped, added, and replaced by values picked
to sit on every boundary) both must accept and refuse the same envelopes,
and an accepted one must load to the very same dict.
"""

from __future__ import annotations

import random

import pytest
from marshmallow import ValidationError

from schemas import envelopes
from service.games import shape
from service.games.errors import MalformedInput
from service.http.body import fast_loader, load_envelope

STATE = {"players": [{"hand": []}], "turn": 1}
ACTION = {"type": "pass", "player": 0}
VALID = {
    envelopes.NewRequest: [{"players": 2}, {"players": [{"name": "A"}, {}], "options": {"x": 1},
                                            "seed": 7, "card_set": "reference"}],
    envelopes.LegalActionsRequest: [{"state": STATE}, {"state": STATE, "player": "chance"},
                                    {"state": STATE, "player": 1}],
    envelopes.ApplyRequest: [{"state": STATE, "action": ACTION},
                             {"state": STATE, "action": ACTION, "for_player": None},
                             {"state": STATE, "action": ACTION, "for_player": 2}],
    envelopes.CheckRequest: [{"state": STATE, "action": ACTION}],
    envelopes.ScoreRequest: [{"state": STATE}],
    envelopes.ViewRequest: [{"state": STATE, "player": 0}, {"state": STATE, "player": None}],
    envelopes.ReplayRequest: [{"setup": {"players": 2, "seed": 3}, "actions": [ACTION]},
                              {"setup": {"players": [{}]}, "actions": [], "for_player": 1}],
}
#: values on the boundaries of every field kind
ODD = [None, True, False, 0, 1, -1, 15, 16, 17, (1 << 63) - 1, 1 << 63, 7.0, 1.5, "", "x",
       "x" * 64, "x" * 65, "chance", "reference", [], [{}], [{}] * 16, [{}] * 17, [1], [ACTION],
       {}, {"a": 1}, STATE, [[]], ["chance"]]
FIELDS = ["players", "options", "seed", "card_set", "state", "action", "player", "for_player",
          "setup", "actions", "bogus"]


def _mutate(rng: random.Random, value: dict) -> dict:
    out = dict(value)
    for _ in range(rng.randint(1, 3)):
        move = rng.random()
        key = rng.choice(FIELDS)
        if move < 0.2 and out:
            out.pop(rng.choice(sorted(out)))
        elif move < 0.3 and isinstance(out.get("setup"), dict):
            out["setup"] = _mutate(rng, out["setup"])
        else:
            out[key] = rng.choice(ODD)
    return out


def _marshmallow(schema, body):
    try:
        return True, schema.load(body)
    except ValidationError:
        return False, None


@pytest.mark.parametrize("cls", sorted(VALID, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_shape_and_marshmallow_agree_on_a_fuzzed_corpus(cls):
    schema = cls()
    spec = envelopes.ENVELOPE_SHAPES[cls]
    fast = shape.compiled(spec)
    rng = random.Random(cls.__name__)
    corpus = list(VALID[cls]) + [_mutate(rng, rng.choice(VALID[cls])) for _ in range(1500)]
    accepted = refused = 0
    for body in corpus:
        ok, loaded = _marshmallow(schema, body)
        assert fast(body) is ok, body
        assert (shape.check(spec, body) == {}) is ok, body
        if ok:
            accepted += 1
            assert load_envelope(schema, body) == loaded, body
        else:
            refused += 1
            with pytest.raises(MalformedInput):
                load_envelope(schema, body)
    assert accepted >= len(VALID[cls]) and refused > 100  # the corpus covers both sides


def test_every_request_schema_of_the_hot_path_has_a_shape():
    from service.http import games

    for schema in (games.NEW, games.LEGAL_ACTIONS, games.APPLY, games.CHECK, games.SCORE,
                   games.VIEW, games.REPLAY):
        assert fast_loader(schema), type(schema).__name__
        assert set(envelopes.ENVELOPE_SHAPES[type(schema)].schema()["properties"]) \
            == set(schema.fields), type(schema).__name__


def test_refused_envelopes_keep_marshmallows_messages():
    from service.http import games

    with pytest.raises(MalformedInput) as err:
        load_envelope(games.APPLY, {"state": {}, "actoin": {}})
    assert err.value.errors == {"action": ["missing required field"], "actoin": ["unknown field"]}
