"""``Idempotency-Key`` on ``POST /v1/evaluations`` (issue 36, item 6).

Before: a retried submission (a timeout, a lost answer) made a second job.  Now the
same key with the same body answers the evaluation the first made (202, the same id
and ``Location``), on either runner and whichever gunicorn worker takes the retry; the
same key with another body is 422 ``idempotency-key-reused`` (en and ru); a key is the
API key's own when keys are configured; it lives in the shared store (the SQLite file,
or Redis) as long as its evaluation answers.  Concurrent duplicates make one job.
"""

from __future__ import annotations

import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis

from tests.evaluations.conftest import poll
from tests.trust.conftest import call

BODY = {"game": "tremble", "kind": "tremble.battle_odds", "strengths": [16, 17]}
OTHER = {**BODY, "strengths": [15, 17]}


@pytest.fixture(params=["embedded", "redis"])
def client(request, make_app):
    if request.param == "embedded":
        return make_app().test_client()
    url = request.getfixturevalue("fresh_redis")
    return make_app(url).test_client()


def _submit(client, body, key, **headers):
    return client.post("/v1/evaluations", json=body, headers={"Idempotency-Key": key, **headers})


def test_the_same_key_and_body_answer_the_same_evaluation(client):
    first = _submit(client, BODY, '"retry-1"')
    again = _submit(client, BODY, "retry-1")  # a bare token is the same key
    assert first.status_code == again.status_code == 202
    assert first.json["id"] == again.json["id"]
    assert first.headers["Location"] == again.headers["Location"]
    assert again.headers["Retry-After"]
    assert _submit(client, BODY, "retry-2").json["id"] != first.json["id"]
    assert client.post("/v1/evaluations", json=BODY).json["id"] != first.json["id"]


def test_the_same_key_with_another_body_is_422_in_en_and_ru(client):
    first = _submit(client, BODY, "k")
    for language, title in (("en", "Idempotency key reused"),
                            ("ru", "Ключ идемпотентности уже использован")):
        r = _submit(client, OTHER, "k", **{"Accept-Language": language})
        assert r.status_code == 422 and r.mimetype == "application/problem+json", r.json
        assert r.json["type"] == "/problems/idempotency-key-reused"
        assert r.json["title"] == title and r.headers["Content-Language"] == language
        assert list(r.json["errors"]) == ["headers.Idempotency-Key"]
    assert _submit(client, BODY, "k").json["id"] == first.json["id"]  # the key still holds


def test_a_removed_evaluation_frees_its_key(client):
    first = _submit(client, BODY, "k")
    assert client.delete(first.headers["Location"]).status_code == 204
    again = _submit(client, OTHER, "k")
    assert again.status_code == 202 and again.json["id"] != first.json["id"]


def test_a_malformed_key_is_400_naming_the_header(client):
    for bad in ("two words", '""', "x" * 256, '"unclosed'):
        r = _submit(client, BODY, bad)
        assert r.status_code == 400 and list(r.json["errors"]) == ["headers.Idempotency-Key"], bad


def test_keys_are_scoped_per_api_key(make_app):
    client = make_app(API_KEYS="alice,bob").test_client()
    alice = {"Authorization": "Bearer alice"}
    mine = _submit(client, BODY, "k", **alice)
    assert _submit(client, BODY, "k", **alice).json["id"] == mine.json["id"]
    theirs = _submit(client, OTHER, "k", **{"X-API-Key": "bob"})  # bob's own "k": no 422
    assert theirs.status_code == 202 and theirs.json["id"] != mine.json["id"]


def test_the_key_expires_with_its_evaluation(make_app):
    client = make_app(EVALUATION_RESULT_TTL=1).test_client()
    first = _submit(client, BODY, "k")
    poll(client, first.headers["Location"])
    time.sleep(1.1)  # its result expired: 410, and the key is free
    assert client.get(first.headers["Location"]).status_code == 410
    again = _submit(client, OTHER, "k")
    assert again.status_code == 202 and again.json["id"] != first.json["id"]


def test_two_processes_share_the_key(make_app):
    """Two apps on one store, as two gunicorn workers: the key is in the file."""
    one, two = make_app().test_client(), make_app().test_client()
    first = _submit(one, BODY, "k")
    assert _submit(two, BODY, "k").json["id"] == first.json["id"]
    assert _submit(two, OTHER, "k").status_code == 422


# ------------------------------------------------- real gunicorn, 2 workers
def _storm(url: str, key: str, n: int = 24) -> list[Any]:
    with ThreadPoolExecutor(n) as pool:
        return list(pool.map(lambda _: call(url, "/v1/evaluations", BODY,
                                            [("Idempotency-Key", key)]), range(n)))


@pytest.fixture
def gunicorn(tmp_path):
    from bench import servers

    def start(env):
        return servers.gunicorn(servers.SERVICE_APP, tmp_path / "gunicorn.log",
                                {"REFEREE_ACCESS_LOG": "0", **env})
    return start


def test_concurrent_duplicates_make_one_job_under_gunicorn_embedded(gunicorn, tmp_path):
    store = tmp_path / "evaluations.sqlite3"
    with gunicorn({"REFEREE_EVALUATION_STORE": str(store)}) as url:
        answers = _storm(url, "storm-1")
        assert {a.status for a in answers} == {202}, [a.json for a in answers]
        assert len({a.json["id"] for a in answers}) == 1
        assert len({a.headers["location"] for a in answers}) == 1
        other = call(url, "/v1/evaluations", OTHER, [("Idempotency-Key", "storm-1")])
        assert other.status == 422 and other.type == "/problems/idempotency-key-reused"
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT COUNT(*) FROM evaluations").fetchone()[0] == 1


def test_concurrent_duplicates_make_one_job_under_gunicorn_with_redis(gunicorn, fresh_redis):
    with gunicorn({"REDIS_URL": fresh_redis}) as url:
        answers = _storm(url, "storm-2")
        assert {a.status for a in answers} == {202}, [a.json for a in answers]
        assert len({a.json["id"] for a in answers}) == 1
        other = call(url, "/v1/evaluations", OTHER, [("Idempotency-Key", "storm-2")])
        assert other.status == 422 and other.type == "/problems/idempotency-key-reused"
    conn = redis.Redis.from_url(fresh_redis)
    records = [k for k in conn.scan_iter("referee:evaluation:*") if k.count(b":") == 2]
    assert len(records) == 1, records
    assert conn.llen("rq:queue:referee") == 1  # one job queued (no worker runs it)
