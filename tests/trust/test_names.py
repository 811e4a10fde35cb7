"""Attack: one player, two look-alike names (issue 22, item 5).

**What the cheater tries.**  Names that look the same on a scorekeeper's
screen can be different code points: ``Åsa`` composed (NFC) or decomposed
(NFD: ``A`` + a combining ring), ``Ann`` and ``ann``, fullwidth ``Ａｎｎ``,
``Ann`` followed by an invisible zero-width space.  A cheater enters the
tournament twice under two such spellings (two chances at a prize, a
second seat to feed wins to), or spells a name differently in a round to
play twice in it or to dodge the no-rematch rule.  Before: the standings
counted each spelling as a player of its own — ``Åsa`` and ``Åsa`` ranked 1
and 2, ``Ann``, ``ann``, ``Ann``+ZWSP and ``Ａｎｎ`` were four players.

**What happens now** (``service.names``, used by ``service.tournaments``).
The players list is checked: two names that are one name by their key (NFKC,
case-folded) are refused, the problem naming both fields and both spellings
(``players.1: 'ann' is the same player as players.0 'Ann'``, 422
``invalid-tournament``); a name with an invisible or control character, an
empty one or one with spaces around is refused.  Every name a round uses
(match players, byes, drops, winners) is resolved by its key to the
spelling the players list registered, so a look-alike is the same player
(once a round, never a rematch), and a name no player has is refused naming
its field.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from service import names
from service.games.errors import MalformedInput
from service.tournaments import swiss
from service.tournaments.events import MATCHES, Round, TournamentEvent, checked
from tests.size import sized
from tests.tournaments.played import played_game, winners

from .conftest import call

STANDINGS = "/v1/tournaments/standings"
ASA_NFC, ASA_NFD = "\u00c5sa", "A\u030asa"
ZWSP = "\u200b"
#: a game won by seat 1, one won by seat 0 (or drawn), replays the server verifies again
SEAT1_WINS = next(s for s in range(1, 40) if winners(s) == (1,))


def match(first: str, second: str, seed: int = SEAT1_WINS) -> dict[Any, Any]:
    """A match whose game's seats are named as the match spells its players."""
    return {"players": [first, second], "games": [played_game(seed, (first, second))]}


@pytest.fixture(scope="module")
def url(serve):
    return serve("names")


@pytest.mark.parametrize("first, second", [
    (ASA_NFC, ASA_NFD), ("Ann", "ann"), ("Ann", "Ａｎｎ"), ("Ann", "ANN"), ("Straße", "STRASSE"),
], ids=["nfc-nfd", "case", "fullwidth", "upper", "sharp-s"])
def test_one_player_entered_twice_under_two_spellings_is_refused_naming_both(url, first, second):
    """The issue's attack: the two spellings play each other and once took ranks 1 and 2."""
    r = call(url, STANDINGS, {"players": [first, second, "Bob"],
                              "rounds": [{"matches": [match(first, second)], "byes": ["Bob"]}]})
    assert r.status == 422 and r.type == "/problems/invalid-tournament", r.json
    assert r.json["errors"] == {
        "players.1": [f"{second!r} is the same player as players.0 {first!r}"]}
    assert "standings" not in r.json


def test_the_four_anns_are_one_ann_and_three_refusals(url):
    r = call(url, STANDINGS, {"players": ["Ann", "ann", "Ann" + ZWSP, "Ａｎｎ", "Bob"], "rounds": []})
    assert r.status == 422, r.json
    errors = r.json["errors"]
    assert errors == {
        "players.1": ["'ann' is the same player as players.0 'Ann'"],
        "players.2": ["'Ann\\u200b' holds an invisible or control character (U+200B)"],
        "players.3": ["'Ａｎｎ' is the same player as players.0 'Ann'"]}


def test_a_round_may_spell_a_player_any_look_alike_way_and_counts_one_player(url):
    """Rounds spelled by a careless (or clever) scorekeeper: NFD, fullwidth, other case.
    The standings hold each player once, as registered, with every result credited."""
    players = [ASA_NFC, "Bob", "Cat", "Dan"]
    r = call(url, STANDINGS, {"players": players, "rounds": [{"matches": [
        match(ASA_NFD, "ｂｏｂ"), match("CAT", "dan")]}]})
    assert r.status == 200, r.json
    lines = {line["player"]: line for line in r.json["standings"]}
    assert sorted(lines) == sorted(players)
    assert lines["Bob"]["wins"] == 1 and lines[ASA_NFC]["losses"] == 1
    assert lines[ASA_NFC]["opponents"] == ["Bob"] and lines["Dan"]["opponents"] == ["Cat"]
    # the next round is no rematch, whatever the spelling of round 1
    pairs = {frozenset(p) for p in r.json["next_round"]["pairings"]}
    assert frozenset((ASA_NFC, "Bob")) not in pairs and frozenset(("Cat", "Dan")) not in pairs


def test_a_look_alike_cannot_play_twice_in_a_round(url):
    r = call(url, STANDINGS, {"players": ["Ann", "Bob", "Cat"], "rounds": [
        {"matches": [match("Ann", "Bob")], "byes": ["ａｎｎ"]}]})
    assert r.status == 422 and list(r.json["errors"]) == ["rounds.0.byes"], r.json
    assert "plays at most once a round" in r.json["errors"]["rounds.0.byes"][0]


def test_a_name_with_an_invisible_character_is_no_players_name(url):
    r = call(url, STANDINGS, {"players": ["Ann", "Bob"], "rounds": [
        {"matches": [match("Ann" + ZWSP, "Bob")]}]})
    assert r.status == 422 and r.json["errors"] == {
        "rounds.0.matches.0.players": ["'Ann\\u200b' is not one of the tournament's players"]}


def test_the_refusal_is_in_the_request_language(url):
    r = call(url, STANDINGS, {"players": ["Ann", "ann"], "rounds": []},
             [("Accept-Language", "ru")])
    assert r.status == 422 and r.headers["content-language"] == "ru"
    assert r.json["errors"] == {"players.1": ["'ann' — тот же игрок, что и players.0 'Ann'"]}


# ------------------------------------------------------------------ in process
LETTERS = st.characters(categories=["Lu", "Ll", "Lt"], max_codepoint=0x24F,
                        exclude_characters="\u0131")  # dotless ı: upper() is I, another letter
NAMES = st.text(LETTERS, min_size=1, max_size=10).flatmap(
    lambda first: st.lists(st.text(LETTERS, min_size=1, max_size=8), max_size=2).map(
        lambda rest: " ".join([first, *rest])))


def fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


LOOK_ALIKE = {
    "upper": str.upper, "lower": str.lower, "swapcase": str.swapcase, "title": str.title,
    "nfd": lambda s: unicodedata.normalize("NFD", s),
    "nfkd": lambda s: unicodedata.normalize("NFKD", s),
    "fullwidth": fullwidth, "fullwidth-upper": lambda s: fullwidth(s.upper()),
    "no-break-space": lambda s: s.replace(" ", "\u00a0"),
}


@settings(max_examples=sized(400, least=20), deadline=None, suppress_health_check=list(HealthCheck))
@given(name=NAMES, how=st.sampled_from(sorted(LOOK_ALIKE)))
def test_any_look_alike_spelling_collides_and_the_problem_names_both(name, how):
    other = LOOK_ALIKE[how](name)
    assert names.key(other) == names.key(name)
    with pytest.raises(MalformedInput) as refused:
        names.checked([name, other], "players")
    assert refused.value.errors == {
        "players.1": [f"{other!r} is the same player as players.0 {name!r}"]}


INVISIBLE = st.one_of(
    st.characters(categories=["Cc", "Cf", "Co", "Zl", "Zp"]),
    st.sampled_from(["\u034f", "\u115f", "\u3164", "\ufe0f", "\ufe00", "\U000e0100", "\u180b",
                     "\ufff0", "\U0010ffff"]))


@settings(max_examples=sized(300, least=20), deadline=None, suppress_health_check=list(HealthCheck))
@given(name=NAMES, hidden=INVISIBLE, at=st.integers(0, 20))
def test_a_name_holding_an_invisible_character_is_refused(name, hidden, at):
    at = min(at, len(name))
    sneaky = name[:at] + hidden + name[at:]
    with pytest.raises(MalformedInput) as refused:
        names.checked([sneaky], "players")
    [message] = refused.value.errors["players.0"]
    assert "invisible or control character" in message or "whitespace" in message, message


@settings(max_examples=sized(300, least=20), deadline=None, suppress_health_check=list(HealthCheck))
@given(listed=st.lists(NAMES, min_size=1, max_size=6))
def test_names_with_different_keys_are_all_kept_in_nfc(listed):
    assume(len({names.key(n) for n in listed}) == len(listed))
    kept = names.checked(listed, "players")
    assert kept == [unicodedata.normalize("NFC", n) for n in listed]
    assert names.checked(kept, "players") == kept


@pytest.mark.parametrize("bad, why", [
    ("", "cannot be empty"), (" Ann", "whitespace"), ("Ann\u00a0", "whitespace"),
    ("Ann\n", "whitespace"), ("An\u2028n", "invisible"), ("\u202eAnn", "invisible"),
    ("Ann\U000f0000", "invisible"), (7, "must be a string"),
])
def test_names_that_are_not_names(bad, why):
    with pytest.raises(MalformedInput) as refused:
        names.checked(["Bob", bad], "setup.seats")
    assert list(refused.value.errors) == ["setup.seats.1"]
    assert why in refused.value.errors["setup.seats.1"][0]


@settings(max_examples=sized(150, least=20), deadline=None, suppress_health_check=list(HealthCheck))
@given(how=st.sampled_from(sorted(LOOK_ALIKE)), who=st.sampled_from(["Åsa", "Bob Lee", "Cat"]))
def test_standings_do_not_depend_on_how_a_round_spells_a_player(how, who):
    spell = LOOK_ALIKE[how]
    players = ["Åsa", "Bob Lee", "Cat", "Dan"]
    plain = [Round([swiss.match("Åsa", "Bob Lee", ["Bob Lee"]), swiss.match("Cat", "Dan", [None])],
                   drops=["Dan"])]

    def respelled(name: str) -> str:
        return spell(name) if name == who else name

    twisted = [Round([swiss.match(respelled(m.players[0]), respelled(m.players[1]), [])
                      for m in rnd.tables], [respelled(n) for n in rnd.byes],
                     [respelled(n) for n in rnd.drops]) for rnd in plain]
    for was, now in zip(plain, twisted, strict=True):  # the same games' places
        for m, table in enumerate(now.tables):
            table.games = was.tables[m].games

    def standings(rounds: list[Round]) -> list[dict[Any, Any]]:
        return swiss.standings_answer(checked(TournamentEvent(players, swiss.DUEL, rounds,
                                                              MATCHES)), 0)["standings"]

    assert standings(twisted) == standings(plain)


def test_the_http_route_refuses_the_duplicates_in_process(make_client):
    client = make_client()
    r = client.post(STANDINGS, json={"players": [ASA_NFC, "Bob", ASA_NFD], "rounds": []})
    assert r.status_code == 422 and r.json["errors"] == {
        "players.2": [f"{ASA_NFD!r} is the same player as players.0 {ASA_NFC!r}"]}
