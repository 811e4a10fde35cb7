"""The playouts estimate bounds the work: monotone in every input that adds work,
and the cap refuses past 1800 s naming the fields (issue 34, item 5)."""

from __future__ import annotations

import pytest

from service.evaluations.budget import CpuDeadline, chunk_budget
from service.evaluations.kinds import ChunkTimeout, prepare
from service.games.errors import MalformedInput
from service.games.registry import get_game


def estimate(game: str = "raiders", option: int | None = 30, **params) -> float:
    """The estimate of playouts of a new 2-player game whose `turn_limit` option is `option`."""
    options = {"turn_limit": option} if game != "tremble" else {}
    state = get_game(game).new_game(2, options, seed=1)[0]
    kind, plan = prepare({"game": game, "kind": "playouts", "state": state,
                          "params": {"seed": 1, "playouts": 50, **params}})
    return kind.estimate_seconds(plan)


def test_the_estimate_grows_with_the_turn_limit_max_steps_playouts_and_bot():
    assert estimate(option=10) < estimate(option=100) < estimate(option=1000,
                                                                        max_steps=20_000)
    assert estimate(option=1000, max_steps=100) < estimate(option=1000, max_steps=1000)
    assert estimate(playouts=10) < estimate(playouts=100)
    assert estimate(bots="random") < estimate(bots=["random", "greedy"]) <= estimate(bots="greedy")
    # an unset option: the params' turn limit sets the horizon
    assert estimate(option=None, turn_limit=10) < estimate(option=None)
    for game in ("tremble", "kozyablo"):
        assert estimate(game, bots="random") < estimate(game, bots="greedy")
        assert estimate(game, max_steps=10) < estimate(game)


@pytest.mark.parametrize("params, fields", [
    ({"playouts": 200, "max_steps": 20_000}, {"params.playouts", "params.max_steps"}),
])
def test_a_plan_past_the_cap_is_refused_naming_the_fields(params, fields):
    with pytest.raises(MalformedInput) as caught:
        estimate(option=5000, **params)
    assert fields <= set(caught.value.errors)
    assert "1800 s" in str(caught.value.errors["params.playouts"][0])
    with pytest.raises(MalformedInput) as caught:
        estimate(option=300, playouts=1000, max_steps=20_000)
    assert "state.options.turn_limit" in caught.value.errors
    assert estimate(option=300, playouts=800, max_steps=20_000) <= 1800


def test_a_chunk_too_large_for_its_cpu_deadline_is_refused():
    with pytest.raises(MalformedInput) as caught:
        estimate(option=1000, playouts=100, max_steps=20_000, chunk_size=100)
    assert "params.chunk_size" in caught.value.errors


def test_the_deadline_is_the_estimate_with_a_margin_within_the_limit(monkeypatch):
    assert chunk_budget(1.0, 120) == 5.0 and chunk_budget(30, 120) == 60 and chunk_budget(90, 120) == 120
    monkeypatch.setenv("REFEREE_CHUNK_CPU_SECONDS", "0.25")
    assert chunk_budget(30) == 0.25
    clock = iter([0.0, 0.3]).__next__
    with pytest.raises(ChunkTimeout, match="chunk 2 used 0.30 s of CPU, past its budget of 0.25 s"):
        CpuDeadline(2, 30, clock).raise_if_past()
