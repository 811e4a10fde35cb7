"""``ETag`` / ``Cache-Control`` / 304 on what changes only with a release (issue 36, item 6).

Before: ``GET /v1/games`` and the rest answered the whole body every time, with no
validator.  Now each carries a strong ``ETag`` derived from its content (the same in
every process and instance of a release) and ``Cache-Control: public, max-age=300``;
``If-None-Match`` with that tag — strong or weak, alone or in a list, or ``*`` — is a
304 without a body.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.middleware import CACHE_CONTROL

REPO = Path(__file__).resolve().parents[2]
PATHS = ("/v1/games", "/v1/games/raiders", "/v1/games/kozyablo/cards?q=a",
         "/v1/games/tremble/rules", "/v1/games/raiders/rules/RAI-1", "/problems",
         "/problems/not-found", "/openapi.yaml")


@pytest.mark.parametrize("path", PATHS)
def test_a_stable_answer_is_tagged_and_revalidates(client, path):
    r = client.get(path)
    tag = r.headers["ETag"]
    assert r.status_code == 200 and tag.startswith('"') and not tag.startswith("W/")
    assert r.headers["Cache-Control"] == CACHE_CONTROL
    for sent in (tag, "W/" + tag, f'"other", {tag}', "*"):
        again = client.get(path, headers={"If-None-Match": sent})
        assert again.status_code == 304 and again.data == b"", sent
        assert again.headers["ETag"] == tag and again.headers["Cache-Control"] == CACHE_CONTROL
    assert client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200
    assert client.head(path, headers={"If-None-Match": tag}).status_code == 304


def test_the_tag_follows_the_language_and_the_form(client):
    en = client.get("/v1/games/raiders/rules")
    ru = client.get("/v1/games/raiders/rules", headers={"Accept-Language": "ru"})
    assert en.headers["ETag"] != ru.headers["ETag"] and "Accept-Language" in ru.headers["Vary"]
    page = client.get("/problems/not-found")
    data = client.get("/problems/not-found", headers={"Accept": "application/json"})
    assert page.headers["ETag"] != data.headers["ETag"] and "Accept" in data.headers["Vary"]
    assert client.get("/v1/games/raiders/rules", headers={
        "Accept-Language": "ru", "If-None-Match": en.headers["ETag"]}).status_code == 200


def test_what_changes_is_not_tagged(client):
    assert "ETag" not in client.get("/healthz").headers
    assert "ETag" not in client.get("/v1/games/chess").headers  # a 404
    assert "ETag" not in client.post("/v1/games/raiders/new", json={
        "players": [{"name": "A"}, {"name": "B"}]}).headers


_TAGS = """
import json
from service.app import create_app
client = create_app({"TESTING": True, "ACCESS_LOG": False}).test_client()
print(json.dumps({p: client.get(p).headers["ETag"] for p in %r}))
"""


def test_every_process_tags_alike():
    """Two interpreters with different hash seeds (as two instances): the same tags."""
    tags = []
    for seed in ("1", "2"):
        done = subprocess.run([sys.executable, "-c", _TAGS % (PATHS,)], cwd=REPO,
                              capture_output=True, text=True, timeout=120,
                              env={**os.environ, "PYTHONHASHSEED": seed,
                                   "REFEREE_LOG_FORMAT": "text"})
        assert done.returncode == 0, done.stderr
        tags.append(json.loads(done.stdout.strip().splitlines()[-1]))
    assert tags[0] == tags[1]
