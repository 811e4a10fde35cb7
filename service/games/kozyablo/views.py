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
from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any, cast

from service.games import shape as s
from service.games.base import COMMON_STATE_FIELDS, card_set_of, view_marker
from service.games.errors import InvalidState
from service.games.kozyablo import abilities
from service.games.kozyablo.cards import Catalogue, Face, face
from service.games.kozyablo.deck import MAX_COPIES
from service.games.kozyablo.sectors import production
from service.games.kozyablo.shapes import ID, PLAYER, SEAT, STATE_FIELDS, UNIT
from service.games.kozyablo.state_types import KozyabloState, Player
from service.games.kozyablo.stats import unit_stats
from service.games.messages import N_
from service.games.objects import ActionObject, Errors, JsonObject


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


def hide(state: KozyabloState, player: int | None) -> JsonObject:
    """``state`` as ``player`` (None: a spectator) may see it.

    Enemy creatures in the shadow come after the others, by alias.
    """
    seen: JsonObject = dict(state)
    players = []
    for seat, p in enumerate(state["players"]):
        q: JsonObject = {k: v for k, v in p.items() if k not in ("deck", "aside", "cards")}
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
        units: JsonObject = {uid: d for uid, d in state["units"].items()
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


def derived(state: KozyabloState, cat: Catalogue, hidden: set[str]) -> JsonObject:
    """Production levels per seat and effective stats of the creatures not in ``hidden``.

    >>> import card_db; from service.games.kozyablo import GAME  # (its card schema)
    >>> from service.games.kozyablo.cards import Catalogue
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


def determinize(state: KozyabloState, cat: Catalogue, player: int | None, seed: int
                ) -> KozyabloState:
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
    out: JsonObject = dict(state)
    players: list[JsonObject] = [dict(p) for p in state["players"]]
    out["players"] = players
    aliases = _hidden_units(state, player)
    declared = state["declared"]
    shown = declared.get("card") if declared is not None else None
    casting: dict[str, tuple[str, list[str]]] = {}
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
            casting[uid] = new, arts
            for c in (new, *arts):
                pool.remove(c)
        _redeal(p, pool, shown, rng)
    if casting:
        units: JsonObject = {u: d for u, d in state["units"].items() if u not in casting}
        for uid in aliases:  # alias order
            new, arts = casting[uid]
            units[new] = {**state["units"][uid], "artifacts": arts}
        out["units"] = units
        renamed = {uid: new for uid, (new, _) in casting.items()}
        for key in _NAMING:
            out[key] = _replace(out[key], renamed)
    out["chance"] = {**state["chance"], "seed": seed, "counter": 0}
    return cast(KozyabloState, out)  # the state, its hidden parts re-dealt


def _redeal(p: JsonObject, pool: list[str], shown: str | None, rng: random.Random) -> None:
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
        # the two parts ``offered`` and ``unit_stats`` read, with ``c`` in the shadow
        trial = cast(KozyabloState, {"units": {c: {**d, "artifacts": arts}},
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

    def search(self, i: int, taken: set[str], strict: bool
               ) -> list[tuple[str, list[str]]] | None:
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


# ------------------------------------------------------------ from a view
#: a count a view shows in place of a hidden zone
_COUNT = s.Int(minimum=0, maximum=64)
#: the counts every seat of a view shows (``hide``)
_COUNTS = {"deck_count": _COUNT, "aside_count": _COUNT, "card_count": _COUNT}
#: the viewer's own seat, and another player's (their hand, deck, set-aside cards
#: and card list as counts)
OWN_PLAYER = s.Obj({**PLAYER.required, **_COUNTS})
OTHER_PLAYER = s.Obj({**{k: v for k, v in PLAYER.required.items()
                         if k not in ("hand", "deck", "aside", "cards")},
                      **_COUNTS, "hand_count": _COUNT})
#: another player's creature in the shadow as a view shows it (KOZ-41)
HIDDEN_UNIT = s.Obj({"owner": SEAT, "sector": ID, "damage": UNIT.required["damage"],
                     "shadow": s.Enum(True), "card": s.Enum(None), "artifact_count": _COUNT})
#: a whole view of a seat (``Game.view``); players and units are checked one by one
VIEW_SPEC = s.Obj({
    **COMMON_STATE_FIELDS, **STATE_FIELDS,
    "chance": s.Obj({"mode": s.Enum("server", "table")}),
    "players": s.ListOf(s.Obj({}, extra=True), min_items=2, max_items=4),
    "units": s.MapOf(s.Obj({}, extra=True), max_items=120),
    "derived": s.Obj({}, extra=True), "view": s.Obj({"player": s.Nullable(SEAT)})})
#: a player's keys in a state, in order
PLAYER_KEYS = tuple(Player.__annotations__)


def state_from_view(view: Any, seed: int, rules_version: str) -> KozyabloState:
    """A state its viewer cannot tell apart from the true one, from their view alone.

    Not ``determinize`` (which re-deals from the other players' card lists,
    which no view shows, KOZ-1): every card the viewer cannot see becomes a
    stand-in (``_StandIns``), the chance seed is ``seed``.  A function of the
    view and the seed.  The caller checks the result (``Kozyablo.state_from_view``:
    validated, and its view is ``view`` again).  A spectator's view is refused:
    it has no decisions of its own, and every hand is hidden from it.

    >>> from service.games.kozyablo import GAME
    >>> state, _ = GAME.new_game(2, seed=4)
    >>> built = state_from_view(GAME.view(state, 1), 9, GAME.rules_version)
    >>> GAME.view(built, 1) == GAME.view(state, 1), built["players"][0]["hand"][:2]
    (True, ['0.tr_blood_wasp#4', '0.tr_blood_wasp#5'])
    """
    player, cat = _read_view(view, rules_version)
    standins = _StandIns(view, player, cat)
    built: JsonObject = {k: v for k, v in view.items() if k not in ("derived", "view")}
    built["chance"] = {"mode": view["chance"]["mode"], "seed": seed, "counter": 0}
    units = {uid: d for uid, d in view["units"].items() if not uid.startswith("hidden-")}
    names: dict[str, str] = {}
    for alias, d in view["units"].items():  # after the others, in alias order, as ``hide``
        if alias.startswith("hidden-"):
            new, arts = standins.creature(alias, d)
            names[alias] = new
            units[new] = {"owner": d["owner"], "sector": d["sector"], "damage": d["damage"],
                          "shadow": True, "artifacts": arts, "shadow_number": _number(alias)}
    built["players"] = [standins.player(seat, p) for seat, p in enumerate(view["players"])]
    built["units"] = units
    for key in _NAMING:
        built[key] = _replace(view[key], names)
    return cast(KozyabloState, built)  # checked by the caller (``Kozyablo.state_from_view``)


def _read_view(view: Any, rules_version: str) -> tuple[int, Catalogue]:
    """The viewer and the catalogue of a well-shaped Kozyablo view of a seat."""
    marker = view_marker(view, "kozyablo", rules_version)
    errors = s.field_errors(VIEW_SPEC, view, "view")
    if errors:
        raise InvalidState(errors)
    player = marker["player"]
    if player is None:
        raise InvalidState({"view.view.player": [N_(
            "a spectator's view answers nothing: it has no decisions of its own, and every "
            "hand and deck list is hidden from it (KOZ-1); send the full state")]})
    if player >= len(view["players"]):
        raise InvalidState({"view.view.player": [N_("must be a seat from 0 to {last} or null",
                                                    last=len(view["players"]) - 1)]})
    for seat, p in enumerate(view["players"]):
        errors.update(s.field_errors(OWN_PLAYER if seat == player else OTHER_PLAYER, p,
                              f"view.players.{seat}"))
    for uid, d in view["units"].items():
        if not uid.startswith("hidden-"):
            errors.update(s.field_errors(UNIT, d, f"view.units.{uid}"))
        elif _number(uid) is None:
            errors[f"view.units.{uid}"] = [N_("a creature in the shadow is `hidden-N`, N its "
                                              "shadow_number (KOZ-41)")]
        else:
            errors.update(s.field_errors(HIDDEN_UNIT, d, f"view.units.{uid}"))
    if errors:
        raise InvalidState(errors)
    return player, Catalogue.of(card_set_of("kozyablo", view["card_set"], "view"))


def _number(alias: str) -> int | None:
    """N of ``hidden-N`` (a shadow number, 1 to 99), or None.

    >>> _number("hidden-3"), _number("hidden-x"), _number("hidden-0")
    (3, None, None)
    """
    digits = alias.removeprefix("hidden-")
    return int(digits) if digits.isdigit() and len(digits) <= 2 and int(digits) > 0 else None


class _StandIns:
    """The cards of a view's other players that the viewer cannot see, made up.

    * each hidden card of another player's hand, deck and set-aside cards: a
      copy of that player's race's first creature (by id, ``FILLER``);
    * each of their creatures in the shadow (``hidden-N``, KOZ-41): a creature
      with Shadow, their race's first; carrying artifacts, a hero with as many
      copies of an artifact it may carry (KOZ-21);
    * their card list: the cards the view shows of theirs plus these.

    Stand-ins are numbered past the copies a deck may hold (``<seat>.<card>#4`` on,
    KOZ-2), so none is ever the id of a real card; nothing but the view is read.
    None of this is a guess at the real cards: the viewer's own decisions never
    read them (nothing in the shadow can be chosen, struck or reached, KOZ-41;
    whose turn to strike it is, which a hidden creature's speed decides, is
    written in the state, ``combat.turn``, RULING KOZ-41a; another player's
    hand and deck matter to their own decisions, and by their sizes, which are
    kept).
    """

    def __init__(self, view: JsonObject, player: int, cat: Catalogue) -> None:
        self.view, self.viewer, self.cat = view, player, cat
        self.taken = set(_strings(view))  # no stand-in takes an id the view names
        self.made: dict[int, list[str]] = {}

    def _copy(self, seat: int, card: str) -> str:
        """A new stand-in copy of ``card``: ``<seat>.<card>#<n>``, n past ``MAX_COPIES``."""
        n = MAX_COPIES + 1
        while (cid := f"{seat}.{card}#{n}") in self.taken:
            n += 1
        self.taken.add(cid)
        self.made.setdefault(seat, []).append(cid)
        return cid

    def _first(self, race: str, fits: Callable[[Face], bool]) -> str | None:
        """The first card of ``race`` that ``fits`` by id, else of any race."""
        found = sorted((f.race != race, f.id) for f in self.cat.faces.values() if fits(f))
        return found[0][1] if found else None

    def creature(self, alias: str, d: JsonObject) -> tuple[str, list[str]]:
        seat, k = d["owner"], d["artifact_count"]
        race = self.view["players"][seat]["race"] if seat < len(self.view["players"]) else ""
        if not k:
            card = self._first(race, lambda f: f.type == "creature" and "shadow" in f.abilities) \
                or self._first(race, lambda f: f.type in ("creature", "hero"))
            assert card is not None, "a card set has creatures"
            return self._copy(seat, card), []
        hero = self._first(race, lambda f: f.type == "hero" and any(
            f.id in a.data["heroes"] for a in self.cat.faces.values() if a.type == "artifact"))
        if hero is None:
            raise InvalidState({f"view.units.{alias}.artifact_count": [N_(
                "no hero of this card set carries an artifact (KOZ-21)")]})
        art = self._first(race, lambda f: f.type == "artifact" and hero in f.data["heroes"])
        assert art is not None
        return self._copy(seat, hero), [self._copy(seat, art) for _ in range(k)]

    def player(self, seat: int, p: JsonObject) -> JsonObject:
        """The seat as a state holds it: the viewer's as shown, another's with stand-ins
        (after ``creature`` made those of their creatures in the shadow)."""
        if seat == self.viewer:
            return {k: p[k] for k in PLAYER_KEYS}
        filler = self._first(p["race"], lambda f: f.type == "creature")
        assert filler is not None, "a card set has creatures"
        shown = _declared_card(self.view, seat)
        zones = {"hand": shown + [self._copy(seat, filler)
                                  for _ in range(p["hand_count"] - len(shown))],
                 "aside": [self._copy(seat, filler) for _ in range(p["aside_count"])],
                 "deck": [self._copy(seat, filler) for _ in range(p["deck_count"])],
                 "cards": _located(self.view, seat) + self.made.get(seat, [])}
        if len(zones["cards"]) != p["card_count"]:
            raise InvalidState({f"view.players.{seat}.card_count": [N_(
                "the cards of this player in sight and the hidden counts add up to {held}: "
                "no Kozyablo state has this view", held=len(zones["cards"]))]})
        return {k: sorted(zones[k]) if k in zones else p[k] for k in PLAYER_KEYS}


def unseen_in_action(view: JsonObject, action: ActionObject) -> Errors:
    """The fields of an action checked from ``view`` that name another player's card the
    view does not show (in their hand or deck, a creature in the shadow, KOZ-41; a
    stand-in).  The full state would say why such a card cannot be chosen — which tells
    where it is — while the state built from the view holds a stand-in there: refused.

    >>> view = {"view": {"player": 0}, "units": {"hidden-1": {}}, "sectors": {"1.gold_mine": {}}}
    >>> unseen_in_action(view, {"type": "move", "player": 0, "to": "1.gold_mine",
    ...                         "units": ["0.kz_scout", "1.pz_sneak#2"], "from": "hidden-1"})
    ... # doctest: +ELLIPSIS
    {'action.units': ["'1.pz_sneak#2' is another player's card your view does not show ..."]}
    """
    viewer = view["view"]["player"]
    shown = set(_strings(view))
    out: Errors = {}
    for key, value in action.items():
        for name in value if isinstance(value, list) else [value]:
            seat, dot, _ = name.partition(".") if isinstance(name, str) else ("", "", "")
            if dot and seat.isdigit() and seat != str(viewer) and name not in shown:
                out.setdefault(f"action.{key}", []).append(N_(
                    "{card!r} is another player's card your view does not show (KOZ-41): a "
                    "view answers about what it shows", card=name))
    return out


def _declared_card(view: JsonObject, seat: int) -> list[str]:
    """The card ``seat`` declared for play: shown, still in their hand (KOZ-16)."""
    declared = view["declared"]
    if declared is None or declared["player"] != seat or not isinstance(declared.get("card"), str):
        return []
    return [declared["card"]]


def _located(view: JsonObject, seat: int) -> list[str]:
    """The cards of ``seat`` a view of another seat shows, in every zone but the
    hidden ones: sectors, creatures face up and their artifacts, buildings,
    lasting magic, the discard, a card declared for play."""
    out = [sid for sid, sec in view["sectors"].items() if sec["owner"] == seat]
    for uid, d in view["units"].items():
        if d["owner"] == seat and not uid.startswith("hidden-"):
            out += [uid, *d["artifacts"]]
    out += [b for b, d in view["buildings"].items() if d["owner"] == seat]
    out += [m for m, d in view["lasting"].items() if d["owner"] == seat]
    discard: list[str] = view["players"][seat]["discard"]
    return out + discard + _declared_card(view, seat)


def _strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
