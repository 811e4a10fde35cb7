"""The tournament routes: every game verified before it counts.

* ``POST /v1/tournaments/standings``: two-player Swiss standings (matches of
  games, match points, OMW%/GW%/OGW%; 1.0.0's answer: ``service.tournaments.swiss``);
* ``POST /v1/tournaments/events``: events with tables of any size the game
  allows, placement points and the next round's tables, explained
  (``service.tournaments.events``; docs/tournaments.md).

Both bodies are read into the one model by ``service.tournaments.verify`` (every
game's replay or signed or sealed final state verified there, its seats' names
against the match's or table's players, each game counted once); this module
hands it the game registry and the state keys, and turns its errors into
problems.  Requests and answers, the descriptions and the examples of both
operations are declared in ``schemas.tournaments``.  Stateless: send the whole tournament every time.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from flask import Response

from schemas import tournaments as declared
from schemas.envelopes import SETUP
from schemas.tournaments import EVENT, STANDINGS
from service import signing
from service.games.errors import InvalidName
from service.http.body import json_response, read_envelope
from service.http.games import game_or_404
from service.http.route import Routes, Success
from service.problems import ProblemError
from service.tournaments import events, swiss, verify

bp = Routes("tournaments", __name__)
#: a game's signed or sealed state is only evidence when it is signed or sealed
accept = partial(signing.accept, required=True)


@contextmanager
def refusals_as_problems() -> Iterator[None]:
    """``verify``'s refusals as problems: 422 ``invalid-tournament`` (``errors`` by
    field), ``invalid-name``, ``illegal-action`` (with ``index``, ``rule``, ``at``)."""
    try:
        yield
    except verify.InvalidTournament as exc:
        raise ProblemError(422, "invalid-tournament", "Invalid tournament", exc.detail,
                           errors=exc.errors) from None
    except InvalidName as exc:
        raise ProblemError.of("invalid-name", exc.detail, errors=exc.errors) from None
    except verify.IllegalStep as exc:
        raise ProblemError(422, "illegal-action", "Illegal action", exc.reason, rule=exc.rule,
                           index=exc.index, at=exc.at) from None


@bp.declare("post", "/v1/tournaments/standings", operation_id="tournament_standings",
            summary="Tournament standings and the next Swiss round",
            description=declared.STANDINGS_DESCRIPTION, tags=("tournaments",),
            request="StandingsRequest", request_example=declared.standings_example,
            answers={200: Success("Standings, best first, and the next round's pairings.",
                                 schema="StandingsResponse")}, errors=declared.ERRORS)
def standings() -> Response:
    """Standings and the next round's pairings of a tournament (module docstring)."""
    body = read_envelope(STANDINGS)
    with refusals_as_problems():
        event, verified = verify.standings(body, game_or_404, accept)
    return json_response(swiss.standings_answer(event, verified))


@bp.declare("post", "/v1/tournaments/events", operation_id="tournament_event",
            summary="Event standings and the next round's tables (any table size)",
            description=declared.EVENT_DESCRIPTION, tags=("tournaments",),
            request="EventRequest", request_example=declared.event_example,
            answers={200: Success("Standings, best first, each table's result, and the next "
                                 "round's tables.", schema="EventResponse")},
            errors=declared.ERRORS)
def event() -> Response:
    """An event's standings and its next round's tables (``schemas.tournaments``)."""
    body = read_envelope(EVENT)
    for table in (t for rnd in body["rounds"] for t in rnd["tables"] if "games" in t):
        table["games"] = [{**g, "setup": SETUP.filled(g["setup"])} if "setup" in g else g
                          for g in table["games"]]  # replayed with the setup's defaults
    with refusals_as_problems():
        resolved, verified = verify.event(body, game_or_404, accept)
    settings = resolved.settings
    lines, proposal = events.evaluate(resolved)
    return json_response({
        "standings": [line.to_json() for line in lines],
        "rounds": [{"round": r + 1, "byes": rnd.byes, "drops": rnd.drops, "tables": [
            result_json(t + 1, table, settings) for t, table in enumerate(rnd.tables)]}
            for r, rnd in enumerate(resolved.rounds)],
        "next_round": None if proposal is None else proposal.to_json(),
        "games_verified": verified,
        "settings": {
            "table_size": settings.table_size, "table_sizes": list(settings.sizes()),
            "points": {str(n): [events.number(p) for p in settings.points_for(n)]
                       for n in sorted({*settings.sizes(), *(len(t.players)
                                                             for rnd in resolved.rounds
                                                             for t in rnd.tables)})},
            "draw": events.number(settings.draw), "bye": events.number(settings.bye_points()),
            "floor": events.number(settings.floor)}})


def result_json(number: int, table: events.Table, settings: events.Settings) -> dict[str, Any]:
    places = events.table_places(table.games)
    return {"table": number, "players": table.players, "places": places,
            "points": [events.number(p) for p in events.placement_points(places, settings)],
            "verified": table.verified, "games": table.ids}
