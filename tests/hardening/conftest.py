"""Fixtures of the hardening tests: the real app (every game) with any config.

``make_client(**config)`` builds ``create_app({"TESTING": True, **config})``
and returns its test client as the host of the games it opens (``HostClient``); ``walk(client, game, seed, steps)`` plays a
seeded random game over HTTP and returns the states it went through.
"""

from __future__ import annotations

import random
from typing import Any

import pytest


class HostClient:
    """A test client that acts as the host of the games it opens: it keeps the seat
    tokens ``new`` and ``replay`` answer (``service.seats``) and sends every seat's
    with each request about a sealed state of that game.  Otherwise the Flask test
    client itself (``raw``)."""

    def __init__(self, raw):
        self.raw = raw
        self.tokens: dict[str, list[str]] = {}

    def __getattr__(self, name):
        return getattr(self.raw, name)

    def post(self, url, *args, **kwargs):
        body = kwargs.get("json")
        state = body.get("state") if isinstance(body, dict) else None
        chain = state.get("chain") if isinstance(state, dict) else None
        game_id = chain.get("game") if isinstance(chain, dict) else None
        headers = dict(kwargs.pop("headers", None) or {})
        if game_id in self.tokens and "Referee-Seat-Token" not in headers:
            headers["Referee-Seat-Token"] = ", ".join(self.tokens[game_id])
        r = self.raw.post(url, *args, headers=headers, **kwargs)
        data = r.get_json(silent=True)
        if isinstance(data, dict) and "seat_tokens" in data:
            self.tokens[data["state"]["chain"]["game"]] = data["seat_tokens"]
        return r


@pytest.fixture
def make_client():
    from service.app import create_app

    def make(**config):
        return HostClient(create_app({"TESTING": True, **config}).test_client())

    return make


def walk(client, game_id: str, seed: int, steps: int, players: int | None = None,
         options: dict[Any, Any] | None = None) -> list[dict[Any, Any]]:
    """States of a seeded random game played over HTTP (the first is the new game's)."""
    from service.games import registry

    game = registry.get_game(game_id)
    rng = random.Random(seed)
    body = {"players": players or game.min_players, "seed": seed}
    if options:
        body["options"] = options
    r = client.post(f"/v1/games/{game_id}/new", json=body)
    assert r.status_code == 200, r.json
    states = [r.json["state"]]
    for _ in range(steps):
        actions = client.post(f"/v1/games/{game_id}/legal-actions",
                              json={"state": states[-1]}).json["actions"]
        if not actions:
            break
        r = client.post(f"/v1/games/{game_id}/apply",
                        json={"state": states[-1], "action": rng.choice(actions)})
        assert r.status_code == 200, r.json
        states.append(r.json["state"])
    return states
