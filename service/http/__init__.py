"""The HTTP layer: Flask blueprints only; the rules live in ``service.games``.

* ``body``  — reading JSON bodies (orjson), envelope validation, JSON replies;
  the helpers every blueprint uses.
* ``games`` — ``/v1/games/...``: generic over every game in the registry.
* ``ops``   — ``/healthz``, ``/readyz``, ``/openapi.yaml``, ``/docs``.

A blueprint module exposes ``bp`` and may expose ``document(spec)`` to add
its paths to ``openapi.yaml`` (see ``service.openapi``); ``service.app``
lists the modules and registers those that exist.
"""
