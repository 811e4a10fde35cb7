"""The Swiss engine of 1.0.0 (``service/tournaments/swiss.py`` at f1053f5), kept as the
test oracle of ``/standings`` once the events model answers it
(``test_standings_oracle.py``).  Not used by the service; do not edit.

Its docstring then: tournament standings and Swiss pairings, pure functions.
A tournament is its players and its rounds so far.  A round holds matches
(two players and the result of each game they played: the winner's name, or
``None`` for a drawn game), byes and drops (players who leave after it).
``service.http.tournaments`` verifies every game (its replay or signed final
state) and hands the winners here.

Scoring, as in Swiss tournaments of other games (the DCI tiebreakers):

* **Match points**: a match win 3, a draw 1, a loss 0, a bye 3.  A match is
  won by the player who won more of its games; equal game wins is a draw.
* **MW%** (match-win %): match points / (3 × rounds played, byes included).
* **GW%** (game-win %): game points (a game won 3, drawn 1) / (3 × games
  played); a bye counts as one game won.
* **OMW%** and **OGW%**: the mean of the opponents' MW% and GW%, each
  raised to the **33% floor** (0.33) first.  Byes are no opponent, so they
  are left out; a player who has met no opponent gets the floor.

A player is one player however the rounds spell the name (``resolve``,
``service.names``): ``Åsa`` composed or decomposed, ``Ann``, ``ann`` and
fullwidth ``Ａｎｎ`` are one name, shown as the players list spells it; two
such spellings in the players list, or a name with an invisible character,
are refused naming the field.

Standings order by match points, OMW%, GW%, OGW%; players equal on all four
share a rank (listed by name).  A dropped player stays in the standings and
is never paired again; the next round pairs the others top-down by standing,
never a rematch, and when their number is odd the bye goes to the lowest
player without a bye yet (for whom the rest can still be paired).

>>> r1 = Round([Match(("Ann", "Bob"), ["Ann"]), Match(("Cat", "Dan"), ["Dan", None])], byes=["Eve"])
>>> [(s.player, s.match_points) for s in standings(["Ann", "Bob", "Cat", "Dan", "Eve"], [r1])]
[('Ann', 3), ('Eve', 3), ('Dan', 3), ('Cat', 0), ('Bob', 0)]
>>> next_round(standings(["Ann", "Bob", "Cat", "Dan", "Eve"], [r1]), [r1])
Pairing(pairs=[('Ann', 'Dan'), ('Eve', 'Cat')], bye='Bob')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from service import names as naming
from service.games.errors import MalformedInput
from service.games.messages import N_

MATCH_WIN, MATCH_DRAW = 3, 1
GAME_WIN, GAME_DRAW = 3, 1
FLOOR = Fraction(33, 100)
#: pairing search steps before giving up (a tournament has no perfect pairing left)
PAIRING_BUDGET = 200_000


@dataclass
class Match:
    """Two players and each game's winner (a name, ``None`` for a drawn game)."""

    players: tuple[str, str]
    games: list[str | None]


@dataclass
class Round:
    matches: list[Match]
    byes: list[str] = field(default_factory=list)
    #: players who leave the tournament after this round
    drops: list[str] = field(default_factory=list)


@dataclass
class Standing:
    """One player's line of the standings (fractions exact; ``to_json`` rounds them)."""

    player: str
    rank: int = 0
    match_points: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    game_points: int = 0
    games: int = 0
    opponents: list[str] = field(default_factory=list)
    omw: Fraction = FLOOR
    gw: Fraction = Fraction(0)
    ogw: Fraction = FLOOR
    dropped: bool = False

    @property
    def rounds(self) -> int:
        return self.wins + self.draws + self.losses + self.byes

    @property
    def mw(self) -> Fraction:
        """Match-win fraction (0 before any round)."""
        return Fraction(self.match_points, MATCH_WIN * self.rounds) if self.rounds else Fraction(0)

    def key(self) -> tuple[Any, ...]:
        return (-self.match_points, -self.omw, -self.gw, -self.ogw)

    def to_json(self) -> dict[str, Any]:
        """The line as the API answers it: percentages as fractions of 1, 4 decimals."""
        return {"rank": self.rank, "player": self.player, "match_points": self.match_points,
                "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "byes": self.byes, "games": self.games, "game_points": self.game_points,
                "omw": _rounded(self.omw), "gw": _rounded(self.gw), "ogw": _rounded(self.ogw),
                "opponents": self.opponents, "dropped": self.dropped}


@dataclass
class Pairing:
    """The next round: pairs in table order (higher standing first) and the bye."""

    pairs: list[tuple[str, str]]
    bye: str | None


def _rounded(value: Fraction) -> float:
    """Four decimals.

    >>> _rounded(Fraction(5, 9))
    0.5556
    """
    return round(float(value), 4)


def match_winner(match: Match) -> str | None:
    """The player who won more games, or ``None`` for a drawn match.

    >>> match_winner(Match(("a", "b"), ["a", "b", "b"])), match_winner(Match(("a", "b"), [None]))
    ('b', None)
    """
    first, second = match.players
    wins = [sum(1 for w in match.games if w == p) for p in (first, second)]
    if wins[0] == wins[1]:
        return None
    return first if wins[0] > wins[1] else second


def resolve(players: Sequence[str], rounds: Sequence[Round]) -> tuple[list[str], list[Round]]:
    """The players ``names.checked`` (NFC; no two alike by ``names.key``, no invisible
    characters), and the rounds with every name they use — match players, byes, drops,
    game winners — spelled as the players list spells it; a name no player has is
    refused naming its field.

    >>> players, rounds = resolve(["Ann", "Bob"], [Round([Match(("ＡＮＮ", "bob"), ["ann"])])])
    >>> rounds[0].matches[0]
    Match(players=('Ann', 'Bob'), games=['Ann'])
    >>> resolve(["Ann", "Bob", "ann"], [])
    Traceback (most recent call last):
    ...
    service.games.errors.MalformedInput: players.2: 'ann' is the same player as players.0 'Ann'
    """
    spelled = naming.checked(players, "players")
    known = naming.roster(spelled)

    def one(name: str, path: str) -> str:
        return naming.player(name, known, path)

    out = []
    for r, rnd in enumerate(rounds):
        matches = []
        for m, match in enumerate(rnd.matches):
            path = f"rounds.{r}.matches.{m}"
            first, second = match.players
            games = [None if winner is None else one(winner, f"{path}.games.{g}")
                     for g, winner in enumerate(match.games)]
            matches.append(Match((one(first, f"{path}.players"), one(second, f"{path}.players")),
                                 games))
        out.append(Round(matches, [one(name, f"rounds.{r}.byes") for name in rnd.byes],
                         [one(name, f"rounds.{r}.drops") for name in rnd.drops]))
    return spelled, out


def check(players: Sequence[str], rounds: Sequence[Round]) -> None:
    """Refuse a tournament that cannot have happened, naming the field.

    >>> check(["a", "b"], [Round([Match(("a", "a"), [])])])
    Traceback (most recent call last):
    ...
    service.games.errors.MalformedInput: rounds.0.matches.0.players: a player cannot meet themself
    """
    known = set(players)
    if len(known) != len(players):
        raise MalformedInput({"players": [N_("every player must be listed once")]})
    gone: set[str] = set()
    for r, rnd in enumerate(rounds):
        seen: set[str] = set()
        named: list[tuple[str, tuple[str, ...]]] = [
            (f"rounds.{r}.matches.{m}.players", match.players)
            for m, match in enumerate(rnd.matches)]
        named += [(f"rounds.{r}.byes", (name,)) for name in rnd.byes]
        for path, names in named:
            if len(set(names)) != len(names):
                raise MalformedInput({path: [N_("a player cannot meet themself")]})
            for name in names:
                if name not in known:
                    raise MalformedInput({path: [N_("{name!r} is not one of the tournament's "
                                                    "players", name=name)]})
                if name in seen or name in gone:
                    raise MalformedInput({path: [N_("{name!r} plays at most once a round and "
                                                    "never after dropping", name=name)]})
                seen.add(name)
        for m, match in enumerate(rnd.matches):
            for g, winner in enumerate(match.games):
                if winner is not None and winner not in match.players:
                    raise MalformedInput({f"rounds.{r}.matches.{m}.games.{g}": [
                        N_("{name!r} is not one of the tournament's players", name=winner)]})
        for name in rnd.drops:
            if name not in known:
                raise MalformedInput({f"rounds.{r}.drops": [
                    N_("{name!r} is not one of the tournament's players", name=name)]})
        gone |= set(rnd.drops)


def standings(players: Sequence[str], rounds: Sequence[Round]) -> list[Standing]:
    """Every player's line, best first, ranks filled in (see the module docstring).
    Names are ``resolve``-d first: a player is one player however a round spells them."""
    players, rounds = resolve(players, rounds)
    check(players, rounds)
    table = {p: Standing(p) for p in players}
    for rnd in rounds:
        for name in rnd.byes:
            line = table[name]
            line.byes += 1
            line.match_points += MATCH_WIN
            line.games += 1
            line.game_points += GAME_WIN
        for match in rnd.matches:
            winner = match_winner(match)
            for me, other in (match.players, match.players[::-1]):
                line = table[me]
                line.opponents.append(other)
                line.games += len(match.games)
                line.game_points += sum(GAME_WIN if w == me else GAME_DRAW if w is None else 0
                                        for w in match.games)
                if winner is None:
                    line.draws += 1
                    line.match_points += MATCH_DRAW
                elif winner == me:
                    line.wins += 1
                    line.match_points += MATCH_WIN
                else:
                    line.losses += 1
        for name in rnd.drops:
            table[name].dropped = True
    for line in table.values():
        if line.games:
            line.gw = Fraction(line.game_points, GAME_WIN * line.games)
    for line in table.values():
        if line.opponents:
            line.omw = _mean(max(table[o].mw, FLOOR) for o in line.opponents)
            line.ogw = _mean(max(table[o].gw, FLOOR) for o in line.opponents)
    ordered = sorted(table.values(), key=lambda s: (s.key(), s.player))
    for i, line in enumerate(ordered):
        line.rank = ordered[i - 1].rank if i and line.key() == ordered[i - 1].key() else i + 1
    return ordered


def _mean(values: Iterable[Fraction]) -> Fraction:
    found = list(values)
    return sum(found, Fraction(0)) / len(found)


def next_round(table: Sequence[Standing], rounds: Sequence[Round]) -> Pairing | None:
    """Swiss pairings for the next round, or ``None`` when every pairing would be a rematch.

    >>> four = standings(["a", "b", "c", "d"], [Round([Match(("a", "b"), ["a"]),
    ...                                                 Match(("c", "d"), ["c"])])])
    >>> next_round(four, [])
    Pairing(pairs=[('a', 'c'), ('b', 'd')], bye=None)
    """
    active = [s.player for s in table if not s.dropped]
    rounds = resolve([s.player for s in table], rounds)[1]  # rematches by player, not spelling
    met = {frozenset(m.players) for rnd in rounds for m in rnd.matches}
    had_bye = {name for rnd in rounds for name in rnd.byes}
    budget = [PAIRING_BUDGET]
    if len(active) % 2 == 0:
        pairs = _pair(active, met, budget)
        return None if pairs is None else Pairing(pairs, None)
    candidates = [p for p in reversed(active) if p not in had_bye] or list(reversed(active))
    for bye in candidates:
        pairs = _pair([p for p in active if p != bye], met, budget)
        if pairs is not None:
            return Pairing(pairs, bye)
    return None


def _pair(order: list[str], met: set[frozenset[str]], budget: list[int]) -> list[tuple[str, str]] | None:
    """Pair ``order`` top-down: the first player meets the highest one not met yet,
    backtracking when the rest cannot be paired (``budget`` bounds the search)."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        if frozenset((first, other)) in met:
            continue
        tail = _pair(rest[:i] + rest[i + 1:], met, budget)
        if tail is not None:
            return [(first, other), *tail]
    return None
