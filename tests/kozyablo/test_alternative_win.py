"""KOZ-47: cards that win another way (issue 35) — the ``win`` effect and its conditions.

The shipped card is Treasury of Greed in the ``alternative_wins`` set (``reference``
extended, so ``reference`` and its states are untouched); the other win cards here
live in a test set that extends it (``wins``), one per condition and moment.
"""

from __future__ import annotations

from typing import Any

import pytest
import yaml

import card_db
from service.games.errors import RuleViolation
from service.games.kozyablo import GAME
from service.games.kozyablo.card_schema import ConditionSchema
from service.games.kozyablo.wins import CONDITIONS
from tests.contract import check_random_games

from .builder import act, listed, play, table, types

META = {"reconstructed": True, "version": "test", "note": "test cards (KOZ-47)"}
#: win cards of the test set: an event (played, KOZ-19) and a start trigger (KOZ-14)
WIN_CARDS = [
    {"id": "zh_coronation", "name": {"en": "Coronation", "ru": "Коронация"}, "race": "zhloby",
     "type": "event", "level": 1, "kind": "instant",
     "effect": {"kind": "win", "target": "player",
                "condition": {"creatures_in_play": {"count": 3, "race": "zhloby"}}}},
    {"id": "zh_old_fort", "name": {"en": "Old Fort", "ru": "Старый форт"}, "race": "zhloby",
     "type": "building", "level": 1, "attack": 0, "life": 4, "speed": 0,
     "triggers": [{"when": "start", "effect": {"kind": "win", "target": "player",
                                                "condition": {"turn_reached": 9}}}]},
]
#: a zhloby deck (KOZ-1..5) of the test set holding every win card
WIN_DECK = {"capital": "zh_capital", "sectors": ["gold_mine", "crystal_mine", "energy_source"],
            "cards": ["zh_brute"] * 3 + ["zh_shieldbearer"] * 3 + ["zh_dead"] * 2
            + ["zh_bouncer"] * 2 + ["zh_iron", "zh_coronation", "zh_coronation", "zh_old_fort",
                                    "zh_treasury"]}
THREE = {"0.gold_mine": 0, "0.crystal_mine": 0, "0.energy_source": 0}


def write_set(root, name: str, data: dict[Any, Any]) -> None:
    (root / "kozyablo").mkdir(exist_ok=True)
    (root / "kozyablo" / f"{name}.yaml").write_text(yaml.safe_dump(data, allow_unicode=True),
                                                     encoding="utf-8")
    card_db.clear_cache()


@pytest.fixture
def card_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("CARD_DB_PATH", str(tmp_path))
    card_db.clear_cache()
    yield tmp_path
    monkeypatch.delenv("CARD_DB_PATH")
    card_db.clear_cache()


@pytest.fixture
def wins(card_dir):
    write_set(card_dir, "wins", {"extends": "alternative_wins", "meta": META, "cards": WIN_CARDS})
    return "wins"


def refused(card_dir, card: dict[Any, Any]) -> str:
    write_set(card_dir, "bad", {"extends": "reference", "meta": META, "cards": [card]})
    with pytest.raises(card_db.CardDataError) as exc:
        card_db.get("kozyablo", "bad")
    return str(exc.value)


def win_effect(**fields) -> dict[Any, Any]:
    return {"kind": "win", "target": "player", **fields}


def event(effect: dict[Any, Any], **fields) -> dict[Any, Any]:
    return {"id": "zh_bad", "name": {"en": "Bad", "ru": "Плохо"}, "race": "zhloby",
            "type": "event", "level": 1, "kind": "instant", "effect": effect, **fields}


def test_koz_47_the_win_vocabulary_is_validated_at_load(card_dir):
    """KOZ-47: a bad win effect or condition is refused at load, naming the card and field."""
    assert set(ConditionSchema().fields) == set(CONDITIONS)  # the schema declares them all
    cases = [
        (event(win_effect()), "effect.condition: a win effect needs a condition"),
        (event(win_effect(condition={})), "effect.condition: a condition names at least one"),
        (event(win_effect(condition={"capital_intact": True})),
         "effect.condition.capital_intact: Unknown field"),
        (event(win_effect(condition={"controls_sectors": 0})),
         "effect.condition.controls_sectors"),
        (event(win_effect(condition={"creatures_in_play": {"race": "kozly"}})),
         "effect.condition.creatures_in_play.count"),
        (event(win_effect(condition={"creatures_in_play": {"count": 2, "race": "elves"}})),
         "effect.condition.creatures_in_play.race"),
        (event({"kind": "draw", "target": "player", "amount": 1,
                "condition": {"turn_reached": 5}}),
         "effect.condition: only a win effect has a condition"),
        (event(win_effect(target="enemy_capital", condition={"turn_reached": 5})),
         "effect.target: a win effect targets one of player"),
        (event(win_effect(condition={"turn_reached": 5}), kind="permanent"),
         "lasting magic must be a modify effect"),
        ({"id": "zh_bad", "name": {"en": "Bad", "ru": "Плохо"}, "race": "zhloby",
          "type": "building", "level": 1, "attack": 0, "life": 3, "speed": 0,
          "activated": [{"name": "claim", "mark": "action",
                         "effect": win_effect(condition={"turn_reached": 5})}]},
         "activated.0.effect: an ability cannot win"),
    ]
    for card, message in cases:
        text = refused(card_dir, card)
        assert "(card 'zh_bad')" in text and message in text, (message, text)


def test_koz_47_a_set_extends_another_and_leaves_it_alone(card_dir):
    """KOZ-47: ``alternative_wins`` is ``reference`` plus its card; ``reference`` is untouched."""
    ref, alt = card_db.get("kozyablo", "reference"), card_db.get("kozyablo", "alternative_wins")
    assert set(alt.cards) - set(ref.cards) == {"zh_treasury"} and ref.hash != alt.hash
    assert "zh_treasury" not in str(ref.data) and alt.meta["reconstructed"] is True
    assert "zh_treasury" in alt.data["reference_decks"]["zhloby"]["cards"]
    assert alt.data["reference_decks"]["kozly"] == ref.data["reference_decks"]["kozly"]
    for bad, why in (("nowhere", "extends: no set 'nowhere'"), ("loop", "is not another set")):
        write_set(card_dir, "loop", {"extends": bad, "meta": META, "cards": []})
        with pytest.raises(card_db.CardDataError) as exc:
            card_db.get("kozyablo", "loop")
        assert why in str(exc.value)


def test_koz_47_treasury_of_greed_wins_at_the_end_of_its_owners_turn():
    """KOZ-47 (KOZ-14 end of turn): the shipped card wins when its owner ends a turn
    controlling four sectors (KOZ-11) — not with three, not on the opponent's turn."""
    kw = {"buildings": {0: ["zh_treasury"]}, "card_set": "alternative_wins"}
    s = table("zhloby", "kozly", control=THREE, **kw)
    s, ev = play(s, act("skip", 0))
    assert s["result"] is None and "trigger" not in types(ev)  # three: the trigger waits
    four = {**THREE, "1.gold_mine": 0}
    s = table("zhloby", "kozly", control=four, active=1, **kw)
    s, ev = play(s, act("skip", 1))  # the opponent's end, then the owner's start: not yet
    assert s["result"] is None and s["active"] == 0 and "card_win" not in types(ev)
    s, ev = play(s, act("skip", 0))
    assert s["result"] == {"finished": True, "winners": [0], "reason": "card_win"}
    assert ev[-2:] == [
        {"type": "trigger", "source": "0.zh_treasury", "when": "end", "rule": "KOZ-14"},
        {"type": "card_win", "player": 0, "card": "0.zh_treasury",
         "condition": {"controls_sectors": 4}, "rule": "KOZ-47"}]
    score = GAME.score(s)
    assert score["winners"] == [0] and score["reason"] == "card_win"
    assert s["pending"] == [] and GAME.legal_actions(s) == []
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("skip", 1))
    assert exc.value.rule == "KOZ-47"


def test_koz_47_a_win_card_is_played_only_while_its_condition_holds(wins):
    """KOZ-47 (KOZ-19 an event): Coronation wins at once when played with three zhloby
    creatures on the table; with two it is not listed and is refused citing KOZ-47."""
    two = {0: [("zh_brute", "0.gold_mine"), ("zh_brute", "0.crystal_mine")]}
    s = table(WIN_DECK, "kozly", hands={0: ["zh_coronation"]}, units=two, card_set=wins)
    assert not [a for a in listed(s, 0, "play_card") if a["card"] == "0.zh_coronation"]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("play_card", 0, card="0.zh_coronation"))
    assert exc.value.rule == "KOZ-47" and "creatures_in_play" in str(exc.value)
    three = {0: [*two[0], ("zh_dead", "0.energy_source")]}
    s = table(WIN_DECK, "kozly", hands={0: ["zh_coronation"]}, units=three, card_set=wins)
    assert act("play_card", 0, card="0.zh_coronation") in listed(s, 0, "play_card")
    s, ev = play(s, act("play_card", 0, card="0.zh_coronation"))
    assert s["result"] == {"finished": True, "winners": [0], "reason": "card_win"}
    assert ev[-1] == {"type": "card_win", "player": 0, "card": "0.zh_coronation",
                      "condition": {"creatures_in_play": {"count": 3, "race": "zhloby"}},
                      "rule": "KOZ-47"}
    assert "0.zh_coronation" in s["players"][0]["discard"]


def test_koz_47_turn_reached_wins_at_the_start_of_the_owners_turn(wins):
    """KOZ-47 (KOZ-14 start of turn): Old Fort wins when its owner's turn 9 or later
    begins with it on the table; turn 8 is too soon."""
    s = table(WIN_DECK, "kozly", buildings={0: ["zh_old_fort"]}, active=1, turn=7,
              card_set=wins)
    s, ev = play(s, act("skip", 1))
    assert s["turn"] == 8 and s["result"] is None
    s = table(WIN_DECK, "kozly", buildings={0: ["zh_old_fort"]}, active=1, turn=8,
              card_set=wins)
    s, ev = play(s, act("skip", 1))
    assert s["turn"] == 9 and s["result"]["reason"] == "card_win"
    assert types(ev)[-3:] == ["turn_started", "trigger", "card_win"]


def test_koz_47_a_card_win_over_http(client):
    """KOZ-47 over HTTP: a state of the ``alternative_wins`` set plays, and its card wins."""
    s = table("zhloby", "kozly", control={**THREE, "1.gold_mine": 0},
              buildings={0: ["zh_treasury"]}, card_set="alternative_wins")
    r = client.post("/v1/games/kozyablo/apply",
                    json={"state": s, "action": act("skip", 0)})
    assert r.status_code == 200, r.get_json()
    body = r.get_json()
    assert body["state"]["result"]["reason"] == "card_win"
    assert body["events"][-1]["type"] == "card_win" and body["events"][-1]["rule"] == "KOZ-47"
    r = client.post("/v1/games/kozyablo/score", json={"state": body["state"]})
    assert r.status_code == 200 and r.get_json()["reason"] == "card_win"


def test_koz_47_random_games_with_win_cards_in_every_deck(card_dir):
    """KOZ-47: seeded random games keep every contract check with win cards in play (the
    reference set shadowed by one whose decks all hold them), and some end by a card."""
    raw = yaml.safe_load(open(card_db.get("kozyablo").path, encoding="utf-8"))
    for race, deck in raw["reference_decks"].items():
        cid = f"{race[:2]}_rally"
        raw["cards"].append({"id": cid, "name": {"en": "Rally", "ru": "Сбор"}, "race": race,
                             "type": "event", "level": 1, "kind": "instant",
                             "effect": win_effect(condition={"creatures_in_play": {"count": 3}})})
        deck["cards"] += [cid, cid]
    raw["cards"].append(WIN_CARDS[1] | {"triggers": [
        {"when": "end", "effect": win_effect(condition={"controls_sectors": 2,
                                                        "turn_reached": 12})}]})
    raw["reference_decks"]["zhloby"]["cards"].append("zh_old_fort")
    write_set(card_dir, "reference", raw)
    pairings = [("zhloby", "kozly"), ("pozorki", "zhloby"), ("trutni", "trutni"),
                ("kozly", "pozorki")]
    setups = [([{"race": a}, {"race": b}], {"turn_limit": 60}, 3500 + k)
              for k, (a, b) in enumerate(pairings * 3)]
    report = check_random_games(GAME, setups, every=3)
    assert report["games"] == 12 and report["finished_by"].get("card_win", 0) > 0, report
