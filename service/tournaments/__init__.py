"""Tournaments: pure functions, no Flask, no games.

* ``swiss``: the two-player Swiss of ``POST /v1/tournaments/standings`` (matches of
  one or more games, match points, OMW%/GW%/OGW%, no-rematch pairings);
* ``events``: events with tables of any size a game allows (``POST
  /v1/tournaments/events``): placement points, pods, repeat-minimising pairings
  (the seating search: ``pods``), explained.  Its two-seat case with the default
  points is ``swiss``'s numbers (``tests/tournaments/test_events.py`` holds
  both to it).

``service.http.tournaments`` verifies every game and hands the results here.
"""

from service.tournaments.swiss import (
    FLOOR,
    GAME_DRAW,
    GAME_WIN,
    MATCH_DRAW,
    MATCH_WIN,
    PAIRING_BUDGET,
    Match,
    Pairing,
    Round,
    Standing,
    check,
    match_winner,
    next_round,
    resolve,
    standings,
)

__all__ = ["FLOOR", "GAME_DRAW", "GAME_WIN", "MATCH_DRAW", "MATCH_WIN", "PAIRING_BUDGET",
           "Match", "Pairing", "Round", "Standing", "check", "match_winner", "next_round",
           "resolve", "standings"]
