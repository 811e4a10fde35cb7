"""Information-set Monte Carlo tree search over determinizations, for any game.

``search(game, state, player, seed=..., iterations=...)`` ranks ``player``'s
legal actions without ever peeking: every iteration starts from a fresh
``game.determinize(state, player, seed_i)`` — a full state that ``player``
cannot tell from the real one, with everything hidden re-dealt and the
chance seed replaced — and the search touches ``state`` through
``determinize`` only.  ``determinize`` is a function of ``view(state,
player)`` and the seed (``tests/shared/test_determinize.py``), so two states
that give ``player`` the same view give the very same answer.

The tree is single-observer ISMCTS (Cowling, Powley & Whitehouse 2012;
OpenSpiel's ``ismcts.py``), open loop: a node is the sequence of actions
from the root, shared by every determinization that reaches it; a child's
UCB term counts the times it was *available* (hidden cards make the legal
sets differ between determinizations).  At the root, the asking player's
actions get a prior — the greedy bot's one-step rating, on the first
determinization — and enter the search by progressive widening, best prior
first (``WIDENING``), with a prior bias that fades as visits come: a small
budget refines the greedy choice instead of spreading one visit over every
action.  Every player's decisions are in the
tree, each choosing by its own results (max-n); chance is sampled — in
``server`` mode by the determinization's fresh seed inside ``apply``, in
``table`` mode with the listed weights.  Below the tree a rollout policy
(``random`` or ``greedy``, ``service.games.bots``; per game
``Game.search_rollout``) plays at most
``rollout_depth`` more actions; then a finished game scores 1 per winner
(shared wins split), and an unfinished one is rated by the game's position
value (the greedy bot's heuristic: a lead over the best opponent) squashed
to a result in (0, 1) by a logistic curve of scale ``Game.search_value_scale``.

Statistics are plain JSON that *sum*: ``merge(a, b)`` of two independent
searches (root parallelism: chunks with their own seeds) has the format of
one search, and ``summarize`` turns either into the answer — each legal
action's visits, mean result with a 95% interval, and the principal line.

>>> from service.games.registry import get_game
>>> game = get_game("raiders")
>>> state, _ = game.new_game(2, {"turn_limit": 20}, seed=1)
>>> player = state["pending"][0]["player"]
>>> stats = search(game, state, player, seed=7, iterations=24)
>>> stats["iterations"], sum(a["visits"] for a in stats["actions"])
(24, 24)
>>> strip_timing(search(game, state, player, seed=7, iterations=24)) == strip_timing(stats)
True
>>> best = summarize(merge(stats, search(game, state, player, seed=8, iterations=24)))
>>> best["iterations"], best["best"] == best["actions"][0]["action"]
(48, True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

import orjson

from service.games import bots
from service.games.base import AnyGame, GameState, StateIn
from service.games.chance import CHANCE
from service.games.errors import RefereeError
from service.games.objects import ActionObject, JsonObject
from service.games.playout import RandomBot, choose_chance

#: UCB exploration constant (results are in [0, 1])
EXPLORATION = 0.7
#: rollout actions after the tree before the position is rated
ROLLOUT_DEPTH = 4
#: root progressive widening: after n iterations the 1 + WIDENING * sqrt(n)
#: actions with the best prior (greedy one-step rating) compete; 0: all at once
WIDENING = 1.0
#: the most actions the greedy rollout policy rates per decision (a sample beyond)
ROLLOUT_WIDTH = 8
#: tree nodes below the root action kept in the statistics (for the line)
LINE_DEPTH = 4
ROLLOUT_BOTS = ("greedy", "random")
PROGRESS_EVERY = 8
Z95 = 1.959963984540054

#: ``rate(state, player)``: the position's value for ``player``, higher is better
Rater = Callable[[StateIn, int], float]


def action_key(action: ActionObject) -> str:
    """The canonical text of an action (sorted keys, no informational ``probability``)."""
    return orjson.dumps({k: v for k, v in action.items() if k != "probability"},
                        option=orjson.OPT_SORT_KEYS).decode()


def position_rater(game: AnyGame) -> Rater:
    """The game's position value for a player (higher is better):
    ``Game.position_value`` (the greedy bot's heuristic, the score lead by
    default), or the older ``bots.HEURISTICS`` table where a game has no hook."""
    hook = getattr(game, "position_value", None)
    if hook is not None:
        return lambda state, player: float(hook(state, player))
    legacy: Any = bots
    rate = legacy.HEURISTICS.get(game.id, legacy.score_lead)
    return lambda state, player: float(rate(game, state, player))


class _Node:
    """Statistics of the edge into this node: visits, summed result of the
    player who chose it, availability; children by action key."""

    __slots__ = ("action", "actor", "visits", "total", "total_sq", "available", "children")

    def __init__(self, action: ActionObject | None, actor: int) -> None:
        self.action = action
        self.actor = actor
        self.visits = 0
        self.total = 0.0
        self.total_sq = 0.0
        self.available = 0
        self.children: dict[str, _Node] = {}


class _Search:
    def __init__(self, game: AnyGame, player: int, rng: random.Random, exploration: float,
                 rollout: str, rollout_depth: int, rollout_width: int,
                 value_scale: float, widening: float) -> None:
        self.game, self.player, self.rng = game, player, rng
        self.exploration = exploration
        self.policy = bots.GreedyBot(rollout_width) if rollout == "greedy" else RandomBot()
        self.rollout_depth = rollout_depth
        self.value_scale = value_scale
        self.rate = position_rater(game)
        self.widening = widening
        #: root action key -> its prior result (greedy one-step rating), when widening
        self.priors: dict[str, float] | None = None

    def rate_root(self, world: GameState, actions: list[ActionObject]) -> None:
        """Priors of the root actions: each one applied to a determinization
        with chance left pending (as the greedy bot looks ahead), rated by
        the position value; actions that cannot be applied alone get none."""
        blind = {**world, "chance": {**world["chance"], "mode": "table"}}
        self.priors = {}
        for action in actions:
            try:
                after, _ = self.game.apply(blind, action)
            except RefereeError:
                continue
            self.priors[action_key(action)] = self.squash(self.rate(after, self.player))

    def squash(self, value: float) -> float:
        """A position value as a result in (0, 1): logistic of ``value / scale``."""
        lead = value / self.value_scale
        return 1 / (1 + math.exp(-max(-50.0, min(50.0, lead))))

    # one iteration: select/expand in the tree, roll out, back up
    def iterate(self, root: _Node, state: GameState) -> None:
        game, rng = self.game, self.rng
        node, path = root, [root]
        while state["result"] is None:
            who = self._actor(state, node is root)
            if who is None:
                break
            if who == CHANCE:
                state, _ = game.apply(state, choose_chance(game, state, rng))
                continue
            assert isinstance(who, int)
            actions = game.legal_actions(state, who)
            if not actions:
                break
            if node is root and self.priors is not None:
                child, expanded = self._select_root(root, who, actions)
            else:
                child, expanded = self._select(node, who, actions)
            try:
                state, _ = game.apply(state, child.action)
            except RefereeError:  # a listed part of a larger decision: not a move
                del node.children[action_key(child.action or {})]
                break
            path.append(child)
            node = child
            if expanded:
                break
        results = self._rollout(state)
        for n in path[1:]:
            r = results[n.actor]
            n.visits += 1
            n.total += r
            n.total_sq += r * r
        root.visits += 1

    def _actor(self, state: GameState, at_root: bool) -> int | str | None:
        pending: list[int | str] = [p["player"] for p in state["pending"]]
        if not pending:
            return None
        if CHANCE in pending:
            return CHANCE
        if at_root and self.player in pending:
            return self.player
        return min(pending)

    def _select(self, node: _Node, who: int, actions: list[JsonObject]) -> tuple[_Node, bool]:
        children = node.children
        untried: list[tuple[str, JsonObject]] = []
        here: list[_Node] = []
        for action in actions:
            key = action_key(action)
            child = children.get(key)
            if child is None:
                untried.append((key, action))
            else:
                child.available += 1
                here.append(child)
        if untried:
            key, action = untried[self.rng.randrange(len(untried))]
            child = children[key] = _Node(action, who)
            child.available = 1
            return child, True
        c = self.exploration
        best = max(here, key=lambda ch: ch.total / ch.visits
                   + c * math.sqrt(math.log(ch.available) / ch.visits))
        return best, False

    def _select_root(self, root: _Node, who: int, actions: list[JsonObject]) -> tuple[_Node, bool]:
        """Progressive widening by prior: only the ``1 + widening * sqrt(n)``
        best-rated actions compete after ``n`` iterations, untried ones in
        prior order, then UCB plus a prior bias that fades with visits."""
        priors = self.priors or {}
        ranked = sorted((a for a in actions if action_key(a) in priors),
                        key=lambda a: (-priors[action_key(a)], action_key(a))) or actions
        width = 1 + int(self.widening * math.sqrt(root.visits))
        children = root.children
        here: list[_Node] = []
        for action in ranked[:width]:
            key = action_key(action)
            child = children.get(key)
            if child is None:
                child = children[key] = _Node(action, who)
                child.available = 1
                return child, True
            child.available += 1
            here.append(child)
        c = self.exploration
        best = max(here, key=lambda ch: ch.total / ch.visits
                   + c * math.sqrt(math.log(ch.available) / ch.visits)
                   + priors.get(action_key(ch.action or {}), 0.0) / (ch.visits + 1))
        return best, False

    def _rollout(self, state: GameState) -> list[float]:
        game, rng = self.game, self.rng
        for _ in range(self.rollout_depth):
            if state["result"] is not None:
                break
            who = self._actor(state, False)
            if who is None:
                break
            if who == CHANCE:
                action = choose_chance(game, state, rng)
            else:
                assert isinstance(who, int)
                action = self.policy.choose(game, state, who, rng)
            try:
                state, _ = game.apply(state, action)
            except RefereeError:  # a listed part of a larger decision: stop here
                break
        return self.results(state)

    def results(self, state: GameState) -> list[float]:
        """Each seat's result in [0, 1]: a finished game's share of the win,
        else the logistic of its position value."""
        seats = len(state["players"])
        if state["result"] is not None:
            winners = self.game.score(state)["winners"]
            return [1 / len(winners) if s in winners else 0.0 for s in range(seats)]
        return [self.squash(self.rate(state, s)) for s in range(seats)]


def search(game: AnyGame, state: GameState, player: int, *, seed: int, iterations: int | None = None,
           milliseconds: float | None = None, exploration: float = EXPLORATION,
           rollout: str | None = None, rollout_depth: int = ROLLOUT_DEPTH,
           rollout_width: int = ROLLOUT_WIDTH, value_scale: float | None = None,
           widening: float = WIDENING, progress: Callable[[int, int], None] | None = None) -> JsonObject:
    """Root statistics of an ISMCTS for ``player`` (who must be pending).

    Stops after ``iterations`` or ``milliseconds`` (whichever comes first;
    at least one iteration; a time budget makes the answer depend on the
    machine, an iteration budget alone is deterministic for a ``seed``).
    ``state`` is used only through ``game.determinize(state, player, ·)``.
    ``progress(done, iterations)`` is called every ``PROGRESS_EVERY``
    iterations (it may raise to stop the search).
    """
    if iterations is None and milliseconds is None:
        raise ValueError("give iterations, milliseconds or both")
    if rollout is None:
        rollout = game.search_rollout
    if rollout not in ROLLOUT_BOTS:
        raise ValueError(f"rollout is one of {ROLLOUT_BOTS}")
    rng = random.Random(seed)
    scale = value_scale or game.search_value_scale
    engine = _Search(game, player, rng, exploration, rollout, rollout_depth, rollout_width,
                     scale, widening)
    root = _Node(None, -1)
    begin = time.perf_counter()
    deadline = None if milliseconds is None else begin + milliseconds / 1000
    listed: dict[str, JsonObject] = {}
    done = 0
    while True:
        world = game.determinize(state, player, rng.getrandbits(63))
        if done == 0:
            if not any(p["player"] == player for p in world["pending"]):
                raise ValueError(f"player {player} has no decision to make now")
            first = game.legal_actions(world, player)
            for action in first:
                listed.setdefault(action_key(action), action)
            if widening > 0:
                engine.rate_root(world, first)
        engine.iterate(root, world)
        done += 1
        if progress is not None and done % PROGRESS_EVERY == 0:
            progress(done, iterations or done)
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
    for key, child in root.children.items():
        listed.setdefault(key, child.action or {})
    actions = []
    for key in sorted(listed):
        edge = root.children.get(key)
        actions.append({"action": listed[key], "visits": edge.visits if edge else 0,
                        "total": edge.total if edge else 0.0,
                        "total_sq": edge.total_sq if edge else 0.0})
    return {"game": game.id, "player": player, "iterations": done,
            "actions": actions,
            "lines": {key: _lines(child, LINE_DEPTH) for key, child in sorted(root.children.items())
                      if child.children},
            "cpu_ms": (time.perf_counter() - begin) * 1000}


def _lines(node: _Node, depth: int) -> JsonObject:
    """``{key: [action, visits, deeper]}`` for children visited twice or more."""
    out: dict[str, list[Any]] = {}  # [action, visits, deeper lines]
    if depth <= 1:
        return out
    for key, child in sorted(node.children.items()):
        if child.visits >= 2:
            out[key] = [child.action, child.visits, _lines(child, depth - 1)]
    return out


def _merge_lines(a: JsonObject, b: JsonObject) -> JsonObject:
    out = dict(a)
    for key, (action, visits, deeper) in b.items():
        if key in out:
            mine = out[key]
            out[key] = [mine[0], mine[1] + visits, _merge_lines(mine[2], deeper)]
        else:
            out[key] = [action, visits, deeper]
    return dict(sorted(out.items()))


def merge(*parts: JsonObject) -> JsonObject:
    """The statistics of several independent searches of one position, summed
    (the order of ``parts`` does not matter)."""
    if not parts:
        raise ValueError("nothing to merge")
    first = parts[0]
    rows: dict[str, list[JsonObject]] = {}
    lines: dict[str, JsonObject] = {}
    for part in parts:
        if (part["game"], part["player"]) != (first["game"], first["player"]):
            raise ValueError("statistics of different positions")
        for row in part["actions"]:
            rows.setdefault(action_key(row["action"]), []).append(row)
        for key, sub in part["lines"].items():
            lines[key] = _merge_lines(lines.get(key, {}), sub)
    # exactly rounded sums: the same whatever the order of the parts
    actions = [{"action": same[0]["action"], "visits": sum(r["visits"] for r in same),
                "total": math.fsum(r["total"] for r in same),
                "total_sq": math.fsum(r["total_sq"] for r in same)}
               for _, same in sorted(rows.items())]
    return {"game": first["game"], "player": first["player"],
            "iterations": sum(p["iterations"] for p in parts),
            "actions": actions,
            "lines": dict(sorted(lines.items())),
            "cpu_ms": sum(p["cpu_ms"] for p in parts)}


def strip_timing(stats: JsonObject) -> JsonObject:
    """The statistics without the measured time (what a seed determines)."""
    return {k: v for k, v in stats.items() if k != "cpu_ms"}


def summarize(stats: JsonObject) -> JsonObject:
    """The answer: actions by visits (then mean), each with its mean result
    and 95% interval (normal approximation, clipped to [0, 1]); the best
    action (most visited) and its principal line (most visited child at each
    step below it, any player's decision, chance left out)."""
    rows: list[JsonObject] = []
    for row in stats["actions"]:
        n = row["visits"]
        if not n:
            rows.append({"action": row["action"], "visits": 0, "mean": None, "ci95": None})
            continue
        mean = row["total"] / n
        var = max(0.0, row["total_sq"] / n - mean * mean) * (n / (n - 1) if n > 1 else 1.0)
        half = Z95 * math.sqrt(var / n) if n > 1 else 0.5
        rows.append({"action": row["action"], "visits": n, "mean": mean,
                     "ci95": [max(0.0, mean - half), min(1.0, mean + half)]})
    rows.sort(key=lambda r: (-r["visits"], -(r["mean"] if r["mean"] is not None else -1),
                             action_key(r["action"])))
    best = rows[0]["action"] if rows and rows[0]["visits"] else None
    line: list[JsonObject] = []
    if best is not None:
        line.append({"action": best, "visits": rows[0]["visits"]})
        level = stats["lines"].get(action_key(best), {})
        while level:
            key = max(level, key=lambda k: (level[k][1], k))
            action, visits, level = level[key]
            line.append({"action": action, "visits": visits})
    return {"game": stats["game"], "player": stats["player"], "iterations": stats["iterations"],
            "best": best, "actions": rows, "principal_line": line,
            "cpu_ms": stats.get("cpu_ms")}


class SearchBot:
    """A bot that plays the most visited action of an ISMCTS from its own
    seat's determinizations (``search``'s keywords: budget and tuning)."""

    name = "ismcts"

    def __init__(self, **options: Any) -> None:
        self.options = options

    def choose(self, game: AnyGame, state: GameState, player: int, rng: random.Random) -> JsonObject:
        actions = game.legal_actions(state, player)
        if len(actions) <= 1:
            if not actions:
                raise RuntimeError(f"{game.id}: player {player} is pending but has no legal action")
            return actions[0]
        answer = summarize(search(game, state, player, seed=rng.getrandbits(63), **self.options))
        return answer["best"] if answer["best"] is not None else actions[0]
