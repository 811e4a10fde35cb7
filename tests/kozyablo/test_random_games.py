"""Seeded random full games over every race pairing (tests/contract.py checks).

Every listed action applies, apply never mutates its input, every game ends
(a win or ``turn_limit``, KOZ-50), states validate and survive JSON, replay
reproduces the final state, a table game fed the server's outcomes ends the
same, and no view shows a secret card (hands, decks, shadowed identities).  The two
long runs play a quarter of their games in ``make test`` (``REFEREE_TEST_SIZE``).
"""

from __future__ import annotations

from collections import Counter

from service.games.kozyablo import GAME
from service.games.kozyablo.setup import RACE_ORDER
from tests.contract import check_random_games
from tests.size import sized

PAIRINGS = [(a, b) for a in RACE_ORDER for b in RACE_ORDER]


def setups(n, options, offset=0):
    return [([{"race": PAIRINGS[k % 16][0]}, {"race": PAIRINGS[k % 16][1]}], options, offset + k)
            for k in range(n)]


def test_random_games_server_chance_all_pairings():
    games = sized(192, least=32)  # every pairing twice at least
    report = check_random_games(GAME, setups(games, {"turn_limit": 60}), every=2)
    assert report["games"] == games
    assert set(report["finished_by"]) <= {"capture", "destruction", "turn_limit"}
    assert report["finished_by"].get("capture", 0) > 50 * games / 192


def test_random_games_table_chance_and_a_count_only():
    report = check_random_games(GAME, setups(16, {"turn_limit": 40, "chance": "table"}, 500))
    assert report["games"] == 16
    report = check_random_games(GAME, [(2, {"turn_limit": 30}, s) for s in range(8)])
    assert report["games"] == 8
    report = check_random_games(GAME, setups(8, {"turn_limit": 30, "response_window": "always"},
                                              300))
    assert report["games"] == 8


def test_random_games_reach_every_kind_of_decision():
    """The random games exercise combat, reactions, responses and shadows."""
    import random

    from service.games.playout import RandomBot, choose_chance, next_actor

    seen: Counter = Counter()
    for game_no, (players, options, seed) in enumerate(setups(64, {"turn_limit": 80}, 900)):
        state, _ = GAME.new_game(players, options, seed)
        rng, bot = random.Random(seed), RandomBot()
        while state["result"] is None:
            who = next_actor(state, rng)
            action = choose_chance(GAME, state, rng) if who == "chance" else \
                bot.choose(GAME, state, who, rng)
            seen[action["type"]] += 1
            state, events = GAME.apply(state, action)
            seen.update(e["type"] for e in events)
    for kind in ("strike", "hold", "strike_held", "evade", "defend", "decline", "pass",
                 "retreat_attack", "entered_shadow", "magic_laid", "magic_ended", "trigger",
                 "died", "capital_captured"):
        assert seen[kind] > 0, kind


#: RULINGS KOZ-51…53: three and four players, mixed and same-race tables
MULTI = [[{"race": "kozly"}, {"race": "pozorki"}, {"race": "zhloby"}],
         [{"race": "trutni"}, {"race": "trutni"}, {"race": "pozorki"}],
         [{"race": "zhloby"}, {"race": "kozly"}, {"race": "trutni"}, {"race": "pozorki"}],
         [{"race": "kozly"}, {"race": "kozly"}, {"race": "kozly"}, {"race": "kozly"}],
         [{"race": "pozorki"}, {"race": "zhloby"}, {"race": "pozorki"}, {"race": "zhloby"}]]


def test_koz_51_to_53_random_games_with_three_and_four_players():
    """RULINGS KOZ-51…53: seeded random 3- and 4-player games pass every contract check
    (both chance modes, a count only too); games won by capture put players out first."""
    runs = [(MULTI[k % len(MULTI)], {"turn_limit": 80}, 700 + k) for k in range(sized(30, least=10))]
    runs += [(MULTI[k % len(MULTI)], {"turn_limit": 40, "chance": "table"}, 800 + k)
             for k in range(sized(10, least=5))]
    runs += [(n, {"turn_limit": 40}, 850 + n) for n in (3, 4)]
    report = check_random_games(GAME, runs, every=3)
    assert report["games"] == len(runs)
    assert set(report["finished_by"]) <= {"capture", "destruction", "turn_limit"}
    assert report["finished_by"].get("capture", 0) > 5 * len(runs) / 42


def test_opposing_sectors_is_has_opposing_cards_for_every_sector():
    """KOZ-17: the one-pass ``opposing_sectors`` (listing) and ``has_opposing_cards``
    (one sector) agree on every sector, for every seat, over random positions; so
    do ``creature_sectors`` (listing) and ``may_enter`` (a ``play_card``'s check,
    KOZ-17/KOZ-23/KOZ-16a), and ``capitals`` (listing) and ``is_capital``."""
    import random

    from service.games.kozyablo.cards import Catalogue
    from service.games.kozyablo.play import creature_sectors, may_enter
    from service.games.kozyablo.sectors import (
        capitals,
        has_opposing_cards,
        is_capital,
        opposing_sectors,
    )
    from service.games.playout import RandomBot, choose_chance, next_actor

    checked = 0
    for players, options, seed in setups(16, {"turn_limit": 40}, 700):
        state, _ = GAME.new_game(players, options, seed)
        rng, bot = random.Random(seed), RandomBot()
        while state["result"] is None:
            for seat in range(len(state["players"])):
                expected = {sid for sid in state["sectors"]
                            if has_opposing_cards(state, sid, seat)}
                assert opposing_sectors(state, seat) == expected
                assert capitals(state) == {sid for sid in state["sectors"]
                                           if is_capital(state, sid)}
                cat = Catalogue.of_state(state)
                assert creature_sectors(state, cat, seat) == sorted(
                    sid for sid in state["sectors"] if may_enter(state, cat, seat, sid))
                checked += 1
            who = next_actor(state, rng)
            action = choose_chance(GAME, state, rng) if who == "chance" else \
                bot.choose(GAME, state, who, rng)
            state, _ = GAME.apply(state, action)
    assert checked > 800
