"""A tournament request read into the events model, every game verified: pure (no
Flask).  Both routes read their body here (``standings``: 1.0.0's Swiss matches,
tables of two; ``event``: tables of any size); they hand in how to find a game
(``lookup``) and how to open a signed or sealed state (``accept``), and turn the
errors below into problems.

A game is verified from its **replay** (``{game, setup, actions}``, replayed as
``/replay`` does: an illegal step is ``IllegalStep``, with the game's path) or its
**signed or sealed final state** (``{game, state}``, opened by ``accept``); the
replay is used when both are sent.  A game names who sat in each seat (its setup's
``players[].name``, checked as ``names.checked`` checks names: ``InvalidName``):
those must be exactly the match's or table's players, in any seat order.  A game
counts once per tournament, by its setup id (``chain.setup``: the same for a game's
replay and its states).  A game must be finished.  Rounds that cannot have happened,
and a game that does not count, are ``InvalidTournament``, naming the field.

The names are checked first (a look-alike, a stranger, twice in a round), before
any game is read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from service import names, transcripts
from service.games.base import AnyGame, GameState
from service.games.errors import InvalidName, MalformedInput, RuleViolation
from service.games.messages import N_, joined
from service.games.replay import replay as replay_game
from service.limits import MAX_SEATS, MIN_SEATS
from service.tournaments import swiss
from service.tournaments.events import (
    MATCHES,
    Entry,
    Round,
    Settings,
    Table,
    TournamentEvent,
    checked,
    game_places,
)

#: a game by its id (the route's answers a 404 for an unknown one)
Lookup = Callable[[str], AnyGame]
#: a signed or sealed state opened (``service.signing.accept``, a signature required)
Accept = Callable[[Any], Any]


class InvalidTournament(MalformedInput):
    """Rounds that cannot have happened, a game that does not count or bad settings
    (422 ``invalid-tournament``)."""


class IllegalStep(RuleViolation):
    """A replayed game's step that breaks a rule, ``at`` the game's path in the body."""

    def __init__(self, broken: RuleViolation, at: str) -> None:
        super().__init__(broken.rule, broken.reason, broken.index)
        self.at = at


@dataclass(frozen=True)
class Verified:
    """A game once verified: its setup id (one game, however it is sent), its seats'
    names, the seats that won (several: shared) and each seat's place
    (``events.game_places``: the winners, then the others by the game's score)."""

    setup: str
    seats: list[str]
    winners: list[int]
    places: list[int]


def verified_game(found: dict[str, Any], path: str, game: AnyGame, accept: Accept,
                  two_seats: bool) -> Verified:
    """Verify one game sent as its replay or its signed or sealed final state (of two
    players when ``two_seats``: a match's; else the table's names check it)."""
    first: list[str] = []
    try:
        if "setup" in found and "actions" in found:
            setup = {**found["setup"], "players": names.seated(found["setup"]["players"])}

            def observe(before: GameState | None, after: GameState, _: object) -> None:
                if before is None:
                    seat_names(after, f"{path}.setup.players")
                    first.append(transcripts.setup_id(after))

            state = replay_game(game, setup, found["actions"], observe=observe)["state"]
        elif "state" in found:
            state = game.upgrade_state(accept(found["state"]))[0]
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
    except InvalidName:
        raise
    except MalformedInput as exc:
        raise type(exc)({f"{path}.{k}".rstrip("."): v for k, v in exc.errors.items()}) \
            from None
    except RuleViolation as exc:
        raise IllegalStep(exc, path) from None
    outcome = game.score(state)
    if two_seats and len(state["players"]) != 2:
        raise InvalidTournament({path: [N_("a match game has two players")]})
    if not outcome["finished"]:
        raise InvalidTournament({path: [N_("the game is not finished")]})
    return Verified(first[0], [p["name"] for p in state["players"]], outcome["winners"],
                    game_places(outcome))


def seat_names(state: GameState, path: str) -> None:
    """``InvalidName`` at ``<path>.<seat>.name`` for a seat's name ``names.checked``
    refuses.  Asked after the game's own setup rules, which speak first."""
    names.check_seats(state["players"], path)


def bound(players: list[str], found: Verified, path: str, match: bool) -> list[int]:
    """The game's places in the order of ``players``, once the names its seats were
    given are exactly them (any spelling with the same key, any seat order).  In a
    ``match`` (1.0.0) the seat the game says won wins: ``swiss.match_places``."""
    table = names.roster(players)
    seated_as = [names.resolved(name, table) for name in found.seats]
    if None in seated_as or len(set(seated_as)) != len(players) or \
            len(found.seats) != len(players):
        seats, them = joined(repr(n) for n in found.seats), joined(repr(n) for n in players)
        if match:
            raise InvalidTournament({path: [N_(
                "the game was played by {seats} (its setup's `players[].name`), not by this "
                "match's {players}", seats=seats, players=them)]})
        raise InvalidTournament({f"{path}.setup.players": [N_(
            "the game was played by {seats} (its setup's `players[].name`), not by this "
            "table's {players}", seats=seats, players=them)]})
    places = swiss.match_places(found.winners) if match else found.places
    by_name = dict(zip(seated_as, places, strict=True))
    return [by_name[names.resolved(p, table)] for p in players]


def count_once(counted: dict[str, str], setup: str, path: str) -> None:
    """Note the game of setup id ``setup`` at ``path``; a game already counted in this
    tournament (the same setup, however it is sent) is refused naming both places."""
    if setup in counted:
        raise InvalidTournament({path: [N_(
            "this game is already counted at {other}: a game counts once per "
            "tournament (the same setup, however it is sent)", other=counted[setup])]})
    counted[setup] = path


def possible(event: TournamentEvent) -> TournamentEvent:
    """``events.checked``, its refusals ``InvalidTournament``."""
    try:
        return checked(event)
    except MalformedInput as exc:
        raise InvalidTournament(exc.errors) from None


# --------------------------------------------------------------------- the two requests
def standings(body: dict[str, Any], lookup: Lookup, accept: Accept) -> tuple[TournamentEvent, int]:
    """``/standings``' body (1.0.0) as a duel event (``swiss.DUEL``, checked) and the
    number of games verified."""
    players = body["players"]
    possible(TournamentEvent(players, swiss.DUEL, [
        Round([Table(list(m["players"]), []) for m in rnd["matches"]], rnd["byes"], rnd["drops"])
        for rnd in body["rounds"]], MATCHES))
    counted: dict[str, str] = {}
    rounds = []
    for r, rnd in enumerate(body["rounds"]):
        tables = []
        for m, match in enumerate(rnd["matches"]):
            places, ids = [], []
            for g, found in enumerate(match["games"]):
                path = f"rounds.{r}.matches.{m}.games.{g}"
                game = verified_game(found, path, lookup(found["game"]), accept, two_seats=True)
                count_once(counted, game.setup, path)
                places.append(bound(match["players"], game, path, match=True))
                ids.append(game.setup)
            tables.append(Table(list(match["players"]), places, ids=ids))
        rounds.append(Round(tables, rnd["byes"], rnd["drops"]))
    return possible(TournamentEvent(players, swiss.DUEL, rounds, MATCHES)), len(counted)


def event(body: dict[str, Any], lookup: Lookup, accept: Accept) -> tuple[TournamentEvent, int]:
    """``/events``' body as an event (checked) and the number of games verified (each
    game's ``setup`` already filled with its defaults)."""
    sent = body["settings"]
    settings = event_settings(sent, lookup)
    players: list[str | Entry] = [p if isinstance(p, str) else Entry(p["name"], p.get("joins", 1))
                                  for p in body["players"]]
    possible(TournamentEvent(players, settings, [
        Round([Table(t["players"], []) for t in rnd["tables"]], rnd.get("byes", []),
              rnd.get("drops", [])) for rnd in body["rounds"]]))
    low, high = settings.seats
    counted: dict[str, str] = {}
    rounds = []
    for r, rnd in enumerate(body["rounds"]):
        tables = []
        for t, table in enumerate(rnd["tables"]):
            at = f"rounds.{r}.tables.{t}"
            if not low <= len(table["players"]) <= high:
                raise InvalidTournament({f"{at}.players": [N_(
                    "the game seats {low} to {high} players, not {size}", low=low, high=high,
                    size=len(table["players"]))]})
            if "placements" in table:
                tables.append(Table(table["players"], [hand_places(
                    table["players"], table["placements"], f"{at}.placements")], verified=False))
                continue
            places, ids = [], []
            for g, found in enumerate(table["games"]):
                path = f"{at}.games.{g}"
                if "game" in sent and found["game"] != sent["game"]:
                    raise InvalidTournament({f"{path}.game": [N_(
                        "the event plays {game}", game=sent["game"])]})
                game = verified_game(found, path, lookup(found["game"]), accept, two_seats=False)
                count_once(counted, game.setup, path)
                places.append(bound(table["players"], game, path, match=False))
                ids.append(game.setup)
            tables.append(Table(table["players"], places, ids=ids))
        rounds.append(Round(tables, rnd.get("byes", []), rnd.get("drops", [])))
    return possible(TournamentEvent(players, settings, rounds)), len(counted)


def event_settings(sent: dict[str, Any], lookup: Lookup) -> Settings:
    """The event's settings, checked against each other and the game (naming the
    field: a size the game does not seat, a points list not one per seat or rising)."""
    low, high = MIN_SEATS, MAX_SEATS
    if "game" in sent:
        game = lookup(sent["game"])
        low, high = game.min_players, game.max_players
    sizes = tuple(sent.get("table_sizes", ()))
    for path, size in [("settings.table_size", sent["table_size"]),
                       *((f"settings.table_sizes.{i}", s) for i, s in enumerate(sizes))]:
        if not low <= size <= high:
            raise InvalidTournament({path: [N_(
                "the game seats {low} to {high} players, not {size}", low=low, high=high,
                size=size)]})
    points: dict[int, tuple[Fraction, ...]] = {}
    for key, listed in sent.get("points", {}).items():
        path = f"settings.points.{key}"
        if not key.isdigit() or len(listed) != int(key):
            raise InvalidTournament({path: [N_(
                "a table size, with one number of points per place")]})
        values = tuple(Fraction(str(v)) for v in listed)
        if any(b > a for a, b in zip(values, values[1:], strict=False)):
            raise InvalidTournament({path: [N_("a later place may not score more")]})
        points[int(key)] = values
    optional = {k: Fraction(str(sent[k])) for k in ("draw", "bye", "floor") if k in sent}
    return Settings(table_size=sent["table_size"], table_sizes=sizes, seats=(low, high),
                    points=points, **optional)


def hand_places(players: list[str], placements: list[list[str]], path: str) -> list[int]:
    """Each table player's place from groups entered by hand (best first, a group
    shares its place); the groups must name the table's players, each once.

    >>> hand_places(["Ann", "Bob", "Cat"], [["bob"], ["Ann", "Cat"]], "p")
    [2, 1, 2]
    """
    seated = names.roster(players)
    place: dict[str, int] = {}
    reached = 1
    for g, group in enumerate(placements):
        for name in group:
            found = names.resolved(name, seated)
            if found is None or found in place:
                raise InvalidTournament({f"{path}.{g}": [N_(
                    "{name!r} is not a player of this table, or is placed twice",
                    name=name)]})
            place[found] = reached
        reached += len(group)
    if len(place) != len(players):
        raise InvalidTournament({path: [N_("every player of the table must be placed")]})
    return [place[names.resolved(p, seated) or p] for p in players]
