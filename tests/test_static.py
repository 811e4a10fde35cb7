"""The type checkers (mypy; tsc over the console's JS) and the linter run with the suite and
find nothing.

Configured in ``pyproject.toml`` (``[tool.mypy]``, ``[tool.ruff]``): the
engines under ``service/games`` are fully annotated; every package uses
absolute imports.
"""

from __future__ import annotations

import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
BIN = pathlib.Path(sys.executable).parent


def _run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=900)


def test_mypy_finds_no_error():
    done = _run(str(BIN / "mypy"), "--no-error-summary")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_ruff_finds_nothing():
    done = _run(str(BIN / "ruff"), "check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_a_skipped_test_fails_the_suite(tmp_path):
    """``tests.no_skips``: a skip is a failure (the doctests once skipped two examples)."""
    (tmp_path / "test_skips.py").write_text(
        "import pytest\n\n\ndef test_skipped():\n    pytest.skip('no tool here')\n\n\n"
        "def test_doctest_only_skipped():\n    '''\n    >>> 1  # doctest: +SKIP\n    2\n    '''\n")
    done = _run(sys.executable, "-m", "pytest", "-p", "tests.no_skips", "--doctest-modules",
                "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(tmp_path))
    assert done.returncode == 1, done.stdout[-3000:]
    assert "2 failed" in done.stdout and "no tool here" in done.stdout, done.stdout[-3000:]


def test_tsc_finds_no_error_in_the_console():
    """The console's plain JS, checked by TypeScript (``service/console/jsconfig.json``:
    ``checkJs``, the DOM's types, JSDoc where inference needs a word); nothing is emitted."""
    tsc = ROOT / "node_modules" / ".bin" / "tsc"
    assert tsc.exists(), "make node_modules/.installed (npm ci) installs TypeScript"
    done = _run(str(tsc), "--noEmit", "--allowJs", "--checkJs", "-p", "service/console/jsconfig.json")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]
