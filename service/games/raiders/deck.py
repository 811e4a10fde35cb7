"""The two decks and every chance node: deal, trump, draws, reveals.

Decks are unordered multisets (see ``service/games/chance.py``): the next
card of a shuffled deck is uniform over what is left, so a chance node lists
each face with its number of copies, and the engine takes the first matching
instance.  The nodes, in order of precedence:

* ``deal_fighter`` — RAI-4: one card at a time, round the table from the
  first player, until everybody holds 6;
* ``reveal_trump`` — RAI-5: the next card is turned face up and put under the
  fighter deck (``bottom``); its suit is trump; it is drawn last;
* ``draw_fighter`` — RAI-10 at the start of a turn (until the active player
  holds 6), or owed by a ``draw`` trick (``owed_draws``).  When the deck and
  the bottom card are gone the discard pile is shuffled into a new deck
  (RAI-14); with no card anywhere nothing is drawn;
* ``reveal_property`` — RAI-11: when the centre holds no unguarded property;
  an empty property deck reveals nothing (RULING RAI-14).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from service.games.chance import CHANCE, count_weights
from service.games.draft import Draft
from service.games.objects import ActionObject, Event, JsonObject
from service.games.raiders.cards import Catalogue, face
from service.games.raiders.state_types import RaidersState

#: RAI-4 the deal and RAI-10 the draw fill a hand to this many cards
HAND_SIZE = 6


def deal_recipient(state: RaidersState) -> int | None:
    """RAI-4: who gets the next dealt card (fewest cards, from the first player)."""
    n = len(state["players"])
    first = state["first_player"]
    best: int | None = None
    for k in range(n):
        seat = (first + k) % n
        size = len(state["players"][seat]["hand"])
        if size < HAND_SIZE and (best is None or size < len(state["players"][best]["hand"])):
            best = seat
    return best


def can_draw(state: RaidersState) -> bool:
    return bool(state["fighter_deck"]) or state["bottom"] is not None or bool(state["discard"])


def draw_recipient(state: RaidersState) -> int | None:
    """Who draws now: a trick's owed draws first, then the turn's draw to 6."""
    owed = state["owed_draws"]
    if owed is not None:
        return owed["player"]
    if state["phase"] == "turn_start":
        seat = state["active"]
        if len(state["players"][seat]["hand"]) < HAND_SIZE and can_draw(state):
            return seat
    return None


def chance_node(state: RaidersState) -> JsonObject | None:
    """The pending chance decision, or ``None``."""
    phase = state["phase"]
    if phase == "deal":
        return {"player": CHANCE, "decision": "deal_fighter", "to": deal_recipient(state)}
    if phase == "trump":
        return {"player": CHANCE, "decision": "reveal_trump"}
    seat = draw_recipient(state)
    if seat is not None:
        return {"player": CHANCE, "decision": "draw_fighter", "to": seat}
    if phase == "turn_start" and not state["centre"] and state["property_deck"]:
        return {"player": CHANCE, "decision": "reveal_property"}
    return None


def outcomes(state: RaidersState) -> list[tuple[JsonObject, int]]:
    """``[({"type", "player": "chance", "card": face}, copies)]`` at the node."""
    node = chance_node(state)
    if node is None:
        return []
    kind = NODES[node["decision"]]
    return [({"type": kind.outcome, "player": CHANCE, "card": f}, n)
            for f, n in count_weights(kind.source(state), face)]


def _fighter_deck(state: RaidersState) -> list[str]:
    return state["fighter_deck"]


def _draw_source(state: RaidersState) -> list[str]:
    """RAI-5: the trump card under the deck is drawn last; RAI-14: then the
    discard is reshuffled."""
    if state["fighter_deck"]:
        return state["fighter_deck"]
    return [state["bottom"]] if state["bottom"] is not None else state["discard"]


def _property_deck(state: RaidersState) -> list[str]:
    return state["property_deck"]


def _take(draft: Draft[RaidersState], zone: str, card_face: str) -> str:
    cards: list[str] = draft.at(zone)
    for i, card in enumerate(cards):
        if card == card_face or face(card) == card_face:
            return cards.pop(i)
    raise AssertionError(f"{card_face} not in {zone}")  # guarded by base: listed outcomes only


def resolve_deal(draft: Draft[RaidersState], action: ActionObject, events: list[Event]) -> None:
    """RAI-4: the dealt card goes to the next recipient; the deal ends at 6 each."""
    state = draft.root
    seat = deal_recipient(state)
    assert seat is not None, "a deal_fighter node has a recipient"
    card = _take(draft, "fighter_deck", action["card"])
    draft.at("players", seat, "hand").append(card)
    events.append({"type": "dealt", "player": seat, "card": card})
    if deal_recipient(state) is None:
        state["phase"] = "trump"


def resolve_trump(draft: Draft[RaidersState], action: ActionObject, events: list[Event]) -> None:
    """RAI-5: the card lies face up under the deck; its suit is trump."""
    card = _take(draft, "fighter_deck", action["card"])
    state = draft.root
    state["bottom"] = card
    suit = Catalogue.of_state(state).fighter(card)["suit"]
    state["trump"] = {"card": card, "suit": suit}
    events.append({"type": "trump_revealed", "card": card, "suit": suit})


def resolve_draw(draft: Draft[RaidersState], action: ActionObject, events: list[Event]) -> None:
    """RAI-10 / a ``draw`` trick; RAI-14 reshuffles the discard when needed."""
    state = draft.root
    seat = draw_recipient(state)
    assert seat is not None, "a draw_fighter node has a recipient"
    if state["fighter_deck"]:
        card = _take(draft, "fighter_deck", action["card"])
    elif state["bottom"] is not None:
        card, state["bottom"] = state["bottom"], None
    else:
        state["fighter_deck"], state["discard"] = sorted(state["discard"]), []
        events.append({"type": "reshuffled", "deck": "fighter",
                       "cards": len(state["fighter_deck"])})
        card = _take(draft, "fighter_deck", action["card"])
    draft.at("players", seat, "hand").append(card)
    events.append({"type": "drew", "player": seat, "card": card})
    owed = state["owed_draws"]
    if owed is not None:
        left = owed["count"] - 1
        state["owed_draws"] = {"player": seat, "count": left} if left and can_draw(state) else None


def resolve_reveal(draft: Draft[RaidersState], action: ActionObject, events: list[Event]) -> None:
    """RAI-11: the top property card goes face up into the centre."""
    card = _take(draft, "property_deck", action["card"])
    draft.at("centre").append(card)
    events.append({"type": "property_revealed", "property": card})


@dataclass(frozen=True)
class ChanceNode:
    """One chance node, declared once: the clause of what it deals or reveals,
    the outcome action type it takes, and the cards it draws from."""

    rule: str
    outcome: str
    source: Callable[[RaidersState], list[str]]


#: pending decision -> its node
NODES = {"deal_fighter": ChanceNode("RAI-4", "deal", _fighter_deck),
         "reveal_trump": ChanceNode("RAI-5", "reveal_trump", _fighter_deck),
         "draw_fighter": ChanceNode("RAI-10", "draw", _draw_source),
         "reveal_property": ChanceNode("RAI-11", "reveal", _property_deck)}
