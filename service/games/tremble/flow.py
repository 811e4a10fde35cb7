"""The turn as pending decisions (TRE-11 … TRE-17) and the automatic steps.

``advance`` carries the state forward until a decision (a player's or a
chance node) is needed; ``compute_pending`` derives who decides from the state.
One turn: fuel (TRE-11, automatic) → buy (every player at once says whether
they draw, RULING TRE-12a; the draws; then those who drew buy, TRE-12) →
intel (reveals and armies, TRE-13/24/25) → plan (everyone at once,
commit-then-reveal, TRE-14) → refuel (TRE-15) → redeploy (TRE-32) →
battles slot by slot (TRE-16, TRE-18 … TRE-21) → rewards (TRE-17, TRE-22/23)
→ searches count down; the game ends after the turn in which the city deck
ran out (TRE-28).
"""

from __future__ import annotations

from collections.abc import Callable

from service.games.chance import CHANCE
from service.games.draft import Draft
from service.games.objects import Entry, Event, JsonObject
from service.games.tremble import battle, buying, credit, intel, planning, reward
from service.games.tremble.cards import Catalogue
from service.games.tremble.scoring import final_result
from service.games.tremble.setup import MISSIONS_DEALT
from service.games.tremble.state import required
from service.games.tremble.state_types import TrembleState

#: the clause behind each kind of decision (cited for a wrong action type)
DECISION_RULES = {"keep_missions": "TRE-10", "draw_or_decline": "TRE-12a", "buy": "TRE-12",
                  "plan": "TRE-14",
                  "discard_unfueled": "TRE-15", "redeploy": "TRE-32",
                  "fight_or_retreat": "TRE-19", "reserve": "TRE-31", "lose_ship": "TRE-21",
                  "army_choice": "TRE-24", "army_loss": "TRE-24", "reward": "TRE-22"}


def chance_entry(decision: str, **context: object) -> list[JsonObject]:
    return [{"player": CHANCE, "decision": decision, **context}]


def compute_pending(state: TrembleState) -> list[Entry]:
    """Who decides now (several entries: simultaneous decisions)."""
    return PENDING[state["phase"]](state)


def _pending_missions(state: TrembleState) -> list[Entry]:
    """TRE-10: four missions dealt to each player in turn, then everyone keeps some."""
    players = state["players"]
    for p, pl in enumerate(players):
        if (not pl["missions_kept"] and len(pl["mission_offer"]) < MISSIONS_DEALT
                and state["mission_deck"]):
            return chance_entry("deal_mission", **{"for": p})
    return [{"player": p, "decision": "keep_missions"}
            for p, pl in enumerate(players) if not pl["missions_kept"]]


def _pending_buy(state: TrembleState) -> list[Entry]:
    """TRE-12: the draws first, then each player draws or declines, then buys."""
    players = state["players"]
    for p, pl in enumerate(players):
        if pl["to_draw"] > 0:  # chance_entry("draw_ship", for=p), spelt out: a hot path
            return [{"player": CHANCE, "decision": "draw_ship", "for": p}]
    return [{"player": p, "decision": "buy" if pl["buy_choice"] else "draw_or_decline"}
            for p, pl in enumerate(players) if not pl["bought"]]


def _pending_intel(state: TrembleState) -> list[Entry]:
    """TRE-13 / TRE-24: the next reveal, or the army's choices, roll and loss."""
    army = state["army"]
    if army is None:
        return chance_entry("reveal", slot=intel.next_empty_slot(state))
    if army["loser"] is not None:
        return [{"player": army["loser"]["player"], "decision": "army_loss",
                 "city": army["loser"]["city"]}]
    waiting: dict[int, list[str]] = {}
    for c in army["choices"]:
        if c["choice"] is None:
            waiting.setdefault(c["player"], []).append(c["city"])
    if waiting:
        return [{"player": p, "decision": "army_choice", "army": army["card"],
                 "cities": waiting[p]} for p in sorted(waiting)]
    fight = next(c for c in army["choices"] if c["choice"] == "fight")
    return chance_entry("roll", context="army", **{"for": fight["player"]}, city=fight["city"])


def _pending_plan(state: TrembleState) -> list[Entry]:
    return [{"player": p, "decision": "plan"} for p, pl in enumerate(state["players"])
            if pl["orders"] is None]


def _pending_refuel(state: TrembleState) -> list[Entry]:
    return [{"player": p, "decision": "discard_unfueled"}
            for p in planning.short_of_fuel(state, Catalogue.of_state(state))]


def _pending_redeploy(state: TrembleState) -> list[Entry]:
    return [{"player": p, "decision": "redeploy"} for p, pl in enumerate(state["players"])
            if pl["redeploy"] is None]


def _pending_battle(state: TrembleState) -> list[Entry]:
    """TRE-19 … TRE-21, TRE-31: the decision or roll of the battle's step."""
    b = required(state["battle"], "the battle")
    step = b["step"]
    if step == "decide":
        return [{"player": b["order"][b["next"]], "decision": "fight_or_retreat",
                 "slot": b["slot"]}]
    if step == "reserve":
        return [{"player": b["order"][b["next"]], "decision": "reserve", "slot": b["slot"]}]
    if step == "roll":
        who = next(r["player"] for r in b["rolls"] if r["total"] is None)
        return chance_entry("roll", context="battle", **{"for": who}, slot=b["slot"])
    return [{"player": s["player"], "decision": "lose_ship", "slot": b["slot"]}
            for s in sorted(battle.losers(state), key=lambda s: s["player"])]


def _pending_reward(state: TrembleState) -> list[Entry]:
    _, attack = required(reward.next_reward(state), "the reward")
    return [{"player": attack["sides"][0]["player"], "decision": "reward",
             "slot": attack["slot"], "city": attack["city"]}]


#: phase -> who decides in it
PENDING: dict[str, Callable[[TrembleState], list[Entry]]] = {
    "missions": _pending_missions, "buy": _pending_buy, "intel": _pending_intel,
    "plan": _pending_plan, "refuel": _pending_refuel, "redeploy": _pending_redeploy,
    "battle": _pending_battle, "reward": _pending_reward}


# ----------------------------------------------------------------- advance
def begin_turn(draft: Draft[TrembleState], events: list[Event]) -> None:
    """TRE-11 then TRE-12: fuel for all; each player then draws two ships or
    declines (RULING TRE-12a)."""
    root = draft.root
    root["turn"] += 1
    root["phase"] = "buy"
    events.append({"type": "turn", "turn": root["turn"]})
    buying.gain_fuel(draft, events)
    for p in range(len(root["players"])):
        draft.at("players", p).update(offer=[], to_draw=0, bought=False, buy_choice=None)


def advance(draft: Draft[TrembleState], cat: Catalogue, events: list[Event]) -> None:
    """Automatic steps until a decision or chance node is pending."""
    while draft.root["result"] is None:
        if ADVANCE[draft.root["phase"]](draft, cat, events):
            return


# Each phase's automatic step: True when a decision (or chance node) is
# pending now, False when the state moved on and ``advance`` goes on.
def _advance_missions(draft: Draft[TrembleState], cat: Catalogue, events: list[Event]) -> bool:
    if any(not p["missions_kept"] for p in draft.root["players"]):
        return True
    begin_turn(draft, events)
    return False


def _advance_start(draft: Draft[TrembleState], cat: Catalogue, events: list[Event]) -> bool:
    begin_turn(draft, events)
    return False


def _advance_buy(draft: Draft[TrembleState], cat: Catalogue, events: list[Event]) -> bool:
    players = draft.root["players"]
    buying.refill_if_empty(draft, events)
    if not draft.root["ship_deck"]:
        for p, pl in enumerate(players):
            if pl["to_draw"]:
                draft.at("players", p)["to_draw"] = 0
    for pl in draft.root["players"]:  # a loop, not any(): runs after every draw
        if pl["to_draw"] or not pl["bought"]:
            return True
    draft.root["phase"] = "intel"
    return False


def _advance_intel(draft: Draft[TrembleState], cat: Catalogue, events: list[Event]) -> bool:
    root = draft.root
    army = root["army"]
    if army is not None:
        if army["choices"] or army["loser"] is not None:
            return True
        intel.army_done(draft, events)
        return False
    if intel.next_empty_slot(root) is not None and intel.top_pile(root["piles"]) is not None:
        return True
    if not planning.open_slots(root):
        end_turn(draft, cat, events)
        return False
    root["phase"] = "plan"
    for p in range(len(root["players"])):
        draft.at("players", p)["orders"] = None
    return True


def _advance_plan(draft: Draft[TrembleState], cat: Catalogue, events: list[Event]) -> bool:
    if any(p["orders"] is None for p in draft.root["players"]):
        return True
    planning.reveal_orders(draft, events)
    draft.root["phase"] = "refuel"
    return False


def _advance_refuel(draft: Draft[TrembleState], cat: Catalogue, events: list[Event]) -> bool:
    root = draft.root
    if planning.short_of_fuel(root, cat):
        return True
    planning.pay_fuel(draft, cat, events)
    seats = range(len(root["players"]))
    able = [bool(planning.redeployable(root, cat, p)) for p in seats]
    if any(able):
        root["phase"] = "redeploy"
        for p in seats:
            draft.at("players", p)["redeploy"] = None if able[p] else []
        return True
    _open_battles(draft, events)
    return False


def _advance_redeploy(draft: Draft[TrembleState], cat: Catalogue, events: list[Event]) -> bool:
    if any(p["redeploy"] is None for p in draft.root["players"]):
        return True
    planning.reveal_redeploy(draft, events)
    _open_battles(draft, events)
    return False


def _advance_battle(draft: Draft[TrembleState], cat: Catalogue, events: list[Event]) -> bool:
    root = draft.root
    if root["battle"] is not None:
        return battle.advance_battle(draft, cat, events)
    index = next((i for i, a in enumerate(root["attacks"]) if not a["resolved"]), None)
    if index is None:
        root["phase"] = "reward"
    else:
        battle.start(draft, cat, index, events)
    return False


def _advance_reward(draft: Draft[TrembleState], cat: Catalogue, events: list[Event]) -> bool:
    if reward.next_reward(draft.root) is not None:
        return True
    end_turn(draft, cat, events)
    return False


#: phase -> its automatic step
ADVANCE: dict[str, Callable[[Draft[TrembleState], Catalogue, list[Event]], bool]] = {
    "missions": _advance_missions, "start": _advance_start, "buy": _advance_buy,
    "intel": _advance_intel, "plan": _advance_plan, "refuel": _advance_refuel,
    "redeploy": _advance_redeploy, "battle": _advance_battle, "reward": _advance_reward}


def _open_battles(draft: Draft[TrembleState], events: list[Event]) -> None:
    draft.root["phase"] = "battle"
    reward.discard_unattacked(draft, events)


def end_turn(draft: Draft[TrembleState], cat: Catalogue, events: list[Event]) -> None:
    """Searches count down; the game ends once the city deck has run out."""
    reward.count_down(draft, cat, events)
    root = draft.root
    root["sent"] = []
    root["attacks"] = []
    if intel.top_pile(root["piles"]) is None:
        finish(draft, cat, events)
    else:
        begin_turn(draft, events)


def finish(draft: Draft[TrembleState], cat: Catalogue, events: list[Event]) -> None:
    """TRE-28: the city deck is played out; credits are repaid (TRE-26)."""
    reward.abandon_unfinished(draft, events)
    for p, pl in enumerate(draft.root["players"]):
        for _ in list(pl["credits"]):
            credit.repay(draft, cat, p, events, at_end=True)
    draft.root["phase"] = "over"
    result = final_result(draft.root, cat)
    draft.root["result"] = result
    events.append({"type": "game_over", **result, "rule": "TRE-28"})
