"""A bot reads, stops or removes another client's evaluation by its id.

The attack (issue 34, item 4): with ``REFEREE_API_KEYS=alice,bob``, Alice
submits a ``suggest`` for seat 0 of a sealed state, with seat 0's token.  Bob —
another API key, no token — ``GET``s its id: the result ranked seat 0's
actions, each naming a card of seat 0's hidden hand.  Bob cancelled Alice's
running job (200) and deleted it (204).  An id was all it took, on either
runner.

The answer: an evaluation belongs to whoever made it.  Its record keeps a
digest of the submitting API key (``service.http.evaluations.owner_digest``),
and every route that takes an id answers only that key — to any other, or to
none, the same 404 as an id never issued, so an id's existence does not leak.
An evaluation of a sealed state keeps the game id and the seat it was asked
for, and answers only with that seat's token (or every seat's): 403
``seat-token-required`` otherwise, whatever its status.  Without API keys an id
is a bearer capability (docs/trust.md), but a sealed one still needs its token.

Played for real against the Procfile's gunicorn (2 workers) on both runners:
embedded (the SQLite store the workers share) and RQ (a real redis-server and
two real ``rq`` workers); the breadth — expiry, key rotation, no API keys —
in process, on both runners too.
"""

from __future__ import annotations

import contextlib
import uuid
from typing import Any

import orjson
import pytest

from bench.slow_clients import served
from service import sealing
from tests.evaluations.conftest import Workers
from tests.trust.conftest import Answer, call

KEY = "evaluation-owner-sealing-key"
HEADER = "Referee-Seat-Token"
ALICE, BOB = "alice-key-0123456789", "bob-key-9876543210"
SETTINGS = {"REFEREE_API_KEYS": f"{ALICE},{BOB}", "REFEREE_SEALING_KEYS": KEY,
            "REFEREE_SERVER_SEEDS": "1", "REFEREE_ACCESS_LOG": "0"}


def ask(url: str, method: str, path: str, body: dict[Any, Any] | None = None,
        headers: list[tuple[str, str]] = ()) -> Answer:
    """One request over a real connection; ``body``, if any, as JSON."""
    return call(url, path, body, headers, method)


def key(name: str, token: str | None = None) -> list[tuple[str, str]]:
    return [("X-API-Key", name)] + ([(HEADER, token)] if token else [])


def _strings(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values()), set(value))
    if isinstance(value, list):
        return set().union(set(), *(_strings(v) for v in value))
    return set()


def _as_unknown(answer: Answer, eval_id: str) -> tuple[Any, ...]:
    """What an answer shows but its request id, with ``eval_id`` written as ``ID``: an
    evaluation that is not the caller's must answer exactly as an unknown id."""
    body = {k: v for k, v in answer.json.items() if k != "instance"}
    shown = orjson.loads(orjson.dumps(body).replace(eval_id.encode(), b"ID"))
    headers = {k: v for k, v in answer.headers.items() if k not in ("x-request-id", "date")}
    return answer.status, shown, headers


# --------------------------------------------------------- the servers, for real
@pytest.fixture(scope="module", params=["embedded", "rq"])
def server(request, redis_url, tmp_path_factory):
    """The service under the Procfile's gunicorn with API keys and sealing keys: on the
    embedded runner, or on RQ with two real workers."""
    import redis

    tmp = tmp_path_factory.mktemp(f"owner-{request.param}")
    env = dict(SETTINGS)
    with contextlib.ExitStack() as stack:
        if request.param == "rq":
            redis.Redis.from_url(redis_url).flushdb()
            env["REDIS_URL"] = redis_url
            pool = Workers(redis_url, tmp)
            stack.callback(redis.Redis.from_url(redis_url).flushdb)
            stack.callback(pool.stop_all)
            pool.start("owner-w1")
            pool.start("owner-w2")
            pool.wait_registered(2)
        else:
            env["REFEREE_EVALUATION_STORE"] = str(tmp / "evaluations.sqlite3")
        yield stack.enter_context(served(tmp / "gunicorn.log", None, env))


@pytest.fixture(scope="module")
def game(server):
    r = ask(server, "POST", "/v1/games/raiders/new",
            {"players": [{"name": "Ann"}, {"name": "Bob"}], "options": {"turn_limit": 3}})
    assert r.status == 200 and len(r.json["seat_tokens"]) == 2, r.json
    hand = sealing.open_sealed(r.json["state"], sealing.parse_keys(KEY))["players"][0]["hand"]
    return r.json["state"], r.json["seat_tokens"], set(hand)


def submit(server: str, body: dict[Any, Any], headers: list[tuple[str, str]]) -> str:
    r = ask(server, "POST", "/v1/evaluations", body, headers)
    assert r.status == 202, r.json
    return r.headers["location"]


def suggest(state: dict[Any, Any], iterations: int = 8) -> dict[Any, Any]:
    return {"game": "raiders", "kind": "suggest", "state": state,
            "params": {"player": 0, "iterations": iterations, "seed": 1}}


def wait(server: str, location: str, headers, until=("finished", "failed", "canceled"),
         seconds: float = 60) -> dict[Any, Any]:
    import time

    deadline = time.monotonic() + seconds
    while True:
        r = ask(server, "GET", location, headers=headers)
        assert r.status == 200, r.json
        if r.json["status"] in until:
            return r.json
        assert time.monotonic() < deadline, r.json
        time.sleep(0.1)


def test_another_key_learns_nothing_of_a_sealed_suggestion(server, game):
    """The attack: Bob reads Alice's suggestion for seat 0 — before, seat 0's hand; now
    the 404 of an id never issued, with or without seat 0's token, on every route."""
    state, tokens, hand = game
    alice = key(ALICE, tokens[0])
    location = submit(server, suggest(state), alice)
    eval_id = location.rsplit("/", 1)[1]
    done = wait(server, location, alice)
    assert done["status"] == "finished" and _strings(done["result"]) & hand  # what is at stake
    guessed = "/v1/evaluations/" + uuid.uuid4().hex
    for method, suffix in (("GET", ""), ("POST", "/cancel"), ("DELETE", "")):
        unknown = _as_unknown(ask(server, method, guessed + suffix, headers=key(BOB)),
                              guessed.rsplit("/", 1)[1])
        assert unknown[0] == 404 and unknown[1]["type"] == "/problems/unknown-evaluation"
        for headers in (key(BOB), key(BOB, tokens[0]), key(BOB, ",".join(tokens))):
            r = ask(server, method, location + suffix, headers=headers)
            assert _as_unknown(r, eval_id) == unknown, (method, suffix, r.json)
            assert not _strings(r.json) & hand
        r = ask(server, method, location + suffix)  # no key at all
        assert r.status == 401 and r.type == "/problems/unauthorized"
    again = ask(server, "GET", location, headers=alice)  # Alice's is untouched
    assert again.status == 200 and again.json["result"] == done["result"]


def test_the_owner_reads_it_only_with_the_seat_token_it_was_asked_for(server, game):
    """Alice's own key without seat 0's token (none, seat 1's, an edited one) is refused
    before anything of the evaluation is read; seat 0's or the host's tokens answer."""
    state, tokens, hand = game
    location = submit(server, suggest(state), key(ALICE, tokens[0]))
    done = wait(server, location, key(ALICE, tokens[0]))
    edited = tokens[0][:-2] + ("AA" if not tokens[0].endswith("AA") else "BB")
    for token, slug in ((None, "seat-token-required"), (tokens[1], "seat-token-required"),
                        (edited, "bad-seat-token")):
        for method, suffix in (("GET", ""), ("POST", "/cancel"), ("DELETE", "")):
            r = ask(server, method, location + suffix, headers=key(ALICE, token))
            assert r.status == 403 and r.type == f"/problems/{slug}", (token, method, r.json)
            assert not _strings(r.json) & hand
    host = ask(server, "GET", location, headers=key(ALICE, ",".join(tokens)))
    assert host.status == 200 and host.json["result"] == done["result"]
    r = ask(server, "DELETE", location, headers=key(ALICE, tokens[0]))
    assert r.status == 204
    assert ask(server, "GET", location, headers=key(ALICE, tokens[0])).status == 404


def test_another_key_cannot_stop_a_running_evaluation(server, game):
    """Bob's cancel and delete of Alice's running job: before 200 and 204, the job gone;
    now 404 and 404, and it runs on until Alice stops it."""
    state, tokens, _ = game
    alice = key(ALICE, tokens[0])
    location = submit(server, suggest(state, iterations=100_000), alice)
    wait(server, location, alice, until=("started",))
    assert ask(server, "POST", location + "/cancel", headers=key(BOB, tokens[0])).status == 404
    assert ask(server, "DELETE", location, headers=key(BOB, tokens[0])).status == 404
    r = ask(server, "GET", location, headers=alice)
    assert r.status == 200 and r.json["status"] == "started", r.json
    r = ask(server, "POST", location + "/cancel", headers=alice)
    assert r.status == 200 and r.json["status"] == "canceled", r.json
    assert ask(server, "DELETE", location, headers=alice).status == 204
    assert ask(server, "GET", location, headers=alice).status == 404


def test_a_plain_evaluation_is_its_keys_alone_and_needs_no_token(server):
    location = submit(server, {"game": "tremble", "kind": "tremble.battle_odds",
                               "strengths": [16, 17]}, key(ALICE))
    done = wait(server, location, key(ALICE))
    assert done["result"]["win_exact"] == ["435/1156", "721/1156"]
    r = ask(server, "GET", location, headers=key(BOB))
    assert r.status == 404 and r.type == "/problems/unknown-evaluation"
    r = ask(server, "GET", location, headers=[("Authorization", f"Bearer {ALICE}")])
    assert r.status == 200 and r.json["result"] == done["result"]  # the key, however sent


# --------------------------------------------------------- the breadth, in process
@pytest.fixture(params=["embedded", "rq"])
def app_config(request, tmp_path, redis_url):
    """The app config of one runner; two apps made from it share its evaluations."""
    import redis

    if request.param == "rq":
        redis.Redis.from_url(redis_url).flushdb()
        yield {"REDIS_URL": redis_url}
        redis.Redis.from_url(redis_url).flushdb()
    else:
        yield {"EVALUATION_DB": str(tmp_path / "evaluations.sqlite3")}


def _odds(client, headers: dict[Any, Any]) -> str:
    r = client.post("/v1/evaluations", json={"game": "tremble", "kind": "tremble.battle_odds",
                                             "strengths": [16, 17]}, headers=headers)
    assert r.status_code == 202, r.json
    return r.headers["Location"]


def test_without_api_keys_an_id_is_a_bearer_capability(make_client, app_config):
    """No API keys: whoever holds the id reads, cancels and removes the evaluation (the
    docs say so) — but one of a sealed state still answers only to its seat's token."""
    client = make_client(SEALING_KEYS=KEY, **app_config)
    location = _odds(client, {})
    assert client.get(location, headers={"X-API-Key": "anything"}).status_code == 200
    assert client.delete(location).status_code == 204
    new = client.post("/v1/games/raiders/new", json={"players": 2, "seed": 5}).json
    r = client.post("/v1/evaluations", json=suggest(new["state"]),
                    headers={HEADER: new["seat_tokens"][0]})
    assert r.status_code == 202, r.json
    for token in (None, new["seat_tokens"][1]):
        got = client.get(r.headers["Location"], headers={HEADER: token} if token else {})
        assert got.status_code == 403 and got.json["type"] == "/problems/seat-token-required"
    got = client.get(r.headers["Location"], headers={HEADER: new["seat_tokens"][0]})
    assert got.status_code == 200, got.json
    host = {HEADER: ",".join(new["seat_tokens"])}  # playouts read every hand: the host's
    r = client.post("/v1/evaluations", headers=host, json={
        "game": "raiders", "kind": "playouts", "state": new["state"],
        "params": {"playouts": 4, "seed": 1}})
    assert r.status_code == 202, r.json
    for token in new["seat_tokens"]:
        got = client.delete(r.headers["Location"], headers={HEADER: token})
        assert got.status_code == 403 and got.json["type"] == "/problems/seat-token-required"
    assert client.delete(r.headers["Location"], headers=host).status_code == 204


def test_an_expired_evaluation_is_404_to_anyone_but_its_owner(make_client, app_config):
    """410 tells its owner it expired; to anyone else it is an id never issued."""
    import time

    import redis

    client = make_client(API_KEYS=f"{ALICE},{BOB}", EVALUATION_RESULT_TTL=1, **app_config)
    location = _odds(client, {"X-API-Key": ALICE})
    eval_id = location.rsplit("/", 1)[1]
    if "REDIS_URL" in app_config:  # no worker here: its job expires as RQ's TTL would end it
        redis.Redis.from_url(app_config["REDIS_URL"]).delete(f"rq:job:ev-{eval_id}")
    else:
        deadline = time.monotonic() + 30
        while client.get(location, headers={"X-API-Key": ALICE}).json.get("status") != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(1.1)
    r = client.get(location, headers={"X-API-Key": ALICE})
    assert r.status_code == 410 and r.json["type"] == "/problems/evaluation-expired", r.json
    for method in ("get", "delete"):
        r = getattr(client, method)(location, headers={"X-API-Key": BOB})
        assert r.status_code == 404 and r.json["type"] == "/problems/unknown-evaluation"
    r = client.post(location + "/cancel", headers={"X-API-Key": BOB})
    assert r.status_code == 404


def test_a_key_rotated_out_takes_its_evaluations_with_it(make_client, app_config):
    """An evaluation belongs to a key, not to a person: once Alice's key is rotated out
    (another instance, the same store), the old key is 401 and her new key's 404."""
    before = make_client(API_KEYS=f"{ALICE},{BOB}", **app_config)
    location = _odds(before, {"X-API-Key": ALICE})
    after = make_client(API_KEYS=f"{ALICE}-new,{BOB}", **app_config)
    assert after.get(location, headers={"X-API-Key": ALICE}).status_code == 401
    r = after.get(location, headers={"X-API-Key": f"{ALICE}-new"})
    assert r.status_code == 404 and r.json["type"] == "/problems/unknown-evaluation"
    assert after.get(location, headers={"X-API-Key": BOB}).status_code == 404
    both = make_client(API_KEYS=f"{ALICE}-new,{ALICE},{BOB}", **app_config)  # while both work
    assert both.get(location, headers={"X-API-Key": ALICE}).status_code == 200
