"""Three and four players (RULINGS KOZ-51, KOZ-52, KOZ-53)."""

from __future__ import annotations

from typing import Any

import pytest

from service.games.errors import RuleViolation
from service.games.kozyablo import GAME
from service.games.kozyablo.state_types import KozyabloState

from .builder import act, listed, play, table, types


def three(**kw: Any) -> KozyabloState:
    """pozorki (0), trutni (1), kozly (2); player 0 to act unless ``active`` says."""
    return table("pozorki", "trutni", more=("kozly",), **kw)


# ------------------------------------------------------------------ KOZ-51
def test_koz_51_turn_order_by_race_lots_only_within_a_race():
    """RULING KOZ-51 with KOZ-10: 3-4 players sit in race order; a lot orders only the
    players of one race, one place at a time, and the last of a race needs none."""
    state, _ = GAME.new_game([{"race": "zhloby"}, {"race": "kozly"}, {"race": "pozorki"},
                              {"race": "trutni"}], {"chance": "table"}, seed=5)
    assert state["order"] == [2, 3, 1, 0] and state["pending"][0]["decision"] == "reveal"
    state, _ = GAME.new_game([{"race": "kozly"}, {"race": "pozorki"}, {"race": "kozly"},
                              {"race": "kozly"}], {"chance": "table"}, seed=5)
    assert state["order"] == [1]
    lots = GAME.legal_actions(state)
    assert [a["first"] for a in lots] == [0, 2, 3]
    state, ev = GAME.apply(state, {"type": "lot", "player": "chance", "first": 3})
    assert state["order"] == [1, 3] and ev[0]["rule"] == "KOZ-10"
    assert [a["first"] for a in GAME.legal_actions(state)] == [0, 2]
    state, _ = GAME.apply(state, {"type": "lot", "player": "chance", "first": 0})
    assert state["order"] == [1, 3, 0, 2]
    assert state["pending"] == [{"player": "chance", "decision": "reveal", "seat": 0}]


def test_koz_51_every_other_player_is_an_opponent():
    """RULING KOZ-51: "opponent" is every other player — a third player's creature
    blocks creature plays into its sector (KOZ-17), with no alliances."""
    s = three(hands={0: ["pz_archer"]}, units={2: [("kz_scout", "1.gold_mine")]})
    sectors = {a["sector"] for a in listed(s, 0, "play_card") if a["card"] == "0.pz_archer"}
    assert "1.gold_mine" not in sectors and "0.gold_mine" in sectors
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("play_card", 0, card="0.pz_archer", sector="1.gold_mine"))
    assert exc.value.rule == "KOZ-17"


def test_koz_51_a_squad_or_capital_card_names_whose():
    """RULING KOZ-51: with several opponents, a card aimed at an enemy squad names whose
    squad (``squad``) and reaches only it; an enemy-capital card names the capital."""
    s = table("trutni", "pozorki", more=("kozly",), hands={0: ["tr_swarm"]},
              units={0: [("tr_grub", "0.gold_mine")],
                     1: [("pz_archer", "1.gold_mine")], 2: [("kz_scout", "1.gold_mine")]},
              control={"0.energy_source": 0})
    choices = [{k: a[k] for k in ("sector", "squad")} for a in listed(s, 0, "play_card")
               if a["card"] == "0.tr_swarm"]
    assert choices == [{"sector": "1.gold_mine", "squad": 1}, {"sector": "1.gold_mine", "squad": 2}]
    s, _ = play(s, act("play_card", 0, card="0.tr_swarm", sector="1.gold_mine", squad=2))
    assert "1.pz_archer" in s["units"] and s["units"]["2.kz_scout"]["damage"] == 1


# ------------------------------------------------------------------ KOZ-52
def test_koz_52_combat_takes_in_every_player_there():
    """RULING KOZ-52: every creature in the sector fights; a striker picks among the cards
    of all other players; equal speed: the declarer's first, then turn order after."""
    s = three(units={0: [("pz_swordsman", "0.gold_mine")],
                     1: [("tr_blood_wasp", "0.gold_mine"), ("tr_wild_gilen", "0.gold_mine")],
                     2: [("kz_healer", "0.gold_mine"), ("kz_scout", "0.gold_mine")]},
              active=1)
    s, _ = play(s, act("attack", 1, sector="0.gold_mine"))
    # the Healer's free ability gives player 2 a window; player 0 has none (KOZ-16)
    assert s["pending"] == [{"player": 2, "decision": "response"}]
    s, ev = play(s, act("pass", 2))
    started = next(e for e in ev if e["type"] == "combat_started")
    assert set(started["fighters"]) == {"0.pz_swordsman", "1.tr_blood_wasp", "1.tr_wild_gilen",
                                      "2.kz_healer", "2.kz_scout"}
    assert s["pending"] == [{"player": 1, "decision": "strike"}]  # the Wasp, speed 5
    targets = {t for a in listed(s, 1, "strike") for t in a["targets"]}
    assert targets == {"0.pz_swordsman", "2.kz_healer", "2.kz_scout"}
    s, _ = play(s, act("strike", 1, unit="1.tr_blood_wasp", targets=["2.kz_scout"]))
    # speed 3: the Swordsman (player 0) and the Healer (player 2); the declarer (1) has
    # none, so player 2 (next after the declarer) before player 0
    assert s["pending"] == [{"player": 2, "decision": "strike"}]
    assert {a["unit"] for a in listed(s, 2, "strike")} == {"2.kz_healer"}
    s, _ = play(s, act("strike", 2, unit="2.kz_healer", targets=["0.pz_swordsman"]))
    assert s["pending"] == [{"player": 0, "decision": "strike"}]


def test_koz_52_response_windows_go_round_in_turn_order():
    """RULING KOZ-52 with KOZ-16: every other player gets the window, in turn order after
    the active one; the action is carried out after the last."""
    s = three(hands={0: ["pz_archer"]}, options={"response_window": "always"}, active=0)
    s, ev = play(s, act("play_card", 0, card="0.pz_archer", sector="0.gold_mine"))
    assert types(ev) == ["action_declared"]
    assert s["pending"] == [{"player": 1, "decision": "response"}] and s["responder"] == 1
    s, ev = play(s, act("pass", 1))
    assert types(ev) == ["passed"] and s["pending"] == [{"player": 2, "decision": "response"}]
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, act("pass", 1))
    assert exc.value.rule == "KOZ-16"
    s, ev = play(s, act("pass", 2))
    assert types(ev)[:3] == ["passed", "window_closed", "card_played"]
    assert s["responder"] is None and s["active"] == 1


def test_koz_52_retreat_attack_by_every_other_player():
    """RULING KOZ-52 with KOZ-16a: leaving a sector, the mover is struck by the creatures
    of every other player there, in turn order after the leaving one at equal speed."""
    s = three(units={0: [("pz_swordsman", "0.gold_mine")],
                     1: [("tr_wild_gilen", "0.gold_mine")], 2: [("kz_guard", "0.gold_mine")]})
    s, ev = play(s, act("move", 0, **{"from": "0.gold_mine", "to": "0.crystal_mine"},
                        units=["0.pz_swordsman"]))
    retreat = next(e for e in ev if e["type"] == "retreat_attack")
    assert retreat["strikers"] == ["1.tr_wild_gilen", "2.kz_guard"]
    assert s["pending"] == [{"player": 1, "decision": "strike"}]  # speed 2 both: 1 first
    assert [a["targets"] for a in listed(s, 1, "strike")] == [["0.pz_swordsman"]]
    s, _ = play(s, act("strike", 1, unit="1.tr_wild_gilen", targets=["0.pz_swordsman"]))
    assert "0.pz_swordsman" not in s["units"] and s["active"] == 1


# ------------------------------------------------------------------ KOZ-53
def test_koz_53_a_captured_player_is_out_and_the_others_play_on():
    """RULING KOZ-53 with KOZ-48: player 1's capital is captured: their cards leave the
    table for their discard, their sectors turn neutral, they take no more turns."""
    s = three(units={0: [("pz_archer", "cap1")], 1: [("tr_grub", "1.gold_mine")],
                     2: [("kz_scout", "2.gold_mine")]},
              buildings={1: ["tr_hatchery"]}, active=2)
    assert s["sectors"]["1.gold_mine"]["controller"] == 1
    s, ev = play(s, act("skip", 2))  # player 0's turn: the capture
    assert {"type": "capital_captured", "player": 1, "capital": "1.tr_capital", "by": 0,
            "rule": "KOZ-48"} in ev
    assert {"type": "player_out", "player": 1, "reason": "capture", "rule": "KOZ-53"} in ev
    assert s["result"] is None and s["players"][1]["out"]
    assert not any(d["owner"] == 1 for d in [*s["units"].values(), *s["buildings"].values()])
    assert {"1.tr_grub", "1.tr_hatchery"} <= set(s["players"][1]["discard"])
    assert s["sectors"]["1.gold_mine"]["controller"] is None
    s, _ = play(s, act("skip", 0))
    assert s["active"] == 2  # player 1 is skipped
    s, _ = play(s, act("skip", 2))
    assert s["active"] == 0
    assert "1.tr_capital" not in [a["sector"] for a in listed(s, 0, "attack")]


def test_koz_53_the_last_player_left_wins():
    """RULING KOZ-53: the capture that leaves one player ends the game: they win."""
    s = three(units={0: [("pz_archer", "cap1"), ("pz_sneak", "cap2")]}, active=2)
    s, ev = play(s, act("skip", 2))
    assert s["result"] == {"finished": True, "winners": [0], "reason": "capture"}
    # RULING KOZ-53a: the last to fall is out like any other
    assert [e["type"] for e in ev if e["type"] in ("capital_captured", "player_out")] == [
        "capital_captured", "player_out", "capital_captured", "player_out"]


def test_koz_53_turn_limit_winner_among_players_still_in():
    """RULING KOZ-53 with KOZ-50: at the turn limit only players still in can win."""
    s = three(units={0: [("pz_archer", "cap1")]}, capital_damage={0: 3, 2: 1}, active=2,
              options={"turn_limit": 2})
    s, _ = play(s, act("skip", 2))
    assert s["players"][1]["out"] and s["players"][1]["capital_damage"] == 0
    s, _ = play(s, act("skip", 0))
    assert s["result"] == {"finished": True, "winners": [2], "reason": "turn_limit"}


def test_koz_53_a_destroyed_capital_puts_its_player_out():
    """RULING KOZ-53 with KOZ-49: 12 damage on player 2's capital in a 3-player game:
    player 2 is out, the game goes on between players 0 and 1."""
    s = three(units={0: [("pz_swordsman", "cap2")]}, capital_damage={2: 11})
    s, _ = play(s, act("attack", 0, sector="2.kz_capital"))
    s, ev = play(s, act("strike", 0, unit="0.pz_swordsman", targets=["2.kz_capital"]))
    assert {"type": "capital_destroyed", "player": 2, "capital": "2.kz_capital", "by": 0,
            "rule": "KOZ-49"} in ev
    assert {"type": "damage", "target": "2.kz_capital", "amount": 1,
            "source": "0.pz_swordsman"} in ev  # no overkill
    assert s["players"][2]["out"] and s["result"] is None and s["active"] == 1


def test_koz_51_an_ability_takes_no_squad():
    """RULING KOZ-51 with KOZ-16: only cards name whose squad; an ability, which reaches
    its own sector, refuses `squad` with KOZ-16 instead of ignoring it."""
    s = table("pozorki", "trutni", more=("kozly",), buildings={0: ["pz_watchtower"]},
              units={1: [("tr_grub", "cap0")]})
    use = next(a for a in listed(s, 0, "use_ability") if a["ability"] == "volley")
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(s, {**use, "squad": 1})
    assert exc.value.rule == "KOZ-16"
