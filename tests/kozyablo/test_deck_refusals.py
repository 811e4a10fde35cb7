"""``POST /v1/games/kozyablo/decks/validate`` refuses a body that is no deck as 1.0.0
did: the same field paths and messages in English and Russian (marshmallow's wording:
``deck._schema``, ``Longer than maximum length 64.``)."""

from __future__ import annotations

import pytest

DECK = {"capital": "kz_capital", "sectors": ["gold_mine"], "cards": ["kz_scout"]}
CASES = [  # body, errors in English, errors in Russian
    ({}, {"deck": ["missing required field"]}, {"deck": ["обязательное поле отсутствует"]}),
    ({"deck": None, "z": 1}, {"deck": ["may not be null"], "z": ["unknown field"]},
     {"deck": ["не может быть null"], "z": ["неизвестное поле"]}),
    ({"deck": []}, {"deck._schema": ["Invalid input type."]},
     {"deck._schema": ["Invalid input type."]}),
    ({"deck": {"cards": 1, "z": 2}, "card_set": None},
     {"deck.capital": ["missing required field"], "deck.sectors": ["missing required field"],
      "deck.cards": ["must be a list"], "deck.z": ["unknown field"],
      "card_set": ["may not be null"]},
     {"deck.capital": ["обязательное поле отсутствует"],
      "deck.sectors": ["обязательное поле отсутствует"], "deck.cards": ["должно быть списком"],
      "deck.z": ["неизвестное поле"], "card_set": ["не может быть null"]}),
    ({"deck": {**DECK, "capital": "x" * 65, "sectors": [None, 1, "x" * 65] + ["a"] * 10},
      "card_set": 7},
     {"deck.capital": ["Longer than maximum length 64."], "deck.sectors.0": ["may not be null"],
      "deck.sectors.1": ["must be a string"],
      "deck.sectors.2": ["Longer than maximum length 64."], "card_set": ["must be a string"]},
     {"deck.capital": ["Longer than maximum length 64."],
      "deck.sectors.0": ["не может быть null"], "deck.sectors.1": ["должно быть строкой"],
      "deck.sectors.2": ["Longer than maximum length 64."], "card_set": ["должно быть строкой"]}),
    ({"deck": {**DECK, "sectors": ["a"] * 11, "cards": ["a"] * 101}, "card_set": "x" * 65},
     {"deck.sectors": ["Longer than maximum length 10."],
      "deck.cards": ["Longer than maximum length 100."],
      "card_set": ["Longer than maximum length 64."]},
     {"deck.sectors": ["Longer than maximum length 10."],
      "deck.cards": ["Longer than maximum length 100."],
      "card_set": ["Longer than maximum length 64."]}),
]


@pytest.mark.parametrize(("body", "english", "russian"), CASES)
def test_a_body_that_is_no_deck_is_refused_as_in_1_0_0(client, body, english, russian):
    for language, errors in (("en", english), ("ru", russian)):
        r = client.post("/v1/games/kozyablo/decks/validate", json=body,
                        headers={"Accept-Language": language})
        assert r.status_code == 400, r.json
        assert r.json["type"] == "/problems/malformed-request"
        assert r.json["errors"] == errors
        assert list(r.json["errors"]) == list(errors)


def test_the_card_set_defaults_to_the_reference_set(client):
    r = client.post("/v1/games/kozyablo/decks/validate", json={"deck": DECK})
    assert r.status_code == 200 and r.json["card_count"] == 1
