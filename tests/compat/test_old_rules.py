"""States of the previous rules version of each game play on (issue 23, part 4).

The fixtures (``tests/compat/fixtures/<game>/<rules_version>.json``) are states and
games written by the engines of the previous rules version, made from the git history
by ``python -m tests.compat.make_fixtures <commit>``.  Each state is carried over by
the declared migration (``Game.rules_history``'s ``upgrade``), is a valid state of
today's rules, and plays on to the end; over HTTP the answer says it was upgraded and
which clauses changed.  A state in the middle of a changed clause is refused with
``rules-changed`` naming it, never a bare ``incompatible-state``.

The first test is the gate of a rules bump: the version a game played before this one
must be served (a declared migration) and have its fixtures, so a ``rules_version``
bump that lands without them fails here.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from service.games import registry
from service.games.errors import IncompatibleState, RulesChanged
from service.games.versions import NotUpgradable
from tests.compat.make_fixtures import FIXTURES, fixture_name

GAMES = ("raiders", "kozyablo", "tremble")
PLAY_ON = 600  # random legal actions at most after the upgrade (every fixture game ends sooner)


def fixture(game_id: str, rules_version: str) -> dict[Any, Any]:
    path = FIXTURES / game_id / fixture_name(rules_version)
    assert path.exists(), (f"no fixtures of {rules_version}: python -m tests.compat.make_fixtures "
                           f"<the last commit that played it>")
    return json.loads(path.read_text(encoding="utf-8"))


def previous(game_id: str):
    history = registry.get_game(game_id).rules_versions
    assert len(history) >= 2, f"{game_id} declares no earlier rules version"
    return history[-2], history[-1]


def fixture_states(game_id: str) -> list[tuple[str, dict[Any, Any]]]:
    older, _ = previous(game_id)
    found = fixture(game_id, older.id)
    return [(f"{game_id}-{n}-{entry['step']}", entry["state"])
            for n, one in enumerate(found["games"]) for entry in one["states"]]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_previous_rules_version_is_served_with_fixtures(game_id):
    game = registry.get_game(game_id)
    older, newer = previous(game_id)
    assert newer.upgrade is not None, f"{newer.id} declares no migration from {older.id}"
    assert older.id in game.served_versions
    found = fixture(game_id, older.id)
    assert found["rules_version"] == older.id and found["game"] == game_id
    states = [entry["state"] for one in found["games"] for entry in one["states"]]
    assert len(states) >= 10 and all(s["rules_version"] == older.id for s in states)
    assert any(s["result"] is None for s in states) and any(s["result"] for s in states)


STATES = [case for game_id in GAMES for case in fixture_states(game_id)]


@pytest.mark.parametrize("name, old", STATES, ids=[name for name, _ in STATES])
def test_a_state_of_the_previous_version_is_upgraded_and_plays_on(name, old):
    game = registry.get_game(old["game"])
    before = copy.deepcopy(old)
    state, note = game.upgrade_state(old)
    assert old == before, "the migration changed its input"
    assert note == {"from": old["rules_version"], "to": game.rules_version,
                    "clauses": game.rules_versions[-1].clauses}
    assert state["rules_version"] == game.rules_version
    game.validate_state(state)
    rng = random.Random(name)
    for _ in range(PLAY_ON):
        if game.score(state)["finished"]:
            break
        entry = game.pending(state)[0]
        state, _ = game.apply(state, rng.choice(game.legal_actions(state, entry["player"])))
    assert game.score(state)["finished"], f"{name} did not end in {PLAY_ON} actions"


@pytest.mark.parametrize("game_id", GAMES)
def test_the_answer_says_it_was_upgraded_and_what_changed(client, game_id):
    game = registry.get_game(game_id)
    name, old = next((n, s) for n, s in fixture_states(game_id) if s["result"] is None
                     and s["phase"] not in ("setup", "mulligan"))
    listed = client.post(f"/v1/games/{game_id}/legal-actions", json={"state": old})
    assert listed.status_code == 200, listed.get_json()
    upgrade = listed.get_json()["rules_upgrade"]
    assert upgrade["from"] == old["rules_version"] and upgrade["to"] == game.rules_version
    assert upgrade["clauses"] == game.rules_versions[-1].clauses
    assert [c["clause"] for c in upgrade["changes"]] == [
        c.clause for c in game.rules_versions[-1].changes]
    assert listed.headers["Referee-Rules-Upgraded"].startswith(
        f"{old['rules_version']} -> {game.rules_version}; clauses=")
    name = game_id.capitalize()
    assert conforms(f"{name}LegalActionsResponse", listed.get_json())
    action = listed.get_json()["actions"][0]
    applied = client.post(f"/v1/games/{game_id}/apply", json={"state": old, "action": action},
                          headers={"Accept-Language": "ru"})
    assert applied.status_code == 200, applied.get_json()
    assert applied.get_json()["state"]["rules_version"] == game.rules_version
    assert conforms(f"{name}ApplyResponse", applied.get_json())
    changes = applied.get_json()["rules_upgrade"]["changes"]
    assert changes[0]["summary"] == game.rules_versions[-1].changes[0].ru
    # the new state is today's: no upgrade to report
    again = client.post(f"/v1/games/{game_id}/score", json={"state": applied.get_json()["state"]})
    assert again.status_code == 200 and "rules_upgrade" not in again.get_json()
    assert "Referee-Rules-Upgraded" not in again.headers


def conforms(component: str, body: dict[Any, Any]) -> bool:
    """``body`` fits ``openapi.yaml``'s component (the answer's ``rules_upgrade`` is documented)."""
    import schemathesis_hooks
    from tests import document

    doc = _DOC.get("doc")
    if doc is None:
        doc = _DOC["doc"] = document.load()
    assert "rules_upgrade" in doc["components"]["schemas"][component]["properties"], component
    return schemathesis_hooks.fits_typed_schema(doc, component, body)


_DOC: dict[Any, Any] = {}


def test_get_game_lists_which_versions_are_served(client):
    listed = {v["id"]: v for v in client.get("/v1/games/kozyablo").get_json()["rules_versions"]}
    assert listed["kozyablo/5"]["current"] and listed["kozyablo/4"]["served"]
    assert listed["kozyablo/3"]["served"] and listed["kozyablo/2"]["served"]  # step by step
    assert not listed["kozyablo/1"]["served"]  # kozyablo/2 declares no migration from it
    assert [c["clause"] for c in listed["kozyablo/2"]["changes"]] == ["KOZ-45"]


def _raiders_1_capture(fixture_states_of_raiders) -> dict[Any, Any]:
    return next(s for _, s in fixture_states_of_raiders if s["capture"] is not None)


def test_a_state_inside_a_changed_clause_is_refused_naming_it(client):
    old = copy.deepcopy(_raiders_1_capture(fixture_states("raiders")))
    capture = old["capture"]
    holdings = old["players"][capture["attacker"]]["holdings"]
    holdings[capture["property"]] = None  # the attacker came to control it (RAI-17a)
    with pytest.raises(RulesChanged) as refused:
        registry.get_game("raiders").upgrade_state(old)
    assert refused.value.clauses == ["RAI-17a"]
    answer = client.post("/v1/games/raiders/legal-actions", json={"state": old})
    assert answer.status_code == 400
    problem = answer.get_json()
    assert problem["type"] == "/problems/rules-changed"
    assert problem["changed_clauses"] == ["RAI-17a"]
    assert problem["from_version"] == "raiders/1" and problem["to_version"] == "raiders/2"
    assert [c["clause"] for c in problem["changes"]] == ["RAI-17a"]
    assert "RAI-17a" in problem["errors"]["state.rules_version"][0]


def test_a_version_not_served_is_refused_naming_every_changed_clause(client):
    game = registry.get_game("kozyablo")
    name, old = fixture_states("kozyablo")[5]
    older = {**old, "rules_version": "kozyablo/1"}
    answer = client.post("/v1/games/kozyablo/score", json={"state": older})
    assert answer.status_code == 400
    problem = answer.get_json()
    assert problem["type"] == "/problems/rules-changed"
    expected = list(dict.fromkeys(c.clause for v in game.rules_versions[1:] for c in v.changes
                                  if c.clause))
    assert problem["changed_clauses"] == expected
    assert "KOZ-45" in problem["detail"]
    # an id that was never declared is still what it was: another game's or a made-up version
    unknown = client.post("/v1/games/kozyablo/score",
                          json={"state": {**old, "rules_version": "kozyablo/99"}})
    assert unknown.get_json()["type"] == "/problems/incompatible-state"
    with pytest.raises(IncompatibleState):
        game.validate_state({**old, "rules_version": "kozyablo/99"})


@pytest.mark.parametrize("game_id, breaks", [
    ("raiders", lambda s: s.update(result={"finished": True}) if s["capture"] else None),
    ("tremble", lambda s: [side["ships"].extend(["X1", "X2"]) for a in s["attacks"]
                           for side in a["sides"][:1]]),
])
def test_every_declared_refusal_names_a_clause_of_its_step(game_id, breaks):
    game = registry.get_game(game_id)
    step = game.rules_versions[-1]
    refused = 0
    for _, old in fixture_states(game_id):
        broken = copy.deepcopy(old)
        breaks(broken)
        try:
            step.upgrade(broken)  # type: ignore[misc]
        except NotUpgradable as exc:
            assert set(exc.clauses) <= set(step.clauses), exc.clauses
            refused += 1
    assert refused, f"no {game_id} fixture state was made to break a changed clause"


def test_the_fixtures_are_what_the_old_engines_wrote():
    for path in sorted(Path(FIXTURES).glob("*/*.json")):
        found = json.loads(path.read_text(encoding="utf-8"))
        assert path.name == fixture_name(found["rules_version"])
        assert found["made_by"].startswith("python -m tests.compat.make_fixtures ")
        for one in found["games"]:
            assert one["states"][0]["step"] == 0
            assert one["states"][-1]["step"] == len(one["actions"])


# ------------------------------------------------------------------------- replays
REPLAYS = [(game_id, n) for game_id in GAMES
           for n in range(len(fixture(game_id, previous(game_id)[0].id)["games"]))]


@pytest.mark.parametrize("game_id, n", REPLAYS, ids=[f"{g}-{n}" for g, n in REPLAYS])
def test_a_replay_of_the_previous_version_ends_as_it_did_or_is_refused_naming_a_clause(
        client, game_id, n):
    game = registry.get_game(game_id)
    older, newer = previous(game_id)
    recorded = fixture(game_id, older.id)["games"][n]
    answer = client.post(f"/v1/games/{game_id}/replay", json={
        "setup": recorded["setup"], "actions": recorded["actions"], "rules_version": older.id})
    ended = recorded["states"][-1]["state"]["result"]
    if answer.status_code == 200:
        body = answer.get_json()
        assert body["outcome"]["finished"] and body["outcome"]["winners"] == ended["winners"]
        assert body["state"]["rules_version"] == game.rules_version
        assert body["rules_upgrade"]["from"] == older.id
        assert answer.headers["Referee-Rules-Upgraded"].startswith(f"{older.id} -> ")
    else:  # a replay the step's rules cannot reproduce: named, never a bare refusal
        problem = answer.get_json()
        assert answer.status_code == 400 and problem["type"] == "/problems/rules-changed", problem
        assert problem["changed_clauses"] and set(problem["changed_clauses"]) <= set(newer.clauses)
        assert recorded["setup"]["options"].get("chance", "server") == "server"


def test_the_fixtures_hold_a_table_game_where_the_action_forms_changed():
    """The action migrations (Kozyablo ``reveal.card``, Tremble ``draw_ship`` designs) are
    exercised only by ``chance: table`` games, whose chance outcomes are actions."""
    for game_id in GAMES:
        older, _ = previous(game_id)
        table = [g for g in fixture(game_id, older.id)["games"]
                 if g["setup"]["options"].get("chance") == "table"]
        if game_id != "raiders":
            assert table, f"no chance: table game among the {older.id} fixtures"


def test_an_old_action_form_is_refused_without_the_version_and_carried_over_with_it(client):
    """``reveal.card`` is the form of ``kozyablo/2``: carried over by every step since."""
    older = "kozyablo/2"
    recorded = next(g for g in fixture("kozyablo", older)["games"]
                    if any(a["type"] == "reveal" for a in g["actions"]))
    body = {"setup": recorded["setup"], "actions": recorded["actions"]}
    as_today = client.post("/v1/games/kozyablo/replay", json=body)
    assert as_today.status_code == 400
    first = next(i for i, a in enumerate(recorded["actions"]) if a["type"] == "reveal")
    assert f"actions.{first}.card" in as_today.get_json()["errors"]
    carried = client.post("/v1/games/kozyablo/replay", json={**body, "rules_version": older})
    assert carried.status_code == 200, carried.get_json()
    assert carried.get_json()["rules_upgrade"]["from"] == older


def test_a_replay_of_a_version_not_served_or_unknown_is_refused_naming_why(client):
    body = {"setup": {"players": 2, "seed": 3}, "actions": []}
    not_served = client.post("/v1/games/kozyablo/replay", json={**body, "rules_version": "kozyablo/1"})
    assert not_served.status_code == 400
    assert not_served.get_json()["type"] == "/problems/rules-changed"
    assert "KOZ-45" in not_served.get_json()["changed_clauses"]
    unknown = client.post("/v1/games/kozyablo/replay", json={**body, "rules_version": "kozyablo/0"})
    assert unknown.get_json()["type"] == "/problems/incompatible-state"
    assert "rules_version" in unknown.get_json()["errors"]
    today = client.post("/v1/games/kozyablo/replay", json={**body, "rules_version": "kozyablo/5"})
    assert today.status_code == 200 and "rules_upgrade" not in today.get_json()


@pytest.mark.parametrize("game_id", GAMES)
def test_an_evaluation_of_a_state_of_the_previous_version_is_taken(client, game_id):
    _, old = next((n, s) for n, s in fixture_states(game_id) if s["result"] is None
                  and s["phase"] not in ("setup", "mulligan"))
    taken = client.post("/v1/evaluations", json={
        "game": game_id, "kind": "playouts", "state": old,
        "params": {"playouts": 2, "bots": "random", "seed": 1}})
    assert taken.status_code == 202, taken.get_json()
    not_served = client.post("/v1/evaluations", json={
        "game": game_id, "kind": "playouts", "state": {**old, "rules_version": "nope/0"},
        "params": {"playouts": 2, "bots": "random", "seed": 1}})
    assert not_served.status_code == 400


def test_a_signed_state_of_the_previous_version_is_verified_upgraded_and_signed_anew():
    from service import signing
    from service.app import create_app

    key = "k1-0123456789abcdef0123456789abcdef"
    app = create_app({"TESTING": True, "STATE_KEYS": key})
    _, old = next((n, s) for n, s in fixture_states("raiders") if s["result"] is None)
    with app.app_context():
        signed = signing.signed(old, signing.parse_keys(key))
    client, strict = app.test_client(), {"Referee-Require-Signed": "true"}
    listed = client.post("/v1/games/raiders/legal-actions", json={"state": signed}, headers=strict)
    assert listed.status_code == 200 and listed.get_json()["rules_upgrade"]["from"] == "raiders/1"
    applied = client.post("/v1/games/raiders/apply", headers=strict, json={
        "state": signed, "action": listed.get_json()["actions"][0]})
    assert applied.status_code == 200, applied.get_json()
    state = applied.get_json()["state"]
    assert state["rules_version"] == "raiders/2" and signing.FIELD in state
    assert client.post("/v1/games/raiders/score", json={"state": state}, headers=strict).status_code == 200
    forged = {**signed, "turn": signed["turn"] + 1}
    assert client.post("/v1/games/raiders/score", json={"state": forged}, headers=strict).status_code == 403


def test_a_view_of_the_previous_version_is_refused_naming_the_changed_clauses(client):
    game = registry.get_game("raiders")
    _, old = next((n, s) for n, s in fixture_states("raiders") if s["result"] is None)
    upgraded, _ = game.upgrade_state(old)
    view = {**game.view(upgraded, upgraded["pending"][0]["player"]), "rules_version": "raiders/1"}
    answer = client.post("/v1/games/raiders/legal-actions", json={"view": view})
    assert answer.status_code == 400, answer.get_json()
    problem = answer.get_json()
    assert problem["type"] == "/problems/rules-changed"
    assert problem["changed_clauses"] == game.rules_versions[-1].clauses
    assert "view.rules_version" in problem["errors"]
