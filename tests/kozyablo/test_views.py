"""Views, secrets, determinization and state validation."""

from __future__ import annotations

import copy

import pytest

from service.games.errors import InvalidState, MalformedInput
from service.games.kozyablo import GAME

from .builder import act, play, table


def strings(v):
    if isinstance(v, str):
        return {v}
    if isinstance(v, dict):
        return set().union(*map(strings, v.values()), set()) if v else set()
    if isinstance(v, list):
        return set().union(*map(strings, v)) if v else set()
    return set()


def test_view_hides_the_opponents_hand_the_decks_and_shadowed_identities():
    s = table("pozorki", "kozly", hands={0: ["pz_spark"], 1: ["kz_bleat", "kz_purge"]},
              units={0: [("pz_sneak", "0.gold_mine", {"shadow": True})],
                     1: [("kz_guard", "0.crystal_mine")]})
    v0, v1, spectator = GAME.view(s, 0), GAME.view(s, 1), GAME.view(s, None)
    assert v0["players"][0]["hand"] == ["0.pz_spark"] and v0["players"][1]["hand_count"] == 2
    assert "hand" not in v0["players"][1] and "deck" not in v0["players"][0]
    assert v0["players"][0]["deck_count"] == len(s["players"][0]["deck"])
    assert v0["units"]["0.pz_sneak"]["shadow"]  # its owner sees it
    assert "0.pz_sneak" not in v1["units"] and v1["units"]["hidden-1"] == {
        "owner": 0, "sector": "0.gold_mine", "shadow": True, "card": None, "artifact_count": 0}
    for seat, view in ((0, v0), (1, v1), (None, spectator)):
        assert not strings(view) & GAME.secret_cards(s, seat)
    assert "0.pz_sneak" in GAME.secret_cards(s, 1) and "1.kz_bleat" in GAME.secret_cards(s, 0)
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
