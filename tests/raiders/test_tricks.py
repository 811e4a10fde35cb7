"""Tricks: from the hand, timing, targets, expiry, no mere discards, disputes
(RAI-22 … RAI-25, RAI-28 … RAI-30)."""

from __future__ import annotations

import pathlib

import pytest
import yaml

import card_db
from service.games.errors import RuleViolation
from service.games.raiders import GAME
from service.games.raiders.cards import Catalogue
from service.games.raiders.power import current_power
from service.games.raiders.state_types import RaidersState
from service.games.raiders.tricks import change_problem

from .builder import act, pass_all, play, table, types


def _power(state: RaidersState, card: str) -> int:
    return current_power(state, Catalogue.of_state(state), card)


def test_rai_22_tricks_come_from_the_hand_and_go_to_the_discard():
    """RAI-22: tricks come from the hand and go to the discard."""
    state = table(hands={0: ["S-K", "S-9", "H-6"]}, centre=["kiosk"], holdings={0: {"club": "S-J"}})
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("play_trick", 0, card="S-7", target="S-J"))
    assert exc.value.rule == "RAI-22"
    state, _ = play(state, act("capture", 0, fighter="S-K", property="kiosk"))
    # Boar: costs another card from the hand
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("play_trick", 0, card="S-9", target="S-K"))
    assert exc.value.rule == "RAI-22a" and "cost_card" in exc.value.reason
    after, events = play(state, act("play_trick", 0, card="S-9", target="S-K", cost_card="H-6"))
    assert after["players"][0]["hand"] == []
    assert after["discard"][-2:] == ["S-9", "H-6"] and _power(after, "S-K") == 11
    # a card played as a trick is not a fighter in that capture
    assert after["capture"] is not None and after["players"] is not None
    assert after["capture"]["fighter"] == "S-K" and "S-9" not in after["players"][0]["holdings"]


def test_rai_23_timing_limits_are_honoured():
    """RAI-23: timing limits are honoured."""
    # Trip is capture_only: not outside a capture
    state = table(hands={0: ["S-6"]}, holdings={0: {"club": "S-J"}, 1: {"kiosk": "H-9"}})
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("play_trick", 0, card="S-6", target="S-J"))
    assert exc.value.rule == "RAI-23"
    # Reinforcements is own_turn: not in someone else's capture window
    state = table(hands={0: ["S-K"], 1: ["H-10", "H-7"]}, centre=["kiosk"],
                  holdings={1: {"club": "H-9"}})
    state, _ = play(state, act("capture", 0, fighter="S-K", property="kiosk"), act("pass", 0))
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("play_trick", 1, card="H-10"))
    assert exc.value.rule == "RAI-23"
    # but an "any" trick (Roll back) is fine for the other player in the window
    after, _ = play(state, act("play_trick", 1, card="H-7", target="H-9"))
    assert "H-9" in after["players"][1]["hand"]
    # and in your own turn Reinforcements draws 2 (chance nodes)
    own = table(hands={0: ["S-10"]}, centre=["kiosk"])
    after, events = play(own, act("play_trick", 0, card="S-10"))
    assert types(events).count("drew") == 2 and len(after["players"][0]["hand"]) == 2


def test_rai_24_turncoat_takes_only_a_guard_never_the_attacker():
    """RAI-24: turncoat takes only a guard never the attacker."""
    state = table(hands={0: ["S-K", "C-Q"], 1: []}, holdings={1: {"club": "C-9"}},
                  centre=["kiosk"], trump="H")
    # outside a capture: the same-suit guard (and its property) becomes ours
    after, events = play(state, act("play_trick", 0, card="C-Q", target="C-9"))
    assert after["players"][0]["holdings"] == {"club": "C-9"}
    assert after["players"][1]["holdings"] == {}
    # during our capture the attacker is never a "guarding fighter"
    state = table(hands={0: ["C-K", "C-Q"]}, centre=["kiosk"], trump="H")
    state, _ = play(state, act("capture", 0, fighter="C-K", property="kiosk"))
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("play_trick", 0, card="C-Q", target="C-K"))
    assert exc.value.rule == "RAI-24" and "guards" in exc.value.reason


def test_rai_24_same_suit_tricks_and_the_trump_ace_reaching_every_suit():
    """RAI-24: same suit tricks and the trump ace reaching every suit."""
    state = table(hands={0: ["S-A", "H-A"]}, holdings={1: {"club": "D-9", "kiosk": "S-9"}},
                  trump="H")
    listed = {(a["card"], a["target"]) for a in GAME.legal_actions(state, 0)
              if a["type"] == "play_trick"}
    assert ("S-A", "S-9") in listed and ("S-A", "D-9") not in listed
    assert ("H-A", "D-9") in listed and ("H-A", "S-9") in listed  # trump ace
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("play_trick", 0, card="S-A", target="D-9"))
    assert exc.value.rule == "RAI-24" and "suit" in exc.value.reason
    after, events = play(state, act("play_trick", 0, card="H-A", target="D-9"))
    assert "D-9" in after["discard"] and after["centre"] == ["club"]


def test_rai_25_modifiers_expire_with_the_capture_or_the_turn():
    """RAI-25: modifiers expire with the capture or the turn."""
    # RULING: a change made outside a capture (here already on the table) lasts the turn
    state = table(hands={0: ["S-K", "S-8"]}, centre=["kiosk"], holdings={0: {"club": "S-J"}},
                  modifiers=[{"card": "S-J", "amount": 3, "until": "turn"}])
    assert _power(state, "S-J") == 9
    # inside a capture: Pump up on the attacker lasts until the capture ends
    state, _ = play(state, act("capture", 0, fighter="S-K", property="kiosk"),
                    act("play_trick", 0, card="S-8", target="S-K"))
    assert _power(state, "S-K") == 10 and state["modifiers"][-1]["until"] == "capture"
    state, events = pass_all(state)
    assert _power(state, "S-K") == 8 and _power(state, "S-J") == 9
    state, events = play(state, act("end_turn", 0))
    assert _power(state, "S-J") == 6 and state["modifiers"] == []
    assert "modifiers_expired" in types(events)


@pytest.fixture
def bribe_any_time(tmp_path, monkeypatch):
    """The reference set with "Bribe" (D-6) playable at any time on any guard:
    a power change outside a capture can then matter (RAI-25, RAI-28)."""
    source = pathlib.Path(card_db.__file__).parent / "raiders" / "reference.yaml"
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    data["meta"]["id"] = "bribe_any_time"
    bribe = next(f for f in data["fighters"] if f["id"] == "D-6")["trick"]
    bribe.update(timing="any", target="guarding_fighter")
    (tmp_path / "raiders").mkdir()
    (tmp_path / "raiders" / "bribe_any_time.yaml").write_text(
        yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    monkeypatch.setenv("CARD_DB_PATH", str(tmp_path))
    card_db.clear_cache()
    yield card_db.get("raiders", "bribe_any_time").ref()
    card_db.clear_cache()


def test_rai_25_a_change_outside_a_capture_lasts_the_turn_and_counts_in_its_capture(
        bribe_any_time):
    """RAI-25 (RULING): a power change made outside a capture lasts until the end of
    the turn, so it still counts in that turn's capture; RAI-28: it must be able to."""
    state: RaidersState = {**table(hands={0: ["D-6", "D-7", "S-10"]}, trump="H", centre=["kiosk"],
                     holdings={0: {"club": "D-9"}, 1: {"market": "H-9"}}),
             "card_set": bribe_any_time}
    # on our own guard it could never fight this turn: only a discard (RAI-28)
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("play_trick", 0, card="D-6", target="D-9"))
    assert exc.value.rule == "RAI-28" and "only discard" in exc.value.reason
    after, events = play(state, act("play_trick", 0, card="D-6", target="H-9"))
    assert after["modifiers"] == [{"card": "H-9", "amount": -3, "until": "turn"}]
    assert _power(after, "H-9") == 1
    won, events = pass_all(play(after, act("capture", 0, fighter="S-10", property="market"))[0])
    assert [e for e in events if e["type"] == "combat"][0]["guard_power"] == 1
    assert won["players"][0]["holdings"] == {"club": "D-9", "market": "S-10"}
    # unused, it expires with the turn
    ended, events = play(after, act("end_turn", 0))
    assert ended["modifiers"] == [] and "modifiers_expired" in types(events)
    # once the turn's capture attempt is spent, no guard can fight again this turn
    spent: RaidersState = {**state, "capture_used": True}
    assert GAME.check(spent, act("play_trick", 0, card="D-6", target="H-9"))["rule"] == "RAI-28"


def test_rai_28_no_trick_only_to_discard():
    """RAI-28: no trick only to discard."""
    # Boar needs a fighter of yours in play to pump: none -> not listed, refused
    state = table(hands={0: ["S-9", "H-6"]}, centre=["kiosk"])
    assert not any(a["type"] == "play_trick" for a in GAME.legal_actions(state, 0))
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("play_trick", 0, card="S-9", cost_card="H-6"))
    assert exc.value.rule == "RAI-28" and "only discard" in exc.value.reason
    # Reinforcements with no fighter card left anywhere changes nothing
    rest = [f["id"] for f in GAME.card_set().data["fighters"] if f["id"] not in ("S-10", "S-K")]
    state = table(hands={0: ["S-10"], 1: rest}, holdings={0: {"club": "S-K"}},
                  fighter_deck=[], bottom=False, centre=[])
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("play_trick", 0, card="S-10"))
    assert exc.value.rule == "RAI-28"
    # Turncoat on a guard that is already yours: its data says "not_own" (RAI-24),
    # and without that filter it would change nothing (RAI-28)
    state = table(hands={0: ["S-Q"]}, holdings={0: {"club": "S-9"}}, centre=["kiosk"])
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("play_trick", 0, card="S-Q", target="S-9"))
    assert exc.value.rule == "RAI-24" and "another player" in exc.value.reason
    assert not any(a["type"] == "play_trick" for a in GAME.legal_actions(state, 0))
    turncoat = Catalogue.of_state(state).fighter("S-Q")["trick"]
    assert turncoat is not None
    assert "already yours" in (change_problem(state, 0, turncoat, "S-9") or "")
    # Boar ("discard any card from your hand: ...") only to get rid of a card: the
    # original's own example.  On your guard in your own turn, or on a fighter that
    # is not in the capture, the +3 expires before any fight (RAI-25)
    state = table(hands={0: ["S-9", "H-6", "S-K"]}, centre=["kiosk"],
                  holdings={0: {"club": "S-J"}})
    boar = act("play_trick", 0, card="S-9", target="S-J", cost_card="H-6")
    assert GAME.check(state, boar)["rule"] == "RAI-28"
    assert not any(a["type"] == "play_trick" for a in GAME.legal_actions(state, 0))
    state, _ = play(state, act("capture", 0, fighter="S-K", property="kiosk"))
    assert GAME.check(state, boar)["rule"] == "RAI-28"
    assert GAME.check(state, {**boar, "target": "S-K"}) == {"legal": True}


def test_rai_29_a_play_that_stood_is_not_undone_later():
    """RAI-29: a play that stood is not undone later."""
    # fizzle mode: a fizzled card stays discarded; later actions never revisit it
    state = table(hands={0: ["S-6", "S-K"]}, centre=["kiosk"],
                  options={"illegal_play": "fizzle"})
    state, events = play(state, act("play_trick", 0, card="S-6", target="S-K"))
    assert "fizzled" in types(events)
    state, events = play(state, act("capture", 0, fighter="S-K", property="kiosk"))
    state, events = pass_all(state)
    state, events = play(state, act("end_turn", 0))
    assert "S-6" in state["discard"] and state["players"][0]["holdings"] == {"kiosk": "S-K"}
    GAME.validate_state(state)  # the state stands as it is


def test_rai_30_reject_mode_refuses_and_changes_nothing():
    """RAI-30: reject mode refuses and changes nothing."""
    state = table(hands={0: ["S-6", "S-K"]}, centre=["kiosk"])
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("play_trick", 0, card="S-6", target="S-K"))
    assert exc.value.rule == "RAI-23"
    assert GAME.check(state, act("play_trick", 0, card="S-6", target="S-K"))["legal"] is False


def test_rai_30_fizzle_mode_discards_a_card_really_in_hand_with_no_effect():
    """RAI-30: fizzle mode discards a card really in hand with no effect."""
    state = table(hands={0: ["S-A", "S-K"]}, holdings={1: {"club": "D-9", "kiosk": "S-9"}},
                  options={"illegal_play": "fizzle"}, trump="H")
    # check tells the scorekeeper in advance: illegal, apply would let it fizzle, and why
    assert GAME.check(state, act("play_trick", 0, card="S-A", target="D-9")) == {
        "legal": False, "fizzles": True, "rule": "RAI-24",
        "reason": "this trick targets only a fighter of its own suit (S); only a trump "
                  "trick reaches every suit; the card would go to the discard with no effect"}
    assert GAME.check(state, act("play_trick", 0, card="S-A", target="S-9")) == {"legal": True}
    after, events = play(state, act("play_trick", 0, card="S-A", target="D-9"))
    fizzled = [e for e in events if e["type"] == "fizzled"]
    assert fizzled and fizzled[0]["rule"] == "RAI-24" and fizzled[0]["card"] == "S-A"
    assert after["players"][1]["holdings"] == {"club": "D-9", "kiosk": "S-9"}  # no effect
    assert "S-A" in after["discard"] and after["players"][0]["hand"] == ["S-K"]
    # a card not in the hand cannot fizzle: rejected
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("play_trick", 0, card="H-A", target="D-9"))
    assert exc.value.rule == "RAI-22"
    assert GAME.check(state, act("play_trick", 0, card="H-A", target="D-9"))["legal"] is False


def test_rai_24_attacker_only_and_guard_only_targets():
    """RAI-24: Ambush hits only the (same-suit) attacker, Bribe only the guard
    of the property under capture."""
    state = table(hands={0: ["D-K"], 1: ["D-J", "H-6"]}, trump="S",
                  holdings={1: {"market": "H-9", "club": "C-9"}})
    state, _ = play(state, act("capture", 0, fighter="D-K", property="market"), act("pass", 0))
    listed = {(a["card"], a.get("target")) for a in GAME.legal_actions(state, 1)
              if a["type"] == "play_trick"}
    assert ("D-J", "D-K") in listed and ("D-J", "H-9") not in listed
    assert ("H-6", "H-9") in listed and ("H-6", "C-9") not in listed
    assert ("H-6", "D-K") not in listed
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("play_trick", 1, card="H-6", target="C-9"))
    assert exc.value.rule == "RAI-24"
    after, events = play(state, act("play_trick", 1, card="D-J", target="D-K"))
    assert "D-K" in after["discard"] and after["capture"] is None
    assert after["players"][1]["holdings"] == {"market": "H-9", "club": "C-9"}


def test_rai_24_every_same_suit_trick_of_the_trump_suit_reaches_every_suit():
    """RAI-24: "Шняги козырных карт действуют на карты любой масти" — every trick of
    a trump card, not only the ace, ignores its same-suit restriction; other suits
    keep it."""
    state = table(hands={0: ["S-K", "D-8", "C-8", "D-Q", "C-Q"], 1: ["D-J", "C-J"]},
                  trump="D", centre=["kiosk"], holdings={1: {"club": "H-9"}})
    assert GAME.check(state, act("play_trick", 0, card="D-Q", target="H-9")) == {"legal": True}
    assert GAME.check(state, act("play_trick", 0, card="C-Q", target="H-9"))["rule"] == "RAI-24"
    state, _ = play(state, act("capture", 0, fighter="S-K", property="kiosk"))
    refused = GAME.check(state, act("play_trick", 0, card="C-8", target="S-K"))
    assert refused["rule"] == "RAI-24" and "own suit (C)" in refused["reason"]
    state, _ = play(state, act("play_trick", 0, card="D-8", target="S-K"), act("pass", 0))
    assert _power(state, "S-K") == 10
    # the trump Ambush kills a spade attacker
    state, events = play(state, act("play_trick", 1, card="D-J", target="S-K"))
    assert "S-K" in state["discard"] and state["capture"] is None


def test_rai_30_a_fizzled_trick_changes_nothing_in_the_response_window():
    """RAI-30 fizzle with RAI-26: a fizzled trick has no effect, so it does not
    restart the round; its player keeps priority and may still pass."""
    state = table(hands={0: ["S-K"], 1: ["H-10", "H-7"]}, centre=["kiosk"],
                  options={"illegal_play": "fizzle"})
    state, _ = play(state, act("capture", 0, fighter="S-K", property="kiosk"), act("pass", 0))
    assert state["capture"] is not None
    window = dict(state["capture"])
    assert GAME.check(state, act("play_trick", 1, card="H-10"))["rule"] == "RAI-23"
    state, events = play(state, act("play_trick", 1, card="H-10"))  # own-turn trick
    assert types(events) == ["fizzled"] and state["capture"] == window
    assert "H-10" in state["discard"] and state["players"][1]["hand"] == ["H-7"]
    state, events = play(state, act("pass", 1))
    assert state["players"][0]["holdings"] == {"kiosk": "S-K"}


def test_rai_22a_a_tricks_cost_must_be_payable_and_is_paid_on_play():
    """RULING RAI-22a: a trick's cost — the Boar's discard of another card from
    hand — must be named and payable, and is paid when the trick is played; a
    trick without a cost takes none.  Every cost error cites RAI-22a."""
    state = table(hands={0: ["S-K", "S-9", "H-6", "S-7"]}, centre=["kiosk"])
    state, _ = play(state, act("capture", 0, fighter="S-K", property="kiosk"))
    for bad, words in ((act("play_trick", 0, card="S-9", target="S-K"), "cost_card"),
                       (act("play_trick", 0, card="S-9", target="S-K", cost_card="S-9"),
                        "not another card"),
                       (act("play_trick", 0, card="S-9", target="S-K", cost_card="D-6"),
                        "not another card"),
                       (act("play_trick", 0, card="S-7", target="S-K", cost_card="H-6"),
                        "no cost")):
        with pytest.raises(RuleViolation) as exc:
            GAME.apply(state, bad)
        assert exc.value.rule == "RAI-22a" and words in exc.value.reason
    after, events = play(state, act("play_trick", 0, card="S-9", target="S-K", cost_card="H-6"))
    paid = [e for e in events if e["type"] == "cost_paid"]
    assert paid == [{"type": "cost_paid", "player": 0, "card": "H-6", "rule": "RAI-22a"}]
    assert after["players"][0]["hand"] == ["S-7"] and after["discard"][-2:] == ["S-9", "H-6"]
    # every listed Boar names a cost card from the hand
    boars = [a for a in GAME.legal_actions(state, 0) if a.get("card") == "S-9"]
    assert boars and all(a["cost_card"] in ("H-6", "S-7") for a in boars)
