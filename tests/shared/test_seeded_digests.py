"""Behaviour fingerprints: the digest of several hundred seeded random games per game.

Each group (game, player count, chance mode) plays its seeded games with the
random bot and hashes every game's action list and final state.  The digests
are committed in ``seeded_digests.json``: a refactoring must leave every group
unchanged, and a rules change moves only the groups the rule can reach (say
which in the commit).  After a deliberate rules change, rewrite the file:

    .venv/bin/python -m tests.shared.test_seeded_digests --write

and commit it with the change.  A group listed here that the engines no longer
offer (or the reverse) fails, so a new player count is recorded on purpose.
"""

from __future__ import annotations

import hashlib
import json
import pathlib
import sys
from typing import Any

import orjson
import pytest

from service.games.playout import random_playout
from service.games.registry import all_games, get_game

DIGESTS = pathlib.Path(__file__).with_name("seeded_digests.json")
#: seeded games per game and chance mode, spread over its player counts
GAMES_PER_MODE = {"server": 240, "table": 80}
#: keeps random games short enough for the suite; applied where the game has the option
TURN_LIMIT = {"raiders": 40, "kozyablo": 60}


def groups() -> list[tuple[str, int, str]]:
    return [(game.id, players, mode)
            for game in all_games()
            for players in range(game.min_players, game.max_players + 1)
            for mode in ("server", "table")]


def group_key(game_id: str, players: int, mode: str) -> str:
    return f"{game_id}/{players}p/{mode}"


def group_digest(game_id: str, players: int, mode: str) -> str:
    game = get_game(game_id)
    options: dict[Any, Any] = {"chance": mode}
    if game_id in TURN_LIMIT:
        options["turn_limit"] = TURN_LIMIT[game_id]
    h = hashlib.sha256()
    counts = game.max_players - game.min_players + 1
    for seed in range(-(-GAMES_PER_MODE[mode] // counts)):
        state, _ = game.new_game(players, options, seed=seed)
        final, actions, _ = random_playout(game, state, seed=seed)
        h.update(orjson.dumps(actions, option=orjson.OPT_SORT_KEYS))
        h.update(orjson.dumps(final, option=orjson.OPT_SORT_KEYS))
    return h.hexdigest()


def recorded() -> dict[str, str]:
    return json.loads(DIGESTS.read_text(encoding="utf-8"))


def test_the_recorded_groups_are_the_playable_ones():
    assert set(recorded()) == {group_key(*g) for g in groups()}


@pytest.mark.parametrize("group", groups(), ids=lambda g: group_key(*g))
def test_seeded_games_are_unchanged(group):
    expected = recorded().get(group_key(*group))
    assert group_digest(*group) == expected, (
        f"{group_key(*group)}: the seeded games changed; if a rule changed on purpose, "
        "rewrite with `python -m tests.shared.test_seeded_digests --write` and say so")


def main(argv: list[str]) -> int:
    if argv != ["--write"]:
        print(__doc__)
        return 2
    old = recorded() if DIGESTS.exists() else {}
    new = {group_key(*g): group_digest(*g) for g in groups()}
    for key in sorted(set(old) | set(new)):
        if old.get(key) != new.get(key):
            print(f"changed: {key}")
    DIGESTS.write_text(json.dumps(new, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
