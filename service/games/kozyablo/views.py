"""What each player may see, and states a player cannot tell apart (views, determinize).

A player sees every zone of their own cards: the hand, and the deck and the
cards set aside in a mulligan as sorted lists (contents, not an order — the
deck is an unordered pile, a draw is a chance node), and their card list.
Hidden from a player: the other player's hand, deck, set-aside cards and card
list (counts), and the identity of the other player's creatures in the
shadow (KOZ-41: face down).  Such a creature is called ``"hidden-N"``
everywhere in the view (``units``, ``lasting``, ``declared``, ``combat``,
``used``), N being its ``shadow_number`` — the smallest number free when it
entered the shadow, so the name says nothing about which card it is.  Its
entry shows its owner, sector, damage (dealt while it was face up; nothing
can damage or heal it in the shadow, KOZ-27) and how many artifacts it
carries (they were played face up onto it), but neither its card nor theirs.
The spectator is "the other player" of everyone.

Every view also carries ``derived`` — values a client would otherwise have
to recompute from the card data (issue 10): each player's production levels
(KOZ-12/KOZ-13) and the effective attack, life, speed, Armor, Regeneration
and abilities of every creature the viewer can identify, after artifacts and
lasting magic (KOZ-18, KOZ-21).  They live in the view only, never in the
state, so a state cannot hold a stale copy (nothing to check by invariants).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from service.games.kozyablo import abilities
from service.games.kozyablo.cards import Catalogue, face
from service.games.kozyablo.sectors import production
from service.games.kozyablo.state import KozyabloState, typed
from service.games.kozyablo.stats import unit_stats


def _hidden_units(state: KozyabloState, player: int | None) -> dict[str, str]:
    """Shadowed creatures ``player`` may not identify -> ``hidden-N``, by N."""
    hidden = sorted((d["shadow_number"], uid) for uid, d in state["units"].items()
                    if d["shadow"] and d["owner"] != player)
    return {uid: f"hidden-{n}" for n, uid in hidden}


def _renamed(text: str, names: dict[str, str]) -> str:
    """``names`` applied to an id, or to the source of a ``used`` entry (``"<id>:<ability>"``)."""
    if text in names:
        return names[text]
    source, colon, rest = text.partition(":")
    return f"{names[source]}:{rest}" if colon and source in names else text


def _replace(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return _renamed(value, names)
    if isinstance(value, list):
        return [_replace(v, names) for v in value]
    if isinstance(value, dict):
        return {_renamed(k, names): _replace(v, names) for k, v in value.items()}
    return value


#: state fields that can name a creature besides ``units`` (ids or ``used`` entries)
_NAMING = ("lasting", "declared", "combat", "effect", "used")


def secret_cards(state: KozyabloState, player: int | None) -> set[str]:
    """Instance ids (and ``used`` entries) ``player`` may not see in a view.

    The other player's hand, deck and set-aside cards; each enemy creature in
    the shadow, the artifacts it carries and the ``used`` entries naming it.
    """
    out: set[str] = set()
    for seat, p in enumerate(state["players"]):
        if seat != player:
            out.update(p["deck"])
            out.update(p["aside"])
            out.update(p["hand"])
    declared = state["declared"]
    if declared is not None and "card" in declared:
        out.discard(declared["card"])  # a card played is shown when declared (KOZ-16)
    hidden = _hidden_units(state, player)
    for uid in hidden:
        out.add(uid)
        out.update(state["units"][uid]["artifacts"])
    out.update(e for e in state["used"] if e.partition(":")[0] in hidden)
    return out


def hide(state: KozyabloState, player: int | None) -> dict:
    """``state`` as ``player`` (None: a spectator) may see it.

    Enemy creatures in the shadow come after the others, by alias.
    """
    seen: dict[str, Any] = dict(state)
    players = []
    for seat, p in enumerate(state["players"]):
        q: dict[str, Any] = {k: v for k, v in p.items() if k not in ("deck", "aside", "cards")}
        q["deck_count"] = len(p["deck"])
        q["aside_count"] = len(p["aside"])
        q["card_count"] = len(p["cards"])
        if seat == player:
            for zone in ("deck", "aside", "cards"):
                q[zone] = sorted(p[zone])
        else:
            q["hand_count"] = len(p["hand"])
            del q["hand"]
        players.append(q)
    seen["players"] = players
    aliases = _hidden_units(state, player)
    seen["derived"] = derived(state, Catalogue.of_state(state), set(aliases))
    if aliases:
        units: dict[str, Any] = {uid: d for uid, d in state["units"].items()
                                 if uid not in aliases}
        for uid, alias in aliases.items():
            d = state["units"][uid]
            units[alias] = {"owner": d["owner"], "sector": d["sector"], "damage": d["damage"],
                            "shadow": True, "card": None,
                            "artifact_count": len(d["artifacts"])}
        seen["units"] = units
        for key in _NAMING:
            seen[key] = _replace(seen[key], aliases)
    return seen


def derived(state: KozyabloState, cat: Catalogue, hidden: set[str]) -> dict:
    """Production levels per seat and effective stats of the creatures not in ``hidden``.

    >>> import card_db; from service.games.kozyablo.cards import Catalogue
    >>> st = {"players": [{"capital": "0.kz_capital"}], "sectors": {}, "lasting": {},
    ...       "units": {"0.kz_hero": {"owner": 0, "sector": "s", "damage": 0,
    ...                               "shadow": False, "artifacts": ["0.kz_art_horns"]}}}
    >>> d = derived(st, Catalogue.of(card_db.get("kozyablo")), set())
    >>> d["production"], d["units"]["0.kz_hero"]["attack"]
    ([{'gold': 1, 'crystals': 2, 'mana': 2}], 5)
    """
    units = {}
    for uid in state["units"]:
        if uid in hidden:
            continue
        s = unit_stats(state, cat, uid)
        units[uid] = {"attack": s.attack, "life": s.life, "speed": s.speed, "armor": s.armor,
                      "regeneration": s.regeneration, "abilities": sorted(s.abilities)}
    return {"production": [production(state, cat, seat) for seat in range(len(state["players"]))],
            "units": units}


def determinize(state: KozyabloState, cat: Catalogue, player: int | None, seed: int) -> dict:
    """Re-deal what ``player`` cannot locate; a fresh chance seed.

    For each other player: their hand, deck and the cards set aside in a
    mulligan are re-dealt from the union of the three and of their creatures
    in the shadow with the artifacts these carry (sizes kept; a card
    declared for play stays in the hand, KOZ-16).  Each creature in the
    shadow first becomes an unlocated creature or hero carrying as many
    unlocated artifacts as the view shows (``_Casting``).

    A function of ``view(state, player)``, the other players' card lists
    (which the view does not show) and ``seed``: pools are sorted before the
    seeded draws, shadowed creatures are cast in alias order and put after
    the other units in that order (as the view lists them), every name the
    view aliases is renamed, and every hidden list comes out sorted.
    """
    rng = random.Random(seed)
    out: dict[str, Any] = dict(state)
    players: list[dict[str, Any]] = [dict(p) for p in state["players"]]
    out["players"] = players
    aliases = _hidden_units(state, player)
    declared = state["declared"]
    shown = declared.get("card") if declared is not None else None
    cast: dict[str, tuple[str, list[str]]] = {}
    for seat, p in enumerate(players):
        for zone in ("deck", "aside", "cards"):
            p[zone] = sorted(p[zone])
        if seat == player:
            continue
        mine = [u for u in aliases if state["units"][u]["owner"] == seat]
        pool = sorted([c for c in p["hand"] if c != shown] + p["deck"] + p["aside"] + mine
                      + [a for u in mine for a in state["units"][u]["artifacts"]])
        for uid, (new, arts) in zip(mine, _Casting(state, cat, mine, pool, rng).cast(),
                                    strict=True):
            cast[uid] = new, arts
            for c in (new, *arts):
                pool.remove(c)
        _redeal(p, pool, shown, rng)
    if cast:
        units: dict[str, Any] = {u: d for u, d in state["units"].items() if u not in cast}
        for uid in aliases:  # alias order
            new, arts = cast[uid]
            units[new] = {**state["units"][uid], "artifacts": arts}
        out["units"] = units
        renamed = {uid: new for uid, (new, _) in cast.items()}
        for key in _NAMING:
            out[key] = _replace(out[key], renamed)
    out["chance"] = {**state["chance"], "seed": seed, "counter": 0}
    return out


def _redeal(p: dict[str, Any], pool: list[str], shown: str | None, rng: random.Random) -> None:
    """Player ``p``'s hand (but a card declared for play), set-aside cards and deck
    re-dealt from ``pool``, sizes kept."""
    rng.shuffle(pool)
    kept = [c for c in p["hand"] if c == shown]
    n = len(p["hand"]) - len(kept)
    p["hand"] = sorted(kept + pool[:n])
    p["aside"] = sorted(pool[n:n + len(p["aside"])])
    p["deck"] = sorted(pool[n + len(p["aside"]):])


class _Casting:
    """A ``(card, artifacts)`` from ``pool`` for each of one player's ``hidden`` creatures.

    What the view tells about a hidden creature holds for its stand-in: a
    creature or hero, carrying (a hero, KOZ-21) as many artifacts it may
    carry — and, if a seeded search within ``SEARCH_BUDGET`` steps finds
    such stand-ins for all, with Shadow (KOZ-41), life above its damage and
    the abilities the view shows it used (``used``) or declared; otherwise
    plausible stand-ins are preferred one creature at a time.  The real cards
    fit the first part, so stand-ins are always found: creatures carrying
    artifacts are cast first (their heroes and artifacts are the scarce
    ones), and every other one finds a creature left.
    """

    def __init__(self, state: KozyabloState, cat: Catalogue, hidden: list[str],
                 pool: list[str], rng: random.Random) -> None:
        self.state, self.cat, self.hidden, self.rng = state, cat, hidden, rng
        self.creatures = [c for c in pool if cat.faces[face(c)].type in ("creature", "hero")]
        self.artifacts = [c for c in pool if cat.faces[face(c)].type == "artifact"]
        declared = state["declared"]
        self.needs = {uid: {e.partition(":")[2] for e in state["used"]
                            if e.partition(":")[0] == uid} for uid in hidden}
        if declared is not None and declared.get("source") in self.needs:  # an ability declared
            self.needs[declared["source"]].add(declared["ability"])
        self.order = sorted(hidden, key=lambda u: -len(state["units"][u]["artifacts"]))  # stable
        self.budget = SEARCH_BUDGET

    def cast(self) -> list[tuple[str, list[str]]]:
        """The stand-ins, in the order of ``hidden``."""
        found = self.search(0, set(), True)
        if found is None:
            found = self.search(0, set(), False)
        assert found is not None, "the real cards are a solution"
        by_uid = dict(zip(self.order, found, strict=True))
        return [by_uid[uid] for uid in self.hidden]

    def plausible(self, uid: str, c: str, arts: list[str]) -> bool:
        state, cat = self.state, self.cat
        d = state["units"][uid]
        trial = typed({"units": {c: {**d, "artifacts": arts}},
                       "lasting": {m: ({**x, "unit": c} if x.get("unit") == uid else x)
                                   for m, x in state["lasting"].items()}})
        keys = {key for key, _, _ in abilities.offered(trial, cat, c)}
        return "shadow" in keys and self.needs[uid] <= keys \
            and unit_stats(trial, cat, c).life > d["damage"]

    def options(self, uid: str, taken: set[str], strict: bool) -> list[tuple[str, list[str]]]:
        cat = self.cat
        k = len(self.state["units"][uid]["artifacts"])
        out = []
        for c in self.creatures:
            if c in taken or (k and cat.faces[face(c)].type != "hero"):
                continue
            fits = [a for a in self.artifacts
                    if a not in taken and face(c) in cat.faces[face(a)].data["heroes"]]
            out += [(c, list(arts)) for arts in combinations(fits, k)]
        self.rng.shuffle(out)
        if strict:
            return [o for o in out if self.plausible(uid, *o)]
        return sorted(out, key=lambda o: not self.plausible(uid, *o))  # stable: plausible first

    def search(self, i: int, taken: set[str], strict: bool) -> list | None:
        if i == len(self.order):
            return []
        for c, arts in self.options(self.order[i], taken, strict):
            self.budget -= 1
            if strict and self.budget < 0:
                return None
            rest = self.search(i + 1, taken | {c, *arts}, strict)
            if rest is not None:
                return [(c, arts)] + rest
        return None


#: steps of the search for fully plausible stand-ins before settling for fewer
SEARCH_BUDGET = 2000
