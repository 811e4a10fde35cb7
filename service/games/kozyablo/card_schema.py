"""Marshmallow schema of a Kozyablo card set (``card_db/kozyablo/<set>.yaml``).

Card behaviour is data from a closed vocabulary (``ABILITIES``, and the
engine's own ``EFFECTS`` and ``TARGETS`` in ``service.games.kozyablo.effects``,
each entry carrying its implementation); a card naming anything outside the
vocabulary is refused when the set is loaded, with the card and field named.

>>> from marshmallow import ValidationError
>>> try:
...     CardSchema().load({"id": "xx", "name": {"en": "X", "ru": "Икс"}, "race": "kozly",
...                        "type": "creature", "level": 1, "attack": 1, "life": 1,
...                        "speed": 1, "abilities": [{"type": "teleport"}]})
... except ValidationError as exc:
...     sorted(exc.messages)
['abilities']
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from service.games.kozyablo.abilities import KEYWORDS, MARKS
from service.games.kozyablo.cards import TRIGGER_TIMES
from service.games.kozyablo.effects import EFFECTS, TARGETS
from service.games.kozyablo.play import CARD_TYPES as PLAYED
from service.games.kozyablo.sectors import RESOURCE_OF
from service.games.kozyablo.wins import CONDITIONS

RACES = ("pozorki", "trutni", "kozly", "zhloby")
SECTOR_KINDS = tuple(RESOURCE_OF)
#: every card type a deck holds, as the engine plays them (``play.CARD_TYPES``)
CARD_TYPES = tuple(PLAYED)
#: keyword abilities KOZ-30 … KOZ-46; ``value`` for Armor X and Regeneration X
ABILITIES = ("flying", "area", "two_attacks", "archer", "magic_attack", "magic_weapon",
             "weapon_protection", "arrow_protection", "magic_protection", "armor",
             "regeneration", "shadow", "scout", "undead", "vampirism", "defender", "evasion")
VALUED_ABILITIES = ("armor", "regeneration")
#: what an effect does (the kinds a card may carry)
EFFECT_KINDS = tuple(k for k, e in EFFECTS.items() if e.printed)
#: targets an effect can reach without anybody choosing (triggers)
CHOICELESS_TARGETS = tuple(t for t, e in TARGETS.items() if e.choiceless)
MAGIC_KINDS = ("instant", "temporary", "permanent")
RESOURCES = tuple(RESOURCE_OF.values())


class NameSchema(Schema):
    en = fields.String(required=True, validate=validate.Length(min=1, max=80))
    ru = fields.String(required=True, validate=validate.Length(min=1, max=80))


class AbilitySchema(Schema):
    type = fields.String(required=True, validate=validate.OneOf(ABILITIES))
    value = fields.Integer(validate=validate.Range(min=1, max=9))

    @validates_schema
    def _value(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data["type"] in VALUED_ABILITIES and "value" not in data:
            raise ValidationError(f"{data['type']} needs a value", "value")
        if data["type"] not in VALUED_ABILITIES and "value" in data:
            raise ValidationError(f"{data['type']} takes no value", "value")


class ModifySchema(Schema):
    attack = fields.Integer(load_default=0, validate=validate.Range(min=-5, max=5))
    life = fields.Integer(load_default=0, validate=validate.Range(min=-5, max=5))
    speed = fields.Integer(load_default=0, validate=validate.Range(min=-5, max=5))
    grant = fields.List(fields.Nested(AbilitySchema), load_default=list)


class CreatureCountSchema(Schema):
    """``creatures_in_play``: at least ``count`` of the owner's creatures on the table
    (of ``race``, if given)."""

    count = fields.Integer(required=True, validate=validate.Range(min=1, max=30))
    race = fields.String(validate=validate.OneOf(RACES))


class ConditionSchema(Schema):
    """A ``win`` effect's condition (KOZ-47; ``service.games.kozyablo.wins``): one or
    more of the closed vocabulary, every one named must hold."""

    #: the owner controls at least N sectors (KOZ-11; not their own capital, as Sabotage)
    controls_sectors = fields.Integer(validate=validate.Range(min=1, max=12))
    creatures_in_play = fields.Nested(CreatureCountSchema)
    #: the table's turn count (``state.turn``, every player's turn) is at least N
    turn_reached = fields.Integer(validate=validate.Range(min=1, max=999))


class EffectSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(EFFECT_KINDS))
    target = fields.String(required=True, validate=validate.OneOf(tuple(TARGETS)))
    amount = fields.Integer(validate=validate.Range(min=1, max=12))
    modify = fields.Nested(ModifySchema)
    #: KOZ-43: undead are immune to this spell
    undead_immune = fields.Boolean(load_default=False)
    #: KOZ-38: reaches creatures with Magic protection ("Word of Letaro")
    pierces_magic_protection = fields.Boolean(load_default=False)
    #: KOZ-47: when the ``win`` effect's owner wins (``ConditionSchema``)
    condition = fields.Nested(ConditionSchema)

    @validates_schema
    def _fits(self, data: dict[str, Any], **kwargs: Any) -> None:
        kind = data["kind"]
        for key in EFFECTS[kind].needs:
            if key not in data:
                raise ValidationError(f"a {kind} effect needs "
                                      + {"amount": "an amount", "condition": "a condition"}
                                      .get(key, key), key)
        if "condition" in data and "condition" not in EFFECTS[kind].needs:
            raise ValidationError("only a win effect has a condition", "condition")
        if data.get("condition") == {}:
            raise ValidationError("a condition names at least one of "
                                  + ", ".join(sorted(CONDITIONS)), "condition")
        allowed = EFFECTS[kind].targets
        if data["target"] not in allowed:
            raise ValidationError(f"a {kind} effect targets one of {', '.join(allowed)}",
                                  "target")


#: effects whose every use spends something nothing free gives back within a turn (a
#: creature's life, a building, lasting magic, a hidden creature, the capital's life) and
#: which have no choice once it is spent: a free ability with one of them may go without a
#: limit (``per_turn: null``), since its uses must run out
EXHAUSTING = {"damage": set(TARGETS) - {"all_creatures"}, "destroy_building": set(TARGETS),
              "dispel": set(TARGETS), "reveal_shadows": set(TARGETS),
              "damage_capital": set(TARGETS)}


def exhausting(effect: dict[str, Any]) -> bool:
    """Whether a free ability with ``effect`` must run out within a turn (``EXHAUSTING``).

    >>> exhausting({"kind": "damage", "target": "enemy_creature", "amount": 1})
    True
    >>> exhausting({"kind": "heal", "target": "ally_creature", "amount": 1})
    False
    """
    return effect["target"] in EXHAUSTING.get(effect["kind"], ())


class ActivatedSchema(Schema):
    """An on-table ability (KOZ-16): ``action`` uses the turn's action, ``free`` does not.

    ``name`` is what ``use_ability.ability`` sends; the built-in ones are taken.
    ``per_turn`` limits a free ability to that many uses a turn (each turn,
    whoever's it is, the response windows included); absent, it is 1 — the
    reference cards' «раз в ход», "once per turn".  ``per_turn: null`` is a free
    ability without a limit: any number of uses a turn while its effect has a
    legal choice; it is refused at load unless its effect must run out
    (``EXHAUSTING``: a heal, a draw or damage to every creature could be used
    for ever, so the turn would never end).  An action ability spends the
    turn's one action (KOZ-15), so it is used at most once a turn anyway.
    """

    name = fields.String(required=True, validate=[
        validate.Regexp(r"^[a-z][a-z_]{1,20}$"),
        validate.NoneOf(tuple(KEYWORDS), error="a built-in ability name")])
    mark = fields.String(required=True, validate=validate.OneOf(MARKS))
    effect = fields.Nested(EffectSchema, required=True)
    per_turn = fields.Integer(load_default=1, allow_none=True,
                              validate=validate.Range(min=1, max=9))

    @validates_schema
    def _no_modify(self, data: dict[str, Any], **kwargs: Any) -> None:
        if EFFECTS[data["effect"]["kind"]].lasting:
            raise ValidationError("an ability cannot modify (only lasting magic does)", "effect")
        if data["effect"]["kind"] == "win":  # KOZ-47: a trigger or a played card, no more
            raise ValidationError("an ability cannot win: a win is a trigger's or an instant "
                                  "magic or event card's", "effect")

    @validates_schema
    def _turn_ends(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data["mark"] == "free" and data.get("per_turn", 1) is None \
                and not exhausting(data["effect"]):
            raise ValidationError(
                "a free ability without a limit would let a turn never end: its effect "
                f"({data['effect']['kind']} on {data['effect']['target']}) does not run out; "
                "give it per_turn (1 to 9)", "per_turn")


class TriggerSchema(Schema):
    """'At the start of turn…' / 'at the end of turn…' (KOZ-14); no choice involved."""

    when = fields.String(required=True, validate=validate.OneOf(TRIGGER_TIMES))
    effect = fields.Nested(EffectSchema, required=True)

    @validates_schema
    def _no_choice(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data["effect"]["target"] not in CHOICELESS_TARGETS:
            raise ValidationError("a trigger's target must need no choice: one of "
                                  + ", ".join(CHOICELESS_TARGETS), "effect")
        if EFFECTS[data["effect"]["kind"]].lasting:
            raise ValidationError("a trigger cannot modify (only lasting magic does)", "effect")


class RequiresSchema(Schema):
    """Extra requirements printed on a card (KOZ-19: Sabotage)."""

    controlled_sectors = fields.Integer(validate=validate.Range(min=1, max=8))


class CardSchema(Schema):
    id = fields.String(required=True, validate=validate.Regexp(r"^[a-z][a-z0-9_]{1,40}$"))
    name = fields.Nested(NameSchema, required=True)
    race = fields.String(required=True, validate=validate.OneOf(RACES))
    type = fields.String(required=True, validate=validate.OneOf(CARD_TYPES))
    level = fields.Integer(required=True, validate=validate.Range(min=1, max=6))
    attack = fields.Integer(validate=validate.Range(min=0, max=12))
    life = fields.Integer(validate=validate.Range(min=1, max=20))
    speed = fields.Integer(validate=validate.Range(min=0, max=9))
    abilities = fields.List(fields.Nested(AbilitySchema), load_default=list)
    activated = fields.List(fields.Nested(ActivatedSchema), load_default=list)
    triggers = fields.List(fields.Nested(TriggerSchema), load_default=list)
    #: magic/event: instant, temporary (Time-N) or permanent (KOZ-18)
    kind = fields.String(validate=validate.OneOf(MAGIC_KINDS))
    time = fields.Integer(validate=validate.Range(min=1, max=9))
    effect = fields.Nested(EffectSchema)
    requires = fields.Nested(RequiresSchema)
    #: artifact: the heroes that may carry it and what it gives (KOZ-21)
    heroes = fields.List(fields.String())
    modify = fields.Nested(ModifySchema)
    #: building: counts for capture (KOZ-48)
    defensive = fields.Boolean(load_default=False)
    text = fields.Nested(NameSchema)

    @validates_schema
    def _by_type(self, data: dict[str, Any], **kwargs: Any) -> None:
        t = data["type"]
        need = {"creature": ("attack", "life", "speed"), "hero": ("attack", "life", "speed"),
                "building": ("attack", "life", "speed"), "magic": ("kind", "effect"),
                "event": ("kind", "effect"), "artifact": ("heroes", "modify")}[t]
        missing = {k: ["required for a " + t] for k in need if k not in data}
        if missing:
            raise ValidationError(missing)
        if data.get("kind") == "temporary" and "time" not in data:
            raise ValidationError("temporary magic needs time (Time-N)", "time")
        lasting = "effect" in data and EFFECTS[data["effect"]["kind"]].lasting
        if data.get("kind") in ("temporary", "permanent") and not lasting:
            raise ValidationError("lasting magic must be a modify effect", "effect")
        if data.get("kind") == "instant" and lasting:
            raise ValidationError("instant magic cannot modify (make it temporary)", "effect")
        if t not in ("creature", "hero", "building") and (
                data.get("activated") or data.get("triggers") or data.get("abilities")):
            raise ValidationError("only creatures, heroes and buildings have abilities",
                                  "abilities")
        names = [a["name"] for a in data.get("activated", ())]
        if len(set(names)) != len(names):
            raise ValidationError("each activated ability of a card has its own name",
                                  "activated")


class CapitalSchema(Schema):
    id = fields.String(required=True, validate=validate.Regexp(r"^[a-z][a-z0-9_]{1,40}$"))
    name = fields.Nested(NameSchema, required=True)
    race = fields.String(required=True, validate=validate.OneOf(RACES))
    production = fields.Dict(keys=fields.String(validate=validate.OneOf(RESOURCES)),
                             values=fields.Integer(validate=validate.Range(min=0, max=6)),
                             required=True)
    garrison = fields.Integer(required=True, validate=validate.Range(min=1, max=9))
    buildings = fields.Integer(required=True, validate=validate.Range(min=0, max=6))
    life = fields.Integer(required=True, validate=validate.Equal(12))
    armor = fields.Integer(required=True, validate=validate.Equal(2))
    #: KOZ-6: properties that lift KOZ-3 (max_heroes) and KOZ-4 (extra_races)
    max_heroes = fields.Integer(load_default=1, validate=validate.Range(min=1, max=4))
    extra_races = fields.List(fields.String(validate=validate.OneOf(RACES)), load_default=list)
    text = fields.Nested(NameSchema)

    @validates_schema
    def _production(self, data: dict[str, Any], **kwargs: Any) -> None:
        if set(data["production"]) != set(RESOURCES):
            raise ValidationError("production names gold, crystals and mana", "production")


class SectorSchema(Schema):
    id = fields.String(required=True, validate=validate.OneOf(SECTOR_KINDS))
    name = fields.Nested(NameSchema, required=True)


class DeckSchema(Schema):
    """A deck: its capital, three sector cards and 15-25 cards (ids, copies repeated)."""

    capital = fields.String(required=True, validate=validate.Length(max=64))
    sectors = fields.List(fields.String(validate=validate.Length(max=64)), required=True,
                          validate=validate.Length(max=10))
    cards = fields.List(fields.String(validate=validate.Length(max=64)), required=True,
                        validate=validate.Length(max=100))


class MetaSchema(Schema):
    reconstructed = fields.Boolean(required=True)
    note = fields.String(required=True)
    version = fields.String(required=True)


class CardSetSchema(Schema):
    meta = fields.Nested(MetaSchema, required=True)
    capitals = fields.List(fields.Nested(CapitalSchema), required=True,
                           validate=validate.Length(min=1))
    sectors = fields.List(fields.Nested(SectorSchema), required=True)
    cards = fields.List(fields.Nested(CardSchema), required=True)
    #: race -> a valid reference deck of that race
    reference_decks = fields.Dict(keys=fields.String(validate=validate.OneOf(RACES)),
                                  values=fields.Nested(DeckSchema), required=True)

    @validates_schema
    def _references(self, data: dict[str, Any], **kwargs: Any) -> None:
        ids: dict[str, str] = {}
        problems: dict[str, list[str]] = {}
        for group in ("capitals", "sectors", "cards"):
            for i, card in enumerate(data[group]):
                if card["id"] in ids:
                    problems.setdefault(group, []).append(f"{i}: duplicate id {card['id']!r}")
                ids[card["id"]] = group
        if sorted(s["id"] for s in data["sectors"]) != sorted(SECTOR_KINDS):
            problems.setdefault("sectors", []).append(
                "must list gold_mine, crystal_mine and energy_source once each")
        for card in data["cards"]:
            for hero in card.get("heroes", ()):
                if not any(c["id"] == hero and c["type"] == "hero" for c in data["cards"]):
                    problems.setdefault("cards", []).append(
                        f"card {card['id']!r}: heroes names {hero!r}, which is not a hero")
        for race, deck in data["reference_decks"].items():
            for cid in [deck["capital"], *deck["sectors"], *deck["cards"]]:
                if cid not in ids:
                    problems.setdefault("reference_decks", []).append(
                        f"{race}: unknown card {cid!r}")
        if problems:
            raise ValidationError(problems)
