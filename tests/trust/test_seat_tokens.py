"""A player who holds a sealed state calls the service to read another seat's cards.

The attack (issue 22, item 4): on a sealed state, ``POST /view`` with
``player: 1`` returned player 1's hand to anyone, and the ``events`` of a plain
``apply`` showed the other players' draws (Raiders 12 of 59 steps, Tremble 11
of 59).  Sealing hid the state from its holder, not from whoever could call
the service with it.

The answer: ``new`` and ``replay`` of a sealed game hand the host one seat
token per seat (``seat_tokens``, ``service.seats``).  On a sealed state a
request speaks for the seats its ``Referee-Seat-Token`` header proves: none (a
spectator), one (a player: its own view, its own legal actions, ``check`` and
``apply`` of its own actions, ``apply``'s events as it may see them) or all
(the host).  Anything else is 403 ``seat-token-required``, decided from the
request alone.  The property test below plays 700 steps per game (a quarter of them in
``make test``: ``REFEREE_TEST_SIZE``, tests/size.py) and shows
that a caller with no token, or another seat's, learns no hidden card —
through answers, events or errors — and that a seat learns from the sealed
state exactly what it learns from its own view.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from service import sealing
from service.games import registry
from service.games.chance import CHANCE
from tests.size import sized
from tests.trust.conftest import call

KEY = "seat-token-test-key"
KEYS = sealing.parse_keys(KEY)
HEADER = "Referee-Seat-Token"
#: steps of the property, per game
STEPS = sized(700)


def _opened(state: dict[Any, Any]) -> dict[Any, Any]:
    inner = sealing.open_sealed(state, KEYS)
    inner.pop("chain", None)
    return inner


def _strings(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set(value).union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def _shown(answer: dict[Any, Any]) -> set[str]:
    """Every string an answer shows its caller, but the ciphertext of a returned state."""
    if isinstance(answer.get("state"), dict):
        answer = {**answer, "state": {k: v for k, v in answer["state"].items() if k != "sealed"}}
    return _strings(answer)


# --------------------------------------------------------- the attack, for real
@pytest.fixture(scope="module")
def server(serve):
    return serve("sealed", SEALING_KEYS=KEY, SERVER_SEEDS="1")


@pytest.fixture(scope="module")
def game(server):
    r = call(server, "/v1/games/raiders/new",
             {"players": [{"name": "Ann"}, {"name": "Bob"}], "options": {"turn_limit": 3}})
    assert r.status == 200 and len(r.json["seat_tokens"]) == 2
    return r.json["state"], r.json["seat_tokens"]


def test_a_seats_view_needs_that_seats_token(server, game):
    state, tokens = game
    hand = _opened(state)["players"][1]["hand"]
    for headers in ([], [(HEADER, tokens[0])]):
        r = call(server, "/v1/games/raiders/view", {"state": state, "player": 1}, headers)
        assert r.status == 403 and r.type == "/problems/seat-token-required", r.json
        assert not _shown(r.json) & set(hand)
    r = call(server, "/v1/games/raiders/view", {"state": state, "player": 1},
             [(HEADER, tokens[1])])
    assert r.status == 200 and r.json["view"]["players"][1]["hand"] == hand
    r = call(server, "/v1/games/raiders/view", {"state": state, "player": None})
    assert r.status == 200 and r.json["view"]["players"][1]["hand"] == {"count": len(hand)}


def test_legal_actions_answer_only_the_token_holders_own(server, game):
    state, tokens = game
    r = call(server, "/v1/games/raiders/legal-actions", {"state": state})
    assert r.status == 403 and r.type == "/problems/seat-token-required"
    r = call(server, "/v1/games/raiders/legal-actions", {"state": state},
             [(HEADER, tokens[1])])
    assert r.status == 200 and r.json["actions"] == []  # seat 0 decides; seat 1 sees nothing
    r = call(server, "/v1/games/raiders/legal-actions", {"state": state, "player": 0},
             [(HEADER, tokens[1])])
    assert r.status == 403
    r = call(server, "/v1/games/raiders/legal-actions", {"state": state},
             [(HEADER, ", ".join(tokens))])  # the host
    assert r.status == 200 and r.json["actions"]


def test_a_seat_cannot_act_for_another(server, game):
    state, tokens = game
    action = call(server, "/v1/games/raiders/legal-actions", {"state": state},
                  [(HEADER, tokens[0])]).json["actions"][0]
    for headers in ([], [(HEADER, tokens[1])]):
        for verb in ("apply", "check"):
            r = call(server, f"/v1/games/raiders/{verb}", {"state": state, "action": action},
                     headers)
            assert r.status == 403 and r.type == "/problems/seat-token-required"
    r = call(server, "/v1/games/raiders/apply", {"state": state, "action": action},
             [(HEADER, tokens[0])])
    assert r.status == 200 and "sealed" in r.json["state"]


def test_a_forged_or_foreign_token_is_refused(server, game):
    state, tokens = game
    other = call(server, "/v1/games/raiders/new", {"players": 2}).json["seat_tokens"]
    forged = tokens[1][:-2] + ("AA" if not tokens[1].endswith("AA") else "BB")
    renumbered = tokens[0].replace("seat:0:", "seat:1:")
    for token in (forged, other[1], renumbered, "seat:1", "hmac:1:2:3"):
        r = call(server, "/v1/games/raiders/view", {"state": state, "player": 1},
                 [(HEADER, token)])
        assert r.status == 403 and r.type == "/problems/bad-seat-token", token
        assert list(r.json["errors"]) == [f"headers.{HEADER}"]


def test_apply_events_show_a_seat_only_its_own_draws(server):
    """The step count of issue 22: events that name a card the caller may not see."""
    r = call(server, "/v1/games/tremble/new", {"players": 2})
    state, tokens, rng = r.json["state"], r.json["seat_tokens"], random.Random(4)
    game, leaked, steps = registry.get_game("tremble"), 0, 0
    while steps < 59 and not state.get("result"):
        seat = state["pending"][0]["player"]
        headers = [(HEADER, tokens[seat])]
        actions = call(server, "/v1/games/tremble/legal-actions", {"state": state},
                       headers).json["actions"]
        before = _opened(state)
        r = call(server, "/v1/games/tremble/apply",
                 {"state": state, "action": rng.choice(actions)}, headers)
        assert r.status == 200, r.json
        after = _opened(r.json["state"])
        hidden = game.secret_cards(before, seat) | game.secret_cards(after, seat)
        leaked += bool(_strings(r.json["events"]) & hidden)
        state, steps = r.json["state"], steps + 1
    assert steps >= 30 and leaked == 0


# ------------------------------------------------ the property, over many steps
@pytest.mark.parametrize("game_id", registry.GAME_IDS)
def test_no_token_or_another_seats_token_learns_no_hidden_card(make_client, game_id):
    """Random games of each game (2 and 3 players where the game takes them, server chance),
    every step asked by the seat that moves and by a caller drawn from the spectator and
    the seats: ``view`` of every seat,
    ``legal-actions``, ``check`` of a pending seat's action and of a bent copy of it,
    ``apply`` of the move the game goes on with, ``score``.  No answer — 200 or problem —
    shows a caller a card hidden from it; and what a seat is answered from the sealed
    state equals what it is answered from its own view (``{view}``: ``state_from_view``),
    for its legal actions and every ``check``."""
    from tests.shared.bending import bend

    client, game = make_client(SEALING_KEYS=KEY), registry.get_game(game_id)
    base = f"/v1/games/{game_id}"
    steps = 0
    for seed in range(40):
        if steps >= STEPS:
            break
        players = game.min_players + seed % 2 if game.max_players > game.min_players \
            else game.min_players
        rng = random.Random(seed)
        r = client.post(f"{base}/new", json={"players": players, "seed": 1000 + seed})
        state, tokens = r.json["state"], r.json["seat_tokens"]
        for _ in range(60):
            truth = _opened(state)
            pending = [p["player"] for p in truth["pending"] if p["player"] != CHANCE]
            if not pending:
                break
            actor = rng.choice(pending)
            legal = game.legal_actions(truth, actor)
            move = rng.choice(legal)
            guess = bend(move, rng, sorted(_strings(truth))[:200] + [0, 1, None])
            after, _ = game.apply(truth, move)
            for who in (rng.choice([None, *range(players)]), actor):
                headers = {HEADER: tokens[who]} if who is not None else {}
                hidden = game.secret_cards(truth, who)
                asked = [client.post(f"{base}/view", json={"state": state, "player": p},
                                     headers=headers) for p in [None, *range(players)]]
                asked += [client.post(f"{base}/legal-actions", json={"state": state},
                                      headers=headers),
                          client.post(f"{base}/score", json={"state": state}, headers=headers)]
                for action in (move, guess):
                    asked.append(client.post(f"{base}/check",
                                             json={"state": state, "action": action},
                                             headers=headers))
                for r in asked:
                    assert r.status_code in (200, 400, 403, 422), r.json
                    shown = _shown(r.json)
                    assert not shown & hidden, (game_id, seed, who, r.request.path,
                                                shown & hidden)
                applied = client.post(f"{base}/apply", json={"state": state, "action": move},
                                      headers=headers)
                assert applied.status_code == (200 if who == actor else 403), applied.json
                # what is still hidden after the step (a card it revealed may be shown)
                leak = _shown(applied.json) & game.secret_cards(after, who)
                assert not leak, (game_id, seed, who, leak)
                if who is not None:
                    _same_as_from_the_view(client, base, state, who, (move, guess), headers)
            state = client.post(f"{base}/apply", json={"state": state, "action": move},
                                headers={HEADER: tokens[actor]}).json["state"]
            steps += 1
    assert steps >= STEPS


def _same_as_from_the_view(client, base: str, state: dict[Any, Any], seat: int, actions,
                           headers: dict[Any, Any]) -> None:
    view = client.post(f"{base}/view", json={"state": state, "player": seat},
                       headers=headers).json["view"]
    sealed = client.post(f"{base}/legal-actions", json={"state": state}, headers=headers)
    own = client.post(f"{base}/legal-actions", json={"view": view})
    assert sealed.status_code == own.status_code == 200
    key = sorted  # actions as a set (order is the game's)
    assert key(map(repr, sealed.json["actions"])) == key(map(repr, own.json["actions"]))
    for action in actions:
        a = client.post(f"{base}/check", json={"state": state, "action": action}, headers=headers)
        b = client.post(f"{base}/check", json={"view": view, "action": action})
        if a.status_code == 403:  # another seat's action: refused before it is read
            continue
        assert (a.status_code, _verdict(a.json)) == (b.status_code, _verdict(b.json)), action


def _verdict(answer: dict[Any, Any]) -> dict[Any, Any]:
    return {k: answer.get(k) for k in ("legal", "rule", "reason", "type", "errors")}


def test_suggestions_evaluations_and_table_outcomes_ask_the_right_seat(make_client):
    """``suggest`` (route and evaluation) for a seat needs that seat's token; an evaluation
    that reads every hand (playouts) and chance outcomes at the table are the host's."""
    client = make_client(SEALING_KEYS=KEY)
    r = client.post("/v1/games/raiders/new", json={"players": 2, "seed": 5})
    state, tokens = r.json["state"], r.json["seat_tokens"]
    ask = {"state": state, "params": {"player": 0, "iterations": 8, "seed": 1}}
    for token, status in ((None, 403), (tokens[1], 403), (tokens[0], 200)):
        headers = {HEADER: token} if token else {}
        r = client.post("/v1/games/raiders/suggest", json=ask, headers=headers)
        assert r.status_code == status, r.json
        r = client.post("/v1/evaluations", json={"game": "raiders", "kind": "suggest", **ask},
                        headers=headers)
        assert r.status_code == (202 if status == 200 else 403), r.json
    playouts = {"game": "raiders", "kind": "playouts", "state": state,
                "params": {"playouts": 4, "seed": 1}}
    for token in (None, tokens[0]):
        r = client.post("/v1/evaluations", json=playouts,
                        headers={HEADER: token} if token else {})
        assert r.status_code == 403 and r.json["type"] == "/problems/seat-token-required"
    r = client.post("/v1/evaluations", json=playouts, headers={HEADER: ",".join(tokens)})
    assert r.status_code == 202, r.json
    table = client.post("/v1/games/raiders/new", json={"players": 2, "seed": 5,
                                                       "options": {"chance": "table"}}).json
    outcome = {k: v for k, v in client.post(
        "/v1/games/raiders/legal-actions", json={"state": table["state"]},
        headers={HEADER: ",".join(table["seat_tokens"])}).json["actions"][0].items()
        if k != "probability"}
    body = {"state": table["state"], "outcomes": [outcome]}
    r = client.post("/v1/games/raiders/apply-chance", json=body,
                    headers={HEADER: table["seat_tokens"][0]})
    assert r.status_code == 403
    r = client.post("/v1/games/raiders/apply-chance", json=body,
                    headers={HEADER: ",".join(table["seat_tokens"])})
    assert r.status_code == 200 and "sealed" in r.json["state"]
