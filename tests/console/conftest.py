"""The console in a real browser: the Procfile's gunicorn on loopback and Debian's
chromium driven by Playwright (sync API, headless, bounded timeouts).

``make test`` installs chromium when it is missing (as root; otherwise it says how).
Playwright drives ``/usr/bin/chromium`` itself (``executable_path``), so no
``playwright install`` is needed.  Without chromium these tests fail saying so.  The
server and the browser are started once per worker (session fixtures); each test has
a browser context of its own.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("REFEREE_CHROMIUM", "/usr/bin/chromium")
#: every wait of a page, in ms
TIMEOUT_MS = 15_000
#: the state keys of the test server: the exported results are signed
STATE_KEY = "console-test-key"
#: a folder for the screenshots docs/console.md shows (``REFEREE_CONSOLE_SHOTS=docs``)
SHOTS = os.environ.get("REFEREE_CONSOLE_SHOTS")


#: resolves once ``selector`` matches (and is shown, when asked), checked on every change
#: of the document: Playwright's own waits re-check at 0, 20, 50 and 100 ms after they
#: start, so a click the console answers in 30 ms is seen after about 60
_WAIT_FOR = """([selector, visible, timeout]) => new Promise((resolve, reject) => {
  const shown = (el) => !visible || (el.checkVisibility({visibilityProperty: true})
                                     && el.getClientRects().length > 0);
  const found = () => { const el = document.querySelector(selector); return el && shown(el); };
  if (found()) return resolve(true);
  const observer = new MutationObserver(() => {
    if (found()) { observer.disconnect(); clearTimeout(timer); resolve(true); }
  });
  const timer = setTimeout(() => {
    observer.disconnect();
    reject(new Error(`${selector} did not appear within ${timeout} ms`));
  }, timeout);
  observer.observe(document, {subtree: true, childList: true, attributes: true,
                              characterData: true});
})"""


def wait_for(page, selector: str, *, visible: bool = True, timeout: int = TIMEOUT_MS) -> None:
    """Wait until ``selector`` is in the page (``visible``: and shown), as soon as a change
    of the document makes it so.  For what a click on the page changes, not for a
    navigation (``page.wait_for_selector`` follows a page that reloads)."""
    page.evaluate(_WAIT_FOR, [selector, visible, timeout])


#: clicks the ``nth`` match of ``selector`` as a player's click lands: on an element that
#: is shown, enabled and not covered at its centre (Playwright's actionability checks),
#: scrolled into view; a checkbox is ticked, never unticked.  One round trip: Playwright's
#: own click also waits for two animation frames of a still element (30-35 ms a click),
#: and the console animates nothing
_PRESS = """([selector, nth]) => {
  const el = document.querySelectorAll(selector)[nth];
  if (!el) throw new Error(`no ${selector} number ${nth}`);
  const what = `${selector} number ${nth}`;
  if (!el.checkVisibility({visibilityProperty: true}) || !el.getClientRects().length)
    throw new Error(`${what} is not shown`);
  if (el.disabled || el.closest('fieldset[disabled]')) throw new Error(`${what} is disabled`);
  if (el.type === 'checkbox' && el.checked) return;
  el.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const box = el.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  if (!hit || !el.contains(hit))
    throw new Error(`${what} is covered by ${hit ? hit.outerHTML.slice(0, 80) : 'nothing'}`);
  el.click();
}"""


def press(page, selector: str, nth: int = 0) -> None:
    """Click the ``nth`` element that ``selector`` matches, refused when a player could
    not click it (hidden, disabled, covered).  For the many steps of a recorded game;
    the tests' single clicks keep Playwright's ``click``."""
    page.evaluate(_PRESS, [selector, nth])


#: what the recording offers, read in one round trip: finished, the steps recorded,
#: the chance buttons, whether a picker is open, every action button's ``data-type``
_OFFERED = """() => {
  const area = document.querySelector('#rec-actions');
  return {finished: area.dataset.finished === 'true', steps: Number(area.dataset.steps),
          chance: area.querySelectorAll('button.chance').length,
          picker: area.querySelector('.picker') !== null,
          types: [...area.querySelectorAll('button')].map((b) => b.dataset.type || '')};
}"""


@dataclass(frozen=True)
class Offered:
    """The recording's action area before a step (``offered``)."""

    finished: bool
    steps: int
    chance: int
    picker: bool
    types: list[str]


def offered(page) -> Offered:
    return Offered(**page.evaluate(_OFFERED))


def shot(page, tmp_path: Path, name: str) -> None:
    """A full-page screenshot in the test's ``tmp_path`` (and in SHOTS when set)."""
    page.screenshot(path=str(tmp_path / name), full_page=True)
    if SHOTS:
        page.screenshot(path=str(Path(SHOTS) / name), full_page=True)


@contextmanager
def another_site(page_for: Callable[[str], str]) -> Iterator[str]:
    """A page server of another origin on loopback: ``GET /<path>`` answers the HTML
    ``page_for(path)``; its base URL, stopped after."""

    class Page(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            body = page_for(self.path).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture(scope="session")
def server(tmp_path_factory) -> Iterator[str]:
    from bench import servers

    tmp = tmp_path_factory.mktemp("console_server")
    with servers.gunicorn(servers.SERVICE_APP, tmp / "gunicorn.log", {
            "REFEREE_EVALUATION_STORE": str(tmp / "evaluations.sqlite3"),
            "REFEREE_ACCESS_LOG": "0", "REFEREE_STATE_KEYS": STATE_KEY}) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium as root "
                    "(or: sudo apt-get install -y chromium; REFEREE_CHROMIUM=… for another path)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                    args=["--no-sandbox", "--disable-gpu"], timeout=TIMEOUT_MS * 2)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US",
                                  accept_downloads=True)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server + "/console")
    page.wait_for_selector("body[data-ready=true]")
    yield page
    context.close()
    assert not errors, f"script errors in the page: {errors}"
