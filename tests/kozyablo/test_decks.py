"""Deck building, KOZ-1 … KOZ-6: every violation at once, capitals lift rules through data."""

from __future__ import annotations

import pathlib

import pytest
import yaml

import card_db
from service.games.errors import InvalidSetup
from service.games.kozyablo import GAME
from service.games.kozyablo.cards import Catalogue
from service.games.kozyablo.deck import validate_deck
from service.games.objects import JsonObject

CAT = Catalogue.of(card_db.get("kozyablo"))
SECTORS = ["gold_mine", "crystal_mine", "energy_source"]


def deck(cards: list[str], capital: str = "kz_capital", sectors: list[str] = SECTORS) -> JsonObject:
    return {"capital": capital, "sectors": list(sectors), "cards": list(cards)}


GOOD = ["kz_scout"] * 3 + ["kz_guard"] * 3 + ["kz_stone_goat"] * 3 + ["kz_healer"] * 3 \
    + ["kz_catapult"] * 3


def rules(d: JsonObject) -> list[str]:
    return [v["rule"] for v in validate_deck(CAT, d)]


def test_reference_decks_are_valid():
    for race, d in CAT.decks.items():
        assert validate_deck(CAT, d) == [], race


def test_koz_1_fifteen_to_twenty_five_cards_plus_capital_and_three_sectors():
    """KOZ-1: fifteen to twenty five cards plus capital and three sectors."""
    assert rules(deck(GOOD)) == []
    assert rules(deck(GOOD[:14])) == ["KOZ-1"]
    assert rules(deck(GOOD + ["kz_bleat"] * 3 + ["kz_purge"] * 3 + ["kz_curse"] * 3
                      + ["kz_altar"] * 2)) == ["KOZ-1"]  # 26 cards
    v = validate_deck(CAT, deck(GOOD[:14] + ["no_such_card"]))
    assert [x["rule"] for x in v] == ["KOZ-1"] and v[0]["cards"] == ["no_such_card"]
    v = validate_deck(CAT, deck(GOOD, capital="kz_scout"))
    assert [x["rule"] for x in v] == ["KOZ-1"] and v[0]["cards"] == ["kz_scout"]


def test_koz_2_at_most_three_copies():
    """KOZ-2: at most three copies."""
    v = validate_deck(CAT, deck(GOOD[:-1] + ["kz_scout"]))
    assert [x["rule"] for x in v] == ["KOZ-2"] and v[0]["cards"] == ["kz_scout"]


def test_koz_3_one_hero_up_to_three_copies():
    """KOZ-3: one hero up to three copies."""
    assert rules(deck(GOOD[:12] + ["kz_hero"] * 3)) == []
    v = validate_deck(CAT, deck(GOOD[:12] + ["kz_hero", "kz_hero", "zh_hero"],
                                capital="zh_capital"))
    three = [x for x in v if x["rule"] == "KOZ-3"]
    assert three and three[0]["cards"] == ["kz_hero", "zh_hero"]


def test_koz_4_only_cards_of_the_capitals_race():
    """KOZ-4: only cards of the capitals race."""
    v = validate_deck(CAT, deck(GOOD[:13] + ["zh_brute", "tr_grub"]))
    assert [x["rule"] for x in v] == ["KOZ-4"]
    assert v[0]["cards"] == ["tr_grub", "zh_brute"]


def test_koz_5_one_of_each_sector():
    """KOZ-5: one of each sector."""
    v = validate_deck(CAT, deck(GOOD, sectors=["gold_mine", "gold_mine", "energy_source"]))
    assert [x["rule"] for x in v] == ["KOZ-5"]
    assert rules(deck(GOOD, sectors=["gold_mine", "crystal_mine"])) == ["KOZ-5"]


def test_koz_6_a_capitals_property_lifts_koz_3_and_koz_4_from_card_data(tmp_path, monkeypatch):
    """KOZ-6: a capitals property lifts koz 3 and koz 4 from card data."""
    mixed = GOOD[:11] + ["zh_brute", "tr_grub", "kz_hero", "zh_hero"]
    assert set(rules(deck(mixed))) == {"KOZ-3", "KOZ-4"}
    assert rules(deck(mixed, capital="zh_mercenary_camp")) == []
    # the same rule lifted by editing only the data of a capital
    raw = yaml.safe_load(pathlib.Path(card_db.get("kozyablo").path).read_text("utf-8"))
    for cap in raw["capitals"]:
        if cap["id"] == "kz_capital":
            cap["max_heroes"] = 2
            cap["extra_races"] = ["zhloby", "trutni"]
    (tmp_path / "kozyablo").mkdir()
    (tmp_path / "kozyablo" / "house.yaml").write_text(yaml.safe_dump(raw, allow_unicode=True))
    monkeypatch.setenv("CARD_DB_PATH", str(tmp_path))
    card_db.clear_cache()
    try:
        house = Catalogue(card_db.get("kozyablo", "house"))
        assert validate_deck(house, deck(mixed)) == []
    finally:
        monkeypatch.delenv("CARD_DB_PATH")
        card_db.clear_cache()


def test_every_violation_is_reported_at_once():
    bad = deck(["kz_scout"] * 4 + ["zh_brute"] + ["kz_hero", "zh_hero"],
               sectors=["gold_mine", "gold_mine", "crystal_mine"])
    assert rules(bad) == ["KOZ-1", "KOZ-2", "KOZ-3", "KOZ-4", "KOZ-5"]


def test_new_refuses_invalid_decks_listing_all_violations_of_all_players():
    bad = deck(["kz_scout"] * 4 + GOOD[3:15])
    worse = deck(GOOD[:10], sectors=SECTORS[:2])
    with pytest.raises(InvalidSetup) as exc:
        GAME.new_game([{"deck": bad}, {"deck": worse}], seed=1)
    got = [(v["player"], v["rule"]) for v in exc.value.violations]
    assert got == [(0, "KOZ-2"), (1, "KOZ-1"), (1, "KOZ-5")]


def test_new_with_decks_races_or_only_a_count():
    state, _ = GAME.new_game([{"deck": deck(GOOD), "name": "Ann"}, {"race": "zhloby"}], seed=3)
    assert [p["race"] for p in state["players"]] == ["kozly", "zhloby"]
    assert state["players"][0]["name"] == "Ann"
    races = {tuple(p["race"] for p in GAME.new_game(2, seed=s)[0]["players"]) for s in range(12)}
    assert all(a != b for a, b in races) and len(races) > 3
    again = GAME.new_game(2, seed=5)[0]
    assert again == GAME.new_game(2, seed=5)[0]
