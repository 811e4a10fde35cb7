"""What a generated client does without care works (issue 23, "clients that work as written").

- Seeds fit a JavaScript number: every seed the service draws and the largest a request
  may name are at most 2^53 - 1, so ``JSON.parse`` keeps a state's ``chance.seed``.
- An integral float is the integer JSON Schema says it is (``2.0`` where the document says
  ``integer``), in an envelope, an option and an evaluation's parameters; a fraction is
  refused naming the field.
"""

from __future__ import annotations

import pytest

from service.limits import MAX_SEED, MAX_STATE_SEED
from tests import document

SAFE = (1 << 53) - 1


def test_the_largest_seed_is_javascripts_largest_safe_integer():
    assert MAX_SEED == SAFE
    doc = document.load()
    maxima: set[int] = set()

    def walk(node: object, key: str | None = None) -> None:
        if isinstance(node, dict):
            if key == "seed" and "maximum" in node:
                maxima.add(node["maximum"])
            for k, v in node.items():
                walk(v, k if k != "properties" else key)
                if k == "properties" and isinstance(v, dict):
                    for name, sub in v.items():
                        walk(sub, name)
        elif isinstance(node, list):
            for item in node:
                walk(item, key)

    walk(doc)
    # request seeds: 2^53 - 1; a state's chance.seed also reads what builds before 1.0.0 drew
    assert maxima == {SAFE, MAX_STATE_SEED}, maxima


@pytest.mark.parametrize("game", ["raiders", "kozyablo", "tremble"])
def test_seeds_the_service_draws_are_safe_in_javascript(client, game):
    # a 63-bit draw is below 2^53 once in 1024: 24 draws catch it (1 - 2^-240 of the time)
    seeds = [client.post(f"/v1/games/{game}/new", json={"players": 2}).get_json()["state"]["chance"]["seed"]
             for _ in range(24)]
    assert all(0 <= s <= SAFE for s in seeds), [s for s in seeds if s > SAFE]
    assert len(set(seeds)) > 20  # still drawn, not fixed


def test_an_integral_float_at_the_top_of_an_evaluation_is_the_integer(client):
    # a bare number (not inside a list or an object) is made an int before its check
    body = {"game": "tremble", "kind": "tremble.battle_odds", "strengths": [16.0, 17], "army": 20.0}
    accepted = client.post("/v1/evaluations", json=body)
    assert accepted.status_code == 202, accepted.get_json()
    refused = client.post("/v1/evaluations", json={**body, "army": 20.5})
    assert refused.status_code == 400 and "army" in refused.get_json()["errors"]


def test_a_seed_past_javascripts_range_is_refused_naming_it(client):
    answer = client.post("/v1/games/raiders/new", json={"players": 2, "seed": SAFE + 1})
    assert answer.status_code == 400
    assert "seed" in answer.get_json()["errors"]
    assert client.post("/v1/games/raiders/new", json={"players": 2, "seed": SAFE}).status_code == 200


@pytest.mark.parametrize("path, body, field", [
    ("/v1/games/raiders/new", {"players": 2.0, "options": {"turn_limit": 6.0}, "seed": 7.0},
     "options.turn_limit"),
    ("/v1/games/kozyablo/new", {"players": 2, "options": {"turn_limit": 6.0}}, "options.turn_limit"),
    ("/v1/games/tremble/odds", {"strengths": [16.0, 17], "army": 20.0}, "army"),
])
def test_an_integral_float_is_the_integer_and_a_fraction_is_refused(client, path, body, field):
    answer = client.post(path, json=body)
    assert answer.status_code == 200, answer.get_json()
    if "turn_limit" in field:
        assert answer.get_json()["state"]["options"]["turn_limit"] == 6
        assert type(answer.get_json()["state"]["options"]["turn_limit"]) is int
    else:
        assert answer.get_json()["army"] == 20
    broken = {**body, "options": {"turn_limit": 6.5}} if "turn_limit" in field else {**body, "army": 20.5}
    refused = client.post(path, json=broken)
    assert refused.status_code == 400
    assert field in refused.get_json()["errors"], refused.get_json()


def test_a_replay_keeps_taking_the_63_bit_seeds_builds_before_1_0_0_drew(client):
    from service.games import registry

    legacy = (1 << 62) + 12345  # as secrets.randbits(63) drew them
    game = registry.get_game("kozyablo")  # its count-only setup picks races by the seed
    state, _ = game.new_game(2, {"turn_limit": 6}, legacy)
    replayed = client.post("/v1/games/kozyablo/replay", json={
        "setup": {"players": 2, "options": {"turn_limit": 6}, "seed": legacy}, "actions": []})
    assert replayed.status_code == 200, replayed.get_json()
    assert replayed.get_json()["state"] == state
    assert client.post("/v1/games/kozyablo/new", json={"players": 2, "seed": legacy}).status_code == 400
