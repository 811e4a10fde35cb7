"""Hand-built Raiders states for clause tests: say only what the scenario needs.

>>> s = table(hands={0: ["S-K"], 1: ["H-7"]}, holdings={1: {"club": "D-9"}},
...           centre=["kiosk"], trump="H")
>>> s["pending"], s["players"][1]["holdings"]
([{'player': 0, 'decision': 'turn'}], {'club': 'D-9'})

Every card not placed goes to its deck, so the state passes
``validate_state`` (checked here) and ``apply`` works on it.
"""

from __future__ import annotations

from typing import Any

import orjson

from service.games.raiders import GAME
from service.games.raiders.cards import Catalogue


def table(*, players: int = 2, hands: dict[Any, Any] | None = None, holdings: dict[Any, Any] | None = None,
          centre: list[Any] | None = None, discard: list[Any] | None = None, trump: str = "S",
          trump_card: str | None = None, bottom: bool = True, active: int = 0,
          capture: dict[Any, Any] | None = None, capture_used: bool = False,
          modifiers: list[Any] | None = None, owed_draws: dict[Any, Any] | None = None, turn: int = 1,
          options: dict[Any, Any] | None = None, fighter_deck: list[Any] | None = None,
          property_deck: list[Any] | None = None, phase: str | None = None) -> dict[Any, Any]:
    """A state in ``main`` (or ``capture`` when ``capture`` is given).

    ``capture``: ``{"fighter", "property"[, "priority", "passes"]}`` for the
    active player.  ``fighter_deck`` / ``property_deck``: the exact deck
    contents (the rest of the cards then go to the discard / nowhere-else
    check fails, so list them fully) — default: everything not placed.
    """
    base, _ = GAME.new_game(players, {**(options or {}), "chance": "table"}, seed=0)
    opts = {**base["options"], "chance": "server"}
    cat = Catalogue.of(GAME.card_set())
    hands = {int(k): list(v) for k, v in (hands or {}).items()}
    holdings = {int(k): dict(v) for k, v in (holdings or {}).items()}
    centre = list(centre or [])
    discard = list(discard or [])
    placed = [c for h in hands.values() for c in h] + discard + \
        [g for h in holdings.values() for g in h.values()]
    if capture:
        placed.append(capture["fighter"])
    all_fighters = cat.fighter_deck(opts["double_deck"])
    if trump_card is None:
        trump_card = next(c for c in all_fighters  # already drawn: may be anywhere
                          if cat.fighter(c)["suit"] == trump and (c not in placed or not bottom))
    if bottom:
        placed.append(trump_card)
    if fighter_deck is None:
        fighter_deck = [c for c in all_fighters if c not in placed]
    placed_props = centre + [p for h in holdings.values() for p in h]
    if property_deck is None:
        property_deck = [p for p in cat.property_deck(opts["double_deck"])
                         if p not in placed_props]
    state = {
        **base, "options": opts,
        "chance": {"mode": "server", "seed": 1, "counter": 0},
        "turn": turn, "phase": phase or ("capture" if capture else "main"),
        "players": [{"name": f"Player {i + 1}", "hand": hands.get(i, []),
                     "holdings": holdings.get(i, {})} for i in range(players)],
        "first_player": opts["first_player"] or 0, "active": active,
        "fighter_deck": sorted(fighter_deck), "bottom": trump_card if bottom else None,
        "trump": {"card": trump_card, "suit": trump},
        "property_deck": sorted(property_deck), "centre": centre, "discard": discard,
        "capture": None, "capture_used": capture_used or bool(capture),
        "modifiers": list(modifiers or []), "owed_draws": owed_draws, "result": None,
    }
    if capture:
        state["capture"] = {"attacker": active, "fighter": capture["fighter"],
                            "property": capture["property"],
                            "priority": capture.get("priority", active),
                            "passes": capture.get("passes", 0)}
    state["pending"] = GAME.compute_pending(state)
    GAME.validate_state(orjson.loads(orjson.dumps(state)))
    return state


def play(state: dict[Any, Any], *actions: dict[Any, Any]) -> tuple[dict[Any, Any], list[dict[Any, Any]]]:
    """Apply actions in order; return the last state and all events."""
    events: list[dict[Any, Any]] = []
    for action in actions:
        state, evs = GAME.apply(state, action)
        events.extend(evs)
    return state, events


def act(kind: str, player: int, **fields) -> dict[Any, Any]:
    """``act("capture", 0, fighter="S-K", property="club")``."""
    return {"type": kind, "player": player, **fields}


def pass_all(state: dict[Any, Any]) -> tuple[dict[Any, Any], list[dict[Any, Any]]]:
    """Everyone passes in turn until the capture window closes."""
    events: list[dict[Any, Any]] = []
    while state["phase"] == "capture" and state["result"] is None:
        state, evs = GAME.apply(state, act("pass", state["capture"]["priority"]))
        events.extend(evs)
    return state, events


def types(events: list[dict[Any, Any]]) -> list[str]:
    return [e["type"] for e in events]
