"""ISMCTS suggestions (``service.games.ismcts``, the ``suggest`` kind):
legal actions only, never peeking (the answer is a function of the view),
deterministic per seed, statistics that sum across chunks, budgets kept."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from service import limits
from service.evaluations import suggest
from service.evaluations.kinds import prepare
from service.evaluations.runner import run_inline
from service.games.errors import MalformedInput, RuleViolation
from service.games.ismcts import action_key, merge, search, strip_timing, summarize
from service.games.playout import RandomBot, choose_chance, next_actor
from service.games.registry import GAME_IDS, get_game

PLAYERS = {"kozyablo": [{"race": "pozorki"}, {"race": "kozly"}]}
FAST: dict[str, Any] = {"rollout_depth": 2}


def position(game_id: str, seed: int = 3, steps: int = 12) -> tuple[dict[Any, Any], int]:
    """A seeded 2-player position after about ``steps`` random actions where
    a player has at least two legal actions; that player."""
    game = get_game(game_id)
    state, _ = game.new_game(PLAYERS.get(game_id, 2), {}, seed=seed)
    rng, bot = random.Random(seed), RandomBot()
    for step in range(400):
        who = next_actor(state, rng)
        assert who is not None, "the game ended before a decision was found"
        if who == "chance":
            state, _ = game.apply(state, choose_chance(game, state, rng))
            continue
        assert isinstance(who, int)
        if step >= steps and len(game.legal_actions(state, who)) > 1:
            return state, who
        action = bot.choose(game, state, who, rng)
        state, _ = game.apply(state, action)
    raise AssertionError("no decision with two options")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_legal_action_ranked_and_only_those(game_id):
    game = get_game(game_id)
    state, player = position(game_id)
    stats = search(game, state, player, seed=5, iterations=16, **FAST)
    legal = {action_key(a) for a in game.legal_actions(state, player)}
    assert {action_key(r["action"]) for r in stats["actions"]} == legal
    assert stats["iterations"] == 16 == sum(r["visits"] for r in stats["actions"])
    answer = summarize(stats)
    assert game.check(state, answer["best"])["legal"] is True
    assert answer["principal_line"][0]["action"] == answer["best"]
    for row in answer["actions"]:
        if row["visits"]:
            assert 0 <= row["ci95"][0] <= row["mean"] <= row["ci95"][1] <= 1
        else:
            assert row["mean"] is None and row["ci95"] is None
    visits = [r["visits"] for r in answer["actions"]]
    assert visits == sorted(visits, reverse=True)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_answer_is_a_function_of_the_view(game_id):
    """A different full state that gives the player the same view (every
    hidden hand, deck order and the chance seed re-dealt) gets the very same
    answer: the search cannot have read anything hidden."""
    game = get_game(game_id)
    state, player = position(game_id)
    twin = game.determinize(state, player, seed=424242)
    assert twin != state
    assert game.view(twin, player) == game.view(state, player)
    one = search(game, state, player, seed=9, iterations=12, **FAST)
    assert strip_timing(search(game, twin, player, seed=9, iterations=12, **FAST)) == \
        strip_timing(one)


def test_the_state_is_read_through_determinize_only():
    """``search`` hands the position to ``determinize`` and to nothing else."""
    real = get_game("raiders")
    state, player = position("raiders")

    class Sealed:  # any access but determinize's fails
        pass

    sealed = Sealed()

    class Guarded:
        def __getattr__(self, name):
            return getattr(real, name)

        def determinize(self, position, who, seed):
            assert position is sealed and who == player
            return real.determinize(state, who, seed)

    guarded = search(Guarded(), sealed, player, seed=2, iterations=10, **FAST)  # type: ignore[arg-type]
    assert strip_timing(guarded) == strip_timing(search(real, state, player, seed=2,
                                                        iterations=10, **FAST))


def test_same_seed_same_statistics():
    game = get_game("tremble")
    state, player = position("tremble")
    a = search(game, state, player, seed=1, iterations=20, **FAST)
    assert strip_timing(a) == strip_timing(search(game, state, player, seed=1, iterations=20,
                                                  **FAST))


def test_merged_halves_have_the_format_of_one_search():
    game = get_game("raiders")
    state, player = position("raiders")
    one = search(game, state, player, seed=1, iterations=24, **FAST)
    halves = [search(game, state, player, seed=s, iterations=12, **FAST) for s in (2, 3)]
    merged = merge(*halves)
    assert merged.keys() == one.keys()
    assert [list(r) for r in merged["actions"]] == [list(r) for r in one["actions"]]
    assert [r["action"] for r in merged["actions"]] == [r["action"] for r in one["actions"]]
    assert merged["iterations"] == 24 == sum(r["visits"] for r in merged["actions"])
    for row in merged["actions"]:
        parts = [next(r for r in h["actions"] if r["action"] == row["action"]) for h in halves]
        assert row["visits"] == sum(p["visits"] for p in parts)
        assert row["total"] == pytest.approx(sum(p["total"] for p in parts))
    assert strip_timing(merge(*halves[::-1])) == strip_timing(merged)
    assert summarize(merged).keys() == summarize(one).keys()
    with pytest.raises(ValueError):
        merge(one, {**one, "player": 1 - player})


def test_budget_iterations_and_milliseconds():
    game = get_game("kozyablo")
    state, player = position("kozyablo")
    assert search(game, state, player, seed=1, iterations=5)["iterations"] == 5
    begin = time.perf_counter()
    stats = search(game, state, player, seed=1, milliseconds=60)
    elapsed = (time.perf_counter() - begin) * 1000
    # one iteration may overrun the deadline: allow a generous iteration
    assert stats["iterations"] >= 1 and elapsed < 60 + 500
    with pytest.raises(ValueError):
        search(game, state, player, seed=1)


def _request(game_id: str, **params) -> dict[Any, Any]:
    state, player = position(game_id)
    return {"game": game_id, "kind": "suggest", "state": state,
            "params": {"player": player, "seed": 11, "rollout_depth": 2, **params}}


def test_suggest_kind_same_answer_whatever_the_workers():
    kind, plan = prepare(_request("raiders", iterations=24, chunk_size=8))
    assert len(kind.chunks(plan)) == 3
    result = run_inline(kind.name, plan)
    assert result["iterations"] == 24 and result["seed"] == 11
    again = run_inline(kind.name, prepare(_request("raiders", iterations=24, chunk_size=8))[1])
    drop = {"cpu_ms"}
    assert {k: v for k, v in again.items() if k not in drop} == \
        {k: v for k, v in result.items() if k not in drop}
    partials = [kind.run_chunk(plan, c, lambda done, total: None) for c in kind.chunks(plan)]
    assert kind.aggregate(plan, partials[::-1])["actions"] == result["actions"]


def test_suggest_kind_refusals():
    """A seat with no decision pending breaks the turn order, as the synchronous
    route says (422 citing its clause); the rest is a malformed request (400)."""
    request = _request("tremble")
    player = request["params"]["player"]
    with pytest.raises(RuleViolation) as out_of_turn:
        prepare({**request, "params": {**request["params"], "player": 1 - player}})
    assert out_of_turn.value.rule == get_game("tremble").out_of_turn_rule(request["state"])
    with pytest.raises(MalformedInput):
        prepare({**request, "params": {**request["params"], "exploration": "much"}})
    with pytest.raises(MalformedInput):
        prepare({**request, "params": {**request["params"], "iterations": limits.MAX_ITERATIONS + 1}})
    with pytest.raises(MalformedInput):
        prepare({**request, "params": {"seed": 1}})


def test_suggest_now_is_capped():
    from schemas.envelopes import SUGGEST

    request = _request("tremble")
    params = {**request["params"], "milliseconds": 50}
    answer = suggest.suggest_now(get_game("tremble"), request["state"], params)
    assert answer["best"] is not None and answer["seed"] == 11
    for too_much in ({"milliseconds": limits.SYNC_MAX_MILLISECONDS + 1},
                     {"iterations": limits.SYNC_MAX_ITERATIONS + 1}, {"chunk_size": 3}):
        with pytest.raises(MalformedInput) as refused:
            SUGGEST.load({"state": request["state"], "params": {**params, **too_much}})
        assert list(refused.value.errors) == [f"params.{next(iter(too_much))}"]


def test_without_widening_every_action_is_tried_first():
    """``widening=0`` is plain ISMCTS: each root action gets a visit before
    any gets a second; with widening, the best-rated ones are searched first."""
    game = get_game("raiders")
    state, player = position("raiders")
    n = len(game.legal_actions(state, player))
    plain = search(game, state, player, seed=4, iterations=n, widening=0, **FAST)
    assert [r["visits"] for r in plain["actions"]] == [1] * n
    widened = search(game, state, player, seed=4, iterations=n, **FAST)
    assert max(r["visits"] for r in widened["actions"]) > 1 or n <= 2
