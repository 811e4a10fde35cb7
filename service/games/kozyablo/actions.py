"""Every Kozyablo action type, declared once (``ACTIONS``), and the main actions (KOZ-15).

Each ``Action`` bundles its fields, description, ``enforce``, ``resolve`` and
``legal`` lister; ``Kozyablo`` dispatches on them (``service.games.base``).
A main-phase action is a ``MainAction``: its ``resolve`` declares it (KOZ-16,
``turn.declare``), and ``carry`` does it once the response window is over
(``Kozyablo.after_action``), after its ``enforce`` again: an action that became
illegal in the window fizzles.  ``enforce`` and ``resolve`` may ask the phase
(``defend`` answers a strike in combat and an effect's damage alike), never
the type.

Garrison (KOZ-16a): while a player's capital holds more of their creatures
than its Garrison, their action must be a move out of it; free abilities
stay open.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from service.games import shape as s
from service.games.base import Action
from service.games.draft import Draft
from service.games.errors import RuleViolation
from service.games.kozyablo import abilities, combat, effect_damage, play, setup, turn
from service.games.kozyablo.cards import Catalogue
from service.games.kozyablo.sectors import (
    capital_id,
    capitals,
    garrison_excess,
    garrison_room,
    garrison_space,
    has_opposing_cards,
    is_capital,
    over_garrison,
    units_in,
)
from service.games.kozyablo.shapes import CHOICE, ID, SEAT
from service.games.kozyablo.state_types import KozyabloState
from service.games.messages import N_, joined
from service.games.objects import ActionObject, Entry, Event, JsonObject


@dataclass(frozen=True, kw_only=True)
class MainAction(Action[KozyabloState]):
    """A main-phase action (KOZ-15): declared, then carried out by ``carry``."""

    carry: turn.Carry


# ------------------------------------------------------------ main actions: listing
def moves(state: KozyabloState, cat: Catalogue, seat: int, space: int | None) -> list[JsonObject]:
    """Moves listed: each squad whole, and each creature of it alone; ``space`` is
    ``seat``'s ``garrison_space`` (the listing has it already, ``Kozyablo.actions_for``).

    Any other non-empty part of a squad is legal too (see ``constraints``).
    """
    must = garrison_excess(space)
    cap = capital_id(state, seat)
    squads: dict[str, list[str]] = {}
    for u, d in state["units"].items():
        if d["owner"] == seat:
            squads.setdefault(d["sector"], []).append(u)
    sectors = sorted(state["sectors"])
    in_play = capitals(state)
    out: list[JsonObject] = []
    for src in sorted(squads):
        if must and src != cap:
            continue
        squad = sorted(squads[src])
        parts = [p for p in [squad] + ([[u] for u in squad] if len(squad) > 1 else [])
                 if len(p) >= must]
        into_capital = parts if space is None else [p for p in parts if len(p) <= space]
        barred = in_play if src in in_play else ()  # KOZ-16a: no capital to capital
        out += [{"type": "move", "player": seat, "from": src, "to": dst, "units": part}
                for dst in sectors if dst != src and dst not in barred
                for part in (into_capital if dst == cap else parts)]
    return out


def attack_sectors(state: KozyabloState, seat: int) -> list[str]:
    """KOZ-24: sectors where ``seat`` has creatures and the enemy something to strike."""
    units = state["units"].values()
    mine = {d["sector"] for d in units if d["owner"] == seat}
    struck = {d["sector"] for d in units if d["owner"] != seat and not d["shadow"]}
    struck.update(d["sector"] for d in state["buildings"].values() if d["owner"] != seat)
    return [sid for sid in sorted(mine) if sid in struck
            or (state["sectors"][sid]["owner"] != seat and is_capital(state, sid))]


# The main phase's listers leave two rules of the whole decision to
# ``Kozyablo.actions_for``: the free abilities open it (KOZ-15), and while the
# garrison must move (KOZ-16a) only moves are listed (each ``enforce`` refuses the rest).
def _list_plays(state: KozyabloState, entry: Entry) -> list[JsonObject]:
    return play.options(state, Catalogue.of_state(state), entry["player"])


def _list_draw(state: KozyabloState, entry: Entry) -> list[JsonObject]:
    seat = entry["player"]
    return [{"type": "draw", "player": seat}] if setup.deck_left(state, seat) > 0 else []


def _list_moves(state: KozyabloState, entry: Entry) -> list[JsonObject]:
    cat = Catalogue.of_state(state)
    return moves(state, cat, entry["player"], garrison_space(state, cat, entry["player"]))


def _list_attacks(state: KozyabloState, entry: Entry) -> list[JsonObject]:
    seat = entry["player"]
    return [{"type": "attack", "player": seat, "sector": sid}
            for sid in attack_sectors(state, seat)]


def _list_uses(state: KozyabloState, entry: Entry) -> list[JsonObject]:
    """The free abilities of a response window; the action abilities of the main
    phase (its free ones open the whole listing, ``Kozyablo.actions_for``)."""
    marks = ("action",) if state["phase"] == "main" else ("free",)
    return abilities.uses(state, Catalogue.of_state(state), entry["player"], marks)


def _list_skip(state: KozyabloState, entry: Entry) -> list[JsonObject]:
    return [{"type": "skip", "player": entry["player"]}]


# ------------------------------------------------------------ main actions: checking
def _garrison_first(state: KozyabloState, seat: int) -> None:
    """KOZ-16a: an action other than a move waits until the garrison is restored."""
    must = over_garrison(state, Catalogue.of_state(state), seat)
    if must:
        raise RuleViolation("KOZ-16a", N_("your capital holds {must} creature(s) more than its "
                                          "garrison: your action must move them out", must=must))


def _check_play(state: KozyabloState, action: ActionObject) -> None:
    _garrison_first(state, action["player"])
    play.enforce(state, Catalogue.of_state(state), action)


def _check_draw(state: KozyabloState, action: ActionObject) -> None:
    _garrison_first(state, action["player"])
    if setup.deck_left(state, action["player"]) <= 0:
        raise RuleViolation("KOZ-50", N_("your deck is empty: drawing is not a legal action"))


def check_move(state: KozyabloState, action: ActionObject) -> None:
    """KOZ-15/KOZ-16a: the creatures move together from one sector to another."""
    seat, src, dst, units = action["player"], action["from"], action["to"], action["units"]
    cat = Catalogue.of_state(state)
    for sid in (src, dst):
        if sid not in state["sectors"]:
            raise RuleViolation("KOZ-15", N_("no sector {s!r} on the table", s=sid))
    if not units or len(set(units)) != len(units):
        raise RuleViolation("KOZ-15", N_("move one or more different creatures"))
    for u in units:
        d = state["units"].get(u)
        if d is None or d["owner"] != seat or d["sector"] != src:
            raise RuleViolation("KOZ-15", N_("{u!r} is not a creature of yours in {src}",
                                             u=u, src=src))
    if src == dst:
        raise RuleViolation("KOZ-15", N_("a move goes to another sector"))
    if is_capital(state, src) and is_capital(state, dst):
        raise RuleViolation("KOZ-16a", N_("no direct move from one capital to another"))
    cap = capital_id(state, seat)
    must = over_garrison(state, cat, seat)
    if must and (src != cap or len(units) < must):
        raise RuleViolation("KOZ-16a", N_("move at least {must} creature(s) out of your capital "
                                          "to restore its garrison limit", must=must))
    if dst == cap and not garrison_room(state, cat, seat, len(units)):
        raise RuleViolation("KOZ-16a", N_("that would put more creatures in your capital than "
                                          "its garrison allows"))


def _check_attack(state: KozyabloState, action: ActionObject) -> None:
    _garrison_first(state, action["player"])
    if action["sector"] not in attack_sectors(state, action["player"]):
        raise RuleViolation("KOZ-24", N_("an attack needs creatures of yours and something "
                                         "of the enemy's to strike in that sector"))


def _check_use(state: KozyabloState, action: ActionObject) -> None:
    """A free ability in the main phase or a response window (KOZ-16); an action
    ability in the main phase, as its action (KOZ-15, KOZ-16a)."""
    main = state["phase"] == "main"
    try:
        mark, _ = abilities.legal_use(state, Catalogue.of_state(state), action,
                                  ("free", "action") if main else ("free",))
    except ValueError as exc:
        raise RuleViolation("KOZ-16", exc.args[0]) from None
    if mark == "action":
        _garrison_first(state, action["player"])


def _check_skip(state: KozyabloState, action: ActionObject) -> None:
    _garrison_first(state, action["player"])


# ------------------------------------------------------------ main actions: doing
def _use(draft: Draft[KozyabloState], action: ActionObject, events: list[Event]) -> None:
    """A free ability is used at once; an action ability is declared (KOZ-16)."""
    root = draft.root
    cat = Catalogue.of_state(root)
    if root["phase"] == "response" or abilities.mark(root, cat, action) == "free":
        turn.use_free(draft, cat, action, events)
    else:
        turn.declare(draft, action, events)


def _carry_play(draft: Draft[KozyabloState], cat: Catalogue, action: ActionObject, events: list[Event]) -> bool:
    return turn.effect_done(draft, cat, play.play(draft, cat, action, events), events)


def _carry_use(draft: Draft[KozyabloState], cat: Catalogue, action: ActionObject, events: list[Event]) -> bool:
    return turn.effect_done(draft, cat, abilities.use(draft, cat, action, events), events)


def _carry_draw(draft: Draft[KozyabloState], cat: Catalogue, action: ActionObject, events: list[Event]) -> bool:
    draft.at("queue").append({"seat": action["player"], "to": "hand"})
    events.append({"type": "draw", "player": action["player"]})
    return True


def _carry_move(draft: Draft[KozyabloState], cat: Catalogue, action: ActionObject, events: list[Event]) -> bool:
    """The creatures go; leaving a sector with opposing cards draws a retreat attack (KOZ-16a)."""
    root = draft.root
    seat, src, dst, units = action["player"], action["from"], action["to"], action["units"]
    leaving_all = len(units) == len(units_in(root, src, seat))
    if leaving_all and has_opposing_cards(root, src, seat) and \
            combat.start_retreat(draft, cat, seat, src, dst, units, events):
        turn.after_combat(draft, cat, events)
        return False
    for u in units:
        draft.at("units", u)["sector"] = dst
    events.append({"type": "moved", "units": list(units), "from": src, "to": dst})
    return True


def _carry_attack(draft: Draft[KozyabloState], cat: Catalogue, action: ActionObject, events: list[Event]) -> bool:
    combat.start(draft, cat, action["player"], action["sector"], events)
    turn.after_combat(draft, cat, events)
    return False


def _carry_skip(draft: Draft[KozyabloState], cat: Catalogue, action: ActionObject, events: list[Event]) -> bool:
    events.append({"type": "skipped", "player": action["player"]})
    return True


# ------------------------------------------------------------ the other decisions
def _list_keep(state: KozyabloState, entry: Entry) -> list[JsonObject]:
    return [{"type": "keep", "player": entry["player"]}]


def _keep(draft: Draft[KozyabloState], action: ActionObject, events: list[Event]) -> None:
    draft.at("players", action["player"])["ready"] = True
    events.append({"type": "kept", "player": action["player"]})


def _list_pass(state: KozyabloState, entry: Entry) -> list[JsonObject]:
    return [{"type": "pass", "player": entry["player"]}]


def _strike(draft: Draft[KozyabloState], action: ActionObject, events: list[Event]) -> None:
    cat = Catalogue.of_state(draft.root)
    combat.strike(draft, cat, action["unit"], action["targets"], events)
    turn.after_combat(draft, cat, events)


def _check_evade(state: KozyabloState, action: ActionObject) -> None:
    _one_of("KOZ-46", action["card"], _offer(state)["options"])


def _list_evade(state: KozyabloState, entry: Entry) -> list[JsonObject]:
    return [{"type": "evade", "player": entry["player"], "card": c}
            for c in _offer(state)["options"]]


def _evade(draft: Draft[KozyabloState], action: ActionObject, events: list[Event]) -> None:
    cat = Catalogue.of_state(draft.root)
    combat.evade(draft, cat, action["card"], events)
    turn.after_combat(draft, cat, events)


def _offer(state: KozyabloState) -> JsonObject:
    """The reaction offered now: to an effect's damage, or in a combat (KOZ-45, KOZ-46)."""
    cat = Catalogue.of_state(state)
    offer = effect_damage.reaction(state, cat) if state["phase"] == "effect" \
        else combat.reaction(state, cat)
    assert offer is not None, "a reaction is pending"
    return offer


def _one_of(rule: str, choice: str, options: list[str]) -> None:
    if choice not in options:
        raise RuleViolation(rule, N_("{choice!r} is not one of: {items}",
                                     choice=choice, items=joined(options)))


def _check_defend(state: KozyabloState, action: ActionObject) -> None:
    _one_of("KOZ-45", action["unit"], _offer(state)["options"])


def _list_defend(state: KozyabloState, entry: Entry) -> list[JsonObject]:
    return [{"type": "defend", "player": entry["player"], "unit": u}
            for u in _offer(state)["options"]]


def _defend(draft: Draft[KozyabloState], action: ActionObject, events: list[Event]) -> None:
    """KOZ-45: a Defender takes the effect's damage, or the strike, instead."""
    cat = Catalogue.of_state(draft.root)
    if draft.root["phase"] == "effect":
        effect_damage.defend(draft, cat, action["unit"], events)
        turn.resume_effect(draft, cat, events)
    else:
        combat.defend(draft, cat, action["unit"], events)
        turn.after_combat(draft, cat, events)


def _list_decline(state: KozyabloState, entry: Entry) -> list[JsonObject]:
    return [{"type": "decline", "player": entry["player"]}]


def _decline(draft: Draft[KozyabloState], action: ActionObject, events: list[Event]) -> None:
    cat = Catalogue.of_state(draft.root)
    if draft.root["phase"] == "effect":
        effect_damage.decline(draft, cat, events)
        turn.resume_effect(draft, cat, events)
    else:
        combat.decline(draft, cat, events)
        turn.after_combat(draft, cat, events)


def _list_strikes(state: KozyabloState, entry: Entry) -> Iterable[JsonObject]:
    cat = Catalogue.of_state(state)
    _, group = combat.candidates(state, cat)
    return [{"type": "strike", "player": entry["player"], "unit": u, "targets": ts}
            for u in group for ts in combat.strike_options(state, cat, u)]


def _check_strike(state: KozyabloState, action: ActionObject) -> None:
    combat.check_strike(state, Catalogue.of_state(state), action)


def _list_holds(state: KozyabloState, entry: Entry) -> Iterable[JsonObject]:
    """RULING KOZ-25a: each creature or building whose turn it is may hold its strike."""
    _, group = combat.candidates(state, Catalogue.of_state(state))
    return [{"type": "hold", "player": entry["player"], "unit": u} for u in group]


def _check_hold(state: KozyabloState, action: ActionObject) -> None:
    combat.check_hold(state, Catalogue.of_state(state), action)


def _hold(draft: Draft[KozyabloState], action: ActionObject, events: list[Event]) -> None:
    cat = Catalogue.of_state(draft.root)
    combat.hold(draft, cat, action["unit"], events)
    turn.after_combat(draft, cat, events)


#: the main actions (KOZ-15), in the order the ``action`` decision lists them
MAIN: dict[str, MainAction] = {
    "play_card": MainAction(
        "Play a card from hand (KOZ-17 … KOZ-23): `sector` for a creature, `target` for an "
        "artifact, the effect's choice for magic/events.", {"card": ID}, optional=CHOICE,
        enforce=_check_play, resolve=turn.declare, legal=_list_plays,
        carry=_carry_play),
    "draw": MainAction("Draw the top card of your deck (KOZ-15).", {},
                       enforce=_check_draw, resolve=turn.declare, legal=_list_draw,
                       carry=_carry_draw),
    "move": MainAction(
        "Move creatures from one sector to another (KOZ-15, KOZ-16a).",
        {"from": ID, "to": ID, "units": s.ListOf(ID, min_items=1, max_items=30)},
        enforce=check_move, resolve=turn.declare, legal=_list_moves, carry=_carry_move),
    "attack": MainAction("Declare an attack in a sector (KOZ-24).", {"sector": ID},
                         enforce=_check_attack, resolve=turn.declare,
                         legal=_list_attacks,
                         carry=_carry_attack),
    "use_ability": MainAction(
        "Use an on-table ability by name: 'regeneration', 'shadow' or the `name` of an "
        "activated ability in the card data (KOZ-16, KOZ-40, KOZ-41).",
        {"source": ID, "ability": s.Str(max_length=16)}, optional=CHOICE,
        enforce=_check_use, resolve=_use, legal=_list_uses, carry=_carry_use),
    "skip": MainAction("Skip the action (KOZ-15).", {}, enforce=_check_skip,
                       resolve=turn.declare, legal=_list_skip, carry=_carry_skip),
}

#: every action type (this order is the one ``describe`` shows)
ACTIONS: dict[str, Action[KozyabloState]] = {
    "lot": Action("Chance: who goes first among players of one race (KOZ-10).",
                  {"first": SEAT}, resolve=setup.resolve_lot, chance=True),
    "reveal": Action("Chance: the card face (a card id, not an instance id) that came off a "
                     "player's deck (KOZ-8, KOZ-9, draws).", {"seat": SEAT, "face": ID},
                     resolve=setup.resolve_reveal, chance=True),
    "keep": Action("Keep the hand (KOZ-9).", {}, resolve=_keep, legal=_list_keep),
    "mulligan": Action(
        "Discard the top 3 of the deck, shuffle these hand cards back, draw as many "
        "(KOZ-9, at most three times).", {"cards": s.ListOf(ID, min_items=1, max_items=6)},
        enforce=setup.check_mulligan, resolve=setup.mulligan, legal=setup.mulligans),
    "play_card": MAIN["play_card"],
    "draw": MAIN["draw"],
    "move": MAIN["move"],
    "attack": MAIN["attack"],
    "use_ability": MAIN["use_ability"],
    "skip": MAIN["skip"],
    "pass": Action("Let the declared action be carried out (KOZ-16 response window).", {},
                   resolve=turn.pass_window, legal=_list_pass),
    "strike": Action(
        "Strike with the creature whose turn it is (KOZ-25, KOZ-26; two targets for Area).",
        {"unit": ID, "targets": s.ListOf(ID, min_items=1, max_items=2)},
        enforce=_check_strike, resolve=_strike, legal=_list_strikes),
    "hold": Action(
        "Hold the strike of the creature or building whose turn it is (RULING KOZ-25a: a "
        "strike is a right, not a duty; each of Two attacks separately; public).  A creature "
        "in the shadow that holds stays hidden and is no part of the combat (RULING KOZ-41a).",
        {"unit": ID}, enforce=_check_hold, resolve=_hold, legal=_list_holds),
    "evade": Action("Evasion: discard this card, the strike misses (KOZ-46).", {"card": ID},
                    enforce=_check_evade, resolve=_evade, legal=_list_evade),
    "defend": Action("Defender: this creature takes the strike, or the effect's damage, "
                     "instead (KOZ-45, KOZ-49).", {"unit": ID},
                     enforce=_check_defend, resolve=_defend, legal=_list_defend),
    "decline": Action("No reaction to the strike or to the effect's damage (KOZ-45, KOZ-46).",
                      {}, resolve=_decline, legal=_list_decline),
}

#: pending decision kind -> the action types answering it, in listing order
DECISIONS: dict[str, tuple[str, ...]] = {
    "lot": ("lot",), "reveal": ("reveal",),
    "mulligan": ("keep", "mulligan"),
    "action": tuple(MAIN),
    "response": ("use_ability", "pass"),
    "defend": ("defend", "decline"),  # a strike (combat) or an effect's damage (KOZ-45)
    "strike": ("strike", "hold"),  # RULING KOZ-25a
    "evade": ("evade", "decline"),
}
