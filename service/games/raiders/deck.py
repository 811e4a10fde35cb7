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

from service.games.chance import CHANCE, count_weights
from service.games.raiders.cards import face, for_state

HAND_SIZE = 6


def deal_recipient(state: dict) -> int | None:
    """RAI-4: who gets the next dealt card (fewest cards, from the first player)."""
    n = len(state["players"])
    first = state["first_player"]
    best = None
    for k in range(n):
        seat = (first + k) % n
        size = len(state["players"][seat]["hand"])
        if size < HAND_SIZE and (best is None or size < len(state["players"][best]["hand"])):
            best = seat
    return best


def can_draw(state: dict) -> bool:
    return bool(state["fighter_deck"]) or state["bottom"] is not None or bool(state["discard"])


def draw_recipient(state: dict) -> int | None:
    """Who draws now: a trick's owed draws first, then the turn's draw to 6."""
    owed = state["owed_draws"]
    if owed is not None:
        return owed["player"]
    if state["phase"] == "turn_start":
        seat = state["active"]
        if len(state["players"][seat]["hand"]) < HAND_SIZE and can_draw(state):
            return seat
    return None


def chance_node(state: dict) -> dict | None:
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


_OUTCOME_TYPE = {"deal_fighter": "deal", "reveal_trump": "reveal_trump",
                 "draw_fighter": "draw", "reveal_property": "reveal"}


def outcomes(state: dict) -> list[tuple[dict, int]]:
    """``[({"type", "player": "chance", "card": face}, copies)]`` at the node."""
    node = chance_node(state)
    if node is None:
        return []
    kind = _OUTCOME_TYPE[node["decision"]]
    if kind == "reveal":
        source = state["property_deck"]
    elif kind == "draw" and not state["fighter_deck"]:
        source = [state["bottom"]] if state["bottom"] is not None else state["discard"]
    else:
        source = state["fighter_deck"]
    return [({"type": kind, "player": CHANCE, "card": f}, n)
            for f, n in count_weights(source, face)]


def _take(draft, zone: str, card_face: str) -> str:
    cards = draft.at(zone)
    for i, card in enumerate(cards):
        if card == card_face or face(card) == card_face:
            return cards.pop(i)
    raise AssertionError(f"{card_face} not in {zone}")  # guarded by base: listed outcomes only


def resolve_deal(draft, action: dict, events: list) -> None:
    """RAI-4: the dealt card goes to the next recipient; the deal ends at 6 each."""
    seat = deal_recipient(draft.root)
    card = _take(draft, "fighter_deck", action["card"])
    draft.at("players", seat, "hand").append(card)
    events.append({"type": "dealt", "player": seat, "card": card})
    if deal_recipient(draft.root) is None:
        draft.root["phase"] = "trump"


def resolve_trump(draft, action: dict, events: list) -> None:
    """RAI-5: the card lies face up under the deck; its suit is trump."""
    card = _take(draft, "fighter_deck", action["card"])
    draft.root["bottom"] = card
    suit = for_state(draft.root).fighter(card)["suit"]
    draft.root["trump"] = {"card": card, "suit": suit}
    events.append({"type": "trump_revealed", "card": card, "suit": suit})


def resolve_draw(draft, action: dict, events: list) -> None:
    """RAI-10 / a ``draw`` trick; RAI-14 reshuffles the discard when needed."""
    root = draft.root
    seat = draw_recipient(root)
    if root["fighter_deck"]:
        card = _take(draft, "fighter_deck", action["card"])
    elif root["bottom"] is not None:
        card, root["bottom"] = root["bottom"], None
    else:
        root["fighter_deck"], root["discard"] = sorted(root["discard"]), []
        events.append({"type": "reshuffled", "deck": "fighter",
                       "cards": len(root["fighter_deck"])})
        card = _take(draft, "fighter_deck", action["card"])
    draft.at("players", seat, "hand").append(card)
    events.append({"type": "drew", "player": seat, "card": card})
    owed = root["owed_draws"]
    if owed is not None:
        left = owed["count"] - 1
        root["owed_draws"] = {"player": seat, "count": left} if left and can_draw(root) else None


def resolve_reveal(draft, action: dict, events: list) -> None:
    """RAI-11: the top property card goes face up into the centre."""
    card = _take(draft, "property_deck", action["card"])
    draft.at("centre").append(card)
    events.append({"type": "property_revealed", "property": card})


RESOLVERS = {"deal": resolve_deal, "reveal_trump": resolve_trump, "draw": resolve_draw,
             "reveal": resolve_reveal}
