"""A browser page of another origin plays a sealed game through CORS (issue 36, item 2).

Two servers on loopback: a page server (``http://127.0.0.1:<a>``) and the Procfile's
gunicorn (``http://127.0.0.1:<b>``, another origin: another port) with
``REFEREE_CORS_ORIGINS`` naming the page's origin, sealing keys and server seeds.  The
page's script, in a real Chromium, starts a sealed Raiders game and plays it with each
seat's own ``Referee-Seat-Token`` (so every ``legal-actions`` and ``apply`` is a
non-simple request: Chromium asks a preflight first), sends ``Idempotency-Key`` and
``Accept-Language`` on an evaluation, and reads the headers a client needs
(``X-Request-Id``, ``Location``, ``Retry-After``, ``ETag``).  Before the fix the
allow-list lacked ``Referee-Seat-Token``: Chromium refused the preflight and ``fetch``
threw ``TypeError: Failed to fetch`` on the first ``legal-actions``.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Request

from .conftest import TIMEOUT_MS, another_site

#: the page's script: a sealed game, every step played by the seat whose turn it is,
#: with that seat's token only; an evaluation with an Idempotency-Key; headers read
PLAY = """async ([api, steps]) => {
  const post = async (path, body, headers = {}) => {
    const r = await fetch(api + path, {method: 'POST', body: JSON.stringify(body),
      headers: {'Content-Type': 'application/json', ...headers}});
    return {status: r.status, json: await r.json(), rid: r.headers.get('X-Request-Id')};
  };
  const started = await post('/v1/games/raiders/new',
    {players: [{name: 'Ann'}, {name: 'Bob'}], options: {turn_limit: 3}});
  let state = started.json.state;
  const tokens = started.json.seat_tokens;
  const played = [];
  while (played.length < steps && state.pending.length) {
    const seat = state.pending[0].player;
    const token = {'Referee-Seat-Token': tokens[seat], 'Accept-Language': 'ru'};
    const legal = await post('/v1/games/raiders/legal-actions', {state}, token);
    if (legal.status !== 200) return {failed: 'legal-actions', legal};
    const applied = await post('/v1/games/raiders/apply',
      {state, action: legal.json.actions[0]}, token);
    if (applied.status !== 200) return {failed: 'apply', applied};
    played.push({seat, status: applied.status, rid: applied.rid,
                 sealed: 'sealed' in applied.json.state});
    state = applied.json.state;
  }
  const submit = await fetch(api + '/v1/evaluations', {method: 'POST',
    headers: {'Content-Type': 'application/json', 'Idempotency-Key': 'page-1',
              'Referee-Seat-Token': tokens.join(', ')},
    body: JSON.stringify({game: 'tremble', kind: 'tremble.battle_odds', strengths: [16, 17]})});
  await submit.json();  // every body read: none is cut off when the page closes
  const games = await fetch(api + '/v1/games');
  await games.json();
  const again = await fetch(api + '/v1/games',
    {headers: {'If-None-Match': games.headers.get('ETag')}, cache: 'no-store'});
  return {played, tokens: tokens.length,
          evaluation: {status: submit.status, location: submit.headers.get('Location'),
                       retry: submit.headers.get('Retry-After')},
          etag: games.headers.get('ETag'), revalidated: again.status};
}"""


@pytest.fixture(scope="module")
def page_origin():
    """A page server of its own origin: ``/`` answers an empty page."""

    with another_site(lambda path: "<!doctype html><title>a table of another site</title>"
                                   "<p>table</p>") as url:
        yield url


@pytest.fixture(scope="module")
def api(page_origin, tmp_path_factory):
    from bench import servers

    tmp = tmp_path_factory.mktemp("cors_api")
    with servers.gunicorn(servers.SERVICE_APP, tmp / "gunicorn.log", {
            "REFEREE_CORS_ORIGINS": page_origin, "REFEREE_SEALING_KEYS": "cors-test-key",
            "REFEREE_SERVER_SEEDS": "1", "REFEREE_ACCESS_LOG": "0",
            "REFEREE_EVALUATION_STORE": str(tmp / "evaluations.sqlite3")}) as url:
        yield url


def test_a_page_of_another_origin_plays_a_sealed_game_with_seat_tokens(browser, page_origin,
                                                                        api):
    assert page_origin != api  # two origins: the port differs
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    failed: list[str] = []
    try:
        page = context.new_page()
        # (Playwright reports the 304 to a ``no-store`` fetch as aborted: the script got it)
        def note_failure(r: Request) -> None:
            if "if-none-match" not in r.headers:
                failed.append(f"{r.method} {r.url}: {r.failure}")

        page.on("requestfailed", note_failure)
        page.goto(page_origin + "/")
        result = page.evaluate(PLAY, [api, 8])
    finally:
        context.close()
    assert not failed, failed
    assert "failed" not in result, result
    assert result["tokens"] == 2 and len(result["played"]) == 8, result
    assert {p["seat"] for p in result["played"]} == {0, 1}  # both seats played, each its own
    assert all(p["status"] == 200 and p["sealed"] and p["rid"] for p in result["played"])
    evaluation = result["evaluation"]
    assert evaluation["status"] == 202, evaluation
    assert evaluation["location"].startswith("/v1/evaluations/") and evaluation["retry"]
    assert result["etag"] and result["revalidated"] == 304, result


def test_the_preflight_names_what_the_page_may_send(page_origin, api):
    import urllib.request

    request = urllib.request.Request(api + "/v1/games/raiders/apply", method="OPTIONS", headers={
        "Origin": page_origin, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers":
            "content-type,referee-seat-token,referee-require-signed,idempotency-key"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        allowed = {h.strip().lower() for h in
                   answer.headers["Access-Control-Allow-Headers"].split(",")}
        assert answer.headers["Access-Control-Allow-Origin"] == page_origin
    assert {"referee-seat-token", "referee-require-signed", "idempotency-key"} <= allowed
