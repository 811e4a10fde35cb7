"""Seeded random full games through the shared contract checks (tests/contract.py):
2–6 players, every option, both chance modes; server games are reproduced by
table games fed the same outcomes (RAI-4, RAI-5, RAI-10, RAI-11, RAI-14 chance
nodes; RAI-6 and RAI-31 endings).  200 games at full size, the first quarter of each
chunk in ``make test`` (``REFEREE_TEST_SIZE``, tests/size.py)."""

from __future__ import annotations

import random

import pytest

from service.games.objects import JsonObject
from service.games.raiders import GAME
from service.games.raiders.cards import Catalogue
from tests.contract import Setup, SteeringBot, check_random_games
from tests.size import sized

#: games per chunk (50 at full size), the first of each chunk's list
PLAYED = sized(50)

VARIANTS: list[JsonObject] = [
    {}, {"illegal_play": "fizzle"}, {"chance": "table"}, {"double_deck": True},
    {"first_player": 1}, {"short_game": True}, {"teams": True},
    {"short_game": True, "illegal_play": "fizzle", "chance": "table"},
]


def _setups(count: int, seed: int):
    rng = random.Random(seed)
    out: list[Setup] = []
    while len(out) < count:
        players = rng.randint(2, 6)
        options = dict(rng.choice(VARIANTS))
        if options.get("short_game") and players < 3:
            continue
        if options.get("teams") and players != 4:
            continue
        if players == 6 and options.get("double_deck") is False:
            continue
        options["turn_limit"] = rng.randint(6, 40)
        out.append((players, options, rng.randrange(1 << 32)))
    return out


@pytest.mark.parametrize("chunk", range(4))
def test_random_games_satisfy_the_contract(chunk):
    report = check_random_games(GAME, _setups(50, 1000 + chunk)[:PLAYED])
    assert report["games"] == PLAYED


class CaptureBot:
    """Prefers its strongest capture; otherwise random.  Picks listed actions only."""

    def choose(self, game, state, player, rng):
        actions = game.legal_actions(state, player)
        captures = [a for a in actions if a["type"] == "capture"]
        if captures and rng.random() < 0.8:
            cat = Catalogue.of_state(state)
            return max(captures, key=lambda a: (cat.fighter(a["fighter"])["power"],
                                                rng.random()))
        return actions[rng.randrange(len(actions))]


def test_random_games_that_end_in_a_win():
    setups = [(6, {"short_game": True, "turn_limit": 200}, s) for s in range(12)] + \
             [(5, {"short_game": True, "turn_limit": 200, "illegal_play": "fizzle"}, s)
              for s in range(12, 16)]
    report = check_random_games(GAME, setups, bot=CaptureBot(), every=5)
    assert report["finished_by"].get("target_reached", 0) >= 3, report


def test_the_random_setups_cover_every_player_count_and_option():
    """...the games played, at either size."""
    setups = [s for chunk in range(4) for s in _setups(50, 1000 + chunk)[:PLAYED]]
    assert {players for players, _, _ in setups} == {2, 3, 4, 5, 6}
    seen = {(k, v) for _, options, _ in setups for k, v in options.items() if k != "turn_limit"}
    assert {("illegal_play", "fizzle"), ("chance", "table"), ("double_deck", True),
            ("first_player", 1), ("short_game", True), ("teams", True)} <= seen


def test_steered_random_games_reach_rai_6_wins_in_every_variant():
    """RAI-6, RAI-7, RAI-8, RAI-30: games steered toward wins
    (``tests.contract.SteeringBot``) in fizzle mode, teams, table chance and the
    short game reach real wins, and every state on the way passes the contract
    checks (server games are reproduced by table games fed the same outcomes)."""
    setups: list[Setup] = [(6, {"short_game": True, "turn_limit": 100, "illegal_play": "fizzle"}, 1),
              (5, {"short_game": True, "turn_limit": 100, "chance": "table"}, 2),
              (4, {"teams": True, "turn_limit": 100}, 3),
              (6, {"short_game": True, "turn_limit": 100, "first_player": 3}, 4),
              (3, {"short_game": True, "turn_limit": 100, "illegal_play": "fizzle"}, 5),
              (6, {"short_game": True, "turn_limit": 100, "chance": "table"}, 6),
              (5, {"short_game": True, "turn_limit": 100, "illegal_play": "fizzle"}, 7),
              (6, {"short_game": True, "turn_limit": 100, "double_deck": True}, 8)]
    report = check_random_games(GAME, setups, bot=SteeringBot(), every=5)
    assert report["games"] == len(setups)
    assert report["finished_by"].get("target_reached", 0) >= 2, report
