"""Alternative wins (KOZ-47: «существует также несколько карт, позволяющих выиграть
другим способом»): the ``win`` effect's conditions, a closed vocabulary.

A ``win`` effect carries a ``condition``: an object naming one or more of
``CONDITIONS``; it holds when every one it names holds for the effect's owner.
Each is read from the state alone, at the moment the effect is used:

- ``controls_sectors: N`` — the owner controls at least N sectors (KOZ-11),
  counted as Sabotage's requirement counts them (``sectors.controlled_sectors``:
  not their own capital; a fallen capital held counts, RULING KOZ-53a);
- ``creatures_in_play: {count: N, race?: R}`` — at least N of the owner's
  creatures (heroes included) are on the table, face down ones too; with
  ``race``, only those of that race;
- ``turn_reached: N`` — the table's turn count (``state.turn``: every player's
  turn counts, as Time-N counts them, KOZ-18) is at least N: "survive until
  turn N" on a card that must itself still be on the table.

The effect is usable only while its condition holds (``effects.choices``): a
trigger (KOZ-14) whose condition fails does not fire, a card whose condition
fails cannot be played.  When it is used its owner wins at once (``win``).

>>> st = {"turn": 7, "players": [{"out": False}, {"out": False}],
...       "sectors": {"0.gold_mine": {"kind": "gold_mine", "owner": 0, "controller": 0}},
...       "units": {"0.zh_brute": {"owner": 0}, "1.tr_grub": {"owner": 1}}}
>>> import card_db; from service.games.kozyablo.cards import Catalogue
>>> cat = Catalogue.of(card_db.get("kozyablo"))
>>> holds(st, cat, 0, {"controls_sectors": 1, "turn_reached": 7})
True
>>> holds(st, cat, 0, {"creatures_in_play": {"count": 1, "race": "trutni"}})
False
>>> unmet(st, cat, 1, {"controls_sectors": 1, "creatures_in_play": {"count": 1}})
['controls_sectors']
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service.games.draft import Draft
from service.games.kozyablo.cards import Catalogue, face
from service.games.kozyablo.sectors import controlled_sectors
from service.games.kozyablo.state_types import KozyabloState
from service.games.objects import Event

#: the ``reason`` of a result a ``win`` effect ends the game with (the score's too)
REASON = "card_win"


def _sectors(state: KozyabloState, cat: Catalogue, seat: int, value: Any) -> bool:
    return controlled_sectors(state, seat) >= int(value)


def _creatures(state: KozyabloState, cat: Catalogue, seat: int, value: Any) -> bool:
    race = value.get("race")
    mine = sum(1 for u, d in state["units"].items()
               if d["owner"] == seat and (race is None or cat.faces[face(u)].race == race))
    return mine >= int(value["count"])


def _turn(state: KozyabloState, cat: Catalogue, seat: int, value: Any) -> bool:
    return state["turn"] >= int(value)


#: condition name -> whether it holds for a seat (``card_schema.ConditionSchema`` declares
#: each one's value)
CONDITIONS: dict[str, Callable[[KozyabloState, Catalogue, int, Any], bool]] = {
    "controls_sectors": _sectors,
    "creatures_in_play": _creatures,
    "turn_reached": _turn,
}


def unmet(state: KozyabloState, cat: Catalogue, seat: int, condition: dict[str, Any]) -> list[str]:
    """The parts of ``condition`` that do not hold for ``seat``, by name."""
    return [name for name, value in condition.items() if not CONDITIONS[name](state, cat, seat, value)]


def holds(state: KozyabloState, cat: Catalogue, seat: int, condition: dict[str, Any]) -> bool:
    """Whether every part of ``condition`` holds for ``seat``."""
    return not unmet(state, cat, seat, condition)


def win(draft: Draft[KozyabloState], seat: int, condition: dict[str, Any], card: str | None,
        events: list[Event]) -> None:
    """KOZ-47: ``seat`` wins by ``card``'s condition; the game ends here."""
    draft.root["result"] = {"finished": True, "winners": [seat], "reason": REASON}
    events.append({"type": "card_win", "player": seat, "card": card, "condition": condition,
                   "rule": "KOZ-47"})
