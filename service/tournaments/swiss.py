"""``POST /v1/tournaments/standings`` (1.0.0): a Swiss of duels, answered by the
events model in the words and numbers 1.0.0 answered with.  Pure, no Flask.

A **match** is a table of two (``events.Table``, ``match``): each game's places
come from the seat the game says won (``match_places``: one winner, else drawn),
and the table's places from the games won.  ``DUEL`` is the event's settings:
a match win 3, a draw 1, a loss 0, a bye 3; a game won 3, drawn 1.  The events
model's standings are then the Swiss's, by other names (``line_json``):

* **match points**: the points; **MW%**: the points share (points / 3 × rounds,
  byes included);
* **GW%**: the game points share (a bye one game won);
* **OMW%** and **OGW%**: the opponents' shares, each raised to the 33% floor
  first (a player who has met no opponent gets the floor).

The next round (``pairing``) pairs the players left top-down by standing, never a
rematch (``pods.pair``); when their number is odd the bye goes to the lowest player
without a bye yet for whom the rest can still be paired; ``None`` when no pairing
without a rematch is left.

>>> r1 = events.Round([match("Ann", "Bob", ["Ann"]), match("Cat", "Dan", ["Dan", None])],
...                   byes=["Eve"])
>>> e = events.checked(events.TournamentEvent(["Ann", "Bob", "Cat", "Dan", "Eve"], DUEL, [r1]))
>>> [(s["player"], s["match_points"]) for s in standings_answer(e, 3)["standings"]]
[('Ann', 3), ('Eve', 3), ('Dan', 3), ('Cat', 0), ('Bob', 0)]
>>> standings_answer(e, 3)["next_round"]
{'round': 2, 'pairings': [['Ann', 'Dan'], ['Eve', 'Cat']], 'bye': 'Bob'}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from service.tournaments import events, pods

DUEL = events.Settings(table_size=2)
#: pairing search steps before giving up (a tournament has no perfect pairing left)
PAIRING_BUDGET = 200_000


def match_places(winners: Sequence[int]) -> list[int]:
    """A match game's places, by seat: the one seat that won first; more than one
    winner, or none, is a drawn game (1.0.0).

    >>> match_places([1]), match_places([0, 1]), match_places([])
    ([2, 1], [1, 1], [1, 1])
    """
    if len(winners) != 1:
        return [1, 1]
    return [1, 2] if winners[0] == 0 else [2, 1]


def match(first: str, second: str, games: Sequence[str | None]) -> events.Table:
    """A match as a table of two, from each game's winner (a name; ``None``: drawn).

    >>> match("a", "b", ["b", None]).games
    [[2, 1], [1, 1]]
    """
    return events.Table([first, second], [
        match_places([] if w is None else [[first, second].index(w)]) for w in games])


def line_json(line: events.Line, record: Counter[str]) -> dict[str, Any]:
    """A standings line as 1.0.0 answers it: percentages as fractions of 1, 4 decimals
    (always a float), ``record`` the player's wins, draws and losses."""
    return {"rank": line.rank, "player": line.player, "match_points": int(line.points),
            "wins": record["wins"], "draws": record["draws"], "losses": record["losses"],
            "byes": line.byes, "games": line.games, "game_points": int(line.game_points),
            "omw": round(float(line.opponents_share), 4), "gw": round(float(line.game_share), 4),
            "ogw": round(float(line.opponents_game_share), 4), "opponents": line.opponents,
            "dropped": line.dropped}


def records(event: events.TournamentEvent) -> dict[str, Counter[str]]:
    """Each player's matches won, drawn and lost: a match won is place 1 alone."""
    out: dict[str, Counter[str]] = {}
    for rnd in event.rounds:
        for table in rnd.tables:
            places = events.table_places(table.games)
            for name, place in zip(table.players, places, strict=True):
                out.setdefault(name, Counter())[
                    "draws" if places == [1, 1] else "wins" if place == 1 else "losses"] += 1
    return out


@dataclass
class Pairing:
    """The next round: pairs in table order (higher standing first) and the bye."""

    pairs: list[tuple[str, str]]
    bye: str | None


def pairing(event: events.TournamentEvent, lines: Sequence[events.Line]) -> Pairing | None:
    """Swiss pairings for the next round (``event`` checked, ``lines`` its standings),
    or ``None`` when every pairing would be a rematch (module docstring)."""
    active = [s.player for s in lines if not s.dropped]
    met = set(events.met_before(event.rounds))
    had_bye = {name for rnd in event.rounds for name in rnd.byes}
    budget = [PAIRING_BUDGET]
    if len(active) % 2 == 0:
        pairs = pods.pair(active, met, budget)
        return None if pairs is None else Pairing(pairs, None)
    candidates = [p for p in reversed(active) if p not in had_bye] or list(reversed(active))
    for bye in candidates:
        pairs = pods.pair([p for p in active if p != bye], met, budget)
        if pairs is not None:
            return Pairing(pairs, bye)
    return None


def standings_answer(event: events.TournamentEvent, games_verified: int) -> dict[str, Any]:
    """The ``/standings`` answer of a duel event already ``checked``."""
    lines = events.ranked(event)
    record = records(event)
    found = pairing(event, lines)
    return {"standings": [line_json(s, record.get(s.player, Counter())) for s in lines],
            "next_round": None if found is None else {
                "round": len(event.rounds) + 1, "pairings": [list(p) for p in found.pairs],
                "bye": found.bye},
            "games_verified": games_verified}
