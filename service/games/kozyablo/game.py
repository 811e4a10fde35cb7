"""The Kozyablo rules engine on the shared contract (``service.games.base``).

The class wires the declarative parts (options, shapes) to the concept
modules: ``deck`` (KOZ-1…6), ``setup`` (KOZ-7…10, chance), ``sectors``
(KOZ-11…13), ``turn`` (KOZ-14…16a, 47…50), ``play`` (KOZ-17…23), ``combat``
(KOZ-24…29), ``damage`` + ``stats`` (KOZ-30…46), ``effects`` (the effect
engine) + ``effect_damage`` (its damage offered to Defenders, KOZ-45), ``abilities``, ``views``, ``invariants``.

Two to four players (RULINGS KOZ-51…53; two is the rulebook's duel).
Decisions in order: the lots (chance), six reveals each, mulligans in turn
order, then turns.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable

import card_db
from service.games.base import MAX_SEED, Game
from service.games.chance import CHANCE
from service.games.errors import RuleViolation
from service.games.kozyablo import combat, effect_damage, invariants, setup, turn, views
from service.games.kozyablo.catalogue import catalogue, of_state
from service.games.kozyablo.shapes import (
    ACTION_TYPES,
    EVENT_TYPES,
    PLAYER_SETUP_FIELDS,
    STATE_FIELDS,
)
from service.games.kozyablo.stats import unit_stats
from service.games.messages import N_, either, joined
from service.games.options import Option

OPTIONS = (
    Option("response_window", "string", "when_able", clause="KOZ-16",
           choices=("when_able", "always"),
           description="when_able: after an action is declared the opponent gets a response "
                       "window only if they have a free ability they can use; always: after "
                       "every declared action (they may only pass)"),
    Option("turn_limit", "integer", None, clause="KOZ-50", minimum=1, nullable=True,
           description="end after this many player turns; the least-damaged capital wins, "
                       "equal damage shares the win"),
)

PHASE_ACTIONS = {
    "mulligan": ("keep", "mulligan"),
    "main": turn.MAIN_ACTIONS,
    "response": ("use_ability", "pass"),
    "effect": ("defend", "decline"),
}
COMBAT_ACTIONS = {"strike": ("strike",), "evade": ("evade", "decline"),
                  "defend": ("defend", "decline")}


class Kozyablo(Game):
    """Kozyablo (Козябло): capture or destroy the opposing capital."""

    id = "kozyablo"
    title = {"en": "Kozyablo", "ru": "Козябло"}
    #: 2: effect damage offered to Defenders (KOZ-45); 3: squad magic (KOZ-18a), Weapon
    #: protection limits targets (KOZ-36a), `reveal.face`, named abilities, 3-4 players
    rules_version = "kozyablo/3"
    min_players = 2
    max_players = 4  # RULING KOZ-51
    game_options = OPTIONS
    action_types = ACTION_TYPES
    event_types = EVENT_TYPES
    decisions = {"lot": ("lot",), "reveal": ("reveal",),
                 **{d: PHASE_ACTIONS[p] for d, p in (("mulligan", "mulligan"),
                                                     ("action", "main"),
                                                     ("response", "response"),
                                                     ("defend", "effect"))},
                 **COMBAT_ACTIONS}
    state_fields = STATE_FIELDS
    player_setup_fields = PLAYER_SETUP_FIELDS
    not_your_turn_rule = "KOZ-15"
    game_over_rule = "KOZ-47"

    # ------------------------------------------------------------- setup
    def new_game(self, players, options=None, seed=None, card_set="reference"):
        """With only a player count, reference decks of different races by the seed."""
        if seed is None:
            seed = secrets.randbits(63)
        if isinstance(players, int) and not isinstance(players, bool) \
                and self.min_players <= players <= self.max_players \
                and isinstance(seed, int) and not isinstance(seed, bool) \
                and 0 <= seed <= MAX_SEED:
            players = [{"race": r} for r in setup.choose_races(seed, players)]
        return super().new_game(players, options, seed, card_set)

    def setup(self, players: int, setups: list[dict], options: dict,
              cards: card_db.CardSet, events: list[dict]) -> dict:
        cat = catalogue(cards)
        decks = setup.resolve_decks(cat, setups)
        state = setup.initial_state(cat, setups, decks)
        events.append({"type": "setup", "races": [p["race"] for p in state["players"]],
                       "rule": "KOZ-7"})
        return state

    # ----------------------------------------------------------- pending
    def compute_pending(self, state: dict) -> list[dict]:
        if state["result"] is not None:
            return []
        phase = state["phase"]
        if phase == "setup" and len(state["order"]) < len(state["players"]):
            return [{"player": CHANCE, "decision": "lot"}]
        if state["queue"]:
            return [{"player": CHANCE, "decision": "reveal", "seat": state["queue"][0]["seat"]}]
        if phase == "mulligan":
            seat = next(s for s in state["order"] if not state["players"][s]["ready"])
            return [{"player": seat, "decision": "mulligan"}]
        if phase == "main":
            return [{"player": state["active"], "decision": "action"}]
        if phase == "response":
            return [{"player": state["responder"], "decision": "response"}]
        if phase == "effect":
            r = effect_damage.reaction(state, of_state(state))
            return [{"player": r["player"], "decision": "defend"}]
        if phase == "combat":
            cat = of_state(state)
            r = combat.reaction(state, cat)
            if r is not None:
                return [{"player": r["player"], "decision": r["kind"]}]
            seat, _ = combat.candidates(state, cat)
            return [{"player": seat, "decision": "strike"}]
        raise AssertionError(f"no decision in phase {phase!r}")  # pragma: no cover

    def chance_outcomes(self, state: dict) -> list[tuple[dict, int]]:
        if state["phase"] == "setup" and len(state["order"]) < len(state["players"]):
            return setup.lot_outcomes(state)
        return setup.reveal_outcomes(state)

    # ----------------------------------------------------------- actions
    def actions_for(self, state: dict, player: int) -> list[dict]:
        cat = of_state(state)
        phase = state["phase"]
        if phase == "mulligan":
            return self._mulligan_actions(state, player)
        if phase == "main":
            return turn.main_actions(state, cat, player)
        if phase == "response":
            return turn.response_actions(state, cat, player)
        if phase == "effect":
            r = effect_damage.reaction(state, cat)
            return [{"type": "defend", "player": player, "unit": o} for o in r["options"]] + [
                {"type": "decline", "player": player}]
        if phase == "combat":
            r = combat.reaction(state, cat)
            if r is not None:
                key = "card" if r["kind"] == "evade" else "unit"
                return [{"type": r["kind"], "player": player, key: o} for o in r["options"]] + [
                    {"type": "decline", "player": player}]
            _, group = combat.candidates(state, cat)
            return [a for u in group for a in self._strikes(state, cat, player, u)]
        return []

    def candidate_actions(self, state: dict, player: int) -> Iterable[dict]:
        return self.actions_for(state, player)

    def constraints(self, state: dict, player: int) -> dict | None:
        if state["phase"] == "main" and state["active"] == player:
            return {
                "move": {"units": {"subset_of": "your creatures in `from`", "min_items": 1},
                         "listed": "each squad whole and each of its creatures alone",
                         "rule": "KOZ-15"},
                "play_card": {"card": {"any_copy_of": "the listed card's face"},
                              "listed": "one copy per card face (copies are interchangeable)"}}
        return None

    @staticmethod
    def _mulligan_actions(state: dict, seat: int) -> list[dict]:
        p = state["players"][seat]
        out = [{"type": "keep", "player": seat}]
        if p["mulligans"] < setup.MAX_MULLIGANS:
            hand = p["hand"]
            for mask in range(1, 1 << len(hand)):
                out.append({"type": "mulligan", "player": seat,
                            "cards": [c for i, c in enumerate(hand) if mask >> i & 1]})
        return out

    @staticmethod
    def _strikes(state: dict, cat, seat: int, unit: str) -> list[dict]:
        return [{"type": "strike", "player": seat, "unit": unit, "targets": ts}
                for ts in combat.strike_options(state, cat, unit)]

    def check_action(self, state: dict, action: dict) -> None:
        cat = of_state(state)
        kind, seat, phase = action["type"], action["player"], state["phase"]
        if phase == "combat":
            r = combat.reaction(state, cat)
            allowed = COMBAT_ACTIONS[r["kind"] if r else "strike"]
            if kind not in allowed:
                rule = {"evade": "KOZ-46", "defend": "KOZ-45"}.get(r and r["kind"], "KOZ-25")
                raise RuleViolation(rule, N_("{kind!r} is not possible now: the combat waits for "
                                             "{items}", kind=kind, items=either(allowed)))
            if kind in ("evade", "defend"):
                key = "card" if kind == "evade" else "unit"
                if action[key] not in r["options"]:
                    rule = "KOZ-46" if kind == "evade" else "KOZ-45"
                    raise RuleViolation(rule, N_("{choice!r} is not one of: {items}",
                                                 choice=action[key], items=joined(r["options"])))
            elif kind == "strike":
                self._check_strike(state, cat, action)
            return
        allowed = PHASE_ACTIONS.get(phase, ())
        if kind not in allowed:
            rule = {"mulligan": "KOZ-9", "response": "KOZ-16", "effect": "KOZ-45"}.get(
                phase, "KOZ-15")
            raise RuleViolation(rule, N_("{kind!r} is not possible now; the {phase} phase takes: "
                                         "{items}",
                                         kind=kind, phase=phase, items=', '.join(allowed)))
        if phase == "mulligan":
            if kind == "mulligan":
                p = state["players"][seat]
                if p["mulligans"] >= setup.MAX_MULLIGANS:
                    raise RuleViolation("KOZ-9", N_("at most three mulligans"))
                cards = action["cards"]
                if len(set(cards)) != len(cards) or not set(cards) <= set(p["hand"]):
                    raise RuleViolation("KOZ-9", N_("mulligan different cards from your hand"))
        elif phase == "main":
            turn.check_main(state, cat, action)
        elif phase == "effect" and kind == "defend":
            options = effect_damage.reaction(state, cat)["options"]
            if action["unit"] not in options:
                raise RuleViolation("KOZ-45", N_("{choice!r} is not one of: {items}",
                                                 choice=action["unit"], items=joined(options)))
        elif phase == "response" and kind == "use_ability":
            from service.games.kozyablo import abilities
            try:
                abilities.check(state, cat, action, ("free",))
            except ValueError as exc:
                raise RuleViolation("KOZ-16", exc.args[0])

    def out_of_turn_rule(self, state: dict) -> str:
        """A player acting out of turn is told the clause of the step that waits:
        KOZ-9 mulligans in turn order, KOZ-16 the response window, KOZ-25 the
        strike order, KOZ-46/KOZ-45 an Evasion/Defender offer, else KOZ-15.
        At a chance node: KOZ-10 the lot, KOZ-8/KOZ-9 the opening draws and
        mulligans, KOZ-15 a drawn card."""
        phase = state.get("phase")
        pending = state.get("pending") or []
        if pending and pending[0]["player"] == CHANCE:
            if pending[0]["decision"] == "lot":
                return "KOZ-10"
            return {"setup": "KOZ-8", "mulligan": "KOZ-9"}.get(phase, "KOZ-15")
        if phase == "effect" and not state.get("queue"):
            return "KOZ-45"
        if phase == "combat" and state.get("combat") and not state.get("queue"):
            r = combat.reaction(state, of_state(state))
            return {"evade": "KOZ-46", "defend": "KOZ-45"}.get(r and r["kind"], "KOZ-25")
        return {"mulligan": "KOZ-9", "response": "KOZ-16"}.get(phase, self.not_your_turn_rule)

    def _check_strike(self, state: dict, cat, action: dict) -> None:
        seat, group = combat.candidates(state, cat)
        unit, targets = action["unit"], action["targets"]
        if unit not in group:
            raise RuleViolation("KOZ-25", N_("{unit!r} does not strike now; next: {items}",
                                             unit=unit, items=joined(group)))
        legal = combat.legal_targets(state, cat, unit)
        for t in targets:
            if t not in legal:
                tgt = state["units"].get(t)
                if tgt is not None and tgt["shadow"]:
                    raise RuleViolation("KOZ-41", N_("a creature in the shadow cannot be struck"))
                if tgt is not None and t in (state["combat"].get("movers") or [t]) \
                        and tgt["owner"] != seat and tgt["sector"] == state["combat"]["sector"]:
                    mine = combat.striker_stats(state, cat, unit).abilities
                    theirs = unit_stats(state, cat, t).abilities
                    if "flying" in theirs and not mine & {"flying", "archer", "magic_attack"}:
                        raise RuleViolation("KOZ-30", N_("{t!r} flies: only flyers, archers and "
                                                         "Magic attack can strike it", t=t))
                    if "weapon_protection" in theirs and not mine & {"magic_weapon",
                                                                     "magic_attack"}:
                        raise RuleViolation("KOZ-36a", N_("{t!r} has Weapon protection: only "
                                                          "Magic weapon and Magic attack can "
                                                          "strike it", t=t))
                raise RuleViolation("KOZ-26", N_("{t!r} is not a legal target; legal: {items}",
                                                 t=t, items=joined(legal)))
        if sorted(targets) not in [sorted(o) for o in combat.strike_options(state, cat, unit)]:
            if "area" in combat.striker_stats(state, cat, unit).abilities:
                raise RuleViolation("KOZ-31", N_("an Area strike hits two different creatures at "
                                                 "once (one if only one can be struck); a "
                                                 "building or the capital is struck alone"))
            raise RuleViolation("KOZ-26", N_("a strike has exactly one target"))

    # ----------------------------------------------------------- resolve
    def resolve(self, draft, action: dict, events: list[dict]) -> None:
        cat = of_state(draft.root)
        kind = action["type"]
        if kind == "lot":
            setup.resolve_lot(draft, action, events)
        elif kind == "reveal":
            setup.resolve_reveal(draft, action, events)
        elif kind == "keep":
            draft.at("players", action["player"])["ready"] = True
            events.append({"type": "kept", "player": action["player"]})
        elif kind == "mulligan":
            setup.mulligan(draft, action, events)
        elif draft.root["phase"] == "effect":  # defend / decline an effect's damage (KOZ-45)
            if kind == "defend":
                effect_damage.defend(draft, cat, action["unit"], events)
            else:
                effect_damage.decline(draft, cat, events)
            turn.resume_effect(draft, cat, events)
        elif kind in ("strike", "evade", "defend", "decline"):
            fn = {"strike": lambda: combat.strike(draft, cat, action["unit"], action["targets"],
                                                  events),
                  "evade": lambda: combat.evade(draft, cat, action["card"], events),
                  "defend": lambda: combat.defend(draft, cat, action["unit"], events),
                  "decline": lambda: combat.decline(draft, cat, events)}[kind]
            fn()
            turn.after_combat(draft, cat, events)
        elif draft.root["phase"] == "response":
            turn.respond(draft, cat, action, events)
        else:
            turn.declare(draft, cat, action, events)
        self._advance(draft, cat, events)

    @staticmethod
    def _advance(draft, cat, events: list[dict]) -> None:
        """Setup → mulligans → the first turn, once no reveal is pending."""
        root = draft.root
        if root["result"] is not None or root["queue"] \
                or len(root["order"]) < len(root["players"]):
            return
        if root["phase"] == "setup":
            root["phase"] = "mulligan"
        if root["phase"] == "mulligan" and all(p["ready"] for p in root["players"]):
            turn.start_turn(draft, cat, events)

    # ------------------------------------------------------------- score
    def compute_score(self, state: dict) -> dict:
        result = state["result"]
        scores = []
        for seat, p in enumerate(state["players"]):
            # a fallen capital (RULING KOZ-53: out) has no life left, captured or not
            life = 0 if p["out"] else max(0, 12 - p["capital_damage"])
            scores.append({"player": seat, "total": life, "breakdown": {
                "capital_life": life,
                "creatures": sum(1 for d in state["units"].values() if d["owner"] == seat),
                "sectors": sum(1 for s in state["sectors"].values()
                               if s["controller"] == seat and s["kind"] != "capital")}})
        return {"finished": result is not None,
                "winners": list(result["winners"]) if result else [],
                "reason": result["reason"] if result else None, "scores": scores}

    # ------------------------------------------------------------- views
    def hide(self, state: dict, player: int | None) -> dict:
        return views.hide(state, player)

    def secret_cards(self, state: dict, player: int | None) -> set[str]:
        return views.secret_cards(state, player)

    def determinize(self, state: dict, player: int | None, seed: int) -> dict:
        return views.determinize(state, of_state(state), player, seed)

    def check_invariants(self, state: dict, cards: card_db.CardSet) -> dict[str, list[str]]:
        errs = invariants.errors(state, catalogue(cards))
        declared = state.get("declared")
        if not errs and declared is not None:
            spec = self.action_specs.get(declared.get("type"))
            if spec is None or declared["type"] not in turn.MAIN_ACTIONS:
                errs["state.declared.type"] = [N_("must be a main-phase action type")]
            else:
                from service.games import shape
                errs.update(shape.check(spec, declared, "state.declared"))
        return errs


GAME = Kozyablo()
