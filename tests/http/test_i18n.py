"""Messages in Russian and English (issue 14): gettext catalogs, ``Accept-Language`` → ``ru``.

The catalog checks: every msgid of the source is in the committed ``.pot`` (re-extracted here
with Babel, as ``make translations`` does), every one has a non-empty, non-fuzzy Russian
translation, and each translation keeps its msgid's placeholders.  Then over HTTP: the
Russian reason, detail, title and clause text of an illegal Raiders capture; the English
answer unchanged; a Kozyablo deck violation, an option error and a field error in Russian.
"""

from __future__ import annotations

import ast
import pickle
import re
import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from service import i18n, rules_reference
from service.games.messages import N_, Message

ROOT = Path(__file__).resolve().parents[2]
SERVICE = ROOT / "service"
POT = SERVICE / "translations" / "messages.pot"
CYRILLIC = re.compile("[а-яё]", re.I)


def _catalog(path: Path):
    with path.open("rb") as f:
        return read_po(f)


def _ids(catalog) -> set[str]:
    return {m.id for m in catalog if m.id}


def _extracted() -> set[str]:
    """The msgids ``pybabel extract -F babel.cfg -k N_ --no-default-keywords`` finds now."""
    method_map = [("**.py", "python")]
    return {msg for source in (SERVICE, SERVICE.parent / "schemas") for _, _, msg, _, _ in
            extract_from_dir(str(source), method_map, keywords={"N_": None})}


def _placeholders(text: str) -> list[str]:
    return sorted(f"{name}{'!' + conv if conv else ''}{':' + spec if spec else ''}"
                  for _, name, spec, conv in string.Formatter().parse(text) if name is not None)


# ----------------------------------------------------------------- catalogs
def test_the_pot_is_up_to_date_with_the_source():
    """Re-extracting gives the committed .pot's msgids (run ``make translations`` if not)."""
    now, committed = _extracted(), _ids(_catalog(POT))
    assert now - committed == set(), "new texts: run `make translations` and translate them"
    assert committed - now == set(), "texts no longer in the source: run `make translations`"


def test_every_n_call_has_a_literal_msgid_that_extraction_finds():
    """``N_`` takes a string literal (extraction reads only literals), and Babel finds each one
    — also when nested in another call (it once missed a nested one)."""
    committed = _ids(_catalog(POT))
    for path in SERVICE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "N_":
                first = node.args[0] if node.args else None
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                assert isinstance(first, ast.Constant) and isinstance(first.value, str), where
                assert first.value in committed, where


#: the exceptions whose first argument maps a field to its messages
FIELD_ERRORS = ("MalformedInput", "InvalidState")


def test_every_field_message_is_translatable():
    """A field's message given to ``MalformedInput``/``InvalidState`` is an ``N_`` message
    (or a name bound to one), never a string: an f-string reached a Russian client in
    English (the evaluation kinds' caps and seats, found 2026-11-26)."""
    found = []
    for path in SERVICE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) in FIELD_ERRORS
                    and node.args and isinstance(node.args[0], ast.Dict)):
                continue
            for value in node.args[0].values:
                for text in value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]:
                    if isinstance(text, (ast.Constant, ast.JoinedStr, ast.BinOp)):
                        found.append(f"{path.relative_to(ROOT)}:{text.lineno}: {ast.unparse(text)}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("language", [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT_LANGUAGE])
def test_every_msgid_has_a_translation(language):
    """Each .po holds exactly the .pot's msgids, each translated, none fuzzy, in that script."""
    pot = _ids(_catalog(POT))
    po = _catalog(i18n.catalog_path(language))
    translated = {m.id: m for m in po if m.id}
    assert set(translated) == pot
    untranslated = sorted(i for i, m in translated.items() if not m.string or m.fuzzy)
    assert untranslated == []
    if language == "ru":
        latin_only = sorted(i for i, m in translated.items()
                            if not CYRILLIC.search(m.string) and CYRILLIC.sub("", i) == i
                            and re.search(r"[a-z]{3} [a-z]{3}", re.sub(r"\{[^}]*\}", "", i)))
        assert latin_only == [], "left in English"


@pytest.mark.parametrize("language", [lang for lang in i18n.LANGUAGES if lang != i18n.DEFAULT_LANGUAGE])
def test_each_translation_keeps_its_placeholders(language):
    """A translation fills the same ``{name}`` (with the same ``!r``) as its msgid."""
    wrong = [(m.id, m.string) for m in _catalog(i18n.catalog_path(language))
             if m.id and _placeholders(m.id) != _placeholders(m.string)]
    assert wrong == []


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_every_message_renders(language):
    """Every msgid formats in every language with its params (no KeyError at request time)."""
    for msgid in _ids(_catalog(POT)):
        params = {name.split("!")[0].split(":")[0]: 7 for name in _placeholders(msgid)}
        text = i18n.translate(N_(msgid, **params), language)
        assert text and "{" not in text.replace("{{", ""), msgid


def test_no_engine_module_imports_flask_or_babel():
    """Engines stay pure: they mark messages with ``N_`` and never import Flask or Babel."""
    for path in (SERVICE / "games").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert name.split(".")[0] not in ("flask", "babel", "werkzeug"), (path, name)


def test_a_message_is_its_english_text_and_renders_in_russian():
    m = N_("only the active player (seat {active}) captures, once, in their own turn", active=1)
    assert isinstance(m, str) and m == "only the active player (seat 1) captures, once, in their own turn"
    assert pickle.loads(pickle.dumps(m)).params == {"active": 1}
    assert i18n.translate(m, "ru") == ("захватывает только игрок, чей сейчас ход (место 1), "
                                       "и только раз за свой ход")
    assert i18n.translate("a plain string", "ru") == "a plain string"
    nested = N_("{reason}; the card would go to the discard with no effect",
                reason=N_("that guard is already yours"))
    assert i18n.translate(nested, "ru") == ("этот охранник и так ваш; карта ушла бы в битые "
                                            "без всякого действия")
    assert isinstance(nested, Message)


# ---------------------------------------------------------------- over HTTP
def _new_raiders(api) -> dict[Any, Any]:
    r = api.post("/v1/games/raiders/new", json={"players": 2, "seed": 3})
    assert r.status_code == 200, r.json
    return r.json["state"]


def _out_of_turn_capture(state: dict[Any, Any]) -> dict[Any, Any]:
    """Seat 1 captures in seat 0's turn (RAI-12)."""
    return {"type": "capture", "player": 1, "fighter": state["players"][1]["hand"][0],
            "property": state["centre"][0]}


def test_an_illegal_raiders_capture_in_russian(real_api):
    """RAI-12 over HTTP with ``Accept-Language: ru``: Russian title, detail (the reason) and
    clause text; ``Content-Language: ru``; the clause is cited as in English."""
    state = _new_raiders(real_api)
    action = _out_of_turn_capture(state)
    r = real_api.post("/v1/games/raiders/apply", json={"state": state, "action": action},
                      headers={"Accept-Language": "ru"})
    assert r.status_code == 422 and r.json["rule"] == "RAI-12"
    assert r.json["title"] == "Недопустимое действие"
    assert r.json["detail"] == ("захватывает только игрок, чей сейчас ход (место 0), "
                                "и только раз за свой ход")
    assert r.json["rule_text"] == rules_reference.reference("raiders", "ru").clauses["RAI-12"].short
    assert r.headers["Content-Language"] == "ru" and "Accept-Language" in r.headers["Vary"]
    check = real_api.post("/v1/games/raiders/check", json={"state": state, "action": action},
                          headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})
    assert check.json == {"legal": False, "rule": "RAI-12", "reason": r.json["detail"]}
    assert check.headers["Content-Language"] == "ru"


def test_the_same_capture_stays_english_by_default(real_api):
    """RAI-12 without ``Accept-Language`` (or with one the service lacks): the English text."""
    state = _new_raiders(real_api)
    action = _out_of_turn_capture(state)
    english = "only the active player (seat 0) captures, once, in their own turn"
    for headers in ({}, {"Accept-Language": "de"}, {"Accept-Language": "en-GB,ru;q=0.8"}):
        r = real_api.post("/v1/games/raiders/apply", json={"state": state, "action": action},
                          headers=headers)
        assert (r.json["title"], r.json["detail"]) == ("Illegal action", english)
        assert r.json["rule_text"] == rules_reference.reference("raiders", "en").clauses["RAI-12"].short
        assert r.headers["Content-Language"] == "en"
        check = real_api.post("/v1/games/raiders/check", json={"state": state, "action": action},
                              headers=headers)
        assert check.json["reason"] == english and check.headers["Content-Language"] == "en"


def test_a_replay_error_in_russian(real_api):
    """RAI-15: a replay whose first capture uses a fighter from another hand, in Russian."""
    state = _new_raiders(real_api)
    fighter = state["players"][1]["hand"][0]
    action = {"type": "capture", "player": 0, "fighter": fighter, "property": state["centre"][0]}
    r = real_api.post("/v1/games/raiders/replay",
                      json={"setup": {"players": 2, "seed": 3}, "actions": [action]},
                      headers={"Accept-Language": "ru"})
    assert r.status_code == 422 and (r.json["index"], r.json["rule"]) == (0, "RAI-15")
    assert r.json["detail"] == f"{fighter} нет у вас на руке"


def test_a_kozyablo_deck_violation_in_russian(real_api):
    """KOZ-1/KOZ-2/KOZ-5 from ``decks/validate`` and from ``new`` (422), in Russian."""
    bad = {"capital": "pz_capital", "sectors": ["gold_mine"], "cards": ["pz_archer"] * 4}
    r = real_api.post("/v1/games/kozyablo/decks/validate", json={"deck": bad},
                      headers={"Accept-Language": "ru"})
    assert r.status_code == 200 and r.headers["Content-Language"] == "ru"
    reasons = {v["rule"]: v["reason"] for v in r.json["violations"]}
    assert reasons["KOZ-1"] == "в колоде карт: 4; нужно от 15 до 25"
    assert reasons["KOZ-2"] == "больше трёх копий: pz_archer ×4"
    r = real_api.post("/v1/games/kozyablo/new", json={"players": [{"deck": bad}, {"race": "kozly"}]},
                      headers={"Accept-Language": "ru"})
    assert r.status_code == 422 and r.json["title"] == "Недопустимая подготовка к игре"
    assert [v["reason"] for v in r.json["violations"]][:2] == [reasons["KOZ-1"], reasons["KOZ-2"]]
    assert r.json["detail"].startswith("нарушений при подготовке — 3: KOZ-1: в колоде карт: 4")
    assert r.json["violations"][0]["rule_text"] == \
        rules_reference.reference("kozyablo", "ru").clauses["KOZ-1"].short
    english = real_api.post("/v1/games/kozyablo/decks/validate", json={"deck": bad})
    assert english.json["violations"][0]["reason"] == "the deck has 4 cards; it needs 15 to 25"


def test_option_and_field_errors_in_russian(real_api):
    """RAI-8: an option error, and the shape checker's field messages, in Russian."""
    r = real_api.post("/v1/games/raiders/new", json={"players": 2, "options": {"teams": True}},
                      headers={"Accept-Language": "ru"})
    assert r.status_code == 400 and r.json["title"] == "Недопустимые параметры игры"
    assert r.json["errors"]["options.teams"] == ["для teams нужно ровно 4 игрока (RAI-8)"]
    assert r.json["detail"] == "options.teams: для teams нужно ровно 4 игрока (RAI-8)"
    r = real_api.post("/v1/games/raiders/new", json={"players": 2, "options": {"bogus": 1}},
                      headers={"Accept-Language": "ru"})
    assert r.json["errors"]["options.bogus"][0].startswith("неизвестный параметр; известные: ")
    state = _new_raiders(real_api)
    action = {"type": "capture", "player": 0, "fighter": 5, "property": "y"}
    r = real_api.post("/v1/games/raiders/apply", json={"state": state, "action": action},
                      headers={"Accept-Language": "ru"})
    assert r.status_code == 400 and r.json["errors"]["action.fighter"] == ["должно быть строкой"]
    r = real_api.post("/v1/games/raiders/new", json={"players": 2, "extra": 1},
                      headers={"Accept-Language": "ru"})  # marshmallow's message, mapped
    assert r.status_code == 400 and r.json["errors"]["extra"] == ["неизвестное поле"]


def test_card_listing_names_cards_in_the_requested_language(real_api):
    """``display_name`` is the card's ``name`` in ``Accept-Language``; ``name`` keeps both."""
    ru = real_api.get("/v1/games/raiders/cards", headers={"Accept-Language": "ru"})
    assert ru.headers["Content-Language"] == "ru"
    card = next(c for c in ru.json["cards"]["fighters"] if c["id"] == "S-6")
    assert card["display_name"] == card["name"]["ru"] == "Шпана (пики)"
    en = real_api.get("/v1/games/raiders/cards", headers={"Accept-Language": "en"})
    card = next(c for c in en.json["cards"]["fighters"] if c["id"] == "S-6")
    assert card["display_name"] == card["name"]["en"]


def test_problem_type_pages_in_russian(real_api):
    """``/problems/<slug>`` (what a problem's ``type`` resolves to) in the request's language."""
    headers = {"Accept": "application/json", "Accept-Language": "ru"}
    r = real_api.get("/problems/illegal-action", headers=headers)
    assert r.headers["Content-Language"] == "ru"
    assert r.json["title"] == "Недопустимое действие"
    assert r.json["when"].startswith("Действие нарушает правило игры.")
    listed = real_api.get("/problems", headers=headers).json["problem_types"]
    assert {t["slug"]: t["title"] for t in listed}["invalid-setup"] == "Недопустимая подготовка к игре"
    page = real_api.get("/problems/invalid-options", headers={"Accept-Language": "ru"})
    html = page.get_data(as_text=True)
    assert '<html lang="ru">' in html and "<h2>Что делать</h2>" in html
    assert "Статус HTTP: <b>400</b>" in html and "<code>GET /v1/games/{game}</code>" in html
    english = real_api.get("/problems/illegal-action", headers={"Accept": "application/json"})
    assert english.json["title"] == "Illegal action" and english.headers["Content-Language"] == "en"


def test_a_corrupt_state_and_an_unknown_route_in_russian(real_api):
    """A broken invariant (``state.active`` past the seats) and werkzeug's 404, in Russian."""
    state = dict(_new_raiders(real_api), active=9)
    r = real_api.post("/v1/games/raiders/score", json={"state": state},
                      headers={"Accept-Language": "ru"})
    assert r.status_code == 400 and r.json["title"] == "Некорректное состояние игры"
    assert r.json["errors"]["state.active"] == ["должно быть местом меньше 2"]
    r = real_api.get("/v1/nowhere", headers={"Accept-Language": "ru"})
    assert r.status_code == 404 and r.json["title"] == "Не найдено"
    assert r.json["detail"].startswith("Запрошенный адрес на сервере не найден.")
    english = real_api.get("/v1/nowhere")
    assert english.json["detail"].startswith("The requested URL was not found on the server.")


def test_alternatives_are_joined_with_the_languages_or():
    """``either`` keeps the English ``a or b or c`` and gives ``a или b или c`` in Russian."""
    from service.games.messages import either

    message = N_("{kind!r} is not possible now: the combat waits for {items}", kind="move",
                 items=either(["strike", "evade", "defend"]))
    assert message == "'move' is not possible now: the combat waits for strike or evade or defend"
    assert i18n.translate(message, "ru") == \
        "'move' сейчас невозможно: бой ждёт strike или evade или defend"


def test_a_tremble_violation_in_russian(real_api):
    """TRE-10: keeping a mission that was not dealt, answered in Russian (the third game)."""
    r = real_api.post("/v1/games/tremble/new", json={"players": 2, "seed": 1,
                                                      "options": {"missions": True}})
    state = r.json["state"]
    action = {"type": "keep_missions", "player": 0, "missions": ["M-NOWHERE"]}
    r = real_api.post("/v1/games/tremble/check", json={"state": state, "action": action},
                      headers={"Accept-Language": "ru"})
    assert r.json == {"legal": False, "rule": "TRE-10",
                      "reason": "оставляйте только розданные вам задания, каждое один раз"}
    r = real_api.post("/v1/games/tremble/new", json={"players": 2, "options": {"missions": "yes"}},
                      headers={"Accept-Language": "ru"})
    assert r.status_code == 400 and r.json["errors"]["options.missions"] == ["должно иметь тип boolean"]


def test_evaluation_and_signature_problems_in_russian():
    """The HTTP layer's own details translate too: an unknown evaluation and a
    state whose signature does not match."""
    from service.app import create_app

    client = create_app({"TESTING": True, "STATE_KEYS": "k-2026"}).test_client()
    ru = {"Accept-Language": "ru"}
    r = client.get("/v1/evaluations/0123456789abcdef0123456789abcdef", headers=ru)
    assert r.status_code == 404 and r.headers["Content-Language"] == "ru"
    assert r.json["detail"].startswith("расчёта ") and r.json["detail"].endswith(" нет")
    state = client.post("/v1/games/raiders/new", json={"players": 2, "seed": 1}).json["state"]
    state["turn"] += 1  # altered after signing
    r = client.post("/v1/games/raiders/score", json={"state": state}, headers=ru)
    assert r.status_code == 403
    assert r.json["detail"].startswith("подпись состояния не соответствует")
    r = client.post("/v1/games/raiders/score", json={"state": state})
    assert r.json["detail"].startswith("the state's signature does not match")
