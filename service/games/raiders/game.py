"""The Raiders rules engine on the shared contract (``service.games.base``).

The class wires the declarative parts (options, shapes, one ``RaidersAction``
per action type) to the concept modules: ``deck`` (chance), ``turn``,
``capture``, ``tricks`` + ``effects``, ``power``, ``scoring``, ``views``,
``invariants``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import card_db
from service.games.base import Action, Game, Lister, Resolve
from service.games.chance import CHANCE
from service.games.draft import Draft
from service.games.errors import InvalidOptions, RuleViolation
from service.games.messages import N_
from service.games.objects import ActionObject, Entry, Errors, Event, JsonObject
from service.games.options import Option
from service.games.raiders import capture, deck, invariants, migrations, scoring, strategy, tricks, turn, views
from service.games.raiders.card_schema import CardSetSchema
from service.games.raiders.cards import Catalogue, face
from service.games.raiders.shapes import CARD, CHANCE_CARD, EVENT_TYPES, STATE_FIELDS
from service.games.raiders.state import in_capture
from service.games.raiders.state_types import RaidersState
from service.games.raiders.words import WORDS
from service.games.versions import Change, RulesVersion


def _short_game_refusal(value: Any, players: int, given: JsonObject) -> str | None:
    if value and players < 3:
        return N_("short_game needs 3 or more players (RAI-7)")
    if value and given.get("teams"):  # RULING RAI-8a
        return N_("short_game and teams do not combine: a pair plays to 36 (RAI-8)")
    return None


def _teams_refusal(value: Any, players: int, given: JsonObject) -> str | None:
    if value and players != 4:
        return N_("teams needs exactly 4 players (RAI-8)")
    return None


def _first_player_refusal(value: Any, players: int, given: JsonObject) -> str | None:
    if value is not None and value >= players:
        return N_("must be a seat from 0 to {last}", last=players - 1)
    return None


OPTIONS = (
    Option("short_game", "boolean", False, clause="RAI-7",
           description="3+ players: the target drops by 6 for every player beyond two",
           refusal=_short_game_refusal),
    Option("teams", "boolean", False, clause="RAI-8",
           description="4 players, pairs 0+2 and 1+3 win together at 36 combined money",
           refusal=_teams_refusal),
    Option("double_deck", "boolean", None, clause="RAI-9",
           description="two copies of every card in both decks. No fixed default: left out, "
                       "it is on above 4 players and off at 2 to 4; 6 players need it",
           default_for=lambda players: players > 4),
    Option("illegal_play", "string", "reject", clause="RAI-30", choices=("reject", "fizzle"),
           description="reject: an illegal play is refused; fizzle: an illegal trick or "
                       "capture with a card really in hand sends it to the discard with no "
                       "effect"),
    Option("first_player", "integer", None, clause="RAI-5a", minimum=0, maximum=5,
           nullable=True, description="the seat that takes the first turn (default 0)",
           refusal=_first_player_refusal),
    Option("turn_limit", "integer", None, clause="RAI-31", minimum=1, nullable=True,
           description="end after this many turns; the most money wins, ties share"),
)


def _one(kind: str) -> Lister[RaidersState]:
    """The lister of an action type without fields: the one action."""
    return lambda state, entry: [{"type": kind, "player": entry["player"]}]


def _then_win_check(resolve: Resolve[RaidersState]) -> Resolve[RaidersState]:
    """``resolve``, then RAI-6: a pass (a capture resolving, RAI-18) and a
    trick (RAI-24) are the actions that move properties."""
    def resolved(draft: Draft[RaidersState], action: ActionObject, events: list[Event]) -> None:
        resolve(draft, action, events)
        scoring.check_win(draft, events)
    return resolved


@dataclass(frozen=True)
class RaidersAction(Action[RaidersState]):
    """A Raiders action type: an ``Action`` and, for a trick or a capture, the
    clause a player who may not act now breaks by sending it (RAI-12, RAI-21,
    RAI-23) instead of the turn order (RAI-5a)."""

    out_of_turn: Callable[[RaidersState, ActionObject], tuple[str, str] | None] | None = None


def _chance(description: str, resolve: Resolve[RaidersState]) -> RaidersAction:
    return RaidersAction(description, CHANCE_CARD, resolve=resolve, chance=True)


ACTIONS: Mapping[str, RaidersAction] = {
    "capture": RaidersAction(
        "RAI-15: put a fighter from your hand against a property in play",
        {"fighter": CARD, "property": CARD}, resolve=capture.declare,
        enforce=capture.check_capture, legal=capture.legal_captures,
        candidates=capture.capture_candidates, notes=capture.capture_fizzle_notes,
        out_of_turn=capture.capture_out_of_turn),
    "play_trick": RaidersAction(
        "RAI-22: play a card's trick from your hand", {"card": CARD},
        optional={"target": CARD, "cost_card": CARD},
        resolve=_then_win_check(tricks.play_trick), enforce=tricks.check_play_trick,
        legal=tricks.legal_tricks, candidates=tricks.trick_candidates,
        notes=tricks.trick_fizzle_notes, out_of_turn=tricks.trick_out_of_turn),
    "pass": RaidersAction(
        "RAI-26: pass priority in a capture's response window", {},
        resolve=_then_win_check(capture.pass_priority), enforce=capture.check_pass,
        legal=_one("pass")),
    "end_turn": RaidersAction(
        "RAI-13: end your turn", {}, resolve=turn.end_turn,
        enforce=capture.check_end_turn, legal=_one("end_turn")),
    "deal": _chance("chance (RAI-4): the card dealt to the next player", deck.resolve_deal),
    "reveal_trump": _chance("chance (RAI-5): the card turned up as trump", deck.resolve_trump),
    "draw": _chance("chance (RAI-10, RAI-14): the fighter card drawn", deck.resolve_draw),
    "reveal": _chance("chance (RAI-11): the property revealed into the centre",
                      deck.resolve_reveal),
}


class Raiders(Game[RaidersState]):
    """Raiders (Рейдеры): capture properties worth 36 money with fighters and tricks."""

    id = "raiders"
    words = WORDS
    title = {"en": "Raiders", "ru": "Рейдеры"}
    #: 2: a win closes a capture at once (RULING RAI-6a), a capture of a property the
    #: attacker gains ends without a fight (RULING RAI-17a), a fizzled capture uses
    #: up the attempt (RAI-30, RAI-12)
    rules_version = "raiders/2"
    rules_history = (
        RulesVersion("raiders/1", "1.0.0"),
        RulesVersion("raiders/2", "2.0.0", (
            Change("RAI-6a", "rule",
                   "A win inside a response window closes the capture at once with no fight; the "
                   "attacking fighter goes back to its owner's hand (`capture_ended` `outcome: "
                   "game_won`).",
                   "Победа в окне ответа сразу закрывает захват без боя; атакующий боец "
                   "возвращается в руку владельца (`capture_ended` `outcome: game_won`)."),
            Change("RAI-17a", "rule",
                   "A trick that puts the attacked property under the attacker's control ends "
                   "the capture with no fight, the attempt used (`capture_ended` `outcome: "
                   "unopposed`).",
                   "Трюк, отдающий атакуемое имущество под контроль атакующего, завершает "
                   "захват без боя, попытка потрачена (`capture_ended` `outcome: unopposed`)."),
            Change("RAI-30", "rule",
                   "A capture that fizzles uses up the turn's one capture attempt (RAI-12).",
                   "Сорвавшийся захват расходует единственную попытку захвата за ход (RAI-12)."),
        ), upgrade=migrations.from_1),
    )
    min_players = 2
    max_players = 6
    card_schema = CardSetSchema
    #: ``python -m bench.step_costs --playouts 6 --turn-limit 200``: at most 0.032 /
    #: 0.637 ms a step, 5.86 (2 players) to 10.22 (6) steps a turn
    step_seconds = {"random": 0.00005, "greedy": 0.001}
    turn_steps = (4.0, 1.5)
    #: 2 money (×10 in ``strategy.position_value``), picked from its units, not tuned; a
    #: greedy rollout step costs ~3 ms, too slow for a 200 ms answer; 0.7 ms measured
    search_value_scale = 20.0
    search_iteration_seconds = 0.001
    position_value = strategy.position_value
    game_options = OPTIONS
    actions: Mapping[str, RaidersAction] = ACTIONS
    event_types = EVENT_TYPES
    #: in listing order; a capture in the response window is never legal, but
    #: ``illegal_play: fizzle`` lets one fizzle (RAI-21, RAI-30)
    decisions = {"turn": ("capture", "play_trick", "end_turn"),
                 "respond": ("capture", "play_trick", "pass"),
                 "deal_fighter": ("deal",), "reveal_trump": ("reveal_trump",),
                 "draw_fighter": ("draw",), "reveal_property": ("reveal",)}
    state_fields = STATE_FIELDS
    not_your_turn_rule = "RAI-5a"
    game_over_rule = "RAI-6"

    # ------------------------------------------------------------- setup
    def setup(self, players: int, setups: list[JsonObject], options: JsonObject,
              cards: card_db.CardSet, events: list[Event]) -> JsonObject:
        """RAI-1, RAI-9: two separate decks (doubled on request); the deal
        (RAI-4) and the trump (RAI-5) follow as chance nodes.  RULING RAI-9a: one
        set is allowed while it can deal 6 each and turn up a trump (five players,
        not six)."""
        cat = Catalogue.of(cards)
        fighters = cat.fighter_deck(options["double_deck"])
        if len(fighters) < deck.HAND_SIZE * players + 1:
            raise InvalidOptions({"options.double_deck": [
                N_("{count} fighter cards cannot deal 6 each to {players} players and turn up a "
                   "trump: use double_deck (RAI-9)", count=len(fighters), players=players)]})
        first = options["first_player"] or 0
        return {
            "phase": "deal",
            "players": [{"name": s.get("name", f"Player {i + 1}"), "hand": [], "holdings": {}}
                        for i, s in enumerate(setups)],
            "first_player": first, "active": first,
            "fighter_deck": fighters, "bottom": None, "trump": None,
            "property_deck": cat.property_deck(options["double_deck"]),
            "centre": [], "discard": [],
            "capture": None, "capture_used": False, "modifiers": [], "owed_draws": None,
        }

    # --------------------------------------------------------- decisions
    def compute_pending(self, state: RaidersState) -> list[Entry]:
        return turn.compute_pending(state)

    def chance_outcomes(self, state: RaidersState) -> list[tuple[JsonObject, int]]:
        return deck.outcomes(state)

    def wrong_decision(self, state: RaidersState, entry: Entry, action: ActionObject) -> tuple[str, str]:
        """The refusal of the type's own ``enforce`` (RAI-26: a pass with no
        response window, an end of turn during one); a chance outcome sent by
        a player cites the turn order (RAI-5a)."""
        enforce = self.actions[action["type"]].enforce
        if enforce is not None:
            try:
                enforce(state, action)
            except RuleViolation as exc:
                return exc.rule, exc.reason
        return self.not_your_turn_rule, super().wrong_decision(state, entry, action)[1]

    def after_action(self, draft: Draft[RaidersState], action: ActionObject, events: list[Event]) -> None:
        """The steps that need no decision and no chance (``turn.advance``)."""
        turn.advance(draft, events)

    def finished_rule(self, state: RaidersState) -> str:
        """RAI-31 after the turn limit ended the game, else RAI-6 (a win)."""
        result = state["result"]
        return "RAI-31" if result is not None and result.get("reason") == "turn_limit" \
            else self.game_over_rule

    def out_of_turn_rule(self, state: RaidersState) -> str:
        """At a chance node the clause of what is dealt or revealed (RAI-4 the
        deal, RAI-5 the trump, RAI-10 a draw, RAI-11 a property); RAI-26 in a
        capture's response window (priority goes round the table), else
        RAI-5a (turns in seat order)."""
        pending = state["pending"]
        if pending and pending[0]["player"] == CHANCE:
            return deck.NODES[pending[0]["decision"]].rule
        return "RAI-26" if in_capture(state) else self.not_your_turn_rule

    def describe(self) -> JsonObject:
        """``GET /v1/games/raiders`` adds ``targets``: the money a side needs
        to win (RAI-6, RAI-7 ``short_game``, RAI-8 ``teams``)."""
        return {**super().describe(), "targets": scoring.describe_targets(self.max_players)}

    def check(self, state: RaidersState, action: Any) -> JsonObject:
        """RULING RAI-30: a play that ``illegal_play: fizzle`` would let fizzle is
        still illegal for ``check`` (only what legal-actions lists is legal);
        the answer names the fizzle it would cause (``"fizzles": true``)."""
        answer = super().check(state, action)
        if answer.get("fizzles"):
            answer["legal"] = False
        return answer

    def out_of_turn(self, state: RaidersState, action: ActionObject, reason: str) -> tuple[str, str]:
        """Cite the clause a player breaks by acting out of turn with a trick
        or a capture (its type's ``out_of_turn``), instead of the turn order
        (RAI-5a), while a player (not chance) is pending."""
        own = self.actions[action["type"]].out_of_turn
        pending = state["pending"]
        if own is not None and pending and pending[0]["player"] != CHANCE:
            found = own(state, action)
            if found is not None:
                return found
        return super().out_of_turn(state, action, reason)

    def impossible_outcome_reason(self, state: RaidersState, entry: Entry, action: ActionObject,
                                  outcomes: list[JsonObject]) -> str:
        """What the node expects, and why a real card cannot come up: it
        belongs to the other deck (RAI-1) or no copy of it is left where the
        node draws from (RAI-4, RAI-5, RAI-10, RAI-11, RAI-14)."""
        expected = super().impossible_outcome_reason(state, entry, action, outcomes)
        card = action.get("card")
        kinds = {o["type"] for o in outcomes}
        if action["type"] not in kinds or not isinstance(card, str):
            return expected
        cat = Catalogue.of_state(state)
        reveals_property = "reveal" in kinds
        if cat.is_property_card(card) and not reveals_property:
            return N_("{card} is a property card and never in the fighter deck (RAI-1); "
                      "{expected}", card=card, expected=expected)
        if cat.is_fighter_card(card) and reveals_property:
            return N_("{card} is a fighter card and never in the property deck (RAI-1); "
                      "{expected}", card=card, expected=expected)
        if cat.is_fighter_card(card) or cat.is_property_card(card):
            if reveals_property:
                return N_("no copy of {face} is left in the property deck (it is in play, in a "
                          "hand or in the discard); {expected}", face=face(card), expected=expected)
            return N_("no copy of {face} is left in the fighter deck (it is in play, in a hand "
                      "or in the discard); {expected}", face=face(card), expected=expected)
        return expected

    # ------------------------------------------------------------ score
    def compute_score(self, state: RaidersState) -> JsonObject:
        return scoring.compute_score(state)

    # ------------------------------------------------------------ views
    def hide(self, state: RaidersState, player: int | None) -> JsonObject:
        return views.hide(state, player)

    def secret_cards(self, state: RaidersState, player: int | None) -> set[str]:
        return views.secret_cards(state, player)

    def determinize(self, state: RaidersState, player: int | None, seed: int) -> RaidersState:
        return views.determinize(state, player, seed)

    def state_from_view(self, view: JsonObject, seed: int) -> RaidersState:
        return views.state_from_view(view, seed, self.rules_version)

    def check_invariants(self, state: RaidersState, cards: card_db.CardSet) -> Errors:
        return invariants.check_invariants(state, Catalogue.of(cards))


GAME = Raiders()
