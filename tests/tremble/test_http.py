"""TRE-21's worked example played through the HTTP API in table mode.

Two turns from a new game: turn 1 player 1 (seat 0) buys a tripod and
player 2 (seat 1) a cruiser, then raids a city alone to afford a second
tripod in turn 2; in turn 2 both send two ships to slot 4, a culture city.
The rolls 10 and 6 are entered as the table saw them.
"""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from service.games.objects import ActionObject, Entry, JsonObject

from .builder import CAT, cities

CULTURE = cities("culture")
RICH = next(c for c in cities() if CAT.cities[c]["raid"] >= 30000)
OTHERS = [c for c in cities() if c not in CULTURE and c != RICH]


class Table:
    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.state: JsonObject = {}  # new() deals one

    def post(self, path: str, body: JsonObject, status: int = 200) -> JsonObject:
        r = self.client.post(f"/v1/games/tremble/{path}", json=body)
        assert r.status_code == status, r.get_json()
        answer: JsonObject = r.get_json()
        return answer

    def new(self) -> None:
        self.state = self.post("new", {"players": 2, "seed": 5,
                                       "options": {"missions": False, "chance": "table"}})["state"]

    def apply(self, action: ActionObject, status: int = 200) -> JsonObject:
        out = self.post("apply", {"state": self.state, "action": action}, status)
        if status == 200:
            self.state = out["state"]
        return out

    def listed(self, player: int | str | None = None) -> JsonObject:
        return self.post("legal-actions", {"state": self.state, "player": player})

    def pending(self) -> list[Entry]:
        pending: list[Entry] = self.state["pending"]
        return pending

    def instance(self, player: int, design: str) -> str:
        found: str = next(s for s in self.state["players"][player]["hand"]
                          + self.state["players"][player]["offer"] if s.split("#")[0] == design)
        return found


def chance(kind: str, **fields: Any) -> ActionObject:
    return {"type": kind, "player": "chance", **fields}


def buy_turn(t: Table, draws: dict[int, list[str]], buys: dict[int, str | None]) -> None:
    """Each seat draws (RULING TRE-12a); the table names a listed copy of the
    design it saw, and that copy is the id the hand then holds."""
    for seat in (0, 1):
        t.apply({"type": "draw_ships", "player": seat})
        for face in draws[seat]:
            assert t.pending()[0] == {"player": "chance", "decision": "draw_ship", "for": seat}
            copy = next(a["ship"] for a in t.listed("chance")["actions"]
                        if a["ship"].split("#")[0] == face)
            t.apply(chance("draw_ship", ship=copy))
            assert copy in t.state["players"][seat]["offer"]
    for seat in (0, 1):
        design = buys[seat]
        ship = t.instance(seat, design) if design else None
        t.apply({"type": "buy", "player": seat, "ship": ship, "discard": None})


def test_tre_21_worked_example_through_http_table_mode(client):
    """TRE-21: worked example through http table mode."""
    t = Table(client)
    t.new()
    # turn 1: buy, reveal four cities, seat 1 raids a rich city alone
    buy_turn(t, {0: ["S-TRIPOD-A", "S-SAUCER"], 1: ["S-CRUISER", "S-TRIPOD-B"]},
             {0: "S-TRIPOD-A", 1: "S-CRUISER"})
    assert [p["people"] for p in t.state["players"]] == [20000, 0]
    for card in (RICH, *OTHERS[:3]):
        t.apply(chance("reveal", card=card))
    t.apply({"type": "plan", "player": 0, "orders": []})
    t.apply({"type": "plan", "player": 1,
             "orders": [{"ship": t.instance(1, "S-START"), "slot": 1}]})
    t.apply({"type": "raid", "player": 1, "city": RICH})
    assert t.state["players"][1]["people"] == CAT.cities[RICH]["raid"]
    # turn 2: seat 1 buys the second tripod; city 4 is a culture city
    buy_turn(t, {0: ["S-SAUCER", "S-CRUISER"], 1: ["S-TRIPOD-B", "S-SAUCER"]},
             {0: None, 1: "S-TRIPOD-B"})
    for card in (*OTHERS[3:6], CULTURE[1]):
        t.apply(chance("reveal", card=card))
    assert CAT.cities[t.state["slots"][3]]["type"] == "culture"
    listed = t.listed(0)
    assert listed["constraints"]["0"]["max_ships_per_city"] == 2
    assert {"type": "plan", "player": 0, "orders": []} in listed["actions"]
    saucer, tripod_a = t.instance(0, "S-START"), t.instance(0, "S-TRIPOD-A")
    cruiser, tripod_b = t.instance(1, "S-CRUISER"), t.instance(1, "S-TRIPOD-B")
    t.apply({"type": "plan", "player": 0,
             "orders": [{"ship": saucer, "slot": 4}, {"ship": tripod_a, "slot": 4}]})
    # commit-then-reveal: seat 1 sees only that seat 0 has submitted
    seen = t.post("view", {"state": t.state, "player": 1})["view"]
    assert seen["players"][0]["orders"] == {"submitted": True}
    assert [p["player"] for p in t.pending()] == [1]
    out = t.apply({"type": "plan", "player": 1,
                   "orders": [{"ship": cruiser, "slot": 4}, {"ship": tripod_b, "slot": 4}]})
    battle = next(e for e in out["events"] if e["type"] == "battle")
    assert battle["strengths"] == [{"player": 0, "strength": 16}, {"player": 1, "strength": 17}]
    t.apply({"type": "battle_choice", "player": 0, "choice": "fight"})
    t.apply({"type": "battle_choice", "player": 1, "choice": "fight"})
    assert t.pending() == [{"player": "chance", "decision": "roll", "context": "battle",
                            "for": 0, "slot": 4}]
    first = t.apply(chance("roll", total=10))
    second = t.apply(chance("roll", total=6))
    totals = [e["total"] for e in first["events"] + second["events"] if e["type"] == "battle_roll"]
    assert totals == [26, 23]
    assert any(e["type"] == "battle_won" and e["player"] == 0 for e in second["events"])
    # player 2 loses one of the two ships of their choice
    assert t.pending() == [{"player": 1, "decision": "lose_ship", "slot": 4}]
    bad = t.apply({"type": "lose_ship", "player": 1, "ship": t.instance(1, "S-START")}, 422)
    assert bad["rule"] == "TRE-21"
    t.apply({"type": "lose_ship", "player": 1, "ship": cruiser})
    assert cruiser not in t.state["players"][1]["hand"]
    assert tripod_b in t.state["players"][1]["hand"]
    people = t.state["players"][0]["people"]
    t.apply({"type": "raid", "player": 0, "city": CULTURE[1]})
    assert t.state["players"][0]["people"] == people + CAT.cities[CULTURE[1]]["raid"]
    assert CULTURE[1] in t.state["players"][0]["captured"]
