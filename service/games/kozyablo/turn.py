"""The turn: start, main and end phases (KOZ-14 … KOZ-16a), capture and the turn limit.

Main phase (KOZ-15): exactly one *action* — ``play_card``, ``draw``, ``move``,
``attack``, ``use_ability`` with an action-marked ability, or ``skip`` — plus
any number of free abilities (each source once per turn) before it.

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

from service.games.errors import RuleViolation
from service.games.kozyablo import abilities, combat, effect_damage, effects, play
from service.games.kozyablo.catalogue import Catalogue, face
from service.games.kozyablo.damage import knock_out, sweep
from service.games.kozyablo.sectors import (
    capital_id,
    garrison_room,
    has_opposing_cards,
    is_capital,
    is_out,
    over_garrison,
    seats_after,
    units_in,
    update_control,
)
from service.games.messages import N_

MAIN_ACTIONS = ("play_card", "draw", "move", "attack", "use_ability", "skip")


# ------------------------------------------------------------ listing
def deck_left(state: dict, seat: int) -> int:
    """Cards in the deck not already promised to a queued draw."""
    return len(state["players"][seat]["deck"]) - sum(
        1 for q in state["queue"] if q.get("seat") == seat and "to" in q)


def moves(state: dict, cat: Catalogue, seat: int) -> list[dict]:
    """Moves listed: each squad whole, and each creature of it alone.

    Any other non-empty part of a squad is legal too (see ``constraints``).
    """
    must = over_garrison(state, cat, seat)
    cap = capital_id(state, seat)
    squads: dict[str, list[str]] = {}
    for u, d in state["units"].items():
        if d["owner"] == seat:
            squads.setdefault(d["sector"], []).append(u)
    out = []
    for src in sorted(squads):
        if must and src != cap:
            continue
        squad = sorted(squads[src])
        parts = [squad] + ([[u] for u in squad] if len(squad) > 1 else [])
        for dst in sorted(state["sectors"]):
            if dst == src or (is_capital(state, src) and is_capital(state, dst)):
                continue
            for part in parts:
                if must and len(part) < must:
                    continue
                if dst == cap and not garrison_room(state, cat, seat, len(part)):
                    continue
                out.append({"type": "move", "player": seat, "from": src, "to": dst,
                            "units": part})
    return out


def attack_sectors(state: dict, seat: int) -> list[str]:
    """KOZ-24: sectors where ``seat`` has creatures and the enemy something to strike."""
    out = []
    mine = {d["sector"] for d in state["units"].values() if d["owner"] == seat}
    for s in sorted(mine):
        sec = state["sectors"][s]
        if (sec["kind"] == "capital" and sec["owner"] != seat
                and not is_out(state, sec["owner"])) or any(
                d["sector"] == s and d["owner"] != seat and not d["shadow"]
                for d in state["units"].values()) or any(
                d["sector"] == s and d["owner"] != seat for d in state["buildings"].values()):
            out.append(s)
    return out


def main_actions(state: dict, cat: Catalogue, seat: int) -> list[dict]:
    """Every main-phase action of ``seat`` (free abilities first)."""
    out = abilities.uses(state, cat, seat, ("free",))
    if over_garrison(state, cat, seat):
        return out + moves(state, cat, seat)
    out += play.options(state, cat, seat)
    if deck_left(state, seat) > 0:
        out.append({"type": "draw", "player": seat})
    out += moves(state, cat, seat)
    out += [{"type": "attack", "player": seat, "sector": s} for s in attack_sectors(state, seat)]
    out += abilities.uses(state, cat, seat, ("action",))
    out.append({"type": "skip", "player": seat})
    return out


def response_actions(state: dict, cat: Catalogue, seat: int) -> list[dict]:
    return abilities.uses(state, cat, seat, ("free",)) + [{"type": "pass", "player": seat}]


# ------------------------------------------------------------ checking
def check_main(state: dict, cat: Catalogue, action: dict) -> None:
    """Raise ``RuleViolation`` (with its clause) unless ``action`` is a legal main action."""
    kind, seat = action["type"], action["player"]
    if kind == "use_ability":
        marks = ("free", "action")
        try:
            mark, _ = abilities.check(state, cat, action, marks)
        except ValueError as exc:
            raise RuleViolation("KOZ-16", exc.args[0])
        if mark == "free" or not over_garrison(state, cat, seat):
            return
    must = over_garrison(state, cat, seat)
    if must and kind != "move":
        raise RuleViolation("KOZ-16a", N_("your capital holds {must} creature(s) more than its "
                                          "garrison: your action must move them out", must=must))
    if kind == "play_card":
        play.check(state, cat, action)
    elif kind == "draw":
        if deck_left(state, seat) <= 0:
            raise RuleViolation("KOZ-50", N_("your deck is empty: drawing is not a legal action"))
    elif kind == "move":
        check_move(state, cat, action, must)
    elif kind == "attack":
        if action["sector"] not in attack_sectors(state, seat):
            raise RuleViolation("KOZ-24", N_("an attack needs creatures of yours and something "
                                             "of the enemy's to strike in that sector"))
    elif kind != "skip":
        raise RuleViolation("KOZ-15", N_("{kind!r} is not a main-phase action", kind=kind))


def check_move(state: dict, cat: Catalogue, action: dict, must: int) -> None:
    seat, src, dst, units = action["player"], action["from"], action["to"], action["units"]
    for s in (src, dst):
        if s not in state["sectors"]:
            raise RuleViolation("KOZ-15", N_("no sector {s!r} on the table", s=s))
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
    if must and (src != cap or len(units) < must):
        raise RuleViolation("KOZ-16a", N_("move at least {must} creature(s) out of your capital "
                                          "to restore its garrison limit", must=must))
    if dst == cap and not garrison_room(state, cat, seat, len(units)):
        raise RuleViolation("KOZ-16a", N_("that would put more creatures in your capital than "
                                          "its garrison allows"))


# ------------------------------------------------------------ doing
def can_respond(state: dict, cat: Catalogue, seat: int) -> bool:
    """Whether ``seat`` gets (or keeps) the response window (option ``response_window``)."""
    if state["options"]["response_window"] == "always":
        return True
    return bool(abilities.uses(state, cat, seat, ("free",)))


def declare(draft, cat: Catalogue, action: dict, events: list[dict]) -> None:
    """A main-phase decision: free abilities at once; an action opens the window."""
    root = draft.root
    if action["type"] == "use_ability":
        mark = {k: m for k, m, _ in abilities.offered(root, cat, action["source"])}[
            action["ability"]]
        if mark == "free":
            done = abilities.use(draft, cat, action, events)
            settle(draft, cat, events)
            if not done:
                pause(draft, "main")
            return
    first = next_responder(root, cat, None)
    if first is not None:
        root["declared"] = action
        root["responder"] = first
        root["phase"] = "response"
        events.append({"type": "action_declared", "action": action, "rule": "KOZ-16"})
        return
    carry_out(draft, cat, action, events)


def next_responder(state: dict, cat: Catalogue, after: int | None) -> int | None:
    """RULING KOZ-52: the next player in turn order after the active one (after
    ``after``, the one whose window just closed) who gets a response window."""
    seats = seats_after(state, state["active"])
    if after is not None:
        seats = seats[seats.index(after) + 1:]
    return next((s for s in seats if can_respond(state, cat, s)), None)


def respond(draft, cat: Catalogue, action: dict, events: list[dict]) -> None:
    """The opponent's free ability or ``pass`` in the response window (KOZ-16)."""
    root = draft.root
    if action["type"] == "use_ability":
        done = abilities.use(draft, cat, action, events)
        settle(draft, cat, events)
        if not done:
            pause(draft, "response")
            return
        if root["result"] is not None:
            return
        if can_respond(root, cat, action["player"]):
            return
    else:
        events.append({"type": "passed", "player": action["player"], "rule": "KOZ-16"})
    window_over(draft, cat, action["player"], events)


def window_over(draft, cat: Catalogue, responder: int, events: list[dict]) -> None:
    """``responder``'s window is over: the next player's opens, or the action is done."""
    root = draft.root
    following = next_responder(root, cat, responder)
    if following is not None:
        root["responder"] = following
        return
    close_window(draft, cat, responder, events)


def close_window(draft, cat: Catalogue, responder: int, events: list[dict]) -> None:
    """The response window closes: the declared action is carried out (KOZ-16)."""
    root = draft.root
    declared = root["declared"]
    root["declared"] = None
    root["responder"] = None
    if declared["type"] == "move":  # movers killed in the window simply do not go
        alive = [u for u in declared["units"] if u in root["units"]]
        if alive and alive != declared["units"]:
            declared = {**declared, "units": alive}
    root["phase"] = "main"
    events.append({"type": "window_closed", "player": responder, "rule": "KOZ-16"})
    carry_out(draft, cat, declared, events)


def carry_out(draft, cat: Catalogue, action: dict, events: list[dict]) -> None:
    """Do the main action; the turn ends unless a combat starts."""
    root = draft.root
    try:
        check_main(root, cat, action)
    except RuleViolation as exc:
        events.append({"type": "action_fizzled", "action": action, "rule": exc.rule,
                       "reason": exc.reason})
        end_turn(draft, cat, events)
        return
    kind, seat = action["type"], action["player"]
    if kind in ("play_card", "use_ability"):
        done = (play.play if kind == "play_card" else abilities.use)(draft, cat, action, events)
        if not done:
            settle(draft, cat, events)
            pause(draft, "end_turn")
            return
    elif kind == "draw":
        draft.at("queue").append({"seat": seat, "to": "hand"})
        events.append({"type": "draw", "player": seat})
    elif kind == "move":
        src, dst, units = action["from"], action["to"], action["units"]
        leaving_all = len(units) == len(units_in(root, src, seat))
        if leaving_all and has_opposing_cards(root, src, seat) and \
                combat.start_retreat(draft, cat, seat, src, dst, units, events):
            after_combat(draft, cat, events)
            return
        for u in units:
            draft.at("units", u)["sector"] = dst
        events.append({"type": "moved", "units": list(units), "from": src, "to": dst})
    elif kind == "attack":
        combat.start(draft, cat, seat, action["sector"], events)
        after_combat(draft, cat, events)
        return
    else:
        events.append({"type": "skipped", "player": seat})
    settle(draft, cat, events)
    end_turn(draft, cat, events)


def after_combat(draft, cat: Catalogue, events: list[dict]) -> None:
    """A combat decision was made: run on; end the turn when the fight is over."""
    if combat.step(draft, cat, events):
        settle(draft, cat, events)
        end_turn(draft, cat, events)
    else:
        settle(draft, cat, events)


def settle(draft, cat: Catalogue, events: list[dict]) -> None:
    """After every change: deaths, squad magic without its squad (KOZ-18a), Scout
    reveals, sector control."""
    sweep(draft, cat, events)
    effects.squad_magic_left(draft, events)
    effects.scout_reveals(draft, cat, events)
    update_control(draft, events)


def pause(draft, then: str, triggers: list[dict] | None = None) -> None:
    """An effect's damage waits for a Defender decision (KOZ-45, ``effect_damage``);
    ``then`` (and the ``triggers`` still to fire) say how the turn goes on."""
    root = draft.root
    pending = draft.at("effect")
    pending["then"] = then
    if triggers is not None:
        pending["triggers"] = triggers
    root["phase"] = "effect"


def resume_effect(draft, cat: Catalogue, events: list[dict]) -> None:
    """After a ``defend``/``decline`` on an effect's damage: land the rest, then go on."""
    root = draft.root
    pending = root["effect"]
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
        if not can_respond(root, cat, responder):
            window_over(draft, cat, responder, events)
    elif then == "end_turn" or (then == "main" and is_out(root, root["active"])):
        end_turn(draft, cat, events)
    elif then == "start":
        if _triggers(draft, cat, root["active"], "start", events, todo):
            _main_begins(draft, cat, events)
    elif then == "end":
        if _triggers(draft, cat, root["active"], "end", events, todo):
            _turn_over(draft, cat, events)


def _triggers(draft, cat: Catalogue, seat: int, when: str, events: list[dict],
              todo: list[dict] | None = None) -> bool:
    """KOZ-14: 'at the start/end of turn' texts of ``seat``'s cards on the table.

    They fire in source-id order (creatures, then buildings).  False when one
    waits for a Defender decision; ``todo`` then lists those still to fire.
    """
    root = draft.root
    if todo is None:
        sources = sorted(u for u, d in root["units"].items() if d["owner"] == seat) + sorted(
            b for b, d in root["buildings"].items() if d["owner"] == seat)
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


def end_turn(draft, cat: Catalogue, events: list[dict]) -> None:
    """End phase, then the next player's turn."""
    root = draft.root
    if root["result"] is not None:
        return
    root["phase"] = "end"
    if _triggers(draft, cat, root["active"], "end", events):
        _turn_over(draft, cat, events)


def _turn_over(draft, cat: Catalogue, events: list[dict]) -> None:
    """The end phase after its triggers: Time-N magic runs out (KOZ-18), next turn."""
    root = draft.root
    seat = root["active"]
    for mid, m in list(root["lasting"].items()):
        if m["turns_left"] is not None and m["cast_turn"] < root["turn"]:
            left = m["turns_left"] - 1
            if left <= 0:
                draft.at("lasting").pop(mid)
                draft.at("players", m["owner"], "discard").append(mid)
                events.append({"type": "magic_ended", "card": mid, "why": "time",
                               "rule": "KOZ-18"})
            else:
                draft.at("lasting", mid)["turns_left"] = left
    settle(draft, cat, events)
    events.append({"type": "turn_ended", "player": seat, "turn": root["turn"]})
    start_turn(draft, cat, events)


def start_turn(draft, cat: Catalogue, events: list[dict]) -> None:
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


def _main_begins(draft, cat: Catalogue, events: list[dict]) -> None:
    """The start phase is over: the main phase, after the capture check (KOZ-48)."""
    root = draft.root
    if root["result"] is not None:
        return
    root["phase"] = "main"
    check_capture(draft, cat, root["active"], events)


def check_capture(draft, cat: Catalogue, seat: int, events: list[dict]) -> None:
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
        events.append({"type": "capital_captured", "player": seat, "capital": cap,
                       "rule": "KOZ-48"})
        knock_out(draft, cat, enemy, "capture", events)
        if root["result"] is None:
            settle(draft, cat, events)


def end_by_turn_limit(root: dict, events: list[dict]) -> None:
    """RULING KOZ-50: the least-damaged capital wins; equal damage shares the win.
    RULING KOZ-53: only players still in can win."""
    damage = {i: p["capital_damage"] for i, p in enumerate(root["players"]) if not p["out"]}
    best = min(damage.values())
    winners = [i for i, d in damage.items() if d == best]
    root["result"] = {"finished": True, "winners": winners, "reason": "turn_limit"}
    events.append({"type": "turn_limit", "turn": root["turn"], "winners": winners,
                   "rule": "KOZ-50"})
