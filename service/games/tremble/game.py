"""Tremble, Humans! on the shared engine contract (``service.games.base``).

The hooks dispatch to one module per concept: ``setup`` (TRE-2 … TRE-10),
``flow`` (the turn, TRE-11 … TRE-17), ``buying``, ``intel`` (with armies),
``planning`` (orders, refuel, redeploy), ``battle``, ``reward``, ``credit``,
``missions``, ``scoring`` and ``visibility`` (TRE-33).

>>> state, _ = GAME.new_game(3, {"missions": False}, seed=1)
>>> state["phase"], [p["decision"] for p in state["pending"]]
('buy', ['draw_or_decline', 'draw_or_decline', 'draw_or_decline'])
>>> state, _ = GAME.apply(state, {"type": "draw_ships", "player": 0})
>>> [len(p["offer"]) for p in state["players"]], state["players"][0]["fuel"]
([2, 0, 0], 8)
"""

from __future__ import annotations

import card_db
from service.games.base import Game
from service.games.chance import CHANCE
from service.games.draft import Draft
from service.games.errors import InvalidState, RuleViolation
from service.games.messages import N_
from service.games.options import Option
from service.games.tremble import (
    battle,
    buying,
    credit,
    flow,
    intel,
    invariants,
    missions,
    planning,
    reward,
    scoring,
    visibility,
)
from service.games.tremble.cards import Catalog, catalog
from service.games.tremble.setup import new_state
from service.games.tremble.shapes import ACTION_TYPES, EVENT_TYPES, STATE_FIELDS
from service.games.tremble.zones import attacking

CREDIT_ACTIONS = ("take_credit", "repay_credit")
#: the clause behind each chance node (rolls: TRE-20 in battle, TRE-24 against an army)
CHANCE_RULES = {"deal_mission": "TRE-10", "draw_ship": "TRE-12", "reveal": "TRE-13"}


def catalog_of(state: dict) -> Catalog:
    """The catalog of the state's card set (hash-keyed cache, then the loader)."""
    found = _by_hash.get(state["card_set"]["hash"])
    if found is None:
        found = catalog(card_db.get("tremble", state["card_set"]["id"]))
        _by_hash[state["card_set"]["hash"]] = found
    return found


_by_hash: dict[str, Catalog] = {}


class TrembleGame(Game):
    id = "tremble"
    title = {"en": "Tremble, Humans!", "ru": "Трепещите, человеки!"}
    #: 2: the buy step is optional (RULING TRE-12a: ``buy_choice``, a
    #: ``draw_or_decline`` decision) and ``draw_ship`` names the copy drawn
    rules_version = "tremble/2"
    min_players = 2
    max_players = 5
    game_options = (
        Option("missions", "boolean", True, clause="TRE-10",
               description="play with secret missions (false: the recommended first game)"),
    )
    action_types = ACTION_TYPES
    event_types = EVENT_TYPES
    #: credit (TRE-26) may be taken or repaid while any decision of the player is pending
    decisions = {**{d: types + CREDIT_ACTIONS for d, types in flow.DECISION_ACTIONS.items()},
                 **{d: (d,) for d in CHANCE_RULES}, "roll": ("roll",)}
    state_fields = STATE_FIELDS
    not_your_turn_rule = "TRE-11"
    game_over_rule = "TRE-28"

    # ------------------------------------------------------------ setup
    def setup(self, players, setups, options, cards, events):
        cat = catalog(cards)
        state = new_state(players, setups, options, cat)
        state["turn"] = 0
        state["result"] = None
        events.append({"type": "setup", "players": players, "slots": state["tokens"],
                       "cards_left": intel.cards_left(state["piles"]), "rule": "TRE-2"})
        draft = Draft(state)
        flow.advance(draft, cat, events)
        return draft.root

    def compute_pending(self, state):
        if state["result"] is not None:
            return []
        try:
            return flow.pending(state)
        except (LookupError, StopIteration, TypeError, ValueError) as exc:
            # only a hand-edited state gets here: its phase data do not fit together
            raise InvalidState({"state.phase": [
                N_("the {value!r} phase data are inconsistent ({name})",
                   value=state.get('phase'), name=type(exc).__name__)]})

    def constraints(self, state, player):
        entry = next((e for e in state["pending"] if e["player"] == player), None)
        if entry is None:
            return None
        if entry["decision"] == "plan":
            return planning.plan_constraints(state, catalog_of(state), player)
        if entry["decision"] == "redeploy":
            return planning.redeploy_constraints(state, catalog_of(state), player)
        return None

    # ------------------------------------------------------------ actions
    def candidate_actions(self, state, player):
        return self.actions_for(state, player)

    def actions_for(self, state, player):
        """Listed directly (every listed action is legal; see the tests)."""
        entry = next(e for e in state["pending"] if e["player"] == player)
        decision = entry["decision"]
        cat = catalog_of(state)
        p = state["players"][player]
        if decision == "keep_missions":
            out = [{"type": "keep_missions", "player": player, "missions": m}
                   for m in missions.keep_subsets(p["mission_offer"])]
        elif decision == "draw_or_decline":
            out = [{"type": "draw_ships", "player": player},
                   {"type": "decline_buy", "player": player}]
        elif decision == "buy":
            out = buying.buy_actions(state, cat, player)
        elif decision == "plan":
            out = planning.plan_actions(state, player)
        elif decision == "discard_unfueled":
            out = [{"type": "discard_unfueled", "player": player, "ship": s}
                   for s in sorted(set(attacking(state, player)))]
        elif decision == "redeploy":
            out = planning.redeploy_actions(state, cat, player)
        elif decision == "fight_or_retreat":
            out = [{"type": "battle_choice", "player": player, "choice": c}
                   for c in ("fight", "retreat")]
        elif decision == "reserve":
            out = [{"type": "join_reserve", "player": player, "ship": s}
                   for s in battle.reserve_ships(state, cat, player)]
            out.append({"type": "reserve_done", "player": player})
        elif decision == "lose_ship":
            side = self._side(state, player)
            out = [{"type": "lose_ship", "player": player, "ship": s} for s in side["ships"]]
        elif decision == "army_loss":
            ships = state["searches"][intel.search_index(state, entry["city"])]["ships"]
            out = [{"type": "lose_ship", "player": player, "ship": s} for s in ships]
        elif decision == "army_choice":
            out = [{"type": "army_choice", "player": player, "city": c, "choice": ch}
                   for c in entry["cities"] for ch in ("fight", "abandon")]
        elif decision == "reward":
            out = reward.actions(state, player)
        else:  # pragma: no cover
            raise AssertionError(decision)
        if credit.can_take(state, player) is None:
            out.append({"type": "take_credit", "player": player})
        if credit.can_repay(state, cat, player) is None:
            out.append({"type": "repay_credit", "player": player})
        return out

    def out_of_turn_rule(self, state):
        """The clause of the decision now pending, cited to a player who acts
        out of turn: e.g. TRE-19 while a weaker attacker decides to fight or
        retreat, TRE-14 when a plan is already submitted, TRE-20 during a
        battle roll (``not_your_turn_rule`` only with nothing pending)."""
        if not state["pending"]:
            return self.not_your_turn_rule
        entry = state["pending"][0]
        decision = entry["decision"]
        if decision == "roll":
            return "TRE-24" if entry.get("context") == "army" else "TRE-20"
        return CHANCE_RULES.get(decision) or flow.DECISION_RULES.get(decision,
                                                                     self.not_your_turn_rule)

    def out_of_turn(self, state, action, reason):
        """A credit action out of turn cites TRE-26: a credit is taken or repaid
        while the game waits for a decision of that player."""
        if action["type"] in CREDIT_ACTIONS:
            return "TRE-26", N_("a credit is taken or repaid while the game waits for a "
                                "decision of yours; {reason}", reason=reason)
        return super().out_of_turn(state, action, reason)

    def impossible_outcome_reason(self, state, entry, action, outcomes):
        """Why a well-formed chance outcome cannot happen: the ship is not in
        the ship deck (and which copies of its design are), the card lies in
        the lower pile or was already revealed or removed, the mission was
        dealt; otherwise the base's generic reason."""
        decision = entry["decision"]
        cat = catalog_of(state)
        why = None
        if decision == "draw_ship" and action["type"] == "draw_ship":
            why = buying.impossible_draw(state, cat, action["ship"])
        elif decision == "reveal" and action["type"] == "reveal":
            why = intel.impossible_reveal(state, cat, action["card"])
        elif decision == "deal_mission" and action["type"] == "deal_mission":
            mission = action["mission"]
            if mission not in cat.missions:
                why = N_("{mission} is not a mission card of this card set", mission=mission)
            elif mission in state["box"]:
                why = N_("{mission} is not in this game (removed at setup, TRE-2 / TRE-10)",
                         mission=mission)
            else:
                why = N_("{mission} has already been dealt", mission=mission)
        return why or super().impossible_outcome_reason(state, entry, action, outcomes)

    @staticmethod
    def _side(state, player):
        index = battle.attack_index(state)
        return state["attacks"][index]["sides"][battle.side_index(state, index, player)]

    def check_action(self, state, action):
        kind = action["type"]
        player = action["player"]
        cat = catalog_of(state)
        if kind in CREDIT_ACTIONS:
            credit.check(state, cat, action)
            return
        entry = next(e for e in state["pending"] if e["player"] == player)
        decision = entry["decision"]
        if kind not in flow.DECISION_ACTIONS[decision]:
            raise RuleViolation(flow.DECISION_RULES[decision],
                                N_("the decision now is {decision!r}, not {kind!r}",
                                   decision=decision, kind=kind))
        if kind == "keep_missions":
            chosen = action["missions"]
            offer = state["players"][player]["mission_offer"]
            if not 1 <= len(chosen) <= 3:
                raise RuleViolation("TRE-10", N_("keep 1 to 3 of the missions dealt"))
            if len(set(chosen)) != len(chosen) or any(m not in offer for m in chosen):
                raise RuleViolation("TRE-10", N_("keep only missions dealt to you, each once"))
        elif kind == "buy":
            buying.check_buy(state, cat, action)
        elif kind == "plan":
            planning.check_orders(state, player, action["orders"])
        elif kind == "discard_unfueled":
            if action["ship"] not in attacking(state, player):
                raise RuleViolation("TRE-15", N_("{ship} is not one of your attacking ships",
                                                 ship=action['ship']))
        elif kind == "redeploy":
            planning.check_redeploy(state, cat, player, action["moves"])
        elif kind == "join_reserve":
            if battle.reserve_full(state, player):
                raise RuleViolation("TRE-31a", N_("you already have {max_ships_per_city} ships "
                                                  "at this city: a reserve ship joining counts "
                                                  "toward the TRE-9 limit",
                                                  max_ships_per_city=planning.MAX_SHIPS_PER_CITY))
            if action["ship"] not in battle.reserve_ships(state, cat, player):
                raise RuleViolation("TRE-31", N_("{ship} is not a reserve ship in your hand that "
                                                 "has not flown and whose fuel you have",
                                                 ship=action['ship']))
        elif kind == "lose_ship":
            if decision == "army_loss":
                intel.check_army_loss(state, action)
            elif action["ship"] not in self._side(state, player)["ships"]:
                raise RuleViolation("TRE-21", N_("{ship} did not attack this city",
                                                 ship=action['ship']))
        elif kind == "army_choice":
            intel.check_army_choice(state, action)
        elif kind in ("raid", "search"):
            reward.check(state, action)

    def resolve(self, draft, action, events):
        state = draft.root
        cat = catalog_of(state)
        kind = action["type"]
        player = action["player"]
        if player == CHANCE:
            self._resolve_chance(draft, cat, action, events)
        elif kind == "keep_missions":
            offer = state["players"][player]["mission_offer"]
            p = draft.at("players", player)
            p["missions"] = list(action["missions"])
            p["missions_discarded"] = [m for m in offer if m not in action["missions"]]
            p["mission_offer"] = []
            p["missions_kept"] = True
            events.append({"type": "missions_kept", "player": player,
                           "count": len(action["missions"]), "rule": "TRE-10"})
        elif kind in ("draw_ships", "decline_buy"):
            buying.start_buy(draft, player, "draw" if kind == "draw_ships" else "decline",
                             events)
        elif kind == "buy":
            buying.buy(draft, cat, action, events)
        elif kind == "plan":
            draft.at("players", player)["orders"] = [dict(o) for o in action["orders"]]
            events.append({"type": "plan_submitted", "player": player, "rule": "TRE-14"})
        elif kind == "discard_unfueled":
            planning.discard_unfueled(draft, player, action["ship"], events)
        elif kind == "redeploy":
            draft.at("players", player)["redeploy"] = [dict(m) for m in action["moves"]]
            events.append({"type": "redeploy_submitted", "player": player, "rule": "TRE-32"})
        elif kind == "battle_choice":
            battle.decide(draft, player, action["choice"], events)
        elif kind == "join_reserve":
            battle.join_reserve(draft, cat, player, action["ship"], events)
        elif kind == "reserve_done":
            draft.at("battle")["next"] += 1
        elif kind == "lose_ship":
            if state["phase"] == "intel":
                intel.army_loss(draft, action["ship"], events)
            else:
                battle.lose_ship(draft, player, action["ship"], events)
        elif kind == "army_choice":
            intel.army_choice(draft, action, events)
        elif kind in ("raid", "search"):
            reward.resolve(draft, cat, action, events)
        elif kind == "take_credit":
            credit.take(draft, cat, player, events)
        elif kind == "repay_credit":
            credit.repay(draft, cat, player, events)
        flow.advance(draft, cat, events)

    def _resolve_chance(self, draft, cat, action, events):
        entry = draft.root["pending"][0]
        kind = action["type"]
        if kind == "deal_mission":
            who = entry["for"]
            draft.at("mission_deck").remove(action["mission"])
            draft.at("players", who, "mission_offer").append(action["mission"])
            events.append({"type": "mission_dealt", "player": who, "rule": "TRE-10"})
        elif kind == "draw_ship":
            buying.draw(draft, entry["for"], action["ship"], events)
            events.append({"type": "ship_drawn", "player": entry["for"], "rule": "TRE-12"})
        elif kind == "reveal":
            intel.reveal(draft, cat, action["card"], events)
        elif kind == "roll":
            if entry["context"] == "army":
                intel.army_roll(draft, cat, action["total"], events)
            else:
                battle.roll(draft, action["total"], events)

    def chance_outcomes(self, state):
        entry = state["pending"][0]
        decision = entry["decision"]
        if decision == "deal_mission":
            return [({"type": "deal_mission", "player": CHANCE, "mission": m}, 1)
                    for m in state["mission_deck"]]
        if decision == "draw_ship":
            return [({"type": "draw_ship", "player": CHANCE, "ship": ship}, 1)
                    for ship in buying.draw_outcomes(state)]
        if decision == "reveal":
            pile = state["piles"][intel.top_pile(state["piles"])]
            return [({"type": "reveal", "player": CHANCE, "card": c}, 1)
                    for c in pile["candidates"]]
        if decision == "roll":
            return [({"type": "roll", "player": CHANCE, "total": t}, w)
                    for t, w in battle.ROLL_WEIGHTS.items()]
        raise AssertionError(decision)  # pragma: no cover

    # ------------------------------------------------------------ scoring & views
    def compute_score(self, state):
        return scoring.score(state, catalog_of(state))

    def hide(self, state, player):
        return visibility.hide(state, player)

    def secret_cards(self, state, player):
        return visibility.secret_cards(state, player)

    def determinize(self, state, player, seed):
        return visibility.determinize(state, player, seed, catalog_of(state))

    def check_invariants(self, state, cards):
        return invariants.errors(state, catalog(cards))


GAME = TrembleGame()
