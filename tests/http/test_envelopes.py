"""The envelope schemas and the request helpers (their doctests, and edge cases)."""

from __future__ import annotations

import doctest

import pytest

from schemas import envelopes
from service.http import body


@pytest.mark.parametrize("module", [envelopes, body])
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("mimetype,ok", [
    ("application/json", True), ("application/problem+json", True),
    ("application/vnd.referee+json", True), ("text/json", False), ("text/plain", False),
    ("application/jsonx", False), ("", False)])
def test_json_mimetypes(mimetype, ok):
    assert body.is_json_mimetype(mimetype) is ok


def test_players_bounds():
    assert envelopes.NEW.load({"players": [{"name": "a"}, {}]})["players"] == [{"name": "a"}, {}]
    for bad in (0, 17, [], [1, 2], "2", 2.5, None, True):
        with pytest.raises(Exception):
            envelopes.NEW.load({"players": bad})
