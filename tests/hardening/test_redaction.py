"""``apply`` with ``for_player``: the seat's view and its redacted events."""

from __future__ import annotations

import random
from typing import Any

import pytest

from service.games import registry
from service.redaction import HIDDEN, redact
from tests.contract import strings_and_keys

from .conftest import walk


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
                leaked = secret & strings_and_keys(body["events_for_player"])
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
    assert r.status_code == 422 and r.json["type"] == "/problems/no-such-seat"
    assert "for_player" in r.json["errors"]
    r = client.post("/v1/games/raiders/apply", json={"state": state, "action": action,
                                                     "for_player": "me"})
    assert r.status_code == 400 and "for_player" in r.json["errors"]


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_replay_for_player_redacts_every_step_as_apply_does(make_client, game_id):
    """``replay`` with ``for_player``: each step's ``events_for_player`` is what
    ``apply`` with ``for_player`` answered for that step, the setup's events
    hide the first state's secrets, and ``view`` is the final state's view."""
    client = make_client()
    game = registry.get_game(game_id)
    rng = random.Random(11)
    players = min(game.min_players + 1, game.max_players)
    setup = {"players": players, "seed": 5}
    new = client.post(f"/v1/games/{game_id}/new", json=setup).json
    state, actions = new["state"], []
    per_seat: dict[int | None, list[Any]] = {s: [] for s in [None, *range(players)]}
    for _ in range(20):
        legal = client.post(f"/v1/games/{game_id}/legal-actions", json={"state": state}).json
        if not legal["actions"]:
            break
        action = rng.choice(legal["actions"])
        actions.append(action)
        for seat in per_seat:
            r = client.post(f"/v1/games/{game_id}/apply",
                            json={"state": state, "action": action, "for_player": seat})
            assert r.status_code == 200, r.json
            per_seat[seat].append(r.json["events_for_player"])
        state = r.json["state"]
    full = client.post(f"/v1/games/{game_id}/replay", json={"setup": setup, "actions": actions}).json
    assert "view" not in full and "events_for_player" not in full
    redacted_something = False
    for seat, steps in per_seat.items():
        r = client.post(f"/v1/games/{game_id}/replay",
                        json={"setup": setup, "actions": actions, "for_player": seat})
        assert r.status_code == 200, r.json
        body = r.json
        assert body["state"] == full["state"] and body["events"] == full["events"]
        got = body["events_for_player"]
        assert [s["index"] for s in got] == [None, *range(len(actions))]
        assert [s["events"] for s in got[1:]] == steps
        first = game.secret_cards(new["state"], seat)
        assert got[0]["events"] == redact(new["events"], first)
        assert not first & strings_and_keys(got[0]["events"])
        assert body["view"] == client.post(f"/v1/games/{game_id}/view", json={
            "state": full["state"], "player": seat}).json["view"]
        redacted_something |= got != full["events"]
    assert redacted_something, "no event named a secret card: the test proves nothing"


def test_replay_for_player_must_be_a_seat_of_the_game(make_client):
    client = make_client()
    body = {"setup": {"players": 2, "seed": 1}, "actions": []}
    r = client.post("/v1/games/raiders/replay", json={**body, "for_player": 9})
    assert r.status_code == 422 and r.json["type"] == "/problems/no-such-seat"
    assert "for_player" in r.json["errors"]
    r = client.post("/v1/games/raiders/replay", json={**body, "for_player": "me"})
    assert r.status_code == 400 and "for_player" in r.json["errors"]
