"""Baseline bots for playouts: the random bot and a greedy bot per game.

``GreedyBot`` scores every legal action with a one-step lookahead: it applies
the action and rates the resulting state for the acting player with the
game's evaluation function (``HEURISTICS``, keyed by game id; all the
per-game heuristics live in this one module).  The lookahead is played with
chance left pending (``chance: table``), so the bot never sees the dice or
card that the action is about to produce — it rates the position up to the
chance node, not its outcome.  Ties are broken at random with the bot's own
seeded generator; decisions with very many options are rated on a random
sample of them.

>>> bot_named("random")                      # doctest: +ELLIPSIS
<service.games.playout.RandomBot object at ...>
>>> bot_named("greedy").name
'greedy'
"""

from __future__ import annotations

import random
from collections.abc import Callable

from service.games.base import Game
from service.games.errors import RefereeError
from service.games.playout import RandomBot

#: a heuristic rates ``state`` for ``player``: higher is better
Heuristic = Callable[[Game, dict, int], float]

BOT_NAMES = ("random", "greedy")
#: the most actions a greedy bot rates per decision (a random sample beyond)
MAX_CANDIDATES = 24


def score_lead(game: Game, state: dict, player: int) -> float:
    """The player's total minus the best other total (``game.score``)."""
    totals = {s["player"]: s["total"] for s in game.score(state)["scores"]}
    mine = totals.get(player, 0)
    others = [t for p, t in totals.items() if p != player]
    return mine - (max(others) if others else 0)


def raiders_value(game: Game, state: dict, player: int) -> float:
    """Raiders: money of the properties held (RAI-6), ten times the lead,
    plus guarded properties and cards in hand.  A capture just declared is
    rated as if everyone passed (RAI-26), so the bot sees whether it would
    succeed (RAI-16, RAI-17) without guessing the opponents' tricks."""
    for _ in range(2 * len(state["players"])):
        if state.get("capture") is None or state["result"] is not None or not state["pending"]:
            break
        try:
            state, _ = game.apply(state, {"type": "pass", "player": state["pending"][0]["player"]})
        except RefereeError:
            break
    me = state["players"][player]
    return 10 * score_lead(game, state, player) + len(me["holdings"]) + 0.1 * len(me["hand"])


def kozyablo_value(game: Game, state: dict, player: int) -> float:
    """Kozyablo: capital life (the score) ten times over against the
    strongest opponent, plus sectors held (production, KOZ-13), creatures on
    the table, creatures standing in the opponents' sectors — above all
    their capital, which a lone creature captures (KOZ-48) — against theirs
    in ours, damage dealt against damage taken (KOZ-27), and cards in hand.
    With 3-4 players, players who are out (RULING KOZ-53) and their sectors
    no longer count."""
    rows = {s["player"]: s for s in game.score(state)["scores"]}
    mine = rows[player]
    out = {p for p, q in enumerate(state["players"]) if q.get("out")}
    others = [r["total"] for p, r in rows.items() if p != player and p not in out]
    parts = mine.get("breakdown") or {}
    sectors = state.get("sectors", {})
    pressure = wounds = 0.0
    for unit in state.get("units", {}).values():
        where = sectors.get(unit.get("sector"), {})
        if where.get("owner") in out:
            where = {}
        capital = where.get("kind") == "capital"
        if unit.get("owner") == player:
            if where.get("owner") not in (None, player):  # marching on them (KOZ-48)
                pressure += 4 if capital else 1
            elif capital:
                pressure += 0.5  # garrison
            wounds -= unit.get("damage", 0)
        else:
            if where.get("owner") == player:
                pressure -= 4 if capital else 1  # they march on us
            wounds += unit.get("damage", 0)
    return (10 * (mine["total"] - (max(others) if others else 0))
            + 2 * parts.get("sectors", 0) + parts.get("creatures", 0)
            + 1.5 * pressure + 0.5 * wounds
            + 0.1 * len(state["players"][player].get("hand", ())))


#: per game id; a game without an entry is rated by ``score_lead`` (Tremble:
#: people, the score of TRE-28)
HEURISTICS: dict[str, Heuristic] = {"raiders": raiders_value, "kozyablo": kozyablo_value}


class GreedyBot:
    """One-step lookahead with the game's heuristic (``HEURISTICS``)."""

    name = "greedy"

    def __init__(self, max_candidates: int = MAX_CANDIDATES):
        self.max_candidates = max_candidates

    def choose(self, game: Game, state: dict, player: int, rng: random.Random) -> dict:
        actions = game.legal_actions(state, player)
        if not actions:
            raise RuntimeError(f"{game.id}: player {player} is pending but has no legal action")
        if len(actions) == 1:
            return actions[0]
        if len(actions) > self.max_candidates:
            actions = rng.sample(actions, self.max_candidates)
        rate = HEURISTICS.get(game.id, score_lead)
        blind = {**state, "chance": {**state["chance"], "mode": "table"}}
        best, best_value = actions[0], None
        for action in actions:
            try:
                after, _ = game.apply(blind, action)
            except RefereeError:  # listed parts of a larger decision (see constraints)
                continue
            value = (rate(game, after, player), rng.random())
            if best_value is None or value > best_value:
                best, best_value = action, value
        return best


def bot_named(name: str):
    """The bot for a name in ``BOT_NAMES``."""
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot()
    raise KeyError(name)
