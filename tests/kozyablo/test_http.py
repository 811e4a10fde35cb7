"""Kozyablo over HTTP: deck validation, setup errors, and KOZ-28 replayed event by event."""

from __future__ import annotations

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from service.games.objects import ActionObject, Event, JsonObject

BASE = "/v1/games/kozyablo"


def post(client: FlaskClient, path: str, body: JsonObject) -> TestResponse:
    return client.post(BASE + path, json=body)


def test_deck_validation_returns_every_violation_at_once(client):
    deck = {"capital": "kz_capital", "sectors": ["gold_mine", "gold_mine", "energy_source"],
            "cards": ["kz_scout"] * 4 + ["zh_brute"] + ["kz_hero", "zh_hero"]}
    r = post(client, "/decks/validate", {"deck": deck})
    assert r.status_code == 200
    body = r.get_json()
    assert body["valid"] is False and body["race"] == "kozly" and body["card_count"] == 7
    assert [(v["rule"], v["cards"]) for v in body["violations"]] == [
        ("KOZ-1", []), ("KOZ-2", ["kz_scout"]), ("KOZ-3", ["kz_hero", "zh_hero"]),
        ("KOZ-4", ["zh_brute", "zh_hero"]),
        ("KOZ-5", ["gold_mine", "gold_mine", "energy_source"])]
    mixed = dict(deck, capital="zh_mercenary_camp",
                 sectors=["gold_mine", "crystal_mine", "energy_source"],
                 cards=["kz_scout"] * 3 + ["zh_brute"] * 3 + ["tr_grub"] * 3 + ["pz_archer"] * 3
                 + ["kz_hero", "zh_hero", "pz_spark"])
    assert post(client, "/decks/validate", {"deck": mixed}).get_json()["valid"] is True


def test_deck_validation_bad_requests(client):
    r = post(client, "/decks/validate", {"deck": {"capital": "kz_capital"}})
    assert r.status_code == 400 and r.mimetype == "application/problem+json"
    assert "deck.sectors" in r.get_json()["errors"]
    r = post(client, "/decks/validate", {"deck": {"capital": "x", "sectors": [], "cards": []},
                                         "card_set": "nope"})
    assert r.status_code == 404


def test_new_with_an_invalid_deck_is_422_listing_all_violations(client):
    bad = {"capital": "pz_capital", "sectors": ["gold_mine"], "cards": ["pz_archer"] * 4}
    r = post(client, "/new", {"players": [{"deck": bad}, {"race": "kozly"}], "seed": 1})
    assert r.status_code == 422
    rules = [v["rule"] for v in r.get_json()["violations"]]
    assert rules == ["KOZ-1", "KOZ-2", "KOZ-5"]


class Table:
    """A table-chance game driven only through the HTTP API."""

    def __init__(self, client: FlaskClient, players: list[JsonObject]) -> None:
        self.client = client
        r = post(client, "/new", {"players": players, "options": {"chance": "table"},
                                  "seed": 28})
        assert r.status_code == 200, r.get_json()
        self.state: JsonObject = r.get_json()["state"]

    def legal(self, player: int | str | None = None) -> JsonObject:
        body = {"state": self.state} if player is None else {"state": self.state,
                                                              "player": player}
        r = post(self.client, "/legal-actions", body)
        assert r.status_code == 200, r.get_json()
        listed: JsonObject = r.get_json()
        return listed

    def apply(self, action: ActionObject) -> list[Event]:
        r = post(self.client, "/apply", {"state": self.state, "action": action})
        assert r.status_code == 200, r.get_json()
        body = r.get_json()
        self.state = body["state"]
        return [e for e in body["events"]]

    def reveal(self, seat: int, card: str) -> list[Event]:
        return self.apply({"type": "reveal", "player": "chance", "seat": seat, "face": card})


def test_koz_28_replayed_through_http_event_by_event(client):
    """KOZ-28: Archer + Swordsman (pozorki, attacking) vs Bumblebee + Wild Gilen."""
    t = Table(client, [{"race": "pozorki"}, {"race": "trutni"}])
    assert t.state["order"] == [0, 1]  # KOZ-10: pozorki first
    for card in ("pz_archer", "pz_swordsman", "pz_spark", "pz_spark", "pz_rumor", "pz_haste"):
        t.reveal(0, card)
    for card in ("tr_bumblebee", "tr_wild_gilen", "tr_grub", "tr_grub", "tr_swarm", "tr_wings"):
        t.reveal(1, card)
    t.apply({"type": "keep", "player": 0})
    t.apply({"type": "keep", "player": 1})
    script = [
        {"type": "play_card", "player": 0, "card": "0.pz_archer", "sector": "0.gold_mine"},
        {"type": "play_card", "player": 1, "card": "1.tr_bumblebee", "sector": "1.gold_mine"},
        {"type": "play_card", "player": 0, "card": "0.pz_swordsman", "sector": "0.gold_mine"},
        {"type": "play_card", "player": 1, "card": "1.tr_wild_gilen", "sector": "1.gold_mine"},
        {"type": "skip", "player": 0},
        {"type": "move", "player": 1, "from": "1.gold_mine", "to": "0.gold_mine",
         "units": ["1.tr_bumblebee", "1.tr_wild_gilen"]},
    ]
    for action in script:
        assert action in t.legal()["actions"]
        t.apply(action)
    assert t.state["turn"] == 7 and t.state["active"] == 0
    assert t.state["sectors"]["0.gold_mine"]["controller"] is None  # shared: neutral

    events = t.apply({"type": "attack", "player": 0, "sector": "0.gold_mine"})
    assert events == [{"type": "combat_started", "sector": "0.gold_mine", "attacker": 0,
                       "fighters": ["0.pz_archer", "0.pz_swordsman", "1.tr_bumblebee",
                                    "1.tr_wild_gilen"]}]
    # Bumblebee (speed 6) strikes first; its controller picks the target
    legal = t.legal()
    assert legal["pending"] == [{"player": 1, "decision": "strike"}]
    assert [a.get("targets") for a in legal["actions"]] == [["0.pz_archer"], ["0.pz_swordsman"],
                                                            None]  # or hold (KOZ-25a)
    events = t.apply({"type": "strike", "player": 1, "unit": "1.tr_bumblebee",
                      "targets": ["0.pz_archer"]})
    assert events == [
        {"type": "strike", "unit": "1.tr_bumblebee", "targets": ["0.pz_archer"]},
        {"type": "damage", "target": "0.pz_archer", "amount": 1, "source": "1.tr_bumblebee"},
        {"type": "died", "card": "0.pz_archer"}]
    # the Swordsman next: it may not strike the flying Bumblebee
    legal = t.legal()
    assert legal["pending"] == [{"player": 0, "decision": "strike"}]
    assert legal["actions"] == [{"type": "strike", "player": 0, "unit": "0.pz_swordsman",
                                 "targets": ["1.tr_wild_gilen"]},
                                {"type": "hold", "player": 0, "unit": "0.pz_swordsman"}]
    r = post(client, "/check", {"state": t.state, "action": {
        "type": "strike", "player": 0, "unit": "0.pz_swordsman", "targets": ["1.tr_bumblebee"]}})
    assert r.get_json() == {"legal": False, "rule": "KOZ-30", "reason": r.get_json()["reason"]}
    for next_up in (0, 1):  # Two attacks: 2 damage twice, then the Gilen's turn to strike
        events = t.apply({"type": "strike", "player": 0, "unit": "0.pz_swordsman",
                          "targets": ["1.tr_wild_gilen"]})
        assert events == [
            {"type": "strike", "unit": "0.pz_swordsman", "targets": ["1.tr_wild_gilen"]},
            {"type": "damage", "target": "1.tr_wild_gilen", "amount": 2,
             "source": "0.pz_swordsman"}]
        assert t.state["pending"] == [{"player": next_up, "decision": "strike"}]
    assert t.state["units"]["1.tr_wild_gilen"]["damage"] == 4  # one life left (of 5)
    # the Gilen strikes the Swordsman for 2 and kills him; the combat ends, the turn passes
    events = t.apply({"type": "strike", "player": 1, "unit": "1.tr_wild_gilen",
                      "targets": ["0.pz_swordsman"]})
    assert events == [
        {"type": "strike", "unit": "1.tr_wild_gilen", "targets": ["0.pz_swordsman"]},
        {"type": "damage", "target": "0.pz_swordsman", "amount": 2, "source": "1.tr_wild_gilen"},
        {"type": "died", "card": "0.pz_swordsman"},
        {"type": "combat_ended", "sector": "0.gold_mine"},
        {"type": "sector_control", "sector": "0.gold_mine", "controller": 1},
        {"type": "turn_ended", "player": 0, "turn": 7},
        {"type": "turn_started", "player": 1, "turn": 8}]
    assert sorted(t.state["units"]) == ["1.tr_bumblebee", "1.tr_wild_gilen"]
    assert t.state["active"] == 1 and t.state["phase"] == "main"
    assert t.state["players"][0]["discard"] == ["0.pz_archer", "0.pz_swordsman"]
    view = post(client, "/view", {"state": t.state, "player": 1}).get_json()["view"]
    assert "hand" not in view["players"][0] and view["players"][0]["hand_count"] == 4


def test_koz_51_a_four_player_game_over_http(client):
    """RULING KOZ-51: `GET /v1/games/kozyablo` says 2 to 4 players; `new` with four
    same-race players starts with a lot (KOZ-10); every seat gets its own view."""
    assert client.get(BASE).get_json()["players"] == {"min": 2, "max": 4}
    r = post(client, "/new", {"players": [{"race": "kozly"}] * 4,
                              "options": {"chance": "table"}, "seed": 4})
    assert r.status_code == 200
    state = r.get_json()["state"]
    assert state["order"] == [] and state["pending"] == [{"player": "chance",
                                                          "decision": "lot"}]
    legal = post(client, "/legal-actions", {"state": state}).get_json()["actions"]
    assert sorted(a["first"] for a in legal) == [0, 1, 2, 3]
    for seat in range(4):
        view = post(client, "/view", {"state": state, "player": seat}).get_json()["view"]
        assert view["view"] == {"player": seat} and len(view["derived"]["production"]) == 4
    r = post(client, "/new", {"players": 5, "seed": 1})
    assert r.status_code == 400 and r.mimetype == "application/problem+json"
