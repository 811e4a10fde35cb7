"""``POST /v1/games/{game}/batch`` and previews (issue 38): every item is its single call.

The property: over random games of every game, in both chance modes, with plain, signed
and sealed states, a batch of the questions a bot asks about a state (``legal-actions``
with and without ``preview``, ``check`` of listed and of illegal actions, ``apply`` of
several candidates, ``score``, ``view``) answers each item with exactly the status and
body its single call answers, with the same headers (the same ``X-Request-Id``, so even
``instance`` agrees).  And every preview is what ``apply`` then emits, up to its stop:
the acting seat's ``events_for_player`` start with the preview's events (all of them
when it does not stop), the score change is the outcome's, and a stop at chance is where
the next step is a chance node.

Then the edges: the caps (400 naming ``items``), an unknown ``op``, a shared state that
is refused (each item refused as its single call), ``Referee-Require-Signed``, two
different applies to one sealed step (the second 409 ``step-spent``), the NDJSON stream,
the language of ``check``'s reason, an older-rules state's ``rules_upgrade`` note.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import orjson
import pytest

from service.app import create_app
from service.limits import MAX_BATCH_ITEMS, MAX_BATCH_PREVIEWS
from tests.compat.test_old_rules import fixture_states
from tests.http.conftest import Api
from tests.size import sized

GAMES = ("raiders", "tremble", "kozyablo")
MODES = ("plain", "signed", "sealed")
KEYS = {"signed": {"STATE_KEYS": "batch-sign-key"}, "sealed": {"SEALING_KEYS": "batch-seal-key"}}
#: every single call and its batch carry this id: ``instance`` is the same in both
RID = "batch-test-0001"
STEPS = sized(12, least=4)


class Unchecked(Api):
    """The test client as it is: the document types no sealed state (its public part is
    a view), so its answers are compared with the single calls, not with the document."""

    def open(self, method: str, path: str, **kwargs: Any) -> Any:
        return self.client.open(path, method=method, **kwargs)


def make_api(mode: str, tmp_path: Any) -> Api:
    """Plain and signed answers are checked against the document too (``Api``)."""
    app = create_app({"TESTING": True, "ACCESS_LOG": "0", **KEYS.get(mode, {}),
                      "STEP_REGISTER": str(tmp_path / "steps.sqlite3")})
    return Unchecked(app) if mode == "sealed" else Api(app)


def post(api: Api, path: str, body: dict[str, Any], headers: dict[str, str]) -> tuple[int, Any]:
    r = api.post(path, data=orjson.dumps(body), content_type="application/json",
                 headers={"X-Request-Id": RID, **headers})
    return r.status_code, orjson.loads(r.get_data())


def single(api: Api, game: str, item: dict[str, Any], shared: dict[str, Any],
           headers: dict[str, str]) -> tuple[int, Any]:
    """The single call an item stands for."""
    body = {k: v for k, v in item.items() if k not in ("op", "id")}
    if "state" not in body and "view" not in body:
        body.update(shared)
    return post(api, f"/v1/games/{game}/{item['op']}", body, headers)


def questions(state: dict[str, Any], listed: list[dict[str, Any]], seats: int,
              rng: random.Random) -> list[dict[str, Any]]:
    """What a bot asks about ``state``: listings, checks, candidate applies, score, views."""
    acting = [a for a in listed if a.get("player") != "chance"] or listed
    candidates = rng.sample(acting, min(3, len(acting)))
    out: list[dict[str, Any]] = [{"id": "all", "op": "legal-actions"},
                                 {"id": "preview", "op": "legal-actions", "preview": True}]
    for n, action in enumerate(candidates):
        out.append({"id": f"check-{n}", "op": "check", "action": action})
    wrong = {**candidates[0], "player": (candidates[0].get("player", 0) + 1) % seats} \
        if isinstance(candidates[0].get("player"), int) else {"type": "no_such_type"}
    out += [{"id": "check-wrong", "op": "check", "action": wrong},
            {"op": "check", "action": {"type": "no_such_type", "player": 0}},
            {"op": "apply", "action": wrong}]
    out += [{"id": f"apply-{n}", "op": "apply", "action": a} for n, a in enumerate(candidates)]
    out += [{"op": "score"}, {"op": "view", "player": 0}, {"op": "view", "player": None},
            {"op": "view", "player": seats}]  # no such seat: 422 in both
    return out


def previews_match(api: Api, game: str, state: dict[str, Any], listing: dict[str, Any],
                   headers: dict[str, str]) -> None:
    """Each preview is what ``apply`` (for the acting seat) emits, up to its stop."""
    before = {s["player"]: s["total"] for s in post(api, f"/v1/games/{game}/score",
                                                    {"state": state}, headers)[1]["scores"]}
    for action, preview in zip(listing["actions"], listing["previews"], strict=True):
        seat = action["player"]
        body: dict[str, Any] = {"state": state, "action": action}
        if isinstance(seat, int):
            body["for_player"] = seat
        status, applied = post(api, f"/v1/games/{game}/apply", body, headers)
        assert status == 200, applied
        emitted = applied["events_for_player"] if isinstance(seat, int) else applied["events"]
        stop = preview["stop"]
        if stop is not None and stop["at"] == "secret":
            assert preview["events"] == [] and preview["score_change"] is None
            continue
        shown = preview["events"]
        assert emitted[:len(shown)] == shown, (action, shown, emitted)
        if stop is None:
            assert emitted == shown
            after = {s["player"]: s["total"] for s in applied["outcome"]["scores"]}
            assert preview["score_change"] == [after[p] - before[p] for p in sorted(before)]
            continue
        assert stop["at"] == "chance"
        if state["chance"]["mode"] == "table":  # apply stops there too: the same events
            assert emitted == shown and applied["state"]["pending"][0]["player"] == "chance"
            assert stop["outcomes"] == post(api, f"/v1/games/{game}/legal-actions", {
                "state": applied["state"], "player": "chance"}, headers)[1]["actions"]
        else:  # the server resolves the node: a chance event comes next
            assert emitted[len(shown)]["type"] == "chance", (shown, emitted)


@pytest.mark.parametrize("chance", ["server", "table"])
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("game", GAMES)
def test_every_item_is_its_single_call(game, mode, chance, tmp_path):
    api = make_api(mode, tmp_path)
    seed = GAMES.index(game) * 10 + MODES.index(mode) * 2 + (chance == "table")
    rng = random.Random(seed)
    status, made = post(api, f"/v1/games/{game}/new",
                        {"players": 2, "seed": seed, "options": {"chance": chance}}, {})
    assert status == 200, made
    state = made["state"]
    headers = {"Referee-Seat-Token": ", ".join(made["seat_tokens"])} if mode == "sealed" else {}
    compared, stops = 0, Counter[str]()
    for _ in range(STEPS):
        if state["pending"] == []:
            break
        status, listing = post(api, f"/v1/games/{game}/legal-actions", {"state": state}, headers)
        assert status == 200, listing
        items = questions(state, listing["actions"], 2, rng)
        status, answered = post(api, f"/v1/games/{game}/batch",
                                {"state": state, "items": items}, headers)
        assert status == 200, answered
        assert len(answered["items"]) == len(items)
        for item, got in zip(items, answered["items"], strict=True):
            assert got.get("id") == item.get("id")
            assert (got["status"], got["body"]) == single(api, game, item, {"state": state},
                                                          headers), item
            compared += 1
        preview = next(got["body"] for got in answered["items"] if got.get("id") == "preview")
        if mode == "plain":  # applying each action spends a sealed (or spent-signed) step
            previews_match(api, game, state, preview, headers)
        stops.update((p["stop"] or {"at": "none"})["at"] for p in preview["previews"])
        # play on: the first action the batch applied (a sealed step is spent by it; the
        # "wrong" seat's may be legal where both decide at once)
        state = next(got["body"]["state"] for got in answered["items"]
                     if got["status"] == 200 and "events" in got["body"])
    assert compared >= 2 * 12 and sum(stops.values()) > 0, (compared, stops)


@pytest.fixture
def raiders(tmp_path):
    api = make_api("plain", tmp_path)
    status, made = post(api, "/v1/games/raiders/new", {"players": 2, "seed": 5}, {})
    assert status == 200
    return api, made["state"]


def test_the_caps_are_400s_naming_items(raiders):
    api, state = raiders
    too_many = [{"op": "score"}] * (MAX_BATCH_ITEMS + 1)
    status, body = post(api, "/v1/games/raiders/batch", {"state": state, "items": too_many}, {})
    assert status == 400 and list(body["errors"]) == ["items"], body
    previews = [{"op": "legal-actions", "preview": True}] * (MAX_BATCH_PREVIEWS + 1)
    status, body = post(api, "/v1/games/raiders/batch", {"state": state, "items": previews}, {})
    assert status == 400 and "MAX_BATCH_PREVIEWS" in body["errors"]["items"][0], body
    status, body = post(api, "/v1/games/raiders/batch",
                        {"state": state, "items": previews[:MAX_BATCH_PREVIEWS]}, {})
    assert status == 200 and all(i["status"] == 200 for i in body["items"])


@pytest.mark.parametrize("item, field", [({"op": "new"}, "items.0.op"),
                                         ({"op": "suggest"}, "items.0.op"),
                                         ({"action": {}}, "items.0.op"),
                                         ({"op": "score", "id": [1]}, "items.0.id")])
def test_a_malformed_item_envelope_is_a_400_naming_it(raiders, item, field):
    api, state = raiders
    status, body = post(api, "/v1/games/raiders/batch", {"state": state, "items": [item]}, {})
    assert status == 400 and field in body["errors"], body


def test_a_refused_shared_state_refuses_each_item_as_alone(raiders):
    api, state = raiders
    bad = {**state, "turn": -1}
    items = [{"op": "score"}, {"op": "check", "action": {"type": "end_turn", "player": 0}},
             {"op": "legal-actions"}, {"op": "score", "state": state}]
    status, body = post(api, "/v1/games/raiders/batch", {"state": bad, "items": items}, {})
    assert status == 200
    for item, got in zip(items, body["items"], strict=True):
        assert (got["status"], got["body"]) == single(api, "raiders", item, {"state": bad}, {})
    assert [i["status"] for i in body["items"]] == [400, 400, 400, 200]


def test_require_signed_applies_to_every_item(tmp_path):
    api = make_api("signed", tmp_path)
    headers = {"Referee-Require-Signed": "true"}
    _, made = post(api, "/v1/games/raiders/new", {"players": 2, "seed": 3}, {})
    signed = made["state"]
    plain = {k: v for k, v in signed.items() if k not in ("signature", "chain")}
    items = [{"op": "score"}, {"op": "score", "state": plain}, {"op": "view", "player": 0}]
    status, body = post(api, "/v1/games/raiders/batch", {"state": signed, "items": items}, headers)
    assert [i["status"] for i in body["items"]] == [200, 400, 200]
    assert body["items"][1]["body"]["type"] == "/problems/unsigned-state"
    for item, got in zip(items, body["items"], strict=True):
        assert (got["status"], got["body"]) == single(api, "raiders", item, {"state": signed},
                                                      headers)


def test_a_sealed_step_answers_one_action_per_batch(tmp_path):
    api = make_api("sealed", tmp_path)
    _, made = post(api, "/v1/games/raiders/new", {"players": 2, "seed": 4}, {})
    state, host = made["state"], {"Referee-Seat-Token": ", ".join(made["seat_tokens"])}
    _, listing = post(api, "/v1/games/raiders/legal-actions", {"state": state}, host)
    first, second = listing["actions"][:2]
    items = [{"op": "apply", "action": first}, {"op": "apply", "action": second},
             {"op": "apply", "action": first}]
    _, body = post(api, "/v1/games/raiders/batch", {"state": state, "items": items}, host)
    assert [i["status"] for i in body["items"]] == [200, 409, 200]
    assert body["items"][1]["body"]["type"] == "/problems/step-spent"
    assert body["items"][2]["body"] == body["items"][0]["body"]  # the same answer again
    seat = {"Referee-Seat-Token": made["seat_tokens"][1]}  # seat 1 asks for seat 0's hand
    _, body = post(api, "/v1/games/raiders/batch",
                   {"state": state, "items": [{"op": "view", "player": 0},
                                              {"op": "view", "player": 1}]}, seat)
    assert [i["status"] for i in body["items"]] == [403, 200]
    assert body["items"][0]["body"]["type"] == "/problems/seat-token-required"


def test_ndjson_streams_one_line_per_item(raiders):
    api, state = raiders
    items = [{"id": n, "op": op} for n, op in enumerate(["score", "legal-actions", "score"])]
    body = orjson.dumps({"state": state, "items": items})
    whole = api.client.post("/v1/games/raiders/batch", data=body, content_type="application/json",
                            headers={"X-Request-Id": RID})
    streamed = api.client.post("/v1/games/raiders/batch", data=body,
                               content_type="application/json",
                               headers={"X-Request-Id": RID, "Accept": "application/x-ndjson"})
    assert streamed.status_code == 200 and streamed.mimetype == "application/x-ndjson"
    lines = streamed.get_data().splitlines()
    assert [orjson.loads(line) for line in lines] == whole.json["items"]


def test_check_reasons_and_problems_in_the_request_language(raiders):
    api, state = raiders
    ru = {"Accept-Language": "ru"}
    items = [{"op": "check", "action": {"type": "end_turn", "player": 1}},
             {"op": "apply", "action": {"type": "end_turn", "player": 1}}]
    status, body = post(api, "/v1/games/raiders/batch", {"state": state, "items": items}, ru)
    for item, got in zip(items, body["items"], strict=True):
        assert (got["status"], got["body"]) == single(api, "raiders", item, {"state": state}, ru)
    english = post(api, "/v1/games/raiders/batch", {"state": state, "items": items}, {})[1]
    assert body["items"][0]["body"]["reason"] != english["items"][0]["body"]["reason"]


@pytest.mark.parametrize("game", GAMES)
def test_an_older_rules_state_says_it_was_upgraded_per_item(game, tmp_path):
    api = make_api("plain", tmp_path)
    older = next(s for _, s in fixture_states(game) if s["result"] is None and s["pending"])
    items = [{"op": "score"}, {"op": "legal-actions"}, {"op": "view", "player": 0}]
    status, body = post(api, f"/v1/games/{game}/batch", {"state": older, "items": items}, {})
    assert status == 200
    for item, got in zip(items, body["items"], strict=True):
        alone = single(api, game, item, {"state": older}, {})
        assert (got["status"], got["body"]) == alone
        assert got["status"] != 200 or "rules_upgrade" in got["body"], json.dumps(got)[:300]


def test_previews_meet_every_kind_of_stop():
    """The property above compares stopped previews too: on random games a preview meets
    chance nodes in every game (a draw, a roll), and in Tremble the simultaneous orders
    that reveal another seat's ships (``secret``)."""
    from service.games.registry import get_game
    from service.previews import previews

    for game_id in GAMES:
        game = get_game(game_id)
        met: Counter[str] = Counter()
        for seed, chance in enumerate(("table", "server")):
            rng = random.Random(seed)
            state, _ = game.new_game(2, {"chance": chance}, seed, "reference")
            for _ in range(300):
                listed = game.legal_actions(state, None)
                if not listed:
                    break
                met.update((p["stop"] or {"at": "none"})["at"]
                           for p in previews(game, state, listed, "host"))
                state, _ = game.apply(state, rng.choice(listed))
        assert met["chance"] > 0 and met["none"] > 0, (game_id, met)
        assert game_id != "tremble" or met["secret"] > 0, met
