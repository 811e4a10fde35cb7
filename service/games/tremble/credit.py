"""Credit (TRE-26): +50,000 people for a player in trouble, repaid 60,000.

A player with fewer than 30,000 people and at most one ship (fleet: hand,
attacking, searching) may take a credit card while one is left; they repay
it whenever they like (with at least 60,000 people) before the end, and the
card goes back to the box (it cannot be taken again).  A credit still held
at the end is repaid then, even into negative people.  Credit actions are
open to a player whenever the game waits for a decision of theirs.
"""

from __future__ import annotations

from collections.abc import Callable

from service.games.draft import Draft
from service.games.errors import RuleViolation
from service.games.messages import N_
from service.games.objects import ActionObject, Event
from service.games.tremble.cards import Catalogue
from service.games.tremble.state_types import TrembleState
from service.games.tremble.zones import fleet_size

POOR_BELOW = 30_000
MAX_SHIPS = 1


def _take_blocker(state: TrembleState, player: int) -> Callable[[], str] | None:
    """The first rule that stops ``player`` taking a credit now, as the maker of
    its message (listing asks only whether there is one: no message is built)."""
    if not state["credit_supply"]:
        return lambda: N_("no credit card is left")
    if state["players"][player]["people"] >= POOR_BELOW:
        return lambda: N_("a credit needs fewer than {poor_below} people", poor_below=POOR_BELOW)
    if fleet_size(state, player) > MAX_SHIPS:
        return lambda: N_("a credit needs a fleet of at most {max_ships} ship",
                          max_ships=MAX_SHIPS)
    return None


def _repay_blocker(state: TrembleState, player: int) -> Callable[[], str] | None:
    """The first rule that stops ``player`` repaying a credit now (a message maker)."""
    p = state["players"][player]
    if not p["credits"]:
        return lambda: N_("you hold no credit")
    repay = Catalogue.of_state(state).credit_repay
    if p["people"] < repay:
        return lambda: N_("repaying needs {credit_repay} people", credit_repay=repay)
    return None


def may_take(state: TrembleState, player: int) -> bool:
    """Whether ``player`` may take a credit now (TRE-26)."""
    return _take_blocker(state, player) is None


def may_repay(state: TrembleState, player: int) -> bool:
    """Whether ``player`` may repay a credit now (TRE-26)."""
    return _repay_blocker(state, player) is None


def can_take(state: TrembleState, player: int) -> str | None:
    """``None`` if ``player`` may take a credit now, else the reason."""
    blocker = _take_blocker(state, player)
    return blocker() if blocker is not None else None


def can_repay(state: TrembleState, player: int) -> str | None:
    """``None`` if ``player`` may repay a credit now, else the reason."""
    blocker = _repay_blocker(state, player)
    return blocker() if blocker is not None else None


def check_take(state: TrembleState, action: ActionObject) -> None:
    why = can_take(state, action["player"])
    if why:
        raise RuleViolation("TRE-26", why)


def check_repay(state: TrembleState, action: ActionObject) -> None:
    why = can_repay(state, action["player"])
    if why:
        raise RuleViolation("TRE-26", why)


def take(draft: Draft[TrembleState], cat: Catalogue, player: int, events: list[Event]) -> None:
    card = draft.root["credit_supply"][0]
    draft.at("credit_supply").pop(0)
    p = draft.at("players", player)
    p["people"] += cat.credit_amount
    draft.at("players", player, "credits").append(card)
    draft.at("players", player, "stats")["credits_taken"] += 1
    events.append({"type": "credit_taken", "player": player, "card": card,
                   "people": cat.credit_amount, "rule": "TRE-26"})


def repay(draft: Draft[TrembleState], cat: Catalogue, player: int, events: list[Event], at_end: bool = False) -> None:
    card = draft.root["players"][player]["credits"][0]
    draft.at("players", player, "credits").pop(0)
    draft.at("players", player)["people"] -= cat.credit_repay
    draft.at("credits_returned").append(card)
    events.append({"type": "credit_repaid", "player": player, "card": card,
                   "people": cat.credit_repay, "at_end": at_end, "rule": "TRE-26"})
