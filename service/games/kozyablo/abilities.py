"""On-table abilities a player may use (KOZ-16, KOZ-40, KOZ-41).

Each source (a creature or building) offers abilities by key:
``"regeneration"`` (KOZ-40, action mark: restores X life), ``"shadow"``
(KOZ-41, action mark: hides the creature face down), and the ``name`` of
each ``activated`` entry of its card data (``"volley"``, ``"smite"``…).  A ``free`` ability does not
use up the turn's action and may also be used in the opponent's response
window; each of a source's free abilities works as many times a turn as its
card data's ``per_turn`` says (the reference cards: once, «раз в ход»; ``null``:
no limit, for effects that must run out — ``card_schema``).  Uses are
counted in ``state["used"]`` (``"<source>:<ability>"``, once per use; a free
ability without a limit is not recorded).  Abilities reach only their own
sector (KOZ-16).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass

from service.games.draft import Draft
from service.games.kozyablo import effects
from service.games.kozyablo.cards import Catalogue, Stats, face
from service.games.kozyablo.state_types import KozyabloState, Unit
from service.games.kozyablo.stats import unit_stats
from service.games.messages import N_, either, joined
from service.games.objects import ActionObject, Event, JsonObject


@dataclass(frozen=True)
class Keyword:
    """An on-table ability every creature with the keyword offers, under its
    name: its ``effect`` (from the creature's stats), whether the creature is
    ``ready`` to use it now, and its mark."""

    effect: Callable[[Stats], effects.Effect]
    ready: Callable[[Unit], bool]
    mark: str = "action"


#: the keyword abilities a player uses (``card_schema`` keeps their names
#: from activated abilities)
KEYWORDS: dict[str, Keyword] = {
    # KOZ-40 Regeneration X: restores X life, when the creature has damage to heal
    "regeneration": Keyword(lambda s: {"kind": "heal", "target": "self",
                                       "amount": s.regeneration},
                            lambda unit: unit["damage"] > 0),
    # KOZ-41 Shadow: the creature hides face down
    "shadow": Keyword(lambda s: {"kind": "hide", "target": "self"},
                      lambda unit: not unit["shadow"]),
}


#: an ability's mark: ``free`` (no action spent, usable in a response window) or ``action``
MARKS = ("free", "action")
#: the marks of the keyword abilities (a creature's stats are needed only for these)
KEYWORD_MARKS = frozenset(kw.mark for kw in KEYWORDS.values())


def offered(state: KozyabloState, cat: Catalogue, source: str,
            marks: Collection[str] = MARKS) -> list[tuple[str, str, effects.Effect]]:
    """``[(key, mark, effect)]`` of a source: its keyword abilities, then its activated
    ones; only those with one of ``marks`` (default: all)."""
    f = cat.faces[face(source)]
    out: list[tuple[str, str, effects.Effect]] = []
    if source in state["units"] and not KEYWORD_MARKS.isdisjoint(marks):
        s = unit_stats(state, cat, source)
        out += [(key, kw.mark, kw.effect(s)) for key, kw in KEYWORDS.items()
                if key in s.abilities and kw.mark in marks]
    for a in f.activated:
        if a["mark"] in marks:
            out.append((a["name"], a["mark"], a["effect"]))
    return out


def per_turn(cat: Catalogue, source: str, key: str) -> int | None:
    """How many times a turn ``source``'s free ability ``key`` may be used (None: no
    limit); a keyword ability: once.

    >>> import card_db
    >>> per_turn(Catalogue.of(card_db.get("kozyablo")), "0.pz_watchtower", "volley")
    1
    """
    for a in cat.faces[face(source)].activated:
        if a["name"] == key:
            limit: int | None = a.get("per_turn", 1)
            return limit
    return 1


def spent(state: KozyabloState, cat: Catalogue, source: str, key: str) -> bool:
    """Whether the free ability ``key`` of ``source`` was used as often as its card
    allows this turn."""
    limit = per_turn(cat, source, key)
    return limit is not None and state["used"].count(f"{source}:{key}") >= limit


def mark(state: KozyabloState, cat: Catalogue, action: ActionObject) -> str:
    """``"free"`` or ``"action"``: the mark of the ability a ``use_ability`` names."""
    return next(m for k, m, _ in offered(state, cat, action["source"]) if k == action["ability"])


def sector_of(state: KozyabloState, source: str) -> str:
    d = state["units"].get(source) or state["buildings"][source]
    return d["sector"]


def uses(state: KozyabloState, cat: Catalogue, seat: int, marks: tuple[str, ...]) -> list[JsonObject]:
    """Every legal ``use_ability`` action of ``seat`` with one of ``marks``."""
    by_mark = uses_by_mark(state, cat, seat, marks)
    return by_mark[marks[0]] if len(marks) == 1 else [u for m in marks for u in by_mark[m]]


def uses_by_mark(state: KozyabloState, cat: Catalogue, seat: int,
                 marks: tuple[str, ...] = MARKS) -> dict[str, list[JsonObject]]:
    """``uses`` for each of ``marks`` at once (one pass over ``seat``'s sources)."""
    out: dict[str, list[JsonObject]] = {m: [] for m in marks}
    for mark, action in _uses(state, cat, seat, marks):
        out[mark].append(action)
    return out


def can_use(state: KozyabloState, cat: Catalogue, seat: int, marks: tuple[str, ...]) -> bool:
    """Whether ``seat`` has a legal use with one of ``marks`` (the first one found ends it)."""
    return next(_uses(state, cat, seat, marks), None) is not None


def _uses(state: KozyabloState, cat: Catalogue, seat: int,
          marks: tuple[str, ...]) -> Iterator[tuple[str, JsonObject]]:
    """``(mark, use_ability action)`` of ``seat``, source by source."""
    keywords = not KEYWORD_MARKS.isdisjoint(marks)  # a creature may have them by its stats
    for pool, creatures in ((state["units"], keywords), (state["buildings"], False)):
        for source, d in pool.items():
            # skipped: a source that ``offered`` nothing with these marks
            if d["owner"] != seat or (cat.faces[face(source)].marks.isdisjoint(marks) and (
                    not creatures
                    or unit_stats(state, cat, source).abilities.isdisjoint(KEYWORDS))):
                continue
            for key, mark, effect in offered(state, cat, source, marks):
                if mark == "free" and spent(state, cat, source, key):
                    continue
                for choice in _choices(state, cat, seat, source, key, effect):
                    yield mark, {"type": "use_ability", "player": seat, "source": source,
                                 "ability": key, **choice}


def _choices(state: KozyabloState, cat: Catalogue, seat: int, source: str, key: str,
             effect: effects.Effect) -> list[JsonObject]:
    keyword = KEYWORDS.get(key)
    if keyword is not None and not keyword.ready(state["units"][source]):
        return []
    return effects.choices(state, cat, seat, effect, from_magic=False,
                           sector=sector_of(state, source), source=source)


def legal_use(state: KozyabloState, cat: Catalogue, action: ActionObject,
              marks: tuple[str, ...]) -> tuple[str, JsonObject]:
    """``(mark, effect)`` of a legal use, or raise ``ValueError(reason)``."""
    source = action["source"]
    seat = action["player"]
    d = state["units"].get(source) or state["buildings"].get(source)
    if d is None or d["owner"] != seat:
        raise ValueError(N_("{source!r} is not a creature or building of yours on the table",
                            source=source))
    found = {k: (m, e) for k, m, e in offered(state, cat, source)}
    if action["ability"] not in found:
        raise ValueError(N_("{source} has no ability {ability!r}; it has: {items}", source=source,
                            ability=action["ability"], items=joined(found) or N_("none")))
    mark, effect = found[action["ability"]]
    if mark not in marks:
        raise ValueError(N_("that is an action ability; only {items} abilities may be used now",
                            items=either(marks)) if mark == "action" else
                         N_("that is a free ability; only {items} abilities may be used now",
                            items=either(marks)))
    if mark == "free" and spent(state, cat, source, action["ability"]):
        raise ValueError(N_("that free ability was already used this turn as often as its "
                            "card allows ({limit})",
                            limit=per_turn(cat, source, action["ability"])))
    if "squad" in action:
        raise ValueError(N_("an ability reaches its own sector: it takes no `squad`"))
    choice = {k: action[k] for k in ("target", "sector") if k in action}
    if choice not in _choices(state, cat, seat, source, action["ability"], effect):
        raise ValueError(N_("not a legal target for that ability now (abilities reach only their "
                            "own sector; nothing in the shadow can be chosen)"))
    return mark, effect


def use(draft: Draft[KozyabloState], cat: Catalogue, action: ActionObject, events: list[Event]) -> bool:
    """Carry out a use (checked); False when its damage waits for a Defender (KOZ-45)."""
    root = draft.root
    source, key, seat = action["source"], action["ability"], action["player"]
    found = {k: (m, e) for k, m, e in offered(root, cat, source)}
    mark, effect = found[key]
    if mark == "free" and per_turn(cat, source, key) is not None:
        draft.at("used").append(f"{source}:{key}")
    events.append({"type": "ability_used", "source": source, "ability": key, "mark": mark})
    if source in root["units"] and root["units"][source]["shadow"]:
        effects.reveal(draft, [source], events, "KOZ-41")
    choice = {k: action[k] for k in ("target", "sector") if k in action}
    return effects.apply(draft, cat, seat, effect, choice, events, from_magic=False,
                         sector=sector_of(root, source), source=source)
