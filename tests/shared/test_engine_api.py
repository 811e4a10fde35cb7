"""The library (``service.engine_api``): no Flask, and HTTP's refusals word for word.

Every kind of refusal the library raises is compared, on a sample, with the problem+json
the HTTP route answers to the same request in English and in Russian: the same ``type``,
``title``, ``status``, ``detail``, ``rule`` (with its text and link), ``errors``,
``index``, ``violations``… (only ``instance``, the request's id, is HTTP's own).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from service.engine_api import IllegalAction, Referee, Refused
from service.games.registry import get_game

GOOD = ["kz_scout"] * 3 + ["kz_guard"] * 3 + ["kz_stone_goat"] * 3 + ["kz_healer"] * 3 \
    + ["kz_catapult"] * 3
SHORT_DECK = {"capital": "kz_capital", "sectors": ["gold_mine", "crystal_mine", "energy_source"],
              "cards": GOOD[:14]}


def test_the_library_imports_no_flask() -> None:
    """In a fresh interpreter: the library, a game played through it, and a refusal's
    texts in both languages, with Flask never imported."""
    code = ("import sys\nfrom service.engine_api import Referee, Refused\n"
            "r = Referee('tremble')\ns = r.new(3, seed=1)['state']\n"
            "r.apply(s, r.legal_actions(s)['actions'][0])\n"
            "try:\n    r.view(s, 7)\nexcept Refused as exc:\n    exc.problem('ru')\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('flask', 'werkzeug')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


@pytest.fixture(scope="module")
def client() -> Any:
    from service.app import create_app

    return create_app({"TESTING": True, "ACCESS_LOG": "0"}).test_client()


def _state(game_id: str, seed: int = 3, players: Any = 2) -> dict[str, Any]:
    state: dict[str, Any] = Referee(game_id).new(players, seed=seed)["state"]
    return state


def _kozyablo() -> dict[str, Any]:
    return _state("kozyablo", 1, [{"race": "kozly"}, {"race": "pozorki"}])


def _out_of_turn() -> list[dict[str, Any]]:
    """A Tremble game's first two actions, the second taken by the seat that just acted."""
    referee = Referee("tremble")
    state = referee.new(3, seed=4)["state"]
    first = referee.legal_actions(state)["actions"][0]
    again = referee.legal_actions(referee.apply(state, first)["state"])["actions"][0]
    return [first, {**again, "player": first["player"]}]


#: (slug, game, the library's call, the HTTP verb and body of the same request)
Case = tuple[str, str, Callable[[Referee], object], str, Callable[[], dict[str, Any]]]
CASES: list[Case] = [
    ("illegal-action", "raiders", lambda r: r.apply(_state("raiders"), {"type": "pass", "player": 1}),
     "apply", lambda: {"state": _state("raiders"), "action": {"type": "pass", "player": 1}}),
    ("illegal-action", "tremble", lambda r: r.replay({"players": 3, "seed": 4}, _out_of_turn()),
     "replay", lambda: {"setup": {"players": 3, "seed": 4}, "actions": _out_of_turn()}),
    ("malformed-request", "raiders", lambda r: r.apply(_state("raiders"), 5),  # type: ignore[arg-type]
     "apply", lambda: {"state": _state("raiders"), "action": 5}),
    ("malformed-request", "tremble", lambda r: r.new(2, seed=-1),
     "new", lambda: {"players": 2, "seed": -1}),
    ("malformed-request", "raiders",
     lambda r: r.apply(_state("raiders"), {"type": "capture", "player": 0}),
     "apply", lambda: {"state": _state("raiders"), "action": {"type": "capture", "player": 0}}),
    ("invalid-state", "tremble", lambda r: r.score({**_state("tremble"), "turn": -1}),
     "score", lambda: {"state": {**_state("tremble"), "turn": -1}}),
    ("incompatible-state", "raiders", lambda r: r.legal_actions(_state("tremble")),
     "legal-actions", lambda: {"state": _state("tremble")}),
    ("rules-changed", "kozyablo", lambda r: r.score({**_kozyablo(), "rules_version": "kozyablo/1"}),
     "score", lambda: {"state": {**_kozyablo(), "rules_version": "kozyablo/1"}}),
    ("invalid-options", "raiders", lambda r: r.new(2, options={"turn_limit": 0}),
     "new", lambda: {"players": 2, "options": {"turn_limit": 0}}),
    ("invalid-options", "tremble", lambda r: r.new(9),
     "new", lambda: {"players": 9}),
    ("invalid-setup", "kozyablo", lambda r: r.new([{"deck": SHORT_DECK}, {"race": "kozly"}]),
     "new", lambda: {"players": [{"deck": SHORT_DECK}, {"race": "kozly"}]}),
    ("no-such-seat", "raiders", lambda r: r.view(_state("raiders"), 5),
     "view", lambda: {"state": _state("raiders"), "player": 5}),
    ("no-such-seat", "kozyablo", lambda r: r.legal_actions(_kozyablo(), 3),
     "legal-actions", lambda: {"state": _kozyablo(), "player": 3}),
    ("invalid-name", "tremble", lambda r: r.new([{"name": "Ann"}, {"name": "ＡＮＮ"}]),
     "new", lambda: {"players": [{"name": "Ann"}, {"name": "ＡＮＮ"}]}),
]


@pytest.mark.parametrize("language", ["en", "ru"])
@pytest.mark.parametrize(("slug", "game_id", "call", "verb", "body"), CASES,
                         ids=[f"{c[0]}-{c[1]}-{c[3]}" for c in CASES])
def test_a_refusal_reads_as_the_http_problem(client: Any, language: str, slug: str,
                                             game_id: str, call: Callable[[Referee], object],
                                             verb: str, body: Callable[[], dict[str, Any]]
                                             ) -> None:
    with pytest.raises(Refused) as caught:
        call(Referee(game_id))
    refused = caught.value
    response = client.post(f"/v1/games/{game_id}/{verb}", data=orjson.dumps(body()),
                           content_type="application/json", headers={"Accept-Language": language})
    http = orjson.loads(response.get_data())
    http.pop("instance", None)
    assert (refused.slug, refused.status) == (slug, response.status_code)
    assert orjson.loads(orjson.dumps(refused.problem(language))) == http
    assert refused.type == http["type"] and refused.rule == http.get("rule")
    assert isinstance(refused, IllegalAction) == (slug == "illegal-action")
    assert refused.texts()[language] == http["detail"]


def test_an_unknown_game_is_refused_as_http_does(client: Any) -> None:
    with pytest.raises(Refused) as caught:
        Referee("chess")
    http = orjson.loads(client.post("/v1/games/chess/new", json={"players": 2}).get_data())
    http.pop("instance", None)
    assert caught.value.problem() == http and caught.value.status == 404


def test_check_answers_in_either_language_as_http_does(client: Any) -> None:
    state = _state("raiders")
    action = {"type": "pass", "player": 1}
    for language in ("en", "ru"):
        http = client.post("/v1/games/raiders/check", json={"state": state, "action": action},
                           headers={"Accept-Language": language}).get_json()
        assert Referee("raiders").check(state, action, language=language) == http
        assert http["legal"] is False


def test_an_older_served_version_is_upgraded_and_says_so(client: Any) -> None:
    """A ``raiders/1`` state is carried over to today's rules, the answer naming the
    clauses that changed (``rules_upgrade``), as HTTP's does."""
    old = {**_state("raiders"), "rules_version": "raiders/1"}
    ours = Referee("raiders").legal_actions(old)
    http = client.post("/v1/games/raiders/legal-actions", json={"state": old}).get_json()
    assert ours["rules_upgrade"]["from"] == "raiders/1"
    assert orjson.loads(orjson.dumps(ours)) == http


def test_the_state_given_is_not_changed_and_the_answer_is_the_engines() -> None:
    referee = Referee("tremble")
    state = referee.new(4, seed=9)["state"]
    before = orjson.dumps(state)
    action = referee.legal_actions(state, 0)["actions"][0]
    after = referee.apply(state, action)
    assert orjson.dumps(state) == before
    engine_state, engine_events = get_game("tremble").apply(state, action)
    assert (after["state"], after["events"]) == (engine_state, engine_events)
    assert after["outcome"] == get_game("tremble").score(engine_state)
