"""Each game's declared rules history (``Game.rules_history``, service/games/versions.py).

A ``rules_version`` bump without its declaration fails here: the engine's id must be
the newest entry, versions only grow, a new id is a new major that names at least
one changed clause, and ``GET /v1/games/{game}`` shows the same list.
"""

from __future__ import annotations

import re

import pytest

from service.games.kozyablo import GAME as KOZYABLO
from service.games.raiders import GAME as RAIDERS
from service.games.registry import Engine
from service.games.tremble import GAME as TREMBLE
from service.games.versions import Change, RulesVersion, parse_semver

GAMES = ("raiders", "kozyablo", "tremble")
#: the engines themselves: ``rules_history`` (what each declares) is no part of the seam
ENGINES: dict[str, Engine] = {"raiders": RAIDERS, "kozyablo": KOZYABLO, "tremble": TREMBLE}
CLAUSE = re.compile(r"(RAI|KOZ|TRE)-\d+[a-z]?")


@pytest.mark.parametrize("game_id", GAMES)
def test_the_newest_declared_version_is_the_one_played(game_id):
    game = ENGINES[game_id]
    assert game.rules_history, f"{game_id} declares no rules_history"
    assert game.rules_history[-1].id == game.rules_version
    assert game.rules_semver == game.rules_history[-1].version


@pytest.mark.parametrize("game_id", GAMES)
def test_versions_grow_and_a_new_id_is_a_new_major_with_its_clauses(game_id):
    history = ENGINES[game_id].rules_history
    for older, newer in zip(history, history[1:], strict=False):
        assert parse_semver(newer.version) > parse_semver(older.version), (older, newer)
        if newer.id != older.id:
            assert parse_semver(newer.version)[0] > parse_semver(older.version)[0], newer
            assert newer.changes, f"{newer.id} names no changed clause"
        else:
            assert parse_semver(newer.version)[0] == parse_semver(older.version)[0], newer
    assert len({v.id for v in history}) == len({parse_semver(v.version)[0] for v in history})
    for version in history:
        assert str(parse_semver(version.version)[0]) == re.split(r"[/-]", version.id)[-1], version
        for change in version.changes:
            assert change.clause is None or CLAUSE.fullmatch(change.clause), change
            assert change.en and change.ru and change.en != change.ru, change


def test_a_version_is_semantic():
    with pytest.raises(ValueError, match="not a semantic version"):
        RulesVersion("demo/2", "2.0")
    assert RulesVersion("demo/2", "2.0.0", (Change("DEM-1", "rule", "a", "б"),
                                            Change("DEM-1", "event x", "c", "в"))).clauses == ["DEM-1"]


@pytest.mark.parametrize("game_id", GAMES)
def test_get_game_lists_the_versions_newest_first(client, game_id):
    game = ENGINES[game_id]
    info = client.get(f"/v1/games/{game_id}").get_json()
    assert info["rules_version"] == game.rules_version
    assert info["rules_semver"] == game.rules_semver
    listed = info["rules_versions"]
    assert [v["id"] for v in listed] == [v.id for v in reversed(game.rules_history)]
    assert listed[0]["current"] and listed[0]["served"]
    assert not any(v["current"] for v in listed[1:])
    newest = game.rules_history[-1]
    assert [c["clause"] for c in listed[0]["changes"]] == [c.clause for c in newest.changes]
    assert all(set(c["summary"]) == {"en", "ru"} for v in listed for c in v["changes"])
