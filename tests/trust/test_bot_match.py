"""Two bots play a sealed game with no host: each holds only sealed states and its token.

The point of seat tokens (issue 22, item 4): a full game of each game between two
bot processes (``tests/trust/sealed_bot.py``) against the Procfile's gunicorn with
sealing keys and server seeds.  The relay between them is this test, which holds
no token: it passes each sealed state, as it came, to the bot whose seat the
state's public ``pending`` names, and asks ``score`` (which needs no token) whether
the game is over.  Each bot asks the service only with its own token.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.trust.conftest import call

BOT = Path(__file__).with_name("sealed_bot.py")
OPTIONS = {"raiders": {"turn_limit": 4}, "kozyablo": {"turn_limit": 6}, "tremble": {}}
#: what a seat's setup needs besides its name (a Kozyablo player picks a race, KOZ-1)
SEAT = {"kozyablo": [{"race": "kozly"}, {"race": "zhloby"}]}
#: hand-offs between the bots before the test gives up
MAX_HANDOFFS = 3000


@pytest.fixture(scope="module")
def server(serve):
    return serve("bots", SEALING_KEYS="bot-match-key", SERVER_SEEDS="1")


@pytest.mark.parametrize("game_id", sorted(OPTIONS))
def test_two_bot_processes_finish_a_sealed_game(server, game_id):
    r = call(server, f"/v1/games/{game_id}/new",
             {"players": [{"name": name, **extra} for name, extra in
                          zip(("North", "South"), SEAT.get(game_id, [{}, {}]), strict=True)],
              "options": OPTIONS[game_id]})
    assert r.status == 200, r.json
    state, tokens = r.json["state"], r.json["seat_tokens"]
    bots = [subprocess.Popen(
        [sys.executable, str(BOT), "--url", server, "--game", game_id, "--seat", str(seat),
         "--seed", str(seat)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "REFEREE_SEAT_TOKEN": tokens[seat]}) for seat in (0, 1)]
    try:
        for handoff in range(MAX_HANDOFFS):
            outcome = call(server, f"/v1/games/{game_id}/score", {"state": state})
            assert outcome.status == 200, outcome.json
            if outcome.json["finished"]:
                break
            assert "sealed" in state  # all the relay ever holds
            seat = state["pending"][0]["player"]
            bot = bots[seat]
            bot.stdin.write(json.dumps(state) + "\n")
            bot.stdin.flush()
            line = bot.stdout.readline()
            assert line, f"the bot of seat {seat} stopped (exit {bot.poll()})"
            state = json.loads(line)
        else:
            pytest.fail(f"no end after {MAX_HANDOFFS} hand-offs")
    finally:
        for bot in bots:
            assert bot.stdin is not None  # opened as a pipe
            bot.stdin.close()
            bot.wait(timeout=30)
    assert handoff > 2 and outcome.json["winners"]
    assert all(bot.returncode == 0 for bot in bots)
