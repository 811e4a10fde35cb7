"""Recording reads like the table (issue 27), in headless Chromium against the real
server: every chance button names the seat it serves by its name, the steps log
names who acted, no label shows ``null``, braces or JSON, a player's view shows
zones and named cards, a new game empties every panel, Kozyablo seats take a
race's reference deck or their own deck, the rules' markdown is rendered as
text (never as HTML), and the Russian console has no English word but ids.
Screenshots go to each test's ``tmp_path`` (``REFEREE_CONSOLE_SHOTS=docs`` writes
the ones docs/console.md shows).
"""

from __future__ import annotations

import json
import re
import urllib.request

from playwright.sync_api import Page

from tests.console.conftest import offered, press, shot, wait_for
from tests.console.test_console import next_button, start_game, steps_done, wait_steps

#: a label is words: none of these may show
RAW = re.compile(r"\bnull\b|\bundefined\b|\[object|[{}\[\]\"]")


def check_turn(page, names: list[str]) -> None:
    """The buttons of the pending decision: in words, and a chance outcome for a seat
    (the pending entry's ``to``/``for``, or the action's ``seat``) names that seat."""
    pending = json.loads(page.get_attribute("#rec-actions", "data-pending"))
    labels = page.eval_on_selector_all(
        "#rec-actions button, #rec-actions label.pick, #rec-actions h3, #rec-pending",
        "nodes => nodes.map(n => [n.className, n.textContent, n.dataset.seat ?? null, n.dataset.action ?? null])")
    for entry in pending:
        if entry["player"] != "chance":
            continue
        seat = entry.get("to", entry.get("for", entry.get("seat")))
        if seat is None:
            continue
        chance = [lab for lab in labels if lab[0] == "chance"]
        assert chance, labels
        for _, text, shown_seat, _ in chance:
            assert shown_seat == str(seat) and names[seat] in text, (entry, text)
    for _, text, _, _ in labels:
        assert not RAW.search(text), text


def check_log(page, names: list[str]) -> None:
    """Every step of the log starts with who took it: a seat's name or the chance."""
    who = page.eval_on_selector_all("#rec-log li b.who", "nodes => nodes.map(n => n.textContent)")
    assert len(who) == page.locator("#rec-log li").count()
    for text in who:
        assert text in names or text.startswith("Chance"), text
        if text.startswith("Chance → "):
            assert text.removeprefix("Chance → ") in names
    for text in page.eval_on_selector_all("#rec-log li", "nodes => nodes.map(n => n.textContent)"):
        assert not RAW.search(text), text


PREFERENCE = ("draw_ships", "buy", "battle_choice", "raid", "army_choice", "lose_ship",
              "discard_unfueled", "join_reserve", "reserve_done", "plan", "redeploy", "capture",
              "pass", "end_turn", "keep", "play_card", "attack", "strike", "skip", "decline")


def step(page) -> None:
    """One step: a chance outcome, else a picker with its first item, else the first
    button of the first type in PREFERENCE."""
    area = offered(page)
    if area.chance:
        press(page, "#rec-actions button.chance", area.steps % area.chance)
    elif area.picker:
        press(page, "#rec-actions .picker input[type=checkbox]")
        press(page, "#rec-actions .picker button.pick-apply")
    else:
        press(page, *next_button(page, area, PREFERENCE))
    wait_steps(page, area.steps + 1)


def test_a_tremble_game_reads_like_the_table(page, tmp_path):
    names = ["Ann", "Bob"]
    start_game(page, "tremble", names)
    assert page.inner_text("#rec-pending") == "Chance → Ann: deal a mission"
    seen_picker = seen_city = False
    for _ in range(140):
        if page.get_attribute("#rec-actions", "data-finished") == "true":
            break
        check_turn(page, names)
        picker = page.locator('#rec-actions .picker[data-type="keep_missions"]')
        if picker.count():  # 14 combinations of 4 missions: one checkbox per mission
            seen_picker = True
            for i in range(picker.count()):  # each seat keeps its own at the same time
                assert picker.nth(i).locator("input[type=checkbox]").count() == 4
            assert page.locator('#rec-actions button[data-type="keep_missions"]:not(.pick-apply)').count() == 0
        plan = page.locator('#rec-actions [data-type="plan"]')
        if plan.count() and re.search(r"slot \d \(\w", page.inner_text("#rec-actions")):
            seen_city = True  # an attack order names the city in its slot
        step(page)
    check_log(page, names)
    assert seen_picker and seen_city
    log = page.inner_text("#rec-log")
    assert "Ann Keep missions" in log and "Chance → Bob Ship drawn" in log

    # Ann's view: zones with named cards, Bob's hand a count
    page.locator("#rec-view-seat").select_option("0")
    page.click("#rec-view")
    wait_for(page, "#rec-view-out .view")
    view = page.locator("#rec-view-out")
    assert view.locator('h3[data-seat="0"]').inner_text() == "Ann"
    assert view.locator('dd[data-zone="missions"] .card').count() >= 1
    assert re.fullmatch(r"\d+ cards", view.locator('dd[data-zone="missions"]').nth(1).inner_text())
    assert not RAW.search(view.inner_text())
    shot(page, tmp_path, "console-tremble.png")

    # a new game: nothing of the last one stays
    page.fill("#rec-hand-input", "no such card")
    page.click("#rec-hand-apply")
    wait_for(page, "#message:not(:empty)")
    page.click("#rec-odds")
    wait_for(page, "#rec-chart svg.win-rates", timeout=60_000)
    start_game(page, "raiders", ["Cat", "Dan"])
    assert page.inner_text("#message") == ""
    assert page.locator("#rec-log li").count() == 0
    assert page.inner_text("#rec-view-out") == "" and page.inner_text("#rec-chart") == ""
    assert page.locator("#rec-score tr[data-player]").count() == 2
    assert page.inner_text('#rec-score tr[data-player="0"] td') == "Cat"
    assert "Ann" not in page.inner_text("#record")


def test_raiders_chance_buttons_name_the_seat(page):
    names = ["Ann", "Bob", "Cat"]
    start_game(page, "raiders", names)
    for _ in range(60):
        check_turn(page, names)
        step(page)
    check_log(page, names)
    # the seat a deal's button named is the seat the service dealt to
    deals = [line for line in page.inner_text("#rec-log").splitlines() if " Deal → " in line]
    assert deals and deals[0].startswith("Chance → Ann Deal → Ann: ")
    for line in deals:
        seat = re.match(r"Chance → (\w+) Deal → (\w+): .* → dealt · (\w+) · ", line)
        assert seat and seat[1] == seat[2] == seat[3], line
    dealt = [re.match(r"Chance → (\w+)", line) for line in deals]
    assert {m[1] for m in dealt if m} == set(names) and all(dealt), deals


def test_a_kozyablo_game_with_chosen_decks_and_names(page, server, tmp_path):
    with urllib.request.urlopen(server + "/v1/games/kozyablo/cards", timeout=30) as answer:
        pozorki = json.load(answer)["tables"]["reference_decks"]["pozorki"]
    page.select_option("#rec-game", "kozyablo")
    wait_for(page, "#seat-deck-1")
    page.fill("#seat-name-0", "Ann")
    page.click("#rec-start")  # Bob's seat has no name yet
    wait_for(page, "#message:not(:empty)")
    assert page.inner_text("#message").startswith("Name seat 1")
    page.fill("#seat-name-1", "Bob")
    page.select_option("#seat-deck-0", "zhloby")
    page.select_option("#seat-deck-1", "own")
    page.fill("#seat-own-1", "{not json")
    page.click("#rec-start")
    page.wait_for_function("document.getElementById('message').textContent.includes('seat 1')")
    assert page.inner_text("#message") == "The deck of seat 1 is not valid JSON."
    page.fill("#seat-own-1", json.dumps(pozorki))
    page.click("#rec-start")
    wait_for(page, '#rec-actions[data-steps="0"] button.chance')
    assert page.inner_text("#message") == ""
    names = ["Ann", "Bob"]
    check_turn(page, names)
    assert page.inner_text("#rec-pending") == "Chance → Ann: reveal a card"

    # Ann's six cards by name at once, Bob's by the buttons
    buttons = page.locator("#rec-actions button.chance")
    hand = [buttons.nth(i).inner_text().split(": ", 1)[1].split(" (")[0] for i in (0, 1, 2, 3, 4, 5)]
    page.fill("#rec-hand-input", ", ".join(hand))
    page.click("#rec-hand-apply")
    wait_for(page, '#rec-actions[data-steps="6"]', visible=False)
    while page.locator("#rec-actions button.chance").count():
        check_turn(page, names)
        step(page)
    check_log(page, names)

    # a mulligan: one checkbox per card in hand, not 63 buttons
    picker = page.locator('#rec-actions .picker[data-type="mulligan"]')
    assert picker.locator("input[type=checkbox]").count() == 6
    assert page.locator('#rec-actions button[data-type="mulligan"]:not(.pick-apply)').count() == 0
    before = steps_done(page)
    picker.locator("button.pick-apply").click()  # nothing ticked: no such mulligan
    wait_for(page, "#message:not(:empty)")
    assert page.inner_text("#message") == "No listed action keeps exactly these: choose again."
    assert steps_done(page) == before
    picker.locator("input[type=checkbox]").nth(0).check()
    picker.locator("input[type=checkbox]").nth(2).check()
    picker.locator("button.pick-apply").click()
    wait_steps(page, before + 1)
    last = page.locator("#rec-log li").last.inner_text()
    assert last.startswith("Bob Mulligan: cards ") and last.count(",") >= 1, last  # pozorki go first

    page.locator("#rec-view-seat").select_option("1")
    page.click("#rec-view")
    wait_for(page, "#rec-view-out .view")
    races = page.locator('#rec-view-out dd[data-zone="race"]')
    assert races.nth(0).inner_text() == "Zhloby" and races.nth(1).inner_text() == "Pozorki"
    assert page.locator('#rec-view-out h3[data-seat="1"]').inner_text() == "Bob"
    assert page.locator('#rec-view-out dd[data-zone="hand"] .card').count() >= 1
    shot(page, tmp_path, "console-kozyablo.png")

    # what was recorded is what was chosen: names, a race, a deck
    page.click("#rec-to-verify")
    report = json.loads(page.input_value("#ver-input"))
    assert report["setup"]["players"] == [{"name": "Ann", "race": "zhloby"}, {"name": "Bob", "deck": pozorki}]
    page.click("#ver-run")
    wait_for(page, '#ver-verdict[data-done="ok"]')
    first = page.locator("#ver-steps li").nth(1).inner_text()
    assert first.startswith("#0 Chance → Ann Card drawn → Ann: "), first


def test_clause_markdown_is_text_never_html(page):
    made = page.evaluate("""async () => {
        const { markdown } = await import('/console/core.js');
        const box = document.createElement('div');
        box.append(markdown('<img src=x onerror="window.bad=1"> **bold** *it* `code`\\n\\n'
                            + '> quoted <b>x</b>\\n\\n- one\\n- [two](javascript:alert(1))\\n- [three](/v1/games)'));
        return { html: box.innerHTML, imgs: box.querySelectorAll('img').length,
                 links: [...box.querySelectorAll('a')].map(a => a.getAttribute('href')),
                 strong: box.querySelector('p strong').textContent, quote: box.querySelector('blockquote').textContent,
                 items: box.querySelectorAll('ul li').length };
    }""")
    assert made["imgs"] == 0 and "&lt;img" in made["html"] and "&lt;b&gt;" in made["html"]
    assert made["links"] == ["/v1/games"]
    assert made["strong"] == "bold" and made["quote"] == "quoted <b>x</b>" and made["items"] == 3
    assert page.evaluate("window.bad") is None


#: the words of the Russian console that are ids, not English: card and clause ids
#: match ID; these are the API's field names in the JSON examples and in the paths
#: a refusal names (``games.0.setup.players``)
ALLOWED = {"EN", "RU", "JSON", "game", "setup", "actions", "players", "games", "capital", "sectors", "cards"}
ID = re.compile(r"^(?:[A-Z]{1,3}|[A-Z]+-[\w-]+|[\w-]*\d[\w-]*|(?:pz|tr|kz|zh)_\w+)(?:#\d+)?$")


def card_ids(server: str) -> set[str]:
    """Every card id of the three games' card sets."""
    ids = set()
    for game in ("raiders", "tremble", "kozyablo"):
        with urllib.request.urlopen(f"{server}/v1/games/{game}/cards", timeout=30) as answer:
            ids |= {card["id"] for group in json.load(answer)["cards"].values() for card in group}
    return ids


def english_words(text: str, ids: set[str]) -> list[str]:
    words = re.findall(r"[A-Za-z][A-Za-z0-9_-]*(?:#\d+)?", text)
    return sorted({w for w in words if w not in ALLOWED and w.split("#")[0] not in ids and not ID.match(w)})


def visible_text(page: Page) -> str:
    text: str = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(n => n.checkVisibility() && n.childNodes.length)
        .map(n => [...n.childNodes].filter(c => c.nodeType === 3).map(c => c.textContent).join(' ')
                  + ' ' + (n.title || '') + ' ' + (n.placeholder || '')
                  + (n.tagName === 'OPTION' ? '' : '')).join('\\n')
        + [...document.querySelectorAll('option')].map(o => o.textContent).join('\\n')""")
    return text


def test_the_russian_console_has_no_english_but_ids(page, server, tmp_path):
    ids = card_ids(server)
    page.click("#lang-ru")
    page.wait_for_selector("body[data-ready=true]")
    names = ["Аня", "Боря"]
    found: dict[str, list[str]] = {}
    for game, steps in (("raiders", 45), ("tremble", 45), ("kozyablo", 40)):
        page.select_option("#rec-game", game)
        wait_for(page, f'#rec-options[data-game="{game}"]', visible=False)  # its options loaded
        wait_for(page, "#seat-name-1")
        for n, name in enumerate(names):
            page.fill(f"#seat-name-{n}", name)
        page.click("#rec-start")
        wait_for(page, '#rec-actions[data-steps="0"] button')
        for _ in range(steps):
            if page.get_attribute("#rec-actions", "data-finished") == "true":
                break
            step(page)
            found[f"{game} steps"] = sorted({*found.get(f"{game} steps", []),
                                             *english_words(visible_text(page), ids)})
        for seat in ("0", "null"):
            page.locator("#rec-view-seat").select_option(seat)
            page.click("#rec-view")
            wait_for(page, "#rec-view-out .view")
            found[f"{game} view {seat}"] = english_words(visible_text(page), ids)
        page.click("#rec-odds")
        wait_for(page, "#rec-chart svg.win-rates", timeout=60_000)
        found[f"{game} chart"] = english_words(visible_text(page), ids)
        if game == "kozyablo":
            page.select_option("#seat-deck-0", "own")
            found["kozyablo setup"] = english_words(visible_text(page), ids)
            shot(page, tmp_path, "console-ru.png")
        page.click("#rec-to-verify")
        page.click("#ver-run")
        wait_for(page, '#ver-verdict[data-done="ok"]')
        found[f"{game} verified"] = english_words(visible_text(page), ids)
        page.fill("#ver-input", "{not json")
        page.click("#ver-run")
        wait_for(page, "#message:not(:empty)")
        found[f"{game} bad json"] = english_words(visible_text(page), ids)
        page.click('#tabs button[data-tab="record"]')
    page.click('#tabs button[data-tab="event"]')
    found["event"] = english_words(visible_text(page), ids)
    left = {k: v for k, v in found.items() if v}
    assert left == {}, json.dumps(left, ensure_ascii=False)


def test_no_answer_from_the_service_is_said_in_russian(page):
    """A request that gets no answer at all (the network gone) is a message in the
    scorekeeper's language, not a script error; nothing is recorded."""
    page.click("#lang-ru")
    page.wait_for_selector("body[data-ready=true]")
    start_game(page, "raiders", ["Аня", "Боря"])
    page.route("**/v1/games/raiders/apply", lambda route: route.abort())
    page.locator("#rec-actions button.chance").first.click()
    wait_for(page, "#message:not(:empty)")
    assert page.inner_text("#message") == "Сервис не отвечает: запущен ли он, есть ли сеть?"
    assert steps_done(page) == 0 and page.locator("#rec-log li").count() == 0


def test_a_game_started_while_its_options_load_starts_with_its_own(page):
    """Start pressed before the chosen game's options arrived (a slow network): the
    console waits for them instead of sending the last game's form with the new game."""
    held = []
    page.route("**/v1/games/tremble/cards", lambda route: held.append(route))  # answered when released
    page.select_option("#rec-game", "tremble")
    page.fill("#seat-name-0", "Ann")
    page.fill("#seat-name-1", "Bob")
    assert page.get_attribute("#rec-options", "data-game") == "raiders"  # still the last game's
    page.click("#rec-start")
    page.wait_for_timeout(200)
    assert held and page.get_attribute("#rec-actions", "data-steps") is None  # not started yet
    for route in held:
        route.continue_()
    page.unroute("**/v1/games/tremble/cards")
    wait_for(page, '#rec-actions[data-steps="0"] button')
    assert page.get_attribute("#rec-options", "data-game") == "tremble"
    assert page.inner_text("#rec-pending") == "Chance → Ann: deal a mission"
