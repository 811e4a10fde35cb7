"""The tournament routes' declarations: their requests, answers, descriptions and examples.

``service.http.tournaments`` checks requests with these and declares its two routes
from them; ``service.openapi`` registers ``components``.

* ``POST /v1/tournaments/standings`` (two-player Swiss, since 1.0.0): its
  request is ``shape_1_0`` specs (they refuse a body as the 1.0.0 marshmallow
  schemas did, and are documented as then), its answer shape specs in the
  answers' published spelling, so the document (and every client generated
  from it) stays the same.
* ``POST /v1/tournaments/events`` (tables of any size, 2.0.0): its request is a
  ``shape`` declaration (``EVENT``, an ``Envelope``: the one declaration checks
  the body and is its component), its answer a shape spec documented the same way.
"""

from __future__ import annotations

from typing import Any

from schemas.document import camel, options_for_count
from schemas.envelopes import SETUP, Envelope
from service.games import registry, shape
from service.games.base import AnyGame
from service.games.shape_1_0 import AnObject, Checked, Items, Record, Text
from service.limits import (
    MAX_ENTRANT_NAME,
    MAX_ENTRANTS,
    MAX_EXPLANATION_LENGTH,
    MAX_GAMES,
    MAX_POINTS,
    MAX_REPLAY_ACTIONS,
    MAX_ROUNDS,
    MAX_SEATS,
    MIN_SEATS,
)
from service.tournaments import events

NAME = Text(1, MAX_ENTRANT_NAME)


# ------------------------------------------------------- /standings (two players, 1.0.0)
#: one game of a match: its replay (``setup`` + ``actions``) or its signed final ``state``;
#: other members (an exported result's ``outcome``…) are dropped.  Never a component of
#: its own: the document describes it per game (``game_schemas``)
TOURNAMENT_GAME = Record({
    "game": Text(),
    "setup": Checked(SETUP.spec, SETUP.filled, "Setup"),
    "actions": Items(AnObject(), max_items=MAX_REPLAY_ACTIONS),
    "state": AnObject("must be an object (a game state as `new` or `apply` returned it)"),
}, required=("game",), unknown="exclude")
TOURNAMENT_MATCH = Record({
    "players": Items(NAME, 2, 2, description=(
        "The two players, in any order: each game names who sat in each seat (its setup's "
        "`players[].name`), and those names must be these two.")),
    "games": Items(shape.Ref("TournamentGame", TOURNAMENT_GAME), 1, MAX_GAMES),
}, required=("players", "games"))
TOURNAMENT_ROUND = Record({
    "matches": Items(shape.Ref("TournamentMatch", TOURNAMENT_MATCH), max_items=MAX_ENTRANTS // 2),
    "byes": Items(NAME, description="Players given a bye this round (a match win, no opponent)."),
    "drops": Items(NAME, description=(
        "Players who leave after this round: still in the standings, never paired again.")),
}, required=("matches",), defaults={"byes": list, "drops": list})
#: the request, refused as 1.0.0 refused it (``shape_1_0``: the same paths and messages)
STANDINGS = Record({
    "players": Items(NAME, 2, MAX_ENTRANTS, unique=True),
    "rounds": Items(shape.Ref("TournamentRound", TOURNAMENT_ROUND), max_items=MAX_ROUNDS),
}, required=("players", "rounds"))

_INT = shape.Int()
_TEXT = shape.Str()
STANDING_LINE = shape.Obj({
    "rank": shape.Int(description="Shared by players equal on every tiebreaker."),
    "player": _TEXT,
    "match_points": shape.Int(description="Win 3, draw 1, loss 0, bye 3."),
    "wins": _INT, "draws": _INT, "losses": _INT, "byes": _INT,
    "games": shape.Int(description="Games played (a bye: one)."),
    "game_points": shape.Int(description="A game won 3, drawn 1 (a bye: 3)."),
    "omw": shape.Num(description=(
        "Opponents' match-win %, as a fraction of 1 (each opponent at least 0.33); 0.33 "
        "without opponents.")),
    "gw": shape.Num(description="Game-win %, a fraction of 1."),
    "ogw": shape.Num(description="Opponents' game-win %, a fraction of 1 (each at least 0.33)."),
    "opponents": shape.ListOf(_TEXT),
    "dropped": shape.Bool(),
})
NEXT_ROUND = shape.Obj({
    "round": shape.Int(description="Its number, from 1."),
    "pairings": shape.ListOf(shape.ListOf(_TEXT), description=(
        "Pairs in table order; the first of each is seat 0.")),
    "bye": shape.Nullable(_TEXT),
})
STANDINGS_RESPONSE = shape.Obj({
    "standings": shape.ListOf(shape.Ref("StandingLine", STANDING_LINE)),
    "next_round": shape.Nullable(shape.Ref("NextRound", NEXT_ROUND), description=(
        "`null` when every pairing of the players left would be a rematch.")),
    "games_verified": _INT,
})

STANDINGS_DESCRIPTION = """\
The body is a tournament so far: its players and its rounds, each round's
matches (two players and the games they played), byes and drops.  Every game
is verified here, never taken on trust: either its **replay** (``{game, setup,
actions}``, replayed as ``/replay`` does: an illegal step is a 422 with its
``index``, ``rule`` and ``at``, the game's path in the body) or its **signed
or sealed final state** (``{game, state}``, as this server returned it;
unsigned or altered → 400 / 403).  The replay is used when both are sent (the
console's exported result holds both), other fields are ignored.  A game names
who sat in each seat (its setup's ``players[].name``): those must be the
match's two players, and the seat the game says won wins, whichever player the
match lists first.  A game counts once per tournament, by its setup id
(``chain.setup``: the same for a game's replay and its states).  A game must be
finished and have two players, and the rounds must be possible (every name a
player of the tournament, once a round, never after dropping): else 422
``invalid-tournament`` naming the field.  What this evidence proves and what it
does not: ``docs/trust.md``.

The answer is the standings with the usual tiebreakers (match points, OMW%,
GW%, OGW%, with the 33% floor; ``service.tournaments``) and the next round's
Swiss pairings (no rematch, the bye to the lowest player without one;
``null`` when no pairing without a rematch is left).  Stateless: send the
whole tournament every time."""


# -------------------------------------------------------------- /events (any table, 2.0.0)
_NAME = shape.Str(MAX_ENTRANT_NAME, non_empty=True)
_OBJECT = shape.Obj({}, extra=True)
_POINTS = shape.Num(0, MAX_POINTS)

_GAME_ID = shape.Enum(*registry.GAME_IDS)

EVENT_GAME = shape.Obj({"game": _GAME_ID}, {
    "setup": shape.Ref("Setup", SETUP.spec),
    "actions": shape.ListOf(shape.Ref("Action", _OBJECT), max_items=MAX_REPLAY_ACTIONS),
    "state": shape.Ref("GameState", _OBJECT),
}, extra=True, description=(
    "One game played at the table: its replay (`setup` and `actions`, as `replay` takes "
    "them) or its finished final `state` signed by this server; other fields (an exported "
    "result's `outcome`…) are ignored. Its setup's `players[].name` must be exactly the "
    "table's players, in any seat order."))

EVENT_TABLE = shape.Obj({
    "players": shape.ListOf(_NAME, min_items=MIN_SEATS, max_items=MAX_SEATS, description=(
        "Who sat at the table, in any order.")),
}, {
    "games": shape.ListOf(shape.Ref("EventGame", EVENT_GAME), min_items=1, max_items=MAX_GAMES,
                          description=(
                              "The games played at the table, each verified (usually one; "
                              "several: a best-of-three duel). The table's places count the "
                              "players each finished ahead of, over its games.")),
    "placements": shape.ListOf(shape.ListOf(_NAME, min_items=1, max_items=MAX_SEATS),
                               min_items=1, max_items=MAX_SEATS, description=(
        "Instead of `games`: places entered by hand, best first, each a list of the players "
        "sharing it (`[[\"Ann\"], [\"Bob\", \"Cat\"], [\"Dan\"]]`). Counted, and marked "
        "unverified in the answer.")),
}, either=("games", "placements"), description="A table of a round and its result.")

EVENT_ROUND = shape.Obj({
    "tables": shape.ListOf(shape.Ref("EventTable", EVENT_TABLE), max_items=MAX_ENTRANTS // 2),
}, {
    "byes": shape.ListOf(_NAME, max_items=MAX_ENTRANTS, description=(
        "Players given a bye this round (worth `settings.bye` points).")),
    "drops": shape.ListOf(_NAME, max_items=MAX_ENTRANTS, description=(
        "Players who leave after this round: still in the standings, never seated again.")),
})

EVENT_PLAYER = shape.OneOf(_NAME, shape.Obj({"name": _NAME}, {
    "joins": shape.Int(1, MAX_ROUNDS + 1, description=(
        "A late entry: the first round (from 1) the player may be seated in.")),
}), message=events.PLAYER_FORM, description=(
    "A name, or `{name, joins}` for a late entry. Names are compared as `service/names.py` "
    "does (case, width and composition aside): two spellings of one name are refused."))

EVENT_SETTINGS = shape.Obj({
    "table_size": shape.Int(MIN_SEATS, MAX_SEATS, description=(
        "The usual table: 2 for duels (the Swiss of `/standings`), 4 for pods.")),
}, {
    "game": shape.Enum(*registry.GAME_IDS, description=(
        "The game played: every game must be of it, and table sizes stay within its player "
        "counts (Raiders 2–6, Tremble 2–5, Kozyablo 2–4).")),
    "table_sizes": shape.ListOf(shape.Int(MIN_SEATS, MAX_SEATS), min_items=1, max_items=MAX_SEATS,
                                description=(
        "The sizes a table may have (default: `table_size` and one either side within the "
        "game's counts; only 2 for duels). Byes only when no mix of them seats everyone.")),
    "points": shape.MapOf(shape.ListOf(_POINTS, min_items=MIN_SEATS, max_items=MAX_SEATS),
                          max_items=MAX_SEATS, description=(
        "Points per place by table size (`{\"4\": [3, 2, 1, 0]}`), best place first, never "
        "rising; sizes left out take the default (one point per player finished ahead of, "
        "a win at least 3: 2 → 3 0, 3 → 3 1 0, 4 → 3 2 1 0, 5 → 4 3 2 1 0).")),
    "draw": _POINTS,
    "bye": _POINTS,
    "floor": shape.Num(0, 1, description="The least opponent share counted (default 0.33)."),
})

EVENT = Envelope("EventRequest", shape.Obj({
    "players": shape.ListOf(EVENT_PLAYER, min_items=2, max_items=MAX_ENTRANTS),
    "settings": shape.Ref("EventSettings", EVENT_SETTINGS),
    "rounds": shape.ListOf(shape.Ref("EventRound", EVENT_ROUND), max_items=MAX_ROUNDS),
}), description=(
    "An event so far: its players, settings and rounds (tables with their results, byes, "
    "drops). Stateless: send the whole event every time."))

_NUMBER = shape.Num()
_RATIO = shape.Num(0, 1)
_INT = shape.Int(0)

EVENT_LINE = shape.Obj({
    "rank": shape.Int(1, description="Shared by players equal on every tiebreaker."),
    "player": _NAME,
    "points": shape.Num(description="Placement points (and byes)."),
    "possible": shape.Num(description="The most points the tables played could have given."),
    "tables": _INT, "byes": _INT,
    "places": shape.ListOf(shape.Int(1), description="The place at each table, in order."),
    "games": _INT,
    "game_points": shape.Num(description="Each game's placement points, summed."),
    "opponents_share": shape.Num(0, 1, description=(
        "Tiebreaker 1: the mean over the opponents (each player at each table) of their "
        "points / possible, each at least `floor`.")),
    "game_share": shape.Num(0, 1, description="Tiebreaker 2: game points / the most possible."),
    "opponents_game_share": shape.Num(0, 1, description=(
        "Tiebreaker 3: the opponents' game shares, each at least `floor`.")),
    "opponents": shape.ListOf(_NAME),
    "unverified_tables": shape.Int(0, description="Tables counted from hand placements."),
    "dropped": shape.Bool(),
    "joins": shape.Int(1),
})

EVENT_RESULT = shape.Obj({
    "table": shape.Int(1), "players": shape.ListOf(_NAME),
    "places": shape.ListOf(shape.Int(1), description="Each player's place (1 best; shared)."),
    "points": shape.ListOf(_NUMBER),
    "verified": shape.Bool(description="`false`: placements entered by hand."),
    "games": shape.ListOf(shape.Str(100), description="The verified games' setup ids."),
})

EVENT_NEXT_TABLE = shape.Obj({
    "table": shape.Int(1), "players": shape.ListOf(_NAME, description=(
        "The players, best standing first; seat them in any order.")),
    "explanation": shape.Obj({
        "why": shape.Str(MAX_EXPLANATION_LENGTH, description="In English: why these players sit together."),
        "seated": shape.Enum("standing", "swapped", description=(
            "`standing`: the next players in the standings; `swapped`: moved between tables "
            "to avoid repeat opponents.")),
        "places": shape.ListOf(shape.Int(1), description=(
            "Their positions in the standings of the players seated.")),
        "ranks": shape.ListOf(shape.Int(1)), "points": shape.ListOf(_NUMBER),
        "repeats": shape.ListOf(shape.Obj({"players": shape.ListOf(_NAME),
                                           "rounds": shape.ListOf(shape.Int(1))}),
                                description="Pairs at the table who met before, and when."),
    }),
})

EVENT_NEXT = shape.Obj({
    "round": shape.Int(1),
    "repeats": shape.Int(0, description="Earlier meetings of pairs seated together again."),
    "tables": shape.ListOf(shape.Ref("EventNextTable", EVENT_NEXT_TABLE)),
    "byes": shape.ListOf(shape.Obj({"player": _NAME, "why": shape.Str(MAX_EXPLANATION_LENGTH)})),
})

EVENT_RESPONSE = shape.Obj({
    "standings": shape.ListOf(shape.Ref("EventStanding", EVENT_LINE)),
    "rounds": shape.ListOf(shape.Obj({
        "round": shape.Int(1), "tables": shape.ListOf(shape.Ref("EventTableResult", EVENT_RESULT)),
        "byes": shape.ListOf(_NAME), "drops": shape.ListOf(_NAME)})),
    "next_round": shape.Nullable(shape.Ref("EventNextRound", EVENT_NEXT), description=(
        "`null` when fewer players are left than the smallest table seats.")),
    "games_verified": _INT,
    "settings": shape.Obj({
        "table_size": shape.Int(2), "table_sizes": shape.ListOf(shape.Int(2)),
        "points": shape.MapOf(shape.ListOf(_NUMBER), description="Per table size allowed."),
        "draw": _NUMBER, "bye": _NUMBER, "floor": _RATIO}, description="The settings applied."),
}, extra=True)

#: the shape-declared components, by name (documented by their ``schema()``)
SHAPES: dict[str, shape.Spec] = {
    "EventGame": EVENT_GAME, "EventTable": EVENT_TABLE, "EventRound": EVENT_ROUND,
    "EventSettings": EVENT_SETTINGS, "EventStanding": EVENT_LINE,
    "EventTableResult": EVENT_RESULT, "EventNextTable": EVENT_NEXT_TABLE,
    "EventNextRound": EVENT_NEXT, "EventResponse": EVENT_RESPONSE,
}


# ------------------------------------------------------------------------- the document
def game_schemas(games: list[AnyGame]) -> dict[str, dict[str, Any]]:
    """``TournamentGame`` and the components it chooses from, as JSON Schema: for each
    game of two players, its replay (typed as that game's ``replay`` is) or its final
    state; extra fields allowed.  The choices are named components (a generated client
    makes one class of each); two players and the options a two-player game takes are
    checked by the service (422 ``invalid-tournament`` names the game)."""
    def ref(name: str) -> dict[str, Any]:
        return {"$ref": f"#/components/schemas/{name}"}

    out: dict[str, dict[str, Any]] = {}
    for game in games:
        if not game.min_players <= 2 <= game.max_players:
            continue
        name = camel(game.id)
        # two players, and the options two players may take, as `replay`'s request binds a
        # count: an if/then beside the typed properties (generated clients ignore it)
        two: dict[str, Any] = {"players": {"minimum": 2, "maximum": 2, "minItems": 2, "maxItems": 2}}
        narrowed = options_for_count(game, 2)
        if narrowed is not None:
            two["options"] = narrowed
        out[f"{name}TournamentReplay"] = {
            "type": "object", "required": ["game", "setup", "actions"],
            "description": f"A {game.id} game of the match as its replay (two players).",
            "properties": {
                "game": {"type": "string", "enum": [game.id]},
                "setup": ref(f"{name}Setup"),
                "actions": {"type": "array", "maxItems": MAX_REPLAY_ACTIONS, "items": ref(f"{name}Action")},
                "state": ref(f"{name}State")},
            "allOf": [{"if": {"required": ["setup"]},
                       "then": {"properties": {"setup": {"properties": two}}}}]}
        out[f"{name}TournamentResult"] = {
            "type": "object", "required": ["game", "state"],
            "not": {"required": ["setup", "actions"]},
            "description": f"A {game.id} game of the match as its finished final state, "
                           "signed by this server.",
            "properties": {"game": {"type": "string", "enum": [game.id]},
                           "state": ref(f"{name}State")}}
    out["TournamentGame"] = {
        "description": "One game of the match: its replay (`setup` and `actions`, as "
                       "`replay` takes them, two players) or its finished final `state` "
                       "signed by this server; other fields (an exported result's "
                       "`outcome`…) are ignored. Seat 0 is the match's first player.",
        "anyOf": [ref(name) for name in out]}
    return out


#: the steering of ``example_game``: the first listed action of the first type found
EXAMPLE_PREFERENCE = ("capture", "pass", "draw", "end_turn")


def example_game(seed: int = 7, turns: int = 2, seats: tuple[str, ...] = ("Ann", "Bob")) \
        -> dict[str, Any] | None:
    """A short finished Raiders game as a replay (``turn_limit``, RAI-31), its seats named
    ``seats``; ``None`` when Raiders is not served (the HTTP layer's own tests).

    >>> game = example_game()
    >>> game["game"], game["setup"]["options"], len(game["actions"])
    ('raiders', {'turn_limit': 2}, 8)
    """
    if "raiders" not in registry.GAME_IDS:
        return None
    game = registry.get_game("raiders")
    options = {"turn_limit": turns}
    state, _ = game.new_game(len(seats), options, seed, "reference")
    actions = []
    while not game.score(state)["finished"]:
        listed = game.legal_actions(state, None)
        action = min(listed, key=lambda a: (EXAMPLE_PREFERENCE + (a["type"],)).index(a["type"]))
        actions.append(action)
        state, _ = game.apply(state, action)
    return {"game": "raiders", "setup": {"players": [{"name": n} for n in seats],
                                         "options": options, "seed": seed},
            "actions": actions}


def standings_example() -> dict[str, Any] | None:
    game = example_game()
    return None if game is None else {
        "players": ["Ann", "Bob", "Cat"],
        "rounds": [{"matches": [{"players": ["Ann", "Bob"], "games": [game]}],
                    "byes": ["Cat"], "drops": []}]}


def event_example() -> dict[str, Any] | None:
    """A four-player Raiders pod whose game is replayed, and a hand-entered one."""
    game = example_game(seed=8, turns=3, seats=("Ann", "Bob", "Cat", "Dan"))  # Bob, Cat, Ann, Dan
    return None if game is None else {
        "players": ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", {"name": "Hal", "joins": 2}],
        "settings": {"game": "raiders", "table_size": 4},
        "rounds": [{"tables": [
            {"players": ["Ann", "Bob", "Cat", "Dan"], "games": [game]},
            {"players": ["Eve", "Fay", "Gus"], "placements": [["Fay"], ["Eve", "Gus"]]}]}]}


def components(games: list[AnyGame]) -> dict[str, dict[str, Any]]:
    """Every component of the tournament routes, as JSON Schema (``/standings``'s in the
    spelling 1.0.0 gave them: ``shape_1_0``, ``shape.published``)."""
    out = dict(game_schemas(games))
    out.update({"TournamentMatch": TOURNAMENT_MATCH.schema(),
                "TournamentRound": TOURNAMENT_ROUND.schema(),
                "StandingsRequest": STANDINGS.schema()})
    out.update({name: shape.published(spec, closed=True) for name, spec in (
        ("StandingLine", STANDING_LINE), ("NextRound", NEXT_ROUND),
        ("StandingsResponse", STANDINGS_RESPONSE))})
    out.update({name: spec.schema() for name, spec in SHAPES.items()})
    out[EVENT.name] = EVENT.schema()
    return out


ERRORS = (400, 403, 404, 405, 413, 415, 422, 429, 500)

EVENT_DESCRIPTION = """\
Events with tables of any size the game allows: duels (the Swiss of
`/standings`) or pods of 3–6. The body is the event so far: its players (a
late entry as `{name, joins}`), its `settings` (`table_size`, the sizes
allowed, the points per place) and its rounds: each a list of tables (the
players and either the games they played, each verified as `/standings`
verifies a game, or `placements` entered by hand, marked unverified), byes
and drops. A game names who sat in each seat (its setup's `players[].name`):
those names must be exactly the table's players (422 `invalid-tournament`
naming the game's `setup.players` otherwise), and a game counts once per
event (by its setup id). The answer is the standings (placement points, then
opponents' points share with a floor, game points share, opponents' game
share: docs/tournaments.md), each table's result, and the next round's tables,
each with its explanation (why these players, and any repeat opponents:
who met whom, when). Stateless: send the whole event every time."""
