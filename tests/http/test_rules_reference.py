"""The rules reference (``docs/rules/<game>{,.ru}.md``): agreement with the code, the
loader, the routes, and the clause text problems carry (issue 14).

The agreement test fails while a clause is cited in ``service/``, ``card_db/``
or ``schemas/`` but missing from a game's reference, or written there but
cited nowhere; its message names the ids.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from service import rules_reference
from service.rules_reference import LANGUAGES, RulesFileError, clause_pattern, parse, prefixes

ROOT = Path(__file__).resolve().parents[2]
CITED_IN = ("service", "card_db", "schemas")
#: the reference's own loader and routes quote ids as examples: not citations
NOT_CITATIONS = ("service/rules_reference.py", "service/http/rules.py")
GAMES = tuple(prefixes())


def cited_ids() -> dict[str, set[str]]:
    """Clause ids cited anywhere in the code and card data, by game."""
    found: dict[str, set[str]] = {g: set() for g in GAMES}
    for top in CITED_IN:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in (".py", ".yaml", ".yml", ".json") or "__pycache__" in path.parts \
                    or path.relative_to(ROOT).as_posix() in NOT_CITATIONS:
                continue
            for clause in clause_pattern().findall(path.read_text(encoding="utf-8")):
                found[rules_reference.game_of(clause)].add(clause)
    return found


def reference_or_fail(game: str, language: str) -> rules_reference.Reference:
    name = rules_reference.file_name(game, language)
    try:
        return rules_reference.reference(game, language)
    except rules_reference.MissingReference:
        pytest.fail(f"docs/rules/{name} is missing: {game} has no rules reference in {language}")


# ------------------------------------------------------------- agreement
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_reference_and_code_cite_the_same_clause_ids(game, language):
    """Every id the engines cite has an entry in the reference, and every entry is cited."""
    ref = reference_or_fail(game, language)
    cited, written = cited_ids()[game], set(ref.clauses)
    missing, extra = sorted(cited - written, key=_order), sorted(written - cited, key=_order)
    assert not missing and not extra, (
        f"{ref.path}: cited in code but not in the reference: {missing or 'none'}; "
        f"in the reference but cited nowhere in {'/, '.join(CITED_IN)}/: {extra or 'none'}")


@pytest.mark.parametrize("game", GAMES)
def test_both_languages_have_the_same_clauses_titles_and_rulings(game):
    en, ru = reference_or_fail(game, "en"), reference_or_fail(game, "ru")
    assert list(en.clauses) == list(ru.clauses), (
        f"{game}: ids differ (or their order): only en {sorted(set(en.clauses) - set(ru.clauses))}, "
        f"only ru {sorted(set(ru.clauses) - set(en.clauses))}")
    for clause_id, clause in en.clauses.items():
        other = ru.clauses[clause_id]
        assert clause.title.strip() and other.title.strip(), clause_id
        assert clause.ruling == other.ruling, f"{game} {clause_id}: ruling in one language only"
        assert clause.has_ruling == other.has_ruling, \
            f"{game} {clause_id}: a ruling paragraph in one language only"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES)
def test_reference_files_keep_the_format(game, language):
    """Short texts stand alone (≤ 300 characters); nothing points outside the repository."""
    ref = reference_or_fail(game, language)
    text = Path(ref.path).read_text(encoding="utf-8")
    assert "../shared" not in text and "digest" not in text.lower(), \
        f"{ref.path} points outside the repository"
    long = {c.id: len(c.short) for c in ref.clauses.values() if len(c.short) > 300}
    assert not long, f"{ref.path}: short texts over 300 characters: {long}"
    assert f"({rules_reference.file_name(game, 'ru' if language == 'en' else 'en')})" in text, \
        f"{ref.path} does not link to the other language"


def test_raiders_reference_marks_every_ruling():
    """RAI-3a, RAI-5a, RAI-6a, RAI-8a, RAI-9a, RAI-17a and RAI-31 are rulings; RAI-22a (the
    Boar's cost) is decided by the original; RAI-14/15/23/25/28/30 are rules with a ruling
    paragraph."""
    for language in LANGUAGES:
        clauses = rules_reference.reference("raiders", language).clauses
        assert [c.id for c in clauses.values() if c.ruling] == [
            "RAI-3a", "RAI-5a", "RAI-6a", "RAI-8a", "RAI-9a", "RAI-17a", "RAI-31"]
        assert [c.id for c in clauses.values() if c.has_ruling and not c.ruling] == [
            "RAI-14", "RAI-15", "RAI-23", "RAI-25", "RAI-28", "RAI-30"]
        assert list(clauses)[:2] == ["RAI-1", "RAI-2"] and "RAI-22a" in clauses


def _order(clause_id: str) -> tuple[Any, ...]:
    m = re.match(r"([A-Z]+)-(\d+)([a-z]?)", clause_id)
    return (m[1], int(m[2]), m[3])


# ------------------------------------------------------------ the loader
GOOD = "# T\n\nIntro.\n\n## S\n\n### RAI-1 · One\nText one.\n\n### RAI-2 · Two\n**Ruling.** Two.\n"


@pytest.mark.parametrize("broken,line,message", [
    ("Intro without a title\n\n### RAI-1 · One\nText.\n", 1, "'# ' title"),
    (GOOD + "\n### RAI-3 - Three\nText.\n", 13, "'### <ID> · <title>'"),
    (GOOD + "\n### RAI-1 · One again\nText.\n", 13, "RAI-1 again (first at line 7)"),
    (GOOD + "\n### RAI-3 · Three\n\n", 13, "RAI-3 has no text"),
    (GOOD + "\n### KOZ-3 · Three\nText.\n", 13, "not a RAI- clause"),
    (GOOD + "\n### RAI-3 · Three\n> «a quote first»\n", 14, "first paragraph"),
    (GOOD + "\n### RAI-3 · " + "x" * 61 + "\nText.\n", 13, "longer than 60"),
    (GOOD + "\n# Another title\n", 13, "second '# ' title"),
    ("# T\n\nNo clauses at all.\n", 3, "no clause"),
])
def test_a_broken_file_names_its_path_and_line(broken, line, message):
    with pytest.raises(RulesFileError) as caught:
        parse(broken, "docs/rules/raiders.md", "en", "RAI")
    assert caught.value.path == "docs/rules/raiders.md" and caught.value.line == line
    assert message in str(caught.value) and str(caught.value).startswith(f"docs/rules/raiders.md:{line}: ")


def test_parse_reads_ids_titles_short_texts_and_rulings():
    ref = parse(GOOD.replace("· Two", "· Two (ruling)"), "x.md", "en", "RAI")
    one, two = ref.clauses["RAI-1"], ref.clauses["RAI-2"]
    assert (one.title, one.short, one.ruling, one.section) == ("One", "Text one.", False, "S")
    assert (two.title, two.short, two.ruling, two.text) == ("Two", "Two.", True, "**Ruling.** Two.")
    ru = parse(GOOD.replace("**Ruling.**", "**Решение.**"), "x.ru.md", "ru", "RAI")
    assert ru.clauses["RAI-2"].ruling and ru.clauses["RAI-2"].short == "Two."


def test_a_broken_file_stops_the_service_at_start(tmp_path, monkeypatch):
    """Like a broken card file: the service does not start, and the error names file and line."""
    from service.app import create_app

    (tmp_path / "raiders.md").write_text(GOOD + "\n### RAI-9 · Nine\n", encoding="utf-8")
    monkeypatch.setenv(rules_reference.ENV_PATH, str(tmp_path))
    with pytest.raises(RulesFileError, match=r"raiders\.md:13: RAI-9 has no text"):
        create_app({"TESTING": True})


def test_files_are_found_from_the_env_path_then_the_source_tree(tmp_path, monkeypatch):
    assert rules_reference.find("raiders", "en") == ROOT / "docs" / "rules" / "raiders.md"
    (tmp_path / "raiders.ru.md").write_text(GOOD.replace("Ruling", "Решение"), encoding="utf-8")
    monkeypatch.setenv(rules_reference.ENV_PATH, str(tmp_path))
    assert rules_reference.find("raiders", "ru") == tmp_path / "raiders.ru.md"
    assert rules_reference.reference("raiders", "ru").clauses["RAI-2"].short == "Two."
    assert rules_reference.find("raiders", "en") == ROOT / "docs" / "rules" / "raiders.md"


def test_wheels_ship_the_reference_files():
    """``pip install .`` puts ``docs/rules/*.md`` where ``search_path`` looks last."""
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"share/referee/rules" = ["docs/rules/*.md"]' in pyproject
    assert rules_reference.search_path()[-1].parts[-3:] == ("share", "referee", "rules")


# ------------------------------------------------------------- the routes
def test_rules_route_lists_every_clause_in_english_by_default(real_api):
    r = real_api.get("/v1/games/raiders/rules")
    assert r.status_code == 200 and r.headers["Content-Language"] == "en"
    assert "Accept-Language" in r.headers["Vary"]
    body = r.json
    assert body["game"] == "raiders" and body["language"] == "en"
    ref = rules_reference.reference("raiders", "en")
    assert [c["id"] for c in body["clauses"]] == list(ref.clauses)
    rai_5a = next(c for c in body["clauses"] if c["id"] == "RAI-5a")
    assert rai_5a["ruling"] is True and rai_5a["url"] == "/v1/games/raiders/rules/RAI-5a"
    assert rai_5a["short"].startswith("Seat 0 takes the first turn")


@pytest.mark.parametrize("header", ["ru", "ru-RU,ru;q=0.9,en;q=0.8", "de, ru;q=0.5"])
def test_rules_route_answers_in_russian_when_asked(real_api, header):
    r = real_api.get("/v1/games/raiders/rules", headers={"Accept-Language": header})
    assert r.status_code == 200 and r.headers["Content-Language"] == "ru"
    assert r.json["language"] == "ru"
    titles = {c["id"]: c["title"] for c in r.json["clauses"]}
    assert titles["RAI-12"] == "Одна попытка захвата за ход"


@pytest.mark.parametrize("header,language", [(None, "en"), ("fr", "en"), ("ru", "ru")])
def test_one_clause_in_the_requested_language(real_api, header, language):
    headers = {"Accept-Language": header} if header else {}
    r = real_api.get("/v1/games/raiders/rules/RAI-22a", headers=headers)
    assert r.status_code == 200 and r.headers["Content-Language"] == language
    clause = rules_reference.reference("raiders", language).clauses["RAI-22a"]
    assert r.json == {"game": "raiders", "language": language, **clause.to_json("raiders")}
    assert ("Boar" if language == "en" else "Кабана") in r.json["short"]


def test_clause_ids_are_matched_loosely(real_api):
    assert real_api.get("/v1/games/raiders/rules/rai-5A").json["id"] == "RAI-5a"


def test_unknown_clause_or_game_is_a_404_naming_it(real_api):
    r = real_api.get("/v1/games/raiders/rules/RAI-99")
    assert r.status_code == 404 and r.json["type"] == "/problems/unknown-clause"
    assert "RAI-99" in r.json["detail"]
    r = real_api.get("/v1/games/chess/rules")
    assert r.status_code == 404 and r.json["type"] == "/problems/unknown-game"
    assert "chess" in r.json["detail"]
    r = real_api.get("/v1/games/chess/rules/RAI-1")
    assert r.status_code == 404 and "chess" in r.json["detail"]


def test_a_game_without_a_reference_is_a_404_naming_it(api):
    """``pebbles`` (the HTTP layer's test game) has no reference file."""
    r = api.get("/v1/games/pebbles/rules")
    assert r.status_code == 404 and r.json["type"] == "/problems/not-found"
    assert "pebbles" in r.json["detail"]


# ---------------------------------------------- clause text in problems
def _new_raiders(api, **options) -> dict[Any, Any]:
    r = api.post("/v1/games/raiders/new", json={"players": 2, "seed": 3, "options": options})
    assert r.status_code == 200, r.json
    return r.json["state"]


def test_an_illegal_capture_quotes_its_clause_in_russian(real_api):
    """RAI-15: a capture against a property not in play → 422 with the clause's Russian text."""
    state = _new_raiders(real_api)
    action = {"type": "capture", "player": 0, "fighter": state["players"][0]["hand"][0],
              "property": "nowhere"}
    r = real_api.post("/v1/games/raiders/apply", json={"state": state, "action": action},
                      headers={"Accept-Language": "ru"})
    assert r.status_code == 422 and r.json["rule"] == "RAI-15"
    assert r.json["rule_text"] == rules_reference.reference("raiders", "ru").clauses["RAI-15"].short
    assert r.json["rule_text"].startswith("Чтобы захватить собственность")
    assert r.json["rule_url"] == "/v1/games/raiders/rules/RAI-15"
    assert r.headers["Content-Language"] == "ru"
    linked = real_api.get(r.json["rule_url"], headers={"Accept-Language": "ru"})
    assert linked.status_code == 200 and linked.json["short"] == r.json["rule_text"]


def test_a_replay_error_quotes_its_clause_in_english_by_default(real_api):
    """RAI-15: a replay whose first capture uses a fighter from another hand → index and text."""
    state = _new_raiders(real_api)
    action = {"type": "capture", "player": 0, "fighter": state["players"][1]["hand"][0],
              "property": state["centre"][0]}
    r = real_api.post("/v1/games/raiders/replay",
                      json={"setup": {"players": 2, "seed": 3}, "actions": [action]})
    assert r.status_code == 422 and (r.json["index"], r.json["rule"]) == (0, "RAI-15")
    assert r.json["rule_text"] == rules_reference.reference("raiders", "en").clauses["RAI-15"].short
    assert r.headers["Content-Language"] == "en"


def test_an_option_error_links_the_options_clause(real_api):
    """RAI-8: ``teams`` with 2 players → 400 whose ``clauses`` quote and link RAI-8."""
    r = real_api.post("/v1/games/raiders/new", json={"players": 2, "options": {"teams": True}},
                      headers={"Accept-Language": "ru"})
    assert r.status_code == 400 and "options.teams" in r.json["errors"]
    link = r.json["clauses"]["options.teams"]
    assert link["rule"] == "RAI-8" and link["rule_url"] == "/v1/games/raiders/rules/RAI-8"
    assert link["rule_text"] == rules_reference.reference("raiders", "ru").clauses["RAI-8"].short


def test_setup_violations_each_carry_their_clause_text():
    """Every ``violations`` item with a ``rule`` gets ``rule_text``/``rule_url``; others stay."""
    from flask import Flask

    from service.problems import problem

    with Flask(__name__).test_request_context(headers={"Accept-Language": "ru"}):
        body = problem(422, "invalid-setup", "Invalid setup", "2 violations", violations=[
            {"rule": "RAI-9", "reason": "too few cards"}, {"rule": "PEB-5", "reason": "x"}]).json
    first, second = body["violations"]
    assert first["rule_text"] == rules_reference.reference("raiders", "ru").clauses["RAI-9"].short
    assert first["rule_url"] == "/v1/games/raiders/rules/RAI-9"
    assert second == {"rule": "PEB-5", "reason": "x"}


def test_a_clause_no_reference_has_gets_no_text(api):
    """PEB-3 (the test game) has no reference: the problem keeps ``rule`` and nothing more."""
    state = api.post("/v1/games/pebbles/new", json={"players": 2, "seed": 1}).json["state"]
    r = api.post("/v1/games/pebbles/apply", json={"state": state, "action": {
        "type": "take", "player": 1 - state["current"], "cards": ["P1"]}})
    assert r.status_code == 422 and r.json["rule"] == "PEB-3"
    assert "rule_text" not in r.json and "rule_url" not in r.json
