"""A bot that plays one seat of a sealed game with no host (docs/trust.md, "Bot matches").

It holds only the sealed states it is passed and its own seat token; it asks the
service only with that token.  Standard library only, so it can be copied::

    REFEREE_SEAT_TOKEN=seat:1:… python sealed_bot.py --url http://127.0.0.1:8000 \\
        --game raiders --seat 1 --seed 7 < states-in > states-out

Protocol: one sealed state per line on stdin; while the state waits for this
seat (its public ``pending``), the bot asks ``legal-actions`` for its own
actions, picks one at random (``--seed``) and ``apply``-s it; then it writes
the state it got to stdout, one line, and waits for the next.  EOF ends it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import urllib.request
from typing import Any


def post(url: str, path: str, body: dict[Any, Any], token: str) -> dict[Any, Any]:
    request = urllib.request.Request(
        url + path, data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "Referee-Seat-Token": token})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def waits_for(state: dict[Any, Any], seat: int) -> bool:
    return any(entry["player"] == seat for entry in state["pending"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--game", required=True)
    parser.add_argument("--seat", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    token, rng = os.environ["REFEREE_SEAT_TOKEN"], random.Random(args.seed)
    base = f"/v1/games/{args.game}"
    for line in sys.stdin:
        state = json.loads(line)
        while waits_for(state, args.seat):
            actions = post(args.url, f"{base}/legal-actions", {"state": state}, token)["actions"]
            answer = post(args.url, f"{base}/apply",
                          {"state": state, "action": rng.choice(actions)}, token)
            state = answer["state"]
        print(json.dumps(state), flush=True)


if __name__ == "__main__":
    main()
