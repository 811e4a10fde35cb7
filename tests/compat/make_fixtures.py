"""Write the fixtures of an older rules version from the git history (issue 23).

    python -m tests.compat.make_fixtures b34f144      # from the repository root

extracts the tree of that commit (``git archive``) into a temporary directory,
runs its engines there (with this venv's packages), and writes, for each game,
``tests/compat/fixtures/<game>/<rules_version>.json`` (``/`` in the id made
``-``): a few seeded games played by random legal actions, each with its
setup, its actions and its states at a few steps (the first, some in the
middle, the last), every one as that version's service returned it.  The
fixtures are committed; ``tests/compat/test_old_rules.py`` reads them.  A
rules bump writes the fixtures of the version it leaves behind this way,
from the last commit that played it.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
#: (players, options, seed) of each fixture game, by game
SETUPS = {
    "raiders": [(2, {"turn_limit": 16}, 11), (3, {"turn_limit": 16}, 12)],
    "kozyablo": [(2, {"turn_limit": 16}, 11), (2, {"turn_limit": 16}, 13),
                 (2, {"turn_limit": 16, "chance": "table"}, 14)],
    "tremble": [(2, {}, 11), (3, {}, 12), (2, {"chance": "table"}, 13)],
}
MAX_STEPS = 3000
#: the states kept: the first, these fractions of the game, the last
KEPT = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)


def fixture_name(rules_version: str) -> str:
    return rules_version.replace("/", "-") + ".json"


def play(game, players: int, options: dict[Any, Any], seed: int) -> dict[Any, Any]:
    """One seeded random game: setup, actions, and the states kept (as in the module doc)."""
    rng = random.Random(seed)
    state, _ = game.new_game(players, options, seed)
    states, actions = [state], []
    for _ in range(MAX_STEPS):
        if game.score(state)["finished"]:
            break
        pending = game.pending(state)
        if not pending:
            break
        seat = pending[0]["player"]
        listed = game.legal_actions(state, seat)
        if not listed:
            break
        action = rng.choice(listed)
        state, _ = game.apply(state, action)
        actions.append(action)
        states.append(state)
    last = len(states) - 1
    steps = sorted({0, *(int(last * f) for f in KEPT), last})
    return {"setup": {"players": players, "options": options, "seed": seed},
            "actions": actions, "states": [{"step": k, "state": states[k]} for k in steps]}


def write_all(commit: str) -> None:
    """Run in the old tree (``sys.path[0]``): write each game's fixture file."""
    from service.games import registry

    for game_id, setups in SETUPS.items():
        game = registry.get_game(game_id)
        out = {"game": game_id, "rules_version": game.rules_version, "made_from": commit,
               "made_by": "python -m tests.compat.make_fixtures " + commit,
               "games": [play(game, *setup) for setup in setups]}
        target = FIXTURES / game_id / fixture_name(game.rules_version)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(out, ensure_ascii=False, sort_keys=True) + "\n",
                          encoding="utf-8")
        print(target.relative_to(REPO), sum(len(g["states"]) for g in out["games"]), "states")


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[1] == "--inside":  # in the old tree
        import service

        assert not Path(service.__file__).is_relative_to(REPO), "not the old tree's engines"
        write_all(argv[2])
        return 0
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    commit = argv[1]
    archive = subprocess.run(["git", "archive", commit], cwd=REPO, capture_output=True, check=True)
    with tempfile.TemporaryDirectory() as tmp:
        tarfile.open(fileobj=BytesIO(archive.stdout)).extractall(tmp, filter="data")
        # this file as a program, the old tree first on the path (before the editable install)
        return subprocess.run([sys.executable, str(Path(__file__)), "--inside", commit], cwd=tmp,
                              env={**os.environ, "PYTHONPATH": tmp}).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv))
