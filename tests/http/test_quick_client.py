"""The suite's test client (``tests.wsgi.QuickClient``) answers as Flask's does.

Every in-process test speaks through ``QuickClient``'s short road for plain
requests; if that road built a request differently (a header lost, a query
string, a body's content type), every such test would be testing another
request than a real client sends.  Here the same requests go both ways and must
get the same status, headers and body.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.wsgi import QuickClient

#: answers that differ by design between two calls (a fresh id, the time)
VARYING = {"X-Request-Id", "Date", "X-Referee-Elapsed", "Server-Timing"}
REQUEST_ID = re.compile(rb"urn:referee:request:[0-9a-f]+")


def _body(response) -> bytes:
    return REQUEST_ID.sub(b"urn:referee:request:ID", response.get_data())


def _requests(state: dict[Any, Any]) -> list[tuple[str, dict[Any, Any]]]:
    return [
        ("/v1/games", {}),
        ("/v1/games/raiders?lang=ru", {}),
        ("/v1/games/raiders/cards?q=Jack&set=reference", {}),
        ("/v1/games/raiders/new", {"method": "POST", "json": {"players": 2, "seed": 3}}),
        ("/v1/games/raiders/legal-actions", {"method": "POST", "json": {"state": state},
                                             "headers": {"Accept-Language": "ru"}}),
        ("/v1/games/raiders/apply", {"method": "POST", "json": {"state": state, "action": {
            "type": "pass", "player": 1}}, "headers": {"Accept-Language": "ru"}}),
        ("/v1/games/raiders/new", {"method": "POST", "data": b"{not json",
                                   "content_type": "application/json"}),
        ("/v1/games/raiders/new", {"method": "POST", "data": '{"players": 2}',
                                   "headers": {"Content-Type": "text/plain"}}),
        ("/v1/games/raiders/new", {"method": "PUT", "json": {}}),
        ("/v1/no-such-thing", {}),
        ("/healthz", {"headers": {"X-Request-Id": "abc-123"}}),
        ("/openapi.yaml", {}),
    ]


@pytest.mark.parametrize("index", range(12))
def test_the_short_road_gets_flasks_answer(app_for_both, index):
    quick, flask_client, state = app_for_both
    path, kwargs = _requests(state)[index]
    assert quick._environ(path, **kwargs) is not None, "this request should take the short road"
    a, b = quick.open(path, **kwargs), flask_client.open(path, **kwargs)
    assert (a.status, _body(a)) == (b.status, _body(b)), path
    assert [h for h in a.headers if h[0] not in VARYING] == \
        [h for h in b.headers if h[0] not in VARYING]
    assert a.request.path == b.request.path and a.request.args == b.request.args


def test_what_is_not_plain_takes_flasks_road(app_for_both):
    quick, _, _ = app_for_both
    assert quick._environ("/v1/games/%72aiders") is None
    assert quick._environ("/v1/games", headers=[("X-A", "1"), ("X-A", "2")]) is None
    assert quick._environ("/v1/games", method="POST", data={"form": "field"}) is None
    assert quick.get("/v1/games/%72aiders").status_code == 200  # Flask's road, same app


@pytest.fixture
def app_for_both():
    from service.app import create_app

    app = create_app({"TESTING": True})
    assert isinstance(app.test_client(), QuickClient)
    flask_client = FlaskClient(app, app.response_class)
    state = flask_client.post("/v1/games/raiders/new", json={"players": 2, "seed": 3}).json["state"]
    return QuickClient(app, app.response_class), flask_client, state
