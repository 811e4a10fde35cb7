"""Hand-built Kozyablo states for clause tests: say only what the scenario needs.

>>> s = table(hands={0: ["pz_spark"]}, units={0: [("pz_archer", "0.gold_mine")]})
>>> s["pending"], s["units"]["0.pz_archer"]["sector"], s["players"][0]["hand"]
([{'player': 0, 'decision': 'action'}], '0.gold_mine', ['0.pz_spark'])

Every card not placed stays in its owner's deck, so the state passes
``validate_state`` (checked here) and ``apply`` works on it.  Sector ids are
``"<seat>.gold_mine"`` etc.; ``"cap0"``/``"cap1"`` name the capitals.
"""

from __future__ import annotations

import copy
from typing import Any

from service.games.draft import Draft
from service.games.kozyablo import GAME
from service.games.kozyablo.cards import face
from service.games.kozyablo.sectors import update_control
from service.games.kozyablo.state_types import KozyabloState
from service.games.objects import ActionObject, Event, JsonObject

FILLER = ["kz_scout", "kz_guard", "zh_brute", "zh_shieldbearer", "tr_grub", "pz_archer"]


def mixed_deck(*faces: str, capital: str = "zh_mercenary_camp") -> JsonObject:
    """A legal deck (Mercenary Camp: every race, two heroes) holding ``cards``."""
    cards = list(faces)
    for f in FILLER * 3:
        if len(cards) >= 15:
            break
        if cards.count(f) < 3:
            cards.append(f)
    return {"capital": capital, "sectors": ["gold_mine", "crystal_mine", "energy_source"],
            "cards": cards}


def _setup(x: str | JsonObject) -> JsonObject:
    return {"race": x} if isinstance(x, str) else {"deck": x}


def _take(state: KozyabloState, seat: int, f: str) -> str:
    deck = state["players"][seat]["deck"]
    cid = next((c for c in deck if face(c) == f), None)
    assert cid is not None, f"no {f} left in player {seat}'s deck"
    deck.remove(cid)
    return cid


def _sector(state: KozyabloState, s: str) -> str:
    return state["players"][int(s[3])]["capital"] if s.startswith("cap") else s


def table(p0: str | JsonObject = "pozorki", p1: str | JsonObject = "trutni", *,
          hands: dict[int, list[str]] | None = None,
          units: dict[int, list[tuple[Any, ...]]] | None = None,
          buildings: dict[int, list[str]] | None = None,
          lasting: dict[int, list[tuple[str, JsonObject, int]]] | None = None,
          discard: dict[int, list[str]] | None = None, active: int = 0, turn: int = 1,
          options: JsonObject | None = None, control: dict[str, int | None] | None = None,
          capital_damage: dict[int, int] | None = None, deck: dict[int, list[str]] | None = None,
          more: tuple[str | JsonObject, ...] = (), card_set: str = "reference") -> KozyabloState:
    """A state in the main phase of ``active``'s turn ``turn``.

    ``units``: ``{seat: [(face, sector[, {"damage", "shadow", "artifacts"}]), ...]}``
    (shadowed creatures get ``shadow_number`` 1, 2, … in the order listed);
    ``buildings``: ``{seat: [face, ...]}`` (into that seat's capital);
    ``lasting``: ``{seat: [(face, {"unit": id} | {"sector", "seat"}, turns_left)]}``;
    ``control``: ``{sector: seat | None}`` before creatures are counted;
    ``deck``: ``{seat: [faces]}`` — exactly these stay in the deck, the rest
    go to the discard.  ``more``: the races (or decks) of players 2 and 3 (RULING KOZ-51);
    the turn order then runs by seat from ``active``.  ``card_set``: the set dealt from.
    """
    setups = [_setup(p0), _setup(p1), *map(_setup, more)]
    base, _ = GAME.new_game(setups, {**(options or {}), "chance": "server"}, seed=0,
                            card_set=card_set)
    state = copy.deepcopy(base)
    for p in state["players"]:
        p["deck"] = sorted(p["deck"] + p["hand"] + p["discard"] + p["aside"])
        p["hand"], p["discard"], p["aside"] = [], [], []
        p["ready"] = True
    n = len(setups)
    state.update({"order": [(active + i) % n for i in range(n)], "active": active, "phase": "main",
                  "turn": turn, "queue": [], "used": [], "declared": None, "combat": None,
                  "result": None})
    for sid, who in (control or {}).items():
        state["sectors"][sid]["controller"] = who
    for seat, faces in (hands or {}).items():
        state["players"][seat]["hand"] = [_take(state, seat, f) for f in faces]
    for seat, faces in (discard or {}).items():
        state["players"][seat]["discard"] = [_take(state, seat, f) for f in faces]
    for seat, rows in (units or {}).items():
        for row in rows:
            f, where, *extra = row
            props = dict(extra[0]) if extra else {}
            uid = _take(state, seat, f)
            arts = [_take(state, seat, a) for a in props.pop("artifacts", [])]
            state["units"][uid] = {"owner": seat, "sector": _sector(state, where),
                                   "damage": props.pop("damage", 0),
                                   "shadow": props.pop("shadow", False), "artifacts": arts}
            if state["units"][uid]["shadow"]:  # numbered in the order listed (KOZ-41)
                state["units"][uid]["shadow_number"] = sum(
                    d["shadow"] for d in state["units"].values())
            assert not props, props
    for seat, faces in (buildings or {}).items():
        for f in faces:
            bid = _take(state, seat, f)
            state["buildings"][bid] = {"owner": seat, "sector": state["players"][seat]["capital"],
                                       "damage": 0}
    for seat, rows in (lasting or {}).items():
        for f, where, left in rows:
            mid = _take(state, seat, f)
            state["lasting"][mid] = {"owner": seat, "turns_left": left, "cast_turn": 0, **where}  # type: ignore[typeddict-item]  # a unit's or a sector's, as the caller says
    for seat, dmg in (capital_damage or {}).items():
        state["players"][seat]["capital_damage"] = dmg
    for seat, faces in (deck or {}).items():
        p = state["players"][seat]
        keep = [_take(state, seat, f) for f in faces]
        p["discard"] += p["deck"]
        p["deck"] = sorted(keep)
    draft = Draft(state)
    update_control(draft, [])
    state = draft.root
    state["pending"] = GAME.compute_pending(state)
    GAME.validate_state(state)
    return state


def act(kind: str, player: int | str, **fields: Any) -> ActionObject:
    return {"type": kind, "player": player, **fields}


def play(state: KozyabloState, action: ActionObject) -> tuple[KozyabloState, list[Event]]:
    """``apply`` that also checks the result is a valid state."""
    after, events = GAME.apply(state, action)
    GAME.validate_state(after)
    return after, events


def types(events: list[Event]) -> list[str]:
    return [e["type"] for e in events]


def listed(state: KozyabloState, player: int | str | None, kind: str) -> list[ActionObject]:
    return [a for a in GAME.legal_actions(state, player) if a["type"] == kind]
