"""Raiders engine speed (kept for old commands; the same figures as ``make bench``).

Run: ``.venv/bin/python bench/engine_raiders.py`` — equivalent to
``.venv/bin/python -m bench engine --games raiders --no-write``, which also
checks the issue-7 targets (see ``bench.engine``).
"""

import sys
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench.__main__ import main

    sys.exit(main(["engine", "--games", "raiders", "--no-write"]))
