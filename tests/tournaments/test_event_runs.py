"""Issue 27's two events through ``POST /v1/tournaments/events``, as the console runs
them (tests/console/test_event.py clicks the same): 12 players of Tremble over 3
rounds at tables of 4 (one drops after round 2: round 3 seats 4, 4 and 3), and 9
of Raiders at tables of 3 (a late entry from round 2: 3, 3 and 4).  Every table is a
real verified game but one, entered by hand; the standings equal the hand
computation of tests/tournaments/hand.py.  A game credited to players who did not
sit at it is refused, naming its seats.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.hand import standings, table_game

URL = "/v1/tournaments/events"
TREMBLE = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lev"]
RAIDERS = ["Abe", "Bea", "Cal", "Deb", "Eli", "Flo", "Gil", "Hana", "Ike"]
#: the hand placement of the first table of round 1: the second player wins, two share 2nd
BY_HAND = (2, 1, 2, 4)


def run(client, game: str, players: list[Any], size: int, rounds: int, drop_after: dict[Any, Any], late: dict[Any, Any]):
    """Play ``rounds`` rounds as the service seats them; returns the request, the answer
    and the tables as (players, places) for the hand computation."""
    body: dict[Any, Any] = {"players": list(players), "settings": {"game": game, "table_size": size}, "rounds": []}
    played: list[list[tuple[list[str], list[int]]]] = []
    seed = 0
    for number in range(1, rounds + 1):
        if number in late:
            body["players"].append({"name": late[number], "joins": number})
        answer = client.post(URL, json=body)
        assert answer.status_code == 200, answer.json
        proposed = answer.json["next_round"]
        assert proposed["round"] == number and proposed["byes"] == []
        tables, rnd = [], []
        for i, table in enumerate(proposed["tables"]):
            seats = table["players"]
            if number == 1 and i == 0:
                places = list(BY_HAND[:len(seats)])
                placements = [[p for p, got in zip(seats, places, strict=True) if got == place]
                              for place in sorted(set(places))]
                tables.append({"players": seats, "placements": placements})
            else:
                seed += 1
                replay, places = table_game(game, seats, seed)
                tables.append({"players": seats, "games": [replay]})
            rnd.append((seats, places))
        body["rounds"].append({"tables": tables, "byes": [], "drops": drop_after.get(number, [])})
        played.append(rnd)
    answer = client.post(URL, json=body)
    assert answer.status_code == 200, answer.json
    return body, answer.json, played


def same_standings(answer: dict[Any, Any], expected: list[dict[Any, Any]]) -> None:
    shown = [(line["rank"], line["player"], line["points"], line["possible"]) for line in answer["standings"]]
    assert shown == [(e["rank"], e["player"], float(e["points"]), float(e["possible"])) for e in expected]
    for line, e in zip(answer["standings"], expected, strict=True):
        assert line["opponents_share"] == pytest.approx(float(e["opponents_share"]), abs=1e-4)
        assert line["game_share"] == pytest.approx(float(e["points"] / e["possible"]), abs=1e-4)


def test_a_tremble_event_of_12_at_tables_of_4_over_3_rounds(client):
    body, answer, played = run(client, "tremble", TREMBLE, 4, 3, {2: ["Lev"]}, {})
    assert sorted(len(t["players"]) for t in body["rounds"][2]["tables"]) == [3, 4, 4]
    assert "Lev" not in {p for t in body["rounds"][2]["tables"] for p in t["players"]}
    same_standings(answer, standings(TREMBLE, played))
    assert answer["games_verified"] == 8
    unverified = {line["player"]: line["unverified_tables"] for line in answer["standings"]}
    assert sorted(unverified.values()) == [0] * 8 + [1] * 4
    assert [t["verified"] for t in answer["rounds"][0]["tables"]] == [False, True, True]


def test_a_raiders_event_of_9_at_tables_of_3_with_a_late_entry(client):
    body, answer, played = run(client, "raiders", RAIDERS, 3, 3, {}, {2: "Jude"})
    assert sorted(len(t["players"]) for t in body["rounds"][1]["tables"]) == [3, 3, 4]
    same_standings(answer, standings([*RAIDERS, "Jude"], played))
    jude = next(line for line in answer["standings"] if line["player"] == "Jude")
    assert jude["joins"] == 2 and jude["tables"] == 2


def test_a_game_credited_to_players_who_did_not_sit_at_it_is_refused(client):
    """Round 1's second table reports the game its third table played (same size, other
    players): refused naming the table's game's seats; so is a game naming one stranger."""
    body, _, _ = run(client, "raiders", RAIDERS, 3, 1, {}, {})
    tables = body["rounds"][0]["tables"]
    tables[1]["games"] = tables[2]["games"]
    answer = client.post(URL, json=body)
    assert answer.status_code == 422 and answer.json["type"] == "/problems/invalid-tournament"
    assert list(answer.json["errors"]) == ["rounds.0.tables.1.games.0.setup.players"]
    seats = tables[1]["players"]
    replay, _ = table_game("raiders", [*seats[:2], "Zed"], 99)
    tables[1]["games"] = [replay]
    answer = client.post(URL, json=body)
    assert answer.status_code == 422
    assert list(answer.json["errors"]) == ["rounds.0.tables.1.games.0.setup.players"]
