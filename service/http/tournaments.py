"""``POST /v1/tournaments/standings``: Swiss standings from verified results.

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
whole tournament every time.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint
from marshmallow import EXCLUDE, Schema, fields, validate

from schemas.envelopes import GameStateField, ObjectField, Setup
from service import names, signing, tournaments, transcripts
from service.games import registry
from service.games.errors import MalformedInput, RuleViolation
from service.games.messages import N_, joined
from service.games.replay import replay as replay_game
from service.http.body import json_response, read_envelope
from service.http.games import check_seat_names, game_or_404, seated
from service.problems import ProblemError

bp = Blueprint("tournaments", __name__, url_prefix="/v1/tournaments")

MAX_PLAYERS = 512
MAX_ROUNDS = 30
NAME = fields.String(validate=validate.Length(min=1, max=100))


class TournamentGame(Schema):
    """Reads one game of a match (the document describes it per game: ``game_schemas``):
    its replay (``setup`` + ``actions``) or its signed final ``state``; other fields (an
    exported result's ``outcome``…) are ignored."""

    class Meta:
        unknown = EXCLUDE

    game = fields.String(required=True)
    setup = fields.Nested(Setup)
    actions = fields.List(ObjectField(), validate=validate.Length(max=20_000))
    state = GameStateField()


class GameField(fields.Raw):
    """A ``TournamentGame``, loaded by its schema (documented per game: ``game_schemas``)."""

    def _deserialize(self, value, attr, data, **kwargs):
        return TournamentGame().load(value)


class TournamentMatch(Schema):
    players = fields.List(NAME, required=True, validate=validate.Length(equal=2), metadata={
        "description": "The two players, in any order: each game names who sat in each seat "
                       "(its setup's `players[].name`), and those names must be these two."})
    games = fields.List(GameField(metadata={"ref": "TournamentGame"}), required=True,
                        validate=validate.Length(min=1, max=9))


class TournamentRound(Schema):
    matches = fields.List(fields.Nested(TournamentMatch), required=True,
                          validate=validate.Length(max=MAX_PLAYERS // 2))
    byes = fields.List(NAME, load_default=list, metadata={
        "description": "Players given a bye this round (a match win, no opponent)."})
    drops = fields.List(NAME, load_default=list, metadata={
        "description": "Players who leave after this round: still in the standings, never "
                       "paired again."})


class StandingsRequest(Schema):
    players = fields.List(NAME, required=True, validate=validate.Length(min=2, max=MAX_PLAYERS),
                          metadata={"uniqueItems": True})
    rounds = fields.List(fields.Nested(TournamentRound), required=True,
                         validate=validate.Length(max=MAX_ROUNDS))


class StandingLine(Schema):
    rank = fields.Integer(required=True, metadata={"description": "Shared by players equal on "
                                                   "every tiebreaker."})
    player = fields.String(required=True)
    match_points = fields.Integer(required=True, metadata={
        "description": "Win 3, draw 1, loss 0, bye 3."})
    wins = fields.Integer(required=True)
    draws = fields.Integer(required=True)
    losses = fields.Integer(required=True)
    byes = fields.Integer(required=True)
    games = fields.Integer(required=True, metadata={"description": "Games played (a bye: one)."})
    game_points = fields.Integer(required=True, metadata={
        "description": "A game won 3, drawn 1 (a bye: 3)."})
    omw = fields.Float(required=True, metadata={
        "description": "Opponents' match-win %, as a fraction of 1 (each opponent at least "
                       "0.33); 0.33 without opponents."})
    gw = fields.Float(required=True, metadata={"description": "Game-win %, a fraction of 1."})
    ogw = fields.Float(required=True, metadata={
        "description": "Opponents' game-win %, a fraction of 1 (each at least 0.33)."})
    opponents = fields.List(fields.String(), required=True)
    dropped = fields.Boolean(required=True)


class NextRound(Schema):
    round = fields.Integer(required=True, metadata={"description": "Its number, from 1."})
    pairings = fields.List(fields.List(fields.String()), required=True, metadata={
        "description": "Pairs in table order; the first of each is seat 0."})
    bye = fields.String(required=True, allow_none=True)


class StandingsResponse(Schema):
    standings = fields.List(fields.Nested(StandingLine), required=True)
    next_round = fields.Nested(NextRound, required=True, allow_none=True, metadata={
        "description": "`null` when every pairing of the players left would be a rematch."})
    games_verified = fields.Integer(required=True)


REQUEST = StandingsRequest()


def invalid_tournament(errors: dict) -> ProblemError:
    """422 ``invalid-tournament``: rounds that cannot have happened, ``errors`` by field."""
    return ProblemError(422, "invalid-tournament", "Invalid tournament",
                        MalformedInput(errors).detail, errors=errors)


@dataclass(frozen=True)
class Verified:
    """A game of a match once verified: its setup id (``transcripts.setup_id``: one game,
    however it is sent), its seats' names, and the seats that won (several: shared)."""

    setup: str
    seats: list[str]
    winners: list[int]


def verified_game(found: dict, path: str) -> Verified:
    """Verify one game sent as its replay or its signed or sealed final state."""
    game = game_or_404(found["game"])
    first: list[str] = []
    try:
        if "setup" in found and "actions" in found:
            setup = {**found["setup"], "players": seated(found["setup"]["players"])}

            def observe(before: dict | None, after: dict, _: list) -> None:
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
    if len(state["players"]) != 2:
        raise invalid_tournament({path: [N_("a match game has two players")]})
    if not outcome["finished"]:
        raise invalid_tournament({path: [N_("the game is not finished")]})
    return Verified(first[0], [p["name"] for p in state["players"]], outcome["winners"])


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


@bp.post("/standings")
def standings():
    """Standings and the next round's pairings of a tournament (module docstring)."""
    body = read_envelope(REQUEST)
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
                if game.setup in counted:
                    raise invalid_tournament({path: [N_(
                        "this game is already counted at {other}: a game counts once per "
                        "tournament (the same setup, however it is sent)",
                        other=counted[game.setup])]})
                counted[game.setup] = path
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


def game_schemas(games) -> dict[str, dict]:
    """``TournamentGame`` and the components it chooses from, as JSON Schema: for each
    game of two players, its replay (typed as that game's ``replay`` is) or its final
    state; extra fields allowed.  The choices are named components (a generated client
    makes one class of each); two players and the options a two-player game takes are
    checked by the service (422 ``invalid-tournament`` names the game)."""
    from service.openapi import camel, options_for_count

    def ref(name: str) -> dict:
        return {"$ref": f"#/components/schemas/{name}"}

    out: dict[str, dict] = {}
    for game in games:
        if not game.min_players <= 2 <= game.max_players:
            continue
        name = camel(game.id)
        # two players, and the options two players may take, as `replay`'s request binds a
        # count: an if/then beside the typed properties (generated clients ignore it)
        two: dict = {"players": {"minimum": 2, "maximum": 2, "minItems": 2, "maxItems": 2}}
        narrowed = options_for_count(game, 2)
        if narrowed is not None:
            two["options"] = narrowed
        out[f"{name}TournamentReplay"] = {
            "type": "object", "required": ["game", "setup", "actions"],
            "description": f"A {game.id} game of the match as its replay (two players).",
            "properties": {
                "game": {"type": "string", "enum": [game.id]},
                "setup": ref(f"{name}Setup"),
                "actions": {"type": "array", "maxItems": 20_000, "items": ref(f"{name}Action")},
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


def example_game(seed: int = 7, turns: int = 2) -> dict | None:
    """A short finished two-player Raiders game as a replay (``turn_limit``, RAI-31);
    ``None`` when Raiders is not served (the HTTP layer's own tests).

    >>> game = example_game()
    >>> game["game"], game["setup"]["options"], len(game["actions"])
    ('raiders', {'turn_limit': 2}, 8)
    """
    if "raiders" not in registry.GAME_IDS:
        return None
    game = registry.get_game("raiders")
    options = {"turn_limit": turns}
    state, _ = game.new_game(2, options, seed, "reference")
    actions = []
    while not game.score(state)["finished"]:
        listed = game.legal_actions(state, None)
        action = min(listed, key=lambda a: (EXAMPLE_PREFERENCE + (a["type"],)).index(a["type"]))
        actions.append(action)
        state, _ = game.apply(state, action)
    return {"game": "raiders", "setup": {"players": [{"name": "Ann"}, {"name": "Bob"}],
                                         "options": options, "seed": seed},
            "actions": actions}


def document(spec) -> None:
    """Document the route in ``openapi.yaml``."""
    from service.openapi import body, error, ok

    game = example_game()
    for name, schema in game_schemas(registry.all_games()).items():
        spec.components.schema(name, schema)
    spec.components.schema("TournamentMatch", schema=TournamentMatch)
    spec.components.schema("TournamentRound", schema=TournamentRound)
    spec.components.schema("StandingsRequest", schema=StandingsRequest)
    spec.components.schema("StandingLine", schema=StandingLine)
    spec.components.schema("NextRound", schema=NextRound)
    spec.components.schema("StandingsResponse", schema=StandingsResponse)
    spec.path("/v1/tournaments/standings", operations={"post": {
        "summary": "Tournament standings and the next Swiss round",
        "description": __doc__.split("\n\n", 1)[1].strip(),
        "tags": ["tournaments"], "operationId": "tournament_standings",
        "requestBody": body("StandingsRequest", None if game is None else {
            "players": ["Ann", "Bob", "Cat"],
            "rounds": [{"matches": [{"players": ["Ann", "Bob"], "games": [game]}],
                        "byes": ["Cat"], "drops": []}]}),
        "responses": {"200": ok("StandingsResponse", "Standings, best first, and the next "
                                "round's pairings."),
                      **{str(s): error(s) for s in (400, 403, 404, 405, 413, 415, 422, 429,
                                                    500)}}}})

