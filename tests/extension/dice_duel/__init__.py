"""Dice Duel — a tiny fourth game, built by README "How it is built" only.

Two players race to a target.  DUEL-1: seat 0 opens; each player banks
points, starting from 0.  DUEL-2: a turn opens with a roll of the set's two
dice (a chance node), whose sum adds to the turn total.  DUEL-3: after a
roll the player banks the turn total (the turn passes) or rolls again.
DUEL-4: a roll showing a 1 loses the turn total and ends the turn.  DUEL-5:
whoever banks the set's ``target`` or more wins at once.  DUEL-6: only the
player whose turn it is decides.  DUEL-7: nothing is played after the end.
Its own operation, ``POST /v1/games/dice_duel/survival``, says how likely
``rolls`` rolls in a row are to show no 1.

The package (``game``, ``cards``, ``operations``, ``evaluations``: its own kind of
evaluation, ``dice_duel.survival``), its card data (``cards/dice_duel/``, a
directory on ``CARD_DB_PATH``) and one ``registry.register`` line are all of it.
"""

from tests.extension.dice_duel.game import GAME, DiceDuel

__all__ = ["GAME", "DiceDuel"]
