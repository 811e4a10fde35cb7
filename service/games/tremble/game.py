"""Tremble, Humans! on the shared engine contract (``service.games.base``).

The hooks dispatch to one module per concept: ``setup`` (TRE-2 … TRE-10),
``flow`` (the turn, TRE-11 … TRE-17), ``buying``, ``intel`` (with armies),
``planning`` (orders, refuel, redeploy), ``battle``, ``reward``, ``credit``,
``missions``, ``scoring`` and ``views`` (TRE-33); ``actions`` declares each
action type once (the base class dispatches on it).

>>> state, _ = GAME.new_game(3, {"missions": False}, seed=1)
>>> state["phase"], [p["decision"] for p in state["pending"]]
('buy', ['draw_or_decline', 'draw_or_decline', 'draw_or_decline'])
>>> state, _ = GAME.apply(state, {"type": "draw_ships", "player": 0})
>>> [len(p["offer"]) for p in state["players"]], state["players"][0]["fuel"]
([2, 0, 0], 8)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import card_db
from service.games.base import Game
from service.games.draft import Draft
from service.games.errors import InvalidState
from service.games.messages import N_
from service.games.objects import ActionObject, Entry, Errors, Event, JsonObject
from service.games.options import Option
from service.games.tremble import flow, intel, invariants, migrations, planning, scoring, views
from service.games.tremble.actions import ACTIONS, CHANCES, CREDIT_ACTIONS, DECISIONS
from service.games.tremble.card_schema import CardSetSchema
from service.games.tremble.cards import Catalogue
from service.games.tremble.evaluations import KINDS
from service.games.tremble.operations import ODDS
from service.games.tremble.setup import new_state
from service.games.tremble.shapes import EVENT_TYPES, STATE_FIELDS
from service.games.tremble.state_types import TrembleState
from service.games.tremble.words import WORDS
from service.games.versions import Change, RulesVersion

#: the machine-readable constraint of each decision too large to list
CONSTRAINTS: dict[str, Callable[[TrembleState, Catalogue, int], JsonObject]] = {
    "plan": planning.plan_constraints, "redeploy": planning.redeploy_constraints}


class Tremble(Game[TrembleState]):
    id = "tremble"
    words = WORDS
    title = {"en": "Tremble, Humans!", "ru": "Трепещите, человеки!"}
    #: 2: the buy step is optional (RULING TRE-12a: ``buy_choice``, a
    #: ``draw_or_decline`` decision) and ``draw_ship`` names the copy drawn
    rules_version = "tremble/2"
    rules_history = (
        RulesVersion("tremble-1", "1.0.0"),
        RulesVersion("tremble/2", "2.0.0", (
            Change("TRE-12a", "decision draw_or_decline",
                   "The buy step is optional: each player first answers a new `draw_or_decline` "
                   "decision (`draw_ships` or `decline_buy`); the state keeps "
                   "`players[p].buy_choice`.",
                   "Покупка необязательна: каждый игрок сначала отвечает на новое решение "
                   "`draw_or_decline` (`draw_ships` или `decline_buy`); в состоянии есть "
                   "`players[p].buy_choice`."),
            Change("TRE-12", "action draw_ship.ship",
                   "`draw_ship.ship` names the copy drawn (`S-SAUCER#2`), no longer the design.",
                   "`draw_ship.ship` называет вытянутую копию (`S-SAUCER#2`), а не модель."),
            Change("TRE-31a", "rule",
                   "A joining reserve ship counts toward the two ships per city (TRE-9); "
                   "`join_reserve` past it is refused.",
                   "Присоединяющийся резервный корабль считается в пределе двух кораблей на "
                   "город (TRE-9); `join_reserve` сверх него отклоняется."),
        ), upgrade=migrations.from_1,
           upgrade_action=migrations.action_from_1, added_state_fields=("players[].buy_choice",)),
    )
    min_players = 2
    max_players = 5
    card_schema = CardSetSchema
    #: ``python -m bench.step_costs --playouts 6 --turn-limit 200``: at most 0.036 /
    #: 0.070 ms a step; the deck ends a game: 282 steps at most (5 players)
    step_seconds = {"random": 0.00006, "greedy": 0.00011}
    playout_steps = 600
    #: 40,000 people; greedy rollouts: 77.0 % against the greedy bot at 32 iterations
    #: over 100 games, against 68.0 % with random ones over 200; 0.6 ms measured
    search_value_scale = 40000.0
    search_rollout = "greedy"
    search_iteration_seconds = 0.001
    operations = (ODDS,)
    evaluation_kinds = KINDS
    game_options = (
        Option("missions", "boolean", True, clause="TRE-10",
               description="play with secret missions (false: the recommended first game)"),
    )
    actions = ACTIONS
    event_types = EVENT_TYPES
    decisions = DECISIONS
    state_fields = STATE_FIELDS
    not_your_turn_rule = "TRE-11"
    game_over_rule = "TRE-28"

    # ------------------------------------------------------------ setup
    def setup(self, players: int, setups: list[JsonObject], options: JsonObject,
              cards: card_db.CardSet, events: list[Event]) -> JsonObject:
        cat = Catalogue.of(cards)
        state = new_state(players, setups, options, cat)
        state["turn"] = 0
        state["result"] = None
        events.append({"type": "setup", "players": players, "slots": state["tokens"],
                       "cards_left": intel.cards_left(state["piles"]), "rule": "TRE-2"})
        draft = Draft(cast(TrembleState, state))  # the new state: its fields all set
        flow.advance(draft, cat, events)
        return dict(draft.root)

    def compute_pending(self, state: TrembleState) -> list[Entry]:
        if state["result"] is not None:
            return []
        try:
            return flow.compute_pending(state)
        except (LookupError, StopIteration, TypeError, ValueError) as exc:
            # only a hand-edited state gets here: its phase data do not fit together
            raise InvalidState({"state.phase": [
                N_("the {value!r} phase data are inconsistent ({name})",
                   value=state.get('phase'), name=type(exc).__name__)]}) from exc

    def constraints(self, state: TrembleState, player: int) -> JsonObject | None:
        entry = next((e for e in state["pending"] if e["player"] == player), None)
        constraint = CONSTRAINTS.get(entry["decision"]) if entry is not None else None
        return constraint(state, Catalogue.of_state(state), player) if constraint else None

    # ------------------------------------------------------------ actions
    def after_action(self, draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
        """The automatic steps after every action, up to the next decision."""
        flow.advance(draft, Catalogue.of_state(draft.root), events)

    def wrong_decision(self, state: TrembleState, entry: Entry, action: ActionObject) -> tuple[str, str]:
        """The clause of the pending decision (e.g. TRE-14 for a ``plan``)."""
        decision = entry["decision"]
        return flow.DECISION_RULES[decision], N_(
            "the decision now is {decision!r}, not {kind!r}", decision=decision,
            kind=action["type"])

    def out_of_turn_rule(self, state: TrembleState) -> str:
        """The clause of the decision now pending, cited to a player who acts
        out of turn: e.g. TRE-19 while a weaker attacker decides to fight or
        retreat, TRE-14 when a plan is already submitted, TRE-20 during a
        battle roll (``not_your_turn_rule`` only with nothing pending)."""
        if not state["pending"]:
            return self.not_your_turn_rule
        entry = state["pending"][0]
        decision = entry["decision"]
        if decision in CHANCES:
            return CHANCES[decision].rule(entry)
        return flow.DECISION_RULES.get(decision, self.not_your_turn_rule)

    def out_of_turn(self, state: TrembleState, action: ActionObject, reason: str) -> tuple[str, str]:
        """A credit action out of turn cites TRE-26: a credit is taken or repaid
        while the game waits for a decision of that player."""
        if action["type"] in CREDIT_ACTIONS:
            return "TRE-26", N_("a credit is taken or repaid while the game waits for a "
                                "decision of yours; {reason}", reason=reason)
        return super().out_of_turn(state, action, reason)

    def impossible_outcome_reason(self, state: TrembleState, entry: Entry, action: ActionObject,
                                  outcomes: list[JsonObject]) -> str:
        """Why a well-formed chance outcome cannot happen: the ship is not in
        the ship deck (and which copies of its design are), the card lies in
        the lower pile or was already revealed or removed, the mission was
        dealt; otherwise the base's generic reason."""
        node = CHANCES[entry["decision"]]
        why = None
        if action["type"] == entry["decision"] and node.impossible is not None:
            why = node.impossible(state, action)
        return why or super().impossible_outcome_reason(state, entry, action, outcomes)

    def chance_outcomes(self, state: TrembleState) -> list[tuple[JsonObject, int]]:
        """The pending chance node's outcomes (its decision names its action type)."""
        entry = state["pending"][0]
        return CHANCES[entry["decision"]].outcomes(state, entry)

    # ------------------------------------------------------------ scoring & views
    def compute_score(self, state: TrembleState) -> JsonObject:
        return scoring.compute_score(state, Catalogue.of_state(state))

    def hide(self, state: TrembleState, player: int | None) -> JsonObject:
        return views.hide(state, player)

    def secret_cards(self, state: TrembleState, player: int | None) -> set[str]:
        return views.secret_cards(state, player)

    def determinize(self, state: TrembleState, player: int | None, seed: int) -> TrembleState:
        return views.determinize(state, player, seed, Catalogue.of_state(state))

    def state_from_view(self, view: JsonObject, seed: int) -> TrembleState:
        return views.state_from_view(view, seed, self.rules_version)

    def check_invariants(self, state: TrembleState, cards: card_db.CardSet) -> Errors:
        return invariants.errors(state, Catalogue.of(cards))


GAME = Tremble()
