"""``suggest``: rank a player's legal actions by information-set MCTS.

The search (``service.games.ismcts``) starts every iteration from a fresh
``determinize(state, player, seed)``, so it never peeks: the answer is a
function of ``view(state, player)``, the parameters and the seed.  A large
budget fans out like ``playouts`` (root parallelism): chunk ``k`` searches
``its`` share of the iterations with the seed ``playout_seed(seed, k)``, and
the aggregate sums the chunks' root statistics (``ismcts.merge``) before
ranking.  The same request — seed and ``chunk_size`` included — gives the
same answer in-process and on any number of workers.

Result: every legal action of ``params.player`` with its visits, mean
result (1 a win, 0 a loss, ½ a shared win; a position cut off after the
rollout is rated by the game's position value) and a 95% interval, the
``best`` action (most visited) and its ``principal_line``, the iterations
and the CPU time spent.

``suggest_now`` is the synchronous form (``POST /v1/games/{game}/suggest``):
one in-process search capped at ``SYNC_MAX_MILLISECONDS`` and
``SYNC_MAX_ITERATIONS``, for a bot that needs a move now.
"""

from __future__ import annotations

import math
import secrets
from typing import Any

from service.evaluations.budget import CPU_MARGIN
from service.evaluations.kinds import Kind, Progress, register
from service.evaluations.playouts import CHUNK_SECONDS, DEFAULT_STEP_SECONDS, playout_seed
from service.games import ismcts, shape
from service.games.base import AnyGame, GameState, validated
from service.games.errors import MalformedInput, RuleViolation
from service.games.messages import N_
from service.games.registry import get_game
from service.limits import (
    MAX_CHUNK_CPU_SECONDS,
    MAX_CHUNKS,
    MAX_EXPLORATION,
    MAX_ITERATIONS,
    MAX_ROLLOUT_DEPTH,
    MAX_SEAT,
    MAX_SEED,
    MAX_WIDENING,
    MAX_WORK_SECONDS,
    SEED_BITS,
    SYNC_MAX_ITERATIONS,
    SYNC_MAX_MILLISECONDS,
)

DEFAULT_ITERATIONS = 1000
#: the synchronous form's iterations by default (at most ``SYNC_MAX_ITERATIONS``)
SYNC_DEFAULT_ITERATIONS = 64


def cost_of(game_id: str, tuning: dict[str, Any] | None = None) -> float:
    """CPU seconds per iteration, at most: the game's ``search_iteration_seconds``
    (measured over the positions of 2-player greedy games, ``bench/strength.py``,
    rounded up) and the rollout's steps at the rollout bot's worst step cost
    (``Game.step_seconds``, ``bench/step_costs.py``): a deep greedy rollout costs
    far more than the default one.

    >>> cost_of("kozyablo", {"rollout": "greedy", "rollout_depth": 200}) > 50 * cost_of("kozyablo")
    True
    """
    game = get_game(game_id)
    tuning = tuning or {}
    bot = tuning.get("rollout", game.search_rollout)
    depth = tuning.get("rollout_depth", ismcts.ROLLOUT_DEPTH)
    step = game.step_seconds.get(bot, DEFAULT_STEP_SECONDS)
    return float(game.search_iteration_seconds + depth * step)


SEARCH_PARAMS: dict[str, shape.Spec] = {
    "player": shape.Int(minimum=0, maximum=MAX_SEAT,
                        description="whose decision to rank; the search sees only that "
                                    "player's view (required)"),
    "seed": shape.Int(minimum=0, maximum=MAX_SEED, description="default: random"),
    "exploration": shape.Num(0, MAX_EXPLORATION, description="UCB constant (default "
                                                f"{ismcts.EXPLORATION})"),
    "rollout": shape.Enum(*ismcts.ROLLOUT_BOTS,
                          description="rollout policy below the tree (default: greedy for tremble, "
                                      "random for the others)"),
    "rollout_depth": shape.Int(minimum=0, maximum=MAX_ROLLOUT_DEPTH,
                               description="rollout actions before the position is rated "
                                           f"(default {ismcts.ROLLOUT_DEPTH})"),
    "widening": shape.Int(minimum=0, maximum=MAX_WIDENING,
                          description="root progressive widening (default "
                                      f"{ismcts.WIDENING:g}; 0: every action at once)"),
}


def _tuning(params: dict[str, Any]) -> dict[str, Any]:
    """The search keywords of ``params`` (checked by ``SEARCH_PARAMS``)."""
    return {k: params[k] for k in ("exploration", "rollout", "rollout_depth", "widening")
            if k in params}


def _position(game_id: str, request: dict[str, Any]) -> tuple[AnyGame, GameState, int]:
    """The game, the state and the player of a request, checked: the player
    must have a decision pending (``_pending_player``: else 422)."""
    game = get_game(game_id)
    if "state" not in request:
        raise MalformedInput({"state": [N_("missing required field: the game state to search")]})
    # a state of an older served rules version is carried over (Game.upgrade_state)
    upgraded = request["state"] = game.upgrade_state(request["state"])[0]
    state = validated(game, upgraded)
    return game, state, _pending_player(game, state, request.get("params") or {})


def deciding_player(state: GameState, params: dict[str, Any]) -> int:
    """``params.player``, once sure it is a seat of ``state`` with a decision pending."""
    if "player" not in params:
        raise MalformedInput({"params.player": [N_("missing: whose decision to rank")]})
    player: int = params["player"]
    seats = len(state["players"])
    if player >= seats:
        raise MalformedInput({"params.player": [N_("must be a seat from 0 to {last}",
                                                   last=seats - 1)]})
    return player


def _pending_player(game: AnyGame, state: GameState, params: dict[str, Any]) -> int:
    """``deciding_player``, and a seat that is not pending breaks the turn order
    (``Game.out_of_turn_rule``: 422, like an action sent out of turn)."""
    player = deciding_player(state, params)
    if not any(p["player"] == player for p in state["pending"]):
        raise RuleViolation(game.out_of_turn_rule(state), N_(
            "player {player} has no decision to make now", player=player))
    return player


class Suggest(Kind):
    name = "suggest"
    games = None
    description = ("`params.player`'s legal actions ranked by information-set Monte Carlo tree "
                   "search over determinizations of that player's view (never peeking): each "
                   "action's visits, mean result with a 95% interval, the best action and its "
                   "principal line.")
    inputs = {"state": shape.Any_(description="A full game state (not a player's view); the "
                                              "search sees only `params.player`'s view of it.")}
    params = {
        **SEARCH_PARAMS,
        "iterations": shape.Int(minimum=1, maximum=MAX_ITERATIONS,
                                description=f"search iterations (default {DEFAULT_ITERATIONS})"),
        "chunk_size": shape.Int(minimum=1, maximum=MAX_ITERATIONS,
                                description="iterations per chunk job (default: about "
                                            f"{CHUNK_SECONDS} s of work; at most {MAX_CHUNKS} "
                                            "chunks)"),
    }
    caps = {"iterations": MAX_ITERATIONS, "work_seconds": MAX_WORK_SECONDS,
            "chunk_seconds": CHUNK_SECONDS, "max_chunks": MAX_CHUNKS}

    def prepare(self, request: dict[str, Any]) -> dict[str, Any]:
        game, state, player = _position(request["game"], request)
        params = request.get("params") or {}
        n = params.get("iterations", DEFAULT_ITERATIONS)
        cost = cost_of(game.id, _tuning(params))
        most = max(1, int(MAX_WORK_SECONDS / cost))
        if n > most:
            errors: dict[str, list[str]] = {"params.iterations": [N_(
                "at most {most} iterations of {game} per job (cap: {seconds} s of work per job)",
                most=most, game=game.id, seconds=MAX_WORK_SECONDS)]}
            for field in ("rollout_depth", "rollout"):
                if field in params:  # a deeper or greedier rollout costs more per iteration
                    errors[f"params.{field}"] = [N_(
                        "{cost} s an iteration at most: {iterations} iterations are past the cap "
                        "of {seconds} s of work per job", cost=round(cost, 4), iterations=n,
                        seconds=MAX_WORK_SECONDS)]
            raise MalformedInput(errors)
        if "chunk_size" in params:
            size = params["chunk_size"]
            if math.ceil(n / size) > MAX_CHUNKS:
                raise MalformedInput({"params.chunk_size": [N_(
                    "at most {chunks} chunks per job: use at least {size} iterations per chunk",
                    chunks=MAX_CHUNKS, size=math.ceil(n / MAX_CHUNKS))]})
            most = max(1, int(MAX_CHUNK_CPU_SECONDS / CPU_MARGIN / cost))
            if min(size, n) > most:  # past its CPU deadline (budget.chunk_budget)
                raise MalformedInput({"params.chunk_size": [N_(
                    "at most {most} of these iterations per chunk (a chunk may do {seconds} s "
                    "of work)", most=most, seconds=int(MAX_CHUNK_CPU_SECONDS / CPU_MARGIN))]})
        else:
            size = max(math.ceil(CHUNK_SECONDS / cost), math.ceil(n / MAX_CHUNKS))
        seed = params.get("seed")
        if seed is None:
            seed = secrets.randbits(SEED_BITS)
        return {"game": game.id, "state": state, "player": player, "seed": seed,
                "iterations": n, "chunk_size": min(size, n), "tuning": _tuning(params)}

    def estimate_seconds(self, plan: dict[str, Any]) -> float:
        return float(plan["iterations"] * cost_of(plan["game"], plan["tuning"]))

    def chunk_seconds(self, plan: dict[str, Any], chunk: dict[str, Any]) -> float:
        return float(chunk["iterations"] * cost_of(plan["game"], plan["tuning"]))

    def chunks(self, plan: dict[str, Any]) -> list[dict[str, Any]]:
        n, size = plan["iterations"], plan["chunk_size"]
        return [{"index": k, "iterations": min(size, n - start)}
                for k, start in enumerate(range(0, n, size))]

    def run_chunk(self, plan: dict[str, Any], chunk: dict[str, Any], progress: Progress) -> dict[str, Any]:
        game = get_game(plan["game"])
        stats = ismcts.search(game, plan["state"], plan["player"],
                              seed=playout_seed(plan["seed"], chunk["index"]),
                              iterations=chunk["iterations"], progress=progress,
                              **plan["tuning"])
        progress(chunk["iterations"], chunk["iterations"])
        return stats

    def aggregate(self, plan: dict[str, Any], partials: list[Any]) -> dict[str, Any]:
        return {**ismcts.summarize(ismcts.merge(*partials)), "seed": plan["seed"]}


#: the parameters of the synchronous form (``POST /v1/games/{game}/suggest``)
SYNC_PARAMS = shape.Obj({"player": SEARCH_PARAMS["player"]}, {
    **{k: v for k, v in SEARCH_PARAMS.items() if k != "player"},
    "iterations": shape.Int(minimum=1, maximum=SYNC_MAX_ITERATIONS, description=(
        f"search iterations (default {SYNC_DEFAULT_ITERATIONS}); with `milliseconds`, "
        "whichever ends first; an iteration budget alone is the same answer for a seed")),
    "milliseconds": shape.Int(minimum=1, maximum=SYNC_MAX_MILLISECONDS, description=(
        f"CPU time budget (default and most: {SYNC_MAX_MILLISECONDS})")),
}, description="Whose decision to rank, the budget and the search's tuning.")


def suggest_now(game: AnyGame, state: GameState, params: dict[str, Any]) -> dict[str, Any]:
    """The synchronous suggestion on a validated ``state`` with ``SYNC_PARAMS``:
    one in-process search, ended by ``iterations`` or ``milliseconds``,
    whichever comes first."""
    player = _pending_player(game, state, params)
    seed = params.get("seed")
    if seed is None:
        seed = secrets.randbits(SEED_BITS)
    stats = ismcts.search(game, state, player, seed=seed,
                          iterations=params.get("iterations", SYNC_DEFAULT_ITERATIONS),
                          milliseconds=params.get("milliseconds", SYNC_MAX_MILLISECONDS),
                          **_tuning(params))
    return {**ismcts.summarize(stats), "seed": seed}


register(Suggest())
