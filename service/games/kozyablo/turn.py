"""The turn: start, main and end phases (KOZ-14 … KOZ-16a), capture and the turn limit.

Main phase (KOZ-15): exactly one *action* — ``play_card``, ``draw``, ``move``,
``attack``, ``use_ability`` with an action-marked ability, or ``skip`` — plus
any number of free abilities before it (each as often a turn as its card's
``per_turn`` allows, ``abilities``).

Response window (KOZ-16): once an action is declared, each other player in
turn order after the active one (RULING KOZ-52; with two players, the
opponent) who has a free ability they can use (or every one, with option
``response_window: always``) gets the window in turn: ``phase`` is
``response``, ``responder`` that player, who may use free abilities or
``pass``; then the next one; then the action is carried out.  If it
became illegal meanwhile (its target died, …), it fizzles: the turn's action
is spent and nothing else happens (a card stays in hand).

Garrison (KOZ-16a): while the player's capital holds more of their creatures
than its Garrison and no opposing cards, their action must be a move out of
it that restores the limit.

``Time-N`` magic (KOZ-18) lasts N whole turns (either player's) after the
turn it is played in; it is discarded at the end of the N-th.  ``turn`` counts
player turns: the first player's first turn is turn 1.
"""

from __future__ import annotations

from collections.abc import Callable

from service.games.base import Enforce
from service.games.draft import Draft
from service.games.errors import RuleViolation
from service.games.kozyablo import abilities, combat, effect_damage, effects
from service.games.kozyablo.cards import Catalogue, face
from service.games.kozyablo.damage import capital_fell, knock_out, sweep
from service.games.kozyablo.sectors import capital_id, is_out, seats_after, update_control
from service.games.kozyablo.state import active, waiting_effect
from service.games.kozyablo.state_types import KozyabloState, Trigger
from service.games.objects import ActionObject, Event, JsonObject

#: ``carry(draft, cat, action, events)``: do a main action; True when the turn ends now
#: (False: a combat or an effect's Defender decision goes on)
Carry = Callable[[Draft[KozyabloState], Catalogue, ActionObject, list[Event]], bool]


# ------------------------------------------------------------ the response window
def can_respond(state: KozyabloState, cat: Catalogue, seat: int) -> bool:
    """Whether ``seat`` gets (or keeps) the response window (option ``response_window``)."""
    if state["options"]["response_window"] == "always":
        return True
    return abilities.can_use(state, cat, seat, ("free",))


def declare(draft: Draft[KozyabloState], action: ActionObject, events: list[Event]) -> None:
    """A main action is declared (KOZ-16): it opens the first response window,
    or, with nobody to respond, is due at once (``Kozyablo.after_action``
    carries a due action out)."""
    root = draft.root
    root["declared"] = action
    first = next_responder(root, Catalogue.of_state(root), None)
    if first is not None:
        root["responder"] = first
        root["phase"] = "response"
        events.append({"type": "action_declared", "action": action, "rule": "KOZ-16"})


def use_free(draft: Draft[KozyabloState], cat: Catalogue, action: ActionObject, events: list[Event]) -> None:
    """A free ability, used at once in the main phase or in a response window
    (KOZ-16); the window stays open while its user may still respond."""
    root = draft.root
    done = abilities.use(draft, cat, action, events)
    settle(draft, cat, events)
    if root["phase"] == "main":
        if not done:
            pause(draft, "main")
        return
    if not done:
        pause(draft, "response")
    elif root["result"] is None and not can_respond(root, cat, action["player"]):
        window_over(draft, cat, action["player"], events)


def pass_window(draft: Draft[KozyabloState], action: ActionObject, events: list[Event]) -> None:
    """``pass``: the responder lets the declared action be carried out (KOZ-16)."""
    events.append({"type": "passed", "player": action["player"], "rule": "KOZ-16"})
    window_over(draft, Catalogue.of_state(draft.root), action["player"], events)


def next_responder(state: KozyabloState, cat: Catalogue, after: int | None) -> int | None:
    """RULING KOZ-52: the next player in turn order after the active one (after
    ``after``, the one whose window just closed) who gets a response window."""
    seats = seats_after(state, active(state))
    if after is not None:
        seats = seats[seats.index(after) + 1:]
    return next((s for s in seats if can_respond(state, cat, s)), None)


def window_over(draft: Draft[KozyabloState], cat: Catalogue, responder: int, events: list[Event]) -> None:
    """``responder``'s window is over: the next player's opens, or the action is due."""
    root = draft.root
    following = next_responder(root, cat, responder)
    if following is not None:
        root["responder"] = following
        return
    close_window(draft, responder, events)


def close_window(draft: Draft[KozyabloState], responder: int, events: list[Event]) -> None:
    """The response window closes: the declared action is due (KOZ-16)."""
    root = draft.root
    declared = root["declared"]
    assert declared is not None, "a declared action waits"
    root["responder"] = None
    if "units" in declared:  # movers killed in the window simply do not go
        alive = [u for u in declared["units"] if u in root["units"]]
        if alive and alive != declared["units"]:
            root["declared"] = {**declared, "units": alive}
    root["phase"] = "main"
    events.append({"type": "window_closed", "player": responder, "rule": "KOZ-16"})


def carry_out(draft: Draft[KozyabloState], cat: Catalogue, action: ActionObject, events: list[Event],
              enforce: Enforce[KozyabloState] | None, carry: Carry) -> None:
    """Do the due main action, unless it became illegal meanwhile (it fizzles:
    ``enforce``, none when nothing happened since it was declared); the turn ends
    unless a combat or an effect's Defender decision goes on."""
    try:
        if enforce is not None:
            enforce(draft.root, action)
    except RuleViolation as exc:
        events.append({"type": "action_fizzled", "action": action, "rule": exc.rule,
                       "reason": exc.reason})
        end_turn(draft, cat, events)
        return
    if carry(draft, cat, action, events):
        settle(draft, cat, events)
        end_turn(draft, cat, events)


def effect_done(draft: Draft[KozyabloState], cat: Catalogue, done: bool, events: list[Event]) -> bool:
    """A card played or an ability used as the action: True when it is done;
    otherwise its damage waits for a Defender and the turn ends after (KOZ-45)."""
    if not done:
        settle(draft, cat, events)
        pause(draft, "end_turn")
    return done


def after_combat(draft: Draft[KozyabloState], cat: Catalogue, events: list[Event]) -> None:
    """A combat decision was made: run on; end the turn when the fight is over."""
    if combat.step(draft, cat, events):
        settle(draft, cat, events)
        end_turn(draft, cat, events)
    else:
        settle(draft, cat, events)


def settle(draft: Draft[KozyabloState], cat: Catalogue, events: list[Event]) -> None:
    """After every change: deaths, squad magic without its squad (KOZ-18a), Scout
    reveals, sector control."""
    sweep(draft, cat, events)
    effects.squad_magic_left(draft, events)
    effects.scout_reveals(draft, cat, events)
    update_control(draft, events)


def pause(draft: Draft[KozyabloState], then: str, triggers: list[JsonObject] | None = None) -> None:
    """An effect's damage waits for a Defender decision (KOZ-45, ``effect_damage``);
    ``then`` (and the ``triggers`` still to fire) say how the turn goes on."""
    root = draft.root
    pending = draft.at("effect")
    pending["then"] = then
    if triggers is not None:
        pending["triggers"] = triggers
    root["phase"] = "effect"


def resume_effect(draft: Draft[KozyabloState], cat: Catalogue, events: list[Event]) -> None:
    """After a ``defend``/``decline`` on an effect's damage: land the rest, then go on."""
    root = draft.root
    pending = waiting_effect(root)
    then, todo = pending["then"], pending.get("triggers")
    done = effect_damage.run(draft, cat, events)
    settle(draft, cat, events)
    if not done:
        return
    root["phase"] = {"response": "response", "start": "start", "end": "end"}.get(then, "main")
    if root["result"] is not None:
        return
    if then == "response":
        responder = root["responder"]
        assert responder is not None, "the window is open"
        if not can_respond(root, cat, responder):
            window_over(draft, cat, responder, events)
    elif then == "end_turn" or (then == "main" and is_out(root, active(root))):
        end_turn(draft, cat, events)
    elif then == "start":
        if _triggers(draft, cat, active(root), "start", events, todo):
            _main_begins(draft, cat, events)
    elif then == "end":
        if _triggers(draft, cat, active(root), "end", events, todo):
            _turn_over(draft, cat, events)


def _triggers(draft: Draft[KozyabloState], cat: Catalogue, seat: int, when: str, events: list[Event],
              todo: list[Trigger] | None = None) -> bool:
    """KOZ-14: 'at the start/end of turn' texts of ``seat``'s cards on the table.

    They fire in source-id order (creatures, then buildings).  False when one
    waits for a Defender decision; ``todo`` then lists those still to fire.
    """
    root = draft.root
    if todo is None:
        hot = cat.triggered[when]
        sources = sorted([u for u, d in root["units"].items()
                          if d["owner"] == seat and face(u) in hot]) + sorted(
            [b for b, d in root["buildings"].items() if d["owner"] == seat and face(b) in hot])
        if not sources:
            return True
        todo = [{"source": src, "index": i} for src in sources
                for i, trig in enumerate(cat.faces[face(src)].triggers) if trig["when"] == when]
    for n, item in enumerate(todo):
        src = item["source"]
        if root["result"] is not None:
            break
        live = root["units"].get(src) or root["buildings"].get(src)
        if live is None:
            continue
        effect = cat.faces[face(src)].triggers[item["index"]]["effect"]
        if not effects.choices(root, cat, seat, effect, from_magic=False,
                               sector=live["sector"], source=src):
            continue
        events.append({"type": "trigger", "source": src, "when": when, "rule": "KOZ-14"})
        done = effects.apply(draft, cat, seat, effect, {}, events, from_magic=False,
                             sector=live["sector"], source=src)
        settle(draft, cat, events)
        if not done:
            pause(draft, when, [dict(t) for t in todo[n + 1:]])
            return False
    return True


def end_turn(draft: Draft[KozyabloState], cat: Catalogue, events: list[Event]) -> None:
    """End phase, then the next player's turn."""
    root = draft.root
    if root["result"] is not None:
        return
    root["phase"] = "end"
    if _triggers(draft, cat, active(root), "end", events):
        _turn_over(draft, cat, events)


def _turn_over(draft: Draft[KozyabloState], cat: Catalogue, events: list[Event]) -> None:
    """The end phase after its triggers: Time-N magic runs out (KOZ-18), next turn.
    RULING KOZ-18b: every player's turn counts, from the one after the cast.
    Only magic running out changes what ``settle`` reads: every step before this one
    (the action, each end trigger) settled after itself."""
    root = draft.root
    if root["result"] is not None:  # an end trigger won the game (KOZ-47): no turn follows
        return
    seat = root["active"]
    ended = False
    for mid, m in list(root["lasting"].items()):
        if m["turns_left"] is not None and m["cast_turn"] < root["turn"]:
            left = m["turns_left"] - 1
            if left <= 0:
                draft.at("lasting").pop(mid)
                draft.at("players", m["owner"], "discard").append(mid)
                events.append({"type": "magic_ended", "card": mid, "why": "time",
                               "rule": "KOZ-18"})
                ended = True
            else:
                draft.at("lasting", mid)["turns_left"] = left
    if ended:
        settle(draft, cat, events)
    events.append({"type": "turn_ended", "player": seat, "turn": root["turn"]})
    start_turn(draft, cat, events)


def start_turn(draft: Draft[KozyabloState], cat: Catalogue, events: list[Event]) -> None:
    """Start phase of the next player in turn order (KOZ-10, KOZ-14)."""
    root = draft.root
    if root["result"] is not None:
        return
    order = root["order"]
    seat = order[0] if root["active"] is None else seats_after(root, root["active"])[0]
    limit = root["options"]["turn_limit"]
    if limit is not None and root["turn"] >= limit:
        end_by_turn_limit(root, events)
        return
    root["turn"] += 1
    root["active"] = seat
    root["used"] = []
    root["phase"] = "start"
    events.append({"type": "turn_started", "player": seat, "turn": root["turn"]})
    if _triggers(draft, cat, seat, "start", events):
        _main_begins(draft, cat, events)


def _main_begins(draft: Draft[KozyabloState], cat: Catalogue, events: list[Event]) -> None:
    """The start phase is over: the main phase, after the capture check (KOZ-48)."""
    root = draft.root
    if root["result"] is not None:
        return
    root["phase"] = "main"
    check_capture(draft, cat, active(root), events)


def check_capture(draft: Draft[KozyabloState], cat: Catalogue, seat: int, events: list[Event]) -> None:
    """KOZ-48: at the moment of ``seat``'s action a creature of theirs stands in an
    opposing capital, which holds none of its owner's creatures or defensive
    buildings: the capital is captured.  RULING KOZ-53: its owner is out (the
    last player left wins); several such capitals fall in turn order."""
    root = draft.root
    for enemy in seats_after(root, seat):
        if root["result"] is not None:
            return
        cap = capital_id(root, enemy)
        present = {d["owner"] for d in root["units"].values() if d["sector"] == cap}
        if seat not in present or enemy in present:
            continue
        if any(d["sector"] == cap and d["owner"] == enemy
               and cat.faces[face(b)].data["defensive"] for b, d in root["buildings"].items()):
            continue
        events.append(capital_fell("capital_captured", root, enemy, seat, "KOZ-48"))
        knock_out(draft, cat, enemy, "capture", events)
        if root["result"] is None:
            settle(draft, cat, events)


def end_by_turn_limit(root: KozyabloState, events: list[Event]) -> None:
    """RULING KOZ-50: the least-damaged capital wins; equal damage shares the win.
    RULING KOZ-53: only players still in can win."""
    damage = {i: p["capital_damage"] for i, p in enumerate(root["players"]) if not p["out"]}
    best = min(damage.values())
    winners = [i for i, d in damage.items() if d == best]
    root["result"] = {"finished": True, "winners": winners, "reason": "turn_limit"}
    events.append({"type": "turn_limit", "turn": root["turn"], "winners": winners,
                   "rule": "KOZ-50"})
