"""Winning: money with set bonuses, the variants, the turn limit
(RAI-3, RAI-6, RAI-7, RAI-8, RAI-31)."""

from __future__ import annotations

import orjson
import pytest

from service.games.errors import InvalidOptions, RuleViolation
from service.games.raiders import GAME
from tests.wsgi import client_of

from .builder import act, pass_all, play, table, types


def test_rai_6_win_at_once_when_a_capture_reaches_36_with_bonuses():
    """RAI-6: win at once when a capture reaches 36 with bonuses."""
    # bank + bank = 22 (bonus), casino 7, market 4 = 33; a second market makes 10 -> 39
    state = table(hands={0: ["S-K"]}, centre=["market#2"],
                  holdings={0: {"bank": "H-K", "bank#2": "D-K", "casino": "C-K",
                                "market": "H-Q"}})
    assert GAME.score(state)["scores"][0]["total"] == 33
    state, _ = play(state, act("capture", 0, fighter="S-K", property="market#2"))
    state, events = pass_all(state)
    assert state["result"] is not None
    assert state["result"]["winners"] == [0] and state["result"]["reason"] == "target_reached"
    assert state["pending"] == [] and state["phase"] == "over"
    assert [e for e in events if e["type"] == "game_won"][0]["rule"] == "RAI-6"
    assert GAME.score(state)["scores"][0]["total"] == 39
    with pytest.raises(RuleViolation) as exc:
        GAME.apply(state, act("end_turn", 0))
    assert exc.value.rule == "RAI-6"


def test_rai_6_a_stolen_guard_can_win_at_once_outside_a_capture():
    """RAI-6: a stolen guard can win at once outside a capture."""
    state = table(hands={0: ["C-Q"]}, centre=["kiosk"], trump="H",
                  holdings={0: {"bank": "H-K", "casino": "D-K", "casino#2": "S-K"},
                            1: {"bank#2": "C-9"}})
    state, events = play(state, act("play_trick", 0, card="C-Q", target="C-9"))
    assert state["result"] is not None
    assert state["result"]["winners"] == [0]  # 22 + 18 = 40


def test_rai_7_short_game_lowers_the_target_by_six_per_extra_player():
    """RAI-7: short game lowers the target by six per extra player."""
    assert [GAME.score(GAME.new_game(n, {"short_game": True}, seed=1)[0])["target"]
            for n in (3, 4, 5, 6)] == [30, 24, 18, 12]
    assert GAME.score(GAME.new_game(4, {}, seed=1)[0])["target"] == 36
    with pytest.raises(InvalidOptions):
        GAME.new_game(2, {"short_game": True}, seed=1)
    state = table(players=4, options={"short_game": True}, hands={0: ["S-K"]},
                  centre=["casino"], holdings={0: {"bank": "H-K", "oil_well": "D-K"}})
    state, events = pass_all(play(state, act("capture", 0, fighter="S-K",
                                             property="casino"))[0])
    assert state["result"] is not None
    assert state["result"]["winners"] == [0]  # 9 + 12 + 7 = 28 >= 24


def test_rai_8_teams_pool_money_but_not_set_bonuses():
    """RAI-8: teams pool money but not set bonuses."""
    with pytest.raises(InvalidOptions):
        GAME.new_game(3, {"teams": True}, seed=1)
    # "побеждает та пара, которая в сумме набрала 36": a pair's target is fixed at 36,
    # so the short game (24 at four) does not combine with it
    with pytest.raises(InvalidOptions) as exc:
        GAME.new_game(4, {"teams": True, "short_game": True}, seed=1)
    assert "RAI-8" in str(exc.value.errors["options.short_game"])
    assert GAME.score(GAME.new_game(4, {"teams": True}, seed=1)[0])["target"] == 36
    # partners 0 and 2 each own a bank: 9 + 9 = 18, not the 22 of a pair
    state = table(players=4, options={"teams": True},
                  holdings={0: {"bank": "S-K", "oil_well": "S-Q"},
                            2: {"bank#2": "H-K", "casino": "H-Q"}})
    score = GAME.score(state)
    assert [t["total"] for t in score["teams"]] == [9 + 12 + 9 + 7, 0]
    # a capture that lifts the pair to 36 wins for both partners
    state = table(players=4, options={"teams": True}, hands={0: ["D-K"]}, centre=["club"],
                  holdings={0: {"bank": "S-K"}, 2: {"bank#2": "H-K", "casino": "H-Q",
                                                    "market": "C-Q"}})
    assert [t["total"] for t in GAME.score(state)["teams"]] == [29, 0]
    state, _ = pass_all(play(state, act("capture", 0, fighter="D-K", property="club"))[0])
    assert state["result"] is None  # 31
    state = table(players=4, options={"teams": True}, hands={0: ["D-K"]}, centre=["casino"],
                  holdings={0: {"bank": "S-K"}, 2: {"bank#2": "H-K", "oil_well": "H-Q"}})
    state, _ = pass_all(play(state, act("capture", 0, fighter="D-K", property="casino"))[0])
    assert state["result"] is not None
    assert state["result"]["winners"] == [0, 2]  # 9 + 7 + 9 + 12 = 37


def test_rai_31_turn_limit_most_money_wins_ties_share():
    """RAI-31: turn limit most money wins ties share."""
    state = table(hands={0: ["S-6"]}, centre=["kiosk"], options={"turn_limit": 3}, turn=3,
                  holdings={0: {"club": "S-9"}, 1: {"club#2": "H-9"}})
    state, events = play(state, act("end_turn", 0))
    assert state["result"] == {"finished": True, "winners": [0, 1], "reason": "turn_limit"}
    assert [e for e in events if e["type"] == "game_won"][0]["rule"] == "RAI-31"
    with pytest.raises(RuleViolation) as exc:  # over by the turn limit, not by a win
        GAME.apply(state, act("end_turn", 1))
    assert exc.value.rule == "RAI-31" and exc.value.reason == "the game is over"
    state = table(hands={0: ["S-6"]}, centre=["kiosk"], options={"turn_limit": 3}, turn=3,
                  holdings={0: {"club": "S-9"}, 1: {"market": "H-9"}})
    state, _ = play(state, act("end_turn", 0))
    assert state["result"] is not None
    assert state["result"]["winners"] == [1]
    state = table(hands={0: ["S-6"]}, centre=["kiosk"], options={"turn_limit": 4}, turn=3)
    state, _ = play(state, act("end_turn", 0))
    assert state["result"] is None and state["turn"] == 4
    # without a limit the game knows no end but a win
    assert GAME.new_game(2, {}, seed=1)[0]["options"]["turn_limit"] is None


def test_rai_31_with_teams_the_richer_pair_wins_at_the_turn_limit():
    """RAI-31 with RAI-8: at the turn limit pairs compare their combined money
    (bonuses per player); both partners win, equal pairs share the win."""
    # pair 0+2: club 2 + club 2 (no "2 clubs" bonus across partners) = 4;
    # pair 1+3: market 4 alone
    state = table(players=4, options={"teams": True, "turn_limit": 5}, turn=5, trump="D",
                  hands={0: ["S-6"]}, centre=["kiosk"],
                  holdings={0: {"club": "S-9"}, 2: {"club#2": "H-9"}, 1: {"market": "C-9"}})
    after, events = play(state, act("end_turn", 0))
    assert after["result"] is not None
    assert after["result"]["winners"] == [0, 1, 2, 3]  # 4 = 4: the pairs share
    state = table(players=4, options={"teams": True, "turn_limit": 5}, turn=5, trump="D",
                  hands={0: ["S-6"]}, centre=["kiosk"],
                  holdings={0: {"club": "S-9"}, 2: {"market#2": "H-9"}, 1: {"market": "C-9"}})
    after, events = play(state, act("end_turn", 0))
    assert after["result"] is not None
    assert after["result"]["winners"] == [0, 2]  # 2 + 4 > 4
    assert [e for e in events if e["type"] == "game_won"][0]["money"] == 6


@pytest.mark.parametrize("players, options, holdings", [
    # 2 players, target 36: oil well 12 + two banks 22 = 34; a club (2) makes 36
    (2, {}, {"oil_well": "H-K", "bank": "D-K", "bank#2": "S-J"}),
    # 6 players, short game, target 12 (RAI-7): a bank 9 + a kiosk 1 = 10; a club makes 12
    (6, {"short_game": True}, {"bank": "H-K", "kiosk": "D-K"}),
])
def test_rai_6a_a_win_in_a_capture_window_closes_the_capture_and_the_state_is_valid(
        players, options, holdings):
    """RULING RAI-6a: a win (RAI-6) during a capture ends the game at once: the
    capture is closed (its fighter back in its owner's hand) and every endpoint
    accepts the finished state — validate, score, legal-actions, view."""
    state = table(players=players, options=options, trump="H",
                  hands={0: ["S-K", "C-Q"]}, centre=["market"],
                  holdings={0: holdings, 1: {"club": "C-9"}})
    state, _ = play(state, act("capture", 0, fighter="S-K", property="market"))
    state, events = play(state, act("play_trick", 0, card="C-Q", target="C-9"))
    target = 12 if options else 36
    assert state["result"] == {"finished": True, "winners": [0], "reason": "target_reached",
                               "target": target}
    assert state["phase"] == "over" and state["capture"] is None and state["pending"] == []
    assert "S-K" in state["players"][0]["hand"] and state["centre"] == ["market"]
    ended = [e for e in events if e["type"] == "capture_ended"]
    assert ended and ended[0]["outcome"] == "game_won" and ended[0]["rule"] == "RAI-6a"
    assert [e["rule"] for e in events if e["type"] == "game_won"] == ["RAI-6"]
    assert "combat" not in types(events)
    GAME.validate_state(orjson.loads(orjson.dumps(state)))
    assert GAME.score(state)["winners"] == [0]
    assert GAME.score(state)["scores"][0]["total"] >= target
    assert GAME.legal_actions(state) == []
    for seat in [None, *range(players)]:
        assert GAME.view(state, seat)["phase"] == "over"


def test_rai_6_7_8_the_targets_are_described_for_bots():
    """RAI-6, RAI-7, RAI-8: ``GET /v1/games/raiders`` states the target money:
    36; short game 36 − 6 per player beyond two; teams 36 combined — the same
    numbers the engine plays to."""
    targets = GAME.describe()["targets"]
    assert targets["money"] == 36 and targets["rule"] == "RAI-6"
    assert targets["short_game"]["rule"] == "RAI-7"
    assert targets["short_game"]["by_players"] == {"3": 30, "4": 24, "5": 18, "6": 12}
    assert targets["teams"]["rule"] == "RAI-8" and targets["teams"]["money"] == 36
    for players in range(3, 7):
        state, _ = GAME.new_game(players, {"short_game": True}, seed=players)
        assert GAME.score(state)["target"] == targets["short_game"]["by_players"][str(players)]
    teams, _ = GAME.new_game(4, {"teams": True}, seed=1)
    assert GAME.score(teams)["target"] == targets["teams"]["money"]


def test_rai_6a_the_finished_state_of_a_win_in_a_capture_window_is_accepted_over_http():
    """RULING RAI-6a, as the issue found it over HTTP: two players, player 0 at 34
    money captures, then in the response window steals a guard worth 2 — `apply`
    answers the win, and the finished state sent back to `score`,
    `legal-actions` and `view` is accepted (200), not `invalid-state`."""
    from service.app import create_app

    client = client_of(create_app({"TESTING": True}))
    url = "/v1/games/raiders"
    state = table(trump="H", hands={0: ["S-K", "C-Q"]}, centre=["market"],
                  holdings={0: {"oil_well": "H-K", "bank": "D-K", "bank#2": "S-J"},
                            1: {"club": "C-9"}})
    for action in (act("capture", 0, fighter="S-K", property="market"),
                   act("play_trick", 0, card="C-Q", target="C-9")):
        answer = client.post(f"{url}/apply", json={"state": state, "action": action})
        assert answer.status_code == 200, answer.json
        state = answer.json["state"]
    assert [e["type"] for e in answer.json["events"]][-1] == "game_won"
    assert state["phase"] == "over" and state["capture"] is None
    score = client.post(f"{url}/score", json={"state": state})
    assert score.status_code == 200 and score.json["winners"] == [0]
    legal = client.post(f"{url}/legal-actions", json={"state": state})
    assert legal.status_code == 200 and legal.json["actions"] == []
    view = client.post(f"{url}/view", json={"state": state, "player": 1})
    assert view.status_code == 200 and view.json["view"]["phase"] == "over"
