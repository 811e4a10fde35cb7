"""Evaluations: long, dice-heavy questions about a game (pure Python, no Flask).

* ``kinds`` — the evaluation kinds: validation, chunks, chunk runs, aggregation;
  the shared kinds (``playouts``, ``suggest``) and each game's own
  (``Game.evaluation_kinds``, in the game's package), found through the registry
* ``runner`` — where the work runs: in-process threads (no ``REDIS_URL``) or RQ
"""
