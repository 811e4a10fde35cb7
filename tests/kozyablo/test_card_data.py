"""The reconstructed reference set honours every fact the rules ask of it."""

from __future__ import annotations

import copy
import pathlib

import pytest
import yaml
from marshmallow import ValidationError

from service.games.kozyablo import GAME
from service.games.kozyablo.card_schema import ABILITIES, RACES, CardSetSchema

SET = GAME.card_set()
CARDS = SET.data["cards"]


def test_labelled_as_reconstructed_with_names_in_russian_and_english():
    assert SET.meta["reconstructed"] is True and "Reconstructed" in SET.meta["note"]
    for c in CARDS + SET.data["capitals"] + SET.data["sectors"]:
        assert c["name"]["en"] and c["name"]["ru"]


def test_every_ability_koz_30_to_46_is_on_a_card():
    on_cards = {a["type"] for c in CARDS for a in c["abilities"]}
    assert on_cards == set(ABILITIES)


def test_each_race_has_capital_creature_levels_hero_artifacts_buildings_magic_events():
    for race in RACES:
        mine = [c for c in CARDS if c["race"] == race]
        assert any(c["race"] == race for c in SET.data["capitals"])
        levels = {c["level"] for c in mine if c["type"] == "creature"}
        assert len(levels) >= 2, race
        heroes = [c["id"] for c in mine if c["type"] == "hero"]
        assert len(heroes) == 1
        assert [c for c in mine if c["type"] == "artifact" and heroes[0] in c["heroes"]]
        assert [c for c in mine if c["type"] == "building"]
        assert {c["kind"] for c in mine if c["type"] == "magic"} == {"instant", "temporary",
                                                                     "permanent"}
        assert [c for c in mine if c["type"] == "event"]
        assert race in SET.data["reference_decks"]


def test_a_capital_lifts_koz_3_or_koz_4():
    assert [c["id"] for c in SET.data["capitals"] if c["max_heroes"] > 1 or c["extra_races"]] \
        == ["zh_mercenary_camp"]


def test_koz_28_cards_and_the_named_cards():
    by = {c["id"]: c for c in CARDS}
    archer, sword = by["pz_archer"], by["pz_swordsman"]
    bee, gilen = by["tr_bumblebee"], by["tr_wild_gilen"]
    assert archer["life"] == 1 and archer["name"]["ru"] == "Позорный лучник"
    assert {"type": "two_attacks"} in sword["abilities"] and sword["name"]["ru"] == "Позорный мечник"
    assert (bee["speed"], bee["attack"], bee["race"], bee["name"]["ru"]) == (6, 1, "trutni", "Шмель")
    assert {"type": "flying"} in bee["abilities"]
    assert gilen["race"] == "trutni" and gilen["name"]["ru"] == "Дикий гилен"
    # the example's arithmetic: the Archer dies to 1, 2x2 leaves the Gilen 1 life, 2 kills the Swordsman
    assert archer["life"] <= bee["attack"] and gilen["life"] == 2 * sword["attack"] + 1
    assert sword["life"] <= gilen["attack"] and sword["speed"] > gilen["speed"]
    assert bee["speed"] > max(archer["speed"], sword["speed"])
    # "Следующим действует мечник (т.к. Лучник уже уничтожен)": the Archer would have been next
    assert archer["speed"] > sword["speed"]
    # "Шмеля он атаковать не может, т.к. тот летает": the Swordsman cannot strike flyers
    assert not {a["type"] for a in sword["abilities"]} & {"flying", "archer", "magic_attack"}
    # every strike of the example lands in full: no Armor or protection on the victims
    for victim in (archer, gilen, sword):
        assert not {a["type"] for a in victim.get("abilities", [])} & {
            "armor", "weapon_protection", "arrow_protection", "evasion", "flying"}, victim["id"]
    sab = next(c for c in CARDS if c["name"]["ru"] == "Подрыв")
    assert (sab["type"], sab["level"], sab["requires"]) == ("event", 2, {"controlled_sectors": 1})
    letaro = next(c for c in CARDS if c["name"]["ru"] == "Слово Летаро")
    assert letaro["type"] == "magic" and letaro["effect"]["pierces_magic_protection"]


def test_a_broken_card_is_refused_with_card_and_field_named():
    raw = yaml.safe_load(pathlib.Path(SET.path).read_text("utf-8"))
    bad = copy.deepcopy(raw)
    bad["cards"][0]["abilities"] = [{"type": "teleport"}]
    with pytest.raises(ValidationError) as exc:
        CardSetSchema().load(bad)
    assert "cards" in exc.value.messages
    bad = copy.deepcopy(raw)
    bad["cards"].append({**raw["cards"][0]})
    with pytest.raises(ValidationError):
        CardSetSchema().load(bad)
