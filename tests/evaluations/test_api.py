"""The evaluation API on both runners: embedded (no Redis) and RQ with real
worker processes.  Same routes, same shapes."""

from __future__ import annotations

import time

import pytest
import redis
from flask.testing import FlaskClient

from service.games.objects import JsonObject

from .conftest import poll, text

ODDS = {"game": "tremble", "kind": "tremble.battle_odds", "strengths": [16, 17], "army": 20}


def test_sync_odds_tre20_hand_case(make_app):
    """TRE-20 over HTTP: 16 vs 17 → 435/1156 and 721/1156."""
    client = make_app().test_client()
    r = client.post("/v1/games/tremble/odds", json={"strengths": [16, 17]})
    assert r.status_code == 200
    assert r.json["win_exact"] == ["435/1156", "721/1156"]
    assert r.json["win"] == pytest.approx([435 / 1156, 721 / 1156])
    assert [d["total"] for d in r.json["totals"][0]["distribution"]] == list(range(18, 29))


def test_sync_odds_from_fleets_and_city_applies_tre29(make_app):
    """TRE-21's worked example: saucer + tripod (16) against cruiser + tripod
    at a culture city (17, with the TRE-29 bonuses)."""
    client = make_app().test_client()
    r = client.post("/v1/games/tremble/odds", json={
        "fleets": [["S-SAUCER", "S-TRIPOD-A"], ["S-CRUISER", "S-TRIPOD-B"]], "city": "C-MOSCOW"})
    assert r.status_code == 200, r.json
    assert r.json["strengths"] == [16, 17]
    assert r.json["win_exact"] == ["435/1156", "721/1156"]


@pytest.mark.parametrize("body, field", [
    ({"strengths": []}, "strengths"),
    ({"strengths": [1, 2, 3, 4, 5, 6]}, "strengths"),
    ({"strengths": [16, "x"]}, "strengths.1"),
    ({"strengths": [16, 17], "city": "C-MOSCOW"}, "city"),
    ({"fleets": [["S-SAUCER"]]}, "city"),
    ({"fleets": [["S-NOPE"]], "city": "C-MOSCOW"}, "fleets.0.0"),
    ({"fleets": [["S-SAUCER"]], "city": "C-ATLANTIS"}, "city"),
    ({}, "strengths"),
    ({"strengths": [1], "extra": 1}, "extra"),
])
def test_sync_odds_refuses_bad_input(make_app, body, field):
    r = make_app().test_client().post("/v1/games/tremble/odds", json=body)
    assert r.status_code == 400
    assert r.mimetype == "application/problem+json"
    assert field in r.json["errors"], r.json


INVALID: list[tuple[JsonObject, int, str]] = [
    ({"game": "tremble", "kind": "no.such.kind"}, 400, "kind"),
    ({"game": "chess", "kind": "playouts"}, 400, "game"),
    ({"game": "raiders", "kind": "tremble.battle_odds", "strengths": [1, 2]}, 400, "kind"),
    ({"game": "tremble", "kind": "tremble.battle_odds", "strengths": [1, 2], "bogus": 1}, 400,
     "bogus"),
    ({"game": "tremble", "kind": "tremble.battle_odds", "strengths": [1, 2],
      "params": {"x": 1}}, 400, "params.x"),
    ({"game": "raiders", "kind": "playouts"}, 400, "state"),
    ({"game": "raiders", "kind": "playouts", "state": {"game": "raiders"}}, 400,
     "state.rules_version"),
    ({"game": "raiders", "kind": "playouts", "state": {}, "params": {"playouts": 10 ** 9}}, 400,
     "params.playouts"),
]


def _check_invalid(client: FlaskClient, body: JsonObject, status: int, field: str) -> None:
    r = client.post("/v1/evaluations", json=body)
    problem = r.get_json()
    assert r.status_code == status, problem
    assert r.mimetype == "application/problem+json"
    assert field in problem.get("errors", {}), problem
    assert "Location" not in r.headers


@pytest.mark.parametrize("body, status, field", INVALID)
def test_invalid_submissions_are_refused_embedded(make_app, body, status, field):
    _check_invalid(make_app().test_client(), body, status, field)


def test_invalid_submissions_queue_nothing_on_rq(make_app, fresh_redis):
    client = make_app(fresh_redis).test_client()
    for body, status, field in INVALID:
        _check_invalid(client, body, status, field)
    r = client.post("/v1/evaluations", data=b"{not json", content_type="application/json")
    assert r.status_code == 400
    assert redis.Redis.from_url(fresh_redis).keys("*") == []


@pytest.mark.parametrize("backend", ["embedded", "rq"])
def test_unknown_ids_are_404(make_app, fresh_redis, backend):
    client = make_app(fresh_redis if backend == "rq" else None).test_client()
    for eval_id in ("0" * 32, "not-an-id", "ev-1"):
        for r in (client.get(f"/v1/evaluations/{eval_id}"),
                  client.delete(f"/v1/evaluations/{eval_id}"),
                  client.post(f"/v1/evaluations/{eval_id}/cancel")):
            assert r.status_code == 404, r.json
            assert r.json["type"].endswith("/unknown-evaluation")


def test_odds_job_embedded_shape(make_app):
    client = make_app().test_client()
    r = client.post("/v1/evaluations", json=ODDS)
    assert r.status_code == 202
    assert r.headers["Location"] == f"/v1/evaluations/{r.json['id']}"
    assert int(r.headers["Retry-After"]) >= 1
    body = poll(client, r.headers["Location"])
    assert body["status"] == "finished" and body["progress"] == 1
    assert body["result"]["win_exact"] == ["435/1156", "721/1156"]
    assert body["result"]["hold_exact"] == ["11/12", "35/36"]
    assert body["expires_at"] > body["finished_at"] >= body["submitted_at"]


def test_odds_job_on_an_rq_worker(make_app, workers):
    client = make_app(workers.url).test_client()
    r = client.post("/v1/evaluations", json=ODDS)
    assert r.status_code == 202
    assert r.json["status"] == "queued" and r.json["progress"] == 0
    workers.start("w1")
    body = poll(client, r.headers["Location"])
    assert body["status"] == "finished", body
    assert body["result"] == client.post("/v1/games/tremble/odds", json={
        "strengths": [16, 17], "army": 20}).json
    assert body["expires_at"] > body["finished_at"]
    # finished: nothing left to cancel, and the outcome stays as it is
    location = r.headers["Location"]
    r = client.post(location + "/cancel")
    assert r.status_code == 409 and r.json["type"].endswith("/evaluation-over")
    assert client.get(location).json == body
    # removed: every method answers 404, and nothing of it is left in Redis
    assert client.delete(location).status_code == 204
    assert client.get(location).status_code == 404
    assert client.delete(location).status_code == 404
    left = redis.Redis.from_url(workers.url).keys(f"*{body['id']}*")
    assert not [k for k in left if not text(k).endswith(":cancel")], left


@pytest.mark.parametrize("backend", ["embedded", "rq"])
def test_expired_results_answer_410(make_app, workers, backend):
    url = workers.url if backend == "rq" else None
    client = make_app(url, EVALUATION_RESULT_TTL=1).test_client()
    if url:
        workers.start("w1")
    r = client.post("/v1/evaluations", json=ODDS)
    poll(client, r.headers["Location"])
    deadline = time.monotonic() + 10
    while client.get(r.headers["Location"]).status_code == 200:
        assert time.monotonic() < deadline, "never expired"
        time.sleep(0.1)
    gone = client.get(r.headers["Location"])
    assert gone.status_code == 410, gone.json
    assert gone.json["type"].endswith("/evaluation-expired")
    assert "(at 20" in gone.json["detail"], gone.json  # says when it expired
    assert client.post(r.headers["Location"] + "/cancel").status_code == 410
    # removing it forgets even that it existed
    assert client.delete(r.headers["Location"]).status_code == 204
    assert client.get(r.headers["Location"]).status_code == 404


def test_cancel_a_queued_job_on_rq(make_app, workers):
    client = make_app(workers.url).test_client()
    r = client.post("/v1/evaluations", json=ODDS)
    location = r.headers["Location"]
    d = client.post(location + "/cancel")
    assert d.status_code == 200 and d.json["status"] == "canceled"
    workers.start("w1")
    workers.wait_registered(1)
    other = client.post("/v1/evaluations", json=ODDS).headers["Location"]
    assert poll(client, other)["status"] == "finished"
    # the cancelled one never ran
    assert client.get(location).json["status"] == "canceled"
    assert client.get(location).json["started_at"] is None
    assert client.post(location + "/cancel").status_code == 200  # idempotent


def test_redis_down_is_503_not_500(make_app):
    from .conftest import free_port_url

    client = make_app(free_port_url()).test_client()
    r = client.post("/v1/evaluations", json=ODDS)
    assert r.status_code == 503, r.json
    assert r.json["type"].endswith("/evaluation-backend-unavailable")
    assert client.get("/v1/evaluations/" + "0" * 32).status_code == 503
