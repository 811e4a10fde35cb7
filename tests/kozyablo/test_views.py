"""Views, secrets, determinization and state validation."""

from __future__ import annotations

import copy
from typing import Any

import orjson
import pytest

from service.games.errors import InvalidState, MalformedInput
from service.games.kozyablo import GAME
from service.games.kozyablo.cards import Catalogue
from service.games.kozyablo.stats import unit_stats
from tests.shared.test_determinize import assert_view_only

from .builder import act, mixed_deck, play, table


def strings(v):
    if isinstance(v, str):
        return {v}
    if isinstance(v, dict):
        return set().union(*map(strings, v.values()), set()) if v else set()
    if isinstance(v, list):
        return set().union(*map(strings, v)) if v else set()
    return set()


def test_view_hides_the_opponents_hand_and_deck_and_shows_the_player_their_own_cards():
    s = table("pozorki", "kozly", hands={0: ["pz_spark"], 1: ["kz_bleat", "kz_purge"]},
              units={0: [("pz_sneak", "0.gold_mine", {"shadow": True})],
                     1: [("kz_guard", "0.crystal_mine")]})
    s["players"][0]["deck"].reverse()  # the view's list must not depend on the stored order
    v0, v1, spectator = GAME.view(s, 0), GAME.view(s, 1), GAME.view(s, None)
    assert v0["players"][0]["hand"] == ["0.pz_spark"] and v0["players"][1]["hand_count"] == 2
    assert "hand" not in v0["players"][1]
    for zone in ("deck", "aside", "cards"):  # own cards as sorted lists: contents, no order
        assert v0["players"][0][zone] == sorted(s["players"][0][zone])
        assert v1["players"][1][zone] == sorted(s["players"][1][zone])
        assert zone not in v0["players"][1] and zone not in v1["players"][0]
        assert all(zone not in q for q in spectator["players"])
    assert v0["players"][0]["deck_count"] == len(s["players"][0]["deck"])
    assert v0["players"][1]["deck_count"] == len(s["players"][1]["deck"])
    assert v0["units"]["0.pz_sneak"] == s["units"]["0.pz_sneak"]  # its owner sees it all
    assert "0.pz_sneak" not in v1["units"] and v1["units"]["hidden-1"] == {
        "owner": 0, "sector": "0.gold_mine", "damage": 0, "shadow": True, "card": None,
        "artifact_count": 0}
    for seat, view in ((0, v0), (1, v1), (None, spectator)):
        assert not strings(view) & GAME.secret_cards(s, seat)
    assert "0.pz_sneak" in GAME.secret_cards(s, 1) and "1.kz_bleat" in GAME.secret_cards(s, 0)
    assert not set(s["players"][0]["deck"]) & GAME.secret_cards(s, 0)
    assert set(s["players"][0]["deck"]) <= GAME.secret_cards(s, 1)
    with pytest.raises(MalformedInput):
        GAME.view(s, 2)


def test_determinize_redeals_what_the_player_cannot_locate():
    s = table("pozorki", "pozorki", hands={0: ["pz_spark"], 1: ["pz_rumor", "pz_haste"]},
              units={1: [("pz_sneak", "1.gold_mine", {"shadow": True})]})
    seen = set()
    for seed in range(30):
        d = GAME.determinize(s, 0, seed)
        GAME.validate_state(d)
        assert d["players"][0] == s["players"][0]  # own cards untouched
        assert len(d["players"][1]["hand"]) == 2 and d["chance"]["seed"] == seed
        assert GAME.view(d, 0)["players"][1]["hand_count"] == 2
        seen.add(tuple(d["players"][1]["hand"]))
        seen.add(tuple(u for u, x in d["units"].items() if x["owner"] == 1))
    assert len(seen) > 10


def test_validate_state_refuses_broken_states_with_field_paths():
    s = table(units={0: [("pz_archer", "0.gold_mine")]}, hands={0: ["pz_spark"]})
    bad = copy.deepcopy(s)
    bad["players"][0]["hand"].append("0.pz_archer")  # on the table and in hand
    with pytest.raises(InvalidState) as exc:
        GAME.validate_state(bad)
    assert exc.value.errors == {"state.units": ["card '0.pz_archer' appears more than once"]}
    bad = copy.deepcopy(s)
    bad["units"]["0.pz_archer"]["sector"] = "9.nowhere"
    with pytest.raises(InvalidState) as exc:
        GAME.validate_state(bad)
    assert "state.units.0.pz_archer.sector" in exc.value.errors
    bad = copy.deepcopy(s)
    bad["players"][1]["cards"].append("1.dragon")
    with pytest.raises(InvalidState):
        GAME.validate_state(bad)
    bad = copy.deepcopy(s)
    bad["phase"] = "combat"
    with pytest.raises(InvalidState):
        GAME.validate_state(bad)
    bad = copy.deepcopy(s)
    bad["phase"], bad["declared"] = "response", {"type": "skip", "player": 0, "x": 1}
    with pytest.raises(InvalidState):
        GAME.validate_state(bad)


def test_apply_never_mutates_its_input():
    s = table(units={0: [("pz_swordsman", "0.gold_mine")], 1: [("tr_grub", "0.gold_mine")]})
    before = copy.deepcopy(s)
    after, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    after, _ = play(after, act("strike", 0, unit="0.pz_swordsman", targets=["1.tr_grub"]))
    assert s == before


# ------------------------------------------------- creatures in the shadow (KOZ-41)
def mentions(value) -> set[str]:
    """Every string in a JSON value, keys included, and the source of each ``used`` entry."""
    if isinstance(value, str):
        return {value, value.partition(":")[0]}
    if isinstance(value, dict):
        return set().union(set(), *map(mentions, value), *map(mentions, value.values()))
    if isinstance(value, list):
        return set().union(set(), *map(mentions, value))
    return set()


def renamed(value, names: dict[str, str]):
    """``value`` with card ids swapped per ``names`` everywhere (keys, values, ``used``)."""
    if isinstance(value, str):
        source, colon, rest = value.partition(":")
        return names.get(value, f"{names[source]}:{rest}" if colon and source in names else value)
    if isinstance(value, dict):
        return {renamed(k, names): renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    return value


def swap(state: dict[Any, Any], *pairs: tuple[str, str]) -> dict[Any, Any]:
    """A twin of ``state`` with card ids swapped in pairs (decks kept sorted)."""
    names = {a: b for a, b in pairs} | {b: a for a, b in pairs}
    twin = renamed(state, names)
    for p in twin["players"]:
        p["deck"].sort()
    GAME.validate_state(twin)
    return twin


def assert_hides(state: dict[Any, Any], seat: int | None, hidden: set[str]) -> dict[Any, Any]:
    """``seat``'s view names none of ``hidden``, and ``secret_cards`` lists them all
    (so the contract's leak check would catch a view that shows one)."""
    view = GAME.view(state, seat)
    assert not mentions(view) & hidden
    assert hidden <= GAME.secret_cards(state, seat)
    assert not strings(view) & GAME.secret_cards(state, seat)
    return view


def test_koz_41_the_alias_of_a_hidden_creature_says_nothing_about_which_card_it_is():
    """KOZ-41: the creature hides face down — its name in the opponent's view
    (``hidden-N``, N given when it entered the shadow) and its place in
    ``units`` are the same whichever card it is; the ids around it would
    have placed it differently in a sorted order."""
    s = table("pozorki", "kozly",
              units={0: [("pz_null_monk", "0.gold_mine"), ("pz_sneak", "0.gold_mine",
                                                            {"shadow": True}),
                         ("pz_swordsman", "0.crystal_mine")],
                     1: [("kz_guard", "1.gold_mine")]})
    for twin in (swap(s, ("0.pz_sneak", "0.pz_dodger")), swap(s, ("0.pz_sneak", "0.pz_archer")),
                 swap(s, ("0.pz_sneak", "0.pz_swordsman#2"))):
        for seat in (1, None):
            assert orjson.dumps(GAME.view(twin, seat)) == orjson.dumps(GAME.view(s, seat))
        assert orjson.dumps(GAME.view(twin, 0)) != orjson.dumps(GAME.view(s, 0))
    view = assert_hides(s, 1, {"0.pz_sneak"})
    assert list(view["units"]) == ["0.pz_null_monk", "0.pz_swordsman", "1.kz_guard", "hidden-1"]


def test_koz_41_42_hidden_creatures_are_numbered_by_entering_the_shadow():
    """KOZ-41/KOZ-42 in play: a creature that hides takes the smallest free
    number; one brought out by a Scout frees its number and shows its card,
    the other keeps its name; damage taken face up stays shown (KOZ-27)."""
    s = table("pozorki", "kozly",
              units={0: [("pz_sneak", "0.crystal_mine", {"shadow": True}),
                         ("pz_sneak", "0.gold_mine")],
                     1: [("kz_scout", "1.gold_mine")]})
    s, _ = play(s, act("use_ability", 0, source="0.pz_sneak#2", ability="shadow"))
    assert [s["units"][u]["shadow_number"] for u in ("0.pz_sneak", "0.pz_sneak#2")] == [1, 2]
    view = assert_hides(s, 1, {"0.pz_sneak", "0.pz_sneak#2"})
    assert {a: (u["sector"], u["card"]) for a, u in view["units"].items() if u["owner"] == 0} \
        == {"hidden-1": ("0.crystal_mine", None), "hidden-2": ("0.gold_mine", None)}
    # KOZ-42: the Scout walks in; the creature there turns face up
    s, ev = play(s, act("move", 1, **{"from": "1.gold_mine", "to": "0.crystal_mine"},
                        units=["1.kz_scout"]))
    assert {"type": "left_shadow", "unit": "0.pz_sneak", "rule": "KOZ-42"} in ev
    assert "shadow_number" not in s["units"]["0.pz_sneak"]
    view = assert_hides(s, 1, {"0.pz_sneak#2"})
    assert view["units"]["0.pz_sneak"]["sector"] == "0.crystal_mine"
    assert view["units"]["hidden-2"]["sector"] == "0.gold_mine" and "hidden-1" not in view["units"]
    # it walks away under the retreat attack (1 damage), then hides again as hidden-1
    s, _ = play(s, act("move", 0, **{"from": "0.crystal_mine", "to": "0.energy_source"},
                       units=["0.pz_sneak"]))
    s, _ = play(s, act("strike", 1, unit="1.kz_scout", targets=["0.pz_sneak"]))
    assert s["units"]["0.pz_sneak"]["damage"] == 1 and s["active"] == 1
    s, _ = play(s, act("skip", 1))
    s, _ = play(s, act("use_ability", 0, source="0.pz_sneak", ability="shadow"))
    assert s["units"]["0.pz_sneak"]["shadow_number"] == 1
    view = assert_hides(s, 1, {"0.pz_sneak", "0.pz_sneak#2"})
    assert view["units"]["hidden-1"] == {"owner": 0, "sector": "0.energy_source", "damage": 1,
                                         "shadow": True, "card": None, "artifact_count": 0}
    assert GAME.view(s, 0)["units"]["0.pz_sneak"] == s["units"]["0.pz_sneak"]


def test_every_field_names_a_hidden_enemy_creature_by_its_alias():
    """``used``, ``lasting``, ``declared`` and ``combat`` say ``hidden-N`` to the
    opponent and the spectator, the real id to the owner.  (No reference card
    has both Shadow and a free ability, so the ``used`` entry is hand-made.)"""
    sneak = ("pz_sneak", "0.gold_mine", {"shadow": True})
    s = table("pozorki", "kozly", options={"response_window": "always"},
              units={0: [sneak, ("pz_archer", "0.gold_mine")], 1: [("kz_guard", "0.gold_mine")]},
              lasting={0: [("pz_haste", {"unit": "0.pz_sneak"}, 2)]})
    s["used"] = ["0.pz_sneak:shadow", "0.pz_archer:volley"]
    GAME.validate_state(s)
    for seat in (1, None):
        view = assert_hides(s, seat, {"0.pz_sneak", "0.pz_sneak:shadow"})
        assert view["used"] == ["hidden-1:shadow", "0.pz_archer:volley"]
        assert view["lasting"]["0.pz_haste"]["unit"] == "hidden-1"
    assert GAME.view(s, 0)["used"] == s["used"] and "0.pz_sneak" in GAME.view(s, 0)["units"]
    # a declared move waits in the response window (KOZ-16)
    moving, _ = play(s, act("move", 0, **{"from": "0.gold_mine", "to": "0.crystal_mine"},
                            units=["0.pz_sneak"]))
    assert moving["declared"]["units"] == ["0.pz_sneak"]
    assert assert_hides(moving, 1, {"0.pz_sneak"})["declared"]["units"] == ["hidden-1"]
    # the whole squad leaves: a retreat attack (KOZ-16a) lists the hidden mover
    retreat, _ = play(s, act("move", 0, **{"from": "0.gold_mine", "to": "0.crystal_mine"},
                             units=["0.pz_archer", "0.pz_sneak"]))
    retreat, _ = play(retreat, act("pass", 1))
    assert retreat["combat"]["movers"] == ["0.pz_archer", "0.pz_sneak"]
    view = assert_hides(retreat, 1, {"0.pz_sneak"})
    assert view["combat"]["movers"] == ["0.pz_archer", "hidden-1"]
    assert GAME.view(retreat, 0)["combat"] == retreat["combat"]


HEROES = mixed_deck("pz_hero", "pz_hero", "pz_art_cloak", "pz_art_cloak", "pz_art_bow",
                    "pz_sneak", "pz_sneak", "kz_scout", "pz_spark")


def hero_table() -> dict[Any, Any]:
    """A hero hidden by its Cloak of Shadows with a Bow, 2 damage, a sneak
    hidden too, and the other hero, cloak and sneak still in the deck."""
    return table(HEROES, "kozly", hands={0: ["pz_spark"]}, units={
        0: [("pz_hero", "0.gold_mine", {"shadow": True, "damage": 2,
                                        "artifacts": ["pz_art_cloak", "pz_art_bow"]}),
            ("pz_sneak", "0.crystal_mine", {"shadow": True})],
        1: [("kz_guard", "1.gold_mine")]})


def test_a_hidden_hero_hides_its_artifacts_and_its_owner_sees_everything():
    """The opponent sees how many artifacts it carries and its damage (both
    public before it hid, KOZ-21, KOZ-27), never which cards they are."""
    s = hero_table()
    secret = {"0.pz_hero", "0.pz_art_cloak", "0.pz_art_bow", "0.pz_sneak"}
    for seat in (1, None):
        view = assert_hides(s, seat, secret)
        assert view["units"]["hidden-1"] == {"owner": 0, "sector": "0.gold_mine", "damage": 2,
                                             "shadow": True, "card": None, "artifact_count": 2}
    own = GAME.view(s, 0)
    assert {u: own["units"][u] for u in ("0.pz_hero", "0.pz_sneak")} == {
        u: s["units"][u] for u in ("0.pz_hero", "0.pz_sneak")}
    assert not secret & GAME.secret_cards(s, 0)
    # another hero copy wearing the other cloak looks the same to the opponent
    twin = swap(s, ("0.pz_hero", "0.pz_hero#2"), ("0.pz_art_cloak", "0.pz_art_cloak#2"))
    assert twin["units"]["0.pz_hero#2"]["artifacts"] == ["0.pz_art_cloak#2", "0.pz_art_bow"]
    for seat in (1, None):
        assert orjson.dumps(GAME.view(twin, seat)) == orjson.dumps(GAME.view(s, seat))


def test_determinize_recasts_hidden_creatures_from_the_view_alone():
    """States the opponent cannot tell apart (hand-made twins, not only
    ``determinize``'s own) give the same determinized state for every seed;
    each stand-in fits what the view shows (a hero with two artifacts it may
    carry, Shadow, life above its damage), and both the creature and its
    artifacts vary over seeds."""
    s = hero_table()
    s["used"] = ["0.pz_sneak:shadow"]  # hand-made: the stand-in must offer that ability
    twin = swap(s, ("0.pz_hero", "0.pz_hero#2"), ("0.pz_art_cloak", "0.pz_art_cloak#2"),
                ("0.pz_sneak", "0.pz_sneak#2"))
    for seat in (None, 0, 1):
        assert_view_only(GAME, s, seat)
    cast = set()
    for seed in range(12):
        d = GAME.determinize(s, 1, seed)
        assert orjson.dumps(GAME.determinize(twin, 1, seed)) == orjson.dumps(d)
        hidden = [u for u, x in d["units"].items() if x["shadow"]]
        assert [d["units"][u]["shadow_number"] for u in hidden] == [1, 2]
        hero, sneak = hidden
        assert d["units"][hero]["damage"] == 2 and len(d["units"][hero]["artifacts"]) == 2
        for u in hidden:
            stats = unit_stats(d, Catalogue.of_state(d), u)
            assert "shadow" in stats.abilities and stats.life > d["units"][u]["damage"]
        assert d["used"] == [f"{sneak}:shadow"]
        cast.add((hero, *d["units"][hero]["artifacts"], sneak))
    assert {c[0] for c in cast} == {"0.pz_hero", "0.pz_hero#2"}
    assert {c[-1] for c in cast} == {"0.pz_sneak", "0.pz_sneak#2"}
    assert len({c[1:3] for c in cast}) > 1


def test_determinize_keeps_the_players_own_hidden_creatures():
    s = hero_table()
    for seed in range(5):
        d = GAME.determinize(s, 0, seed)
        assert d["units"] == s["units"] and d["players"][0] == {
            **s["players"][0], "deck": sorted(s["players"][0]["deck"])}


def test_validate_state_refuses_a_broken_shadow_number():
    s = hero_table()
    for unit, change, path in (
            ("0.pz_sneak", lambda d: d.pop("shadow_number"), "state.units.0.pz_sneak.shadow_number"),
            ("0.pz_sneak", lambda d: d.update(shadow_number=1), "state.units"),
            ("0.pz_sneak", lambda d: d.update(shadow=False), "state.units.0.pz_sneak.shadow_number"),
            ("0.pz_sneak", lambda d: d.update(shadow_number=0), "state.units.0.pz_sneak.shadow_number")):
        bad = copy.deepcopy(s)
        change(bad["units"][unit])
        with pytest.raises(InvalidState) as exc:
            GAME.validate_state(bad)
        assert path in exc.value.errors, exc.value.errors


def test_koz_13_view_shows_production_and_effective_stats():
    """KOZ-12/KOZ-13, KOZ-18, KOZ-21 (issue 10, item 4): every view carries ``derived``:
    production levels per player and each identifiable creature's effective attack /
    speed / Armor after artifacts and lasting magic; a hidden enemy creature has none."""
    s = table("pozorki", "kozly",
              units={0: [("pz_archer", "0.gold_mine"), ("pz_sneak", "0.gold_mine",
                                                         {"shadow": True})],
                     1: [("kz_hero", "1.gold_mine", {"artifacts": ["kz_art_horns"]})]},
              lasting={0: [("pz_banner", {"sector": "0.gold_mine", "seat": 0}, None)]})
    for seat in (None, 0, 1):
        d = GAME.view(s, seat)["derived"]
        assert d["production"] == [{"gold": 3, "crystals": 2, "mana": 1},
                                   {"gold": 2, "crystals": 2, "mana": 2}]
        assert d["units"]["0.pz_archer"]["attack"] == 2  # 1 + the Banner
        assert d["units"]["1.kz_hero"] == {"attack": 5, "life": 6, "speed": 3, "armor": 1,
                                           "regeneration": 0,
                                           "abilities": ["armor", "defender"]}
        assert ("0.pz_sneak" in d["units"]) == (seat == 0)
    assert "derived" not in s
