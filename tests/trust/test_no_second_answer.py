"""No second answer to a spent step, on any route, over thousands of random steps (issue 34).

The generator the class of "ask a sealed step twice" attacks comes from: random sealed
games of every game, in server chance (players' actions through ``apply``) and table
chance (chance outcomes through ``apply`` and ``apply-chance``), played by the host.
After each step the adversary goes back to a random earlier state of the line and
sends every other action it could (another legal action, the same chance outcome as a
one-item ``apply-chance`` list or as a single ``apply``, a longer list): each answer
is a 409 ``step-spent`` or, when the other action leads to the very same state, that
same state.  The recorded action sent again gets the recorded answer, byte for byte.
In process (the Flask test client; the register a SQLite file of the test's own);
``test_one_answer_per_step.py`` plays the same against real gunicorn and Redis.
"""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest

from service.games import registry
from service.games.chance import CHANCE
from tests.size import sized

KEY = "no-second-answer"
STEPS = {"full": 700, "least": 120}  # per game and chance mode: ~4,000 steps at full size


@pytest.fixture
def client(make_client, tmp_path):
    return make_client(SEALING_KEYS=KEY, STEP_REGISTER=str(tmp_path / "steps.sqlite3"))


def _apply(client, game_id: str, state: dict[Any, Any], action: dict[Any, Any], host: dict[Any, Any]):
    if action.get("player") == CHANCE and isinstance(action.get("_as_list"), list):
        return client.post(f"/v1/games/{game_id}/apply-chance",
                           json={"state": state, "outcomes": action["_as_list"]}, headers=host)
    return client.post(f"/v1/games/{game_id}/apply", json={"state": state, "action": action},
                       headers=host)


def _clean(action: dict[Any, Any]) -> dict[Any, Any]:
    return {k: v for k, v in action.items() if k != "probability"}


@pytest.mark.parametrize("chance", ["server", "table"])
@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_a_spent_step_never_answers_another_action(client, game_id, chance):
    game, rng = registry.get_game(game_id), random.Random(f"{game_id}/{chance}")
    steps = sized(STEPS["full"], STEPS["least"])
    played = tried = refused = 0
    while played < steps:
        r = client.post(f"/v1/games/{game_id}/new",
                        json={"players": game.min_players, "options": {"chance": chance},
                              "seed": rng.randrange(1 << 30)})
        assert r.status_code == 200, r.json
        state, tokens = r.json["state"], r.json["seat_tokens"]
        host = {"Referee-Seat-Token": ", ".join(tokens)}
        line: list[tuple[dict[Any, Any], dict[Any, Any], bytes, list[dict[Any, Any]]]] = []  # state, action, answer, others
        while played < steps:
            listed = client.post(f"/v1/games/{game_id}/legal-actions", json={"state": state},
                                 headers=host).json["actions"]
            if not listed:
                break
            action = _clean(rng.choice(listed))
            answer = _apply(client, game_id, state, action, host)
            assert answer.status_code == 200, answer.json
            others = [_clean(a) for a in listed if _clean(a) != action]
            if action["player"] == CHANCE:  # the same outcome by the other route, a longer list
                longer = [{**action, "_as_list": [action, other]} for other in others[:1]]
                others += [{**action, "_as_list": [action]}, *longer]
            line.append((state, action, answer.get_data(), others))
            played += 1
            # the adversary: an earlier step of this line, every other action it could send
            back, recorded, answered, alternatives = line[rng.randrange(len(line))]
            recorded_state = orjson.loads(answered)["state"]
            for other in rng.sample(alternatives, min(4, len(alternatives))):
                r = _apply(client, game_id, back, other, host)
                tried += 1
                if r.status_code == 409:
                    refused += 1
                    assert r.json["type"] == "/problems/step-spent"
                    assert r.json["step"] == back["chain"]["step"]
                    continue
                # never a second answer: at most the same state by another spelling
                assert r.status_code in (200, 422), (game_id, other, r.json)
                if r.status_code == 200:
                    assert r.json["state"] == recorded_state, (game_id, recorded, other)
            again = _apply(client, game_id, back, recorded, host)
            assert again.status_code == 200 and again.get_data() == answered
            state = orjson.loads(answer.get_data())["state"]
    assert tried > steps // 2 and refused > tried // 2, (tried, refused)
