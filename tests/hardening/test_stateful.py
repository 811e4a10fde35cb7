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

Bounded by ``settings`` so the three machines run in well under a minute.
"""

from __future__ import annotations

import json

import orjson
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from service.games import registry
from service.games.errors import RuleViolation
from service.games.replay import replay
from tests.contract import strings_and_keys

REPLAY_EVERY = 10
SETTINGS = settings(max_examples=40, stateful_step_count=100, deadline=None,
                    suppress_health_check=list(HealthCheck))


def machine_for(game_id: str, options: st.SearchStrategy):
    game = registry.get_game(game_id)

    class GameMachine(RuleBasedStateMachine):
        @initialize(players=st.integers(game.min_players, game.max_players),
                    opts=options, seed=st.integers(0, (1 << 63) - 1))
        def start(self, players, opts, seed):
            self.setup = {"players": players, "options": opts, "seed": seed}
            self.state, _ = game.new_game(players, opts, seed)
            self.actions: list[dict] = []

        @precondition(lambda self: self.state["result"] is None)
        @rule(data=st.data())
        def step(self, data):
            legal = game.legal_actions(self.state)
            assert legal, f"unfinished game with no legal action: pending {self.state['pending']}"
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

    GameMachine.__name__ = f"{game_id.capitalize()}Machine"
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

TestRaiders = RaidersMachine.TestCase
TestTremble = TrembleMachine.TestCase
TestKozyablo = KozyabloMachine.TestCase
RaidersMachine.TestCase.settings = SETTINGS
TrembleMachine.TestCase.settings = SETTINGS
KozyabloMachine.TestCase.settings = SETTINGS
