"""The one engine contract every game implements.

A game is a small declarative description (id, player counts, options,
action and event types, the shape of its state) plus a handful of hooks.  The
public methods below are written once, here, for all games — modelled on
OpenSpiel's ``Game``/``State`` split and python-chess's ``Board``:

* ``new_game(players, options, seed) -> (state, events)``
* ``pending(state)`` — who must decide now and what kind of decision
* ``legal_actions(state, player=None)`` — every legal action, each ready to
  be sent to ``apply`` as it is
* ``check(state, action)`` — ``{"legal": bool, "rule"?, "reason"?}`` (a legal
  action may carry its type's ``notes``; a game may override ``check``, as
  Raiders does to call a play that would fizzle illegal)
* ``apply(state, action) -> (state, events)`` — pure; an illegal action
  raises ``RuleViolation`` naming the clause
* ``score(state)`` — ``{finished, winners, scores: [{player, total, breakdown}]}``
* ``view(state, player)`` — what that player may see
* ``validate_state(state)`` — schema, then invariants, then compatibility

States are plain JSON objects.  Common fields: ``game``, ``rules_version``,
``card_set`` ``{id, hash}``, ``options``, ``chance`` ``{mode, seed, counter}``,
``players``, ``turn``, ``phase``, ``pending`` and ``result``; everything else
is the game's zones.  Pending decisions are ``{"player": seat | "chance",
"decision": kind, ...}``; several entries mean simultaneous decisions.

Each action type is declared once, as an ``Action`` in the game's
``actions`` table: its fields, description, clause, ``enforce``, ``resolve``
and ``legal`` lister.  The base class dispatches on ``action["type"]``
(as boardgame.io's ``moves: {name: fn}``), so no engine branches on it.
A pending decision kind names, in ``decisions``, the action types that
answer it, in the order ``legal_actions`` lists them.

Hooks a game implements (see ``service/games/raiders`` for the pattern):

=====================  ====================================================
``setup``              the initial state's game part (before chance)
``compute_pending``    the pending list, derived from the state
``after_action``       optional: what follows every action (turn advance)
``wrong_decision``     optional: the clause for a type the decision does not take
``chance_outcomes``    ``[(action, weight)]`` at a chance node
``compute_score``      the score dict
``hide``               redact a state for one player (or ``None``: public)
``check_invariants``   invariant errors of a well-shaped state
``position_value``     optional: how good a state is for a player (the greedy
                       bot's heuristic; default the score lead)
=====================  ====================================================

And data: ``card_schema`` (the marshmallow schema ``card_db`` validates the
game's card files with), ``step_seconds``, ``turn_steps``, ``playout_steps``
(a playout's cost per bot and its horizon, for evaluations), ``search_*``
(the ``suggest`` search's value scale, rollout policy and cost per iteration), ``player_setup_one_of``, ``operations``
(questions only this game answers, each an ``Operation`` served at
``POST /v1/games/<game>/<path>``) and ``evaluation_kinds`` (its own kinds of
``POST /v1/evaluations``, ``service.evaluations.kinds``).  README "How it is built" lists the steps
of adding a game.
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import chain
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar, cast

import card_db
from service.games import shape
from service.games.chance import CHANCE, pick_weighted, with_probabilities
from service.games.draft import Draft
from service.games.errors import (
    IncompatibleState,
    InvalidOptions,
    InvalidState,
    MalformedInput,
    NoSuchSeat,
    RulesChanged,
    RuleViolation,
)
from service.games.messages import N_, either
from service.games.objects import ActionObject, Entry, Errors, Event, JsonObject
from service.games.options import CHANCE_OPTION, Option, resolve_options
from service.games.state_types import CardSetRef, CommonState
from service.games.versions import NotUpgradable, RulesVersion
from service.games.words import Words
from service.limits import MAX_ID_LENGTH, MAX_NAME_LENGTH, MAX_OPTIONS, MAX_SEAT, MAX_SEATS, MAX_STATE_SEED, SEED_BITS

if TYPE_CHECKING:
    from service.games.kind import Kind

#: a game's state type (its ``TypedDict``, written from its shape)
S = TypeVar("S", bound=CommonState)

PENDING_SPEC = shape.ListOf(shape.Obj(
    {"player": shape.OneOf(shape.Int(minimum=0, maximum=MAX_SEAT), shape.Enum(CHANCE)),
     "decision": shape.Str()},
    extra=True), max_items=MAX_SEATS,
    description="Who must decide now; several entries are simultaneous decisions.")

RESULT_SPEC = shape.Nullable(shape.Obj(
    {"finished": shape.Bool(), "winners": shape.ListOf(shape.Int(minimum=0), max_items=MAX_SEATS),
     "reason": shape.Str()},
    {"target": shape.Int(description="the score that won, where the game has a target")},
    extra=True, name="Result"))

#: the card set a state was dealt from; also the ``card_set`` of the cards' answer
#: (``schemas.envelopes``: its component, and this state field's ``TypedDict``)
CARD_SET_REF = shape.Obj({"id": shape.Str(), "hash": shape.Str()}, name="CardSetRef")

COMMON_STATE_FIELDS = {
    "game": shape.Str(),
    "rules_version": shape.Str(),
    "card_set": CARD_SET_REF,
    "options": shape.MapOf(shape.Any_(), max_items=MAX_OPTIONS),
    "chance": shape.Obj({"mode": shape.Enum("server", "table"),
                         "seed": shape.Int(minimum=0, maximum=MAX_STATE_SEED),
                         "counter": shape.Int(minimum=0)}, name="Chance"),
    "turn": shape.Int(minimum=0),
    "phase": shape.Str(),
    "pending": PENDING_SPEC,
    "result": RESULT_SPEC,
}

#: keys every action may carry besides its own fields
ACTION_COMMON = {"type": shape.Str(max_length=MAX_ID_LENGTH),
                 "player": shape.OneOf(shape.Int(minimum=0, maximum=MAX_SEAT), shape.Enum(CHANCE))}
#: informational keys the engine ignores (legal-actions attaches them)
ACTION_INFO_KEYS = ("probability",)

#: ``enforce(state, action)``: raise ``RuleViolation`` naming the clause if illegal
Enforce = Callable[[S, ActionObject], None]
#: ``resolve(draft, action, events)``: carry a legal action out, append events
Resolve = Callable[[Draft[S], ActionObject, list[Event]], None]
#: ``legal(state, entry)``: the legal actions of this type for one pending entry
Lister = Callable[[S, Entry], Iterable[ActionObject]]
#: ``notes(state, action)``: what ``check`` adds about a legal action
Notes = Callable[[S, ActionObject], JsonObject]


@dataclass(frozen=True)
class Action(Generic[S]):
    """One action type, declared once.

    ``fields`` (and ``optional``) are the shape of its own keys besides
    ``type`` and ``player``; ``enforce`` refuses an illegal one (a chance
    outcome has none: it is legal when ``chance_outcomes`` lists it);
    ``resolve`` carries it out; ``legal`` lists every legal action of this
    type for a pending entry — or, without it, ``candidates`` lists a
    superset that ``enforce`` filters; ``notes`` feeds ``Game.check``'s answer.

    >>> Action("Roll the die (DIE-1).", {}, resolve=lambda d, a, e: None, chance=True).chance
    True
    """

    description: str
    fields: Mapping[str, shape.Spec]
    resolve: Resolve[S]
    enforce: Enforce[S] | None = None
    legal: Lister[S] | None = None
    candidates: Lister[S] | None = None
    notes: Notes[S] | None = None
    optional: Mapping[str, shape.Spec] = field(default_factory=dict)
    chance: bool = False


#: ``handler(body) -> answer``: an ``Operation`` answered from its validated body
Handler = Callable[[JsonObject], JsonObject]
#: a JSON Schema, as the OpenAPI document holds it
JsonSchema = Mapping[str, Any]


@dataclass(frozen=True)
class Operation:
    """A question only this game answers, declared as data.

    Served at ``POST /v1/games/<game>/<path>`` by one generic blueprint
    (``service.http.game_operations``), documented by ``service.openapi``: the
    body is checked against ``request`` (a shape spec, ``schemas.envelopes.load``; one of
    ``shape_1_0`` is loaded with its defaults) and handed to the pure ``handler``; its answer
    is documented by ``response`` (a shape spec or a JSON Schema; a ``Ref`` inside either
    is its own component).  An
    unknown ``card_set`` in the body (``card_db.UnknownCardSet``) answers 404.
    ``localized``: the answer holds messages, sent in the request's language.
    ``document_request`` refines the request's JSON Schema where a shape
    cannot say it (e.g. a ``oneOf``, enums read from the card data).
    """

    path: str
    operation_id: str
    summary: str
    request: shape.Spec
    request_name: str
    response: shape.Spec | JsonSchema
    response_name: str
    handler: Handler
    example: Mapping[str, Any]
    ok_text: str
    errors: tuple[int, ...] = (400, 405, 413, 415, 429, 500)
    description: str | None = None
    #: OpenAPI tags (default: the game id)
    tags: tuple[str, ...] = ()
    localized: bool = False
    document_request: Callable[[JsonObject], JsonObject] | None = None


class Game(Generic[S]):
    """Base class of every rules engine, generic over its state type (the ``TypedDict``
    written from its shape, ``service.games.typegen``).  Subclasses fill the class data."""

    id: ClassVar[str]
    title: ClassVar[dict[str, str]]  # {"en": ..., "ru": ...}
    rules_version: ClassVar[str]
    #: every version of the rules, oldest first, the last one ``rules_version``, each
    #: with the clauses it changed (``service.games.versions``); empty: one version 1.0.0
    rules_history: ClassVar[tuple[RulesVersion, ...]] = ()
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    game_options: ClassVar[tuple[Option, ...]] = ()
    #: action type -> its one declaration
    actions: Mapping[str, Action[S]] = {}
    #: event type -> description
    event_types: ClassVar[dict[str, str]] = {}
    #: pending decision kind -> the action types a player (or chance) may send
    #: while it is pending; shown by ``describe`` and held by the contract tests
    decisions: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: the state's game-specific fields (common ones are added)
    state_fields: ClassVar[dict[str, shape.Spec]] = {}
    #: clause cited when a player acts while not pending / after the end
    not_your_turn_rule: ClassVar[str]
    game_over_rule: ClassVar[str]

    @property
    def searchable(self) -> bool:
        """Whether it implements ``determinize``, which the search of ``suggest`` and
        the playouts of a player's view need."""
        return type(self).determinize is not Game.determinize

    @property
    def clause_prefix(self) -> str:
        """The prefix of this game's clause ids (``RAI`` of ``RAI-12``)."""
        return self.not_your_turn_rule.split("-", 1)[0]
    #: schema of a per-player setup object in ``new`` (besides a count)
    player_setup_fields: ClassVar[dict[str, shape.Spec]] = {"name": shape.Str(max_length=MAX_NAME_LENGTH)}
    #: fields of which a player setup needs exactly one (documented as a ``oneOf``)
    player_setup_one_of: ClassVar[tuple[str, ...]] = ()
    #: the marshmallow schema of the game's card files (``card_db/<game>/<set>.yaml``)
    card_schema: ClassVar[type[card_db.CardSchema]]
    #: the work of a playout, bounded (``service.evaluations.playouts.playout_bound``
    #: sizes chunks, ``Retry-After``, the work cap and each chunk's CPU deadline with
    #: it), measured by ``python -m bench.step_costs`` on the reference machine:
    #: CPU seconds of one step per bot name (the worst playout of every player
    #: count, ×1.5); the most steps of one turn, ``a + b × players``, for a game a
    #: turn limit ends (``None``: none does); the most steps of a playout of a game
    #: that ends on its own (``None``: only ``max_steps`` bounds it)
    step_seconds: ClassVar[Mapping[str, float]] = {}
    turn_steps: ClassVar[tuple[float, float] | None] = None
    playout_steps: ClassVar[int | None] = None
    #: questions only this game answers, besides the contract
    operations: ClassVar[tuple[Operation, ...]] = ()
    #: evaluation kinds only this game answers (``service.games.kind.Kind``)
    evaluation_kinds: ClassVar[tuple[Kind, ...]] = ()
    #: the game's words for the scorekeeper's console, English and Russian (``service.games.words``)
    words: ClassVar[Words] = {}
    #: the information-set search of ``suggest`` (``service.games.ismcts``): the
    #: ``position_value`` lead rated a 73 % result (a logistic curve: 1 / (1 + e^-1)),
    #: the rollout policy below the tree (``random`` or ``greedy``), and CPU seconds
    #: per iteration on the reference machine (sizes chunks and the work cap)
    search_value_scale: ClassVar[float] = 10.0
    search_rollout: ClassVar[str] = "random"
    search_iteration_seconds: ClassVar[float] = 0.002

    def __init__(self) -> None:
        card_db.register_schema(self.id, self.card_schema)
        self.options = (CHANCE_OPTION,) + tuple(self.game_options)
        self.state_spec = shape.Obj({**COMMON_STATE_FIELDS, **self.state_fields},
                                    description=f"A {self.id} game state.")
        self.action_specs = {
            t: shape.Obj({**ACTION_COMMON, **a.fields},
                         {**a.optional, **{k: shape.Str() for k in ACTION_INFO_KEYS}},
                         description=a.description)
            for t, a in self.actions.items()}
        self.player_setup_spec = shape.Obj({}, dict(self.player_setup_fields))
        #: decision kind -> how each action type it takes is listed, in order
        self._listers = {decision: tuple((kind, self._lister(self.actions[kind])) for kind in kinds)
                         for decision, kinds in self.decisions.items()}

    # ------------------------------------------------------------------ meta
    @property
    def rules_versions(self) -> tuple[RulesVersion, ...]:
        """The declared history (``rules_history``), or one version 1.0.0 of ``rules_version``."""
        return self.rules_history or (RulesVersion(self.rules_version, "1.0.0"),)

    @property
    def rules_semver(self) -> str:
        """The semantic version of the rules this engine plays (``MAJOR.MINOR.PATCH``)."""
        return self.rules_versions[-1].version

    @property
    def served_versions(self) -> tuple[str, ...]:
        """The rules versions whose states are read: this one, and each older one from
        which every later step declares its migration (``RulesVersion.upgrade``)."""
        served = [self.rules_version]
        history = self.rules_versions
        for older, step in zip(reversed(history[:-1]), reversed(history[1:]), strict=True):
            if step.upgrade is None:
                break
            served.append(older.id)
        return tuple(served)

    def upgrade_state(self, state: Any) -> tuple[Any, JsonObject | None]:
        """A state of an older served rules version carried over to this one by the declared
        migrations, step by step, and what was done (``from``, ``to``, ``clauses`` changed);
        any other state as it is (``None``), for ``validate_state`` to judge.  A state of a
        declared older version that is not served, or that a migration will not carry over
        (``NotUpgradable``), raises ``RulesChanged`` naming the changed clauses."""
        if not isinstance(state, dict) or state.get("game") != self.id:
            return state, None
        source = state.get("rules_version")
        ids = [v.id for v in self.rules_versions]
        if source == self.rules_version or source not in ids:
            return state, None
        steps = self.upgrade_steps(source, "state.rules_version")
        clauses = list(dict.fromkeys(c.clause for s in steps for c in s.changes if c.clause))
        described = [c.describe() for step in steps for c in step.changes]
        out = state
        for step in steps:
            try:
                out = {**step.upgrade(out), "rules_version": step.id}  # type: ignore[misc]
            except NotUpgradable as exc:
                raise RulesChanged({"state.rules_version": [N_(
                    "written for {source!r} and not carried over to {target!r}: {reason} "
                    "(changed: {clauses})", source=source, target=self.rules_version,
                    reason=exc.reason, clauses=", ".join(exc.clauses))]},
                    source, self.rules_version, exc.clauses,
                    [c for c in described if c["clause"] in exc.clauses]) from None
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                # not a state of that version as it was written: say so, never a 500
                raise InvalidState({"state": [N_(
                    "not a {source!r} state as that version wrote them", source=source)]}) from None
        return out, {"from": source, "to": self.rules_version, "clauses": clauses}

    def upgrade_steps(self, source: str, field: str) -> tuple[RulesVersion, ...]:
        """The rules steps from the older declared version ``source`` to this one, every one
        with its migration; ``RulesChanged`` (naming ``field`` and the changed clauses) when
        one has none, ``IncompatibleState`` for a version never declared."""
        ids = [v.id for v in self.rules_versions]
        if source not in ids:
            raise IncompatibleState({field: [
                N_("written for {value!r}; this service plays {rules_version!r}",
                   value=source, rules_version=self.rules_version)]})
        steps = self.rules_versions[ids.index(source) + 1:]
        if all(step.upgrade is not None for step in steps):
            return steps
        changes = [c for step in steps for c in step.changes]
        clauses = list(dict.fromkeys(c.clause for c in changes if c.clause))
        raise RulesChanged({field: [N_(
            "written for {source!r}, which this service no longer plays (it plays "
            "{target!r}; GET /v1/games/{game}: rules_versions): the rules changed in "
            "{clauses}", source=source, target=self.rules_version, game=self.id,
            clauses=", ".join(clauses) or "-")]},
            source, self.rules_version, clauses, [c.describe() for c in changes])

    def describe(self) -> JsonObject:
        """What ``GET /v1/games/{game}`` shows."""
        history = self.rules_versions
        served = self.served_versions
        return {
            "id": self.id, "title": self.title, "rules_version": self.rules_version,
            "rules_semver": self.rules_semver,
            "rules_versions": [v.describe(current=v.id == self.rules_version,
                                          served=v.id in served)
                               for v in reversed(history)],
            "players": {"min": self.min_players, "max": self.max_players},
            "options": [o.describe(range(self.min_players, self.max_players + 1))
                        for o in self.options],
            "action_types": {t: a.description for t, a in self.actions.items()},
            "decisions": {d: list(types) for d, types in self.decisions.items()},
            "event_types": dict(self.event_types),
            "card_sets": card_db.available(self.id),
            "takes_views": self.takes_views, "suggests": self.searchable,
        }

    def card_set(self, state_or_id: S | str = "reference") -> card_db.CardSet:
        set_id = state_or_id if isinstance(state_or_id, str) else state_or_id["card_set"]["id"]
        return card_db.get(self.id, set_id)

    # ------------------------------------------------------------- contract
    def new_game(self, players: int | list[JsonObject], options: JsonObject | None = None,
                 seed: int | None = None, card_set: str = "reference") -> tuple[S, list[Event]]:
        """A new game after setup; chance is resolved unless ``chance: table``."""
        count, setups = self._normalise_players(players)
        opts = resolve_options(self.options, options, count)
        if seed is None:  # a seed given was checked by its request (schemas/envelopes.py:
            seed = secrets.randbits(SEED_BITS)  # at most MAX_SEED in `new`, else MAX_STATE_SEED)
        try:
            cards = self.card_set(card_set)
        except card_db.UnknownCardSet:
            raise InvalidOptions({"card_set": [
                N_("unknown card set; available: {items}",
                   items=', '.join(card_db.available(self.id)))]}) from None
        fields: JsonObject = {
            "game": self.id, "rules_version": self.rules_version, "card_set": cards.ref(),
            "options": opts, "chance": {"mode": opts["chance"], "seed": seed, "counter": 0},
            "turn": 0, "phase": "setup", "pending": [], "result": None,
        }
        events: list[Event] = []
        fields.update(self.setup(count, setups, opts, cards, events))
        # the common fields and the game's ``setup``: where a new state becomes an ``S``
        draft = Draft(cast(S, fields))
        self._settle(draft, events)
        return draft.root, events

    def pending(self, state: S) -> list[Entry]:
        return state["pending"]

    def legal_actions(self, state: S, player: int | str | None = None) -> list[ActionObject]:
        """Every legal action of the pending players (or of ``player`` only)."""
        actions: list[ActionObject] = []
        for entry in state["pending"]:
            who = entry["player"]
            if player is not None and who != player:
                continue
            if who == CHANCE:
                actions.extend(with_probabilities(self.chance_outcomes(state)))
            else:
                actions.extend(self.actions_for(state, entry))
        return actions

    def actions_for(self, state: S, entry: Entry) -> list[ActionObject]:
        """The legal actions of a player's pending ``entry``: for each action
        type its decision takes (in ``decisions`` order), the type's ``legal``
        list, or its ``candidates`` that pass its ``enforce`` (``_listers``).
        A game overrides it for a rule about a decision as a whole."""
        return self.list_decision(state, entry)

    def list_decision(self, state: S, entry: Entry,
                      listed: Mapping[str, Iterable[ActionObject]] | None = None
                      ) -> list[ActionObject]:
        """``actions_for``'s listing; ``listed``: action types whose legal
        actions the caller has already computed, used in their place."""
        out: list[ActionObject] = []
        if listed is None:
            for _, lister in self._listers[entry["decision"]]:
                out.extend(lister(state, entry))
        else:
            for kind, lister in self._listers[entry["decision"]]:
                out.extend(listed[kind] if kind in listed else lister(state, entry))
        return out

    def _lister(self, declared: Action[S]) -> Lister[S]:
        """How one action type is listed: its ``legal``, else its ``candidates``
        filtered by ``check_action``, else nothing (a chance outcome)."""
        if declared.legal is not None:
            return declared.legal
        candidates = declared.candidates
        if candidates is None:
            return lambda state, entry: ()

        def checked(state: S, entry: Entry) -> Iterable[ActionObject]:
            for action in candidates(state, entry):
                try:
                    self.check_action(state, action)
                except RuleViolation:
                    continue
                yield action
        return checked

    def check_action(self, state: S, action: ActionObject) -> None:
        """Raise ``RuleViolation`` unless the pending ``action`` is legal: its
        type must answer the player's pending decision, then its own ``enforce``."""
        entry = next(e for e in state["pending"] if e["player"] == action["player"])
        self._check_for(state, action, entry)

    def _check_for(self, state: S, action: ActionObject, entry: Entry) -> None:
        """``check_action`` with the player's pending ``entry`` already found."""
        declared = self.actions[action["type"]]
        if declared.chance or action["type"] not in self.decisions.get(entry["decision"], ()):
            raise RuleViolation(*self.wrong_decision(state, entry, action))
        if declared.enforce is not None:
            declared.enforce(state, action)

    def constraints(self, state: S, player: int) -> JsonObject | None:
        """Machine-readable constraint of a decision too large to list."""
        return None

    def check(self, state: S, action: object) -> JsonObject:
        """``{"legal": True, **notes}`` or ``{"legal": False, "rule", "reason"}``."""
        try:
            action = self._validate_action(state, action)
        except RuleViolation as exc:
            return {"legal": False, "rule": exc.rule, "reason": exc.reason}
        if action["player"] == CHANCE:
            return {"legal": True}
        return {"legal": True, **self.check_notes(state, action)}

    def check_notes(self, state: S, action: ActionObject) -> JsonObject:
        """What ``check`` adds about a legal player's action: its type's ``notes``."""
        notes = self.actions[action["type"]].notes
        return notes(state, action) if notes is not None else {}

    def apply(self, state: S, action: object) -> tuple[S, list[Event]]:
        """The state after ``action`` and what happened.  The input is not changed."""
        action = self._validate_action(state, action)
        draft = Draft(state)
        events: list[Event] = []
        self.resolve(draft, action, events)
        self._settle(draft, events)
        return draft.root, events

    def resolve(self, draft: Draft[S], action: ActionObject, events: list[Event]) -> None:
        """Carry out a legal action (a player's or chance's): its type's
        ``resolve``, then ``after_action``."""
        self.actions[action["type"]].resolve(draft, action, events)
        self.after_action(draft, action, events)

    def score(self, state: S) -> JsonObject:
        return self.compute_score(state)

    def view(self, state: S, player: int | None) -> JsonObject:
        """The state as ``player`` may see it (``None``: a spectator)."""
        if player is not None and not (
                isinstance(player, int) and not isinstance(player, bool)
                and 0 <= player < seats(state)):
            seat = isinstance(player, int) and not isinstance(player, bool)
            raise (NoSuchSeat if seat else MalformedInput)({"player": [
                N_("must be a seat from 0 to {last} or null", last=seats(state) - 1)]})
        seen = self.hide(state, player)
        seen["chance"] = {"mode": state["chance"]["mode"]}
        seen["view"] = {"player": player}
        return seen

    def validate_state(self, state: object) -> None:
        """Raise unless ``state`` is a well-formed, consistent state of this game."""
        if not isinstance(state, dict):
            raise InvalidState({"state": [N_("must be an object")]})
        if "view" in state:
            raise InvalidState({"state.view": [
                N_("this is a player's view, not a game state; send the full state")]})
        if state.get("game") != self.id:
            raise IncompatibleState({"state.game": [N_("this endpoint takes {id!r} states",
                                                       id=self.id)]})
        if state.get("rules_version") != self.rules_version:
            self.upgrade_state(state)  # an older declared version not served: its clauses named
            raise IncompatibleState({"state.rules_version": [
                N_("written for {value!r}; this service plays {rules_version!r}",
                   value=state.get('rules_version'), rules_version=self.rules_version)]})
        errors = shape.field_errors(self.state_spec, state, "state")
        if errors:
            raise InvalidState(errors)
        valid = cast(S, state)  # its shape, checked just now: the game's state type
        cards = card_set_of(self.id, valid["card_set"], "state")
        try:
            opts = resolve_options(self.options, state["options"], seats(valid))
        except InvalidOptions as exc:
            raise InvalidState({f"state.{k}": v for k, v in exc.errors.items()}) from None
        if opts != state["options"]:
            raise InvalidState({"state.options": [N_("missing options; send them as `new` "
                                                     "returned them")]})
        if state["chance"]["mode"] != opts["chance"]:
            raise InvalidState({"state.chance.mode": [N_("differs from options.chance")]})
        errors = self.check_invariants(valid, cards)
        if errors:
            raise InvalidState(errors)
        if state["result"] is None and self.compute_pending(valid) != state["pending"]:
            raise InvalidState({"state.pending": [
                N_("does not match the phase: expected {value!r}",
                   value=self.compute_pending(valid))]})
        if state["result"] is not None and state["pending"]:
            raise InvalidState({"state.pending": [N_("a finished game has no pending decision")]})

    # ----------------------------------------------------------- machinery
    def _normalise_players(self, players: Any) -> tuple[int, list[JsonObject]]:
        setups: list[JsonObject]  # a count or a list: its request (``schemas.envelopes.SETUP``) said so
        if isinstance(players, int):
            count, setups = players, [{} for _ in range(max(players, 0))]
        else:
            count, setups = len(players), players
        if not self.min_players <= count <= self.max_players:
            raise InvalidOptions({"players": [
                N_("{id} takes {min_players} to {max_players} players, not {count}",
                   id=self.id, min_players=self.min_players, max_players=self.max_players,
                   count=count)]})
        errors: Errors = {}
        for i, s in enumerate(setups):
            errors.update(shape.field_errors(self.player_setup_spec, s, f"players.{i}"))
        if errors:
            raise InvalidOptions(errors)
        return count, setups

    def _validate_action(self, state: S, action: object) -> ActionObject:
        """Shape, then whose decision it is, then the game's own rules."""
        if not isinstance(action, dict):
            raise MalformedInput({"action": [N_("must be an object")]})
        kind = action.get("type")
        spec = self.action_specs.get(kind) if isinstance(kind, str) else None
        if spec is None:
            raise MalformedInput({"action.type": [
                N_("unknown action type; {id} knows: {items}",
                   id=self.id, items=', '.join(self.action_specs))]})
        errors = shape.field_errors(spec, action, "action")
        if errors:
            raise MalformedInput(errors)
        if any(k in action for k in ACTION_INFO_KEYS):
            action = {k: v for k, v in action.items() if k not in ACTION_INFO_KEYS}
        if state["result"] is not None:
            raise RuleViolation(self.finished_rule(state), N_("the game is over"))
        player = action["player"]
        entry = next((p for p in state["pending"] if p["player"] == player), None)
        if entry is None:
            who = ", ".join(str(p["player"]) for p in state["pending"])
            raise RuleViolation(*self.out_of_turn(
                state, action, N_("player {player} has no decision to make now (pending: {who})",
                                  player=player, who=who)))
        if player == CHANCE:
            outcomes = [a for a, _ in self.chance_outcomes(state)]
            if action not in outcomes:
                raise RuleViolation(self.out_of_turn_rule(state),
                                    self.impossible_outcome_reason(state, entry, action,
                                                                   outcomes))
            return action
        self._check_for(state, action, entry)
        return action

    def _settle(self, draft: Draft[S], events: list[Event]) -> None:
        """Recompute ``pending``; in server mode resolve chance nodes as they come."""
        root = draft.root
        server = root["chance"]["mode"] == "server"
        while True:
            pending = [] if root["result"] is not None else self.compute_pending(root)
            root["pending"] = pending
            if not (server and pending and pending[0]["player"] == CHANCE):
                return
            outcome = self.pick_chance(draft.at("chance"), root)
            events.append({"type": "chance", "action": outcome})
            self.resolve(draft, outcome, events)

    # --------------------------------------------------------------- hooks
    def setup(self, players: int, setups: list[JsonObject], options: JsonObject,
              cards: card_db.CardSet, events: list[Event]) -> JsonObject:
        raise NotImplementedError

    def compute_pending(self, state: S) -> list[Entry]:
        raise NotImplementedError

    def finished_rule(self, state: S) -> str:
        """The clause cited for an action after the end (default ``game_over_rule``;
        a game may name the clause its game ended by)."""
        return self.game_over_rule

    def out_of_turn_rule(self, state: S) -> str:
        """The clause cited when a player who is not pending acts (default
        ``not_your_turn_rule``; a game may name a phase's own clause).  Also
        cited for an impossible outcome at a chance node, so a game should
        name the clause of the draw, deal or roll that is pending."""
        return self.not_your_turn_rule

    def impossible_outcome_reason(self, state: S, entry: Entry, action: ActionObject,
                                  outcomes: list[ActionObject]) -> str:
        """Why a chance outcome is refused, in one sentence.

        Default: what the pending node expects (its action type and the
        fields that vary between its outcomes).  A game overrides it to say
        why a well-formed outcome cannot happen (e.g. no copy of that card is
        left), calling this default for the rest.

        >>> Game.impossible_outcome_reason(None, {}, {"decision": "roll"},
        ...     {"type": "draw"}, [{"type": "roll", "player": "chance", "total": 2}])
        "the 'roll' chance node is pending: it takes a 'roll' outcome, not 'draw'"
        >>> Game.impossible_outcome_reason(None, {}, {"decision": "roll"},
        ...     {"type": "roll", "total": 13}, [{"type": "roll", "total": t} for t in (2, 3)])
        "total 13 cannot happen at the 'roll' chance node; possible: 2, 3"
        >>> Game.impossible_outcome_reason(None, {}, {"decision": "roll"},
        ...     {"type": "roll", "dice": [7]}, [{"type": "roll", "dice": [t]} for t in (2, 1)])
        "dice [7] cannot happen at the 'roll' chance node; possible: [1], [2]"
        """
        node = N_("the {decision!r} chance node", decision=entry["decision"])
        kinds = sorted({o["type"] for o in outcomes})
        if action["type"] not in kinds:
            return (N_("{node} is pending: it takes a {items} outcome, not {type!r}",
                       node=node, items=either(repr(k) for k in kinds), type=action['type']))
        same = [o for o in outcomes if o["type"] == action["type"]]
        varying = sorted({k for o in same for k in o if any(k not in x or x[k] != o[k]
                                                            for x in same)})
        if len(varying) == 1:
            key = varying[0]
            distinct = {repr(o[key]): o[key] for o in same}  # a value may be a list
            values = sorted(distinct.values(), key=lambda v: (
                str(type(v)), v if isinstance(v, (int, float, str)) else repr(v)))
            listed = ", ".join(map(_shown, values[:12])) + (" …" if len(values) > 12 else "")
            return (N_("{key} {value} cannot happen at {node}; possible: {listed}",
                       key=key, value=_shown(action.get(key)), node=node, listed=listed))
        return (N_("that {type!r} outcome cannot happen at {node} ({count} outcomes are "
                   "possible; legal-actions lists them)",
                   type=action['type'], node=node, count=len(same)))

    def out_of_turn(self, state: S, action: ActionObject, reason: str) -> tuple[str, str]:
        """``(clause, reason)`` cited when a player who is not pending sends
        ``action``.  Default: ``out_of_turn_rule(state)`` and ``reason``; a game
        overrides it to cite the clause the action itself breaks (a trick out of
        turn, a credit while the game waits for someone else)."""
        return self.out_of_turn_rule(state), reason

    def wrong_decision(self, state: S, entry: Entry, action: ActionObject) -> tuple[str, str]:
        """``(clause, reason)`` when a pending player sends an action type their
        decision does not take.  Default: ``out_of_turn_rule`` and the types
        it takes; a game overrides it to cite a phase's own clause."""
        takes = self.decisions.get(entry["decision"], ())
        if self.actions[action["type"]].chance:
            return self.out_of_turn_rule(state), N_(
                "{kind} is a chance outcome, not a player's action", kind=action["type"])
        return self.out_of_turn_rule(state), N_(
            "the pending {decision!r} decision takes {items}, not {kind!r}",
            decision=entry["decision"], items=either(repr(k) for k in takes), kind=action["type"])

    def after_action(self, draft: Draft[S], action: ActionObject, events: list[Event]) -> None:
        """What follows every action once its own ``resolve`` is done (default
        nothing; a game advances its turn structure here)."""

    def chance_outcomes(self, state: S) -> list[tuple[ActionObject, int]]:
        raise NotImplementedError

    def pick_chance(self, rng: JsonObject, state: S) -> ActionObject:
        """The outcome of the pending chance node that the generator ``rng`` draws
        (``chance: server``): ``pick_weighted`` over ``chance_outcomes``.  A game
        whose outcomes are many may draw the same one, with the same numbers, without
        listing them all."""
        return pick_weighted(rng, self.chance_outcomes(state))

    def compute_score(self, state: S) -> JsonObject:
        raise NotImplementedError

    def hide(self, state: S, player: int | None) -> JsonObject:
        raise NotImplementedError

    def check_invariants(self, state: S, cards: card_db.CardSet) -> Errors:
        return {}

    def position_value(self, state: S, player: int) -> float:
        """How good ``state`` is for ``player``, higher is better: the greedy
        bot's heuristic (``service.games.bots``).  Default: ``score_lead``."""
        return score_lead(self, state, player)

    def determinize(self, state: S, player: int | None, seed: int) -> S:
        """A full state that ``player`` cannot tell apart from ``state``.

        Everything hidden from ``player`` (other hands, secret purchases,
        unrevealed orders, missions, deck contents where the split between
        a hand and a deck is unknown) is re-dealt at random (seeded) from the
        cards ``player`` cannot locate, and the chance seed is replaced, so an
        evaluation that plays on from it never peeks.  Used by playouts.

        The result must depend on ``view(state, player)`` and ``seed`` only
        (sort a pool before the seeded shuffle, emit hidden lists sorted), so
        that a client holding only its view can reproduce it
        (``tests/shared/test_determinize.py``).
        """
        raise NotImplementedError

    def state_from_view(self, view: JsonObject, seed: int) -> S:
        """A full state built from ``view`` (as ``view(state, player)`` returned it)
        alone, with ``seed`` as its chance seed: what lets a player who holds only their
        view ask the service about their own decisions (``legal-actions``, ``check``)
        without the host handing over the full state.  Optional: a game without it
        takes no views.

        Two contracts, by ``view_state_is_determinize``.  True: the state equals
        ``determinize(state, player, seed)`` — byte for byte, key order included — for
        every ``state`` with that view (``tests/shared/test_state_from_view.py``).
        False, where ``determinize`` reads what no view shows (Kozyablo re-deals from
        the other players' card lists, KOZ-1): a state the builder validated (its
        errors named on the view; the caller does not check it again) whose view is
        ``view`` again, the unseen cards being stand-ins the viewer's own decisions
        never read.  Either way its answers about the viewer's own decisions (pending,
        legal actions, constraints, ``check``) are the true state's
        (``tests/http/test_views_as_states.py``).
        """
        raise NotImplementedError

    #: the clause that keeps ``state_from_view`` from being ``determinize`` (the
    #: view does not show what ``determinize`` reads), so it fills stand-ins; None: it
    #: is ``determinize``
    view_stand_ins_rule: ClassVar[str | None] = None

    @property
    def view_state_is_determinize(self) -> bool:
        """Which contract ``state_from_view`` keeps (see there)."""
        return self.view_stand_ins_rule is None

    @property
    def takes_views(self) -> bool:
        """Whether it implements ``state_from_view``: ``legal-actions`` and ``check``
        (and, when ``view_state_is_determinize``, ``suggest``) take a player's view."""
        return type(self).state_from_view is not Game.state_from_view

    def unseen_in_action(self, view: JsonObject, action: ActionObject) -> Errors:
        """Errors by field of ``action`` (checked from ``view``) that name what the view
        does not show, where the answer would depend on it: refused, never guessed.
        Default none (a game whose ``state_from_view`` holds stand-ins overrides it)."""
        return {}

    @property
    def suggests_from_views(self) -> bool:
        """Whether ``suggest`` takes a player's view: the search starts every iteration
        from ``determinize``, so only a view that ``determinize`` can be rebuilt from
        ranks as the full state does (``view_state_is_determinize``)."""
        return self.takes_views and self.view_state_is_determinize

    def secret_cards(self, state: S, player: int | None) -> set[str]:
        """Card instance ids (or other secret tokens) ``player`` may not see.

        Used by the tests to prove ``view`` leaks nothing: no string value in
        the view may equal one of these.  Instance ids are unique in a state.
        """
        raise NotImplementedError


class GameState(CommonState):
    """What every game's state is to a caller outside its package: the common fields and
    the seats (each game's ``players`` entries have its own shape)."""

    options: JsonObject
    players: list[JsonObject]


#: a state as a caller outside a game's package passes it in: a game's own state, a
#: ``GameState`` or a request's decoded JSON (validated by ``validate_state`` first)
StateIn = Mapping[str, object]


class AnyGame(Protocol):
    """An engine of any game, as the registry hands it out: what callers outside a game's
    package use of ``Game``, with the game's own state type erased to ``GameState``
    (``registry.get_game`` is the one place where a ``Game[S]`` becomes one).  A state
    passed in must be one this game wrote or ``validate_state`` accepted; the methods
    are ``Game``'s, documented there."""

    @property
    def id(self) -> str: ...
    @property
    def title(self) -> Mapping[str, str]: ...
    @property
    def rules_version(self) -> str: ...
    @property
    def rules_versions(self) -> tuple[RulesVersion, ...]: ...
    @property
    def rules_semver(self) -> str: ...
    @property
    def served_versions(self) -> tuple[str, ...]: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def options(self) -> tuple[Option, ...]: ...
    @property
    def game_options(self) -> tuple[Option, ...]: ...
    @property
    def event_types(self) -> Mapping[str, str]: ...
    @property
    def state_fields(self) -> Mapping[str, shape.Spec]: ...
    @property
    def state_spec(self) -> shape.Obj: ...
    @property
    def action_specs(self) -> Mapping[str, shape.Obj]: ...
    @property
    def player_setup_spec(self) -> shape.Obj: ...
    @property
    def player_setup_one_of(self) -> tuple[str, ...]: ...
    @property
    def card_schema(self) -> type[card_db.CardSchema]: ...
    @property
    def step_seconds(self) -> Mapping[str, float]: ...
    @property
    def turn_steps(self) -> tuple[float, float] | None: ...
    @property
    def playout_steps(self) -> int | None: ...
    @property
    def operations(self) -> tuple[Operation, ...]: ...
    @property
    def evaluation_kinds(self) -> tuple[Kind, ...]: ...
    @property
    def words(self) -> Words: ...
    @property
    def search_value_scale(self) -> float: ...
    @property
    def search_rollout(self) -> str: ...
    @property
    def search_iteration_seconds(self) -> float: ...
    @property
    def searchable(self) -> bool: ...
    @property
    def clause_prefix(self) -> str: ...
    @property
    def takes_views(self) -> bool: ...
    @property
    def view_state_is_determinize(self) -> bool: ...
    @property
    def suggests_from_views(self) -> bool: ...
    @property
    def view_stand_ins_rule(self) -> str | None: ...

    def out_of_turn_rule(self, state: StateIn) -> str: ...

    def upgrade_state(self, state: object) -> tuple[object, JsonObject | None]: ...
    def upgrade_steps(self, source: str, field: str) -> tuple[RulesVersion, ...]: ...
    def describe(self) -> JsonObject: ...
    def card_set(self, state_or_id: StateIn | str = "reference") -> card_db.CardSet: ...
    def new_game(self, players: int | list[JsonObject], options: JsonObject | None = None,
                 seed: int | None = None, card_set: str = "reference"
                 ) -> tuple[GameState, list[Event]]: ...
    def pending(self, state: StateIn) -> list[Entry]: ...
    #: a game's own migrations derive ``pending`` with it (they find their engine here)
    def compute_pending(self, state: StateIn) -> list[Entry]: ...
    def legal_actions(self, state: StateIn, player: int | str | None = None) -> list[ActionObject]: ...
    def chance_outcomes(self, state: StateIn) -> list[tuple[ActionObject, int]]: ...
    def constraints(self, state: StateIn, player: int) -> JsonObject | None: ...
    def check(self, state: StateIn, action: object) -> JsonObject: ...
    def apply(self, state: StateIn, action: object) -> tuple[GameState, list[Event]]: ...
    def score(self, state: StateIn) -> JsonObject: ...
    def view(self, state: StateIn, player: int | None) -> JsonObject: ...
    def validate_state(self, state: object) -> None: ...
    def position_value(self, state: StateIn, player: int) -> float: ...
    def determinize(self, state: StateIn, player: int | None, seed: int) -> GameState: ...
    def state_from_view(self, view: JsonObject, seed: int) -> GameState: ...
    def unseen_in_action(self, view: JsonObject, action: ActionObject) -> Errors: ...
    def secret_cards(self, state: StateIn, player: int | None) -> set[str]: ...


def validated(game: AnyGame, state: object) -> GameState:
    """``state`` once ``game.validate_state`` accepted it (else that raises): a state of that
    game, typed as the seam sees one."""
    game.validate_state(state)
    return cast(GameState, state)


def view_marker(view: object, game_id: str, rules_version: str) -> JsonObject:
    """The ``view`` member (``{player}``) of what claims to be a view of a ``game_id``
    state, checked first by every ``state_from_view``: an object, that names its
    player, of this game and rules version (else ``InvalidState`` or
    ``IncompatibleState`` naming the field)."""
    if not isinstance(view, dict):
        raise InvalidState({"view": [N_("must be an object")]})
    marker = view.get("view")
    if not isinstance(marker, dict) or "player" not in marker:
        raise InvalidState({"view.view": [N_("not a player's view: `view` (as the service "
                                             "returned it) names its player")]})
    if view.get("game", game_id) != game_id:
        raise IncompatibleState({"view.game": [N_("this endpoint takes {id!r} states",
                                                  id=game_id)]})
    if view.get("rules_version", rules_version) != rules_version:
        raise IncompatibleState({"view.rules_version": [
            N_("written for {value!r}; this service plays {rules_version!r}",
               value=view.get("rules_version"), rules_version=rules_version)]})
    return marker


def card_set_of(game_id: str, ref: CardSetRef, path: str) -> card_db.CardSet:
    """The card set ``ref`` (``{id, hash}`` of a state, or of a view: ``path``) names, as
    loaded now; ``IncompatibleState`` naming the field when it is unknown or has changed."""
    try:
        cards = card_db.get(game_id, ref["id"])
    except card_db.UnknownCardSet:
        raise IncompatibleState({f"{path}.card_set.id": [N_("unknown card set")]}) from None
    if cards.hash != ref["hash"]:
        raise IncompatibleState({f"{path}.card_set.hash": [
            N_("the card set {id!r} has changed since this state was made (service has "
               "{hash})", id=ref['id'], hash=cards.hash)]})
    return cards


def seats(state: Mapping[str, object]) -> int:
    """How many players a state (or a view) seats: the length of its ``players``, which
    every game's state has (each its own shape).

    >>> seats({"players": [{}, {}, {}]})
    3
    """
    players = state["players"]
    assert isinstance(players, list), "a state's players are a list"
    return len(players)


def score_lead(game: Game[S], state: S, player: int) -> float:
    """``player``'s score total minus the best other total (``game.score``)."""
    totals = {s["player"]: s["total"] for s in game.score(state)["scores"]}
    others = [t for p, t in totals.items() if p != player]
    return float(totals.get(player, 0) - (max(others) if others else 0))


def _shown(value: object) -> str:
    return repr(value) if isinstance(value, str) else str(value)


def conservation_errors(zones: Mapping[str, Iterable[str]], expected: Iterable[str]) -> Errors:
    """Every card exactly once across ``zones`` (path -> card ids).

    Returns errors naming the zone of each duplicate and each unknown card,
    and the cards that are missing altogether.  The common case — every card
    exactly once — is one C-speed count and one comparison; the zones are
    walked one card at a time only to name what is wrong.

    >>> conservation_errors({"hand": ["a"], "deck": ["b", "a"]}, ["a", "b", "c"])
    {'deck': ["card 'a' appears more than once"], 'state': ['cards missing from every zone: c']}
    >>> conservation_errors({"hand": ["a"], "deck": ["b"]}, ["b", "a"])
    {}
    """
    expected_counts = Counter(expected)
    zones = {path: cards if isinstance(cards, (list, tuple)) else list(cards)
             for path, cards in zones.items()}
    counted = Counter(chain.from_iterable(zones.values()))
    if dict.__eq__(counted, expected_counts):  # plain dict ==, in C (counts are never 0)
        return {}
    seen: dict[str, int] = {}
    errors: Errors = {}
    for path, cards in zones.items():
        for card in cards:
            n = seen.get(card, 0) + 1
            seen[card] = n
            if card not in expected_counts:
                errors.setdefault(path, []).append(N_("unknown card {card!r}", card=card))
            elif n > expected_counts[card]:
                errors.setdefault(path, []).append(N_("card {card!r} appears more than once",
                                                      card=card))
    missing = [c for c, n in expected_counts.items() if seen.get(c, 0) < n]
    if missing:
        errors.setdefault("state", []).append(N_(
            "cards missing from every zone: {items}",
            items=", ".join(sorted(missing)[:10]) + (" …" if len(missing) > 10 else "")))
    return errors
