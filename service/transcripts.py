"""Transcripts a cheat cannot rewrite: every signed or sealed state is a link.

With signing or sealing on, each state the service returns carries a
``chain`` that its signature (or its seal, as associated data) covers::

    "chain": {"game": "<32 hex>", "step": 7, "prev": "<sha256 hex of state 6>"}

``game`` is drawn by the service at ``new`` (step 0, ``prev`` null); each
``apply`` answers ``step + 1`` and the digest of the state it was applied to.
A host, an opponent or a scorekeeper who collects the states of a game can
then check (``verify``) that they form one unbroken line; two authentic
states of one game at the same step that differ are a *fork*: evidence that
someone applied two actions to one state (tried moves and kept the best) or
went back to an old state.  On sealed states the service refuses the second
branch when it is sent (``service.spent_steps``); on signed ones it signs the
evidence.

>>> first = start("0" * 32)
>>> first
{'game': '00000000000000000000000000000000', 'step': 0, 'prev': None}
>>> s0 = {"turn": 0, "chain": first}
>>> s1 = {"turn": 1, "chain": follow(s0)}
>>> s1["chain"]["step"], s1["chain"]["prev"] == link(s0)
(1, True)
>>> verify([s0, s1])["valid"]
True
>>> other = {"turn": 9, "chain": follow(s0)}
>>> found = verify([s0, s1, other])
>>> found["valid"], found["forks"]
(False, [{'step': 1, 'states': [1, 2]}])
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from typing import Any

import orjson

FIELD = "chain"


def new_game_id() -> str:
    """A fresh game id: 128 random bits in hex."""
    return secrets.token_hex(16)


def setup_id(first: Mapping[str, object]) -> str:
    """The id of a game's setup: SHA-256 of its first state as the engine made it
    (sorted-key orjson; 32 hex digits).  The same for every line of play from that
    setup — ``new``'s and any ``replay`` of it — so a tournament counts the game once
    (``service.http.tournaments``); two setups that deal the same game share it."""
    return hashlib.sha256(orjson.dumps(first, option=orjson.OPT_SORT_KEYS)).hexdigest()[:32]


def start(game_id: str, setup: str | None = None) -> dict[str, Any]:
    """The chain of a new game's first state (``setup``: its ``setup_id``)."""
    chain: dict[str, Any] = {"game": game_id, "step": 0, "prev": None}
    if setup is not None:
        chain["setup"] = setup
    return chain


def link(state: dict[str, Any]) -> str:
    """The digest a successor names: SHA-256 of the state as it was returned
    (sorted-key orjson, signature or seal and chain included)."""
    return hashlib.sha256(orjson.dumps(state, option=orjson.OPT_SORT_KEYS)).hexdigest()


def follow(previous: dict[str, Any], steps: int = 1) -> dict[str, Any] | None:
    """The chain of the state ``steps`` actions after ``previous`` (``None`` if it had none)."""
    chain = previous.get(FIELD)
    if not isinstance(chain, dict):
        return None
    out = {"game": chain["game"], "step": chain["step"] + steps, "prev": link(previous)}
    if "setup" in chain:
        out["setup"] = chain["setup"]
    return out


def replayed(steps: int, setup: str | None = None) -> dict[str, Any]:
    """The chain of a replay's final state: a new game id (a replay is a line
    of its own, not the one ``new`` opened), ``steps`` actions, no predecessor,
    and the ``setup`` id of the game it replays (the same as ``new``'s)."""
    return {**start(new_game_id(), setup), "step": steps}


def verify(states: list[dict[str, Any]]) -> dict[str, Any]:
    """Do ``states`` (already authenticated) form one unbroken line?

    Answers ``valid``, the ``game`` id, the ``steps`` seen, the ``forks``
    (two or more different states at one step, by index) and the ``breaks``:
    a state without a chain, states of more than one game, and a state whose
    ``prev`` is not the digest of a state of the collection at an earlier step
    (only the earliest states may name one the collection lacks).

    >>> s0 = {"chain": start("g")}
    >>> s3 = {"chain": follow(s0, 3)}
    >>> verify([s0, s3])["valid"], verify([s3])["valid"]
    (True, True)
    >>> verify([s0, {"chain": follow(s3)}, s3])["valid"]
    True
    >>> verify([s0, {"chain": follow(s3)}])["breaks"]
    [{'state': 1, 'reason': 'its predecessor is not among the states'}]
    """
    chained = [(i, s[FIELD]) for i, s in enumerate(states) if isinstance(s.get(FIELD), dict)]
    problems: list[dict[str, Any]] = [{"state": i, "reason": "no chain: not a signed or sealed state"}
                            for i, s in enumerate(states) if not isinstance(s.get(FIELD), dict)]
    games = {chain["game"] for _, chain in chained}
    if len(games) > 1:
        problems.append({"state": None, "reason": "states of more than one game"})
    digests = {link(states[i]): chain["step"] for i, chain in chained}
    by_step: dict[int, list[int]] = {}
    for i, chain in chained:
        by_step.setdefault(chain["step"], []).append(i)
    first = min(by_step, default=0)
    forks = [{"step": step, "states": indexes} for step, indexes in sorted(by_step.items())
             if len(games) == 1 and len({link(states[i]) for i in indexes}) > 1]
    for i, chain in chained:
        step, prev = chain["step"], chain["prev"]
        if prev is None:
            if step > first:
                problems.append({"state": i, "reason": "names no predecessor but is not the "
                                                       "first state"})
        elif step == 0:
            problems.append({"state": i, "reason": "step 0 names a predecessor"})
        elif prev in digests:
            if digests[prev] >= step:
                problems.append({"state": i, "reason": "its predecessor is not at an earlier "
                                                       "step"})
        elif step > first:
            problems.append({"state": i, "reason": "its predecessor is not among the states"})
    return {"valid": not forks and not problems, "game": next(iter(games), None),
            "steps": sorted(by_step), "forks": forks, "breaks": problems}
