"""An impossible outcome at a chance node (``chance: table``) is refused with
the clause of what is being dealt, drawn, revealed or rolled — the clause a
scorekeeper looks up — and the state is left as it was."""

import orjson
import pytest

from service.games.base import AnyGame, StateIn
from service.games.chance import CHANCE
from service.games.errors import RuleViolation
from service.games.objects import ActionObject
from service.games.registry import get_game


def _impossible(state: StateIn, game: AnyGame) -> ActionObject:
    """A chance action of the pending node's own type naming nothing that can come up."""
    listed = game.legal_actions(state, CHANCE)
    assert listed and all(a["player"] == CHANCE for a in listed)
    bad = {k: v for k, v in listed[0].items() if k != "probability"}
    named = [k for k, v in bad.items() if k not in ("type", "player") and isinstance(v, str)]
    assert named, f"no card named in {bad}"
    for key in named:
        bad[key] = "no-such-outcome"
    return bad


def test_rai_4_impossible_card_in_the_deal_is_refused_and_nothing_changes():
    """RAI-4: the deal of 6 fighter cards — a card that is not in the deck."""
    game = get_game("raiders")
    state, _ = game.new_game(2, {"chance": "table"}, seed=3)
    before = orjson.dumps(state)
    with pytest.raises(RuleViolation) as err:
        game.apply(state, _impossible(state, game))
    assert err.value.rule == "RAI-4"
    assert orjson.dumps(state) == before


def test_rai_5_trump_reveal_and_rai_11_property_reveal_cite_their_clauses():
    """RAI-5 (the trump card) and RAI-11 (the property revealed at a turn's
    start): an impossible card at either node names that clause."""
    game = get_game("raiders")
    state, _ = game.new_game(2, {"chance": "table"}, seed=5)
    seen = {}
    while state["pending"] and state["pending"][0]["player"] == CHANCE:
        decision = state["pending"][0]["decision"]
        if decision not in seen:
            with pytest.raises(RuleViolation) as err:
                game.apply(state, _impossible(state, game))
            seen[decision] = err.value.rule
        state, _ = game.apply(state, game.legal_actions(state, CHANCE)[0])
    assert seen["deal_fighter"] == "RAI-4"
    assert seen["reveal_trump"] == "RAI-5"
    assert seen["reveal_property"] == "RAI-11"


def test_kozyablo_opening_draw_cites_koz_8():
    """KOZ-8: each player draws the top 6 cards — an impossible card among
    the opening draws names KOZ-8."""
    game = get_game("kozyablo")
    state, _ = game.new_game([{"race": "kozly"}, {"race": "trutni"}], {"chance": "table"}, seed=2)
    assert state["pending"][0]["decision"] == "reveal" and state["phase"] == "setup"
    with pytest.raises(RuleViolation) as err:
        game.apply(state, _impossible(state, game))
    assert err.value.rule == "KOZ-8"


def test_tremble_chance_nodes_cite_a_tremble_clause():
    """Tremble names the clause of its pending deal, draw or reveal (TRE-10,
    TRE-12, TRE-13 …), never the clause of an unrelated phase (a roll's
    outcome is a number and is left to the battle tests)."""
    game = get_game("tremble")
    state, _ = game.new_game(3, {"chance": "table"}, seed=4)
    rules = set()
    for _ in range(60):
        if not (state["pending"] and state["pending"][0]["player"] == CHANCE):
            break
        with pytest.raises(RuleViolation) as err:
            game.apply(state, _impossible(state, game))
        rules.add(err.value.rule)
        state, _ = game.apply(state, game.legal_actions(state, CHANCE)[0])
    assert rules and rules <= {"TRE-3", "TRE-4", "TRE-7", "TRE-10", "TRE-12", "TRE-13"}, rules
