"""The playouts kind in-process: result shape, reproducibility whatever the
chunking, documented caps, and refusals at submission."""

from __future__ import annotations

from typing import Any

import pytest

from service import limits
from service.evaluations import playouts as playouts_mod
from service.evaluations.kinds import prepare
from service.evaluations.runner import run_inline
from service.games.errors import MalformedInput
from service.games.objects import JsonObject
from service.games.registry import GAME_IDS, get_game


def _request(game_id: str, players: int | list[JsonObject] = 2, **params: Any) -> JsonObject:
    state, _ = get_game(game_id).new_game(players, None, seed=4)
    return {"game": game_id, "kind": "playouts", "state": state,
            "params": {"seed": 11, "bots": "random", "player": 0, **params}}


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_playouts_for_every_game(game_id):
    kind, plan = prepare(_request(game_id, playouts=6, chunk_size=4))
    assert len(kind.chunks(plan)) == 2
    result = run_inline(kind.name, plan)
    assert result["game"] == game_id and result["seed"] == 11 and result["playouts"] == 6
    assert result["finished"] == 6, "every playout ends (turn horizon where the rules have none)"
    assert len(result["win_rate"]) == len(result["scores"]) == 2
    for w in result["win_rate"]:
        assert 0 <= w["ci95"][0] <= w["rate"] <= w["ci95"][1] <= 1
    for s in result["scores"]:
        assert sum(s["histogram"]["counts"]) == 6
        assert len(s["histogram"]["edges"]) == len(s["histogram"]["counts"]) + 1
    assert result["length"]["mean_actions"] > 0


def test_same_seed_same_result_whatever_the_chunking():
    one = run_inline("playouts", prepare(_request("tremble", playouts=12, chunk_size=12))[1])
    many = run_inline("playouts", prepare(_request("tremble", playouts=12, chunk_size=1))[1])
    other = run_inline("playouts", prepare(_request("tremble", playouts=12, chunk_size=5,
                                                    seed=12))[1])
    assert one == many
    assert other != one


@pytest.mark.parametrize("params, field", [
    ({"player": 2}, "params.player"),
    ({"bots": ["random"]}, "params.bots"),
    ({"bots": "oracle"}, "params.bots"),
    ({"playouts": 0}, "params.playouts"),
    ({"playouts": limits.MAX_PLAYOUTS + 1}, "params.playouts"),
    ({"playouts": 1000, "chunk_size": 1}, "params.chunk_size"),
    ({"turn_limit": 10}, "params.turn_limit"),
    ({"max_steps": 0}, "params.max_steps"),
    ({"seed": -1}, "params.seed"),
])
def test_refused_at_submission(params, field):
    with pytest.raises(MalformedInput) as exc:
        prepare(_request("tremble", **params))
    assert field in exc.value.errors, exc.value.errors


def test_work_cap_names_the_cap():
    """Greedy Raiders playouts cost ~0.12 s each: 20,000 exceed the work cap."""
    with pytest.raises(MalformedInput) as exc:
        prepare(_request("raiders", playouts=limits.MAX_PLAYOUTS, bots="greedy"))
    message = exc.value.errors["params.playouts"][0]
    assert f"{limits.MAX_WORK_SECONDS} s of work per job" in message


def test_a_players_view_is_refused():
    req = _request("tremble")
    req["state"] = get_game("tremble").view(req["state"], 0)
    with pytest.raises(MalformedInput) as exc:
        prepare(req)
    assert "state.view" in exc.value.errors


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_playouts_start_from_states_the_player_cannot_tell_apart(game_id):
    """Every playout starts from ``determinize(state, player, seed)``: the
    asking player's view of it is their view of the real state, while what
    they cannot see is re-dealt (the playouts never peek)."""
    import orjson

    game = get_game(game_id)
    state, _ = game.new_game(2, None, seed=4)
    canon = orjson.dumps(game.view(state, 0), option=orjson.OPT_SORT_KEYS)
    redealt = 0
    for i in range(5):
        start = game.determinize(state, 0, playouts_mod.playout_seed(11, i))
        game.validate_state(start)
        assert orjson.dumps(game.view(start, 0), option=orjson.OPT_SORT_KEYS) == canon
        redealt += start["players"][1] != state["players"][1]
    assert redealt, "the opponent's hidden cards were never re-dealt"


@pytest.mark.parametrize("players", [3, 4])
def test_kozyablo_playouts_for_three_and_four_players(players):
    """RULINGS KOZ-51…53: Kozyablo playouts (greedy bots, its heuristic) with 3 and 4
    players end and report every seat; determinize works for the asking seat."""
    kind, plan = prepare(_request("kozyablo", players, playouts=3, bots="greedy", player=2))
    result = run_inline(kind.name, plan)
    assert result["playouts"] == 3 and result["finished"] == 3
    assert len(result["win_rate"]) == len(result["scores"]) == players
