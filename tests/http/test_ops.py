"""/healthz, /readyz (with this session's own redis-server), /openapi.yaml, /docs."""

from __future__ import annotations

import re
import socket

from tests import document


def unused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_healthz(api):
    r = api.get("/healthz")
    assert r.status_code == 200 and r.json == {"status": "ok"}


def test_readyz_without_redis(api):
    r = api.get("/readyz")
    assert r.status_code == 200
    assert r.json == {"status": "ready", "checks": {"card_data": "ok", "redis": "not configured"}}


def test_readyz_pings_the_configured_redis(make_api, redis_url):
    """Redis answers, but no RQ worker listens: not ready (issue 11 item 2;
    tests/evaluations/test_redis_outage.py covers the ready case).  Database
    15: no other test registers workers there."""
    r = make_api(REDIS_URL=redis_url.rsplit("/", 1)[0] + "/15").get("/readyz")
    assert r.status_code == 503 and r.json["checks"]["redis"] == "ok"
    assert r.json["checks"]["workers"] == 0


def test_readyz_503_when_redis_is_unreachable(make_api):
    r = make_api(REDIS_URL=f"redis://127.0.0.1:{unused_port()}/0").get("/readyz")
    assert r.status_code == 503 and r.mimetype == "application/problem+json"
    assert r.json["type"] == "/problems/not-ready"
    assert r.json["checks"]["redis"].startswith("unreachable")
    assert "redis" in r.json["detail"]


def test_readyz_reads_redis_url_from_the_environment(monkeypatch, make_api, redis_url):
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("MAX_CONTENT_LENGTH", "4096")
    api = make_api()
    assert api.app.config["REDIS_URL"] == redis_url and api.app.config["MAX_CONTENT_LENGTH"] == 4096
    assert api.get("/readyz").json["checks"]["redis"] == "ok"


def test_openapi_yaml_is_served(api):
    r = api.get("/openapi.yaml")
    assert r.status_code == 200 and r.mimetype == "application/yaml"
    doc = document.load(r.get_data(as_text=True))
    assert doc["openapi"] == "3.1.0"
    assert "/v1/games/{game}/apply" in doc["paths"]


def test_docs_page_works_offline(api):
    r = api.get("/docs")
    assert r.status_code == 200 and r.mimetype == "text/html"
    page = r.get_data(as_text=True)
    assert "/openapi.yaml" in page
    # every asset is served by this service: no absolute URL anywhere in the page
    assert not re.search(r"(src|href)=\"(https?:)?//", page)
    assets = re.findall(r"(?:src|href)=\"(/docs/assets/[^\"]+)\"", page)
    assert {a.rsplit("/", 1)[1] for a in assets} >= {"swagger-ui.css", "swagger-ui-bundle.js"}
    for asset in assets:
        got = api.get(asset)
        assert got.status_code == 200 and len(got.get_data()) > 1000, asset
        got.close()


def test_docs_bundle_is_swagger_ui_5_which_renders_openapi_3_1(api):
    r = api.get("/docs/assets/swagger-ui-bundle.js")
    js = r.get_data(as_text=True)
    r.close()
    versions = set(re.findall(r'"(5\.\d+\.\d+)"', js))
    assert versions, "expected a Swagger UI 5.x bundle (4.x cannot render OpenAPI 3.1)"
    assert "SwaggerUIBundle" in js


def test_unknown_docs_asset_is_404(api):
    r = api.get("/docs/assets/../../etc/passwd")
    assert r.status_code == 404
    r = api.get("/docs/assets/swagger-editor.js")
    assert r.status_code == 404 and r.mimetype == "application/problem+json"
