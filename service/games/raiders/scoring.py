"""Money, set bonuses and the end of the game (RAI-3, RAI-6, RAI-7, RAI-8, RAI-31).

RAI-3: a kind's money is the best of its face value and its set bonuses;
cards beyond a bonus's count add their face value.

>>> club = {"money": 2, "bonuses": [{"count": 2, "total": 6}]}
>>> [kind_money(club, n) for n in range(4)]
[0, 2, 6, 8]
>>> [target_money({"short_game": True, "teams": False}, n) for n in (2, 3, 4, 6)]
[36, 30, 24, 12]
"""

from __future__ import annotations

from collections.abc import Mapping

from service.games.draft import Draft
from service.games.objects import Entry, Event, JsonObject
from service.games.raiders.capture import end_without_fight
from service.games.raiders.cards import Catalogue, Property, face
from service.games.raiders.state import before_first_turn
from service.games.raiders.state_types import RaidersState

#: RAI-6: the money a player (RAI-8: a pair) needs to win
BASE_TARGET = 36
#: RAI-7 ``short_game``: the target drops by this much for every player beyond two
SHORT_GAME_STEP = 6


def reaches_target(money: int, target: int) -> bool:
    """RAI-6: a side wins at once at the target or more (RAI-7, RAI-8 set the target).

    >>> reaches_target(36, 36), reaches_target(35, 36)
    (True, False)
    """
    return money >= target


def kind_money(prop: Property, count: int) -> int:
    """RAI-3: money of ``count`` properties of one kind, set bonuses included.

    RULING RAI-3a: a bonus counts once; copies beyond it (two sets) add their face
    value — three banks («2 банка = 22», 9 each) are 31, four 40.

    >>> bank = {"money": 9, "bonuses": [{"count": 2, "total": 22}]}
    >>> [kind_money(bank, n) for n in (2, 3, 4)]
    [22, 31, 40]
    """
    best = count * prop["money"]
    for bonus in prop["bonuses"]:
        if bonus["count"] <= count:
            best = max(best, bonus["total"] + (count - bonus["count"]) * prop["money"])
    return best


def target_money(options: Mapping[str, object], players: int) -> int:
    """RAI-6: 36; RAI-7 ``short_game``: 6 less for every player beyond two."""
    if options["short_game"]:
        return BASE_TARGET - SHORT_GAME_STEP * max(0, players - 2)
    return BASE_TARGET


def describe_targets(max_players: int) -> JsonObject:
    """The win targets for ``GET /v1/games/raiders`` (RAI-6, RAI-7, RAI-8).

    >>> describe_targets(6)["short_game"]["by_players"]
    {'3': 30, '4': 24, '5': 18, '6': 12}
    """
    return {
        "money": BASE_TARGET, "rule": "RAI-6",
        "description": "a player wins at once when their properties are worth this much "
                       "money or more, set bonuses included (RAI-3)",
        "short_game": {
            "rule": "RAI-7",
            "description": f"{BASE_TARGET} less {SHORT_GAME_STEP} for every player beyond two",
            "by_players": {str(n): target_money({"short_game": True}, n)
                           for n in range(3, max_players + 1)}},
        "teams": {
            "rule": "RAI-8", "money": BASE_TARGET,
            "description": "pairs 0+2 and 1+3 win when their combined money reaches this; "
                           "set bonuses count per player, never across partners"},
    }


def player_money(state: RaidersState, seat: int,
                 cat: Catalogue | None = None) -> tuple[int, list[JsonObject]]:
    """A player's money and its breakdown by property kind (RAI-3)."""
    cat = cat or Catalogue.of_state(state)
    counts: dict[str, int] = {}
    for prop in state["players"][seat]["holdings"]:
        kind = face(prop)
        counts[kind] = counts.get(kind, 0) + 1
    breakdown: list[JsonObject] = []
    total = 0
    for kind in sorted(counts):
        card = cat.properties[kind]
        money = kind_money(card, counts[kind])
        bonus = money - counts[kind] * card["money"]
        breakdown.append({"kind": kind, "count": counts[kind], "money": money, "bonus": bonus})
        total += money
    return total, breakdown


def sides(state: RaidersState) -> list[list[int]]:
    """Who wins together: each seat alone, or RAI-8 pairs 0+2 and 1+3 (RULING RAI-8a:
    across the table)."""
    n = len(state["players"])
    if state["options"]["teams"]:
        return [[0, 2], [1, 3]]
    return [[seat] for seat in range(n)]


def side_money(state: RaidersState) -> list[int]:
    """Money per side; RAI-8: bonuses per player, summed across partners."""
    cat = Catalogue.of_state(state)
    money = [player_money(state, seat, cat)[0] for seat in range(len(state["players"]))]
    return [sum(money[s] for s in side) for side in sides(state)]


def check_win(draft: Draft[RaidersState], events: list[Event]) -> bool:
    """RAI-6: a side at or above the target wins at once; RULING RAI-6a: also
    in a capture's response window, which then closes with no fight (the
    attacking fighter back in its owner's hand), so the finished state is a
    valid one."""
    state = draft.root
    if state["result"] is not None or before_first_turn(state):
        return False
    target = target_money(state["options"], len(state["players"]))
    winners = [seat for side, money in zip(sides(state), side_money(state), strict=True)
               if reaches_target(money, target) for seat in side]
    if not winners:
        return False
    if state["capture"] is not None:
        end_without_fight(draft, events, "game_won", "the game was won during the capture",
                          "RAI-6a")
    state["result"] = {"finished": True, "winners": winners, "reason": "target_reached",
                       "target": target}
    state["phase"] = "over"
    events.append({"type": "game_won", "winners": winners, "rule": "RAI-6", "target": target})
    return True


def finish_by_turn_limit(draft: Draft[RaidersState], events: list[Event]) -> None:
    """RULING RAI-31: the most money wins; equal money shares the win."""
    state = draft.root
    money = side_money(state)
    best = max(money)
    winners = sorted(seat for side, m in zip(sides(state), money, strict=True) if m == best
                     for seat in side)
    state["result"] = {"finished": True, "winners": winners, "reason": "turn_limit"}
    state["phase"] = "over"
    events.append({"type": "game_won", "winners": winners, "rule": "RAI-31", "money": best})


def compute_score(state: RaidersState) -> JsonObject:
    cat = Catalogue.of_state(state)
    n = len(state["players"])
    scores: list[JsonObject] = []
    for seat in range(n):
        total, breakdown = player_money(state, seat, cat)
        entry: Entry = {"player": seat, "total": total, "breakdown": breakdown}
        if state["options"]["teams"]:
            entry["team"] = seat % 2
        scores.append(entry)
    result = state["result"]
    out: JsonObject = {"finished": result is not None,
                 "winners": list(result["winners"]) if result else [],
                 "scores": scores,
                 "target": target_money(state["options"], n)}
    if state["options"]["teams"]:
        out["teams"] = [{"players": side, "total": m}
                        for side, m in zip(sides(state), side_money(state), strict=True)]
    return out
