"""Limits: body size (413), list lengths and nesting (400), work per request — each
refusal names the cap."""

from __future__ import annotations

import orjson


def test_body_over_the_limit_is_413_naming_the_limit(make_client):
    client = make_client(MAX_CONTENT_LENGTH=4096)
    r = client.post("/v1/games/raiders/replay", data=orjson.dumps(
        {"setup": {"players": 2}, "actions": [{"type": "pass", "player": 0}] * 500}),
        content_type="application/json")
    assert r.status_code == 413 and r.mimetype == "application/problem+json"
    assert "4096 bytes" in r.json["detail"]


def test_replay_length_is_capped(make_client):
    r = make_client().post("/v1/games/raiders/replay", json={
        "setup": {"players": 2}, "actions": [{}] * 20_001})
    assert r.status_code == 400 and "20000" in r.json["errors"]["actions"][0]


def test_list_lengths_in_a_state_are_capped(make_client):
    client = make_client()
    state = client.post("/v1/games/raiders/new", json={"players": 2, "seed": 1}).json["state"]
    r = client.post("/v1/games/raiders/score", json={"state": {**state, "players": state["players"] * 10}})
    assert r.status_code == 400 and "more than 6 items" in r.json["errors"]["state.players"][0]
    r = client.post("/v1/games/raiders/score", json={"state": {**state, "pending": [{}] * 17}})
    assert r.status_code == 400 and "16" in r.json["errors"]["state.pending"][0]


def test_json_nesting_is_capped(make_client):
    r = make_client().post("/v1/games/raiders/score", data="[" * 2000 + "]" * 2000,
                           content_type="application/json")
    assert r.status_code == 400 and "depth" in r.json["errors"]["body"][0]


def test_evaluation_work_is_capped_naming_the_cap(make_client):
    client = make_client()
    state = client.post("/v1/games/raiders/new", json={"players": 2, "seed": 1}).json["state"]
    job = {"game": "raiders", "kind": "playouts", "state": state}
    r = client.post("/v1/evaluations", json={**job, "params": {"playouts": 20_001}})
    assert r.status_code == 400 and "20000" in r.json["errors"]["params.playouts"][0]
    r = client.post("/v1/evaluations", json={**job, "params": {"playouts": 20_000}})
    assert r.status_code == 400 and "1800 s" in r.json["errors"]["params.playouts"][0]
    r = client.post("/v1/evaluations", json={**job, "params": {"max_steps": 20_001}})
    assert r.status_code == 400 and "20000" in r.json["errors"]["params.max_steps"][0]


def _chunked_post(client, path: str, body: bytes):
    """POST ``body`` as gunicorn hands on a chunked one: no ``CONTENT_LENGTH``,
    the stream terminated by the server (``wsgi.input_terminated``)."""
    import io

    from werkzeug.test import EnvironBuilder
    from werkzeug.wrappers import Request

    environ = EnvironBuilder(path=path, method="POST", input_stream=io.BytesIO(body),
                             content_type="application/json",
                             headers=[("Transfer-Encoding", "chunked")]).get_environ()
    del environ["CONTENT_LENGTH"]
    environ["wsgi.input_terminated"] = True
    return client.open(Request(environ))  # an environ dict would be rebuilt, with a length


def test_a_chunked_body_over_the_limit_is_413_not_cut(make_client):
    """Issue 11: without a Content-Length werkzeug read only MAX_CONTENT_LENGTH
    bytes and the cut body (valid JSON) was answered 200."""
    client = make_client(MAX_CONTENT_LENGTH=4096)
    r = _chunked_post(client, "/v1/games/raiders/new", b'{"players":2,"seed":1}' + b" " * 8192)
    assert r.status_code == 413 and r.mimetype == "application/problem+json"
    assert "4096 bytes" in r.json["detail"]
    exactly = b'{"players":2,"seed":1}'.ljust(4096)
    assert _chunked_post(client, "/v1/games/raiders/new", exactly).status_code == 200
    assert _chunked_post(client, "/v1/games/raiders/new", exactly + b" ").status_code == 413
    r = _chunked_post(client, "/v1/games/raiders/new", b"")
    assert r.status_code == 400 and "empty" in r.json["errors"]["body"][0]
