"""Issue 11 item 2: a Redis outage must not stop the evaluation workers for
good.  The workers run exactly as deployed — the Procfile's ``worker`` line —
against a redis-server of this test (append-only file, so that a kill -9
loses nothing), which is killed mid-job and started again on the same port.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from rq import Queue
from rq.job import Job

from service.evaluations.rq_runner import QUEUE

from .conftest import REPO, kill_tree, poll
from .test_fanout import ODDS, playouts_request

OUTAGE_SECONDS = 5


class RedisServer:
    """A redis-server on a fixed port and directory that can be killed and restarted."""

    def __init__(self, workdir: Path, port: int):
        self.workdir, self.port = workdir, port
        self.url = f"redis://127.0.0.1:{port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("redis-server is not installed", pytrace=False)
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "yes", "--appendfsync", "always", "--dir", str(self.workdir)],
            stdout=(self.workdir / "redis.log").open("ab"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 15
        while True:
            try:
                if redis.Redis.from_url(self.url, socket_connect_timeout=0.5).ping():
                    return
            except redis.ConnectionError:
                pass
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)


def procfile_worker_line() -> str:
    for line in (REPO / "Procfile").read_text().splitlines():
        if line.startswith("worker:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError("the Procfile has no worker line")


@pytest.fixture
def outage_redis(tmp_path):
    from tests.conftest import free_port

    server = RedisServer(tmp_path, free_port())
    server.start()
    yield server
    if server.proc is not None and server.proc.poll() is None:
        server.proc.kill()
        server.proc.wait(timeout=10)


@pytest.fixture
def procfile_workers(outage_redis, tmp_path):
    """The Procfile's worker line, run as ``make run`` runs it, 2 workers."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "REDIS_URL": outage_redis.url,
           "REFEREE_WORKERS": "2", "REFEREE_WORKER_MAINTENANCE": "2",
           "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}"}
    log = (tmp_path / "workers.log").open("wb")
    proc = subprocess.Popen(["sh", "-c", "exec " + procfile_worker_line()], cwd=REPO, env=env,
                            stdout=log, stderr=subprocess.STDOUT)
    proc.log_path = tmp_path / "workers.log"
    yield proc
    kill_tree(proc)


def wait_workers(client, at_least: int, timeout: float, log: Path) -> dict[Any, Any]:
    deadline = time.monotonic() + timeout
    while True:
        r = client.get("/readyz")
        if r.status_code == 200 and r.json["checks"].get("workers", 0) >= at_least:
            return r.json
        assert time.monotonic() < deadline, (r.json, log.read_text(errors="replace")[-3000:])
        time.sleep(0.2)


def where_jobs_stand(url: str) -> str:
    """The queue, its intermediate queue, the started registry, the lock."""
    conn = redis.Redis.from_url(url)
    queue = Queue(QUEUE, connection=conn)
    jobs = {job.id: job.get_status(refresh=False) for job in
            Job.fetch_many([k.decode().split(":")[-1] for k in conn.keys("rq:job:ev-*")],
                           connection=conn) if job is not None}
    return (f"jobs {jobs}; queued {queue.job_ids}; intermediate "
            f"{queue.intermediate_queue.get_job_ids()}; started "
            f"{conn.zrange(queue.started_job_registry.key, 0, -1, withscores=True)} "
            f"(now {time.time():.0f}); lock ttl {conn.ttl(queue.registry_cleaning_key)}")


def test_workers_come_back_after_redis_is_killed_and_restarted(make_app, outage_redis,
                                                               procfile_workers):
    """kill -9 Redis during a job, start it again 5 s later: the job finishes
    or fails clearly, and later jobs run — nobody restarts a worker."""
    client = make_app(outage_redis.url).test_client()
    wait_workers(client, 1, 30, procfile_workers.log_path)
    location = client.post("/v1/evaluations",
                           json=playouts_request(600, 100, seed=4)).headers["Location"]
    poll(client, location, until=("started",), timeout=30)
    time.sleep(0.5)
    outage_redis.kill()
    assert client.post("/v1/evaluations", json=ODDS).status_code == 503  # not a 500
    time.sleep(OUTAGE_SECONDS)
    outage_redis.start()
    try:
        first = poll(client, location, timeout=45)
    except AssertionError as stalled:  # say where the jobs stand, for the next fault
        raise AssertionError(f"{stalled}\n{where_jobs_stand(outage_redis.url)}\n"
                             + procfile_workers.log_path.read_text(errors="replace")[-3000:])
    assert first["status"] in ("finished", "failed"), first
    if first["status"] == "failed":  # clearly: it says why
        assert first["error"]["detail"], first
    later = client.post("/v1/evaluations", json=playouts_request(60, 20, seed=5))
    assert later.status_code == 202, later.json
    assert poll(client, later.headers["Location"], timeout=30)["status"] == "finished"
    assert procfile_workers.poll() is None
    ready = wait_workers(client, 1, 15, procfile_workers.log_path)
    assert ready["checks"]["workers"] >= 1


def test_readyz_is_not_ready_when_no_worker_listens(make_app, outage_redis, procfile_workers):
    """With REDIS_URL, /readyz counts the live workers; none → 503."""
    client = make_app(outage_redis.url).test_client()
    ready = wait_workers(client, 2, 30, procfile_workers.log_path)
    assert ready["checks"]["workers"] == 2 and ready["checks"]["redis"] == "ok"
    procfile_workers.send_signal(signal.SIGTERM)  # the supervisor stops its workers
    procfile_workers.wait(timeout=30)
    r = client.get("/readyz")
    assert r.status_code == 503 and r.json["checks"]["workers"] == 0, r.json
    assert "worker" in r.json["detail"]


def test_a_job_taken_from_the_queue_as_redis_went_away_is_put_back(make_app, workers):
    """Redis killed just after it ran a worker's dequeue (``BLMOVE`` into RQ's
    intermediate queue) but before the reply reached the worker: the job sits
    in the intermediate queue and no worker runs it.  RQ's maintenance fails
    it a minute later; ours puts it back on the queue within seconds (a
    ``dequeue-lost`` incident) and the evaluation finishes.  (One of the two
    ways the outage test above stalled under load.)"""
    client = make_app(workers.url).test_client()
    location = client.post("/v1/evaluations",
                           json=playouts_request(120, 60, seed=6)).headers["Location"]
    conn = redis.Redis.from_url(workers.url)
    queue = Queue(QUEUE, connection=conn)
    taken = conn.lmove(queue.key, queue.intermediate_queue_key)  # the lost dequeue
    assert taken is not None
    workers.start("w1", REFEREE_WORKER_MAINTENANCE="1")
    body = poll(client, location, timeout=20)
    assert body["status"] == "finished", body
    assert [i["event"] for i in body["incidents"]] == ["dequeue-lost"], body["incidents"]
    assert body["incidents"][0]["job"] == taken.decode()
    assert conn.llen(queue.intermediate_queue_key) == 0


def test_the_maintenance_lock_of_a_holder_that_died_lapses_in_seconds(workers):
    """A worker's maintenance holds the queue's lock while it cleans the
    registries; if Redis dies meanwhile the release never arrives.  RQ's lock
    lasts 899 s: abandoned-job handling (by workers and status polls) would
    stop for 15 minutes.  Ours lasts ``MAINTENANCE_LOCK_SECONDS``, released
    when the cleaning fails too."""
    from rq.registry import StartedJobRegistry

    from service.evaluations import rq_runner
    from workers.worker import RefereeWorker

    conn = redis.Redis.from_url(workers.url)
    queue = Queue(QUEUE, connection=conn)
    worker = RefereeWorker([queue], connection=conn)
    outage = redis.ConnectionError("Redis went away")

    def dies(*args, **kwargs):
        conn.delete("nothing")  # Redis is still there: the lock is held now
        assert conn.ttl(queue.registry_cleaning_key) <= rq_runner.MAINTENANCE_LOCK_SECONDS
        raise outage

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(StartedJobRegistry, "cleanup", dies)
        with pytest.raises(redis.ConnectionError):
            worker.clean_registries()
    assert 0 < rq_runner.MAINTENANCE_LOCK_SECONDS <= 15
    # the release was attempted, and had it not arrived the lock would lapse soon
    assert conn.get(queue.registry_cleaning_key) is None
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(StartedJobRegistry, "get_expired_job_ids", lambda self: ["ev-x-0"])
        mp.setattr(StartedJobRegistry, "cleanup", dies)
        with pytest.raises(redis.ConnectionError):
            rq_runner.reap(conn)
    assert conn.get(queue.registry_cleaning_key) is None
