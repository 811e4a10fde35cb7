"""Hypothesis state machines, one per game: random legal sequences, checked after every step.

Each machine starts a game (hypothesis picks the player count, the chance
mode and the seed), then each ``step`` applies one action that hypothesis
picks among ``legal_actions`` (chance outcomes included in ``table`` games).
After every step, on the new state:

* ``validate_state`` accepts it — cards are conserved (each engine's
  ``check_invariants`` counts every card instance in every zone);
* ``apply`` did not mutate its input (the old state's bytes are unchanged);
* a JSON round trip is exact (orjson and the standard library);
* every pending player can act: at least one legal action each;
* no ``view(state, p)`` (every seat and the spectator) holds, as a value or
  as a key, a card that ``game.secret_cards(state, p)`` says p may not see;
* replaying the setup and the actions so far gives the same state (checked
  every ``REPLAY_EVERY`` steps and at the end, so the cost stays linear).

A second machine per game is *steered*: at a player's decision it lets
``tests.contract.SteeringBot`` pick (hypothesis draws the bot's seed), which
prefers actions that bring the game nearer a decision, so the steered
machines reach the states only a win produces (RAI-6/RAI-6a, KOZ-47/48,
TRE-28) that uniform random play rarely meets.  ``test_steered_games_end_by_a_real_win``
holds the bot to that: a good share of seeded steered games per game end by
a real win, not by a turn limit.

Bounded by ``settings``: at full size 40 machine runs per game (6 steered) and 42/12/4
steered games; a quarter of each in ``make test`` (``REFEREE_TEST_SIZE``, tests/size.py).
"""

from __future__ import annotations

import json
import random
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from service.games import registry
from service.games.chance import CHANCE as CHANCE_PLAYER
from service.games.errors import RuleViolation
from service.games.replay import replay
from service.limits import MAX_SEED
from tests.contract import SteeringBot, check_random_games, strings_and_keys
from tests.size import sized

REPLAY_EVERY = 10
SETTINGS = settings(max_examples=sized(40), stateful_step_count=100, deadline=None,
                    suppress_health_check=list(HealthCheck))
#: steered games are longer (a win takes a few hundred steps) and each step rates actions
STEERED_SETTINGS = settings(max_examples=sized(6, least=2), stateful_step_count=400, deadline=None,
                            suppress_health_check=list(HealthCheck))
STEERING = SteeringBot()


def machine_for(game_id: str, options, steer: bool = False):
    """A state machine over ``game_id``; ``options`` is a strategy, or a
    function of the player count returning one; ``steer`` lets the
    ``SteeringBot`` choose players' actions."""
    game = registry.get_game(game_id)
    options_for = options if callable(options) else (lambda players: options)

    class GameMachine(RuleBasedStateMachine):
        @initialize(players=st.integers(game.min_players, game.max_players),
                    data=st.data(), seed=st.integers(0, MAX_SEED))
        def start(self, players, data, seed):
            opts = data.draw(options_for(players), label="options")
            self.setup = {"players": players, "options": opts, "seed": seed}
            self.state, _ = game.new_game(players, opts, seed)
            self.actions: list[dict[Any, Any]] = []

        @precondition(lambda self: self.state["result"] is None)
        @rule(data=st.data())
        def step(self, data):
            legal = game.legal_actions(self.state)
            assert legal, f"unfinished game with no legal action: pending {self.state['pending']}"
            deciders = [p["player"] for p in self.state["pending"]]
            if steer and CHANCE_PLAYER not in deciders:
                player = min(deciders)
                bot_seed = data.draw(st.integers(0, (1 << 32) - 1), label="bot seed")
                action = STEERING.choose(game, self.state, player, random.Random(bot_seed))
            else:
                action = data.draw(st.sampled_from(legal), label="action")
            before = orjson.dumps(self.state)
            new_state, _ = game.apply(self.state, action)
            assert orjson.dumps(self.state) == before, "apply mutated its input"
            self.actions.append(action)
            self.state = new_state
            if len(self.actions) % REPLAY_EVERY == 0:
                self.check_replay()

        @precondition(lambda self: self.state["result"] is not None)
        @rule()
        def a_finished_game_takes_no_action(self):
            last = self.actions[-1] if self.actions else {"type": "pass", "player": 0}
            try:
                game.apply(self.state, last)
            except RuleViolation as exc:
                assert exc.rule == game.finished_rule(self.state), exc.rule
            else:
                raise AssertionError("an action was applied to a finished game")

        def check_replay(self):
            replayed = replay(game, self.setup, self.actions)["state"]
            assert replayed == self.state, f"replay of {len(self.actions)} actions differs"

        def teardown(self):
            if getattr(self, "actions", None):
                self.check_replay()

        @invariant()
        def valid_and_conserved(self):
            if hasattr(self, "state"):
                game.validate_state(orjson.loads(orjson.dumps(self.state)))

        @invariant()
        def json_round_trip_is_exact(self):
            if hasattr(self, "state"):
                assert orjson.loads(orjson.dumps(self.state)) == self.state
                assert json.loads(json.dumps(self.state)) == self.state

        @invariant()
        def every_pending_player_can_act(self):
            if not hasattr(self, "state"):
                return
            if self.state["result"] is not None:
                assert self.state["pending"] == []
                return
            assert self.state["pending"], "an unfinished game with nobody to decide"
            for entry in self.state["pending"]:
                assert game.legal_actions(self.state, entry["player"]), \
                    f"pending {entry} has no legal action"

        @invariant()
        def views_leak_no_secret_card(self):
            if not hasattr(self, "state"):
                return
            for seat in [None, *range(len(self.state["players"]))]:
                secret = game.secret_cards(self.state, seat)
                leaked = strings_and_keys(game.view(self.state, seat)) & secret
                assert not leaked, f"view for {seat} shows {sorted(leaked)[:5]}"

    GameMachine.__name__ = f"{game_id.capitalize()}{'Steered' if steer else ''}Machine"
    return GameMachine


CHANCE = st.sampled_from(["server", "table"])

RaidersMachine = machine_for("raiders", st.builds(
    lambda chance, limit, fizzle: {"chance": chance, "turn_limit": limit,
                                   **({"illegal_play": "fizzle"} if fizzle else {})},
    CHANCE, st.integers(4, 12), st.booleans()))
TrembleMachine = machine_for("tremble", st.builds(
    lambda chance, missions: {"chance": chance, "missions": missions}, CHANCE, st.booleans()))
KozyabloMachine = machine_for("kozyablo", st.builds(
    lambda chance: {"chance": chance}, CHANCE))


def _raiders_steered_options(players: int) -> st.SearchStrategy:
    """RAI-7 short game where allowed: a win is near enough to reach."""
    return st.builds(lambda chance, fizzle: {
        "chance": chance, "turn_limit": 150, **({"short_game": True} if players >= 3 else {}),
        **({"illegal_play": "fizzle"} if fizzle else {})}, CHANCE, st.booleans())


RaidersSteeredMachine = machine_for("raiders", _raiders_steered_options, steer=True)
TrembleSteeredMachine = machine_for("tremble", st.builds(
    lambda chance, missions: {"chance": chance, "missions": missions}, CHANCE, st.booleans()),
    steer=True)
KozyabloSteeredMachine = machine_for("kozyablo", st.builds(
    lambda chance: {"chance": chance, "turn_limit": 60}, CHANCE), steer=True)

TestRaiders = RaidersMachine.TestCase
TestTremble = TrembleMachine.TestCase
TestKozyablo = KozyabloMachine.TestCase
TestRaidersSteered = RaidersSteeredMachine.TestCase
TestTrembleSteered = TrembleSteeredMachine.TestCase
TestKozyabloSteered = KozyabloSteeredMachine.TestCase
for _machine in (RaidersMachine, TrembleMachine, KozyabloMachine):
    _machine.TestCase.settings = SETTINGS
for _machine in (RaidersSteeredMachine, TrembleSteeredMachine, KozyabloSteeredMachine):
    _machine.TestCase.settings = STEERED_SETTINGS


#: seeded steered games per game: (players, options) by seed, and the share that must
#: end by a real win (RAI-6 target reached, KOZ-47/48 capture or destruction, TRE-28
#: the city deck played out), not by the turn limit
RAIDERS_PLAYERS = (2, 3, 4, 5, 6, 6)  # more 6-player short games: a win comes soonest
STEERED_GAMES = {
    "raiders": (lambda seed: (RAIDERS_PLAYERS[seed % 6], {
        "turn_limit": 100, **({"short_game": True} if RAIDERS_PLAYERS[seed % 6] > 2 else {})}),
        42, 0.4),
    "kozyablo": (lambda seed: (2 + seed % 3, {"turn_limit": 60}), 12, 0.75),
    "tremble": (lambda seed: (2 + seed % 4, {}), 4, 1.0),
}


@pytest.mark.parametrize("game_id", sorted(STEERED_GAMES))
def test_steered_games_end_by_a_real_win(game_id):
    """RAI-6, KOZ-47/48, TRE-28: the steering bot reaches real wins, and every
    state on the way passes the contract checks (tests/contract.py)."""
    game = registry.get_game(game_id)
    setup_of, count, share = STEERED_GAMES[game_id]
    count = sized(count, least=4)  # a share of fewer games means little
    real = 0
    for seed in range(count):
        players, options = setup_of(seed)
        report = check_random_games(game, [(players, options, seed)], bot=SteeringBot(),
                                    every=10, table_reproduction=False)
        real += sum(n for reason, n in report["finished_by"].items() if reason != "turn_limit")
    assert real >= share * count, f"{game_id}: {real} of {count} steered games won for real"
