"""Events worked out by hand: real games played at named tables, and the standings
computed here from docs/tournaments.md (points per place, shared places, the
opponents' share with its floor), not by ``service.tournaments.events``.

``table_game(game, seats, seed)`` plays a game of ``len(seats)`` players (the greedy
bot in every seat: Tremble without missions, Raiders with ``turn_limit`` 3) and
returns its replay, its seats named ``seats``, with each seat's place read from its
score as the docs say: the winners share place 1, the others follow by total.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from typing import Any

#: docs/tournaments.md, "Points": best place first, by table size
POINTS = {2: (3, 0), 3: (3, 1, 0), 4: (3, 2, 1, 0), 5: (4, 3, 2, 1, 0), 6: (5, 4, 3, 2, 1, 0)}
DRAW = 1
FLOOR = Fraction(33, 100)
OPTIONS = {"tremble": {"missions": False}, "raiders": {"turn_limit": 3}}


def places_of(score: dict[Any, Any]) -> list[int]:
    """Each seat's place: the winners 1, then by total, highest first (1, 2, 2, 4)."""
    winners = set(score["winners"])
    totals = {line["player"]: line["total"] for line in score["scores"]}
    seats = sorted(totals)
    place = {}
    for seat in seats:
        if seat in winners:
            place[seat] = 1
        else:
            ahead = len(winners) + sum(1 for o in seats if o not in winners and totals[o] > totals[seat])
            place[seat] = ahead + 1
    return [place[s] for s in seats]


@cache
def _played(game_id: str, count: int, seed: int) -> tuple[dict[Any, Any], tuple[int, ...]]:
    from service.games.bots import bot_named
    from service.games.registry import get_game

    game, bot, rng = get_game(game_id), bot_named("greedy"), random.Random(seed)
    options = OPTIONS[game_id]
    state, _ = game.new_game(count, options, seed, "reference")
    actions = []
    while not game.score(state)["finished"]:
        action = bot.choose(game, state, state["pending"][0]["player"], rng)
        actions.append(action)
        state, _ = game.apply(state, action)
    return ({"game": game_id, "setup": {"players": count, "options": options, "seed": seed},
             "actions": actions}, tuple(places_of(game.score(state))))


def table_game(game: str, seats: list[str], seed: int) -> tuple[dict[Any, Any], list[int]]:
    """A finished game of ``game`` at a table of ``seats`` (its replay) and their places."""
    replay, places = _played(game, len(seats), seed)
    return ({**replay, "setup": {**replay["setup"], "players": [{"name": n} for n in seats]},
             "actions": list(replay["actions"])}, list(places))


def table_points(places: list[int]) -> list[Fraction]:
    """Placement points: shared places share their points' mean; all tied is a draw."""
    if len(set(places)) == 1:
        return [Fraction(DRAW)] * len(places)
    table = POINTS[len(places)]
    out = []
    for place in places:
        sharing = places.count(place)
        out.append(Fraction(sum(table[place - 1:place - 1 + sharing]), sharing))
    return out


def standings(players: list[str], rounds: list[list[tuple[list[str], list[int]]]]) -> list[dict[Any, Any]]:
    """The standings of ``rounds`` (each a list of tables: players, their places), byes
    aside: points, the most possible, the opponents' share (floored), ranked by points
    then that share (one game per table: the game shares are the same numbers)."""
    points = {p: Fraction(0) for p in players}
    possible = {p: Fraction(0) for p in players}
    opponents: dict[str, list[str]] = {p: [] for p in players}
    for rnd in rounds:
        for seated, places in rnd:
            for name, got in zip(seated, table_points(places), strict=True):
                points[name] += got
                possible[name] += POINTS[len(seated)][0]
                opponents[name] += [o for o in seated if o != name]
    share = {p: max(points[p] / possible[p] if possible[p] else Fraction(0), FLOOR) for p in players}
    opp = {p: (sum((share[o] for o in opponents[p]), Fraction(0)) / len(opponents[p])
               if opponents[p] else FLOOR) for p in players}
    order = sorted(players, key=lambda p: (-points[p], -opp[p], p))
    lines = []
    for i, p in enumerate(order):
        prev = order[i - 1] if i else None
        rank = lines[-1]["rank"] if prev and (points[prev], opp[prev]) == (points[p], opp[p]) else i + 1
        lines.append({"rank": rank, "player": p, "points": points[p], "possible": possible[p],
                      "opponents_share": opp[p]})
    return lines
