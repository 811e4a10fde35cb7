"""Tournaments: pure functions, no Flask.

* ``events``: the one tournament model: events with tables of any size a game
  allows, placement points, standings and their tiebreakers, the next round,
  explained (``POST /v1/tournaments/events``);
* ``pods``: seating one round's tables (the repeat-minimising search) and the
  Swiss's no-rematch pairing of duels;
* ``swiss``: ``POST /v1/tournaments/standings`` (1.0.0) as a duel event of the
  events model (matches are tables of two), in 1.0.0's words and numbers;
* ``verify``: a request's body read into the model, every game verified (its
  replay or signed final state, its seats' names, counted once).

``service.http.tournaments`` reads the bodies, hands them here and answers.
"""
