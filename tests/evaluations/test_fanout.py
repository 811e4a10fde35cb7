"""Playouts fanned out over real RQ worker processes: both workers take
chunks, the aggregate equals the in-process result, a worker killed mid-job
is noticed and its chunk retried, a running job can be cancelled or removed."""

from __future__ import annotations

import time
from typing import Any

import pytest
import redis
from rq.job import Job

from service.games.registry import get_game

from .conftest import poll

ODDS = {"game": "tremble", "kind": "tremble.battle_odds", "strengths": [9, 12, 14]}


def playouts_request(playouts: int, chunk_size: int, seed: int = 42) -> dict[Any, Any]:
    state, _ = get_game("tremble").new_game(3, {"missions": False}, seed=5)
    return {"game": "tremble", "kind": "playouts", "state": state,
            "params": {"playouts": playouts, "chunk_size": chunk_size, "seed": seed,
                       "bots": "random", "player": 0}}


def chunk_jobs(url: str, eval_id: str, count: int) -> list[Job]:
    conn = redis.Redis.from_url(url)
    return [Job.fetch(f"ev-{eval_id}-{k}", connection=conn) for k in range(count)]


@pytest.fixture
def embedded_result(make_app):
    def run(body):
        client = make_app().test_client()
        r = client.post("/v1/evaluations", json=body)
        assert r.status_code == 202, r.json
        done = poll(client, r.headers["Location"], timeout=60)
        assert done["status"] == "finished", done
        return done["result"]
    return run


def test_fanout_two_workers_share_chunks_and_match_in_process(make_app, workers,
                                                              embedded_result):
    body = playouts_request(240, 20)
    client = make_app(workers.url).test_client()
    workers.start("w1")
    workers.start("w2")
    workers.wait_registered(2)
    r = client.post("/v1/evaluations", json=body)
    assert r.status_code == 202 and r.json["chunks"] == 12
    seen = set()
    deadline = time.monotonic() + 60
    while True:
        status = client.get(r.headers["Location"]).json
        assert 0 <= status["progress"] <= 1
        seen.add(status["status"])
        if status["status"] in ("finished", "failed"):
            break
        assert time.monotonic() < deadline, status
        time.sleep(0.02)
    assert status["status"] == "finished", status
    assert status["progress"] == 1 and status["incidents"] == []
    names = {j.worker_name for j in chunk_jobs(workers.url, status["id"], 12)}
    assert names == {"w1", "w2"}, names
    result = status["result"]
    assert result == embedded_result(body)
    assert result["playouts"] == 240 and result["finished"] + result["unfinished"] == 240
    assert sum(w["wins"] for w in result["win_rate"]) >= result["finished"]
    for w in result["win_rate"]:
        lo, hi = w["ci95"]
        assert lo <= w["rate"] <= hi
    assert sum(result["scores"][0]["histogram"]["counts"]) == result["finished"]


def test_killed_worker_is_detected_and_its_chunk_retried(make_app, workers, embedded_result):
    body = playouts_request(480, 60, seed=7)  # 8 chunks of ~0.5 s
    client = make_app(workers.url).test_client()
    w1 = workers.start("w1")
    workers.start("w2")
    workers.wait_registered(2)
    location = client.post("/v1/evaluations", json=body).headers["Location"]
    eval_id = location.rsplit("/", 1)[1]
    deadline = time.monotonic() + 30
    while not any(j.get_status() == "started" and j.worker_name == "w1"
                  for j in chunk_jobs(workers.url, eval_id, 8)):
        assert time.monotonic() < deadline, "w1 never started a chunk"
        time.sleep(0.02)
    workers.kill_machine(w1)  # the worker and its work horse: no cleanup runs
    other = client.post("/v1/evaluations", json=ODDS).headers["Location"]
    status = poll(client, location, timeout=60)
    assert status["status"] == "finished", status
    died = [i for i in status["incidents"] if i["event"] == "worker-died"]
    assert died and died[0]["worker"] == "w1" and "retried" in died[0]["detail"], status
    assert status["result"] == embedded_result(body)
    assert poll(client, other)["status"] == "finished"


def test_cancel_a_running_job(make_app, workers):
    client = make_app(workers.url).test_client()
    workers.start("w1")
    workers.wait_registered(1)
    location = client.post("/v1/evaluations",
                           json=playouts_request(2000, 250)).headers["Location"]
    poll(client, location, until=("started",))
    r = client.post(location + "/cancel")
    assert r.status_code == 200 and r.json["status"] == "canceled"
    assert r.json["progress"] < 1
    # the worker stops the running chunk at once (RQ's send_stop_job_command)
    odds = client.post("/v1/evaluations", json=ODDS).headers["Location"]
    began = time.monotonic()
    assert poll(client, odds, timeout=20)["status"] == "finished"
    assert time.monotonic() - began < 5
    assert client.get(location).json["status"] == "canceled"
    # a one-chunk evaluation (a single job) stops the same way
    single = client.post("/v1/evaluations", json=playouts_request(1600, 1600)).headers["Location"]
    poll(client, single, until=("started",))
    time.sleep(0.3)
    assert client.post(single + "/cancel").json["status"] == "canceled"
    time.sleep(0.5)
    after = client.get(single).json
    assert after["status"] == "canceled" and "result" not in after, after


def test_remove_a_running_job(make_app, workers):
    """DELETE while its chunks run: 204, then 404; the worker is free again
    at once and the evaluation's keys are gone (its jobs' end with them)."""
    client = make_app(workers.url).test_client()
    workers.start("w1")
    workers.wait_registered(1)
    location = client.post("/v1/evaluations",
                           json=playouts_request(2000, 250)).headers["Location"]
    eval_id = location.rsplit("/", 1)[1]
    poll(client, location, until=("started",))
    assert client.delete(location).status_code == 204
    assert client.get(location).status_code == 404
    assert client.post(location + "/cancel").status_code == 404
    odds = client.post("/v1/evaluations", json=ODDS).headers["Location"]
    began = time.monotonic()
    assert poll(client, odds, timeout=20)["status"] == "finished"
    assert time.monotonic() - began < 5
    conn = redis.Redis.from_url(workers.url)
    assert conn.exists(f"referee:evaluation:{eval_id}") == 0
    assert client.get(location).status_code == 404


def test_job_whose_workers_keep_dying_ends_failed_and_says_so(make_app, workers):
    """Retried once on another worker; when that worker dies too the
    evaluation is failed — reported as such, never left "started"."""
    client = make_app(workers.url).test_client()
    body = playouts_request(1600, 1600, seed=3)  # one chunk (the most a chunk may hold): a job of seconds
    location = client.post("/v1/evaluations", json=body).headers["Location"]
    eval_id = location.rsplit("/", 1)[1]
    conn = redis.Redis.from_url(workers.url)
    for name in ("w1", "w2"):
        proc = workers.start(name)
        deadline = time.monotonic() + 30
        while True:
            job = Job.fetch(f"ev-{eval_id}", connection=conn)
            if job.get_status() == "started" and job.worker_name == name:
                break
            assert time.monotonic() < deadline, f"{name} never started the job"
            client.get(location)  # polling is what notices a dead worker
            time.sleep(0.05)
        workers.kill_machine(proc)
    status = poll(client, location, timeout=30)
    assert status["status"] == "failed", status
    assert "died" in status["error"]["detail"], status["error"]
    assert status["error"]["status"] == 500
    details = [i["detail"] for i in status["incidents"]]
    assert len(details) == 2 and "retried" in details[0] and "failed" in details[1], details


def test_surviving_worker_reaps_a_dead_one_without_any_poll(make_app, workers):
    """Nobody polls the evaluation: the surviving worker's maintenance
    (workers.worker.RefereeWorker; every 15 s by default, 2 s here) retries
    the dead worker's chunk."""
    body = playouts_request(480, 60, seed=9)
    client = make_app(workers.url).test_client()
    w1 = workers.start("w1")
    workers.start("w2", REFEREE_WORKER_MAINTENANCE="2")
    workers.wait_registered(2)
    location = client.post("/v1/evaluations", json=body).headers["Location"]
    eval_id = location.rsplit("/", 1)[1]
    conn = redis.Redis.from_url(workers.url)
    deadline = time.monotonic() + 30
    while not any(j.get_status() == "started" and j.worker_name == "w1"
                  for j in chunk_jobs(workers.url, eval_id, 8)):
        assert time.monotonic() < deadline, "w1 never started a chunk"
        time.sleep(0.02)
    workers.kill_machine(w1)
    deadline = time.monotonic() + 45
    while Job.fetch(f"ev-{eval_id}", connection=conn).get_status() != "finished":
        assert time.monotonic() < deadline, "the dead worker's chunk was never retried"
        time.sleep(0.2)
    status = client.get(location).json
    assert status["status"] == "finished"
    assert [i["worker"] for i in status["incidents"]] == ["w1"], status["incidents"]


def test_suggest_fans_out_over_two_workers_and_matches_in_process(make_app, workers,
                                                                   embedded_result):
    """Issue 15: a large ``suggest`` budget is root-parallel on RQ — both workers
    search chunks (independent determinizations), and the summed root statistics
    rank the actions exactly as one in-process search of the same request does."""
    from tests.evaluations.test_suggest import position

    state, player = position("raiders")
    body = {"game": "raiders", "kind": "suggest", "state": state,
            "params": {"player": player, "seed": 5, "iterations": 96, "chunk_size": 8,
                       "rollout_depth": 2}}
    client = make_app(workers.url).test_client()
    workers.start("w1")
    workers.start("w2")
    workers.wait_registered(2)
    r = client.post("/v1/evaluations", json=body)
    assert r.status_code == 202 and r.json["chunks"] == 12, r.json
    status = poll(client, r.headers["Location"], timeout=90)
    assert status["status"] == "finished" and status["incidents"] == [], status
    names = {j.worker_name for j in chunk_jobs(workers.url, status["id"], 12)}
    assert names == {"w1", "w2"}, names
    result, alone = status["result"], embedded_result(body)
    assert result["iterations"] == 96 == sum(a["visits"] for a in result["actions"])
    listed = get_game("raiders").legal_actions(state, player)
    assert sorted(map(repr, (a["action"] for a in result["actions"]))) == \
        sorted(map(repr, listed))
    drop = {"cpu_ms"}
    assert {k: v for k, v in result.items() if k not in drop} == \
        {k: v for k, v in alone.items() if k not in drop}
