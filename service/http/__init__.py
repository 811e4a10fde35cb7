"""The HTTP layer: Flask blueprints that only route; the rules live in ``service.games``.

* ``body``   — reading JSON bodies (orjson) and checking them against their
  declaration (``schemas.envelopes.load``), JSON replies; every blueprint uses them.
* ``games``  — ``/v1/games/...``: generic over every game in the registry.
* ``health`` — ``/healthz``, ``/readyz``, ``/openapi.yaml``, ``/docs``.

A blueprint module exposes ``bp``, a ``route.Routes`` whose every route is one
``route.Route`` record; ``blueprints`` lists the modules (the app registers
them, ``service.openapi`` documents their records: ``tests/http/test_routes.py``).
Use ``body.read_json`` / ``read_envelope`` / ``json_response`` and raise
``service.problems.ProblemError`` or an engine error so every answer is JSON
or problem+json.
"""
