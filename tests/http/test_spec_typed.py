"""The typed per-game operations of ``openapi.yaml``: precise enough to generate a
client from and to fuzz (issue 13).

Each game has its own ``/v1/games/<game>/<verb>`` with its own state, action
(``oneOf`` with a discriminator on ``type``), event, options and score types;
player counts, seats and option rules per count are in the schemas; every
operation has an ``operationId``, tags, a summary and real examples.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

GAMES = ("raiders", "tremble", "kozyablo")
VERBS = ("new", "legal-actions", "apply", "check", "score", "view", "replay")


@pytest.fixture(scope="module")
def doc():
    from service.openapi import spec_dict

    return spec_dict()


def schema_ok(doc: dict[Any, Any], name: str, value) -> bool:
    """``value`` validates against ``#/components/schemas/<name>``."""
    registry = Registry().with_resource(
        "urn:openapi", Resource.from_contents(doc, default_specification=DRAFT202012))
    validator = Draft202012Validator({"$ref": f"urn:openapi#/components/schemas/{name}"},
                                     registry=registry)
    return validator.is_valid(value)


def body_types(media: dict[Any, Any]) -> list[str]:
    """The component names a request body may be: one, or a state and a view form."""
    schema = media["schema"]
    return [r["$ref"].rsplit("/", 1)[1] for r in ([schema] if "$ref" in schema
                                                   else schema["oneOf"])]


def _operations(doc):
    for path, ops in doc["paths"].items():
        for method, op in ops.items():
            yield method, path, op


def test_every_operation_has_a_unique_operation_id_tags_and_a_one_line_summary(doc):
    ids = [op["operationId"] for _, _, op in _operations(doc)]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    for method, path, op in _operations(doc):
        assert op["tags"] and op["summary"] and "\n" not in op["summary"], (method, path)
    assert {"raiders_apply", "tremble_new", "kozyablo_legal_actions", "game_apply"} <= set(ids)


def test_typed_operations_lead_and_use_the_games_own_types(doc):
    paths = list(doc["paths"])
    assert paths.index("/v1/games/raiders/apply") < paths.index("/v1/games/{game}/apply")
    for game in GAMES:
        name = game.capitalize()
        for verb in VERBS:
            op = doc["paths"][f"/v1/games/{game}/{verb}"]["post"]
            assert op["tags"] == [game]
            for ref in body_types(op["requestBody"]["content"]["application/json"]):
                assert ref.startswith(name), (game, verb, ref)
        apply_ = doc["components"]["schemas"][f"{name}ApplyRequest"]["properties"]
        assert apply_["state"]["$ref"] == f"#/components/schemas/{name}State"
        assert apply_["action"]["$ref"] == f"#/components/schemas/{name}Action"


def test_every_request_and_json_answer_has_an_example_that_matches_its_schema(doc):
    """"Try it out" on /docs sends the request example: it must be schema-valid."""
    for method, path, op in _operations(doc):
        media = op.get("requestBody", {}).get("content", {}).get("application/json")
        if media is not None:
            assert "example" in media, (method, path)
            assert any(schema_ok(doc, name, media["example"]) for name in body_types(media)), \
                (method, path)
        answer = op["responses"].get("200", {}).get("content", {}).get("application/json")
        if answer is not None and path.startswith("/v1/games/") and "{" not in path \
                and "$ref" in answer["schema"]:
            assert "example" in answer, (method, path)
            assert schema_ok(doc, answer["schema"]["$ref"].rsplit("/", 1)[1],
                             answer["example"]), (method, path)


@pytest.mark.parametrize("game", GAMES)
def test_the_typed_examples_are_accepted_by_the_server(real_api, game):
    """Each typed operation's example request, sent as is, is answered 200 (a seeded
    mid-game state, so legal-actions/apply/view… show a real decision)."""
    doc = real_api.spec
    for verb in VERBS:
        op = doc["paths"][f"/v1/games/{game}/{verb}"]["post"]
        example = op["requestBody"]["content"]["application/json"]["example"]
        r = real_api.post(f"/v1/games/{game}/{verb}", json=example)
        assert r.status_code == 200, (verb, r.json)
    apply_ = doc["paths"][f"/v1/games/{game}/apply"]["post"]
    assert apply_["requestBody"]["content"]["application/json"]["example"]["state"]["turn"] >= 1


def test_examples_are_deterministic():
    from service.games import registry
    from service.openapi import game_examples

    game = registry.get_game("tremble")
    assert game_examples(game) == game_examples(game)


def test_action_is_a_discriminated_oneof_so_a_table_mode_reveal_keeps_its_seat(doc):
    """The issue's case: a Kozyablo table-mode ``reveal`` is a KozyabloRevealAction
    (``seat`` kept), not a Raiders one."""
    action = doc["components"]["schemas"]["KozyabloAction"]
    assert action["discriminator"]["propertyName"] == "type"
    assert action["discriminator"]["mapping"]["reveal"] == \
        "#/components/schemas/KozyabloRevealAction"
    reveal = {"type": "reveal", "player": "chance", "seat": 0, "face": "tr_swarm"}
    assert schema_ok(doc, "KozyabloAction", reveal)
    assert schema_ok(doc, "KozyabloRevealAction", reveal)
    assert not schema_ok(doc, "RaidersAction", reveal)


def test_event_types_are_open_for_forward_compatibility(doc):
    """A later version may add an event type or an optional field: today's schema
    still accepts the answer (see docs/api.md, Client compatibility policy)."""
    for game in GAMES:
        name = game.capitalize()
        assert schema_ok(doc, f"{name}Event", {"type": "comet_struck", "player": 0,
                                                "brand_new_field": {"x": 1}})
        assert not schema_ok(doc, f"{name}Event", {"player": 0})  # still needs a type
    example = doc["paths"]["/v1/games/raiders/apply"]["post"]["responses"]["200"]
    answer = copy.deepcopy(example["content"]["application/json"]["example"])
    answer["events"].append({"type": "added_in_a_later_version", "rule": "RAI-99"})
    assert schema_ok(doc, "RaidersApplyResponse", answer)
    answer["added_later"] = {"any": "thing"}          # answers may grow optional fields
    answer["outcome"]["tiebreak"] = "added later"
    assert schema_ok(doc, "RaidersApplyResponse", answer)


@pytest.mark.parametrize("game, players, valid", [
    ("tremble", 1, False), ("tremble", 2, True), ("tremble", 5, True), ("tremble", 6, False),
    ("raiders", 1, False), ("raiders", 6, True), ("kozyablo", 4, True), ("kozyablo", 5, False)])
def test_player_counts_are_per_game(doc, game, players, valid):
    """The issue's case: a Tremble ``new`` with ``players: 1`` is outside the schema."""
    assert schema_ok(doc, f"{game.capitalize()}NewRequest", {"players": players}) is valid


@pytest.mark.parametrize("body, valid", [
    ({"players": 4, "options": {"teams": True}}, True),
    ({"players": 3, "options": {"teams": True}}, False),              # RAI-8: 4 players
    ({"players": 2, "options": {"short_game": True}}, False),         # RAI-7: 3 or more
    ({"players": 4, "options": {"short_game": True, "teams": True}}, False),  # RAI-8
    ({"players": 4, "options": {"short_game": True}}, True),
    ({"players": 4, "options": None}, True),                          # null: the defaults
    ({"players": 3, "options": {"first_player": 2}}, True),
    ({"players": 3, "options": {"first_player": 3}}, False),          # RAI-5a: a seat
    ({"players": 6, "options": {"double_deck": False}}, False),       # RAI-9: the setup's rule
    ({"players": 6, "options": {"double_deck": True}}, True),
    ({"players": 3, "for_player": 3}, False),
    ({"players": [{"name": "A"}, {"name": "B"}], "for_player": 1}, True),
])
def test_raiders_options_rules_per_player_count_are_in_the_schema(doc, body, valid):
    """RAI-7, RAI-8, RAI-5a, RAI-9 as the engine checks them: read from each option's
    check and from the game's own setup."""
    assert schema_ok(doc, "RaidersNewRequest", body) is valid


def test_the_schema_agrees_with_the_server_on_options(real_api):
    doc = real_api.spec
    for body in ({"players": 3, "options": {"teams": True}},
                 {"players": 4, "options": {"short_game": True, "teams": True}}):
        assert not schema_ok(doc, "RaidersNewRequest", body)
        assert real_api.post("/v1/games/raiders/new", json=body).status_code == 400
    assert real_api.post("/v1/games/raiders/new",
                         json={"players": 4, "options": {"teams": True}}).status_code == 200


def test_kozyablo_player_setup_takes_a_deck_or_a_race_not_both(doc):
    """KOZ-1: a deck, or a reference race."""
    deck = {"capital": "kz_capital", "sectors": [], "cards": []}
    assert schema_ok(doc, "KozyabloPlayerSetup", {"race": "kozly"})
    assert schema_ok(doc, "KozyabloPlayerSetup", {"deck": deck})
    assert not schema_ok(doc, "KozyabloPlayerSetup", {"race": "kozly", "deck": deck})


def test_odds_take_strengths_or_fleets_never_both(doc):
    assert schema_ok(doc, "OddsRequest", {"strengths": [16, 17]})
    assert schema_ok(doc, "OddsRequest", {"fleets": [["S-START"]], "city": "C-MOSCOW"})
    assert not schema_ok(doc, "OddsRequest", {"fleets": [["S-NOPE"]], "city": "C-MOSCOW"})
    assert not schema_ok(doc, "OddsRequest", {"strengths": [16], "fleets": [["S-START"]],
                                              "city": "C-MOSCOW"})


def test_cards_filters_are_documented_per_game(doc, real_api):
    """Every filter of the typed ``/cards`` is a parameter; an unknown key → 400, as documented."""
    params = {p["name"] for p in doc["paths"]["/v1/games/raiders/cards"]["get"]["parameters"]
              if p["in"] == "query"}
    assert {"set", "q"} <= params and len(params) > 2
    generic = {p.get("name") for p in doc["paths"]["/v1/games/{game}/cards"]["get"]["parameters"]}
    assert "filters" not in generic
    field = sorted(params - {"set", "q"})[0]
    assert real_api.get(f"/v1/games/raiders/cards?{field}=x").status_code == 200
    assert real_api.get("/v1/games/raiders/cards?no_such_field=x").status_code == 400


def test_score_breakdown_is_typed_per_game(doc):
    raiders = doc["components"]["schemas"]["RaidersPlayerScore"]["properties"]["breakdown"]
    tremble = doc["components"]["schemas"]["TremblePlayerScore"]["properties"]["breakdown"]
    assert raiders["type"] == "array" and "items" in raiders
    assert tremble["type"] == "object" and "people" in tremble["properties"]
