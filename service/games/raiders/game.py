"""The Raiders rules engine on the shared contract (``service.games.base``).

The class wires the declarative parts (options, shapes) to the concept
modules: ``deck`` (chance), ``turn``, ``capture``, ``tricks`` + ``effects``,
``power``, ``scoring``, ``views``, ``invariants``.
"""

from __future__ import annotations

from collections.abc import Iterable

import card_db
from service.games.base import Game
from service.games.chance import CHANCE
from service.games.errors import InvalidOptions, RuleViolation
from service.games.messages import N_
from service.games.options import Option
from service.games.raiders import capture, deck, invariants, scoring, tricks, turn, views
from service.games.raiders.cards import catalogue, face, for_state
from service.games.raiders.shapes import ACTION_TYPES, EVENT_TYPES, STATE_FIELDS
from service.games.raiders.table import fighters_in_play


def _short_game_check(value, players, given):
    if value and players < 3:
        return N_("short_game needs 3 or more players (RAI-7)")
    if value and given.get("teams"):
        return N_("short_game and teams do not combine: a pair plays to 36 (RAI-8)")
    return None


def _teams_check(value, players, given):
    if value and players != 4:
        return N_("teams needs exactly 4 players (RAI-8)")
    return None


def _first_player_check(value, players, given):
    if value is not None and value >= players:
        return N_("must be a seat from 0 to {last}", last=players - 1)
    return None


#: the clause of each chance node, cited for an impossible outcome
CHANCE_RULES = {"deal_fighter": "RAI-4", "reveal_trump": "RAI-5",
                "draw_fighter": "RAI-10", "reveal_property": "RAI-11"}

OPTIONS = (
    Option("short_game", "boolean", False, clause="RAI-7",
           description="3+ players: the target drops by 6 for every player beyond two",
           check=_short_game_check),
    Option("teams", "boolean", False, clause="RAI-8",
           description="4 players, pairs 0+2 and 1+3 win together at 36 combined money",
           check=_teams_check),
    Option("double_deck", "boolean", False, clause="RAI-9",
           description="two copies of every card in both decks; default on above 4 players",
           default_for=lambda players: players > 4),
    Option("illegal_play", "string", "reject", clause="RAI-30", choices=("reject", "fizzle"),
           description="reject: an illegal play is refused; fizzle: an illegal trick or "
                       "capture with a card really in hand sends it to the discard with no "
                       "effect"),
    Option("first_player", "integer", None, clause="RAI-5a", minimum=0, maximum=5,
           nullable=True, description="the seat that takes the first turn (default 0)",
           check=_first_player_check),
    Option("turn_limit", "integer", None, clause="RAI-31", minimum=1, nullable=True,
           description="end after this many turns; the most money wins, ties share"),
)


def _out_of_turn_play(state: dict, action) -> tuple[str, str] | None:
    """``(clause, reason)`` for a trick or capture sent by a player who may not
    act now, when a player (not chance) is pending; else ``None``."""
    if not isinstance(action, dict) or state["result"] is not None:
        return None
    if not state["pending"] or state["pending"][0]["player"] == CHANCE:
        return None
    kind, phase = action.get("type"), state["phase"]
    if kind == "capture":
        if phase != "capture":
            return "RAI-12", (N_("only the active player (seat {active}) captures, once, in "
                                 "their own turn", active=state['active']))
        if action.get("player") == state["capture"]["attacker"]:
            return "RAI-12", (N_("your capture attempt is in progress: one turn, one fighter, "
                                 "one attempt"))
        return "RAI-21", N_("a capture is in progress: the other players may only play tricks")
    if kind == "play_trick" and phase == "main":
        return "RAI-23", (N_("outside a capture only the active player (seat {active}) plays "
                             "tricks, in their own turn; the others may in a capture's response "
                             "window", active=state['active']))
    return None


class Raiders(Game):
    """Raiders (Рейдеры): capture properties worth 36 money with fighters and tricks."""

    id = "raiders"
    title = {"en": "Raiders", "ru": "Рейдеры"}
    #: 2: a win closes a capture at once (RULING RAI-6a), a capture of a property the
    #: attacker gains ends without a fight (RULING RAI-17a), a fizzled capture uses
    #: up the attempt (RAI-30, RAI-12)
    rules_version = "raiders/2"
    min_players = 2
    max_players = 6
    game_options = OPTIONS
    action_types = ACTION_TYPES
    event_types = EVENT_TYPES
    decisions = {"turn": ("capture", "play_trick", "end_turn"), "respond": ("play_trick", "pass"),
                 "deal_fighter": ("deal",), "reveal_trump": ("reveal_trump",),
                 "draw_fighter": ("draw",), "reveal_property": ("reveal",)}
    state_fields = STATE_FIELDS
    not_your_turn_rule = "RAI-5a"
    game_over_rule = "RAI-6"

    # ------------------------------------------------------------- setup
    def setup(self, players: int, setups: list[dict], options: dict,
              cards: card_db.CardSet, events: list[dict]) -> dict:
        """RAI-1, RAI-9: two separate decks (doubled on request); the deal
        (RAI-4) and the trump (RAI-5) follow as chance nodes."""
        cat = catalogue(cards)
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
    def compute_pending(self, state: dict) -> list[dict]:
        return turn.compute_pending(state)

    def chance_outcomes(self, state: dict) -> list[tuple[dict, int]]:
        return deck.outcomes(state)

    def check_action(self, state: dict, action: dict) -> None:
        kind = action["type"]
        if kind == "capture":
            capture.check_capture(state, action, for_state(state))
        elif kind == "play_trick":
            tricks.check_play_trick(state, action)
        elif kind == "pass":
            capture.check_pass(state, action)
        elif kind == "end_turn":
            capture.check_end_turn(state, action)
        else:
            raise RuleViolation(self.not_your_turn_rule, N_("{kind} is a chance outcome, not a "
                                                            "player's action", kind=kind))

    def finished_rule(self, state: dict) -> str:
        """RAI-31 after the turn limit ended the game, else RAI-6 (a win)."""
        return "RAI-31" if state["result"].get("reason") == "turn_limit" else self.game_over_rule

    def out_of_turn_rule(self, state: dict) -> str:
        """At a chance node the clause of what is dealt or revealed (RAI-4 the
        deal, RAI-5 the trump, RAI-10 a draw, RAI-11 a property); RAI-26 in a
        capture's response window (priority goes round the table), else
        RAI-5a (turns in seat order)."""
        pending = state["pending"]
        if pending and pending[0]["player"] == CHANCE:
            return CHANCE_RULES[pending[0]["decision"]]
        return "RAI-26" if state["phase"] == "capture" else self.not_your_turn_rule

    def describe(self) -> dict:
        """``GET /v1/games/raiders`` adds ``targets``: the money a side needs
        to win (RAI-6, RAI-7 ``short_game``, RAI-8 ``teams``)."""
        return {**super().describe(), "targets": scoring.describe_targets(self.max_players)}

    def check(self, state: dict, action) -> dict:
        """RULING RAI-30: a play that ``illegal_play: fizzle`` would let fizzle is
        still illegal for ``check`` (only what legal-actions lists is legal);
        the answer names the fizzle it would cause (``"fizzles": true``)."""
        answer = super().check(state, action)
        if answer.get("fizzles"):
            answer["legal"] = False
        return answer

    def check_notes(self, state: dict, action: dict) -> dict:
        """RAI-30: the fizzle ``apply`` would turn the play into, and why."""
        if action["type"] == "play_trick":
            return tricks.fizzle_notes(state, action)
        if action["type"] == "capture":
            return capture.fizzle_notes(state, action)
        return {}

    def out_of_turn(self, state: dict, action: dict, reason: str) -> tuple[str, str]:
        """Cite the clause a player breaks by acting out of turn with a trick
        or a capture, instead of the turn order (RAI-5a): outside a capture a
        trick belongs to the active player's turn (RAI-23), a capture to the
        active player's one attempt (RAI-12); while one is in progress others
        may only play tricks (RAI-21)."""
        return _out_of_turn_play(state, action) or super().out_of_turn(state, action, reason)

    def impossible_outcome_reason(self, state: dict, entry: dict, action: dict,
                                  outcomes: list[dict]) -> str:
        """What the node expects, and why a real card cannot come up: it
        belongs to the other deck (RAI-1) or no copy of it is left where the
        node draws from (RAI-4, RAI-5, RAI-10, RAI-11, RAI-14)."""
        expected = super().impossible_outcome_reason(state, entry, action, outcomes)
        card = action.get("card")
        kinds = {o["type"] for o in outcomes}
        if action["type"] not in kinds or not isinstance(card, str):
            return expected
        cat = for_state(state)
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

    def actions_for(self, state: dict, player: int) -> list[dict]:
        """Listed directly (faster than testing candidates); the tests check
        both ways agree."""
        cat = for_state(state)
        out: list[dict] = []
        if state["phase"] == "main":
            if not state["capture_used"]:
                targets = capture.capture_targets(state, player)
                for card in state["players"][player]["hand"]:
                    if cat.fighter(card)["power"] is not None:
                        out.extend({"type": "capture", "player": player, "fighter": card,
                                    "property": prop} for prop in targets)
            out.extend(tricks.legal_tricks(state, cat, player))
            out.append({"type": "end_turn", "player": player})
        elif state["phase"] == "capture":
            out.extend(tricks.legal_tricks(state, cat, player))
            out.append({"type": "pass", "player": player})
        return out

    def candidate_actions(self, state: dict, player: int) -> Iterable[dict]:
        """A superset of the legal actions (every card against everything)."""
        hand = state["players"][player]["hand"]
        props = list(state["centre"]) + [p for pl in state["players"] for p in pl["holdings"]]
        in_play = [f for f, _, _ in fighters_in_play(state)]
        for card in hand:
            for prop in props:
                yield {"type": "capture", "player": player, "fighter": card, "property": prop}
            for target in [None] + in_play:
                for cost in [None] + [c for c in hand if c != card]:
                    action = {"type": "play_trick", "player": player, "card": card}
                    if target is not None:
                        action["target"] = target
                    if cost is not None:
                        action["cost_card"] = cost
                    yield action
        yield {"type": "pass", "player": player}
        yield {"type": "end_turn", "player": player}

    # ---------------------------------------------------------- resolve
    def resolve(self, draft, action: dict, events: list[dict]) -> None:
        kind = action["type"]
        if action["player"] == CHANCE:
            deck.RESOLVERS[kind](draft, action, events)
        elif kind == "capture":
            capture.declare(draft, action, events)
        elif kind == "pass":
            capture.pass_priority(draft, action, events)
        elif kind == "play_trick":
            tricks.play_trick(draft, action, events)
        else:
            turn.end_turn(draft, action, events)
        if kind in ("pass", "play_trick"):  # only these move properties (RAI-18, RAI-24)
            scoring.check_win(draft, events)
        turn.advance(draft, events)

    # ------------------------------------------------------------ score
    def compute_score(self, state: dict) -> dict:
        return scoring.compute_score(state)

    # ------------------------------------------------------------ views
    def hide(self, state: dict, player: int | None) -> dict:
        return views.hide(state, player)

    def secret_cards(self, state: dict, player: int | None) -> set[str]:
        return views.secret_cards(state, player)

    def determinize(self, state: dict, player: int | None, seed: int) -> dict:
        return views.determinize(state, player, seed)

    def check_invariants(self, state: dict, cards: card_db.CardSet) -> dict[str, list[str]]:
        return invariants.check_invariants(state, catalogue(cards))
