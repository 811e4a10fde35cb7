"""Request ids, JSON logs, /metrics, API keys, rate limits and CORS (``service.operations``)."""

from __future__ import annotations

import logging
import re

import orjson

from service.operations import JsonFormatter, RequestIdFilter

PROBLEMS = "https://referee.dev/problems/"
ODDS = {"game": "tremble", "kind": "tremble.battle_odds", "strengths": [16, 17]}


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
    other = {"Authorization": "Bearer someone-else"}  # a key is its own client
    assert client.post("/v1/evaluations", json=ODDS, headers=other).status_code == 202


def test_rate_limits_count_in_redis_when_configured(make_client, redis_url):
    client = make_client(RATE_LIMIT="2/minute", REDIS_URL=redis_url)
    again = make_client(RATE_LIMIT="2/minute", REDIS_URL=redis_url)  # another worker
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
