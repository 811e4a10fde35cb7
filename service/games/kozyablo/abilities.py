"""On-table abilities a player may use (KOZ-16, KOZ-40, KOZ-41).

Each source (a creature or building) offers abilities by key:
``"regeneration"`` (KOZ-40, action mark: restores X life), ``"shadow"``
(KOZ-41, action mark: hides the creature face down), and the ``name`` of
each ``activated`` entry of its card data (``"volley"``, ``"smite"``…).  A ``free`` ability does not
use up the turn's action and may also be used in the opponent's response
window; each source's free ability works once per turn.  Abilities reach only
their own sector (KOZ-16).
"""

from __future__ import annotations

from service.games.kozyablo import effects
from service.games.kozyablo.cards import Catalogue, face
from service.games.kozyablo.stats import unit_stats
from service.games.messages import N_, either, joined


def offered(state: dict, cat: Catalogue, source: str) -> list[tuple[str, str, dict | None]]:
    """``[(key, mark, effect)]`` of a source; effect None for Shadow."""
    f = cat.faces[face(source)]
    out: list[tuple[str, str, dict | None]] = []
    unit = state["units"].get(source)
    if unit is not None:
        s = unit_stats(state, cat, source)
        if "regeneration" in s.abilities:
            out.append(("regeneration", "action", {"kind": "heal", "target": "self",
                                                   "amount": s.regeneration}))
        if "shadow" in s.abilities:
            out.append(("shadow", "action", None))
    for a in f.activated:
        out.append((a["name"], a["mark"], a["effect"]))
    return out


def mark(state: dict, cat: Catalogue, action: dict) -> str:
    """``"free"`` or ``"action"``: the mark of the ability a ``use_ability`` names."""
    return next(m for k, m, _ in offered(state, cat, action["source"]) if k == action["ability"])


def sector_of(state: dict, source: str) -> str:
    d = state["units"].get(source) or state["buildings"][source]
    return d["sector"]


def uses(state: dict, cat: Catalogue, seat: int, marks: tuple[str, ...]) -> list[dict]:
    """Every legal ``use_ability`` action of ``seat`` with one of ``marks``."""
    out = []
    used = state["used"]
    for pool in (state["units"], state["buildings"]):
        for source, d in pool.items():
            if d["owner"] != seat:
                continue
            for key, mark, effect in offered(state, cat, source):
                if mark not in marks or (mark == "free" and f"{source}:{key}" in used):
                    continue
                for choice in _choices(state, cat, seat, source, key, effect):
                    out.append({"type": "use_ability", "player": seat, "source": source,
                                "ability": key, **choice})
    return out


def _choices(state, cat, seat, source, key, effect) -> list[dict]:
    if key == "shadow":
        return [] if state["units"][source]["shadow"] else [{}]
    if key == "regeneration" and state["units"][source]["damage"] == 0:
        return []
    return effects.choices(state, cat, seat, effect, from_magic=False,
                           sector=sector_of(state, source), source=source)


def check(state: dict, cat: Catalogue, action: dict, marks: tuple[str, ...]) -> tuple[str, dict]:
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
    if mark == "free" and f"{source}:{action['ability']}" in state["used"]:
        raise ValueError(N_("that free ability was already used this turn"))
    if "squad" in action:
        raise ValueError(N_("an ability reaches its own sector: it takes no `squad`"))
    choice = {k: action[k] for k in ("target", "sector") if k in action}
    if choice not in _choices(state, cat, seat, source, action["ability"], effect):
        raise ValueError(N_("not a legal target for that ability now (abilities reach only their "
                            "own sector; nothing in the shadow can be chosen)"))
    return mark, effect


def use(draft, cat: Catalogue, action: dict, events: list[dict]) -> bool:
    """Carry out a use (checked); False when its damage waits for a Defender (KOZ-45)."""
    root = draft.root
    source, key, seat = action["source"], action["ability"], action["player"]
    found = {k: (m, e) for k, m, e in offered(root, cat, source)}
    mark, effect = found[key]
    if mark == "free":
        draft.at("used").append(f"{source}:{key}")
    events.append({"type": "ability_used", "source": source, "ability": key, "mark": mark})
    if key == "shadow":
        effects.hide(draft, source, events)
        return True
    if source in root["units"] and root["units"][source]["shadow"]:
        effects.reveal(draft, [source], events, "KOZ-41")
    choice = {k: action[k] for k in ("target", "sector") if k in action}
    return effects.apply(draft, cat, seat, effect, choice, events, from_magic=False,
                         sector=sector_of(root, source), source=source)
