"""The HTTP layer: Flask blueprints only; the rules live in ``service.games``.

* ``body``  — reading JSON bodies (orjson), envelope validation, JSON replies;
  the helpers every blueprint uses.
* ``games`` — ``/v1/games/...``: generic over every game in the registry.
* ``ops``   — ``/healthz``, ``/readyz``, ``/openapi.yaml``, ``/docs``.

A blueprint module exposes ``bp`` and ``document(spec)``, which adds its
paths to ``openapi.yaml`` (see the example in ``service.openapi``; a test
fails on any route missing from the document); ``service.app`` lists the
modules and registers those that exist.  Use ``body.read_json`` /
``read_envelope`` / ``json_response`` and raise ``service.problems.ProblemError``
or an engine error so every answer is JSON or problem+json.
"""
