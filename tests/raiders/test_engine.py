"""Engine machinery: listing, views, invariants, determinization, card data."""

from __future__ import annotations

import copy
import pathlib
import random
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

import card_db
from service.games.base import Lister, validated
from service.games.errors import InvalidState, MalformedInput, RuleViolation
from service.games.objects import ActionObject
from service.games.playout import random_playout
from service.games.raiders import GAME
from service.games.raiders.state_types import RaidersState
from service.games.registry import get_game

from .builder import act, pass_all, play, table


def _states(n_games: int = 6, every: int = 7) -> Iterator[RaidersState]:
    for seed in range(n_games):
        state, _ = GAME.new_game(2 + seed % 5, {"turn_limit": 12}, seed=seed)
        rng = random.Random(seed)
        step = 0
        while state["result"] is None:
            if step % every == 0:
                yield state
            who = state["pending"][0]["player"]
            actions = GAME.legal_actions(state, who)
            state, _ = GAME.apply(state, actions[rng.randrange(len(actions))])
            step += 1


def test_direct_listing_equals_candidates_that_pass_the_checks():
    """Each action type declared with both a direct ``legal`` lister (the fast
    path ``legal_actions`` uses) and ``candidates`` (a superset): the direct
    list is exactly the candidates that pass the engine's check (reject mode),
    in every pending decision that takes the type."""
    both = {t: a for t, a in GAME.actions.items() if a.legal and a.candidates}
    assert set(both) == {"capture", "play_trick"}

    def key(a: ActionObject) -> list[tuple[str, Any]]:
        return sorted(a.items())
    compared = {t: 0 for t in both}
    for state in _states():
        entry = state["pending"][0]
        if entry["player"] == "chance":
            continue
        for kind in set(both) & set(GAME.decisions[entry["decision"]]):
            declared = both[kind]
            assert declared.legal is not None and declared.candidates is not None  # as `both` says
            fast = list(declared.legal(state, entry))
            slow = [a for a in declared.candidates(state, entry)
                    if GAME.check(state, a)["legal"]]
            assert sorted(fast, key=key) == sorted(slow, key=key), (kind, state["turn"])
            assert len({repr(key(a)) for a in fast}) == len(fast), f"{kind} listed twice"
            compared[kind] += len(fast)
    assert all(compared.values()), compared  # both types were really listed and compared
    # and legal_actions is those lists, in the order the decision names the types
    for state in _states(n_games=2):
        entry = state["pending"][0]
        if entry["player"] != "chance":
            listed = [a for kind in GAME.decisions[entry["decision"]]
                      for a in _lister(kind)(state, entry)]
            assert GAME.legal_actions(state) == listed


def _lister(kind: str) -> Lister[RaidersState]:
    """The direct lister of an action type that has one."""
    lister = GAME.actions[kind].legal
    assert lister is not None, kind
    return lister


def test_view_hides_other_hands_and_deck_contents():
    state, _ = GAME.new_game(3, {}, seed=4)
    seen = GAME.view(state, 1)
    assert seen["players"][1]["hand"] == state["players"][1]["hand"]
    assert seen["players"][0]["hand"] == {"count": 6}
    assert seen["fighter_deck"] == {"count": len(state["fighter_deck"])}
    assert seen["property_deck"] == {"count": len(state["property_deck"])}
    assert seen["chance"] == {"mode": "server"} and seen["bottom"] == state["bottom"]
    spectator = GAME.view(state, None)
    assert all(p["hand"] == {"count": 6} for p in spectator["players"])
    with pytest.raises(MalformedInput):
        GAME.view(state, 3)


def test_determinize_keeps_what_the_player_knows():
    state, _ = GAME.new_game(3, {}, seed=4)
    other = GAME.determinize(state, 0, seed=9)
    assert other["players"][0] == state["players"][0]
    assert [len(p["hand"]) for p in other["players"]] == [6, 6, 6]
    assert other["players"][1]["hand"] != state["players"][1]["hand"]
    GAME.validate_state(other)
    raiders = get_game("raiders")
    final, _, _ = random_playout(raiders, validated(raiders, {**other, "options": {
        **other["options"], "turn_limit": 3}}), seed=1)
    assert final["result"] is not None


def test_apply_does_not_mutate_and_bad_input_is_precise():
    state = table(hands={0: ["S-K"]}, centre=["kiosk"])
    frozen = copy.deepcopy(state)
    play(state, act("capture", 0, fighter="S-K", property="kiosk"))
    assert state == frozen
    with pytest.raises(MalformedInput) as exc:
        GAME.apply(state, {"type": "capture", "player": 0, "fighter": "S-K"})
    assert "action.property" in exc.value.errors
    with pytest.raises(MalformedInput):
        GAME.apply(state, {"type": "play_trick", "player": 0, "card": "S-K", "bogus": 1})
    with pytest.raises(RuleViolation):
        GAME.apply(state, {"type": "draw", "player": 0, "card": "S-K"})
    with pytest.raises(RuleViolation):  # a chance outcome while no chance node is pending
        GAME.apply(state, {"type": "draw", "player": "chance", "card": "S-6"})


@pytest.mark.parametrize("corrupt, path", [
    (lambda s: s["players"][0]["hand"].append("S-K"), "state.players.0.hand"),
    (lambda s: s["centre"].append("club"), "state.centre"),
    (lambda s: s.update(phase="capture"), "state.capture"),
    (lambda s: s["players"][1]["holdings"].update({"club": "C-K"}), "state.players.1.holdings"),
    (lambda s: s.update(modifiers=[{"card": "H-9", "amount": 1, "until": "turn"}]),
     "state.modifiers.0.card"),
    (lambda s: s["trump"].update(suit="D"), "state.trump.suit"),
    (lambda s: s["players"][1]["holdings"].update(market="H-A"), "state.players.1.holdings"),
])
def test_corrupt_states_are_refused_with_the_field_named(corrupt, path):
    state = copy.deepcopy(table(hands={0: ["S-K"]}, centre=["kiosk"],
                                holdings={1: {"market": "H-Q"}}))
    corrupt(state)
    with pytest.raises(InvalidState) as exc:
        GAME.validate_state(state)
    assert any(k.startswith(path) for k in exc.value.errors), exc.value.errors


def test_a_stuck_state_is_refused():
    state = table(hands={0: ["S-6", "S-7", "S-8", "S-9", "S-10", "S-J"]}, centre=["kiosk"])
    state = {**state, "phase": "turn_start", "pending": []}  # nothing to draw or reveal
    with pytest.raises(InvalidState) as exc:
        GAME.validate_state(state)
    assert "stuck" in str(exc.value.errors["state.phase"])


def test_table_mode_lists_outcomes_with_probabilities():
    state, _ = GAME.new_game(2, {"chance": "table"}, seed=0)
    for _ in range(12):
        state, _ = GAME.apply(state, GAME.legal_actions(state)[-1])
    assert state["pending"] == [{"player": "chance", "decision": "reveal_trump"}]
    outcomes = GAME.legal_actions(state)
    assert len(outcomes) == 24 and outcomes[0]["probability"] == "1/24"
    state, _ = GAME.apply(state, outcomes[0])
    assert state["pending"] == [{"player": "chance", "decision": "reveal_property"}]
    kinds = {o["card"]: o["probability"] for o in GAME.legal_actions(state)}
    assert kinds["kiosk"] == "2/9" and kinds["oil_well"] == "1/18"  # 4 and 1 of 18


# ------------------------------------------------------------- card data
def test_reference_set_honours_the_facts():
    cards = GAME.card_set()
    assert cards.meta["reconstructed"] is True and "RECONSTRUCTED" in cards.meta["note"]
    fighters = cards.data["fighters"]
    assert len(fighters) == 36
    assert {(f["suit"], f["rank"]) for f in fighters} == {
        (s, r) for s in "SCDH" for r in ("6", "7", "8", "9", "10", "J", "Q", "K", "A")}
    tricks = [f["trick"] for f in fighters if f["trick"]]
    names = {t["name"]["ru"]: t for t in tricks}
    assert names["Откатиться"]["effect"] == "return_to_hand"
    assert names["Откатиться"]["target"] == "own_fighter"
    assert names["Кабан"]["cost"] == "discard_card"
    assert names["Перебежчик"]["effect"] == "steal_guard"
    assert names["Перебежчик"]["target"] == "guarding_fighter"
    aces = [f for f in fighters if f["rank"] == "A"]
    assert all(a["trick"]["effect"] == "kill" and "same_suit" in a["trick"]["filters"]
               for a in aces)
    assert any(t["timing"] == "own_turn" for t in tricks)
    assert any(f["power"] is None for f in fighters)           # trick only
    assert any(f["power"] and f["trick"] for f in fighters)     # both
    assert all(f["name"]["ru"] and f["name"]["en"] for f in fighters)
    props = {p["id"]: p for p in cards.data["properties"]}
    assert props["club"]["money"] == 2 and {"count": 2, "total": 6} in props["club"]["bonuses"]
    assert all(p["copies"] >= 1 for p in props.values()) and any(
        p["copies"] > 1 for p in props.values())
    # a win takes several captures: no two properties reach 36, set bonuses included
    from service.games.raiders.scoring import kind_money
    pair = max(max(kind_money(a, 1) + kind_money(b, 1) for a in props.values()
                   for b in props.values() if a is not b),
               max(kind_money(p, 2) for p in props.values() if p["copies"] > 1))
    assert pair < 36


def test_a_broken_card_file_names_file_card_and_field(tmp_path, monkeypatch):
    source = pathlib.Path(card_db.__file__).parent / "raiders" / "reference.yaml"
    data = yaml.safe_load(source.read_text(encoding="utf-8"))
    data["fighters"][3]["trick"]["effect"] = "teleport"
    data["fighters"][5]["power"] = None
    data["fighters"][5]["trick"] = None
    (tmp_path / "raiders").mkdir()
    (tmp_path / "raiders" / "broken.yaml").write_text(yaml.safe_dump(data, allow_unicode=True),
                                                      encoding="utf-8")
    monkeypatch.setenv("CARD_DB_PATH", str(tmp_path))
    with pytest.raises(card_db.CardDataError) as exc:
        card_db.load("raiders", "broken")
    text = str(exc.value)
    assert "broken.yaml" in text and "'S-9'" in text and "effect" in text
    assert "'S-J'" in text and "power" in text


def test_rai_20_25_views_show_every_fighters_current_power():
    """RAI-20, RAI-25: a view lists every fighter in play (the attacker, every
    guard) with its printed power, its live modifiers and its current power —
    negative too — so a bot need not add them up; the state is unchanged."""
    state = table(hands={0: ["S-K", "S-9", "H-7"], 1: ["D-6"]}, centre=["kiosk"],
                  holdings={1: {"club": "D-7"}}, trump="H")
    state, _ = play(state, act("capture", 0, fighter="S-K", property="club"),
                    act("play_trick", 0, card="S-9", target="S-K", cost_card="H-7"),
                    act("pass", 0),
                    act("play_trick", 1, card="D-6", target="D-7"))  # Bribe: -3 on the guard
    for seat in (None, 0, 1):
        shown = GAME.view(state, seat)["fighters_in_play"]
        assert shown == [
            {"card": "S-K", "player": 0, "role": "attacker", "property": "club",
             "printed_power": 8, "modifiers": 3, "power": 11},
            {"card": "D-7", "player": 1, "role": "guard", "property": "club",
             "printed_power": 2, "modifiers": -3, "power": -1}]
    assert "fighters_in_play" not in state
    after, _ = pass_all(state)
    assert GAME.view(after, 0)["fighters_in_play"] == [
        {"card": "S-K", "player": 0, "role": "guard", "property": "club",
         "printed_power": 8, "modifiers": 0, "power": 8}]


def test_rai_20_the_power_list_does_not_depend_on_holdings_order():
    """RAI-20: ``fighters_in_play`` comes in one canonical order (attacker, then
    guards by seat and property), whatever order a JSON round trip left the
    ``holdings`` keys in, so equal states give equal views."""
    state = table(holdings={1: {"club": "D-7", "bank": "D-K"}, 0: {"kiosk": "S-6"}})
    shuffled = {**state, "players": [state["players"][0], {
        **state["players"][1], "holdings": {"bank": "D-K", "club": "D-7"}}]}
    assert state == shuffled
    listed = GAME.view(state, 0)["fighters_in_play"]
    assert listed == GAME.view(shuffled, 0)["fighters_in_play"]
    assert [(f["player"], f["property"]) for f in listed] == [(0, "kiosk"), (1, "bank"),
                                                              (1, "club")]
