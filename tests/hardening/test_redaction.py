"""``apply`` with ``for_player``: the seat's view and its redacted events."""

from __future__ import annotations

import random

import pytest

from service.games import registry
from service.redaction import HIDDEN, redact

from .conftest import walk


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings(v)


def test_redact_replaces_values_and_keys_and_leaves_the_rest():
    events = [{"type": "drew", "card": "a", "seen": {"a": 1, "b": 2}, "cards": ["a", "c"]}]
    assert redact(events, {"a", "b"}) == [
        {"type": "drew", "card": HIDDEN, "seen": {HIDDEN: 1, f"{HIDDEN}#2": 2},
         "cards": [HIDDEN, "c"]}]
    assert redact(events, set()) is events


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_events_for_player_never_name_a_secret_card(make_client, game_id):
    """Over random games: ``events_for_player`` holds no card hidden from the seat
    before or after the action, ``view`` is what ``/view`` answers, and the
    host still gets the full state and events."""
    client = make_client()
    game = registry.get_game(game_id)
    rng = random.Random(7)
    redacted_something = False
    for seed in (1, 2):
        states = walk(client, game_id, seed, 25, players=min(game.min_players + 1, game.max_players))
        for state in states:
            actions = client.post(f"/v1/games/{game_id}/legal-actions",
                                  json={"state": state}).json["actions"]
            if not actions:
                continue
            action = rng.choice(actions)
            full = client.post(f"/v1/games/{game_id}/apply",
                               json={"state": state, "action": action}).json
            for seat in [None, *range(len(state["players"]))]:
                r = client.post(f"/v1/games/{game_id}/apply",
                                json={"state": state, "action": action, "for_player": seat})
                assert r.status_code == 200, r.json
                body = r.json
                assert body["state"] == full["state"] and body["events"] == full["events"]
                secret = game.secret_cards(state, seat) | game.secret_cards(full["state"], seat)
                leaked = secret & set(strings(body["events_for_player"]))
                assert not leaked, (seat, leaked)
                assert body["view"] == client.post(f"/v1/games/{game_id}/view", json={
                    "state": full["state"], "player": seat}).json["view"]
                redacted_something |= body["events_for_player"] != body["events"]
    assert redacted_something, "no event named a secret card: the test proves nothing"


def test_for_player_must_be_a_seat_of_the_game(make_client):
    client = make_client()
    state = walk(client, "raiders", 1, 0)[0]
    action = client.post("/v1/games/raiders/legal-actions", json={"state": state}).json["actions"][0]
    r = client.post("/v1/games/raiders/apply", json={"state": state, "action": action,
                                                     "for_player": 9})
    assert r.status_code == 400 and "for_player" in r.json["errors"]
    r = client.post("/v1/games/raiders/apply", json={"state": state, "action": action,
                                                     "for_player": "me"})
    assert r.status_code == 400 and "for_player" in r.json["errors"]
