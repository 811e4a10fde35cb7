"""The scorekeeper's console (issue 16) in headless Chromium against the real server.

Records a full two-player Raiders game at the table (hands entered at once,
then the pending decision's buttons clicked until the game ends, with an undo
and a playouts chart on the way), verifies a reported Tremble game with an
illegal step (index, clause, the clause's text) and exports a verified, signed
result, shows the standings of 8 players over 3 rounds imported as an event of
duels, and takes exported result files and a signed final state at a duel's table.  Screenshots go
to each test's ``tmp_path``.
"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.console.conftest import TIMEOUT_MS, Offered, offered, press, shot, wait_for
from tests.tournaments.played import played_game, winners

#: the steering of the recorded game: the first button of the first type found
#: (a capture whenever one is offered, then the cheapest way on; chance: the first)
PREFERENCE = ("capture", "pass", "end_turn", "draw")
MAX_STEPS = 600


def api(server: str, path: str, body: dict[Any, Any]) -> tuple[int, dict[Any, Any]]:
    request = urllib.request.Request(server + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def steps_done(page) -> int:
    return int(page.get_attribute("#rec-actions", "data-steps"))


def wait_steps(page, steps: int) -> None:
    """Until the recording has ``steps`` steps (what a click on an action makes)."""
    wait_for(page, f'#rec-actions[data-steps="{steps}"]', visible=False)


def click_and_wait(page, button: tuple[str, int], expected_steps: int) -> None:
    """``press`` the button (a selector and which of its matches), then wait for the step."""
    press(page, *button)
    wait_steps(page, expected_steps)


def enter_hand(page, use_names: bool) -> None:
    """Six dealt cards typed at once: the first six chance buttons' cards (or their names)."""
    buttons = page.locator('#rec-actions button.chance')
    cards = [json.loads(buttons.nth(i).get_attribute("data-action"))["card"] for i in range(6)]
    if use_names:
        names = [buttons.nth(i).inner_text().split(": ", 1)[1].split(" (")[0] for i in range(6)]
        page.fill("#rec-hand-input", ", ".join(names))
    else:
        page.fill("#rec-hand-input", ", ".join(cards))
    before = steps_done(page)
    click_and_wait(page, ("#rec-hand-apply", 0), before + 6)
    logged = page.locator("#rec-log li")
    assert logged.count() == before + 6
    assert all(card in logged.nth(before + i).inner_text() for i, card in enumerate(cards))


def next_button(page, area: Offered | None = None,
                preference: tuple[str, ...] = PREFERENCE) -> tuple[str, int]:
    """The button the steering clicks next, as ``press`` takes it: the first chance
    button, else the first of the first type in ``preference``, else the first."""
    area = area or offered(page)
    if area.chance:
        return "#rec-actions button.chance", 0
    for kind in preference:
        if kind in area.types:
            return f'#rec-actions button[data-type="{kind}"]', 0
    return "#rec-actions button", 0


def start_game(page, game: str, names: list[str], **options) -> None:
    """A new game of ``game`` recorded at the table, its seats named ``names``."""
    page.select_option("#rec-game", game)
    wait_for(page, f'#rec-options[data-game="{game}"]', visible=False)  # its options loaded
    page.fill("#rec-players", str(len(names)))
    page.dispatch_event("#rec-players", "input")
    for n, name in enumerate(names):
        page.fill(f"#seat-name-{n}", name)
    assert page.input_value("#opt-chance") == "table"
    for option, value in options.items():
        page.select_option(f"#opt-{option}", value) if isinstance(value, str) else (
            page.check(f"#opt-{option}") if value else page.uncheck(f"#opt-{option}"))
    page.click("#rec-start")
    wait_for(page, '#rec-actions[data-steps="0"] button')


def test_record_a_full_raiders_game_at_the_table(page, tmp_path):
    start_game(page, "raiders", ["Ann", "Bob"])
    assert page.inner_text("#rec-pending") == "Chance → Ann: deal a fighter"
    enter_hand(page, use_names=False)  # seat 0's hand by card id
    enter_hand(page, use_names=True)   # seat 1's hand by card name

    # one step and its undo
    step = steps_done(page)
    click_and_wait(page, next_button(page), step + 1)
    click_and_wait(page, ("#rec-undo", 0), step)
    assert page.locator("#rec-log li").count() == step

    charted = False
    while not (area := offered(page)).finished:
        step = area.steps
        assert step < MAX_STEPS, "the recorded game does not end"
        click_and_wait(page, next_button(page, area), step + 1)
        if step == 40 and not charted:  # mid-game: playouts from here, as a chart
            page.click("#rec-odds")
            wait_for(page, "#rec-chart svg.win-rates", timeout=TIMEOUT_MS * 4)
            assert page.locator("#rec-chart svg.histogram").count() == 2
            page.locator("#rec-view-seat").select_option("0")
            page.click("#rec-view")
            wait_for(page, "#rec-view-out .view")
            hand = page.locator('#rec-view-out dd[data-zone="hand"]').first
            assert hand.locator(".card").count() >= 1
            shot(page, tmp_path, "console.png")
            charted = True
    assert charted
    assert page.inner_text("#rec-status") in ("Finished. Winners: Ann", "Finished. Winners: Bob",
                                              "Finished. Winners: Ann, Bob")
    assert page.locator("#rec-score tr").count() == 3  # header + two seats
    assert page.locator("#rec-actions button").count() == 0
    page.screenshot(path=str(tmp_path / "record-finished.png"), full_page=True)

    # the recorded game goes to verification as a replay: legal, finished
    page.click("#rec-to-verify")
    page.click("#ver-run")
    wait_for(page, '#ver-verdict[data-done="ok"]')
    assert "Finished" in page.inner_text("#ver-verdict")
    assert page.locator("#ver-steps li").count() == steps_done(page) + 1


def tremble_report(server: str, steps: int = 14) -> dict[Any, Any]:
    """A Tremble game reported with an illegal last step: ``steps`` legal actions (the
    first listed, server chance) and then a repeat of the first, refused with a clause."""
    setup = {"players": 2, "seed": 5, "options": {"missions": False}}
    status, answer = api(server, "/v1/games/tremble/new", setup)
    assert status == 200
    state, actions = answer["state"], []
    for _ in range(steps):
        _, listed = api(server, "/v1/games/tremble/legal-actions", {"state": state})
        action = listed["actions"][0]
        actions.append(action)
        status, answer = api(server, "/v1/games/tremble/apply", {"state": state, "action": action})
        assert status == 200, answer
        state = answer["state"]
    return {"game": "tremble", "setup": setup, "actions": [*actions, actions[0]]}


def test_verify_a_reported_tremble_game_with_an_illegal_step(page, server, tmp_path):
    report = tremble_report(server)
    status, problem = api(server, "/v1/games/tremble/replay",
                          {"setup": report["setup"], "actions": report["actions"]})
    assert status == 422 and problem["index"] == len(report["actions"]) - 1
    page.click('#tabs button[data-tab="verify"]')
    page.fill("#ver-input", json.dumps(report))
    page.click("#ver-run")
    wait_for(page, '#ver-verdict[data-done="illegal"]')
    assert page.inner_text("#ver-verdict") == f"Illegal at step {problem['index']}"
    assert page.inner_text("#ver-index") == f"#{problem['index']}"
    assert page.inner_text("#ver-rule") == problem["rule"]
    assert page.inner_text("#ver-detail") == problem["detail"]
    with urllib.request.urlopen(server + problem["rule_url"], timeout=30) as answer:
        clause_text = json.load(answer)["text"]
    # the clause's markdown rendered: its quote a quote, no markup left in the text
    shown = page.text_content("#ver-rule-text")
    assert page.locator("#ver-rule-text blockquote").count() >= 1 and "> «" in clause_text
    assert "`" not in shown and "\n>" not in shown and "*" not in shown
    assert [w for w in clause_text.replace("`", " ").replace("*", " ").replace(">", " ").split()
            if w not in shown] == []
    steps = page.locator("#ver-steps li")
    assert steps.count() == len(report["actions"]) + 1  # the setup, the legal steps, the bad one
    assert steps.last.get_attribute("class") == "bad"
    assert page.is_disabled("#ver-export")
    page.screenshot(path=str(tmp_path / "verify-illegal.png"), full_page=True)

    # in Russian: the console's texts and the service's problem, said again at once
    page.click("#lang-ru")
    page.wait_for_selector("body[data-ready=true]")
    assert page.inner_text("#ver-verdict") == f"Нарушение на шаге {problem['index']}"
    assert page.inner_text("#ver-detail") != problem["detail"]
    assert page.locator("#ver-steps li").count() == len(report["actions"]) + 1
    page.click("#ver-run")
    wait_for(page, '#ver-verdict[data-done="illegal"]')
    assert page.inner_text("#ver-verdict") == f"Нарушение на шаге {problem['index']}"
    assert page.inner_text("#ver-detail") != problem["detail"]
    page.click("#lang-en")

    # the legal part verifies, and its result is exported signed (the server has keys)
    legal = {**report, "actions": report["actions"][:-1]}
    page.fill("#ver-input", json.dumps(legal))
    page.click("#ver-run")
    wait_for(page, '#ver-verdict[data-done="ok"]')
    with page.expect_download() as download:
        page.click("#ver-export")
    exported = json.loads(open(download.value.path()).read())
    assert exported["state"]["signature"].startswith("hmac-sha256:")
    assert exported["actions"] == legal["actions"] and exported["signed"] is True
    assert page.get_attribute("#ver-export-out", "data-signed") == "true"


def tournament(server: str) -> dict[Any, Any]:
    """8 players, 3 rounds of real games; Swiss pairings from the service after round 1;
    Hal drops after round 2, so round 3 has a bye."""
    players = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    body: dict[Any, Any] = {"players": players, "rounds": []}
    pairs, bye, seed = [tuple(players[i:i + 2]) for i in range(0, 8, 2)], None, 0
    for number in range(3):
        matches = []
        for pair in pairs:
            seed += 1
            matches.append({"players": list(pair), "games": [played_game(seed, tuple(pair))]})
        body["rounds"].append({"matches": matches, "byes": [bye] if bye else [],
                               "drops": ["Hal"] if number == 1 else []})
        status, answer = api(server, "/v1/tournaments/standings", body)
        assert status == 200, answer
        pairs, bye = answer["next_round"]["pairings"], answer["next_round"]["bye"]
    return body


def test_standings_for_8_players_over_3_rounds(page, server, tmp_path):
    """The duel tournament of /standings, imported into the event tab as an event of
    tables of 2: the same order, Hal dropped, and round 4 gives /standings' bye."""
    body = tournament(server)
    status, expected = api(server, "/v1/tournaments/standings", body)
    assert status == 200 and expected["games_verified"] == 11
    assert body["rounds"][2]["byes"]  # Hal dropped: seven players, one bye
    event = {"players": body["players"], "settings": {"game": "raiders", "table_size": 2},
             "rounds": [{"tables": r["matches"], "byes": r["byes"], "drops": r["drops"]} for r in body["rounds"]]}
    path = tmp_path / "event.json"
    path.write_text(json.dumps(event))
    page.click('#tabs button[data-tab="event"]')
    page.set_input_files("#ev-import", str(path))
    wait_for(page, '#event[data-busy="false"][data-results="11"]', visible=False)
    rows = page.locator("#ev-standings tr[data-player]")
    assert rows.count() == 8
    shown = [rows.nth(i).get_attribute("data-player") for i in range(8)]
    assert shown == [line["player"] for line in expected["standings"]]
    assert page.locator("#ev-standings tr.dropped").get_attribute("data-player") == "Hal"
    why = "no mix of the table sizes (2) seats all 7 players: the lowest-ranked player"
    assert page.locator('.ev-round[data-round="3"] .bye').inner_text() == (
        f"{body['rounds'][2]['byes'][0]}: bye — {why} without a bye yet")
    page.click("#ev-make")
    wait_for(page, '#event[data-rounds="4"]', visible=False)
    assert page.locator('.ev-round[data-round="4"] .bye').inner_text() == (
        f"{expected['next_round']['bye']}: bye — {why} without a bye yet")
    assert page.locator('.ev-round[data-round="4"] .ev-table').count() == 3
    page.screenshot(path=str(tmp_path / "standings.png"), full_page=True)
    # in Russian: the byes' reasons too, no English word but the players' names
    from tests.console.test_recording import english_words, visible_text

    page.click("#lang-ru")
    page.wait_for_selector("body[data-ready=true]")
    assert page.locator('.ev-round[data-round="4"] .bye').inner_text().startswith(
        f"{expected['next_round']['bye']}: без стола — никакой набор столов (мест за столом: 2)")
    assert english_words(visible_text(page), set(body["players"])) == []


def test_a_match_is_added_from_exported_result_files(page, server, tmp_path):
    """A duel's table takes the verify tab's exported result (its outcome and the other
    fields aside), and the next round's a signed final state alone.  A name a spreadsheet
    would run as a formula is exported as text."""
    page.click('#tabs button[data-tab="event"]')
    page.fill("#ev-size", "2")
    page.dispatch_event("#ev-size", "change")
    for name in ("Ann", "=Bob"):
        page.fill("#ev-name", name)
        page.click("#ev-add")
        wait_for(page, f'#ev-players li[data-player="{name}"]', visible=False)
    wait_for(page, '#event[data-busy="false"]', visible=False)
    for number, seed in ((1, 1), (2, 2)):
        page.click("#ev-make")
        wait_for(page, f'#event[data-busy="false"][data-rounds="{number}"]', visible=False)
        seats = page.inner_text(f'.ev-round[data-round="{number}"] .ev-seats').split(", ")
        game = played_game(seed, tuple(seats))
        if number == 1:
            game = {**game, "outcome": {}, "signed": False, "verified_by": server}
        else:
            status, replayed = api(server, "/v1/games/raiders/replay", {"setup": game["setup"], "actions": game["actions"]})
            assert status == 200 and replayed["state"]["signature"].startswith("hmac-sha256:")
            game = {"game": "raiders", "state": replayed["state"]}
            # an altered signature is refused (403), said for the table the file was for
            signature = game["state"]["signature"]
            altered = {**game, "state": {**game["state"], "signature": signature[:-4] + "0000"}}
            path = tmp_path / "altered.json"
            path.write_text(json.dumps(altered))
            page.set_input_files(f'.ev-round[data-round="{number}"] .ev-upload', str(path))
            wait_for(page, "#message:not(:empty)")
            wait_for(page, '#event[data-busy="false"][data-results="1"]', visible=False)
            assert page.inner_text("#message").startswith("Round 2, table 1: ")
        path = tmp_path / f"game-{seed}.json"
        path.write_text(json.dumps(game))
        page.set_input_files(f'.ev-round[data-round="{number}"] .ev-upload', str(path))
        wait_for(page, f'#event[data-busy="false"][data-results="{number}"]', visible=False)
        assert page.get_attribute(f'.ev-round[data-round="{number}"] .result', "data-verified") == "true"
    assert page.locator("#ev-standings tr[data-player]").count() == 2
    points = page.eval_on_selector_all("#ev-standings td[data-field=points]", "cells => cells.map(c => Number(c.textContent))")
    wins = [sum(1 for seed in (1, 2) if winners(seed) == (0,)), sum(1 for seed in (1, 2) if winners(seed) == (1,))]
    assert sum(points) == sum(3 * w for w in wins) + sum(2 for seed in (1, 2) if len(winners(seed)) == 2)
    with page.expect_download() as download:
        page.click("#ev-standings-csv")
    exported = open(download.value.path(), encoding="utf-8").read()
    assert ",'=Bob," in exported and ",=Bob," not in exported


def test_the_tests_wait_sees_a_later_change_and_fails_without_one(page):
    """``wait_for`` (conftest): it returns once a later change makes its selector match,
    a hidden element is not shown, and a selector that never matches fails at its
    timeout, naming the selector."""
    page.evaluate("setTimeout(() => { const p = document.createElement('p'); p.id = 'late';"
                  " p.textContent = 'late'; document.body.append(p); }, 100)")
    wait_for(page, "#late")
    assert page.inner_text("#late") == "late"
    page.evaluate("() => { const p = document.createElement('p'); p.id = 'unseen';"
                  " p.hidden = true; document.body.append(p); }")
    wait_for(page, "#unseen", visible=False)
    with pytest.raises(PlaywrightError, match="#unseen did not appear within 300 ms"):
        wait_for(page, "#unseen", timeout=300)
    with pytest.raises(PlaywrightError, match="#never did not appear"):
        wait_for(page, "#never", visible=False, timeout=300)


def test_the_tests_press_clicks_only_what_a_player_could(page):
    """``press`` (conftest), which clicks a recorded game's steps: it clicks a shown,
    enabled, uncovered button and ticks a checkbox once; a hidden, a disabled or a
    covered button, or one that is not there, is refused by name, and not clicked."""
    page.evaluate("""() => {
      const clicks = window.clicks = [];
      const add = (html) => { const box = document.createElement('div');
        box.innerHTML = html; document.body.prepend(box); return box; };
      add('<button id="t-ok">ok</button><button id="t-hidden" hidden>h</button>'
          + '<button id="t-off" disabled>d</button><input id="t-box" type="checkbox">'
          + '<button id="t-under">u</button><div id="t-cover" hidden></div>');
      // styled from script: the console's CSP refuses style attributes
      Object.assign(document.querySelector('#t-cover').style,
                    {position: 'fixed', inset: '0', zIndex: '9'});
      for (const b of document.querySelectorAll('[id^=t-]'))
        b.addEventListener('click', () => clicks.push(b.id));
    }""")
    press(page, "#t-ok")
    press(page, "#t-box")
    press(page, "#t-box")  # ticked already: stays ticked
    assert page.is_checked("#t-box")
    for selector, why in (("#t-hidden", "is not shown"), ("#t-off", "is disabled"),
                          ("#t-none", "no #t-none number 0")):
        with pytest.raises(PlaywrightError, match=why):
            press(page, selector)
    page.evaluate("document.querySelector('#t-cover').hidden = false")
    with pytest.raises(PlaywrightError, match="#t-under number 0 is covered by <div"):
        press(page, "#t-under")
    assert page.evaluate("window.clicks") == ["t-ok", "t-box"]
