"""Every Tremble action type, declared once: fields, clause, enforce, resolve, listing.

``ACTIONS`` is ``Tremble.actions``: the base class dispatches ``check``,
``apply`` and ``legal_actions`` on it (``service.games.base.Action``).  A
chance outcome (``ChanceAction``) also lists its outcomes with their weights and
says why a well-formed outcome cannot happen.  ``DECISIONS`` names the action
types answering each pending decision, in the order they are listed; a
credit (TRE-26) answers every decision of a player.

>>> [t for t, a in ACTIONS.items() if a.chance]
['deal_mission', 'draw_ship', 'reveal', 'roll']
>>> DECISIONS["reserve"]
('join_reserve', 'reserve_done', 'take_credit', 'repay_credit')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from service.games import shape as s
from service.games.base import Action, Lister
from service.games.chance import CHANCE
from service.games.draft import Draft
from service.games.errors import RuleViolation
from service.games.messages import N_
from service.games.objects import ActionObject, Entry, Event, JsonObject
from service.games.tremble import battle, buying, credit, intel, missions, planning, reward
from service.games.tremble.cards import Catalogue
from service.games.tremble.setup import MISSIONS_DEALT
from service.games.tremble.shapes import ID, ORDERS
from service.games.tremble.state import required
from service.games.tremble.state_types import TrembleState
from service.games.tremble.zones import attacking

#: ``outcomes(state, entry)``: a chance node's outcomes and their weights
Outcomes = Callable[[TrembleState, Entry], list[tuple[ActionObject, int]]]
#: ``impossible(state, outcome)``: why a well-formed outcome cannot happen (``None``: it can)
Impossible = Callable[[TrembleState, ActionObject], str | None]


def _no_outcomes(state: TrembleState, entry: Entry) -> list[tuple[ActionObject, int]]:  # pragma: no cover
    raise NotImplementedError


def _clause(rule: str) -> Callable[[JsonObject], str]:
    return lambda entry: rule


@dataclass(frozen=True)
class ChanceAction(Action[TrembleState]):
    """A chance outcome's action type: its ``outcomes`` at the pending node, ``impossible``,
    and ``rule(entry)``: the clause of the draw, deal or roll pending.  (The state's chance
    record, its mode and seed, is ``service.games.state_types.Chance``.)"""

    outcomes: Outcomes = _no_outcomes
    impossible: Impossible | None = None
    rule: Callable[[JsonObject], str] = _clause("TRE-11")


def _each(kind: str, **fields: object) -> Lister[TrembleState]:
    """A lister of the one action ``{type: kind, **fields}`` of the pending player."""
    return lambda state, entry: [{"type": kind, "player": entry["player"], **fields}]


# ----------------------------------------------------------------- buy (TRE-12)
def _start_drawing(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    buying.start_buy(draft, action["player"], "draw", events)


def _decline(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    buying.start_buy(draft, action["player"], "decline", events)


def _buys(state: TrembleState, entry: Entry) -> list[JsonObject]:
    return buying.buy_actions(state, Catalogue.of_state(state), entry["player"])


def _check_buy(state: TrembleState, action: ActionObject) -> None:
    buying.check_buy(state, Catalogue.of_state(state), action)


def _buy(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    buying.buy(draft, Catalogue.of_state(draft.root), action, events)


# ----------------------------------------------------------------- plan, refuel, redeploy
def _plans(state: TrembleState, entry: Entry) -> list[JsonObject]:
    return planning.plan_actions(state, entry["player"])


def _check_plan(state: TrembleState, action: ActionObject) -> None:
    planning.check_orders(state, action["player"], action["orders"])


def _plan(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    """TRE-14: the orders stay secret until everyone has submitted."""
    draft.at("players", action["player"])["orders"] = [dict(o) for o in action["orders"]]
    events.append({"type": "plan_submitted", "player": action["player"], "rule": "TRE-14"})


def _unfueled(state: TrembleState, entry: Entry) -> list[JsonObject]:
    return [{"type": "discard_unfueled", "player": entry["player"], "ship": ship}
            for ship in sorted(set(attacking(state, entry["player"])))]


def _check_unfueled(state: TrembleState, action: ActionObject) -> None:
    if action["ship"] not in attacking(state, action["player"]):
        raise RuleViolation("TRE-15", N_("{ship} is not one of your attacking ships",
                                         ship=action['ship']))


def _discard_unfueled(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    planning.discard_unfueled(draft, action["player"], action["ship"], events)


def _redeploys(state: TrembleState, entry: Entry) -> list[JsonObject]:
    return planning.redeploy_actions(state, Catalogue.of_state(state), entry["player"])


def _check_redeploy(state: TrembleState, action: ActionObject) -> None:
    planning.check_redeploy(state, Catalogue.of_state(state), action["player"],
                            action["moves"])


def _redeploy(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    """TRE-32: the moves stay secret until everyone has submitted."""
    draft.at("players", action["player"])["redeploy"] = [dict(m) for m in action["moves"]]
    events.append({"type": "redeploy_submitted", "player": action["player"], "rule": "TRE-32"})


# ----------------------------------------------------------------- battle (TRE-19 … TRE-21, TRE-31)
def _choices(state: TrembleState, entry: Entry) -> list[JsonObject]:
    return [{"type": "battle_choice", "player": entry["player"], "choice": c}
            for c in ("fight", "retreat")]


def _battle_choice(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    battle.decide(draft, action["player"], action["choice"], events)


def _reserves(state: TrembleState, entry: Entry) -> list[JsonObject]:
    return [{"type": "join_reserve", "player": entry["player"], "ship": ship}
            for ship in battle.reserve_ships(state, Catalogue.of_state(state),
                                             entry["player"])]


def _check_reserve(state: TrembleState, action: ActionObject) -> None:
    player = action["player"]
    if battle.reserve_full(state, player):
        raise RuleViolation("TRE-31a", N_("you already have {max_ships_per_city} ships "
                                          "at this city: a reserve ship joining counts "
                                          "toward the TRE-9 limit",
                                          max_ships_per_city=planning.MAX_SHIPS_PER_CITY))
    if action["ship"] not in battle.reserve_ships(state, Catalogue.of_state(state),
                                                  player):
        raise RuleViolation("TRE-31", N_("{ship} is not a reserve ship in your hand that "
                                         "has not flown and whose fuel you have",
                                         ship=action['ship']))


def _join_reserve(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    battle.join_reserve(draft, Catalogue.of_state(draft.root), action["player"],
                        action["ship"], events)


def _reserve_done(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    draft.at("battle")["next"] += 1


def _losing_ships(state: TrembleState, entry: Entry) -> list[str]:
    """The ships one of which the pending loser discards: their side's in a
    battle (TRE-21), their searching ships against an army (TRE-24)."""
    if entry["decision"] == "army_loss":
        return state["searches"][intel.search_index(state, entry["city"])]["ships"]
    return battle.own_side(state, entry["player"])["ships"]


def _losses(state: TrembleState, entry: Entry) -> list[JsonObject]:
    return [{"type": "lose_ship", "player": entry["player"], "ship": ship}
            for ship in _losing_ships(state, entry)]


def _check_loss(state: TrembleState, action: ActionObject) -> None:
    entry = next(e for e in state["pending"] if e["player"] == action["player"])
    if entry["decision"] == "army_loss":
        intel.check_army_loss(state, action)
    elif action["ship"] not in battle.own_side(state, action["player"])["ships"]:
        raise RuleViolation("TRE-21", N_("{ship} did not attack this city",
                                         ship=action['ship']))


def _lose_ship(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    if draft.root["phase"] == "intel":
        intel.army_loss(draft, action["ship"], events)
    else:
        battle.lose_ship(draft, action["player"], action["ship"], events)


# ----------------------------------------------------------------- armies (TRE-24)
def _army_choices(state: TrembleState, entry: Entry) -> list[JsonObject]:
    return [{"type": "army_choice", "player": entry["player"], "city": city, "choice": choice}
            for city in entry["cities"] for choice in ("fight", "abandon")]


def _check_army_choice(state: TrembleState, action: ActionObject) -> None:
    intel.check_army_choice(state, action)


# ----------------------------------------------------------------- rewards (TRE-22)
def _raid(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    reward.raid(draft, Catalogue.of_state(draft.root), action, events)


def _search(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    reward.search(draft, Catalogue.of_state(draft.root), action, events)


# ----------------------------------------------------------------- credit (TRE-26)
def _credits_to_take(state: TrembleState, entry: Entry) -> list[JsonObject]:
    if not credit.may_take(state, entry["player"]):
        return []
    return [{"type": "take_credit", "player": entry["player"]}]


def _credits_to_repay(state: TrembleState, entry: Entry) -> list[JsonObject]:
    if not credit.may_repay(state, entry["player"]):
        return []
    return [{"type": "repay_credit", "player": entry["player"]}]


def _take_credit(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    credit.take(draft, Catalogue.of_state(draft.root), action["player"], events)


def _repay_credit(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    credit.repay(draft, Catalogue.of_state(draft.root), action["player"], events)


# ----------------------------------------------------------------- chance
def _draws(state: TrembleState, entry: Entry) -> list[tuple[JsonObject, int]]:
    return [({"type": "draw_ship", "player": CHANCE, "ship": ship}, 1)
            for ship in buying.draw_outcomes(state)]


def _draw(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    who = draft.root["pending"][0]["for"]
    buying.draw(draft, who, action["ship"], events)
    events.append({"type": "ship_drawn", "player": who, "rule": "TRE-12"})


def _impossible_draw(state: TrembleState, action: ActionObject) -> str | None:
    return buying.impossible_draw(state, Catalogue.of_state(state), action["ship"])


def _reveals(state: TrembleState, entry: Entry) -> list[tuple[JsonObject, int]]:
    piles = state["piles"]
    top = required(intel.top_pile(piles), "the top pile")
    return [({"type": "reveal", "player": CHANCE, "card": card}, 1)
            for card in piles[top]["candidates"]]


def _reveal(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    intel.reveal(draft, Catalogue.of_state(draft.root), action["card"], events)


def _impossible_reveal(state: TrembleState, action: ActionObject) -> str | None:
    return intel.impossible_reveal(state, Catalogue.of_state(state), action["card"])


def _rolls(state: TrembleState, entry: Entry) -> list[tuple[JsonObject, int]]:
    return [({"type": "roll", "player": CHANCE, "total": total}, weight)
            for total, weight in battle.ROLL_WEIGHTS.items()]


def _roll_rule(entry: Entry) -> str:
    """TRE-24 for a roll against an army, TRE-20 for a battle roll."""
    return "TRE-24" if entry.get("context") == "army" else "TRE-20"


def _roll(draft: Draft[TrembleState], action: ActionObject, events: list[Event]) -> None:
    """2d6 against an army (TRE-24) or in a battle (TRE-20)."""
    if draft.root["pending"][0]["context"] == "army":
        intel.army_roll(draft, Catalogue.of_state(draft.root), action["total"], events)
    else:
        battle.roll(draft, action["total"], events)


# ----------------------------------------------------------------- the table
ACTIONS: dict[str, Action[TrembleState]] = {
    "keep_missions": Action(
        "TRE-10: keep 1 to 3 of the 4 missions dealt (secret)",
        {"missions": s.ListOf(ID, max_items=MISSIONS_DEALT)},
        resolve=missions.keep, enforce=missions.check_keep, legal=missions.keep_actions),
    "draw_ships": Action(
        "RULING TRE-12a: take part in the buy step: draw two ship cards", {},
        resolve=_start_drawing, legal=_each("draw_ships")),
    "decline_buy": Action(
        "RULING TRE-12a: skip the buy step this turn: draw nothing", {},
        resolve=_decline, legal=_each("decline_buy")),
    "buy": Action(
        "TRE-12: buy one drawn ship (or null); `discard` a ship in hand when the fleet is full",
        {"ship": s.Nullable(ID), "discard": s.Nullable(ID)},
        resolve=_buy, enforce=_check_buy, legal=_buys),
    "plan": Action(
        "TRE-14: secret attack orders [{ship, slot}] (committed, revealed when all submitted)",
        {"orders": ORDERS}, resolve=_plan, enforce=_check_plan, legal=_plans),
    "discard_unfueled": Action(
        "TRE-15: discard one attacking ship you cannot fuel", {"ship": ID},
        resolve=_discard_unfueled, enforce=_check_unfueled, legal=_unfueled),
    "redeploy": Action(
        "TRE-32: secret new slots for redeploy ships (omitted ships keep their order)",
        {"moves": ORDERS}, resolve=_redeploy, enforce=_check_redeploy, legal=_redeploys),
    "battle_choice": Action(
        "TRE-19: fight or retreat", {"choice": s.Enum("fight", "retreat")},
        resolve=_battle_choice, legal=_choices),
    "join_reserve": Action(
        "TRE-31: a reserve ship joins this battle, paying its fuel", {"ship": ID},
        resolve=_join_reserve, enforce=_check_reserve, legal=_reserves),
    "reserve_done": Action(
        "TRE-31: no more reserve ships for this battle", {},
        resolve=_reserve_done, legal=_each("reserve_done")),
    "lose_ship": Action(
        "TRE-21 / TRE-24: the ship you lose", {"ship": ID},
        resolve=_lose_ship, enforce=_check_loss, legal=_losses),
    "army_choice": Action(
        "TRE-24: abandon the search at `city` or fight the army",
        {"city": ID, "choice": s.Enum("fight", "abandon")},
        resolve=intel.army_choice, enforce=_check_army_choice, legal=_army_choices),
    "raid": Action(
        "TRE-22: take the raid value and the city now", {"city": ID},
        resolve=_raid, enforce=reward.check_raid, legal=reward.raid_actions),
    "search": Action(
        "TRE-22: search with these ships (the rest return to hand)",
        {"city": ID, "ships": s.ListOf(ID, max_items=5)},
        resolve=_search, enforce=reward.check_search, legal=reward.search_actions),
    "take_credit": Action(
        "TRE-26: take a credit (+50,000 people)", {},
        resolve=_take_credit, enforce=credit.check_take, legal=_credits_to_take),
    "repay_credit": Action(
        "TRE-26: repay a credit (60,000 people)", {},
        resolve=_repay_credit, enforce=credit.check_repay, legal=_credits_to_repay),
}

#: the chance outcomes; each chance node's decision is named after its type
CHANCES: dict[str, ChanceAction] = {
    "deal_mission": ChanceAction(
        "chance: the mission card dealt (TRE-10)", {"mission": ID}, chance=True,
        resolve=missions.deal, outcomes=missions.deal_outcomes,
        impossible=missions.impossible_deal, rule=_clause("TRE-10")),
    "draw_ship": ChanceAction(
        "chance: the ship card drawn, by its copy id as the deck holds it (any copy of the "
        "design seen will do) (TRE-12)", {"ship": ID}, chance=True,
        resolve=_draw, outcomes=_draws, impossible=_impossible_draw, rule=_clause("TRE-12")),
    "reveal": ChanceAction(
        "chance: the city or army card revealed (TRE-13)", {"card": ID}, chance=True,
        resolve=_reveal, outcomes=_reveals, impossible=_impossible_reveal,
        rule=_clause("TRE-13")),
    "roll": ChanceAction(
        "chance: the sum of 2d6 (weight (6-|7-total|)/36) (TRE-20, TRE-24)",
        {"total": s.Int(minimum=min(battle.ROLL_WEIGHTS), maximum=max(battle.ROLL_WEIGHTS))},
        chance=True, resolve=_roll, outcomes=_rolls, rule=_roll_rule),
}
ACTIONS.update(CHANCES)

#: a credit may be taken or repaid while any decision of the player is pending (TRE-26)
CREDIT_ACTIONS = ("take_credit", "repay_credit")
#: the action types answering each decision, in the order ``legal_actions`` lists them
DECISIONS: dict[str, tuple[str, ...]] = {
    **{decision: types + CREDIT_ACTIONS for decision, types in {
        "keep_missions": ("keep_missions",),
        "draw_or_decline": ("draw_ships", "decline_buy"), "buy": ("buy",),
        "plan": ("plan",), "discard_unfueled": ("discard_unfueled",),
        "redeploy": ("redeploy",), "fight_or_retreat": ("battle_choice",),
        "reserve": ("join_reserve", "reserve_done"),
        "lose_ship": ("lose_ship",), "army_loss": ("lose_ship",),
        "army_choice": ("army_choice",), "reward": ("raid", "search")}.items()},
    **{kind: (kind,) for kind in CHANCES},
}
