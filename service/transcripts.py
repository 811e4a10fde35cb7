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
went back to an old state.  The service stays stateless: it cannot refuse
the second branch when it is sent, but it signs the evidence.

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
from typing import Any

import orjson

FIELD = "chain"


def new_game_id() -> str:
    """A fresh game id: 128 random bits in hex."""
    return secrets.token_hex(16)


def start(game_id: str) -> dict:
    """The chain of a new game's first state."""
    return {"game": game_id, "step": 0, "prev": None}


def link(state: dict) -> str:
    """The digest a successor names: SHA-256 of the state as it was returned
    (sorted-key orjson, signature or seal and chain included)."""
    return hashlib.sha256(orjson.dumps(state, option=orjson.OPT_SORT_KEYS)).hexdigest()


def follow(previous: dict) -> dict | None:
    """The chain of the state that follows ``previous`` (``None`` if it had none)."""
    chain = previous.get(FIELD)
    if not isinstance(chain, dict):
        return None
    return {"game": chain["game"], "step": chain["step"] + 1, "prev": link(previous)}


def verify(states: list[dict]) -> dict[str, Any]:
    """Do ``states`` (already authenticated) form one unbroken line?

    Answers ``valid``, the ``game`` id, the ``steps`` seen, the ``forks``
    (two or more different states at one step, by index) and the ``breaks``
    (a state whose ``prev`` is not the digest of any state one step before
    it, or of another game).
    """
    games = {s.get(FIELD, {}).get("game") for s in states if isinstance(s.get(FIELD), dict)}
    by_step: dict[int, list[int]] = {}
    digests: dict[int, set[str]] = {}
    problems: list[dict] = []
    for i, state in enumerate(states):
        chain = state.get(FIELD)
        if not isinstance(chain, dict):
            problems.append({"state": i, "reason": "no chain: not a signed or sealed state"})
            continue
        by_step.setdefault(chain["step"], []).append(i)
        digests.setdefault(chain["step"], set()).add(link(state))
    if len(games) > 1:
        problems.append({"state": None, "reason": "states of more than one game"})
    forks = []
    for step, indexes in sorted(by_step.items()):
        distinct = {link(states[i]) for i in indexes}
        if len(distinct) > 1:
            forks.append({"step": step, "states": indexes})
        before = digests.get(step - 1)
        for i in indexes:
            prev = states[i][FIELD]["prev"]
            if step == 0 and prev is not None:
                problems.append({"state": i, "reason": "step 0 names a predecessor"})
            elif step > 0 and before is not None and prev not in before:
                problems.append({"state": i, "reason": f"does not follow any state at step "
                                                       f"{step - 1}"})
    return {"valid": not forks and not problems, "game": next(iter(games), None),
            "steps": sorted(by_step), "forks": forks, "breaks": problems}
