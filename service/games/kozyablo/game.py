"""The Kozyablo rules engine on the shared contract (``service.games.base``).

The class wires the declarative parts (options, shapes) to the concept
modules: ``deck`` (KOZ-1…6), ``setup`` (KOZ-7…10, chance), ``sectors``
(KOZ-11…13), ``turn`` (KOZ-14…16a, 47…50), ``play`` (KOZ-17…23), ``combat``
(KOZ-24…29), ``damage`` + ``stats`` (KOZ-30…46), ``effects`` (the effect
engine) + ``effect_damage`` (its damage offered to Defenders, KOZ-45), ``abilities``,
``views``, ``invariants``.  ``actions`` declares every action type once (the main
actions of KOZ-15 with the response window of KOZ-16), ``state`` the state's types.

Two to four players (RULINGS KOZ-51…53; two is the rulebook's duel).
Decisions in order: the lots (chance), six reveals each, mulligans in turn
order, then turns.
"""

from __future__ import annotations

import secrets

import card_db
from service.games import shape
from service.games.base import Game
from service.games.chance import CHANCE
from service.games.draft import Draft
from service.games.errors import InvalidState, NoSuchSeat
from service.games.kozyablo import (
    abilities,
    combat,
    effect_damage,
    invariants,
    migrations,
    setup,
    strategy,
    turn,
    views,
)
from service.games.kozyablo.actions import ACTIONS, DECISIONS, MAIN, moves
from service.games.kozyablo.card_schema import CardSetSchema
from service.games.kozyablo.cards import Catalogue
from service.games.kozyablo.damage import CAPITAL_LIFE
from service.games.kozyablo.operations import VALIDATE_DECK
from service.games.kozyablo.sectors import garrison_excess, garrison_space, is_capital
from service.games.kozyablo.shapes import (
    EVENT_TYPES,
    PLAYER_SETUP_FIELDS,
    STATE_FIELDS,
)
from service.games.kozyablo.state_types import KozyabloState
from service.games.kozyablo.words import WORDS
from service.games.messages import N_, either
from service.games.objects import ActionObject, Entry, Errors, Event, JsonObject
from service.games.options import Option
from service.games.versions import Change, RulesVersion
from service.limits import MAX_STATE_SEED, SEED_BITS

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


class Kozyablo(Game[KozyabloState]):
    """Kozyablo (Козябло): capture or destroy the opposing capital."""

    id = "kozyablo"
    words = WORDS
    title = {"en": "Kozyablo", "ru": "Козябло"}
    #: 2: effect damage offered to Defenders (KOZ-45); 3: squad magic (KOZ-18a), Weapon
    #: protection limits targets (KOZ-36a), `reveal.face`, named abilities, 3-4 players
    #: 4: strikes may be held (KOZ-25a), the shadow (KOZ-41a, `combat.turn`), Defenders
    #: (KOZ-45a), fallen capitals (KOZ-53a), the capital events' shape, `per_turn` (issue 25)
    #: 5: each of Two attacks held on its own (KOZ-25a), Armor against creatures only
    #: (KOZ-39a; issue 35)
    rules_version = "kozyablo/5"
    rules_history = (
        RulesVersion("kozyablo/1", "1.0.0"),
        RulesVersion("kozyablo/2", "2.0.0", (
            Change("KOZ-45", "rule",
                   "A Defender may also take the damage of magic cards, events, abilities and "
                   "triggers (a `defend`/`decline` decision while an effect's damage waits).",
                   "Защитник может принять и урон карт магии, событий, способностей и "
                   "срабатываний (решение `defend`/`decline`, пока урон эффекта ждёт)."),
        )),
        RulesVersion("kozyablo/3", "3.0.0", (
            Change("KOZ-18a", "rule",
                   "Squad magic acts on its player's creatures in the sector and goes to the "
                   "discard once none is left there; it is never an opposing card in the sector.",
                   "Магия отряда действует на существ своего игрока в секторе и уходит в сброс, "
                   "когда их там не остаётся; она никогда не считается картой противника в секторе."),
            Change("KOZ-36a", "rule",
                   "Weapon protection limits targets like Flying: only Magic weapon and Magic "
                   "attack may strike such a creature.",
                   "Защита от оружия ограничивает цели, как Полёт: по такому существу бьют только "
                   "Магическое оружие и Магическая атака."),
            Change("KOZ-8", "action reveal.face",
                   "The chance action `reveal` names the card that came off a deck in `face` "
                   "(was `card`).",
                   "Действие случая `reveal` называет вышедшую из колоды карту в поле `face` "
                   "(было `card`)."),
            Change("KOZ-16", "action use_ability.ability",
                   "`use_ability.ability` is a name (`regeneration`, `shadow`, or the `name` of "
                   "the card's activated ability), no longer an index.",
                   "`use_ability.ability` — имя (`regeneration`, `shadow` или `name` активной "
                   "способности карты), а не номер."),
            Change("KOZ-16", "event passed",
                   "`passed` names only a player who sent `pass`; the new `window_closed` says "
                   "the response window is over.",
                   "`passed` называет только игрока, пославшего `pass`; новое событие "
                   "`window_closed` говорит, что окно ответа закрыто."),
            Change(None, "event damage.amount",
                   "`damage.amount` is the damage dealt, never more than the life the target "
                   "had left (no overkill); no empty `moved` event.",
                   "`damage.amount` — нанесённый урон, не больше оставшейся у цели жизни (без "
                   "перебора); пустого события `moved` больше нет."),
        ), upgrade=migrations.from_2,
           upgrade_action=migrations.action_from_2,
           added_state_fields=("responder", "players[].out"),
           previous_card_set_hashes=migrations.REFERENCE_HASHES),
        RulesVersion("kozyablo/4", "4.0.0", (
            Change("KOZ-25a", "rule",
                   "A strike is a right, not a duty: the creature or building whose turn it is "
                   "strikes or holds (`hold`; each of Two attacks separately, in a retreat "
                   "attack too); a held strike is public (`strike_held`).",
                   "Удар — право, а не обязанность: существо или строение, чей черёд, бьёт или "
                   "удерживает удар (`hold`; каждый из двух ударов Двух атак отдельно, и при "
                   "атаке на отступающих); удержанный удар открыт всем (`strike_held`)."),
            Change("KOZ-25a", "decision strike",
                   "The `strike` decision also takes `hold`.",
                   "Решение `strike` принимает и `hold`."),
            Change("KOZ-41a", "rule",
                   "Declaring an attack brings no creature out of the shadow: a hidden creature "
                   "waits its turn by speed, then strikes (leaving the shadow) or stays hidden "
                   "(`stayed_hidden`) and is no part of the combat.",
                   "Объявление атаки не выводит существ из тени: скрытое существо ждёт своего "
                   "черёда по скорости, затем бьёт (выходя из тени) или остаётся скрытым "
                   "(`stayed_hidden`) и в бою не участвует."),
            Change("KOZ-41a", "state combat.turn",
                   "`combat.turn` names the strikers whose turn it is while a strike decision "
                   "waits (null otherwise).",
                   "`combat.turn` называет бойцов, чей черёд бить, пока ждёт решение об ударе "
                   "(иначе null)."),
            Change("KOZ-45a", "rule",
                   "A Defender takes a strike in its ally's place whatever the striker's "
                   "targeting limits (Flying, Weapon protection, the shadow); one in the shadow "
                   "leaves it to do so.",
                   "Защитник принимает удар вместо союзника, каковы бы ни были ограничения "
                   "целей у бьющего (Полёт, Защита от оружия, тень); скрытый при этом выходит "
                   "из тени."),
            Change("KOZ-53a", "rule",
                   "The last player to fall is out like any other (their cards leave the "
                   "table); an out player's capital is an ordinary sector of nobody's whose "
                   "control follows KOZ-11.",
                   "Последний павший игрок выбывает, как и прочие (его карты уходят со стола); "
                   "столица выбывшего — обычный ничейный сектор, контроль над которым "
                   "определяется по KOZ-11."),
            Change("KOZ-48", "event capital_captured.player",
                   "`capital_captured.player` is the player whose capital fell (was the "
                   "capturer); the capturer is `by`.",
                   "`capital_captured.player` — игрок, чья столица пала (было: захвативший); "
                   "захвативший — `by`."),
            Change("KOZ-49", "event capital_destroyed.by",
                   "`capital_destroyed` gains `capital` and `by` (the destroyer, null when no "
                   "player's card dealt the last damage): one shape with `capital_captured`.",
                   "`capital_destroyed` получает `capital` и `by` (разрушивший; null, если "
                   "последний урон нанесла не карта игрока): одна форма с `capital_captured`."),
            Change("KOZ-16", "rule",
                   "How often a turn a free ability may be used is card data (`per_turn`; 1 "
                   "when absent, null for no limit), no longer a blanket rule; the reference "
                   "cards are unchanged.",
                   "Сколько раз за ход можно применить свободную способность, задают данные "
                   "карты (`per_turn`; 1, если не указано, null — без ограничения), а не общее "
                   "правило; эталонные карты не изменились."),
        ), upgrade=migrations.from_3,
           upgrade_action=migrations.action_from_3),
        RulesVersion("kozyablo/5", "5.0.0", (
            Change("KOZ-25a", "rule",
                   "Each of Two attacks may be held on its own: holding the first leaves the "
                   "second to strike or hold (KOZ-32); it no longer goes with the first.",
                   "Каждый из двух ударов «Двух атак» придерживается отдельно: придержав первый, "
                   "существо может нанести или придержать второй (KOZ-32); он больше не "
                   "пропадает вместе с первым."),
            Change("KOZ-39a", "rule",
                   "Armor reduces damage from creatures only: a building's strike (a garrison, "
                   "a retreat attack) is dealt whole, as magic, events and abilities already were.",
                   "«Броня» уменьшает только урон от существ: удар постройки (гарнизона, при "
                   "атаке на отступающих) наносится полностью, как уже было с магией, событиями "
                   "и способностями."),
        ), upgrade=migrations.from_4,
           upgrade_action=migrations.action_from_4),
    )
    min_players = 2
    max_players = 4  # RULING KOZ-51
    card_schema = CardSetSchema
    #: ``python -m bench.step_costs --playouts 6 --turn-limit 200``: at most 0.108 /
    #: 0.906 ms a step, 2.06 steps a turn (any player count)
    step_seconds = {"random": 0.00017, "greedy": 0.0014}
    turn_steps = (3.0, 0.0)
    #: 2 capital life (×10 in ``strategy.position_value``); 1.4 ms measured
    search_value_scale = 20.0
    search_iteration_seconds = 0.002
    position_value = strategy.position_value
    operations = (VALIDATE_DECK,)
    game_options = OPTIONS
    actions = ACTIONS
    event_types = EVENT_TYPES
    decisions = DECISIONS
    state_fields = STATE_FIELDS
    player_setup_fields = PLAYER_SETUP_FIELDS
    #: KOZ-1: a player brings a deck, or takes a reference race's
    player_setup_one_of = ("deck", "race")
    not_your_turn_rule = "KOZ-15"
    game_over_rule = "KOZ-47"

    # ------------------------------------------------------------- setup
    def new_game(self, players: int | list[JsonObject], options: JsonObject | None = None,
                 seed: int | None = None, card_set: str = "reference"
                 ) -> tuple[KozyabloState, list[Event]]:
        """With only a player count, reference decks of different races by the seed."""
        if seed is None:
            seed = secrets.randbits(SEED_BITS)
        if isinstance(players, int) and not isinstance(players, bool) \
                and self.min_players <= players <= self.max_players \
                and isinstance(seed, int) and not isinstance(seed, bool) \
                and 0 <= seed <= MAX_STATE_SEED:
            players = [{"race": r} for r in setup.choose_races(seed, players)]
        return super().new_game(players, options, seed, card_set)

    def setup(self, players: int, setups: list[JsonObject], options: JsonObject,
              cards: card_db.CardSet, events: list[Event]) -> JsonObject:
        cat = Catalogue.of(cards)
        decks = setup.resolve_decks(cat, setups)
        state = setup.initial_state(cat, setups, decks)
        events.append({"type": "setup", "races": [p["race"] for p in state["players"]],
                       "rule": "KOZ-7"})
        return state

    # ----------------------------------------------------------- pending
    def compute_pending(self, state: KozyabloState) -> list[Entry]:
        if state["result"] is not None:
            return []
        phase = state["phase"]
        if setup.lot_due(state):
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
            offer = effect_damage.reaction(state, Catalogue.of_state(state))
            return [{"player": offer["player"], "decision": "defend"}]
        if phase == "combat":
            cat = Catalogue.of_state(state)
            reaction = combat.reaction(state, cat)
            if reaction is not None:
                return [{"player": reaction["player"], "decision": reaction["kind"]}]
            striker_seat, _ = combat.candidates(state, cat)
            return [{"player": striker_seat, "decision": "strike"}]
        raise AssertionError(f"no decision in phase {phase!r}")  # pragma: no cover

    def chance_outcomes(self, state: KozyabloState) -> list[tuple[JsonObject, int]]:
        if setup.lot_due(state):
            return setup.lot_outcomes(state)
        return setup.reveal_outcomes(state)

    def pick_chance(self, rng: JsonObject, state: KozyabloState) -> JsonObject:
        if setup.lot_due(state):
            return super().pick_chance(rng, state)
        return setup.pick_reveal(rng, state)

    # ----------------------------------------------------------- actions
    def actions_for(self, state: KozyabloState, entry: Entry) -> list[JsonObject]:
        """The base listing, but for two rules of the main phase's whole decision:
        the free abilities open it, any number of them before the one action
        (KOZ-15; the action abilities keep their place in ``decisions``), and while
        the capital holds more creatures than its garrison the action can only be
        a move out of it (KOZ-16a)."""
        if state["phase"] != "main":
            return self.list_decision(state, entry)
        player = entry["player"]
        typed_state, cat = state, Catalogue.of_state(state)
        by_mark = abilities.uses_by_mark(typed_state, cat, player)
        space = garrison_space(typed_state, cat, player)
        listed_moves = moves(typed_state, cat, player, space)
        if garrison_excess(space):
            return by_mark["free"] + listed_moves
        return by_mark["free"] + self.list_decision(
            state, entry, {"use_ability": by_mark["action"], "move": listed_moves})

    def constraints(self, state: KozyabloState, player: int) -> JsonObject | None:
        if state["phase"] == "main" and state["active"] == player:
            return {
                "move": {"units": {"subset_of": "your creatures in `from`", "min_items": 1},
                         "listed": "each squad whole and each of its creatures alone",
                         "rule": "KOZ-15"},
                "play_card": {"card": {"any_copy_of": "the listed card's face"},
                              "listed": "one copy per card face (copies are interchangeable)"}}
        return None

    def wrong_decision(self, state: KozyabloState, entry: Entry, action: ActionObject) -> tuple[str, str]:
        """The step that waits names the clause: KOZ-25 the strike order, KOZ-46/KOZ-45
        an Evasion/Defender offer in a combat; else the phase's (KOZ-9 mulligans,
        KOZ-16 the response window, KOZ-45 an effect's damage, KOZ-15 the turn)."""
        kind, phase, takes = action["type"], state["phase"], self.decisions[entry["decision"]]
        if phase == "combat":
            return ({"evade": "KOZ-46", "defend": "KOZ-45"}.get(entry["decision"], "KOZ-25"),
                    N_("{kind!r} is not possible now: the combat waits for {items}",
                       kind=kind, items=either(takes)))
        return ({"mulligan": "KOZ-9", "response": "KOZ-16", "effect": "KOZ-45"}.get(
                    phase, "KOZ-15"),
                N_("{kind!r} is not possible now; the {phase} phase takes: {items}",
                   kind=kind, phase=phase, items=', '.join(takes)))

    def out_of_turn_rule(self, state: KozyabloState) -> str:
        """A player acting out of turn is told the clause of the step that waits:
        KOZ-9 mulligans in turn order, KOZ-16 the response window, KOZ-25 the
        strike order, KOZ-46/KOZ-45 an Evasion/Defender offer, else KOZ-15.
        At a chance node: KOZ-10 the lot, KOZ-8/KOZ-9 the opening draws and
        mulligans, KOZ-15 a drawn card."""
        phase = state.get("phase", "")
        pending = state.get("pending") or []
        if pending and pending[0]["player"] == CHANCE:
            if pending[0]["decision"] == "lot":
                return "KOZ-10"
            return {"setup": "KOZ-8", "mulligan": "KOZ-9"}.get(phase, "KOZ-15")
        if phase == "effect" and not state.get("queue"):
            return "KOZ-45"
        if phase == "combat" and state.get("combat") and not state.get("queue"):
            offer = combat.reaction(state, Catalogue.of_state(state))
            return {"evade": "KOZ-46", "defend": "KOZ-45"}.get(offer["kind"] if offer else "",
                                                               "KOZ-25")
        return {"mulligan": "KOZ-9", "response": "KOZ-16"}.get(phase, self.not_your_turn_rule)

    def out_of_turn(self, state: KozyabloState, action: ActionObject, reason: str) -> tuple[str, str]:
        """A seat that is not in the game is ``NoSuchSeat`` (422 naming ``action.player``,
        as ``view`` and ``for_player`` answer it); a player who
        is out is refused citing RULING KOZ-53; else the step that waits."""
        player, players = action["player"], state["players"]
        if isinstance(player, int) and not isinstance(player, bool) \
                and not 0 <= player < len(players):
            raise NoSuchSeat({"action.player": [
                N_("no seat {player}: this game has seats 0 to {last}", player=player,
                   last=len(players) - 1)]})
        if isinstance(player, int) and players[player]["out"]:
            return "KOZ-53", N_("player {player} is out: their capital fell (RULING KOZ-53)",
                                player=player)
        return self.out_of_turn_rule(state), reason

    def after_action(self, draft: Draft[KozyabloState], action: ActionObject, events: list[Event]) -> None:
        """A main action whose response window is over is carried out (KOZ-16);
        setup → mulligans → the first turn, once no reveal is pending."""
        root = draft.root
        declared = root["declared"]
        if declared is not None and root["responder"] is None:
            root["declared"] = None
            main = MAIN[declared["type"]]
            # declared by this very action with no window to open: nothing happened since
            # its check passed (``declare`` set only ``declared``, which no check reads)
            recheck = None if declared is action else main.enforce
            turn.carry_out(draft, Catalogue.of_state(root), declared, events, recheck,
                           main.carry)
        if root["result"] is not None or root["queue"] \
                or len(root["order"]) < len(root["players"]):
            return
        if root["phase"] == "setup":
            root["phase"] = "mulligan"
        if root["phase"] == "mulligan" and all(p["ready"] for p in root["players"]):
            turn.start_turn(draft, Catalogue.of_state(root), events)

    # ------------------------------------------------------------- score
    def compute_score(self, state: KozyabloState) -> JsonObject:
        result = state["result"]
        creatures = [0] * len(state["players"])
        for d in state["units"].values():
            creatures[d["owner"]] += 1
        sectors = [0] * len(state["players"])
        for sid, s in state["sectors"].items():  # a fallen capital held counts (KOZ-53a)
            if s["controller"] is not None and not is_capital(state, sid):
                sectors[s["controller"]] += 1
        scores = []
        for seat, p in enumerate(state["players"]):
            # a fallen capital (RULING KOZ-53: out) has no life left, captured or not
            life = 0 if p["out"] else max(0, CAPITAL_LIFE - p["capital_damage"])
            scores.append({"player": seat, "total": life, "breakdown": {
                "capital_life": life, "creatures": creatures[seat], "sectors": sectors[seat]}})
        return {"finished": result is not None,
                "winners": list(result["winners"]) if result else [],
                "reason": result["reason"] if result else None, "scores": scores}

    # ------------------------------------------------------------- views
    def hide(self, state: KozyabloState, player: int | None) -> JsonObject:
        return views.hide(state, player)

    def secret_cards(self, state: KozyabloState, player: int | None) -> set[str]:
        return views.secret_cards(state, player)

    def determinize(self, state: KozyabloState, player: int | None, seed: int) -> KozyabloState:
        return views.determinize(state, Catalogue.of_state(state), player, seed)

    #: the other players' card lists are secret, so a view is not enough for
    #: ``determinize``; ``state_from_view`` fills what the view hides with stand-ins
    view_stand_ins_rule = "KOZ-1"

    def state_from_view(self, view: JsonObject, seed: int) -> KozyabloState:
        """``views.state_from_view``, checked: a valid state (else ``InvalidState``
        naming the field of the view) whose view is ``view`` again (else the first
        place where it differs: no Kozyablo state has that view)."""
        built = views.state_from_view(view, seed, self.rules_version)
        try:
            self.validate_state(built)
        except InvalidState as exc:  # the built state mirrors the view, path for path
            raise type(exc)({"view" + k.removeprefix("state"): v
                             for k, v in exc.errors.items()}) from None
        again = self.view(built, view["view"]["player"])
        if again != view:
            raise InvalidState({shape.first_difference(view, again, "view"): [
                N_("does not fit the rest of the view: no Kozyablo state has this view")]})
        return built

    def unseen_in_action(self, view: JsonObject, action: ActionObject) -> Errors:
        return views.unseen_in_action(view, action)

    def check_invariants(self, state: KozyabloState, cards: card_db.CardSet) -> Errors:
        errs = invariants.errors(state, Catalogue.of(cards))
        declared = state.get("declared")
        if not errs and declared is not None:
            spec = self.action_specs.get(str(declared.get("type")))
            if spec is None or declared["type"] not in MAIN:
                errs["state.declared.type"] = [N_("must be a main-phase action type")]
            else:
                errs.update(shape.field_errors(spec, declared, "state.declared"))
        return errs


GAME = Kozyablo()
