"""Fixtures of the hardening tests: the real app (every game) with any config.

``make_client(**config)`` builds ``create_app({"TESTING": True, **config})``
and returns its test client; ``walk(client, game, seed, steps)`` plays a
seeded random game over HTTP and returns the states it went through.
"""

from __future__ import annotations

import random

import pytest


@pytest.fixture
def make_client():
    from service.app import create_app

    def make(**config):
        return create_app({"TESTING": True, **config}).test_client()

    return make


def walk(client, game_id: str, seed: int, steps: int, players: int | None = None,
         options: dict | None = None) -> list[dict]:
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
