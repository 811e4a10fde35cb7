"""A pytest plugin (``addopts = -p tests.no_skips``): a skipped test fails.

``make test`` never skips silently: what a test needs (redis-server, node,
chromium, the schemathesis CLI) is installed by the Makefile, and a doctest
example marked ``+SKIP`` is documentation nobody checks.  So a skip — a
``skipif`` whose condition came true, ``pytest.skip()``, a doctest of skipped
examples only — is reported as a failure saying why it was skipped.  An
expected failure (``xfail``) is not a skip.
"""

from __future__ import annotations

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> object:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.skipped and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else report.longrepr
        report.outcome = "failed"
        report.longrepr = f"skipped, and the suite never skips: {reason}"
    return None
