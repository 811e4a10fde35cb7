"""Issue 25: RULINGS KOZ-25a (a strike may be held), KOZ-41a (the shadow in a combat),
KOZ-45a (a Defender takes the strike, worked out against itself), KOZ-53a (the last to
fall is out; a fallen capital is an ordinary sector), and the loose ends of 3-4 players
(one shape for the capital events, a seat not in the game, the free abilities' limit as
card data)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml

import card_db
from service.games.errors import MalformedInput, RuleViolation
from service.games.kozyablo import GAME
from service.games.kozyablo.abilities import spent
from service.games.kozyablo.cards import Catalogue
from service.redaction import events_for
from tests.kozyablo.builder import act, listed, table, types
from tests.kozyablo.builder import play as play_one


def play(state: dict[Any, Any], action: dict[Any, Any]) -> tuple[dict[Any, Any], list[dict[Any, Any]]]:
    """``play``, then every response window passed (KOZ-16), the events of both."""
    state, events = play_one(state, action)
    while state["phase"] == "response":
        state, more = play_one(state, act("pass", state["responder"]))
        events += more
    return state, events


def three(**kw):
    """pozorki (0), trutni (1), kozly (2); player 0 to act unless ``active`` says."""
    return table("pozorki", "trutni", more=("kozly",), **kw)


# ------------------------------------------------------------------ KOZ-25a
def test_koz_25a_a_strike_may_be_held_and_the_hold_is_public():
    """RULING KOZ-25a: the striker's controller strikes or holds; a held strike is an
    event every player sees; a creature whose turn it is not has no strike to hold."""
    s = table(units={0: [("pz_archer", "0.gold_mine")], 1: [("tr_wild_gilen", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    assert s["pending"] == [{"player": 0, "decision": "strike"}]  # Archer, speed 4
    assert listed(s, 0, "hold") == [act("hold", 0, unit="0.pz_archer")]
    assert GAME.check(s, act("hold", 0, unit="0.pz_archer")) == {"legal": True}
    verdict = GAME.check(s, act("hold", 1, unit="1.tr_wild_gilen"))
    assert verdict["legal"] is False and verdict["rule"] == "KOZ-25"  # not player 1's turn
    before = s
    s, ev = play(s, act("hold", 0, unit="0.pz_archer"))
    held = {"type": "strike_held", "unit": "0.pz_archer", "rule": "KOZ-25a"}
    assert held in ev and held in events_for(GAME, before, s, ev, 1)  # public
    assert s["pending"] == [{"player": 1, "decision": "strike"}]  # the Gilen's turn
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("hold", 1, unit="0.pz_archer"))
    assert exc.value.rule == "KOZ-25a"
    s, ev = play(s, act("hold", 1, unit="1.tr_wild_gilen"))
    assert types(ev)[:2] == ["strike_held", "combat_ended"]
    assert s["units"]["0.pz_archer"]["damage"] == 0 and s["units"]["1.tr_wild_gilen"]["damage"] == 0


def test_koz_25a_each_of_two_attacks_may_be_held():
    """RULING KOZ-25a with KOZ-32: the Swordsman strikes once and holds its second strike."""
    s = table(units={0: [("pz_swordsman", "0.gold_mine")], 1: [("tr_wild_gilen", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    s, _ = play(s, act("strike", 0, unit="0.pz_swordsman", targets=["1.tr_wild_gilen"]))
    assert s["combat"]["current"] == "0.pz_swordsman" and s["combat"]["strikes_left"] == 1
    assert listed(s, 0, "hold") == [act("hold", 0, unit="0.pz_swordsman")]
    s, ev = play(s, act("hold", 0, unit="0.pz_swordsman"))
    assert {"type": "strike_held", "unit": "0.pz_swordsman", "rule": "KOZ-25a"} in ev
    assert s["units"]["1.tr_wild_gilen"]["damage"] == 2  # one strike landed, not two
    assert s["pending"] == [{"player": 1, "decision": "strike"}]


def test_koz_25a_the_strikes_of_a_retreat_attack_may_be_held():
    """RULING KOZ-25a with KOZ-16a: the enemy may hold its retreat strikes; the movers
    arrive unhurt."""
    s = table("trutni", "pozorki", units={0: [("tr_wild_gilen", "0.gold_mine")],
                                          1: [("pz_archer", "0.gold_mine")]})
    s, ev = play(s, act("move", 0, **{"from": "0.gold_mine", "to": "0.crystal_mine"},
                        units=["0.tr_wild_gilen"]))
    assert "retreat_attack" in types(ev) and s["pending"] == [{"player": 1, "decision": "strike"}]
    s, ev = play(s, act("hold", 1, unit="1.pz_archer"))
    assert {"type": "strike_held", "unit": "1.pz_archer", "rule": "KOZ-25a"} in ev
    assert s["units"]["0.tr_wild_gilen"] == {**s["units"]["0.tr_wild_gilen"],
                                             "sector": "0.crystal_mine", "damage": 0}


def test_koz_25a_a_bystander_of_three_players_need_not_strike():
    """RULING KOZ-25a with KOZ-52: player 2's creature in player 0's fight with player 1
    may hold rather than hit either of them."""
    s = three(units={0: [("pz_archer", "0.gold_mine")], 1: [("tr_wild_gilen", "0.gold_mine")],
                     2: [("kz_scout", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    s, _ = play(s, act("strike", 0, unit="0.pz_archer", targets=["1.tr_wild_gilen"]))
    assert s["pending"] == [{"player": 2, "decision": "strike"}]  # the Scout, speed 4
    assert {a["type"] for a in GAME.legal_actions(s, 2)} == {"strike", "hold"}
    s, ev = play(s, act("hold", 2, unit="2.kz_scout"))
    assert {"type": "strike_held", "unit": "2.kz_scout", "rule": "KOZ-25a"} in ev


# ------------------------------------------------------------------ KOZ-41a
def hidden_sneak(active: int = 1) -> dict[Any, Any]:
    """Player 0's Sneak (speed 5) hides next to their Archer (4) and player 1's Guard (2)."""
    return table("pozorki", "kozly", active=active,
                 units={0: [("pz_sneak", "0.gold_mine", {"shadow": True}),
                            ("pz_archer", "0.gold_mine")],
                        1: [("kz_guard", "0.gold_mine")]})


def test_koz_41a_an_attack_brings_nobody_out_and_a_hidden_creature_may_stay_hidden():
    """RULING KOZ-41a: the other player's attack leaves the Sneak hidden; in its turn (by
    its speed) its controller lets it stay hidden: no part of the combat, and its
    opponent is told that some hidden creature let its turn pass, never which."""
    s = hidden_sneak()
    s, ev = play(s, act("attack", 1, sector="0.gold_mine"))
    assert "left_shadow" not in types(ev) and s["units"]["0.pz_sneak"]["shadow"]
    assert s["pending"] == [{"player": 0, "decision": "strike"}]
    assert s["combat"]["turn"] == ["0.pz_sneak"]
    assert GAME.view(s, 1)["combat"]["turn"] == ["hidden-1"]  # the card stays secret
    assert GAME.view(s, 0)["combat"]["turn"] == ["0.pz_sneak"]
    assert [a["type"] for a in GAME.legal_actions(s, 0)] == ["strike", "hold"]
    before = s
    s, ev = play(s, act("hold", 0, unit="0.pz_sneak"))
    assert {"type": "stayed_hidden", "unit": "0.pz_sneak", "rule": "KOZ-41a"} in ev
    assert {"type": "stayed_hidden", "unit": "hidden", "rule": "KOZ-41a"} in events_for(
        GAME, before, s, ev, 1)
    assert s["units"]["0.pz_sneak"]["shadow"] and "0.pz_sneak" not in s["combat"]["waiting"]
    s, _ = play(s, act("hold", 0, unit="0.pz_archer"))
    # the Guard may strike only the Archer: the Sneak is never a target (KOZ-41)
    assert [a["targets"] for a in listed(s, 1, "strike")] == [["0.pz_archer"]]


def test_koz_41a_a_hidden_creature_leaves_the_shadow_just_before_it_strikes():
    """RULING KOZ-41a: striking with it brings it out, then it strikes."""
    s = hidden_sneak()
    s, _ = play(s, act("attack", 1, sector="0.gold_mine"))
    s, ev = play(s, act("strike", 0, unit="0.pz_sneak", targets=["1.kz_guard"]))
    assert types(ev)[:2] == ["left_shadow", "strike"]
    assert ev[0] == {"type": "left_shadow", "unit": "0.pz_sneak", "rule": "KOZ-41a"}
    assert not s["units"]["0.pz_sneak"]["shadow"]


def test_koz_41a_the_declarers_own_hidden_creature_may_stay_out_of_its_attack():
    """RULING KOZ-41a: declaring an attack brings none of the declarer's creatures out
    either; a hidden creature may join a retreat attack or stay hidden."""
    s = table("pozorki", "kozly", units={0: [("pz_sneak", "0.gold_mine", {"shadow": True}),
                                             ("pz_archer", "0.gold_mine")],
                                         1: [("kz_guard", "0.gold_mine")]})
    s, ev = play(s, act("attack", 0, sector="0.gold_mine"))
    assert s["units"]["0.pz_sneak"]["shadow"] and "left_shadow" not in types(ev)
    s, ev = play(s, act("hold", 0, unit="0.pz_sneak"))
    assert "stayed_hidden" in types(ev) and s["units"]["0.pz_sneak"]["shadow"]
    # a retreat attack: the hidden Sneak may strike the leaving Guard
    s = table("kozly", "pozorki", units={0: [("kz_guard", "0.gold_mine")],
                                         1: [("pz_sneak", "0.gold_mine", {"shadow": True})]})
    s, ev = play(s, act("move", 0, **{"from": "0.gold_mine", "to": "0.crystal_mine"},
                        units=["0.kz_guard"]))
    assert "1.pz_sneak" in next(e for e in ev if e["type"] == "retreat_attack")["strikers"]
    assert s["pending"] == [{"player": 1, "decision": "strike"}]
    s, ev = play(s, act("strike", 1, unit="1.pz_sneak", targets=["0.kz_guard"]))
    assert {"type": "left_shadow", "unit": "1.pz_sneak", "rule": "KOZ-41a"} in ev


def test_koz_41a_a_view_built_state_answers_a_hidden_creatures_turn():
    """RULING KOZ-41a: the hidden creature's turn is in the state (``combat.turn``), so a
    state built from the opponent's view gives the same pending decision and answers."""
    s = hidden_sneak(active=1)
    s, _ = play(s, act("attack", 1, sector="0.gold_mine"))
    built = GAME.state_from_view(GAME.view(s, 1), 3)
    assert built["pending"] == s["pending"] == [{"player": 0, "decision": "strike"}]
    assert GAME.legal_actions(built, 1) == GAME.legal_actions(s, 1) == []
    for seed in range(3):
        again = GAME.determinize(s, 1, seed)
        assert GAME.compute_pending(again) == s["pending"]


# ------------------------------------------------------------------ KOZ-45a
def test_koz_45a_a_weapon_protected_defender_takes_an_ordinary_strike_for_0():
    """RULING KOZ-45a with KOZ-49 and KOZ-36a: the Stone Goat cannot be chosen by the
    Bouncer, but as the garrison's Defender it takes the strike on the capital, worked out
    against the Goat: 0 damage."""
    s = table("zhloby", "kozly", units={0: [("zh_bouncer", "cap1")],
                                        1: [("kz_stone_goat", "cap1")]})
    s, _ = play(s, act("attack", 0, sector="1.kz_capital"))
    assert [a["targets"] for a in listed(s, 0, "strike")] == [["1.kz_capital"]]
    s, _ = play(s, act("strike", 0, unit="0.zh_bouncer", targets=["1.kz_capital"]))
    assert listed(s, 1, "defend") == [act("defend", 1, unit="1.kz_stone_goat")]
    s, ev = play(s, act("defend", 1, unit="1.kz_stone_goat"))
    assert {"type": "damage", "target": "1.kz_stone_goat", "amount": 0,
            "source": "0.zh_bouncer"} in ev
    assert s["players"][1]["capital_damage"] == 0


def test_koz_45a_flying_does_not_stop_a_defender_and_its_armor_counts():
    """RULING KOZ-45a: the Bumblebee flies out of the Bouncer's reach, yet takes the
    strike on its capital (2 damage: it dies); the Old Billy's own Armor 1 takes 1 off a
    strike meant for the Healer."""
    s = table("zhloby", "trutni", units={0: [("zh_bouncer", "cap1")],
                                         1: [("tr_bumblebee", "cap1")]})
    s, _ = play(s, act("attack", 0, sector="1.tr_capital"))
    s, _ = play(s, act("hold", 1, unit="1.tr_bumblebee"))  # speed 6: it comes first
    s, _ = play(s, act("strike", 0, unit="0.zh_bouncer", targets=["1.tr_capital"]))
    s, ev = play(s, act("defend", 1, unit="1.tr_bumblebee"))
    assert {"type": "died", "card": "1.tr_bumblebee"} in ev
    s = table("zhloby", "kozly", units={0: [("zh_bouncer", "0.gold_mine")],
                                        1: [("kz_hero", "0.gold_mine"),
                                            ("kz_healer", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    s, _ = play(s, act("strike", 0, unit="0.zh_bouncer", targets=["1.kz_healer"]))
    s, ev = play(s, act("defend", 1, unit="1.kz_hero"))
    assert {"type": "damage", "target": "1.kz_hero", "amount": 1, "source": "0.zh_bouncer"} in ev
    assert s["units"]["1.kz_healer"]["damage"] == 0


def test_koz_45a_the_shadow_does_not_stop_a_defender():
    """RULING KOZ-45a: a Guard in the shadow may take the strike meant for its ally; it
    acts, so it leaves the shadow first (KOZ-41)."""
    s = table("zhloby", "kozly", units={0: [("zh_bouncer", "0.gold_mine")],
                                        1: [("kz_guard", "0.gold_mine", {"shadow": True}),
                                            ("kz_healer", "0.gold_mine")]})
    s, _ = play(s, act("attack", 0, sector="0.gold_mine"))
    s, _ = play(s, act("strike", 0, unit="0.zh_bouncer", targets=["1.kz_healer"]))
    assert listed(s, 1, "defend") == [act("defend", 1, unit="1.kz_guard")]
    s, ev = play(s, act("defend", 1, unit="1.kz_guard"))
    assert types(ev)[:3] == ["left_shadow", "defended", "damage"]
    assert ev[0]["rule"] == "KOZ-45a" and s["units"]["1.kz_guard"]["damage"] == 2


# ------------------------------------------------------------------ KOZ-53a
def test_koz_53a_the_last_player_to_fall_is_out_like_any_other():
    """RULING KOZ-53a: the loser of the final capture is out, their cards leave the
    table, and the score gives their capital 0 like an earlier loser's."""
    s = table("zhloby", "kozly", active=1, units={0: [("zh_brute", "cap1")],
                                                  1: [("kz_scout", "0.gold_mine")]},
              buildings={1: ["kz_altar"]})
    s, ev = play(s, act("skip", 1))
    assert s["result"] == {"finished": True, "winners": [0], "reason": "capture"}
    assert {"type": "player_out", "player": 1, "reason": "capture", "rule": "KOZ-53"} in ev
    assert s["players"][1]["out"]
    assert not any(d["owner"] == 1 for d in [*s["units"].values(), *s["buildings"].values()])
    assert {"1.kz_scout", "1.kz_altar"} <= set(s["players"][1]["discard"])
    rows = {r["player"]: r for r in GAME.score(s)["scores"]}
    assert rows[1]["breakdown"]["capital_life"] == 0 and rows[1]["total"] == 0
    # a fallen capital is an ordinary sector: control follows KOZ-11
    assert s["sectors"]["1.kz_capital"]["controller"] == 0


def test_koz_53a_a_fallen_capital_is_an_ordinary_sector_of_nobodys():
    """RULING KOZ-53a: after player 1 is out, their capital can be played into (not
    "an opponent's capital", KOZ-17), moved into straight from another capital (KOZ-16a),
    neither struck nor captured, gives no production, and is held by KOZ-11."""
    s = three(units={0: [("pz_archer", "cap1")], 2: [("kz_scout", "2.gold_mine")]},
              hands={0: ["pz_sneak"]}, active=2)
    s, _ = play(s, act("skip", 2))  # player 0's turn: player 1's capital is captured
    assert s["players"][1]["out"] and s["result"] is None
    assert s["sectors"]["1.tr_capital"]["controller"] == 0  # the Archer stands there
    prod = GAME.view(s, 0)["derived"]["production"][0]
    assert prod == GAME.view(table("pozorki", "trutni"), 0)["derived"]["production"][0]
    assert GAME.score(s)["scores"][0]["breakdown"]["sectors"] == 1
    plays = [a["sector"] for a in listed(s, 0, "play_card") if a["card"] == "0.pz_sneak"]
    assert "1.tr_capital" in plays
    assert "1.tr_capital" not in [a["sector"] for a in listed(s, 0, "attack")]
    assert GAME.check(s, act("move", 0, **{"from": "1.tr_capital", "to": "2.kz_capital"},
                             units=["0.pz_archer"]))["legal"]  # no longer capital to capital
    s, _ = play(s, act("move", 0, **{"from": "1.tr_capital", "to": "0.gold_mine"},
                       units=["0.pz_archer"]))
    assert s["sectors"]["1.tr_capital"]["controller"] == 0  # control stays (KOZ-11)
    # the kozly Scout walks in: player 2 holds it now
    s, _ = play(s, act("move", 2, **{"from": "2.gold_mine", "to": "1.tr_capital"},
                       units=["2.kz_scout"]))
    assert s["sectors"]["1.tr_capital"]["controller"] == 2


def test_koz_53a_an_out_players_action_cites_koz_53():
    """RULING KOZ-53a: whatever a player who is out sends is refused under KOZ-53."""
    s = three(units={0: [("pz_archer", "cap1")]}, active=2)
    s, _ = play(s, act("skip", 2))
    for action in (act("skip", 1), act("draw", 1), act("hold", 1, unit="x")):
        verdict = GAME.check(s, action)
        assert verdict["legal"] is False and verdict["rule"] == "KOZ-53", verdict
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("skip", 1))
    assert exc.value.rule == "KOZ-53"


# ------------------------------------------------------------------ loose ends
def test_koz_48_and_koz_49_capital_events_share_one_shape():
    """KOZ-48/KOZ-49: `player` is the player whose capital fell, `capital` that capital,
    `by` the capturer or destroyer, in both events."""
    s = three(units={0: [("pz_archer", "cap1")]}, active=2)
    _, ev = play(s, act("skip", 2))
    assert {"type": "capital_captured", "player": 1, "capital": "1.tr_capital", "by": 0,
            "rule": "KOZ-48"} in ev
    s = three(units={0: [("pz_swordsman", "cap2")]}, capital_damage={2: 11})
    s, _ = play(s, act("attack", 0, sector="2.kz_capital"))
    _, ev = play(s, act("strike", 0, unit="0.pz_swordsman", targets=["2.kz_capital"]))
    assert {"type": "capital_destroyed", "player": 2, "capital": "2.kz_capital", "by": 0,
            "rule": "KOZ-49"} in ev


def test_koz_51_a_seat_not_in_the_game_is_one_answer_everywhere(client):
    """RULING KOZ-51: `player: 3` in a 3-player game is one answer naming the field on
    `apply`, `check`, `view`, `legal-actions` and `for_player` alike (422 `no-such-seat`:
    only the state knows its seats), never a rule."""
    s = three()
    with pytest.raises(MalformedInput) as exc:
        GAME.apply(s, act("skip", 3))
    assert list(exc.value.errors) == ["action.player"]
    with pytest.raises(MalformedInput):
        GAME.check(s, act("skip", 3))
    with pytest.raises(MalformedInput):
        GAME.view(s, 3)
    base = "/v1/games/kozyablo"
    for path, body, field in (
            ("/apply", {"state": s, "action": act("skip", 3)}, "action.player"),
            ("/check", {"state": s, "action": act("skip", 3)}, "action.player"),
            ("/view", {"state": s, "player": 3}, "player"),
            ("/legal-actions", {"state": s, "player": 3}, "player"),
            ("/apply", {"state": s, "action": act("skip", 0), "for_player": 3}, "for_player")):
        r = client.post(base + path, json=body)
        assert r.status_code == 422 and r.get_json()["type"] == "/problems/no-such-seat", \
            (path, r.get_json())
        assert r.get_json()["errors"] == {field: ["no seat 3: this game has seats 0 to 2"]}


def test_koz_16_the_free_abilities_limit_is_card_data(tmp_path, monkeypatch):
    """KOZ-16: each free ability's uses a turn come from its card (`per_turn`, 1 when
    absent: the reference cards' «раз в ход»); `per_turn: null` is no limit, refused at
    load when the effect would never run out (a heal), kept when it must (damage)."""
    ref = Catalogue.of(card_db.get("kozyablo"))
    assert spent({"used": ["0.pz_watchtower:volley"]}, ref, "0.pz_watchtower", "volley")
    raw = yaml.safe_load(open(card_db.get("kozyablo").path, encoding="utf-8"))
    house = copy.deepcopy(raw)
    for card in house["cards"]:
        if card["id"] == "pz_watchtower":
            card["activated"][0]["per_turn"] = 2
        if card["id"] == "kz_healer":
            card["activated"][0]["per_turn"] = None  # a heal without a limit
    (tmp_path / "kozyablo").mkdir()
    monkeypatch.setenv("CARD_DB_PATH", str(tmp_path))
    try:
        (tmp_path / "kozyablo" / "house.yaml").write_text(
            yaml.safe_dump(house, allow_unicode=True))
        card_db.clear_cache()
        with pytest.raises(card_db.CardDataError) as exc:
            card_db.get("kozyablo", "house")
        assert "per_turn" in str(exc.value) and "never end" in str(exc.value)
        for card in house["cards"]:
            if card["id"] == "kz_healer":
                card["activated"][0]["per_turn"] = 1
        (tmp_path / "kozyablo" / "house.yaml").write_text(
            yaml.safe_dump(house, allow_unicode=True))
        card_db.clear_cache()
        cat = Catalogue.of(card_db.get("kozyablo", "house"))
        once = {"used": ["0.pz_watchtower:volley"]}
        assert not spent(once, cat, "0.pz_watchtower", "volley")
        assert spent({"used": ["0.pz_watchtower:volley"] * 2}, cat, "0.pz_watchtower", "volley")
    finally:
        monkeypatch.delenv("CARD_DB_PATH")
        card_db.clear_cache()


def test_koz_16_a_free_damage_ability_may_go_without_a_limit():
    """KOZ-16: `per_turn: null` on damage to an enemy creature loads (it runs out)."""
    from service.games.kozyablo.card_schema import ActivatedSchema
    loaded = ActivatedSchema().load({"name": "volley", "mark": "free", "per_turn": None,
                                     "effect": {"kind": "damage", "target": "enemy_creature",
                                                "amount": 1}})
    assert loaded["per_turn"] is None
    assert ActivatedSchema().load({"name": "volley", "mark": "free", "effect": {
        "kind": "damage", "target": "enemy_creature", "amount": 1}})["per_turn"] == 1


def test_koz_41a_and_koz_25a_the_greedy_bot_weighs_a_strike_against_staying_hidden():
    """RULINGS KOZ-25a/KOZ-41a in the bots' heuristic: a hidden creature of ours is worth
    a little (nothing can strike it), less than a wound dealt, so the greedy bot strikes
    with the hidden Sneak when the strike wounds."""
    import random

    from service.games.bots import GreedyBot
    s = hidden_sneak()
    s, _ = play(s, act("attack", 1, sector="0.gold_mine"))
    assert GreedyBot().choose(GAME, s, 0, random.Random(1))["type"] == "strike"
    shown = copy.deepcopy(s)
    shown["units"]["0.pz_sneak"]["shadow"] = False
    del shown["units"]["0.pz_sneak"]["shadow_number"]
    assert GAME.position_value(s, 0) > GAME.position_value(shown, 0)


def test_koz_41a_a_state_naming_a_wrong_turn_is_refused():
    """RULING KOZ-41a: `combat.turn` names waiting strikers of one player in the sector."""
    from service.games.errors import InvalidState
    s = hidden_sneak()
    s, _ = play(s, act("attack", 1, sector="0.gold_mine"))
    for wrong in (["1.kz_guard", "0.pz_archer"], ["0.nobody"]):
        bad = copy.deepcopy(s)
        bad["combat"]["turn"] = wrong
        with pytest.raises(InvalidState) as exc:
            GAME.validate_state(bad)
        assert "state.combat.turn" in exc.value.errors


def test_koz_25a_41a_53a_in_playouts_for_two_to_four_players():
    """RULINGS KOZ-25a, KOZ-41a and KOZ-53a in seeded playouts of 2, 3 and 4 players
    (a bot that hides and keeps hidden, and the random bot): strikes are held, hidden
    creatures stay hidden, and a game won by a capital's fall leaves every loser out,
    with nothing on the table and 0 capital life."""
    import random
    from collections import Counter

    from service.games.playout import RandomBot, choose_chance, next_actor
    from tests.kozyablo.hidden_positions import ShadowBot

    seen: Counter = Counter()
    fell = 0
    for n in (2, 3, 4):
        for k in range(6):
            state, _ = GAME.new_game(n, {"turn_limit": 80}, seed=100 * n + k)
            rng, bots = random.Random(k), (ShadowBot(), RandomBot())
            while state["result"] is None:
                who = next_actor(state, rng)
                action = choose_chance(GAME, state, rng) if who == "chance" else \
                    bots[who % 2].choose(GAME, state, who, rng)
                state, events = GAME.apply(state, action)
                seen.update((n, e["type"]) for e in events)
            GAME.validate_state(state)
            if state["result"]["reason"] in ("capture", "destruction"):
                fell += 1
                losers = [s for s in range(n) if s not in state["result"]["winners"]]
                assert all(state["players"][s]["out"] for s in losers)
                assert not any(d["owner"] in losers
                               for d in [*state["units"].values(), *state["buildings"].values()])
                rows = GAME.score(state)["scores"]
                assert all(rows[s]["breakdown"]["capital_life"] == 0 for s in losers)
    assert fell > 3
    for n in (2, 3, 4):
        assert seen[(n, "strike_held")] > 0, n
    assert sum(seen[(n, "stayed_hidden")] for n in (2, 3, 4)) > 0, seen
