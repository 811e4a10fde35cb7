"""Evaluations: long, dice-heavy questions about a game (pure Python, no Flask).

* ``odds`` — exact Tremble battle odds (TRE-20 re-rolls) and army holding odds
* ``kinds`` — the evaluation kinds: validation, chunks, chunk runs, aggregation
* ``runner`` — where the work runs: in-process threads (no ``REDIS_URL``) or RQ
"""
