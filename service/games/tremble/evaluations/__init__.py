"""Tremble's own evaluation kinds, declared by the game (``Tremble.evaluation_kinds``).

* ``odds`` — exact battle odds (TRE-20 re-rolls) and army holding odds (TRE-24)
* ``fleets`` — fleets attacking a city → their TRE-29 strengths
* ``battle_odds`` — the ``tremble.battle_odds`` kind (also ``POST /v1/games/tremble/odds``)
* ``search_risk`` — the ``tremble.search_risk`` kind (TRE-22, TRE-24, TRE-28)

``service.evaluations.kinds`` finds them through the game's declaration, as
the HTTP layer finds the game's ``operations``: nothing shared names them.
"""

from __future__ import annotations

from service.games.kind import Kind
from service.games.tremble.evaluations.battle_odds import BattleOdds
from service.games.tremble.evaluations.search_risk import SearchRisk

#: the kinds this game declares (``Game.evaluation_kinds``)
KINDS: tuple[Kind, ...] = (BattleOdds(), SearchRisk())
