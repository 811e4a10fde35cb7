"""Events with tables of any size: placement points, standings and the next round.

An event is its players (a late entry names the round it joins from), its
settings and its rounds so far.  A round seats the players at **tables** (two
for a duel, three to six for a pod, as the game allows), gives **byes** (only
when no table size fits the players left) and lists **drops** (players who
leave after it).  A table's result is its games' **places** (each a list, one
place per seat of the table, ``1`` best; equal places share), verified by
``service.tournaments.verify`` from each game's replay or signed final state, or
entered by hand (``verified`` false: the answer says so).  This is the one
tournament model: ``POST /v1/tournaments/events`` answers with it, and so does
``POST /v1/tournaments/standings`` (1.0.0), whose matches are tables of two
(``swiss``: its answer's words and numbers).

**Places at a table.**  Each game ranks its players (``game_places``: the
winners first, then the others by the game's own score ``total``, equal totals
sharing).  With several games at a table (a best-of-three duel), a player's
table place counts the players they finished ahead of, summed over the games:
in a duel that is games won, as in a Swiss match.

**Points** (``Settings.points``, per table size, place 1 first; the default
``default_points``: one point per player finished ahead of, and a win at least
3, a match win)::

    2 seats: 3 0          4 seats: 3 2 1 0        6 seats: 5 4 3 2 1 0
    3 seats: 3 1 0        5 seats: 4 3 2 1 0

Players sharing places share those places' points (their mean); a table where
nobody finished ahead of anybody is a **draw**: ``draw`` points each (default
1, a drawn match).  A **bye** is worth ``bye`` points (default: first place at
the event's ``table_size``).  A game's own places give **game points** the same
way.

**Standings** order by points, then (each ratio a fraction of 1):

1. **opponents' points share**: the mean over every opponent met (each player
   at each of one's tables, once per table) of their points / the most they
   could have had, each raised to the **floor** (0.33) first;
2. **game points share**: game points / the most possible;
3. **opponents' game points share** (floored the same way).

Players equal on all four share a rank (listed by name).  In a duel event
with the default points these are exactly the Swiss's match points, OMW%,
GW% and OGW% (``swiss`` names them so).

**The next round** (``next_round``): the tables' sizes (``table_plan``), byes
only when no sizes fit, to the lowest-ranked players without a bye yet; then
``pods.seat``: the players in standing order fill the tables top-down (the
odd-sized tables at the bottom), and a deterministic search (swaps, rotations of
three, a tabu phase) brings the **repeat opponents** down (``repeats``: pairs who
already met, counted once per earlier meeting), at equal repeats keeping the
tables' standings closest.  A duel event first tries the Swiss's no-rematch
pairing (``pods.pair``).  Every table says why it is so (``explanation``), and why a repeat
stays.

>>> s = Settings(table_size=4)
>>> r1 = Round([Table(["a", "b", "c", "d"], [[1, 2, 3, 4]])])
>>> [(line.player, line.points) for line in standings(TournamentEvent(["a", "b", "c", "d"], s, [r1]))]
[('a', Fraction(3, 1)), ('b', Fraction(2, 1)), ('c', Fraction(1, 1)), ('d', Fraction(0, 1))]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from math import gcd as _gcd
from typing import Any

from service import names as naming
from service.games.errors import MalformedInput
from service.games.messages import N_
from service.limits import MAX_SEATS, MIN_SEATS
from service.tournaments import pods

FLOOR = Fraction(33, 100)
#: the refusal of a player entry that is neither a name nor ``{name, joins}``
PLAYER_FORM = N_("must be a player's name, or an object with `name` (and `joins`)")


def default_points(seats: int) -> tuple[Fraction, ...]:
    """One point per player finished ahead of, a win at least 3.

    >>> [int(p) for p in default_points(2)], [int(p) for p in default_points(5)]
    ([3, 0], [4, 3, 2, 1, 0])
    """
    below = [Fraction(seats - place) for place in range(1, seats + 1)]
    below[0] = max(below[0], Fraction(3))
    return tuple(below)


@dataclass
class Settings:
    table_size: int
    #: the sizes a table may have (default: ``table_size`` ± 1 within ``seats``; duels: 2)
    table_sizes: tuple[int, ...] = ()
    #: the sizes the game seats (``min_players``, ``max_players``)
    seats: tuple[int, int] = (MIN_SEATS, MAX_SEATS)
    #: points per place, by table size (missing sizes: ``default_points``)
    points: dict[int, tuple[Fraction, ...]] = field(default_factory=dict)
    draw: Fraction = Fraction(1)
    bye: Fraction | None = None
    floor: Fraction = FLOOR

    def sizes(self) -> tuple[int, ...]:
        low, high = self.seats
        if self.table_sizes:
            return tuple(sorted(set(self.table_sizes)))
        if self.table_size == MIN_SEATS:
            return (MIN_SEATS,)  # duels: a bye, never a table of three
        return tuple(s for s in (self.table_size - 1, self.table_size, self.table_size + 1)
                     if max(low, MIN_SEATS) <= s <= high)

    def points_for(self, seats: int) -> tuple[Fraction, ...]:
        return self.points.get(seats) or default_points(seats)

    def bye_points(self) -> Fraction:
        return self.points_for(self.table_size)[0] if self.bye is None else self.bye


@dataclass
class Entry:
    """A player's entry in the event (a player elsewhere is their name)."""

    name: str
    #: the first round (from 1) the player may be seated in: a late entry
    joins: int = 1


@dataclass
class Table:
    players: list[str]
    #: per game, each seat's place (aligned with ``players``); one list for a hand entry
    games: list[list[int]]
    verified: bool = True
    #: how each game was identified (a setup id; empty for a hand entry)
    ids: list[str] = field(default_factory=list)


@dataclass
class Round:
    tables: list[Table]
    byes: list[str] = field(default_factory=list)
    drops: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Paths:
    """How an error names a round's seats: ``/events``' ``rounds.R.tables.T.players.I``,
    or ``/standings``' (1.0.0) ``rounds.R.matches.M.players``, where a match is named
    whole and one that names a player twice is a player meeting themself.

    >>> TABLES.seat(0, 1, 2), MATCHES.seat(0, 1, 2)
    ('rounds.0.tables.1.players.2', 'rounds.0.matches.1.players')
    """

    tables: str = "tables"
    seats: bool = True

    def table(self, r: int, t: int) -> str:
        return f"rounds.{r}.{self.tables}.{t}"

    def seat(self, r: int, t: int, i: int) -> str:
        return f"{self.table(r, t)}.players" + (f".{i}" if self.seats else "")


TABLES, MATCHES = Paths(), Paths("matches", seats=False)


@dataclass
class TournamentEvent:
    """An event where players meet (a tournament): its players, settings and rounds so far.
    A game's events (what an ``apply`` reports) are ``service.games.objects.Event``."""

    players: list[str | Entry]
    settings: Settings
    rounds: list[Round]
    #: how errors name the seats (the request's own words)
    paths: Paths = TABLES


@dataclass
class Line:
    """One player's line of the standings (fractions exact; ``to_json`` rounds them)."""

    player: str
    rank: int = 0
    points: Fraction = Fraction(0)
    possible: Fraction = Fraction(0)
    game_points: Fraction = Fraction(0)
    game_possible: Fraction = Fraction(0)
    games: int = 0
    tables: int = 0
    byes: int = 0
    places: list[int] = field(default_factory=list)
    opponents: list[str] = field(default_factory=list)
    opponents_share: Fraction = FLOOR
    opponents_game_share: Fraction = FLOOR
    unverified: int = 0
    dropped: bool = False
    joins: int = 1

    @property
    def share(self) -> Fraction:
        return self.points / self.possible if self.possible else Fraction(0)

    @property
    def game_share(self) -> Fraction:
        return self.game_points / self.game_possible if self.game_possible else Fraction(0)

    def key(self) -> tuple[Any, ...]:
        return (-self.points, -self.opponents_share, -self.game_share, -self.opponents_game_share)

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "player": self.player, "points": number(self.points),
                "possible": number(self.possible), "tables": self.tables, "byes": self.byes,
                "places": self.places, "games": self.games,
                "game_points": number(self.game_points),
                "opponents_share": number(self.opponents_share),
                "game_share": number(self.game_share),
                "opponents_game_share": number(self.opponents_game_share),
                "opponents": self.opponents, "unverified_tables": self.unverified,
                "dropped": self.dropped, "joins": self.joins}


def number(value: Fraction) -> int | float:
    """An integer as itself, else four decimals.

    >>> number(Fraction(6)), number(Fraction(5, 9))
    (6, 0.5556)
    """
    return int(value) if value.denominator == 1 else round(float(value), 4)


# ------------------------------------------------------------------------ places and points
def game_places(outcome: dict[str, Any]) -> list[int]:
    """Each seat's place in a finished game, from its ``score`` answer: the winners
    first (sharing 1), then the others by ``total``, highest first, equal totals
    sharing (competition ranking: 1, 2, 2, 4).

    >>> game_places({"winners": [2], "scores": [{"total": 5}, {"total": 9}, {"total": 9},
    ...                                         {"total": 1}]})
    [3, 2, 1, 4]
    >>> game_places({"winners": [0, 1], "scores": [{"total": 4}, {"total": 4}]})
    [1, 1]
    """
    winners = set(outcome["winners"])
    keys = [(0 if seat in winners else 1, -score["total"])
            for seat, score in enumerate(outcome["scores"])]
    return [1 + sum(1 for other in keys if other < mine) for mine in keys]


def table_places(games: Sequence[Sequence[int]]) -> list[int]:
    """The table's places: by players finished ahead of, summed over its games.

    >>> table_places([[1, 2], [2, 1], [1, 1]])   # a drawn best-of-three
    [1, 1]
    >>> table_places([[1, 3, 2, 4]])
    [1, 3, 2, 4]
    """
    seats = len(games[0])
    ahead = [sum(sum(1 for other in places if other > places[me]) for places in games)
             for me in range(seats)]
    return [1 + sum(1 for other in ahead if other > mine) for mine in ahead]


def placement_points(places: Sequence[int], settings: Settings) -> list[Fraction]:
    """Each seat's points for its place: shared places share their points; nobody
    ahead of anybody is a draw.

    >>> s = Settings(table_size=4)
    >>> placement_points([1, 2, 2, 4], s), placement_points([1, 1], s)
    ([Fraction(3, 1), Fraction(3, 2), Fraction(3, 2), Fraction(0, 1)], [Fraction(1, 1), Fraction(1, 1)])
    """
    if all(p == 1 for p in places):
        return [settings.draw] * len(places)
    table = settings.points_for(len(places))
    sharing = Counter(places)
    return [sum(table[place - 1:place - 1 + sharing[place]], Fraction(0)) / sharing[place]
            for place in places]


# ------------------------------------------------------------------------------- the rounds
def players_of(event: TournamentEvent) -> list[Entry]:
    return [p if isinstance(p, Entry) else Entry(p) for p in event.players]


def spell_names(event: TournamentEvent) -> TournamentEvent:
    """The event with its names ``names.checked`` and every name a round uses spelled
    as the players list spells it; a name no player has is refused naming its field.

    >>> e = spell_names(TournamentEvent(["Ann", "Bob"], Settings(2), [Round([Table(["ＡＮＮ", "bob"], [[1, 2]])])]))
    >>> e.rounds[0].tables[0].players
    ['Ann', 'Bob']
    """
    entries = players_of(event)
    spelled = naming.checked([p.name for p in entries], "players")
    known = naming.roster(spelled)

    def one(name: str, path: str) -> str:
        return naming.player(name, known, path)

    rounds = []
    for r, rnd in enumerate(event.rounds):
        tables = [Table([one(name, event.paths.seat(r, t, i))
                         for i, name in enumerate(table.players)],
                        table.games, table.verified, table.ids)
                  for t, table in enumerate(rnd.tables)]
        rounds.append(Round(tables, [one(n, f"rounds.{r}.byes") for n in rnd.byes],
                            [one(n, f"rounds.{r}.drops") for n in rnd.drops]))
    players = [Entry(name, entry.joins) for name, entry in zip(spelled, entries, strict=True)]
    return TournamentEvent(list(players), event.settings, rounds, event.paths)


def check_rounds(event: TournamentEvent) -> None:
    """Refuse rounds that cannot have happened, naming the field: a player twice in a
    round, after dropping or before joining, a table of fewer than two, places that
    are not one per seat.

    >>> check_rounds(TournamentEvent(["a", "b"], Settings(2), [Round([Table(["a", "a"], [[1, 2]])])]))
    Traceback (most recent call last):
    ...
    service.games.errors.MalformedInput: rounds.0.tables.0.players.1: 'a' plays at most once a \
round and never after dropping
    """
    joins = {p.name: p.joins for p in players_of(event)}
    paths = event.paths
    gone: set[str] = set()
    for r, rnd in enumerate(event.rounds):
        seen: set[str] = set()
        named: list[tuple[str, str | None]] = []
        for t, table in enumerate(rnd.tables):
            if not paths.seats and len(set(table.players)) < len(table.players):
                # a match named whole: the 1.0.0 word for it, in the order it came
                named.append((paths.table(r, t) + ".players", None))
            named += [(paths.seat(r, t, i), name) for i, name in enumerate(table.players)]
        named += [(f"rounds.{r}.byes", name) for name in rnd.byes]
        for path, name in named:
            if name is None:
                raise MalformedInput({path: [N_("a player cannot meet themself")]})
            if name in seen or name in gone:
                raise MalformedInput({path: [N_("{name!r} plays at most once a round and "
                                                "never after dropping", name=name)]})
            if joins[name] > r + 1:
                raise MalformedInput({path: [N_("{name!r} joins the event in round {joins}",
                                                name=name, joins=joins[name])]})
            seen.add(name)
        for t, table in enumerate(rnd.tables):
            path = paths.table(r, t)
            if len(table.players) < MIN_SEATS:
                raise MalformedInput({f"{path}.players": [N_("a table seats at least two")]})
            for g, places in enumerate(table.games):
                if len(places) != len(table.players) or \
                        sorted(places) != _competition(sorted(places)):
                    raise MalformedInput({f"{path}.games.{g}": [N_(
                        "not one place per player of the table")]})
        gone |= set(rnd.drops)


def _competition(places: list[int]) -> list[int]:
    """The competition ranking sorted ``places`` must be (1, 1, 3, 4…)."""
    return [1 + sum(1 for other in places if other < mine) for mine in places]


def checked(event: TournamentEvent) -> TournamentEvent:
    """The event after ``spell_names`` and ``check_rounds``: its names spelled as the players list
    spells them, its rounds possible."""
    event = spell_names(event)
    check_rounds(event)
    return event


def evaluate(event: TournamentEvent) -> tuple[list[Line], Proposal | None]:
    """The standings and the next round, the names resolved once."""
    event = checked(event)
    lines = ranked(event)
    return lines, next_round(event, lines)


def standings(event: TournamentEvent) -> list[Line]:
    """Every player's line, best first, ranks filled in (module docstring)."""
    return ranked(checked(event))


def ranked(event: TournamentEvent) -> list[Line]:
    """The standings of an event already ``checked``: the one tiebreaker code."""
    settings = event.settings
    lines = {p.name: Line(p.name, joins=p.joins) for p in players_of(event)}
    for rnd in event.rounds:
        for name in rnd.byes:
            line = lines[name]
            bye = settings.bye_points()
            line.byes += 1
            line.points += bye
            line.possible += bye
            line.games += 1
            line.game_points += bye
            line.game_possible += bye
        for table in rnd.tables:
            best = settings.points_for(len(table.players))[0]
            earned = placement_points(table_places(table.games), settings)
            per_game = [placement_points(places, settings) for places in table.games]
            for i, name in enumerate(table.players):
                line = lines[name]
                line.tables += 1
                line.places.append(table_places(table.games)[i])
                line.points += earned[i]
                line.possible += best
                line.games += len(table.games)
                line.game_points += sum((g[i] for g in per_game), Fraction(0))
                line.game_possible += best * len(table.games)
                line.opponents += [other for other in table.players if other != name]
                line.unverified += not table.verified
        for name in rnd.drops:
            lines[name].dropped = True
    floored = {name: (max(line.share, settings.floor), max(line.game_share, settings.floor))
               for name, line in lines.items()}
    for line in lines.values():
        if line.opponents:
            line.opponents_share = _mean(floored[o][0] for o in line.opponents)
            line.opponents_game_share = _mean(floored[o][1] for o in line.opponents)
        else:
            line.opponents_share = line.opponents_game_share = settings.floor
    ordered = sorted(lines.values(), key=lambda s: (s.key(), s.player))
    for i, line in enumerate(ordered):
        line.rank = ordered[i - 1].rank if i and line.key() == ordered[i - 1].key() else i + 1
    return ordered


def _mean(values: Iterable[Fraction]) -> Fraction:
    """The exact mean, summed by common denominator (``Fraction`` additions are slow)."""
    found = list(values)
    common = 1
    for v in found:
        common = common * v.denominator // _gcd(common, v.denominator)
    return Fraction(sum(v.numerator * (common // v.denominator) for v in found),
                    common * len(found))


# ---------------------------------------------------------------------------- the next round
def table_plan(players: int, settings: Settings) -> tuple[list[int], int]:
    """The sizes of the next round's tables (largest first) and the number of byes:
    the fewest byes, then the fewest tables not of ``table_size``, then the sizes
    nearest it, then fewer tables.

    >>> s = Settings(table_size=4)
    >>> table_plan(23, s), table_plan(10, s), table_plan(6, s)
    (([4, 4, 4, 4, 4, 3], 0), ([5, 5], 0), ([3, 3], 0))
    >>> table_plan(10, Settings(table_size=4, table_sizes=(4,))), table_plan(7, Settings(2))
    (([4, 4], 2), ([2, 2, 2], 1))
    """
    sizes = settings.sizes()
    target = settings.table_size
    # best[n]: the best key and plan seating exactly n players (None: no plan)
    best: list[tuple[tuple[Any, ...], list[int]] | None] = [((0, 0, 0), [])] + [None] * players
    for n in range(1, players + 1):
        for size in sizes:
            if size <= n and best[n - size] is not None:
                (off, far, count), plan = best[n - size]  # type: ignore[misc]
                key = (off + (size != target), far + abs(size - target), count + 1)
                if best[n] is None or key < best[n][0]:  # type: ignore[index]
                    best[n] = (key, [*plan, size])
    for byes in range(players + 1):
        found = best[players - byes]
        if found is not None and (found[1] or players - byes == 0):
            return sorted(found[1], reverse=True), byes
    return [], players


@dataclass
class Proposal:
    """The next round: tables (in table order) with their explanations, and byes."""

    round: int
    tables: list[list[str]]
    explanations: list[dict[str, Any]]
    byes: list[dict[str, Any]]
    repeats: int

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "repeats": self.repeats, "byes": self.byes,
                "tables": [{"table": t + 1, "players": players, "explanation": why}
                           for t, (players, why) in enumerate(zip(self.tables,
                                                                 self.explanations,
                                                                 strict=True))]}


def met_before(rounds: Sequence[Round]) -> dict[frozenset[str], list[int]]:
    """Each pair that shared a table: the rounds (from 1) they did."""
    met: dict[frozenset[str], list[int]] = {}
    for r, rnd in enumerate(rounds):
        for table in rnd.tables:
            for pair in combinations(table.players, 2):
                met.setdefault(frozenset(pair), []).append(r + 1)
    return met


def next_round(event: TournamentEvent, lines: Sequence[Line]) -> Proposal | None:
    """The next round's tables, or ``None`` when fewer players are left than the
    smallest table seats (``event`` ``checked``, ``lines`` its standings)."""
    settings = event.settings
    number_ = len(event.rounds) + 1
    joins = {p.name: p.joins for p in players_of(event)}
    order = [line.player for line in lines if not line.dropped and joins[line.player] <= number_]
    sizes, bye_count = table_plan(len(order), settings)
    if not sizes:
        return None
    had_bye = {name for rnd in event.rounds for name in rnd.byes}
    candidates = [p for p in reversed(order) if p not in had_bye] + \
        [p for p in reversed(order) if p in had_bye]
    bye_players = candidates[:bye_count]
    seated = [p for p in order if p not in bye_players]
    met = met_before(event.rounds)
    points = {line.player: line.points for line in lines}
    rank = {line.player: line.rank for line in lines}
    tables, settled = None, True
    if set(sizes) == {2}:
        pairs = pods.pair(seated, set(met), [10_000])
        tables = None if pairs is None else [list(p) for p in pairs]
    if tables is None:
        bottom = sorted(sizes, key=lambda size: (size != settings.table_size, -size))
        seating = pods.seat(seated, bottom, met, points)
        tables, settled = seating.tables, seating.settled
    position = {p: i for i, p in enumerate(seated)}
    tables = [sorted(t, key=position.__getitem__)
              for t in sorted(tables, key=lambda t: min(position[p] for p in t))]
    fits = f"no table sizes ({', '.join(map(str, settings.sizes()))}) seat all {len(order)} players"
    byes = [{"player": p, "why": f"{fits}: the lowest-ranked player " + (
        "without a bye yet" if p not in had_bye else "(every lower one had a bye)")}
        for p in bye_players]
    explanations = [_explain(players, met, points, rank, {p: i + 1 for p, i in position.items()},
                             settled) for players in tables]
    repeats = sum(len(met.get(frozenset(pair), ())) for t in tables
                  for pair in combinations(t, 2))
    return Proposal(number_, tables, explanations, byes, repeats)


def _explain(players: list[str], met: dict[frozenset[str], list[int]], points: dict[str, Fraction],
             rank: dict[str, int], position: dict[str, int], settled: bool) -> dict[str, Any]:
    """Why these players sit together: their standing, any repeat (who met whom, when)
    and why it stays (``pods.seat``: ``settled``, or the search's budget ran out)."""
    positions = sorted(position[p] for p in players)
    together = positions[-1] - positions[0] + 1 == len(players)
    pairs = [(sorted(pair), met[frozenset(pair)]) for pair in combinations(players, 2)
             if frozenset(pair) in met]
    if together:
        why = (f"the next {len(players)} in the standings (places {positions[0]}–"
               f"{positions[-1]} of the players seated)")
    else:
        why = (f"places {', '.join(map(str, positions))} of the players seated: moved from "
               "the top-down tables to avoid repeat opponents (fewer repeats first, then "
               "the closest standings)")
    if pairs:
        why += "; " + "; ".join(
            f"{' and '.join(names)} met in round{'s' if len(rounds) > 1 else ''} "
            f"{', '.join(map(str, rounds))}" for names, rounds in pairs)
        why += (": no swap of two players and no rotation of three players between tables "
                "lowers the repeats" if settled else
                ": the search stopped at its step limit before trying every swap and rotation")
    repeats = [{"players": names, "rounds": rounds} for names, rounds in pairs]
    return {"why": why, "seated": "standing" if together else "swapped",
            "places": positions, "ranks": [rank[p] for p in players],
            "points": [number(points[p]) for p in players], "repeats": repeats}
