"""The IETF ``RateLimit`` / ``RateLimit-Policy`` fields (issue 36, item 6).

Before: only flask-limiter's ``X-RateLimit-Limit/-Remaining/-Reset`` (the nearest
limit alone, ``Reset`` an epoch time).  Now, beside them (kept), the fields of
draft-ietf-httpapi-ratelimit-headers-11: ``RateLimit-Policy: "general";q=600;w=60``
(every limit that counted the request, named after its setting) and ``RateLimit:
"general";r=599;t=60`` (what is left, seconds until the window frees some).
"""

from __future__ import annotations

import re

from tests.trust.conftest import call
from tests.trust.conftest import serve as serve  # the fixture, for the gunicorn test

BODY = {"game": "tremble", "kind": "tremble.battle_odds", "strengths": [16, 17]}
NEW = {"players": [{"name": "A"}, {"name": "B"}]}
#: one structured-field list member: a string with integer parameters
MEMBER = re.compile(r'"([a-z0-9-]+)"((?:;[a-z]+=\d+)+)')


def parse(field: str) -> dict[str, dict[str, int]]:
    """``"a";q=1;w=2, "b";q=3`` → ``{"a": {"q": 1, "w": 2}, "b": {"q": 3}}`` (strictly)."""
    out = {}
    for member in field.split(", "):
        found = MEMBER.fullmatch(member)
        assert found, f"not a list member of the draft's syntax: {member!r} in {field!r}"
        out[found[1]] = {k: int(v) for k, v in
                         (p.split("=") for p in found[2].lstrip(";").split(";"))}
    return out


def test_each_limit_that_counted_is_a_policy_and_a_service_limit(make_client):
    client = make_client(RATE_LIMIT="5/minute", EVALUATION_RATE_LIMIT="2/minute").raw
    seen = []
    for _ in range(3):
        r = client.post("/v1/evaluations", json=BODY)
        seen.append(r)
        assert parse(r.headers["RateLimit-Policy"]) == {
            "general": {"q": 5, "w": 60}, "evaluations": {"q": 2, "w": 60}}
        assert "X-RateLimit-Limit" in r.headers  # the old fields stay
    left = [parse(r.headers["RateLimit"]) for r in seen]
    assert [x["evaluations"]["r"] for x in left] == [1, 0, 0]
    assert [x["general"]["r"] for x in left] == [4, 3, 2]
    assert all(0 < x[name]["t"] <= 60 for x in left for name in x)
    assert seen[2].status_code == 429 and int(seen[2].headers["Retry-After"]) >= \
        left[2]["evaluations"]["t"] - 1
    game = client.post("/v1/games/raiders/new", json=NEW)  # the general limit alone
    assert list(parse(game.headers["RateLimit-Policy"])) == ["general"]


def test_several_limits_in_one_setting_are_named_apart(make_client):
    client = make_client(RATE_LIMIT="100/minute;3/second").raw
    r = client.post("/v1/games/raiders/new", json=NEW)
    assert parse(r.headers["RateLimit-Policy"]) == {"general-2": {"q": 3, "w": 1},
                                                     "general": {"q": 100, "w": 60}}


def test_no_limit_no_fields(make_client):
    r = make_client().raw.post("/v1/games/raiders/new", json=NEW)
    assert "RateLimit" not in r.headers and "RateLimit-Policy" not in r.headers
    limited = make_client(RATE_LIMIT="5/minute").raw
    assert "RateLimit" not in limited.get("/v1/games").headers  # GETs are not limited


def test_two_gunicorn_workers_count_in_redis_and_say_so(serve, redis_url):  # noqa: F811
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    url = serve("ratelimit-fields", {"REDIS_URL": redis_url}, RATE_LIMIT="4/minute")
    answers = [call(url, "/v1/games/raiders/new", NEW) for _ in range(5)]
    assert [a.status for a in answers] == [200, 200, 200, 200, 429]
    left = [parse(a.headers["ratelimit"])["general"]["r"] for a in answers]
    assert left == [3, 2, 1, 0, 0]  # one count across both workers' requests
    assert parse(answers[-1].headers["ratelimit-policy"]) == {"general": {"q": 4, "w": 60}}
    assert answers[-1].headers["retry-after"] and answers[-1].headers["x-ratelimit-remaining"] == "0"


def test_an_answers_own_retry_after_survives_the_rate_limit(make_client):
    """flask-limiter set ``Retry-After`` on every answer of a limited route to at least the
    client's window reset: a 202's poll hint of 2 s read 60 (seen by two engineers of issue
    36).  An answer's own ``Retry-After`` is kept — the 202's poll hint is the same
    with limits as without — and a 429's is still the limit's."""
    from tests.evaluations.test_fanout import playouts_request

    plain = make_client().raw.post("/v1/evaluations", json=playouts_request(60, 20))
    limited = make_client(RATE_LIMIT="600/minute", EVALUATION_RATE_LIMIT="2/minute").raw
    answers = [limited.post("/v1/evaluations", json=playouts_request(60, 20)) for _ in range(3)]
    assert plain.status_code == 202 and int(plain.headers["Retry-After"]) < 30
    assert [a.status_code for a in answers] == [202, 202, 429]
    assert [a.headers["Retry-After"] for a in answers[:2]] == [plain.headers["Retry-After"]] * 2
    assert int(answers[2].headers["Retry-After"]) > 30  # the evaluations window's minute
    new = limited.post("/v1/games/raiders/new", json=NEW)  # no wait of its own: the window's
    assert new.status_code == 200 and int(new.headers["Retry-After"]) > 30
