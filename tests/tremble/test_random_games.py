"""200 seeded random full games per player count through the shared contract (at full
size; ``REFEREE_TEST_SIZE``, tests/size.py: a quarter of them in ``make test``).

Every game: only listed actions are picked and each applies, ``apply`` never
mutates its input, the game ends when the city deck is played out, replay
reproduces the final state, and (on every 8th state and the last) the state
round-trips JSON, passes ``validate_state`` (card conservation included) and
no view shows a secret id (TRE-33).  A subset also runs every check on every
state and replays the server's chance outcomes as a table game.
"""

from __future__ import annotations

from typing import Any

import pytest

from service.games.tremble import GAME
from tests.contract import check_random_games
from tests.size import sized

GAMES = sized(200)
FULL = sized(16)  # of them with every check on every state and the table reproduction


def options(seed: int) -> dict[Any, Any]:
    opts = {}
    if seed % 3 == 0:
        opts["missions"] = False
    if seed % 7 == 3:
        opts["chance"] = "table"
    return opts


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_tre_28_random_games_end_when_the_city_deck_is_played_out(players):
    """TRE-28: random games end when the city deck is played out."""
    base = 1000 * players
    full = check_random_games(GAME, [(players, options(s), base + s) for s in range(FULL)])
    rest = check_random_games(GAME, [(players, options(s), base + s)
                                     for s in range(FULL, GAMES)],
                              every=8, table_reproduction=False)
    assert full["games"] + rest["games"] == GAMES
    assert full["finished_by"] == {"city deck played out": FULL}
    assert rest["finished_by"] == {"city deck played out": GAMES - FULL}
