"""``POST /v1/tournaments/standings`` refuses a malformed body as 1.0.0 did: the same
field paths and messages, in English and Russian (marshmallow's wording, which the
1.0.0 contract's clients read: ``Length must be between 1 and 100.``, ``rounds.0._schema``,
a setup's own messages in English where 1.0.0 sent them so).  Each case fixes a rule."""

from __future__ import annotations

import pytest

from service.limits import MAX_ENTRANT_NAME, MAX_REPLAY_ACTIONS, MAX_ROUNDS

GAME = {"game": "raiders", "setup": {"players": [{"name": "Ann"}, {"name": "Bob"}], "seed": 1},
        "actions": []}
LONG = "x" * (MAX_ENTRANT_NAME + 1)


def one(game=GAME, match=None, rnd=None):
    match = match or {"players": ["Ann", "Bob"], "games": [game]}
    return {"players": ["Ann", "Bob"], "rounds": [rnd or {"matches": [match]}]}


G = "rounds.0.matches.0.games.0"
CASES = [  # body, errors in English, errors in Russian
    ({}, {"players": ["missing required field"], "rounds": ["missing required field"]},
     {"players": ["обязательное поле отсутствует"], "rounds": ["обязательное поле отсутствует"]}),
    ({"players": None, "rounds": 1}, {"players": ["may not be null"], "rounds": ["must be a list"]},
     {"players": ["не может быть null"], "rounds": ["должно быть списком"]}),
    # an item's problems first; the list's length only once every item is right
    ({"players": ["A", LONG, 3], "rounds": []},
     {"players.1": ["Length must be between 1 and 100."], "players.2": ["must be a string"]},
     {"players.1": ["Length must be between 1 and 100."], "players.2": ["должно быть строкой"]}),
    ({"players": ["A"], "rounds": [{"matches": []}] * (MAX_ROUNDS + 1), "q": 1},
     {"players": ["Length must be between 2 and 512."], "rounds": ["Longer than maximum length 30."],
      "q": ["unknown field"]},
     {"players": ["Length must be between 2 and 512."], "rounds": ["Longer than maximum length 30."],
      "q": ["неизвестное поле"]}),
    ({"players": ["A", "B"], "rounds": [None, 1, {"matches": [None, {}], "byes": None}]},
     {"rounds.0": ["may not be null"], "rounds.1._schema": ["Invalid input type."],
      "rounds.2.matches.0": ["may not be null"],
      "rounds.2.matches.1.players": ["missing required field"],
      "rounds.2.matches.1.games": ["missing required field"], "rounds.2.byes": ["may not be null"]},
     {"rounds.0": ["не может быть null"], "rounds.1._schema": ["Invalid input type."],
      "rounds.2.matches.0": ["не может быть null"],
      "rounds.2.matches.1.players": ["обязательное поле отсутствует"],
      "rounds.2.matches.1.games": ["обязательное поле отсутствует"],
      "rounds.2.byes": ["не может быть null"]}),
    (one(match={"players": ["Ann"], "games": []}),
     {"rounds.0.matches.0.players": ["Length must be 2."],
      "rounds.0.matches.0.games": ["Length must be between 1 and 9."]},
     {"rounds.0.matches.0.players": ["Length must be 2."],
      "rounds.0.matches.0.games": ["Length must be between 1 and 9."]}),
    (one(match={"players": ["Ann", "Bob"], "games": [None, 1, {"game": 1}]}),
     {G: ["may not be null"], "rounds.0.matches.0.games.1._schema": ["Invalid input type."],
      "rounds.0.matches.0.games.2.game": ["must be a string"]},
     {G: ["не может быть null"], "rounds.0.matches.0.games.1._schema": ["Invalid input type."],
      "rounds.0.matches.0.games.2.game": ["должно быть строкой"]}),
    # a game's unknown members are ignored; its state and actions must be objects
    (one(game={**GAME, "actions": [1], "state": [], "outcome": 1}),
     {f"{G}.actions.0": ["must be an object"],
      f"{G}.state": ["must be an object (a game state as `new` or `apply` returned it)"]},
     {f"{G}.actions.0": ["должно быть объектом"],
      f"{G}.state": ["must be an object (a game state as `new` or `apply` returned it)"]}),
    (one(game={**GAME, "actions": [{}] * (MAX_REPLAY_ACTIONS + 1)}),
     {f"{G}.actions": ["Longer than maximum length 20000."]},
     {f"{G}.actions": ["Longer than maximum length 20000."]}),
    # the setup is checked as `replay`'s: its path ends in a dot where it is no object,
    # and a message with a figure in it stays English (as 1.0.0 answered)
    (one(game={**GAME, "setup": 1}), {f"{G}.setup.": ["must be an object"]},
     {f"{G}.setup.": ["должно быть объектом"]}),
    (one(game={**GAME, "setup": None}), {f"{G}.setup": ["may not be null"]},
     {f"{G}.setup": ["не может быть null"]}),
    (one(game={**GAME, "setup": {"players": 2, "seed": -1, "card_set": "", "x": 1}}),
     {f"{G}.setup.seed": ["must be at least 0"], f"{G}.setup.card_set": ["empty"],
      f"{G}.setup.x": ["unknown field"]},
     {f"{G}.setup.seed": ["must be at least 0"], f"{G}.setup.card_set": ["пусто"],
      f"{G}.setup.x": ["неизвестное поле"]}),
]


@pytest.mark.parametrize(("body", "english", "russian"), CASES)
def test_a_malformed_standings_body_is_refused_as_in_1_0_0(client, body, english, russian):
    for language, errors in (("en", english), ("ru", russian)):
        r = client.post("/v1/tournaments/standings", json=body,
                        headers={"Accept-Language": language})
        assert r.status_code == 400, r.json
        assert r.json["type"] == "/problems/malformed-request"
        assert r.json["errors"] == errors
        assert list(r.json["errors"]) == list(errors)  # in the order 1.0.0 named them


def test_a_setup_is_read_with_its_defaults_and_a_game_without_its_unknown_members(client):
    """An integral float is the integer it is, the setup's defaults are filled in, and an
    exported result's extra members do not matter: the game is replayed (not finished)."""
    game = {**GAME, "setup": {**GAME["setup"], "seed": 1.0}, "outcome": {"finished": True}}
    r = client.post("/v1/tournaments/standings", json=one(game=game))
    assert r.status_code == 422 and r.json["errors"] == {G: ["the game is not finished"]}
