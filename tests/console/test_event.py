"""The console runs an event (issue 27), by clicking only, in headless Chromium
against the real server: the two events of tests/tournaments/test_event_runs.py.

- 12 players of Tremble at tables of 4 over 3 rounds: round 1's first table placed
  by hand (marked unverified), its second recorded in the console by clicking
  (no missions, the service's chance from a fixed seed) and brought back
  verified, every other table a verified game file uploaded, a reload in the
  middle of round 2, a player dropped (round 3 seats 4, 4, 3), pairings and
  standings exported as CSV and JSON, the whole event exported, cleared and
  imported again.
- 9 players of Raiders at tables of 3 over 3 rounds, in Russian: round 1's first
  table recorded in the console (its seats named from the event; a reload in the
  middle of the recording), brought back verified, one table placed by hand, a
  late entry seated from round 2 (3, 3, 4), a game credited to the wrong table
  refused naming the table, and no English word shown but ids and names.

Both end with the standings the hand computation of tests/tournaments/hand.py
gives (points per place from docs/tournaments.md).  The game files are made by the
engines directly (the greedy bot), as a player's exported replay would be.
"""

from __future__ import annotations

import csv
import io
import json
import re
from fractions import Fraction
from typing import Any

from tests.console.conftest import offered, press, shot, wait_for
from tests.console.test_console import next_button, wait_steps
from tests.console.test_recording import card_ids, english_words, visible_text
from tests.tournaments.hand import places_of, standings, table_game
from tests.tournaments.test_event_runs import BY_HAND, RAIDERS, TREMBLE


def changed(page) -> None:
    wait_for(page, '#event[data-busy="false"]', visible=False)


def results(page, count: int) -> None:
    wait_for(page, f'#event[data-busy="false"][data-results="{count}"]', visible=False)


def open_event(page, game: str, size: int, players: list[str]) -> None:
    page.click('#tabs button[data-tab="event"]')
    page.select_option("#ev-game", game)
    changed(page)
    page.fill("#ev-size", str(size))
    page.dispatch_event("#ev-size", "change")
    changed(page)
    add_players(page, players)


def add_players(page, names: list[str]) -> None:
    for name in names:
        page.fill("#ev-name", name)
        page.click("#ev-add")
        wait_for(page, f'#ev-players li[data-player="{name}"]', visible=False)
        changed(page)


def make_round(page, number: int) -> list[list[str]]:
    """Round ``number``'s tables made by the service: each table's players."""
    page.click("#ev-make")
    wait_for(page, f'#event[data-rounds="{number}"]', visible=False)
    changed(page)
    seats = page.locator(f'.ev-round[data-round="{number}"] .ev-table .ev-seats')
    return [seats.nth(i).inner_text().split(", ") for i in range(seats.count())]


def table(page, number: int, index: int) -> str:
    return f'.ev-round[data-round="{number}"] .ev-table[data-table="{index + 1}"]'


def upload(page, tmp_path, number: int, index: int, game: dict[Any, Any], done: int) -> None:
    path = tmp_path / f"round-{number}-table-{index + 1}.json"
    path.write_text(json.dumps(game))
    page.set_input_files(f"{table(page, number, index)} .ev-upload", str(path))
    results(page, done)


def by_hand(page, number: int, index: int, places: list[int], done: int) -> None:
    box = table(page, number, index)
    page.click(f"{box} .ev-hand")
    for n, place in enumerate(places):
        page.fill(f'{box} .ev-places input[data-seat="{n}"]', str(place))
    page.click(f"{box} .ev-places-save")
    results(page, done)
    assert page.get_attribute(f"{box} .result", "data-verified") == "false"


def play_round(page, tmp_path, game: str, number: int, tables: list[list[str]], done: int,
               played: list[Any], seed: int, hand: int | None = None) -> int:
    """Every table of the round without a result: uploaded (``hand``: placed by hand)."""
    rnd = []
    for i, seats in enumerate(tables):
        if page.locator(f"{table(page, number, i)} .result").count():
            continue
        if i == hand:
            places = list(BY_HAND[:len(seats)])
            done += 1
            by_hand(page, number, i, places, done)
        else:
            seed += 1
            replay, places = table_game(game, seats, seed)
            done += 1
            upload(page, tmp_path, number, i, replay, done)
        rnd.append((seats, places))
    played.append(rnd)
    return done


def number_text(value: Fraction) -> str:
    return str(int(value)) if value.denominator == 1 else str(round(float(value), 4))


def shown_standings(page) -> list[tuple[str, ...]]:
    return [tuple(row) for row in page.eval_on_selector_all(
        "#ev-standings tr[data-player]", """rows => rows.map(r => [r.dataset.player,
            ...['rank', 'points', 'possible', 'opponents_share'].map(f => r.querySelector(`td[data-field=${f}]`).textContent)])""")]


def expected_standings(players: list[str], played: list[Any]) -> list[tuple[str, ...]]:
    return [(line["player"], str(line["rank"]), number_text(line["points"]), number_text(line["possible"]),
             f"{round(float(line['opponents_share']), 4) * 100:.2f}%") for line in standings(players, played)]


def downloaded(page, button: str) -> str:
    with page.expect_download() as download:
        page.click(button)
    return open(download.value.path(), encoding="utf-8").read()


def record_tremble(page, number: int, index: int, seats: list[str]) -> list[int]:
    """Round ``number``'s table ``index`` recorded in the record tab, clicked to its end
    (no missions, the chance dealt by the service from a fixed seed; every seat declines
    to buy and plans the first order offered: 120 clicks) and brought to its table: its
    places, from the finished game's winners and totals."""
    page.click(f"{table(page, number, index)} .ev-record")
    wait_for(page, "#record:not([hidden])")
    assert page.input_value("#rec-game") == "tremble"
    assert [page.input_value(f"#seat-name-{n}") for n in range(4)] == seats
    assert page.locator("#seat-name-4").count() == 0
    assert page.inner_text("#rec-for") == f"For the event: round {number}, table {index + 1} ({', '.join(seats)})."
    page.select_option("#opt-chance", "server")
    page.uncheck("#opt-missions")
    page.fill("#rec-seed", "0")
    page.click("#rec-start")
    wait_for(page, '#rec-actions[data-steps="0"] button')
    assert page.is_hidden("#rec-to-event")  # not before the game ends
    while not (area := offered(page)).finished:
        step = area.steps
        assert step < 200, "the recorded game does not end"
        if area.picker:  # a plan: the first order offered
            press(page, "#rec-actions .picker input[type=checkbox]")
            press(page, "#rec-actions .picker button.pick-apply")
        elif "decline_buy" in area.types:
            press(page, '#rec-actions button[data-type="decline_buy"]')
        else:
            press(page, *next_button(page, area))
        wait_steps(page, step + 1)
    places = recorded_places(page, seats)
    assert len(set(places)) > 1, places  # a game with a winner, not a draw
    page.click("#rec-to-event")
    wait_for(page, "#event:not([hidden])")
    return places


def shown_places(page, number: int, index: int) -> dict[str, int]:
    """The place of each player a table's result shows ("Ann 1. (3 pts), …")."""
    text = page.inner_text(f"{table(page, number, index)} .result")
    return {name: int(place) for name, place in re.findall(r"(\w+) (\d+)\. \(", text)}


def test_a_tremble_event_of_12_players_at_tables_of_4(page, tmp_path):
    open_event(page, "tremble", 4, TREMBLE)
    assert page.inner_text("#ev-count") == "12 players"
    assert page.locator('#ev-points tr[data-size="4"] td').last.inner_text() == "3 · 2 · 1 · 0"
    played: list[Any] = []

    tables = make_round(page, 1)
    assert sorted(p for t in tables for p in t) == sorted(TREMBLE) and [len(t) for t in tables] == [4, 4, 4]
    assert page.locator(f'{table(page, 1, 0)} .why').inner_text().startswith("the next 4 in the standings")
    assert page.is_hidden("#ev-make")  # no next round while a table has no result
    # table 2's game recorded here, by clicking, then brought back verified
    places = record_tremble(page, 1, 1, tables[1])
    results(page, 1)
    assert page.get_attribute(f"{table(page, 1, 1)} .result", "data-verified") == "true"
    assert shown_places(page, 1, 1) == dict(zip(tables[1], places, strict=True))
    rnd: list[Any] = []
    done = play_round(page, tmp_path, "tremble", 1, tables, 1, rnd, 0, hand=0)
    played.append([(tables[1], places), *rnd[0]])
    assert "unverified" in page.inner_text(f"{table(page, 1, 0)} .result")
    assert page.get_attribute(f"{table(page, 1, 2)} .result", "data-verified") == "true"

    # round 2: one table uploaded, then a reload in the middle of the round loses nothing
    tables = make_round(page, 2)
    replay, places = table_game("tremble", tables[0], 101)
    upload(page, tmp_path, 2, 0, replay, done + 1)
    before = shown_standings(page)
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    assert page.is_visible("#event") and page.get_attribute("#event", "data-results") == str(done + 1)
    assert shown_standings(page) == before
    assert page.locator(f"{table(page, 2, 0)} .result").count() == 1
    assert page.locator(f"{table(page, 2, 1)} .ev-upload").count() == 1
    assert "Round 2 is being played: 2 tables without a result." == page.inner_text("#ev-status")
    # Kim dropped by mistake and back; Lev leaves after round 2
    page.click('#ev-players li[data-player="Kim"] .ev-drop')
    wait_for(page, '#ev-players li.dropped[data-player="Kim"]', visible=False)
    changed(page)
    page.click('#ev-players li[data-player="Kim"] .ev-undrop')
    wait_for(page, '#ev-players li:not(.dropped)[data-player="Kim"]', visible=False)
    changed(page)
    page.click('#ev-players li[data-player="Lev"] .ev-drop')
    wait_for(page, '#ev-players li.dropped[data-player="Lev"]', visible=False)
    changed(page)
    rest: list[Any] = []
    done = play_round(page, tmp_path, "tremble", 2, tables, done + 1, rest, 10)
    played.append([(tables[0], places), *rest[0]])

    tables = make_round(page, 3)
    assert sorted(len(t) for t in tables) == [3, 4, 4] and "Lev" not in {p for t in tables for p in t}
    page.screenshot(path=str(tmp_path / "event-round-3.png"), full_page=True)
    done = play_round(page, tmp_path, "tremble", 3, tables, done, played, 20)
    assert done == 9

    expected = expected_standings(TREMBLE, played)
    assert shown_standings(page) == expected
    assert page.locator("#ev-standings tr.dropped").get_attribute("data-player") == "Lev"
    assert page.get_attribute('#ev-standings th[data-field="opponents_share"]', "title").startswith("Tie-breaker 1")
    assert page.locator("#ev-legend dt").count() == 8
    shot(page, tmp_path, "console-event.png")

    # exports: pairings of round 3 and the standings, CSV and JSON
    rows = list(csv.reader(io.StringIO(downloaded(page, "#ev-pairings-csv"))))
    assert rows[0] == ["round", "table", "player"]
    assert rows[1:] == [["3", str(i + 1), p] for i, t in enumerate(tables) for p in t]
    pairings = json.loads(downloaded(page, "#ev-pairings-json"))
    assert pairings == {"round": 3, "tables": [{"table": i + 1, "players": t} for i, t in enumerate(tables)],
                        "byes": []}
    rows = list(csv.reader(io.StringIO(downloaded(page, "#ev-standings-csv"))))
    assert rows[0][:4] == ["rank", "player", "points", "possible"]
    assert [(r[1], r[0], r[2], r[3]) for r in rows[1:]] == [e[:4] for e in expected]
    assert [r[-1] for r in rows[1:]] == ["true" if e[0] == "Lev" else "false" for e in expected]
    standings_json = json.loads(downloaded(page, "#ev-standings-json"))
    assert [line["player"] for line in standings_json["standings"]] == [e[0] for e in expected]
    assert standings_json["settings"]["points"]["4"] == [3, 2, 1, 0]

    # print: only the event, without its buttons
    page.emulate_media(media="print")
    assert page.is_hidden("header") and page.is_hidden("#ev-make") and page.is_hidden("#ev-pairings-csv")
    assert page.is_visible("#ev-standings") and page.is_visible(".ev-round")
    page.emulate_media(media="screen")

    # the whole event exported, a new event, and the export imported again
    exported = json.loads(downloaded(page, "#ev-export"))
    assert exported["settings"] == {"game": "tremble", "table_size": 4}
    assert [len(r["tables"]) for r in exported["rounds"]] == [3, 3, 3] and exported["rounds"][1]["drops"] == ["Lev"]
    assert exported["rounds"][0]["tables"][0]["placements"]
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#ev-new")
    wait_for(page, '#event[data-rounds="0"]', visible=False)
    assert page.locator("#ev-players li").count() == 0 and page.locator("#ev-standings tr").count() == 0
    path = tmp_path / "event.json"
    path.write_text(json.dumps(exported))
    page.set_input_files("#ev-import", str(path))
    results(page, 9)
    assert shown_standings(page) == expected


def recorded_places(page, names: list[str]) -> list[int]:
    """The recorded game's places worked out from the board: its winners, then the totals."""
    winners = page.inner_text("#rec-status").split(": ", 1)[1].split(", ")
    totals = dict(page.eval_on_selector_all("#rec-score tr[data-player]", """rows => rows.map(r =>
        [r.cells[0].textContent, Number(r.querySelector('td.total').textContent)])"""))
    score = {"winners": [names.index(w) for w in winners],
             "scores": [{"player": n, "total": totals[name]} for n, name in enumerate(names)]}
    return places_of(score)


def test_a_raiders_event_of_9_players_at_tables_of_3_in_russian(page, server, tmp_path):
    # ids: the cards, the players' names, and the field a refusal names (`players[].name`)
    allowed = card_ids(server) | {*RAIDERS, "Jude", "name"}
    found: dict[str, list[str]] = {}
    page.click("#lang-ru")
    page.wait_for_selector("body[data-ready=true]")
    open_event(page, "raiders", 3, RAIDERS)
    played: list[Any] = []
    tables = make_round(page, 1)
    assert [len(t) for t in tables] == [3, 3, 3]
    # a late entry: seated from round 2
    add_players(page, ["Jude"])
    assert page.inner_text('#ev-players li[data-player="Jude"] small') == "(с тура 2)"
    found["round 1"] = english_words(visible_text(page), allowed)

    # table 1's game recorded here: the record tab names its seats from the event
    page.click(f"{table(page, 1, 0)} .ev-record")
    wait_for(page, "#record:not([hidden])")
    assert [page.input_value(f"#seat-name-{n}") for n in range(3)] == tables[0]
    assert page.inner_text("#rec-for") == f"Для турнира: тур 1, стол 1 ({', '.join(tables[0])})."
    page.select_option("#opt-chance", "server")
    page.fill("#opt-turn_limit", "2")  # no seed given: the console picks one, or no replay would match
    page.click("#rec-start")
    wait_for(page, '#rec-actions[data-steps="0"] button')
    for n in range(2):
        press(page, *next_button(page))
        wait_steps(page, n + 1)
    logged = page.locator("#rec-log li").all_inner_texts()
    page.reload()  # in the middle of the recording: the game comes back, step by step
    page.wait_for_selector('body[data-ready=true]')
    wait_steps(page, 2)
    assert page.is_visible("#record") and page.locator("#rec-log li").all_inner_texts() == logged
    assert page.is_visible("#rec-for")
    found["recording"] = english_words(visible_text(page), allowed)
    while not (area := offered(page)).finished:
        step = area.steps
        assert step < 300, "the recorded game does not end"
        press(page, *next_button(page, area))
        wait_steps(page, step + 1)
    places = recorded_places(page, tables[0])
    found["recorded"] = english_words(visible_text(page), allowed)
    page.click("#rec-to-event")
    results(page, 1)
    assert page.is_visible("#event")
    assert page.get_attribute(f"{table(page, 1, 0)} .result", "data-verified") == "true"
    rnd = [(tables[0], places)]
    replay, got = table_game("raiders", tables[1], 1)
    upload(page, tmp_path, 1, 1, replay, 2)
    rnd.append((tables[1], got))
    by_hand(page, 1, 2, list(BY_HAND[:3]), 3)
    rnd.append((tables[2], list(BY_HAND[:3])))
    played.append(rnd)

    tables = make_round(page, 2)
    assert sorted(len(t) for t in tables) == [3, 3, 4] and "Jude" in {p for t in tables for p in t}
    done = play_round(page, tmp_path, "raiders", 2, tables, 3, played, 10)
    tables = make_round(page, 3)
    # a game credited to the players of another table is refused, naming the table
    wrong, _ = table_game("raiders", tables[1], 50)
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(wrong))
    page.set_input_files(f"{table(page, 3, 0)} .ev-upload", str(path))
    wait_for(page, "#message:not(:empty)")
    changed(page)
    refused = page.inner_text("#message")
    assert refused.startswith("Невозможный турнир — Тур 3, стол 1 (games.0.setup.players): ")
    assert all(f"'{p}'" in refused for p in tables[0])
    assert page.get_attribute("#event", "data-results") == str(done)
    found["round 3 refused"] = english_words(visible_text(page), allowed)
    done = play_round(page, tmp_path, "raiders", 3, tables, done, played, 20)
    assert done == 9
    assert shown_standings(page) == expected_standings([*RAIDERS, "Jude"], played)
    assert re.search("[а-я]", page.get_attribute('#ev-standings th[data-field="opponents_share"]', "title"))
    found["standings"] = english_words(visible_text(page), allowed)
    shot(page, tmp_path, "console-event-ru.png")
    left = {k: v for k, v in found.items() if v}
    assert left == {}, json.dumps(left, ensure_ascii=False)
