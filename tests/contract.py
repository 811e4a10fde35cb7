"""Reusable contract checks for ANY game engine (``service.games.base.Game``).

One entry point::

    from tests.contract import check_random_games
    report = check_random_games(GAME, [(2, {"turn_limit": 30}, 1), (4, {...}, 2)])

For every ``(players, options, seed)`` setup it plays a seeded random game,
picking only actions that ``legal_actions`` lists, and asserts that

1. every listed action applies (``apply`` raises nothing);
2. ``apply`` never mutates its input (``orjson.dumps`` before == after);
3. the game ends (a win or the turn limit) within ``max_steps``;
4. every state survives a JSON round trip exactly;
5. ``validate_state`` accepts every intermediate state;
6. ``replay(setup, recorded actions)`` reproduces the final state;
7. no ``view(state, p)`` (every seat and the spectator) contains a string
   value that is in ``game.secret_cards(state, p)``;
8. for a ``chance: server`` game: a ``chance: table`` game fed the outcomes
   the server drew (its ``{"type": "chance", "action": ...}`` events)
   reproduces the server game's final state, apart from the ``chance``
   mode/counter and ``options.chance``;
9. every pending decision is declared in ``game.decisions`` and every action
   listed for it has one of the types declared for it (what
   ``GET /v1/games/{game}`` tells a bot).

Options given as ``{"chance": "table"}`` play a table game: chance nodes are
resolved by the test's own seeded generator and recorded like other actions
(check 8 is then skipped).  ``every`` checks 4, 5 and 7 on every n-th state
only (1 = all; 9 goes with them) to keep long suites fast.  Returns a small report dict
(``games``, ``steps``, ``finished_by`` counts) so a test can assert variety.
A failure raises ``AssertionError`` naming the setup and the step.

``SteeringBot`` (pass it as ``bot``) steers any game toward a real win, so
the checks also meet the states only a win produces.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

import orjson

from service.games.base import Game
from service.games.chance import CHANCE
from service.games.playout import Bot, RandomBot, choose_chance, next_actor
from service.games.replay import replay

Setup = tuple[int, dict[Any, Any], int]


def check_random_games(game: Game, setups: Iterable[Setup], *, max_steps: int = 20_000,
                       every: int = 1, table_reproduction: bool = True,
                       bot: Bot | None = None) -> dict[Any, Any]:
    """Play and check one seeded random game per setup (see module docstring).

    ``bot`` (default ``RandomBot``) must pick from ``legal_actions``; a biased
    bot helps games reach a real win instead of the turn limit.
    """
    games = steps = 0
    finished_by: Counter = Counter()
    for players, options, seed in setups:
        label = f"{game.id} players={players} options={options} seed={seed}"
        final, n, chance_trace, actions = _play_checked(game, players, options, seed,
                                                        max_steps, every, label,
                                                        bot or RandomBot())
        games += 1
        steps += n
        finished_by[final["result"].get("reason", "?")] += 1
        _check_replay(game, players, options, seed, actions, final, label)
        if table_reproduction and (options or {}).get("chance", "server") == "server":
            _check_table_reproduction(game, players, options, seed, actions,
                                      chance_trace, final, label)
    return {"games": games, "steps": steps, "finished_by": dict(finished_by)}


def check_state(game: Game, state: dict[Any, Any], label: str = "") -> None:
    """Checks 4, 5, 7 and 9 on one state: JSON round trip, validation, no leaks,
    declared decisions."""
    dumped = orjson.dumps(state)
    assert orjson.loads(dumped) == state, f"{label}: state changes in a JSON round trip"
    try:
        game.validate_state(orjson.loads(dumped))
    except Exception as exc:  # noqa: BLE001 - report any failure with context
        raise AssertionError(f"{label}: validate_state refused a reached state: {exc!r} "
                             f"{getattr(exc, 'errors', '')}") from exc
    for seat in [None, *range(len(state["players"]))]:
        leaked = strings_and_keys(game.view(state, seat)) & game.secret_cards(state, seat)
        assert not leaked, f"{label}: view for {seat} shows secret {sorted(leaked)[:5]}"
    for entry in state["pending"]:
        declared = game.decisions.get(entry["decision"])
        assert declared is not None, \
            f"{label}: decision {entry['decision']!r} is not declared in {game.id}.decisions"
        listed = {a["type"] for a in game.legal_actions(state, entry["player"])}
        assert listed <= set(declared), \
            f"{label}: {entry['decision']!r} lists {sorted(listed - set(declared))}, not declared"


class SteeringBot:
    """Steers a game toward a real win through the ``Game`` contract only.

    With probability ``greed`` it rates up to ``sample`` of the listed
    actions (all of them when fewer) and takes the best; otherwise a random
    listed action.  An action is rated by ``standing`` after it, and after
    ``lookahead`` further random steps (chance included), so that a move
    whose gain comes later (declaring a capture, moving toward a capital)
    is seen too.  Random play rarely wins a game whose win needs a run of
    good moves (RAI-6 36 money, KOZ-47/48 a capital, TRE-28 the most
    people); this bot does, so the tests meet the states a win produces.
    """

    def __init__(self, greed: float = 0.85, sample: int = 6, lookahead: int = 5) -> None:
        self.greed = greed
        self.sample = sample
        self.lookahead = lookahead

    def choose(self, game: Game, state: dict[Any, Any], player: int, rng: random.Random) -> dict[Any, Any]:
        actions = game.legal_actions(state, player)
        if len(actions) == 1 or rng.random() >= self.greed:
            return actions[rng.randrange(len(actions))]
        tried = actions if len(actions) <= self.sample else rng.sample(actions, self.sample)
        rated = [(self.rate(game, state, a, player, rng), rng.random(), i)
                 for i, a in enumerate(tried)]
        return tried[max(rated)[2]]

    def rate(self, game: Game, state: dict[Any, Any], action: dict[Any, Any], player: int,
             rng: random.Random) -> float:
        state, _ = game.apply(state, action)
        for _ in range(self.lookahead):
            who = next_actor(state, rng)
            if who is None:
                break
            if who == CHANCE:
                step = choose_chance(game, state, rng)
            else:
                listed = game.legal_actions(state, who)
                step = listed[rng.randrange(len(listed))]
            state, _ = game.apply(state, step)
        return standing(game, state, player)


def standing(game: Game, state: dict[Any, Any], player: int) -> float:
    """How near the game is to a decision, as ``player`` sees it: a finished
    game outranks any unfinished one (``player``'s own win most), else the
    spread of the score totals (``game.score``: money, people, capital life)
    plus a little of the player's own total.  Every steered player so pushes
    the game toward someone's win, not only toward their own.

    >>> from service.games.registry import get_game
    >>> raiders = get_game("raiders")
    >>> state, _ = raiders.new_game(2, {}, seed=1)
    >>> standing(raiders, state, 0)
    0.0
    """
    score = game.score(state)
    if score["finished"]:
        return FINISHED * (2 if player in score["winners"] else 1)
    totals = {s["player"]: s["total"] for s in score["scores"]}
    return max(totals.values()) - min(totals.values()) + OWN_SHARE * totals[player]


#: a finished game outranks every unfinished one (doubled for a winner)
FINISHED = 1e9
#: how much a player's own total weighs against the spread of all totals
OWN_SHARE = 0.1


# ---------------------------------------------------------------- internals
def _play_checked(game, players, options, seed, max_steps, every, label, bot):
    state, events = game.new_game(players, options, seed)
    chance_trace = _chance_actions(events)
    rng = random.Random(seed)
    actions: list[dict[Any, Any]] = []
    check_state(game, state, f"{label} step 0")
    step = 0
    while state["result"] is None:
        assert step < max_steps, f"{label}: no end after {max_steps} steps"
        who = next_actor(state, rng)
        assert who is not None, f"{label} step {step}: nobody pending in an unfinished game"
        if who == CHANCE:
            action = choose_chance(game, state, rng)
        else:
            action = bot.choose(game, state, who, rng)
            if not isinstance(bot, RandomBot):
                assert action in game.legal_actions(state, who), \
                    f"{label} step {step}: the bot chose an unlisted action {action}"
        before = orjson.dumps(state)
        try:
            new_state, events = game.apply(state, action)
        except Exception as exc:  # noqa: BLE001
            raise AssertionError(f"{label} step {step}: listed action {action} "
                                 f"failed to apply: {exc!r}") from exc
        assert orjson.dumps(state) == before, f"{label} step {step}: apply mutated its input"
        chance_trace.extend(_chance_actions(events))
        actions.append(action)
        state = new_state
        step += 1
        if step % every == 0 or state["result"] is not None:
            check_state(game, state, f"{label} step {step}")
    return state, step, chance_trace, actions


def _check_replay(game, players, options, seed, actions, final, label):
    setup = {"players": players, "options": options, "seed": seed}
    replayed = replay(game, setup, actions)["state"]
    assert replayed == final, f"{label}: replay does not reproduce the final state"


def _check_table_reproduction(game, players, options, seed, actions, chance_trace, final,
                              label):
    table_options = {**(options or {}), "chance": "table"}
    state, _ = game.new_game(players, table_options, seed)
    outcomes = iter(chance_trace)
    moves = iter(actions)
    guard = 0
    while state["result"] is None:
        guard += 1
        assert guard < 10 * (len(actions) + len(chance_trace)) + 100, \
            f"{label}: table game does not end"
        if any(p["player"] == CHANCE for p in state["pending"]):
            action = next(outcomes, None)
            assert action is not None, f"{label}: table game wants more chance outcomes"
        else:
            action = next(moves, None)
            assert action is not None, f"{label}: table game wants more actions"
        state, _ = game.apply(state, action)
    assert next(moves, None) is None, f"{label}: table game ended before the server game"
    assert _without_chance(state) == _without_chance(final), \
        f"{label}: table game fed the server's outcomes ends in a different state"


def _without_chance(state: dict[Any, Any]) -> dict[Any, Any]:
    out = {k: v for k, v in state.items() if k != "chance"}
    out["options"] = {k: v for k, v in state["options"].items() if k != "chance"}
    return out


def _chance_actions(events: list[dict[Any, Any]]) -> list[dict[Any, Any]]:
    return [e["action"] for e in events if e.get("type") == "chance"]


def strings_and_keys(value) -> set[str]:
    """Every string anywhere in a JSON value, object keys included — what a
    view must not share with the viewer's secret cards."""
    out: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, dict):
            out.update(k for k in v if isinstance(k, str))
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


def json_paths(value, prefix: tuple[Any, ...] = ()):
    """Every path (tuple of keys and indexes) below the root of a JSON value,
    parents before children — the places a mutation test can break."""
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, child in items:
        path = prefix + (key,)
        yield path
        yield from json_paths(child, path)
