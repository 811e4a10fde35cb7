"""A cheating bot asks a sealed step twice: to peek, to preview chance, to undo (issue 34).

The attacks, each against the Procfile's gunicorn (2 workers) with sealing keys and
server seeds, the register of spent steps in its embedded default (a SQLite file the
workers share) or in Redis:

1. **Peeking at committed secret orders (TRE-14).**  Sealed Tremble, 2 seats.  Seat 1
   plans first; seat 0 applies a trial plan — its answer's ``orders_revealed`` shows
   seat 1's orders — and then a different plan to the *same* state.  Before: 200,
   and ``transcripts/verify`` of the line relayed found no fork.  Now: the trial
   was the commit; the second plan is 409 ``step-spent`` naming the game and step.
2. **Previewing chance, and undoing it.**  Seat 0 applies ``draw_ships`` and sees
   the two ships, then ``decline_buy`` on the same state instead (so that seat 1
   draws them).  Before: 200.  Now: 409.  Going back to an older state after a bad
   roll and playing another action: 409, however old the state; the same action
   again: the same bytes.
3. **Another worker, another instance.**  The register is a file both workers of
   one gunicorn, and a second gunicorn given the same file, see: a step spent on
   one instance is spent on the other.  With ``REDIS_URL``, two instances on one
   Redis the same.
4. **A frozen or dead register.**  Redis frozen (SIGSTOP) or killed: a sealed
   ``apply`` fails closed, 503 ``step-register-unavailable`` with ``Retry-After``
   within the Redis timeout, nothing played; plain and signed game routes, and the
   sealed reads (``legal-actions``, ``view``, ``score``), answer as before.  Thawed,
   or restarted empty, the game plays on within seconds.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.trust.conftest import call

KEY = "one-answer-key"
SEATS = [{"name": "Ann"}, {"name": "Bob"}]
STEP_SPENT = "/problems/step-spent"


def token(tokens: list[str], *seats: int) -> list[tuple[str, str]]:
    return [("Referee-Seat-Token", ", ".join(tokens[s] for s in seats))]


def new_game(url: str, game: str = "tremble", **extra: object) -> tuple[dict[Any, Any], list[str]]:
    r = call(url, f"/v1/games/{game}/new", {"players": SEATS, **extra})
    assert r.status == 200, r.json
    return r.json["state"], r.json["seat_tokens"]


def host_until(url: str, game: str, state: dict[Any, Any], tokens: list[str], decision: str) -> list[dict[Any, Any]]:
    """Play the first legal action as the host until every seat is pending ``decision``;
    the states on the way (the last one waits for that decision)."""
    line, host = [state], token(tokens, *range(len(tokens)))
    for _ in range(200):
        pending = state["pending"]
        if pending and all(p["decision"] == decision for p in pending) \
                and len(pending) == len(tokens):
            return line
        r = call(url, f"/v1/games/{game}/legal-actions", {"state": state}, host)
        assert r.status == 200, r.json
        r = call(url, f"/v1/games/{game}/apply", {"state": state, "action": r.json["actions"][0]},
                 host)
        assert r.status == 200, r.json
        state = r.json["state"]
        line.append(state)
    raise AssertionError(f"no {decision} for every seat after 200 steps")


def own_actions(url: str, state: dict[Any, Any], tokens: list[str], seat: int) -> list[dict[Any, Any]]:
    r = call(url, "/v1/games/tremble/legal-actions", {"state": state}, token(tokens, seat))
    assert r.status == 200, r.json
    return r.json["actions"]


def refused_as_spent(answer, state: dict[Any, Any]) -> None:
    assert answer.status == 409, answer.json
    assert answer.type == STEP_SPENT
    assert (answer.json["game"], answer.json["step"]) == (state["chain"]["game"],
                                                          state["chain"]["step"])
    assert "state" not in answer.json


@pytest.fixture(scope="module")
def register_file(tmp_path_factory):
    return str(tmp_path_factory.mktemp("steps") / "spent-steps.sqlite3")


@pytest.fixture(scope="module")
def server(serve, register_file):
    return serve("steps", SEALING_KEYS=KEY, SERVER_SEEDS="1", STEP_REGISTER=register_file)


@pytest.fixture(scope="module")
def other_instance(serve, register_file):
    return serve("steps-b", SEALING_KEYS=KEY, SERVER_SEEDS="1", STEP_REGISTER=register_file)


def test_the_last_seat_to_plan_cannot_read_the_orders_and_plan_again(server):
    state, tokens = new_game(server)
    at_plan = host_until(server, "tremble", state, tokens, "plan")[-1]
    r = call(server, "/v1/games/tremble/apply",
             {"state": at_plan, "action": own_actions(server, at_plan, tokens, 1)[0]},
             token(tokens, 1))
    assert r.status == 200, r.json
    committed = r.json["state"]
    view = call(server, "/v1/games/tremble/view", {"state": committed, "player": 0},
                token(tokens, 0)).json["view"]
    assert view["players"][1]["orders"] == {"submitted": True}  # seat 1's orders: hidden
    plans = own_actions(server, committed, tokens, 0)
    trial = call(server, "/v1/games/tremble/apply", {"state": committed, "action": plans[0]},
                 token(tokens, 0))
    assert trial.status == 200, trial.json
    assert "orders_revealed" in [e["type"] for e in trial.json["events"]]  # the trial read them…
    for other in plans[1:4]:  # …and was the commit: no other plan on that step
        refused_as_spent(call(server, "/v1/games/tremble/apply",
                              {"state": committed, "action": other}, token(tokens, 0)), committed)
    again = call(server, "/v1/games/tremble/apply", {"state": committed, "action": plans[0]},
                 token(tokens, 0))
    assert again.status == 200 and again.json["state"] == trial.json["state"]
    line = host_until(server, "tremble", state, tokens, "plan")[:-1] + [at_plan, committed,
                                                                         trial.json["state"]]
    verdict = call(server, "/v1/transcripts/verify", {"states": line})
    assert verdict.status == 200 and verdict.json["valid"], verdict.json


def test_a_draw_cannot_be_previewed_and_declined_nor_a_roll_undone(server):
    state, tokens = new_game(server)
    at_draw = host_until(server, "tremble", state, tokens, "draw_or_decline")[-1]
    choices = {a["type"]: a for a in own_actions(server, at_draw, tokens, 0)}
    drew = call(server, "/v1/games/tremble/apply",
                {"state": at_draw, "action": choices["draw_ships"]}, token(tokens, 0))
    assert drew.status == 200, drew.json
    seen = [e for e in drew.json["events"] if e["type"] == "ship_drawn"]
    assert len(seen) == 2 and all(e.get("ship") != "hidden" for e in seen), seen
    refused_as_spent(call(server, "/v1/games/tremble/apply",
                          {"state": at_draw, "action": choices["decline_buy"]}, token(tokens, 0)),
                     at_draw)
    # play on two steps, then go back to the state before the draw ("undo the bad roll")
    after = drew.json["state"]
    for _ in range(2):
        seat = after["pending"][0]["player"]
        r = call(server, "/v1/games/tremble/apply",
                 {"state": after, "action": own_actions(server, after, tokens, seat)[0]},
                 token(tokens, seat))
        assert r.status == 200, r.json
        after = r.json["state"]
    refused_as_spent(call(server, "/v1/games/tremble/apply",
                          {"state": at_draw, "action": choices["decline_buy"]}, token(tokens, 0)),
                     at_draw)
    again = call(server, "/v1/games/tremble/apply",
                 {"state": at_draw, "action": choices["draw_ships"]}, token(tokens, 0))
    assert again.status == 200 and again.json["state"] == drew.json["state"]  # a retry: the same


def test_reads_spend_nothing(server):
    """``legal-actions``, ``check``, ``view`` and ``score`` of every action of a step leave
    it unplayed: the first ``apply`` afterwards is still the one that counts."""
    state, tokens = new_game(server)
    at_draw = host_until(server, "tremble", state, tokens, "draw_or_decline")[-1]
    mine = token(tokens, 0)
    actions = own_actions(server, at_draw, tokens, 0)
    for action in actions:
        assert call(server, "/v1/games/tremble/check", {"state": at_draw, "action": action},
                    mine).json["legal"]
    assert call(server, "/v1/games/tremble/view", {"state": at_draw, "player": 0}, mine).status == 200
    assert call(server, "/v1/games/tremble/score", {"state": at_draw}).status == 200
    last = call(server, "/v1/games/tremble/apply", {"state": at_draw, "action": actions[-1]}, mine)
    assert last.status == 200, last.json
    refused_as_spent(call(server, "/v1/games/tremble/apply",
                          {"state": at_draw, "action": actions[0]}, mine), at_draw)


def test_a_step_spent_on_one_instance_is_spent_on_the_other(server, other_instance):
    """Two gunicorns (two workers each) given one register file: 20 tries of another
    action, over new connections to both, are all refused."""
    state, tokens = new_game(server, "raiders", options={"turn_limit": 2})
    host = token(tokens, 0, 1)
    actions = call(server, "/v1/games/raiders/legal-actions", {"state": state}, host).json["actions"]
    first = call(server, "/v1/games/raiders/apply", {"state": state, "action": actions[0]}, host)
    assert first.status == 200, first.json
    for attempt in range(20):
        url = (server, other_instance)[attempt % 2]
        refused_as_spent(call(url, "/v1/games/raiders/apply",
                              {"state": state, "action": actions[1 + attempt % (len(actions) - 1)]},
                              host), state)
        same = call(url, "/v1/games/raiders/apply", {"state": state, "action": actions[0]}, host)
        assert same.status == 200 and same.json["state"] == first.json["state"]


# ------------------------------------------------------------------ Redis
@pytest.fixture
def on_redis(serve, private_redis):
    """Two web instances on one private Redis (its timeout short, so a frozen Redis
    answers within the test's bound); the Redis handle to freeze or kill."""
    settings = dict(SEALING_KEYS=KEY, SERVER_SEEDS="1", STATE_KEYS=SIGNING_KEY,
                    REDIS_TIMEOUT="0.3")
    raw = {"REDIS_URL": private_redis.url}
    a = serve(f"redis-a-{private_redis.port}", raw, **settings)
    b = serve(f"redis-b-{private_redis.port}", raw, **settings)
    return a, b, private_redis


SIGNING_KEY = "one-answer-signing-key"


def test_redis_keeps_the_register_for_every_instance(on_redis):
    a, b, _ = on_redis
    state, tokens = new_game(a, "raiders", options={"turn_limit": 2})
    host = token(tokens, 0, 1)
    actions = call(a, "/v1/games/raiders/legal-actions", {"state": state}, host).json["actions"]
    assert call(a, "/v1/games/raiders/apply", {"state": state, "action": actions[0]},
                host).status == 200
    refused_as_spent(call(b, "/v1/games/raiders/apply", {"state": state, "action": actions[1]},
                          host), state)


@pytest.mark.parametrize("fault", ["freeze", "kill"])
def test_a_register_that_does_not_answer_fails_closed(on_redis, fault):
    from service.games.registry import get_game
    from service.signing import signed

    a, _, redis_server = on_redis
    state, tokens = new_game(a, "raiders", options={"turn_limit": 2})
    host = token(tokens, 0, 1)
    actions = call(a, "/v1/games/raiders/legal-actions", {"state": state}, host).json["actions"]
    plain, _ = get_game("raiders").new_game(2, {"turn_limit": 2}, 3)
    plain_action = get_game("raiders").legal_actions(plain)[0]
    getattr(redis_server, fault)()
    try:
        for _ in range(3):  # the first waits for the timeout; the others fail at once
            began = time.monotonic()
            r = call(a, "/v1/games/raiders/apply", {"state": state, "action": actions[0]}, host)
            assert r.status == 503 and r.type == "/problems/step-register-unavailable", r.json
            assert r.headers["retry-after"] == "1" and "state" not in r.json
            assert time.monotonic() - began < 5
        # reads of the sealed state, and applies of states the register does not keep
        assert call(a, "/v1/games/raiders/legal-actions", {"state": state}, host).status == 200
        assert call(a, "/v1/games/raiders/score", {"state": state}).status == 200
        for kept_by_client in (plain, signed(plain, [SIGNING_KEY.encode()])):
            r = call(a, "/v1/games/raiders/apply", {"state": kept_by_client, "action": plain_action})
            assert r.status == 200, r.json
    finally:
        if fault == "freeze":
            redis_server.thaw()
        else:  # restarted empty: it has forgotten every spent step (docs/operations.md)
            redis_server.start()
    deadline = time.monotonic() + 10  # back: the register answers again (the breaker's probe)
    while True:
        r = call(a, "/v1/games/raiders/apply", {"state": state, "action": actions[0]}, host)
        if r.status == 200 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert r.status == 200, r.json


def test_a_replay_cannot_rebuild_the_sealed_line(server):
    """The other way to ask a step again: replay the game to it and play another action.
    With server seeds the seed is only in the seal, so a replay of the recorded actions
    under any seed the cheater can try is another game (another setup id): its states are
    never the sealed game's, and the standings count it as the game it is."""
    state, tokens = new_game(server, "raiders", options={"turn_limit": 2})
    assert "seed" not in orjson_text(state) and "seed" not in state["chance"]
    for seed in range(12):
        r = call(server, "/v1/games/raiders/replay",
                 {"setup": {"players": SEATS, "seed": seed, "options": {"turn_limit": 2}},
                  "actions": []})
        assert r.status == 200, r.json
        assert r.json["state"]["chain"]["setup"] != state["chain"]["setup"]
        assert r.json["state"]["chain"]["game"] != state["chain"]["game"]


def test_a_suggestion_reveals_no_chance_outcome(server):
    """An evaluation applies actions internally: ``suggest`` for seat 0 of a sealed state,
    with seat 0's token, searches determinizations of seat 0's view (a new chance seed
    each), so its answer is the answer from the view alone — the draw it would preview is
    not in it — and it spends nothing."""
    state, tokens = new_game(server)
    at_draw = host_until(server, "tremble", state, tokens, "draw_or_decline")[-1]
    params = {"player": 0, "seed": 3, "iterations": 40}
    from_state = call(server, "/v1/games/tremble/suggest", {"state": at_draw, "params": params},
                      token(tokens, 0))
    view = call(server, "/v1/games/tremble/view", {"state": at_draw, "player": 0},
                token(tokens, 0)).json["view"]
    from_view = call(server, "/v1/games/tremble/suggest", {"view": view, "params": params})
    assert from_state.status == 200 and from_view.status == 200, (from_state.json, from_view.json)
    for answer in (from_state.json, from_view.json):
        answer.pop("seconds", None)
        answer.pop("cpu_seconds", None)
    assert from_state.json["actions"] == from_view.json["actions"]
    first = own_actions(server, at_draw, tokens, 0)[0]
    assert call(server, "/v1/games/tremble/apply", {"state": at_draw, "action": first},
                token(tokens, 0)).status == 200  # the suggestion spent nothing


def orjson_text(state: dict[Any, Any]) -> str:
    import orjson

    return orjson.dumps({k: v for k, v in state.items() if k != "sealed"}).decode()
