"""The embedded runner (no Redis): one SQLite record per evaluation, shared by
every process of the service (gunicorn runs several workers)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from typing import Any

from service.games.registry import get_game

from .conftest import poll


def _long_playouts() -> dict[Any, Any]:
    state, _ = get_game("tremble").new_game(3, {"missions": False}, seed=5)
    return {"game": "tremble", "kind": "playouts", "state": state,
            "params": {"playouts": 3000, "chunk_size": 100, "seed": 3, "bots": "random"}}


def test_two_processes_share_evaluations(make_app):
    """Submitted to one app (one gunicorn worker), read, cancelled and removed
    through another with the same EVALUATION_DB."""
    a, b = make_app().test_client(), make_app().test_client()
    r = a.post("/v1/evaluations", json={"game": "tremble", "kind": "tremble.battle_odds",
                                        "strengths": [16, 17]})
    assert poll(b, r.headers["Location"])["result"]["win_exact"] == ["435/1156", "721/1156"]
    location = a.post("/v1/evaluations", json=_long_playouts()).headers["Location"]
    poll(b, location, until=("started",))
    d = b.post(location + "/cancel")
    assert d.status_code == 200 and d.json["status"] == "canceled", d.json
    seen_by_a = a.get(location).json
    assert seen_by_a["status"] == "canceled" and seen_by_a["progress"] < 1
    assert b.delete(location).status_code == 204
    assert a.get(location).status_code == 404 and a.delete(location).status_code == 404


def test_removing_a_running_evaluation_stops_it(make_app):
    """DELETE while it runs: 204, then 404 everywhere; the thread gives the
    evaluation up at its next progress report and writes nothing back."""
    client = make_app().test_client()
    location = client.post("/v1/evaluations", json=_long_playouts()).headers["Location"]
    poll(client, location, until=("started",))
    assert client.delete(location).status_code == 204
    runner = client.application.extensions["evaluations"]["runner"]
    time.sleep(0.5)
    assert client.get(location).status_code == 404
    assert runner.pool._work_queue.qsize() == 0
    db = sqlite3.connect(runner.db_path)
    assert db.execute("SELECT COUNT(*) FROM evaluations").fetchone()[0] == 0
    # both threads are free again: a new evaluation starts at once
    odds = client.post("/v1/evaluations", json={"game": "tremble", "kind": "tremble.battle_odds",
                                                "strengths": [16, 17]}).headers["Location"]
    assert poll(client, odds, timeout=5)["status"] == "finished"


def test_cancel_queued_embedded(make_app):
    client = make_app().test_client()
    # two long evaluations occupy both threads; the third waits in the queue
    busy = [client.post("/v1/evaluations", json=_long_playouts()).headers["Location"]
            for _ in range(2)]
    queued = client.post("/v1/evaluations", json=_long_playouts())
    assert queued.json["status"] == "queued"
    r = client.post(queued.headers["Location"] + "/cancel")
    assert r.json["status"] == "canceled" and r.json["started_at"] is None
    for location in busy:
        assert client.post(location + "/cancel").json["status"] == "canceled"
    time.sleep(0.2)
    assert client.get(queued.headers["Location"]).json["started_at"] is None


def test_an_evaluation_whose_process_died_is_failed(make_app, tmp_path):
    app = make_app()
    client = app.test_client()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    eval_id = "f" * 32
    with sqlite3.connect(str(tmp_path / "evaluations.sqlite3")) as db:
        client.get("/v1/evaluations/kinds")  # creates the runner and its table
        db.execute("INSERT INTO evaluations (id, game, kind, status, chunks, pid, submitted_at, "
                   "started_at, beat_at) VALUES (?, 'tremble', 'playouts', 'started', 4, ?, ?, ?, ?)",
                   (eval_id, dead.pid, time.time() - 60, time.time() - 60, time.time() - 60))
    body = client.get(f"/v1/evaluations/{eval_id}").json
    assert body["status"] == "failed"
    assert "has stopped" in body["error"]["detail"]
    assert body["expires_at"] is not None


def test_too_many_waiting_is_503_and_kinds_are_listed(make_app):
    """Issue 11 item 6, embedded runner: with two evaluations running (both
    threads) and one of 30 chunks waiting, a 30-chunk submission would pass
    REFEREE_MAX_QUEUED=40: 503 with Retry-After, and nothing is recorded."""
    client = make_app(REFEREE_MAX_QUEUED=40).test_client()
    kinds = client.get("/v1/evaluations/kinds").json
    assert kinds["backend"] == "embedded"
    assert {k["kind"] for k in kinds["kinds"]} == {
        "tremble.battle_odds", "tremble.search_risk", "playouts", "suggest"}
    running = []
    for _ in range(2):
        r = client.post("/v1/evaluations", json=_long_playouts())
        assert r.status_code == 202 and r.json["chunks"] == 30
        running.append(r.headers["Location"])
        poll(client, running[-1], until=("started",))
    waiting = client.post("/v1/evaluations", json=_long_playouts())
    assert waiting.status_code == 202 and waiting.json["status"] == "queued"
    refused = client.post("/v1/evaluations", json=_long_playouts())
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "10"
    assert refused.json["type"].endswith("/evaluations-busy")
    assert "30 chunks are already waiting" in refused.json["detail"]
    small = client.post("/v1/evaluations", json={"game": "tremble",
                                                 "kind": "tremble.battle_odds",
                                                 "strengths": [9, 12]})
    assert small.status_code == 202  # 30 + 1 chunks stay within the cap
    db = sqlite3.connect(client.application.extensions["evaluations"]["runner"].db_path)
    assert db.execute("SELECT COUNT(*) FROM evaluations").fetchone()[0] == 4
    for location in running + [waiting.headers["Location"], small.headers["Location"]]:
        assert client.delete(location).status_code == 204
    assert db.execute("SELECT COUNT(*) FROM evaluations").fetchone()[0] == 0


#: the store's table as it was before evaluations kept whom they answer to (issue 34)
OLD_SCHEMA = """
CREATE TABLE evaluations (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL,
    progress REAL NOT NULL DEFAULT 0, chunks INTEGER NOT NULL, pid INTEGER NOT NULL,
    submitted_at REAL NOT NULL, started_at REAL, finished_at REAL, expires_at REAL,
    beat_at REAL NOT NULL, cancel INTEGER NOT NULL DEFAULT 0, result BLOB, error BLOB);
"""


def test_an_older_store_file_gains_the_owner_columns(make_app, tmp_path):
    """A store file written before owners were kept: opening it adds the columns (and
    ``CREATE TABLE IF NOT EXISTS`` alone would not); its rows answer as before, to any
    key — they have no owner — and new ones to their owner only."""
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path, isolation_level=None)
    old.executescript(OLD_SCHEMA)
    now = time.time()
    old.execute("INSERT INTO evaluations (id, game, kind, status, progress, chunks, pid, "
                "submitted_at, started_at, finished_at, expires_at, beat_at, result) VALUES "
                "(?, 'tremble', 'tremble.battle_odds', 'finished', 1, 1, 1, ?, ?, ?, ?, ?, ?)",
                ("a" * 32, now, now, now, now + 3600, now, b'{"win": [0.5, 0.5]}'))
    old.close()
    client = make_app(EVALUATION_DB=str(path), API_KEYS="alice,bob").test_client()
    r = client.get("/v1/evaluations/" + "a" * 32, headers={"X-API-Key": "bob"})
    assert r.status_code == 200 and r.json["result"] == {"win": [0.5, 0.5]}, r.json
    columns = {row[1] for row in sqlite3.connect(path).execute("PRAGMA table_info(evaluations)")}
    assert {"owner", "sealed"} <= columns
    r = client.post("/v1/evaluations", json={"game": "tremble", "kind": "tremble.battle_odds",
                                             "strengths": [16, 17]}, headers={"X-API-Key": "alice"})
    assert r.status_code == 202
    assert client.get(r.headers["Location"], headers={"X-API-Key": "bob"}).status_code == 404
    owner = sqlite3.connect(path).execute("SELECT owner FROM evaluations WHERE id = ?",
                                          (r.json["id"],)).fetchone()[0]
    assert owner and "alice" not in owner  # a digest, never the key
