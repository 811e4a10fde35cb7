"""Kozyablo positions where what a player cannot see is in play (issue 15).

Random playouts rarely hide a creature (the reference decks hold one card
with Shadow, KOZ-41).  ``hidden_positions`` steers them: a bot that hides
whatever can hide, plays Sneaks, the hero and its artifacts, attacks where
an enemy hides, and keeps a hidden creature hidden in a fight (KOZ-41a); a game with ``chance: table`` keeps the cards set aside
in a mulligan in sight (KOZ-9); crafted tables start with a hidden hero
carrying artifacts (KOZ-21) next to the viewer's creatures, so the fights
there have hidden creatures in their sector.  Every position is valid.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import orjson

from service.games.kozyablo import GAME
from service.games.kozyablo.cards import face
from service.games.playout import RandomBot, choose_chance, next_actor
from tests.kozyablo.builder import table

#: cards the steering bot plays first: Shadow, and the hero with the artifact that grants it
SHADOWY = ("pz_sneak", "pz_hero", "pz_art_cloak", "pz_art_bow")
SETUPS = [([{"race": "pozorki"}, {"race": "pozorki"}], {}),
          ([{"race": "trutni"}, {"race": "pozorki"}], {"response_window": "always"}),
          ([{"race": "pozorki"}, {"race": "kozly"}, {"race": "pozorki"}], {}),
          ([{"race": "pozorki"}, {"race": "zhloby"}], {"chance": "table"})]


def _hides(state: dict[Any, Any], sector: str | None, seat: int) -> bool:
    return any(d["sector"] == sector and d["shadow"] and d["owner"] != seat
               for d in state["units"].values())


def _eagerness(state: dict[Any, Any], action: dict[Any, Any]) -> int:
    """How much the steering bot wants ``action`` (0: no more than any other)."""
    kind, seat = action["type"], action["player"]
    if kind == "use_ability" and action["ability"] == "shadow":
        return 4
    if kind == "play_card" and face(action["card"]) in SHADOWY:
        return 3
    if kind in ("attack", "move") and _hides(state, action.get("sector", action.get("to")),
                                             seat):
        return 2
    if kind == "hold" and state["units"].get(action["unit"], {}).get("shadow"):
        return 2  # stays hidden in the fight (RULING KOZ-41a)
    if kind in ("draw", "mulligan"):
        return 1
    return 0


class ShadowBot:
    """Mostly the most eager action (``_eagerness``), else a random one."""

    def choose(self, game, state: dict[Any, Any], player: int, rng: random.Random) -> dict[Any, Any]:
        actions = game.legal_actions(state, player)
        best = max(_eagerness(state, a) for a in actions)
        if best and rng.random() < 0.8:
            return rng.choice([a for a in actions if _eagerness(state, a) == best])
        return rng.choice(actions)


def _crafted() -> list[dict[Any, Any]]:
    """A hidden hero with two artifacts and a hidden Sneak where the viewer (0) stands;
    the same with a Scout's sector next door and the other player to move."""
    hidden = {1: [("pz_hero", "1.gold_mine",
                   {"shadow": True, "artifacts": ["pz_art_cloak", "pz_art_bow"]}),
                  ("pz_sneak", "1.gold_mine", {"shadow": True, "damage": 1}),
                  ("pz_archer", "1.gold_mine")]}
    return [table("kozly", "pozorki", hands={0: ["kz_guard", "kz_curse"], 1: ["pz_spark"]},
                  units={0: [("kz_hero", "1.gold_mine"), ("kz_catapult", "1.gold_mine")],
                         **hidden}),
            table("kozly", "pozorki", hands={0: ["kz_scout"], 1: ["pz_spark", "pz_haste"]},
                  units={0: [("kz_guard", "1.gold_mine")], **hidden}, active=1,
                  options={"response_window": "always"})]


def _playout(state: dict[Any, Any], seed: int, steps: int, every: int) -> list[bytes]:
    rng, bots = random.Random(seed), (ShadowBot(), RandomBot())
    out = []
    for step in range(steps):
        if state["result"] is not None:
            break
        if step % every == 0:
            out.append(orjson.dumps(state))
        who = next_actor(state, rng, "random")
        action = choose_chance(GAME, state, rng) if who == "chance" else \
            bots[rng.random() < 0.2].choose(GAME, state, who, rng)
        state, _ = GAME.apply(state, action)
    return out


@cache
def hidden_positions() -> tuple[bytes, ...]:
    """States (as JSON) of steered playouts and of crafted tables played on."""
    out: list[bytes] = []
    for k, (players, options) in enumerate(SETUPS):
        for seed in (1, 2):
            state, _ = GAME.new_game(players, options, seed=40 + 10 * k + seed)
            out += _playout(state, seed, 400, 3)
    for k, state in enumerate(_crafted()):
        for seed in (1, 2, 3):
            out += _playout(state, 100 * k + seed, 30, 1)
    return tuple(out)
