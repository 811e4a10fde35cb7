"""Dice Duel's engine: the ``Game`` hooks and one ``Action`` per action type."""

from __future__ import annotations

from typing import Any

import card_db
from service.games import shape
from service.games.base import Action, Game
from service.games.chance import CHANCE
from service.games.draft import Draft
from tests.extension.dice_duel.cards import CardSetSchema
from tests.extension.dice_duel.evaluations import KINDS
from tests.extension.dice_duel.operations import SURVIVAL


def _dice(state: dict[Any, Any]) -> list[list[int]]:
    return [die["faces"] for die in card_db.get("dice_duel", state["card_set"]["id"]).data["dice"]]


def _target(state: dict[Any, Any]) -> int:
    target: int = card_db.get("dice_duel", state["card_set"]["id"]).data["target"]
    return target


def _pass_turn(draft: Draft, events: list[dict[Any, Any]]) -> None:
    root = draft.root
    root["turn"] += 1
    root["current"] = 1 - root["current"]
    root["turn_total"] = 0
    root["phase"] = "roll"
    events.append({"type": "turn", "player": root["current"], "rule": "DUEL-2"})


def _roll(draft: Draft, action: dict[Any, Any], events: list[dict[Any, Any]]) -> None:
    root = draft.root
    seat, dice = root["current"], action["dice"]
    root["last_roll"] = list(dice)
    events.append({"type": "rolled", "player": seat, "dice": list(dice), "rule": "DUEL-2"})
    if 1 in dice:
        events.append({"type": "bust", "player": seat, "lost": root["turn_total"],
                       "rule": "DUEL-4"})
        _pass_turn(draft, events)
        return
    root["turn_total"] += sum(dice)
    root["phase"] = "decide"


def _bank(draft: Draft, action: dict[Any, Any], events: list[dict[Any, Any]]) -> None:
    root = draft.root
    seat = action["player"]
    bank = draft.at("players", seat)
    bank["bank"] += root["turn_total"]
    events.append({"type": "banked", "player": seat, "points": root["turn_total"],
                   "bank": bank["bank"], "rule": "DUEL-3"})
    if bank["bank"] >= _target(root):
        root["turn_total"] = 0
        root["phase"] = "over"
        root["result"] = {"finished": True, "winners": [seat], "reason": "target banked"}
        events.append({"type": "won", "player": seat, "rule": "DUEL-5"})
        return
    _pass_turn(draft, events)


def _roll_again(draft: Draft, action: dict[Any, Any], events: list[dict[Any, Any]]) -> None:
    draft.root["phase"] = "roll"


def _only(kind: str) -> Any:
    return lambda state, entry: [{"type": kind, "player": entry["player"]}]


class DiceDuel(Game):
    """Roll two dice, bank or roll again; a 1 loses the turn; first to the target wins."""

    id = "dice_duel"
    title = {"en": "Dice Duel", "ru": "Дуэль на костях"}
    rules_version = "dice_duel/1"
    min_players = max_players = 2
    card_schema = CardSetSchema
    operations = (SURVIVAL,)
    evaluation_kinds = KINDS
    actions = {
        "roll": Action("The two dice as they fell, one face each (DUEL-2).",
                       {"dice": shape.ListOf(shape.Int(minimum=1, maximum=100),
                                             min_items=2, max_items=2)},
                       resolve=_roll, chance=True),
        "bank": Action("Bank the turn total; the turn passes (DUEL-3).", {},
                       resolve=_bank, legal=_only("bank")),
        "roll_again": Action("Roll the dice again (DUEL-3).", {},
                             resolve=_roll_again, legal=_only("roll_again")),
    }
    decisions = {"roll": ("roll",), "bank_or_roll": ("bank", "roll_again")}
    event_types = {"turn": "A player's turn opens (DUEL-2).",
                   "rolled": "The dice fell (DUEL-2).",
                   "bust": "A 1 was rolled: the turn total is lost (DUEL-4).",
                   "banked": "A player banked the turn total (DUEL-3).",
                   "won": "A player banked the target (DUEL-5)."}
    state_fields = {
        "players": shape.ListOf(shape.Obj({"name": shape.Str(max_length=64),
                                           "bank": shape.Int(minimum=0)}),
                                min_items=2, max_items=2),
        "current": shape.Int(minimum=0, maximum=1),
        "turn_total": shape.Int(minimum=0),
        "last_roll": shape.Nullable(shape.ListOf(shape.Int(minimum=1, maximum=100),
                                                 min_items=2, max_items=2)),
    }
    not_your_turn_rule, game_over_rule = "DUEL-6", "DUEL-7"

    def setup(self, players: int, setups: list[dict[Any, Any]], options: dict[Any, Any],
              cards: card_db.CardSet, events: list[dict[Any, Any]]) -> dict[Any, Any]:
        events.append({"type": "turn", "player": 0, "rule": "DUEL-1"})
        return {"players": [{"name": s.get("name", f"Player {i + 1}"), "bank": 0}
                            for i, s in enumerate(setups)],
                "current": 0, "turn_total": 0, "last_roll": None, "phase": "roll"}

    def compute_pending(self, state: dict[Any, Any]) -> list[dict[Any, Any]]:
        if state["phase"] == "roll":
            return [{"player": CHANCE, "decision": "roll"}]
        return [{"player": state["current"], "decision": "bank_or_roll"}]

    def out_of_turn_rule(self, state: dict[Any, Any]) -> str:
        rolling = state["pending"] and state["pending"][0]["player"] == CHANCE
        return "DUEL-2" if rolling else "DUEL-6"

    def chance_outcomes(self, state: dict[Any, Any]) -> list[tuple[dict[Any, Any], int]]:
        first, second = _dice(state)
        return [({"type": "roll", "player": CHANCE, "dice": [a, b]}, 1)
                for a in first for b in second]

    def compute_score(self, state: dict[Any, Any]) -> dict[Any, Any]:
        result = state["result"]
        return {"finished": result is not None,
                "winners": result["winners"] if result else [],
                "scores": [{"player": i, "total": p["bank"], "breakdown": {"bank": p["bank"]}}
                           for i, p in enumerate(state["players"])]}

    def hide(self, state: dict[Any, Any], player: int | None) -> dict[Any, Any]:
        return dict(state)  # nothing is hidden

    def secret_cards(self, state: dict[Any, Any], player: int | None) -> set[str]:
        return set()

    def determinize(self, state: dict[Any, Any], player: int | None, seed: int) -> dict[Any, Any]:
        return {**state, "chance": {**state["chance"], "seed": seed, "counter": 0}}

    def check_invariants(self, state: dict[Any, Any], cards: card_db.CardSet) -> dict[str, list[str]]:
        errors: dict[str, list[str]] = {}
        target = cards.data["target"]
        if state["result"] is None and any(p["bank"] >= target for p in state["players"]):
            errors["state.players"] = ["a bank reached the target but the game goes on (DUEL-5)"]
        if state["phase"] not in ("roll", "decide", "over"):
            errors["state.phase"] = ["must be roll, decide or over"]
        elif (state["phase"] == "over") != (state["result"] is not None):
            errors["state.phase"] = ["is over exactly when the game has a result"]
        elif state["phase"] == "decide" and state["last_roll"] is None:
            errors["state.last_roll"] = ["a decision follows a roll (DUEL-3)"]
        return errors


GAME = DiceDuel()
