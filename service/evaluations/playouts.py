"""``playouts``: N games played to the end from a state by baseline bots.

Every playout starts from a fresh *determinization* of the state for the
asking player (``params.player``; ``null`` = a spectator): whatever that
player cannot see is re-dealt at random from what they cannot locate, and the
chance seed is replaced (``Game.determinize``), so the evaluation never
peeks.  Then ``random_playout`` plays on with one bot per seat (``random`` or
``greedy``, ``service.games.bots``).

Playout ``i`` uses seeds derived from ``(params.seed, i)`` only, so the
result does not depend on how the work was split into chunks or on how many
workers ran them: the same request and seed give the same answer in-process
and on any number of RQ workers.

Result: ``win_rate`` per player (wins / finished playouts, shared wins
counted for each winner, 95% Wilson interval), ``scores`` per player (mean,
standard deviation, 95% interval of the mean, histogram), mean game length
in actions and turns, ``unfinished`` (playouts stopped at ``max_steps``) and
the ``seed``.

The work estimate is a bound, not a guess: playouts × the steps a playout
can reach (``horizon``: ``max_steps``, or fewer when a turn limit or the game
itself ends it sooner) × the worst measured cost of a step with the chosen
bots (``Game.step_seconds``, ``python -m bench.step_costs``).  A plan past
``MAX_WORK_SECONDS`` is refused naming the fields that set it, and each
chunk runs under a CPU deadline derived from its share
(``service.evaluations.budget``).
"""

from __future__ import annotations

import math
import secrets
import time
from typing import Any

from service.evaluations import stats
from service.evaluations.budget import CPU_MARGIN
from service.evaluations.kinds import Kind, Progress, register
from service.games import shape
from service.games.base import validated
from service.games.bots import BOT_NAMES, bot_named
from service.games.chance import _splitmix64
from service.games.errors import MalformedInput
from service.games.messages import N_
from service.games.playout import random_playout
from service.games.registry import get_game
from service.limits import (
    MAX_CHUNK_CPU_SECONDS,
    MAX_CHUNKS,
    MAX_PLAYOUT_STEPS,
    MAX_PLAYOUTS,
    MAX_SEAT,
    MAX_SEATS,
    MAX_SEED,
    MAX_TURN_LIMIT,
    MAX_WORK_SECONDS,
    SEED_BITS,
)

DEFAULT_PLAYOUTS = 1000
DEFAULT_MAX_STEPS = 5000
DEFAULT_TURN_LIMIT = 60
#: aim for chunks of about this much work: an RQ round trip costs ~11 ms here,
#: so a 1 s chunk keeps the queue's overhead near 1 %
CHUNK_SECONDS = 1.0

#: CPU seconds of one step with a bot for which the game declares none
#: (``Game.step_seconds``): the slowest declared greedy step, rounded up
DEFAULT_STEP_SECONDS = 0.002
#: a playout's determinization and score, counted as steps (0.01-0.06 ms measured:
#: one or two random steps)
SETUP_STEPS = 2

_MASK = (1 << 64) - 1


def playout_seed(seed: int, index: int, salt: int = 0) -> int:
    """The seed of playout ``index`` (independent of chunking), 63 bits."""
    return _splitmix64((seed * 0x9E3779B97F4A7C15 + index * 2 + salt) & _MASK) >> 1


def step_cost(game: str, bots: list[str]) -> float:
    """The most CPU seconds of one step with these bots (the slowest seat's bot).

    >>> step_cost("raiders", ["random", "greedy"]) > step_cost("raiders", ["random"] * 2)
    True
    """
    seconds = get_game(game).step_seconds
    return float(max(seconds.get(b, DEFAULT_STEP_SECONDS) for b in set(bots)))


def horizon(game_id: str, state: dict[str, Any], max_steps: int,
            turn_limit: int | None) -> tuple[int, str | None]:
    """The most steps a playout from ``state`` can reach, and the field that
    sets it (``None``: the game ends on its own by then, ``Game.playout_steps``).

    ``turn_limit`` is the plan's (the turn a playout ends, for a state whose
    option is unset); otherwise the state's own ``options.turn_limit`` ends it.
    A turn takes at most ``Game.turn_steps`` steps.

    >>> state = {"turn": 10, "players": [{}, {}], "options": {"turn_limit": 30}}
    >>> horizon("raiders", state, 5000, None)
    (147, 'state.options.turn_limit')
    >>> horizon("raiders", state, 100, None), horizon("raiders", state, 5000, 110)[1]
    ((100, 'params.max_steps'), 'params.turn_limit')
    >>> horizon("tremble", {"turn": 0, "players": [{}] * 5, "options": {}}, 5000, None)
    (600, None)
    """
    game = get_game(game_id)
    limit = turn_limit if turn_limit is not None else state["options"].get("turn_limit")
    reach: int | None = None
    field: str | None = None
    if limit is not None and game.turn_steps is not None:
        per_turn = game.turn_steps[0] + game.turn_steps[1] * len(state["players"])
        # the turn in progress and every turn up to the limit
        reach = math.ceil((max(0, limit - state["turn"]) + 1) * per_turn)
        field = "params.turn_limit" if turn_limit is not None else "state.options.turn_limit"
    elif game.playout_steps is not None:
        reach = game.playout_steps
    if reach is None or reach >= max_steps:
        return max_steps, "params.max_steps"
    return reach, field


def playout_bound(plan: dict[str, Any]) -> float:
    """The most CPU seconds one playout of the plan can take (reference machine)."""
    steps, _ = horizon(plan["game"], plan["state"], plan["max_steps"], plan["turn_limit"])
    return (steps + SETUP_STEPS) * step_cost(plan["game"], plan["bots"])


BOTS = shape.OneOf(shape.Enum(*BOT_NAMES), shape.ListOf(shape.Enum(*BOT_NAMES), max_items=MAX_SEATS),
                   description="`random` or `greedy` for every seat, or one per seat.")


class Playouts(Kind):
    name = "playouts"
    games = None
    description = ("N games played to the end from `state` by baseline bots, with hidden "
                   "information re-sampled to agree with `params.player`'s view: win rates "
                   "with 95% Wilson intervals, score distributions, mean game length, seed.")
    inputs = {"state": shape.Any_(description="A full game state (not a player's view).")}
    params = {
        "playouts": shape.Int(minimum=1, maximum=MAX_PLAYOUTS,
                              description=f"number of games (default {DEFAULT_PLAYOUTS})"),
        "seed": shape.Int(minimum=0, maximum=MAX_SEED, description="default: random"),
        "bots": BOTS,
        "player": shape.Nullable(shape.Int(minimum=0, maximum=MAX_SEAT),
                                 description="whose view to respect (default null: a spectator)"),
        "turn_limit": shape.Int(minimum=1, maximum=MAX_TURN_LIMIT,
                                description="for a game with a `turn_limit` option left unset "
                                            "in the state (raiders, RAI-31): each playout ends "
                                            f"after this many more turns (default "
                                            f"{DEFAULT_TURN_LIMIT})"),
        "chunk_size": shape.Int(minimum=1, maximum=MAX_PLAYOUTS,
                                description="playouts per chunk job (default: about "
                                            f"{CHUNK_SECONDS} s of work; at most "
                                            f"{MAX_CHUNKS} chunks)"),
        "max_steps": shape.Int(minimum=1, maximum=MAX_PLAYOUT_STEPS,
                               description=f"actions per playout before it is cut off "
                                           f"(default {DEFAULT_MAX_STEPS})"),
    }
    caps = {"playouts": MAX_PLAYOUTS, "max_steps": MAX_PLAYOUT_STEPS,
            "work_seconds": MAX_WORK_SECONDS, "chunk_seconds": CHUNK_SECONDS,
            "max_chunks": MAX_CHUNKS}

    def prepare(self, request: dict[str, Any]) -> dict[str, Any]:
        game = get_game(request["game"])
        if "state" not in request:
            raise MalformedInput({"state": [N_("missing required field: the game state to play on")]})
        # a state of an older served rules version is carried over (Game.upgrade_state)
        upgraded = request["state"] = game.upgrade_state(request["state"])[0]
        state = validated(game, upgraded)
        params = request.get("params", {})
        seats = len(state["players"])
        player = params.get("player")
        if player is not None and player >= seats:
            raise MalformedInput({"params.player": [
                N_("must be a seat from 0 to {last} or null", last=seats - 1)]})
        bots = params.get("bots", "greedy")
        if isinstance(bots, str):
            bots = [bots] * seats
        elif len(bots) != seats:
            raise MalformedInput({"params.bots": [N_("one bot per seat: {seats} expected", seats=seats)]})
        n = params.get("playouts", DEFAULT_PLAYOUTS)
        turn_limit = None
        if "turn_limit" in state["options"] and state["options"]["turn_limit"] is None:
            turn_limit = state["turn"] + params.get("turn_limit", DEFAULT_TURN_LIMIT)
        elif "turn_limit" in params:
            raise MalformedInput({"params.turn_limit": [
                N_("only for a {game} state whose `turn_limit` option is unset", game=game.id)]})
        max_steps = params.get("max_steps", DEFAULT_MAX_STEPS)
        plan = {"game": game.id, "state": state, "player": player, "bots": bots,
                "playouts": n, "max_steps": max_steps, "turn_limit": turn_limit}
        cost = playout_bound(plan)
        if n * cost > MAX_WORK_SECONDS:
            raise MalformedInput(self._over_cap(plan, cost))
        seed = params.get("seed")
        if seed is None:
            seed = secrets.randbits(SEED_BITS)
        if "chunk_size" in params:
            size = params["chunk_size"]
            if math.ceil(n / size) > MAX_CHUNKS:
                raise MalformedInput({"params.chunk_size": [
                    N_("at most {chunks} chunks per job: use at least {size} playouts per chunk",
                       chunks=MAX_CHUNKS, size=math.ceil(n / MAX_CHUNKS))]})
            # a chunk that may not finish within its CPU deadline (budget.chunk_budget)
            most = max(1, int(MAX_CHUNK_CPU_SECONDS / CPU_MARGIN / cost))
            if min(size, n) > most:
                raise MalformedInput({"params.chunk_size": [
                    N_("at most {most} of these playouts per chunk (a chunk may do {seconds} s "
                       "of work)", most=most, seconds=int(MAX_CHUNK_CPU_SECONDS / CPU_MARGIN))]})
        else:
            size = max(math.ceil(CHUNK_SECONDS / cost), math.ceil(n / MAX_CHUNKS))
        return {**plan, "seed": seed, "chunk_size": min(size, n)}

    @staticmethod
    def _over_cap(plan: dict[str, Any], cost: float) -> dict[str, list[Any]]:
        """The refusal of a plan past the work cap: the playouts, and the field
        that sets how far each may go."""
        n, seconds = plan["playouts"], MAX_WORK_SECONDS
        steps, field = horizon(plan["game"], plan["state"], plan["max_steps"], plan["turn_limit"])
        estimate = math.ceil(n * cost)
        errors: dict[str, list[Any]] = {"params.playouts": [N_(
            "at most {most} playouts of {game} per job with these bots and this horizon "
            "({steps} steps, up to {each} s a playout; cap: {seconds} s of work per job, this "
            "plan: {estimate} s)", most=max(1, int(seconds / cost)), game=plan["game"],
            steps=steps, each=round(cost, 3), seconds=seconds, estimate=estimate)]}
        if field is not None:
            errors[field] = [N_(
                "a playout may reach {steps} steps: {playouts} of them are {estimate} s of work, "
                "past the cap of {seconds} s per job; lower it or the playouts",
                steps=steps, playouts=n, estimate=estimate, seconds=seconds)]
        return errors

    def estimate_seconds(self, plan: dict[str, Any]) -> float:
        return float(plan["playouts"] * playout_bound(plan))

    def chunk_seconds(self, plan: dict[str, Any], chunk: dict[str, Any]) -> float:
        return float(chunk["count"] * playout_bound(plan))

    def chunks(self, plan: dict[str, Any]) -> list[dict[str, Any]]:
        n, size = plan["playouts"], plan["chunk_size"]
        return [{"index": k, "start": start, "count": min(size, n - start)}
                for k, start in enumerate(range(0, n, size))]

    def run_chunk(self, plan: dict[str, Any], chunk: dict[str, Any],
                  progress: Progress) -> dict[str, Any]:
        game = get_game(plan["game"])
        state, player, seed = plan["state"], plan["player"], plan["seed"]
        bots = [bot_named(b) for b in plan["bots"]]
        seats = len(state["players"])
        wins, shared = [0] * seats, [0] * seats
        scores: list[dict[float, int]] = [{} for _ in range(seats)]
        steps_total = turns_total = finished = 0
        count = chunk["count"]
        last = time.monotonic()
        for k in range(count):
            i = chunk["start"] + k
            start = game.determinize(state, player, playout_seed(seed, i))
            if plan["turn_limit"] is not None:
                start = {**start, "options": {**start["options"], "turn_limit": plan["turn_limit"]}}
            final, _, steps = random_playout(game, start, seed=playout_seed(seed, i, 1),
                                             max_steps=plan["max_steps"], bots=bots)
            outcome = game.score(final)
            if final["result"] is not None and outcome["finished"]:
                finished += 1
                steps_total += steps
                turns_total += final["turn"] - state["turn"]
                winners = outcome["winners"]
                for w in winners:
                    wins[w] += 1
                    if len(winners) > 1:
                        shared[w] += 1
                for s in outcome["scores"]:
                    tally = scores[s["player"]]
                    tally[s["total"]] = tally.get(s["total"], 0) + 1
            now = time.monotonic()
            if now - last > 0.2 or k == count - 1:
                progress(k + 1, count)
                last = now
        return {"count": count, "finished": finished, "wins": wins, "shared": shared,
                "steps": steps_total, "turns": turns_total,
                "scores": [sorted([v, c] for v, c in t.items()) for t in scores]}

    def aggregate(self, plan: dict[str, Any], partials: list[Any]) -> dict[str, Any]:
        seats = len(plan["state"]["players"])
        finished = sum(p["finished"] for p in partials)
        wins = [sum(p["wins"][s] for p in partials) for s in range(seats)]
        shared = [sum(p["shared"][s] for p in partials) for s in range(seats)]
        tallies: list[dict[float, int]] = [{} for _ in range(seats)]
        for p in partials:
            for s, pairs in enumerate(p["scores"]):
                for v, c in pairs:
                    tallies[s][v] = tallies[s].get(v, 0) + c
        steps = sum(p["steps"] for p in partials)
        turns = sum(p["turns"] for p in partials)
        win_rate = []
        for s in range(seats):
            lo, hi = stats.wilson(wins[s], finished)
            win_rate.append({"player": s, "wins": wins[s], "shared_wins": shared[s],
                             "rate": wins[s] / finished if finished else None,
                             "ci95": [lo, hi]})
        scores = []
        for s in range(seats):
            summary = stats.summary(tallies[s])
            summary.pop("n")
            scores.append({"player": s, **summary, "histogram": stats.histogram(tallies[s])})
        return {
            "game": plan["game"], "playouts": plan["playouts"], "finished": finished,
            "unfinished": plan["playouts"] - finished, "seed": plan["seed"],
            "player": plan["player"], "bots": plan["bots"], "max_steps": plan["max_steps"],
            "win_rate": win_rate, "scores": scores,
            "length": {"mean_actions": steps / finished if finished else None,
                       "mean_turns": turns / finished if finished else None},
        }


register(Playouts())
