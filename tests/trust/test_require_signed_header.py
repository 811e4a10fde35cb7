"""Attack: slip a forged, unsigned state past ``Referee-Require-Signed`` (issue 22, item 3).

**What the cheater tries.**  A scorekeeper's tool asks the referee to score a
finished game with ``Referee-Require-Signed: true``, so that only a state the
referee signed counts.  The cheater edits the final state (moves the other
player's holdings to their own seat), drops ``signature`` and ``chain``, and
gets the header through in a shape that reads as "not required": ``y``,
``2``, ``true, true``, or a second header ``false`` beside the tool's
``true`` (a WSGI server joins repeated headers with a comma).  Before: the
header was "required" only when its value was one of ``1/true/yes/on``, and
anything else meant "not required", so every one of those requests scored
the forged state (200).

**What happens now.**  The header is ``true`` or ``false`` (ASCII case
ignored, spaces around ignored), sent once.  Anything else, a repeated
header included, is a 400 ``malformed-request`` whose ``errors`` name
``headers.Referee-Require-Signed`` (in the request's language): the forged
state is never scored.  ``false`` never lowers ``REFEREE_REQUIRE_SIGNED=1``,
and a server started with a switch that is neither on nor off
(``REFEREE_REQUIRE_SIGNED=y``) does not start at all, instead of running open.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench import servers
from service.app import create_app
from tests.size import sized
from tests.tournaments.played import played_game

from .conftest import PROBLEM_MIME, call

HEADER = "Referee-Require-Signed"
FIELD = "headers." + HEADER
SCORE = "/v1/games/raiders/score"
#: what the cheater sends instead of the tool's `true` (a list: the header sent several times)
SMUGGLED = [[(HEADER, "y")], [(HEADER, "2")], [(HEADER, "yes")], [(HEADER, "1")],
            [(HEADER, "on")], [(HEADER, "true, true")], [(HEADER, "true;q=0")],
            [(HEADER, "")], [(HEADER, "tru")], [(HEADER, "false"), (HEADER, "true")],
            [(HEADER, "true"), (HEADER, "true")], [(HEADER, "true"), (HEADER, "false")]]


def signed_final_state(url: str) -> dict[Any, Any]:
    """A finished two-player Raiders game, replayed by the server: its signed final state."""
    game = played_game(1)
    r = call(url, "/v1/games/raiders/replay", {"setup": game["setup"], "actions": game["actions"]})
    assert r.status == 200, r.json
    return r.json["state"]


def forged(state: dict[Any, Any]) -> dict[Any, Any]:
    """The cheater's edit: seat 1's holdings moved to seat 0, signature and chain dropped."""
    out = {k: v for k, v in state.items() if k not in ("signature", "chain")}
    first, second = out["players"]
    out["players"] = [{**first, "holdings": second["holdings"]}, {**second, "holdings": {}}]
    return out


@pytest.fixture(scope="module")
def server(serve):
    """A real gunicorn that signs states and does not require them server-wide."""
    url = serve("signing", STATE_KEYS="key-2026")
    state = signed_final_state(url)
    return url, state, forged(state)


@pytest.fixture(scope="module")
def strict_server(serve):
    """A real gunicorn that requires signed states on every request."""
    return serve("strict", STATE_KEYS="key-2026", REQUIRE_SIGNED="1")


def test_the_forgery_is_a_valid_state_that_scores_when_nothing_asks_for_a_signature(server):
    """The premise: without the header the edited state is scored (it is a real state,
    only not the one the game ended with): what the header exists to stop."""
    url, state, fake = server
    honest, cheat = call(url, SCORE, {"state": state}), call(url, SCORE, {"state": fake})
    assert honest.status == cheat.status == 200
    assert [s["total"] for s in cheat.json["scores"]] == \
        [s["total"] for s in honest.json["scores"]][::-1] != [0, 0]


def test_the_header_true_refuses_the_forgery_and_accepts_the_real_state(server):
    url, state, fake = server
    for value in ("true", "TRUE", " True\t"):
        refused = call(url, SCORE, {"state": fake}, [(HEADER, value)])
        assert refused.status == 400 and refused.type == "/problems/unsigned-state", value
        assert call(url, SCORE, {"state": state}, [(HEADER, value)]).status == 200


@pytest.mark.parametrize("headers", SMUGGLED, ids=lambda h: " + ".join(v for _, v in h) or "empty")
def test_a_smuggled_header_is_a_400_naming_it_never_a_score(server, headers):
    url, state, fake = server
    r = call(url, SCORE, {"state": fake}, headers)
    assert r.status == 400 and r.headers["content-type"] == PROBLEM_MIME, r.json
    assert r.type == "/problems/malformed-request" and list(r.json["errors"]) == [FIELD]
    assert "scores" not in r.json
    # the same header with the real signed state: refused too (the request is unclear)
    assert call(url, SCORE, {"state": state}, headers).status == 400


def test_the_refusal_is_in_the_request_language(server):
    url, _, fake = server
    r = call(url, SCORE, {"state": fake}, [(HEADER, "y"), ("Accept-Language", "ru")])
    assert r.status == 400 and r.headers["content-language"] == "ru"
    assert "должно быть" in r.json["errors"][FIELD][0] and "'y'" in r.json["errors"][FIELD][0]


def test_false_never_lowers_the_servers_requirement(server, strict_server):
    _, state, fake = server
    for headers in ([], [(HEADER, "false")], [(HEADER, " FALSE ")]):
        r = call(strict_server, SCORE, {"state": fake}, headers)
        assert r.status == 400 and r.type == "/problems/unsigned-state", headers
    # the strict server holds the same key: the real state passes, with or without `false`
    assert call(strict_server, SCORE, {"state": state}, [(HEADER, "false")]).status == 200
    r = call(strict_server, SCORE, {"state": fake}, [(HEADER, "nope")])
    assert r.status == 400 and list(r.json["errors"]) == [FIELD]


def test_a_server_whose_switch_is_neither_on_nor_off_does_not_start(tmp_path):
    """``REFEREE_REQUIRE_SIGNED=y`` once read as "off": a server that the operator
    meant to be strict ran open.  Now gunicorn's worker refuses to boot, naming it."""
    log, value = tmp_path / "gunicorn.log", "y"
    with pytest.raises(RuntimeError, match="gunicorn exited"):
        with servers.gunicorn(servers.SERVICE_APP, log, {
                "REFEREE_STATE_KEYS": "key-2026", "REFEREE_REQUIRE_SIGNED": value}):
            pass
    assert f"REFEREE_REQUIRE_SIGNED={value!r}" in log.read_text(errors="replace")


# ------------------------------------------------------------------ in process
@pytest.fixture(scope="module")
def apps():
    """(open app's client, strict app's client, a signed state, the forged state)."""
    open_client = create_app({"TESTING": True, "ACCESS_LOG": False,
                              "STATE_KEYS": "key-2026"}).test_client()
    strict = create_app({"TESTING": True, "ACCESS_LOG": False, "STATE_KEYS": "key-2026",
                         "REQUIRE_SIGNED": True}).test_client()
    game = played_game(1)
    state = open_client.post("/v1/games/raiders/replay", json={
        "setup": game["setup"], "actions": game["actions"]}).json["state"]
    return open_client, strict, state, forged(state)


def spelled(word: str):
    """``word`` in any ASCII case, with spaces and tabs around."""
    pad = st.text(alphabet=" \t", max_size=3)
    letters = st.tuples(*[st.sampled_from([c.lower(), c.upper()]) for c in word]).map("".join)
    return st.tuples(pad, letters, pad).map("".join)


#: header values: the two words in any case, and anything printable in ISO-8859-1
VALUES = st.one_of(spelled("true"), spelled("false"),
                   st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF,
                                         blacklist_categories=("Cc",)), max_size=12),
                   st.sampled_from(["1", "0", "yes", "no", "on", "off", "y", "n", "2", "-1",
                                    "truE ", "true,", ",true", "true false", "t", "f",
                                    "\u00a0true", "true\u00a0"]))


def expected(values: list[str], strict: bool) -> str:
    """The answer to the forged state: ``malformed`` (400 naming the header),
    ``unsigned`` (400 unsigned-state) or ``scored`` (200)."""
    if len(values) > 1 or any(v.strip(" \t").lower() not in ("true", "false") for v in values):
        return "malformed"
    if strict or (values and values[0].strip(" \t").lower() == "true"):
        return "unsigned"
    return "scored"


@settings(max_examples=sized(300, least=20), deadline=None, suppress_health_check=list(HealthCheck))
@given(values=st.lists(VALUES, max_size=3), strict=st.booleans())
def test_only_an_exact_true_or_false_sent_once_is_read(apps, values, strict):
    """Property: for any header values (none, one or several), the forged state is
    scored only when no signature is asked for (header absent or ``false``, server not
    strict); a value that is not exactly ``true``/``false``, or a repeated header, is
    always a 400 naming the header — never a score."""
    open_client, strict_client, _, fake = apps
    client = strict_client if strict else open_client
    r = client.post(SCORE, json={"state": fake}, headers=[(HEADER, v) for v in values])
    want = expected(values, strict)
    if want == "malformed":
        assert r.status_code == 400 and r.json["type"] == "/problems/malformed-request", \
            (values, r.json)
        assert list(r.json["errors"]) == [FIELD]
    elif want == "unsigned":
        assert r.status_code == 400 and r.json["type"] == "/problems/unsigned-state", (values, r.json)
    else:
        assert r.status_code == 200 and "scores" in r.json, (values, r.json)


@pytest.mark.parametrize("route, body", [
    ("/v1/games/raiders/legal-actions", {}), ("/v1/games/raiders/view", {"player": 0}),
    ("/v1/games/raiders/score", {}),
])
def test_every_route_that_takes_a_state_parses_the_header_alike(apps, route, body):
    open_client, _, state, fake = apps
    for s in (state, fake):
        r = open_client.post(route, json={"state": s, **body}, headers={HEADER: "yes"})
        assert r.status_code == 400 and list(r.json["errors"]) == [FIELD], route
    assert open_client.post(route, json={"state": state, **body},
                            headers={HEADER: "true"}).status_code == 200


@pytest.mark.parametrize("setting", ["REQUIRE_SIGNED", "SERVER_SEEDS", "ACCESS_LOG"])
@pytest.mark.parametrize("value", ["y", "2", "enabled", "tru"])
def test_a_switch_that_is_neither_on_nor_off_stops_the_app(setting, value):
    with pytest.raises(ValueError, match=f"REFEREE_{setting}"):
        create_app({"TESTING": True, "STATE_KEYS": "k", setting: value})


@pytest.mark.parametrize("value, on", [("1", True), ("TRUE", True), (" yes ", True), ("On", True),
                                       ("0", False), ("false", False), ("No", False),
                                       ("off", False), (True, True), (False, False)])
def test_the_switch_spellings_that_exist_still_work(value, on):
    app = create_app({"TESTING": True, "STATE_KEYS": "k", "REQUIRE_SIGNED": value})
    assert app.config["REQUIRE_SIGNED"] is on
