"""``Game.state_from_view(view, seed)``: a state from the view alone (issue 15).

For every sampled state of ``tests/shared/test_determinize.py`` (seeded random
playouts and crafted rare situations) and every seat, the state built from
that seat's view (sent through JSON, as a client holds it) is, by the game's
contract (``Game.view_state_is_determinize``): ``determinize(state, seat,
seed)`` byte for byte (Raiders, Tremble; the spectator too), or a valid state
whose view is that view again (Kozyablo, whose ``determinize`` reads the other
players' secret card lists, KOZ-1; a spectator's view is refused).  Then a
player who holds only their view can ask the service about their own
decisions: the answers are those of the full state
(``tests/http/test_views_as_states.py``, ``tests/kozyablo/test_state_from_view.py``).
"""

from __future__ import annotations

import orjson
import pytest

from service.games.registry import GAME_IDS, get_game
from tests.shared.test_determinize import sampled_states

#: the games that take a view in place of a state (``Game.takes_views``)
TAKE_VIEWS = ("raiders", "tremble", "kozyablo")
#: of these, the ones whose built state is ``determinize`` (``view_state_is_determinize``)
DETERMINIZE_FROM_VIEWS = ("raiders", "tremble")


def test_the_games_that_take_views_are_these():
    assert tuple(g for g in GAME_IDS if get_game(g).takes_views) == TAKE_VIEWS
    assert tuple(g for g in TAKE_VIEWS if get_game(g).view_state_is_determinize) == \
        DETERMINIZE_FROM_VIEWS
    assert [get_game(g).suggests_from_views for g in TAKE_VIEWS] == \
        [g in DETERMINIZE_FROM_VIEWS for g in TAKE_VIEWS]


@pytest.mark.parametrize("game_id", DETERMINIZE_FROM_VIEWS)
def test_state_from_view_is_determinize(game_id):
    game = get_game(game_id)
    checked = 0
    for raw in sampled_states(game_id):
        state = orjson.loads(raw)
        for seat in (*range(len(state["players"])), None):
            view = orjson.loads(orjson.dumps(game.view(state, seat)))
            for seed in (3, 1 << 40):
                built = game.state_from_view(view, seed)
                assert orjson.dumps(built) == orjson.dumps(game.determinize(state, seat, seed)), (
                    f"seat {seat}, seed {seed}, turn {state['turn']}, phase {state['phase']}")
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("game_id", [g for g in TAKE_VIEWS if g not in DETERMINIZE_FROM_VIEWS])
def test_state_from_view_gives_the_view_back(game_id):
    """The weaker contract: a valid state (``validate_state``), the chance seed the one
    given, whose view for the seat is the view it was built from — exactly."""
    game = get_game(game_id)
    checked = 0
    for raw in sampled_states(game_id):
        state = orjson.loads(raw)
        for seat in range(len(state["players"])):
            view = orjson.loads(orjson.dumps(game.view(state, seat)))
            built = game.state_from_view(view, 3)
            game.validate_state(built)
            assert built["chance"]["seed"] == 3 and list(built) == list(state)
            assert orjson.dumps(game.view(built, seat)) == orjson.dumps(view), (
                f"seat {seat}, turn {state['turn']}, phase {state['phase']}")
            checked += 1
    assert checked > 100
