"""``new`` with ``for_player``, as ``apply`` and ``replay`` take it, for every game.

The answer keeps the host's full ``state`` and ``events`` and adds the seat's
``view`` (what ``/view`` answers) and ``events_for_player`` (the setup events
with every card hidden from that seat replaced by ``"hidden"``).  Every
response is checked against ``openapi.yaml`` (``real_api``).
"""

from __future__ import annotations

import pytest

from service.games import registry
from service.redaction import HIDDEN
from tests.contract import strings_and_keys


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_new_for_player_answers_the_seats_view_and_redacted_setup_events(real_api, game_id):
    game = registry.get_game(game_id)
    players = game.max_players
    for options in ({}, {"chance": "table"}):
        body = {"players": players, "seed": 12, "options": options}
        full = real_api.post(f"/v1/games/{game_id}/new", json=body)
        assert full.status_code == 200, full.json
        assert "view" not in full.json and "events_for_player" not in full.json
        for seat in [None, *range(players)]:
            r = real_api.post(f"/v1/games/{game_id}/new", json={**body, "for_player": seat})
            assert r.status_code == 200, r.json
            out = r.json
            assert out["state"] == full.json["state"] and out["events"] == full.json["events"]
            assert out["view"] == real_api.post(f"/v1/games/{game_id}/view", json={
                "state": out["state"], "player": seat}).json["view"]
            secret = game.secret_cards(out["state"], seat)
            leaked = secret & strings_and_keys(out["events_for_player"])
            assert not leaked, (seat, leaked)
            assert len(out["events_for_player"]) == len(out["events"])
            if secret & strings_and_keys(out["events"]):
                assert HIDDEN in strings_and_keys(out["events_for_player"])


@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_new_for_player_must_be_a_seat_of_the_new_game(real_api, game_id):
    game = registry.get_game(game_id)
    body = {"players": game.min_players, "seed": 3}
    for bad in (game.min_players, 16, -1, "me", True):
        r = real_api.post(f"/v1/games/{game_id}/new", json={**body, "for_player": bad})
        # a seat number the schema allows but the game does not have: 422 no-such-seat
        seat = isinstance(bad, int) and not isinstance(bad, bool) and 0 <= bad <= 15
        assert r.status_code == (422 if seat else 400), (bad, r.json)
        assert "for_player" in r.json["errors"], r.json
