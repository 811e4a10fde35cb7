"""The console and the API docs refuse to be shown inside another site's frame
(clickjacking, issue 24), in a real Chromium: a page of another origin (a
second HTTP server on another loopback port) frames ``/console`` and ``/docs``
of the Procfile's gunicorn.  The frame must stay Chromium's error page; a
frame of ``/healthz`` on the same page loads, so the check can see a frame
that renders (before the fix the console rendered in it).  ``/docs`` opened
directly still works under its new Content-Security-Policy.
"""

from __future__ import annotations

import pytest

from .conftest import TIMEOUT_MS, another_site


@pytest.fixture(scope="module")
def foreign(server):
    """The base URL of a page server of another origin: ``/<path>`` answers a page
    that frames ``server + /<path>`` (id ``f``) and ``server + /healthz`` (id ``h``)."""

    with another_site(lambda path: (
            f'<!doctype html><title>another site</title>'
            f'<iframe id="f" src="{server}{path}" width="900" height="600"></iframe>'
            f'<iframe id="h" src="{server}/healthz"></iframe>')) as url:
        yield url


def _framed(browser, foreign: str, path: str, rendered: str) -> tuple[bool, list[str]]:
    """Whether ``rendered`` appeared in the frame of ``path`` within 5 s, and the
    URLs of the page's frames (the ``/healthz`` one loaded: checked here)."""
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    try:
        page = context.new_page()
        page.goto(foreign + path)
        page.frame_locator("#h").locator("body").wait_for()  # a frame that may render does
        try:
            page.frame_locator("#f").locator(rendered).wait_for(timeout=5000)
            shown = True
        except Exception:  # Playwright's TimeoutError: it never rendered
            shown = False
        return shown, [f.url for f in page.frames]
    finally:
        context.close()


def test_the_console_does_not_render_in_a_foreign_frame(browser, foreign):
    shown, frames = _framed(browser, foreign, "/console", "body[data-ready=true]")
    assert not shown, f"the console rendered inside another site's frame: {frames}"
    assert any(u.endswith("/healthz") for u in frames), frames


def test_the_docs_do_not_render_in_a_foreign_frame(browser, foreign):
    shown, frames = _framed(browser, foreign, "/docs", ".swagger-ui .info")
    assert not shown, f"/docs rendered inside another site's frame: {frames}"


def test_the_docs_still_render_under_their_csp(browser, server):
    context = browser.new_context()
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    violations: list[str] = []
    page.on("console", lambda msg: violations.append(msg.text)
            if "Content Security Policy" in msg.text else None)
    try:
        page.goto(server + "/docs")
        # Swagger UI renders the whole contract in the browser: ~14 s on a loaded 2-core
        # machine, so this wait (not a timing claim) is longer than the console's
        page.wait_for_selector(".swagger-ui .info .title", timeout=4 * TIMEOUT_MS)
        page.wait_for_selector(".opblock-tag")  # the operations, from /openapi.yaml
        assert violations == [], violations
    finally:
        context.close()
