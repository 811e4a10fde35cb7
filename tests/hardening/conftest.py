"""Fixtures of the hardening tests: the real app (every game) with any config.

``make_client(**config)`` builds ``create_app({"TESTING": True, **config})``
and returns its test client as the host of the games it opens (``HostClient``); ``walk(client, game, seed, steps)`` plays a
seeded random game over HTTP and returns the states it went through.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

import pytest

from tests.wsgi import QuickClient, QuickResponse, client_of, quick


class Poster(Protocol):
    """A test client as the helpers here use it: ``post`` answers a ``QuickResponse``
    (``QuickClient``, ``HostClient``)."""

    def post(self, url: str, *args: Any, **kwargs: Any) -> QuickResponse: ...


class HostClient:
    """A test client that acts as the host of the games it opens: it keeps the seat
    tokens ``new`` and ``replay`` answer (``service.seats``) and sends every seat's
    with each request about a sealed state of that game.  Otherwise the Flask test
    client itself (``raw``)."""

    def __init__(self, raw: QuickClient) -> None:
        self.raw = raw
        self.tokens: dict[str, list[str]] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)

    def post(self, url: str, *args: Any, **kwargs: Any) -> QuickResponse:
        body = kwargs.get("json")
        state = body.get("state") if isinstance(body, dict) else None
        chain = state.get("chain") if isinstance(state, dict) else None
        game_id = chain.get("game") if isinstance(chain, dict) else None
        headers = dict(kwargs.pop("headers", None) or {})
        if game_id in self.tokens and "Referee-Seat-Token" not in headers:
            headers["Referee-Seat-Token"] = ", ".join(self.tokens[game_id])
        r = quick(self.raw.post(url, *args, headers=headers, **kwargs))
        data = r.get_json(silent=True)
        if isinstance(data, dict) and "seat_tokens" in data:
            self.tokens[data["state"]["chain"]["game"]] = data["seat_tokens"]
        return r


@pytest.fixture
def make_client() -> Callable[..., HostClient]:
    from service.app import create_app

    def make(**config: Any) -> HostClient:
        return HostClient(client_of(create_app({"TESTING": True, **config})))

    return make


def walk(client: Poster, game_id: str, seed: int, steps: int, players: int | None = None,
         options: dict[Any, Any] | None = None) -> list[dict[Any, Any]]:
    """States of a seeded random game played over HTTP (the first is the new game's)."""
    from service.games import registry

    game = registry.get_game(game_id)
    rng = random.Random(seed)
    body: dict[str, Any] = {"players": players or game.min_players, "seed": seed}
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
