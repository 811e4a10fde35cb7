"""Request ids, JSON logs, /metrics, API keys, rate limits and CORS (``service.middleware``)."""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Callable

import orjson
import pytest

from service.games.objects import JsonObject
from service.middleware import JsonFormatter, RequestIdFilter

PROBLEMS = "/problems/"
ODDS: JsonObject = {"game": "tremble", "kind": "tremble.battle_odds", "strengths": [16, 17]}


def test_every_response_has_a_request_id_and_keeps_the_clients(make_client):
    client = make_client()
    for r in (client.get("/healthz"), client.get("/nowhere"),
              client.post("/v1/games/raiders/score", json={"state": 1})):
        assert re.fullmatch(r"[0-9a-f]{32}", r.headers["X-Request-Id"])
    r = client.get("/healthz", headers={"X-Request-Id": "trace-42.a:b"})
    assert r.headers["X-Request-Id"] == "trace-42.a:b"
    r = client.get("/healthz", headers={"X-Request-Id": "bad id with spaces" + "x" * 200})
    assert re.fullmatch(r"[0-9a-f]{32}", r.headers["X-Request-Id"])


def test_logs_are_json_lines_with_the_request_id(make_client, caplog):
    client = make_client()
    with caplog.at_level(logging.INFO, logger="referee.access"):
        client.post("/v1/games/raiders/new", json={"players": 2, "seed": 1},
                    headers={"X-Request-Id": "abc123"})
    records = [r for r in caplog.records if r.name == "referee.access"]
    assert records
    RequestIdFilter().filter(records[-1])
    line = orjson.loads(JsonFormatter().format(records[-1]))
    assert line["request_id"] == "abc123"
    assert line["http"]["route"] == "/v1/games/<game_id>/new" and line["http"]["status"] == 200
    assert line["level"] == "info" and line["logger"] == "referee.access"


def test_metrics_count_requests_by_route(make_client):
    client = make_client()
    client.post("/v1/games/raiders/new", json={"players": 2, "seed": 1})
    client.post("/v1/evaluations", json=ODDS)
    text = client.get("/metrics").get_data(as_text=True)
    assert re.search(r'referee_http_request_duration_seconds_count\{method="POST",'
                     r'route="/v1/games/<game_id>/new",status="200"\} [1-9]', text)
    assert re.search(r'referee_evaluation_jobs_total\{event="submitted",'
                     r'kind="tremble.battle_odds"\} [1-9]', text)


def test_api_keys_guard_evaluations_only(make_client):
    client = make_client(API_KEYS="k1, k2")
    r = client.post("/v1/evaluations", json=ODDS)
    assert r.status_code == 401 and r.json["type"] == PROBLEMS + "unauthorized"
    assert r.headers["WWW-Authenticate"].startswith("Bearer")
    assert client.get("/v1/evaluations/kinds", headers={"X-API-Key": "nope"}).status_code == 401
    assert client.get("/v1/evaluations/kinds", headers={"X-API-Key": "k2"}).status_code == 200
    r = client.post("/v1/evaluations", json=ODDS, headers={"Authorization": "Bearer k1"})
    assert r.status_code == 202
    assert client.get(r.headers["Location"], headers={"X-API-Key": "k1"}).status_code == 200
    assert client.get(r.headers["Location"]).status_code == 401
    assert client.post("/v1/games/raiders/new", json={"players": 2}).status_code == 200


def test_rate_limits_answer_429_with_retry_after(make_client):
    client = make_client(RATE_LIMIT="3/minute", EVALUATION_RATE_LIMIT="1/minute")
    codes = [client.post("/v1/games/raiders/new", json={"players": 2}).status_code
             for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    r = client.post("/v1/games/raiders/new", json={"players": 2})
    assert r.mimetype == "application/problem+json"
    assert r.json["type"] == PROBLEMS + "too-many-requests"
    assert 0 < int(r.headers["Retry-After"]) <= 60
    assert client.get("/v1/games").status_code == 200  # reads are not limited
    assert client.post("/v1/evaluations", json=ODDS).status_code == 202
    assert client.post("/v1/evaluations", json=ODDS).status_code == 429
    other = {"Authorization": "Bearer someone-else"}  # not a configured key: same client
    assert client.post("/v1/evaluations", json=ODDS, headers=other).status_code == 429


def test_a_made_up_api_key_buys_no_bucket_of_its_own(make_client):
    """Issue 11: 20 requests, each with a random ``X-API-Key``, against 5/minute:
    unverified keys count as the client's address, so 5 pass and 15 get 429."""
    import secrets

    client = make_client(RATE_LIMIT="5/minute")
    codes = [client.post("/v1/games/raiders/new", json={"players": 2},
                         headers={"X-API-Key": secrets.token_hex(8)}).status_code
             for _ in range(20)]
    assert codes == [200] * 5 + [429] * 15
    keyed = make_client(RATE_LIMIT="2/minute", API_KEYS="k1,k2")

    def post(headers: dict[str, str]) -> int:
        status: int = keyed.post("/v1/games/raiders/new", json={"players": 2}, headers=headers).status_code
        return status

    assert [post({"X-API-Key": "k1"}) for _ in range(3)] == [200, 200, 429]
    assert post({"Authorization": "Bearer k2"}) == 200  # a configured key is its own client
    assert [post({"X-API-Key": secrets.token_hex(8)}) for _ in range(3)] == [200, 200, 429]
    assert post({}) == 429  # unknown keys were counted against the address


def test_the_rate_limit_bucket_of_a_key_is_a_digest(make_client):
    from service.middleware import client_key

    app = make_client(RATE_LIMIT="2/minute", API_KEYS="secret-k1").application
    with app.test_request_context(headers={"X-API-Key": "secret-k1"}):
        bucket = client_key()
    assert bucket.startswith("key:") and "secret-k1" not in bucket
    with app.test_request_context(headers={"X-API-Key": "made-up"},
                                  environ_base={"REMOTE_ADDR": "10.0.0.7"}):
        assert client_key() == "addr:10.0.0.7"


def test_rate_limits_count_in_redis_when_configured(make_client, redis_url):
    keys = {"API_KEYS": "shared-redis-test"}
    client = make_client(RATE_LIMIT="2/minute", REDIS_URL=redis_url, **keys)
    again = make_client(RATE_LIMIT="2/minute", REDIS_URL=redis_url, **keys)  # another worker
    hdr = {"X-API-Key": "shared-redis-test"}
    assert client.post("/v1/games/raiders/new", json={"players": 2}, headers=hdr).status_code == 200
    assert again.post("/v1/games/raiders/new", json={"players": 2}, headers=hdr).status_code == 200
    assert client.post("/v1/games/raiders/new", json={"players": 2}, headers=hdr).status_code == 429


def test_cors_only_when_configured(make_client):
    origin = {"Origin": "https://table.example"}
    plain = make_client().post("/v1/games/raiders/new", json={"players": 2}, headers=origin)
    assert "Access-Control-Allow-Origin" not in plain.headers
    client = make_client(CORS_ORIGINS="https://table.example")
    r = client.options("/v1/games/raiders/apply", headers={
        **origin, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type,referee-require-signed"})
    assert r.headers["Access-Control-Allow-Origin"] == "https://table.example"
    r = client.post("/v1/games/raiders/new", json={"players": 2}, headers=origin)
    assert r.headers["Access-Control-Allow-Origin"] == "https://table.example"
    assert "X-Request-Id" in r.headers["Access-Control-Expose-Headers"]
    r = client.post("/v1/games/raiders/new", json={"players": 2},
                    headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in r.headers


def test_rate_limits_survive_an_unreachable_redis(make_client):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    client = make_client(RATE_LIMIT="2/minute", REDIS_URL=f"redis://127.0.0.1:{port}/0")
    codes = [client.post("/v1/games/raiders/new", json={"players": 2}).status_code
             for _ in range(3)]
    assert codes == [200, 200, 429]


def test_request_ids_are_unique_and_drawn_again_in_a_forked_child():
    from service.middleware import RequestIds

    ids = RequestIds()
    made = [ids.new() for _ in range(10_000)]
    assert len(set(made)) == len(made)
    assert all(re.fullmatch(r"[0-9a-f]{32}", i) for i in made[:100])
    prefix = ids.prefix
    ids.reset()  # what os.register_at_fork runs in a child
    assert ids.prefix != prefix and ids.new().endswith("1")


def _with_root_handler(handler: logging.Handler, fn: Callable[[], object]) -> object:
    """``fn()`` with ``handler`` the root logger's only one, at INFO (as ``make run``)."""
    saved, level = logging.root.handlers[:], logging.root.level
    logging.root.handlers[:] = [handler]
    logging.root.setLevel(logging.INFO)
    try:
        return fn()
    finally:
        logging.root.handlers[:] = saved
        logging.root.setLevel(level)


def _json_lines(monkeypatch: pytest.MonkeyPatch) -> tuple[io.StringIO, logging.Handler]:
    """A stream taking the service's JSON log lines (the handler, request ids, formatter)."""
    from service import middleware

    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter())
    monkeypatch.setattr(middleware, "_JSON_HANDLER", handler)
    return stream, handler


def test_access_line_written_directly_is_the_formatters_line(make_client, monkeypatch):
    stream, handler = _json_lines(monkeypatch)
    client = make_client()
    from service import middleware

    monkeypatch.setattr(middleware.access_log, "makeRecord", None)  # the direct path makes none
    _with_root_handler(handler, lambda: client.post(
        "/v1/games/raiders/new", json={"players": 2, "seed": 1}, headers={"X-Request-Id": "r-1"}))
    direct = orjson.loads(stream.getvalue().splitlines()[-1])
    record = logging.LogRecord("referee.access", logging.INFO, __file__, 1, "request", None, None)
    record.request_id, record.http = "r-1", direct["http"]
    formatted = orjson.loads(JsonFormatter().format(record))
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", direct.pop("ts"))
    formatted.pop("ts")
    assert direct == formatted
    assert direct["http"]["route"] == "/v1/games/<game_id>/new" and direct["http"]["status"] == 200


def test_no_access_line_when_info_is_off_or_access_log_disabled(make_client, monkeypatch):
    from service import middleware

    stream, handler = _json_lines(monkeypatch)
    client, quiet = make_client(), make_client(ACCESS_LOG="0")
    _with_root_handler(handler, lambda: quiet.get("/healthz"))
    assert stream.getvalue() == ""
    middleware.access_log.setLevel(logging.WARNING)
    try:
        _with_root_handler(handler, lambda: client.get("/healthz"))
    finally:
        middleware.access_log.setLevel(logging.NOTSET)
    assert stream.getvalue() == ""
    _with_root_handler(handler, lambda: client.get("/healthz"))
    assert orjson.loads(stream.getvalue())["msg"] == "request"


def _jobs(kind: str, event: str) -> float:
    from prometheus_client import REGISTRY

    return REGISTRY.get_sample_value("referee_evaluation_jobs_total",
                                     {"kind": kind, "event": event}) or 0.0


def test_finished_evaluations_are_counted_once_over_polls_and_workers(make_client, tmp_path):
    import time

    db = str(tmp_path / "evaluations.sqlite3")
    one, two = make_client(EVALUATION_DB=db), make_client(EVALUATION_DB=db)  # two workers
    before = _jobs(ODDS["kind"], "finished")
    location = one.post("/v1/evaluations", json=ODDS).headers["Location"]
    deadline = time.monotonic() + 30
    while one.get(location).json["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.02)
    for client in (one, two, one, two):
        assert client.get(location).json["status"] == "finished"
    assert _jobs(ODDS["kind"], "finished") == before + 1
    text = two.get("/metrics").get_data(as_text=True)
    assert re.search(r'referee_evaluation_jobs_total\{event="finished",'
                     r'kind="tremble.battle_odds"\} [1-9]', text)


def test_an_ended_evaluation_is_claimed_once_in_each_backend(redis_url, tmp_path):
    import time

    from service.evaluations.rq_runner import RQRunner
    from service.evaluations.runner import EmbeddedRunner, Runner

    runners: list[Runner] = [RQRunner(redis_url),
                             EmbeddedRunner(db_path=str(tmp_path / "e.sqlite3"))]
    claimed = {}
    for run in runners:
        eval_id = claimed[run.backend] = f"claim-{run.backend}-{time.time_ns()}"
        assert [run.first_report(eval_id) for _ in range(3)] == [True, False, False], run.backend
        assert run.first_report(eval_id + "-other")
    again = EmbeddedRunner(db_path=str(tmp_path / "e.sqlite3"))  # another process, same file
    assert not again.first_report(claimed["embedded"])
    assert again.first_report(claimed["embedded"] + "-new")


def test_procfile_web_sums_metrics_over_its_workers_in_a_fresh_directory(tmp_path):
    """The Procfile's gunicorn (2 workers) with ``service.gunicorn_conf``: a new
    empty ``PROMETHEUS_MULTIPROC_DIR`` per start, every scrape the sum over the
    workers, the directory removed when gunicorn exits."""
    import os
    import pathlib
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.error
    import urllib.request

    repo = pathlib.Path(__file__).resolve().parents[2]
    web = next(line[4:] for line in (repo / "Procfile").read_text().splitlines()
               if line.startswith("web:"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PORT": str(port),
           "PATH": f"{pathlib.Path(sys.executable).parent}:{os.environ.get('PATH', '')}"}
    for name in ("PROMETHEUS_MULTIPROC_DIR", "REDIS_URL"):
        env.pop(name, None)
    log = tmp_path / "gunicorn.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(["sh", "-c", "exec " + web], cwd=repo, env=env, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    served = 0
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text()
            try:
                urllib.request.urlopen(url + "/readyz", timeout=2).read()  # not counted below
                break
            except (urllib.error.URLError, OSError):
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.1)
        for _ in range(40):
            urllib.request.urlopen(url + "/healthz", timeout=5).read()
            served += 1
        pattern = re.compile(r'referee_http_request_duration_seconds_count\{method="GET",'
                             r'route="/healthz",status="200"\} (\S+)')
        for _ in range(6):
            text = urllib.request.urlopen(url + "/metrics", timeout=5).read().decode()
            counted = pattern.search(text)
            assert counted is not None, text
            assert float(counted.group(1)) == served
        found = re.search(r"PROMETHEUS_MULTIPROC_DIR=([^\s\"]+)", log.read_text())  # a JSON line
        assert found, log.read_text()
        directory = pathlib.Path(found.group(1))
        assert any(directory.glob("histogram_*.db"))
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)
    assert not directory.exists()
