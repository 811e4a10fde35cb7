"""``make bench``: every performance figure the project claims, in one run.

Run ``make bench`` (or ``.venv/bin/python -m bench``; ``--help`` lists the
parts and knobs).  One run measures, on this machine, in this order:

* **HTTP** (``bench.http_load``) — the service under the Procfile's gunicorn
  command (2 gthread workers) and, beside it, the *floor*: a no-op Flask
  endpoint that parses the same request body under the same gunicorn
  configuration (``bench.floor_app``).  Both are loaded the same way by
  ``bench.loader`` (``wrk`` with a Lua script for the POST body, or a
  bounded multi-process Python loader when ``wrk`` is missing).  For each
  game, ``legal-actions`` and ``apply`` on early, middle and late states of
  seeded random games (``bench.states``, generated at bench time): requests/s,
  p50/p99 latency and the ratio to the floor measured on the same body.
* **Engines** (``bench.engine``) — in-process ``apply`` and
  ``legal_actions`` median and p99 in µs over the recorded steps of seeded
  random games, random playouts per second, and (``bench.request_costs``)
  the share of one request's time spent in JSON decode/encode and in
  ``validate_state``.
* **Evaluations** (``bench.evaluations``) — exact battle odds for 2…5
  fighters, and playout throughput with 1 and 2 real ``rq worker``
  processes against a private ``redis-server`` (their ratio).

Results go to ``bench/results/latest.json``, ``latest.md`` (the table,
with each issue-7 target marked pass/fail) and ``latest.png`` (requests/s
per endpoint beside the floor).  Figures are noisy on a shared 2-core
machine: the ratio to a floor measured in the same run is what counts.
Targets are checked here, never by timed tests.
"""
