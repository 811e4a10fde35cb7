"""The library and HTTP give the same game: the parity corpus replayed through both.

``corpus/<game>.jsonl.gz`` (``tests.parity.generate``) holds at least 100 seeded games per
game and player count, as setup + actions.  Each game is replayed step by step through
the library (``service.engine_api.Referee``) and through the HTTP routes (the app in
process, Flask's test client): ``new``, then at every step ``legal-actions`` and ``apply``
of the recorded action, then ``score`` and ``replay`` of the whole game — and every answer
must be the same JSON (states, events, outcomes, pending decisions and legal actions).
The library's last outcome must be the one recorded.

A game recorded under another rules version than the engine plays fails at once, saying
to regenerate: the corpus is rewritten on purpose, never silently.

Size (``tests.size``): the first quarter of each group's games at the default size, every
game under ``.ci/run`` (``REFEREE_TEST_SIZE=full``).
"""

from __future__ import annotations

from functools import cache
from typing import Any

import orjson
import pytest

from service.engine_api import Referee
from service.games.registry import GAME_IDS, get_game
from tests.parity.generate import PER_COUNT, read
from tests.size import sized

REGENERATE = "the rules changed: regenerate with python -m tests.parity.generate"
GROUPS = [(game_id, players) for game_id in GAME_IDS
          for players in range(get_game(game_id).min_players, get_game(game_id).max_players + 1)]


@cache
def corpus(game_id: str) -> list[dict[str, Any]]:
    return read(game_id)


@pytest.fixture(scope="module")
def client() -> Any:
    from service.app import create_app

    return create_app({"TESTING": True, "ACCESS_LOG": "0"}).test_client()


def json_of(value: object) -> Any:
    """``value`` as it reads once sent as JSON (the library answers Python objects)."""
    return orjson.loads(orjson.dumps(value))


def post(client: Any, game_id: str, verb: str, body: dict[str, Any]) -> Any:
    response = client.post(f"/v1/games/{game_id}/{verb}", data=orjson.dumps(body),
                           content_type="application/json")
    assert response.status_code == 200, (verb, response.get_data(as_text=True)[:500])
    return orjson.loads(response.get_data())


def same(where: str, library: object, http: Any) -> None:
    ours = json_of(library)
    if ours != http:
        both = isinstance(ours, dict) and isinstance(http, dict)
        differ = [k for k in sorted({*ours, *http}) if ours.get(k) != http.get(k)] if both else []
        pytest.fail(f"{where}: the library and HTTP differ (in {differ or 'the whole answer'})")


def games_of(game_id: str, players: int) -> list[tuple[int, dict[str, Any]]]:
    group = [(i, g) for i, g in enumerate(corpus(game_id)) if _count(g) == players]
    return group[:sized(len(group), least=min(len(group), 10))]


def _count(game: dict[str, Any]) -> int:
    seats = game["setup"]["players"]
    return seats if isinstance(seats, int) else len(seats)


@pytest.mark.parametrize(("game_id", "players"), GROUPS, ids=[f"{g}-{n}" for g, n in GROUPS])
def test_every_step_is_the_same_through_the_library_and_http(client: Any, game_id: str,
                                                               players: int) -> None:
    referee = Referee(game_id)
    played = games_of(game_id, players)
    assert played, f"no {players}-player {game_id} games in the corpus: {REGENERATE}"
    for line, game in played:
        if game["rules_version"] != referee.rules_version:
            pytest.fail(f"{game_id} game {line} was recorded under {game['rules_version']!r}, "
                        f"the engine plays {referee.rules_version!r}: {REGENERATE}")
        setup, actions = game["setup"], game["actions"]
        where = f"{game_id} corpus game {line}"
        started = referee.new(setup["players"], options=setup["options"], seed=setup["seed"])
        same(f"{where} new", started, post(client, game_id, "new", setup))
        state = started["state"]
        for step, action in enumerate(actions):
            listed = referee.legal_actions(state)
            same(f"{where} step {step} legal-actions", listed,
                 post(client, game_id, "legal-actions", {"state": state}))
            assert action in json_of(listed["actions"]) or \
                referee.check(state, action)["legal"], f"{where} step {step}: not legal"
            applied = referee.apply(state, action)
            same(f"{where} step {step} apply", applied,
                 post(client, game_id, "apply", {"state": state, "action": action}))
            state = applied["state"]
        outcome = referee.score(state)
        same(f"{where} score", outcome, post(client, game_id, "score", {"state": state}))
        assert {"finished": outcome["finished"], "winners": outcome["winners"]} == \
            game["outcome"], f"{where}: not the outcome recorded: {REGENERATE}"
        replayed = referee.replay(setup, actions)
        same(f"{where} replay", replayed,
             post(client, game_id, "replay", {"setup": setup, "actions": actions}))
        assert json_of(replayed["state"]) == json_of(state), f"{where}: replay ends elsewhere"


def test_the_corpus_has_every_group_at_full_size() -> None:
    """At least ``PER_COUNT`` (100) games of every game and player count the engines offer,
    each with its setup, actions, rules version and outcome."""
    for game_id, players in GROUPS:
        group = [g for g in corpus(game_id) if _count(g) == players]
        assert len(group) >= PER_COUNT, f"{game_id} {players} players: {len(group)} games"
        assert all(set(g) == {"setup", "rules_version", "bot", "actions", "outcome"}
                   for g in group)
    assert {g["bot"] for game_id in GAME_IDS for g in corpus(game_id)} == {"random", "greedy"}


def test_a_rules_version_bump_fails_until_regenerated(client: Any, monkeypatch: Any) -> None:
    """Not a rubber stamp: an engine that plays another rules version than the corpus was
    recorded under fails the replay with the message that says what to do."""
    game_id, players = GROUPS[0]
    monkeypatch.setattr(type(get_game(game_id)), "rules_version", "9999.0.0-bumped")
    with pytest.raises(pytest.fail.Exception, match="regenerate with python -m tests.parity"):
        test_every_step_is_the_same_through_the_library_and_http(client, game_id, players)
