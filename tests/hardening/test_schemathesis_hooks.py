"""``schemathesis_hooks.py`` (loaded by ``schemathesis.toml``) works with a plain schemathesis
install: it imports nothing the ``schemathesis`` package does not bring (issue 23: it imported
``jsonschema``, which schemathesis 4 no longer depends on, so an outside run stopped at the
import), and its typed-schema check tells a body of the path's game from another game's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests import document

REPO = Path(__file__).resolve().parents[2]
#: modules a plain ``pip install schemathesis`` does not bring (the test extra does)
NOT_BROUGHT = ("jsonschema", "referencing", "jsonschema_specifications")


def test_the_hooks_load_without_jsonschema():
    blocked = "; ".join(f"sys.modules[{name!r}] = None" for name in NOT_BROUGHT)
    done = subprocess.run(
        [sys.executable, "-c", f"import sys; {blocked}; import schemathesis_hooks; "
                               "print(' '.join(sorted(schemathesis_hooks.SEMANTIC_REFUSALS)))"],
        cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert {"illegal-action", "idempotency-key-reused"} <= set(done.stdout.split())


def test_the_typed_check_tells_one_games_body_from_anothers(client):
    import schemathesis_hooks

    doc = document.load()
    state = client.post("/v1/games/raiders/new", json={"players": 2, "seed": 3}).get_json()["state"]
    body = {"state": state}
    assert schemathesis_hooks.fits_typed_schema(doc, "RaidersScoreRequest", body)
    assert not schemathesis_hooks.fits_typed_schema(doc, "TrembleScoreRequest", body)
    assert not schemathesis_hooks.fits_typed_schema(doc, "RaidersScoreRequest", {"state": 1})
