"""The service as operators run it, beside the service as benched.

Two configurations of one server (``make bench`` measures both, ``bench.http_load``
under gunicorn against the no-op floor, ``bench.request_instructions`` in
instructions per request):

* ``bench`` — as the HTTP bench has always run it: no keys, no rate limit, one body
  resent, so every request reaches a worker that has validated its state.
* ``operators`` — signing keys set (``REFEREE_STATE_KEYS``), the rate limit on
  (``REFEREE_RATE_LIMIT``) and counted in a real ``redis-server`` the bench starts on
  a free loopback port, the Procfile's 2 gunicorn workers, and a bot's signed states
  (``pool``) each sent ``REPEATS`` times in a row: the first send of a state reaches a
  worker that has not seen it, each further send the other worker with probability ½,
  so ``new_share(REPEATS)`` of the requests (47 % for 4) pay the state's validation.

A bot's states are the states of seeded random games (``bench.states.trajectory``),
signed and chained as the service signs them (``signed_line``: the same bytes
``apply`` answers).  The ``apply`` pool takes every other state of its games, so the
state an ``apply`` answers (the next one of its line) is never in the pool; the
``legal-actions`` pool is of other seeds.  No state of a pool is sent before it is
measured; each 1-second slice of the load starts where the last one stopped
(``bench.loader.load_pool``), and a slice that runs past the end of the pool starts it
again (counted: ``wrapped``).

>>> new_share(1), new_share(2), round(new_share(4), 3)
(1.0, 0.75, 0.469)
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bench.states import trajectory

#: the signing key of the ``operators`` configuration (``REFEREE_STATE_KEYS``)
KEY = "bench-operators-state-key"
#: a limit the bench never reaches (one client, a few thousand requests/s), counted
#: per client and route in Redis like any other
RATE_LIMIT = "1000000/minute"
#: sends of each state of the pool, in a row (a bot asks ``legal-actions``, ``apply``…)
REPEATS = 4
#: states per pool: a bot's games, more than 5 slices of 1 s take at 2,000 requests/s
POOL = 2600
#: first seeds of the pools' games (apart from the seeds ``bench.states`` samples)
APPLY_SEEDS, LEGAL_ACTIONS_SEEDS = 1000, 5000


def new_share(repeats: int) -> float:
    """Share of the requests that reach a worker (of 2) that has not validated their
    state, when each state is sent ``repeats`` times and each send picks a worker at
    random: the first always, the k-th when all k−1 before it went to the other one."""
    return sum(0.5 ** k for k in range(repeats)) / repeats


def operator_env(redis_url: str) -> dict[str, str]:
    """The environment of the ``operators`` server."""
    return {"REFEREE_STATE_KEYS": KEY, "REFEREE_RATE_LIMIT": RATE_LIMIT, "REDIS_URL": redis_url}


def signed_line(game_id: str, seed: int, keys: list[bytes] | None) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """``(state, action)`` of one seeded random game, each state signed under ``keys`` with
    its chain as ``new`` and ``apply`` return it (plain states without ``keys``)."""
    from service import signing, transcripts

    pairs = trajectory(game_id, seed, vary=True)
    if not keys:
        return [(dict(s), a) for s, a in pairs]
    game = hashlib.sha256(f"{game_id}/{seed}".encode()).hexdigest()[:32]
    out: list[tuple[dict[str, Any], dict[str, Any]]] = []
    previous: dict[str, Any] | None = None
    for state, action in pairs:
        chain = transcripts.start(game, transcripts.setup_id(state)) if previous is None \
            else transcripts.follow(previous)
        previous = signing.signed({**state, transcripts.FIELD: chain}, keys)
        out.append((previous, action))
    return out


def pool(game_id: str, endpoint: str, size: int = POOL, keys: list[bytes] | None = None,
         first_seed: int | None = None) -> list[dict[str, Any]]:
    """``size`` request bodies of ``endpoint`` (``apply`` or ``legal-actions``) on distinct
    states of a bot's games."""
    apply = endpoint == "apply"
    seed = (APPLY_SEEDS if apply else LEGAL_ACTIONS_SEEDS) if first_seed is None else first_seed
    bodies: list[dict[str, Any]] = []
    while len(bodies) < size:
        line = signed_line(game_id, seed, keys)
        seed += 1
        for state, action in line[::2] if apply else line:
            bodies.append({"state": state, "action": action} if apply
                          else {"state": state, "player": action["player"]})
    return bodies[:size]


@contextmanager
def redis_server() -> Iterator[str]:
    """A private ``redis-server`` on a free loopback port, no persistence; its URL."""
    import tempfile

    from bench.spent_steps import private_redis

    with tempfile.TemporaryDirectory() as tmp:
        proc, url = private_redis(tmp)
        try:
            yield url
        finally:
            proc.terminate()
            proc.wait()


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The lowest ratio to the floor of each configuration."""
    out: dict[str, Any] = {}
    for row in rows:
        if "ratio_to_floor" in row:
            config = row.get("config", "bench")
            out[config] = min(out.get(config, 9.0), row["ratio_to_floor"])
    return out
