"""The tournament routes: every game verified before it counts.

* ``POST /v1/tournaments/standings``: two-player Swiss standings (matches of
  games, match points, OMW%/GW%/OGW%; ``service.tournaments.swiss``);
* ``POST /v1/tournaments/events``: events with tables of any size the game
  allows, placement points and the next round's tables, explained
  (``service.tournaments.events``; docs/tournaments.md).

A game is verified from its **replay** (``{game, setup, actions}``, replayed
as ``/replay`` does: an illegal step is a 422 with its ``index``, ``rule`` and
``at``) or its **signed or sealed final state** (``{game, state}``; unsigned or
altered → 400 / 403); the replay is used when both are sent.  A game names who
sat in each seat (its setup's ``players[].name``): those must be exactly the
match's (the table's) players.  A game counts once per tournament, by its setup
id (``chain.setup``).  Requests and answers are declared in
``schemas.tournaments`` (the document is built from there, not here); the
descriptions of both operations are there too.  Stateless: send the whole
tournament every time.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from flask import Blueprint, Response

from schemas.envelopes import SETUP
from schemas.tournaments import EVENT, STANDINGS
from service import limits, names, signing, tournaments, transcripts
from service.games.errors import MalformedInput, RuleViolation
from service.games.messages import N_, joined
from service.games.replay import replay as replay_game
from service.http.body import json_response, read_envelope
from service.http.games import check_seat_names, game_or_404, seated
from service.problems import ProblemError
from service.tournaments import events

bp = Blueprint("tournaments", __name__, url_prefix="/v1/tournaments")


def invalid_tournament(errors: dict[str, Any]) -> ProblemError:
    """422 ``invalid-tournament``: rounds that cannot have happened, ``errors`` by field."""
    return ProblemError(422, "invalid-tournament", "Invalid tournament",
                        MalformedInput(errors).detail, errors=errors)


@dataclass(frozen=True)
class Verified:
    """A game once verified: its setup id (``transcripts.setup_id``: one game, however it
    is sent), its seats' names, the seats that won (several: shared) and each seat's place
    (``events.game_places``: the winners, then the others by the game's score)."""

    setup: str
    seats: list[str]
    winners: list[int]
    places: list[int]


def verified_game(found: dict[str, Any], path: str, seats: int | None = 2) -> Verified:
    """Verify one game sent as its replay or its signed or sealed final state (of
    ``seats`` players: a match's two; ``None``: any, the table's names check it)."""
    game = game_or_404(found["game"])
    first: list[str] = []
    try:
        if "setup" in found and "actions" in found:
            setup = {**found["setup"], "players": seated(found["setup"]["players"])}

            def observe(before: dict[str, Any] | None, after: dict[str, Any], _: list[Any]) -> None:
                if before is None:
                    check_seat_names(after, f"{path}.setup.players")
                    first.append(transcripts.setup_id(after))

            state = replay_game(game, setup, found["actions"], observe=observe)["state"]
        elif "state" in found:
            state = game.upgrade_state(signing.accept(found["state"], required=True))[0]
            game.validate_state(state)
            chain = found["state"].get(transcripts.FIELD)  # authenticated by ``accept``
            if not isinstance(chain, dict) or not isinstance(chain.get("setup"), str):
                raise MalformedInput({"state.chain": [N_(
                    "this state names no setup (signed before games had ids): send the game's "
                    "replay (`setup` and `actions`)")]})
            first.append(chain["setup"])
        else:
            raise MalformedInput({"": [N_("send the game's replay (`setup` and `actions`) or "
                                          "its signed final `state`")]})
    except MalformedInput as exc:
        raise type(exc)({f"{path}.{k}".rstrip("."): v for k, v in exc.errors.items()}) \
            from None
    except RuleViolation as exc:
        raise ProblemError(422, "illegal-action", "Illegal action", exc.reason, rule=exc.rule,
                           index=exc.index, at=path) from None
    outcome = game.score(state)
    if seats is not None and len(state["players"]) != seats:
        raise invalid_tournament({path: [N_("a match game has two players")]})
    if not outcome["finished"]:
        raise invalid_tournament({path: [N_("the game is not finished")]})
    return Verified(first[0], [p["name"] for p in state["players"]], outcome["winners"],
                    events.game_places(outcome))


def bound_winners(players: list[str], found: Verified, path: str) -> list[str | None]:
    """The game's winner as the match names them (``[None]``: drawn), once the names its
    seats were given are the match's two players (``service.names``: any spelling with
    the same key; either seat order)."""
    match = names.roster(players)
    seated_as = [names.resolved(name, match) for name in found.seats]
    if None in seated_as or len(set(seated_as)) != len(players):
        raise invalid_tournament({path: [N_(
            "the game was played by {seats} (its setup's `players[].name`), not by this "
            "match's {players}", seats=joined(repr(n) for n in found.seats),
            players=joined(repr(n) for n in players))]})
    if len(found.winners) != 1:
        return [None]
    return [seated_as[found.winners[0]]]


def count_once(counted: dict[str, str], setup: str, path: str) -> None:
    """Note the game of setup id ``setup`` at ``path``; a game already counted in this
    tournament (the same setup, however it is sent) is refused naming both places."""
    if setup in counted:
        raise invalid_tournament({path: [N_(
            "this game is already counted at {other}: a game counts once per "
            "tournament (the same setup, however it is sent)", other=counted[setup])]})
    counted[setup] = path


@bp.post("/standings")
def standings() -> Response:
    """Standings and the next round's pairings of a tournament (module docstring)."""
    body = read_envelope(STANDINGS)
    # the names first (a look-alike, a stranger, twice in a round), before any game is read
    skeleton = [tournaments.Round([tournaments.Match(tuple(m["players"]), [])
                                   for m in rnd["matches"]], rnd["byes"], rnd["drops"])
                for rnd in body["rounds"]]
    try:
        tournaments.check(*tournaments.resolve(body["players"], skeleton))
    except MalformedInput as exc:
        raise invalid_tournament(exc.errors) from None
    rounds: list[tournaments.Round] = []
    counted: dict[str, str] = {}
    for r, rnd in enumerate(body["rounds"]):
        matches = []
        for m, match in enumerate(rnd["matches"]):
            winners: list[str | None] = []
            for g, found in enumerate(match["games"]):
                path = f"rounds.{r}.matches.{m}.games.{g}"
                game = verified_game(found, path)
                count_once(counted, game.setup, path)
                winners += bound_winners(match["players"], game, path)
            matches.append(tournaments.Match(tuple(match["players"]), winners))
        rounds.append(tournaments.Round(matches, rnd["byes"], rnd["drops"]))
    try:
        table = tournaments.standings(body["players"], rounds)
    except MalformedInput as exc:
        raise invalid_tournament(exc.errors) from None
    pairing = tournaments.next_round(table, rounds)
    return json_response({
        "standings": [line.to_json() for line in table],
        "next_round": None if pairing is None else {
            "round": len(rounds) + 1, "pairings": [list(p) for p in pairing.pairs],
            "bye": pairing.bye},
        "games_verified": len(counted)})


# ------------------------------------------------------------------------------ /events
def event_settings(sent: dict[str, Any]) -> events.Settings:
    """The event's settings, checked against each other and the game (422 naming the
    field: a size the game does not seat, a points list not one per seat or rising)."""
    low, high = limits.MIN_SEATS, limits.MAX_SEATS
    if "game" in sent:
        game = game_or_404(sent["game"])
        low, high = game.min_players, game.max_players
    sizes = tuple(sent.get("table_sizes", ()))
    for path, size in [("settings.table_size", sent["table_size"]),
                       *((f"settings.table_sizes.{i}", s) for i, s in enumerate(sizes))]:
        if not low <= size <= high:
            raise invalid_tournament({path: [N_(
                "the game seats {low} to {high} players, not {size}", low=low, high=high,
                size=size)]})
    points: dict[int, tuple[Fraction, ...]] = {}
    for key, listed in sent.get("points", {}).items():
        path = f"settings.points.{key}"
        if not key.isdigit() or len(listed) != int(key):
            raise invalid_tournament({path: [N_(
                "a table size, with one number of points per place")]})
        values = tuple(Fraction(str(v)) for v in listed)
        if any(b > a for a, b in zip(values, values[1:], strict=False)):
            raise invalid_tournament({path: [N_("a later place may not score more")]})
        points[int(key)] = values
    optional = {k: Fraction(str(sent[k])) for k in ("draw", "bye", "floor") if k in sent}
    return events.Settings(table_size=sent["table_size"], table_sizes=sizes,
                           seats=(low, high), points=points, **optional)


def hand_places(players: list[str], placements: list[list[str]], path: str) -> list[int]:
    """Each table player's place from groups entered by hand (best first, a group
    shares its place); the groups must name the table's players, each once."""
    seated = names.roster(players)
    place: dict[str, int] = {}
    reached = 1
    for g, group in enumerate(placements):
        for name in group:
            found = names.resolved(name, seated)
            if found is None or found in place:
                raise invalid_tournament({f"{path}.{g}": [N_(
                    "{name!r} is not a player of this table, or is placed twice",
                    name=name)]})
            place[found] = reached
        reached += len(group)
    if len(place) != len(players):
        raise invalid_tournament({path: [N_("every player of the table must be placed")]})
    return [place[names.resolved(p, seated) or p] for p in players]


def bound_places(players: list[str], found: Verified, path: str) -> list[int]:
    """The game's places in the table's player order, once the names its seats were given
    are exactly the table's players (any spelling with the same key; any seat order)."""
    table = names.roster(players)
    seated_as = [names.resolved(name, table) for name in found.seats]
    if None in seated_as or len(set(seated_as)) != len(players) or \
            len(found.seats) != len(players):
        raise invalid_tournament({f"{path}.setup.players": [N_(
            "the game was played by {seats} (its setup's `players[].name`), not by this "
            "table's {players}", seats=joined(repr(n) for n in found.seats),
            players=joined(repr(n) for n in players))]})
    by_name = dict(zip(seated_as, found.places, strict=True))
    return [by_name[names.resolved(p, table)] for p in players]


@bp.post("/events")
def event() -> Response:
    """An event's standings and its next round's tables (``schemas.tournaments``)."""
    body = read_envelope(EVENT)
    settings = event_settings(body["settings"])
    players = [p if isinstance(p, str) else events.Player(p["name"], p.get("joins", 1))
               for p in body["players"]]
    # the names first (a look-alike, a stranger, twice in a round), before any game is read
    skeleton = [events.Round([events.Table(t["players"], []) for t in rnd["tables"]],
                             rnd.get("byes", []), rnd.get("drops", []))
                for rnd in body["rounds"]]
    try:
        events.check(events.resolve(events.Event(players, settings, skeleton)))
    except MalformedInput as exc:
        raise invalid_tournament(exc.errors) from None
    rounds: list[events.Round] = []
    counted: dict[str, str] = {}
    for r, rnd in enumerate(body["rounds"]):
        tables = []
        for t, sent in enumerate(rnd["tables"]):
            at = f"rounds.{r}.tables.{t}"
            if not settings.seats[0] <= len(sent["players"]) <= settings.seats[1]:
                raise invalid_tournament({f"{at}.players": [N_(
                    "the game seats {low} to {high} players, not {size}", low=settings.seats[0],
                    high=settings.seats[1], size=len(sent["players"]))]})
            if "placements" in sent:
                tables.append(events.Table(sent["players"], [hand_places(
                    sent["players"], sent["placements"], f"{at}.placements")], verified=False))
                continue
            places, ids = [], []
            for g, found in enumerate(sent["games"]):
                path = f"{at}.games.{g}"
                if "game" in body["settings"] and found["game"] != body["settings"]["game"]:
                    raise invalid_tournament({f"{path}.game": [N_(
                        "the event plays {game}", game=body["settings"]["game"])]})
                if "setup" in found:
                    found = {**found, "setup": SETUP.filled(found["setup"])}
                game = verified_game(found, path, seats=None)
                count_once(counted, game.setup, path)
                places.append(bound_places(sent["players"], game, path))
                ids.append(game.setup)
            tables.append(events.Table(sent["players"], places, ids=ids))
        rounds.append(events.Round(tables, rnd.get("byes", []), rnd.get("drops", [])))
    resolved = events.resolve(events.Event(players, settings, rounds))
    try:
        events.check(resolved)
    except MalformedInput as exc:
        raise invalid_tournament(exc.errors) from None
    lines, proposal = events.evaluate(resolved)
    return json_response({
        "standings": [line.to_json() for line in lines],
        "rounds": [{"round": r + 1, "byes": rnd.byes, "drops": rnd.drops, "tables": [
            result_json(t + 1, table, settings) for t, table in enumerate(rnd.tables)]}
            for r, rnd in enumerate(resolved.rounds)],
        "next_round": None if proposal is None else proposal.to_json(),
        "games_verified": len(counted),
        "settings": {
            "table_size": settings.table_size, "table_sizes": list(settings.sizes()),
            "points": {str(n): [events.number(p) for p in settings.points_for(n)]
                       for n in sorted({*settings.sizes(), *(len(t.players) for rnd in rounds
                                                               for t in rnd.tables)})},
            "draw": events.number(settings.draw), "bye": events.number(settings.bye_points()),
            "floor": events.number(settings.floor)}})


def result_json(number: int, table: events.Table, settings: events.Settings) -> dict[str, Any]:
    places = events.table_places(table.games)
    return {"table": number, "players": table.players, "places": places,
            "points": [events.number(p) for p in events.placement_points(places, settings)],
            "verified": table.verified, "games": table.ids}
