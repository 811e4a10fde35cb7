"""Marshmallow schema of a Tremble, Humans! card set (``card_db/tremble/<set>.yaml``).

Card behaviour is data from the one vocabulary of ``service.games.tremble.effects``
(each name declared there with what it does): ship strength bonuses
(``BONUSES``, TRE-29), abilities (``ABILITIES``, TRE-30 … TRE-32) and mission
conditions (``CONDITIONS``, TRE-27).  A card naming anything outside the
vocabulary is refused when the set loads.

A set must have exactly the counts of TRE-1 (90 cities, 6 armies, 35 ships,
30 missions, 5 credits); ``copies`` counts identical cards (instance ids
``S-CRUISER``, ``S-CRUISER#2`` …).

>>> from marshmallow import ValidationError
>>> try:
...     ShipSchema().load({"id": "S-X", "name": {"en": "X", "ru": "Икс"}, "type": "saucer",
...                        "strength": 3, "fuel": 2, "cost": 20000,
...                        "bonuses": [{"kind": "teleport", "amount": 2}]})
... except ValidationError as exc:
...     sorted(exc.messages)
['bonuses']
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from service.games.tremble.effects import ABILITIES, BONUSES, CITY_TYPES, CONDITIONS, SHIP_TYPES

#: TRE-2 / TRE-3 marks (``null``: no mark)
CITY_MARKS = ("*", "4+", "5+")
MISSION_MARKS = ("4+", "5+")
TRE1_COUNTS = {"cities": 90, "armies": 6, "ships": 35, "missions": 30, "credits": 5}

_ID = validate.Regexp(r"^[A-Z0-9][A-Z0-9-]{0,31}$", error="ids are capitals, digits and '-'")
_PEOPLE = validate.Range(min=0, max=500_000)


class NameSchema(Schema):
    en = fields.String(required=True, validate=validate.Length(min=1, max=80))
    ru = fields.String(required=True, validate=validate.Length(min=1, max=80))


class CitySchema(Schema):
    id = fields.String(required=True, validate=_ID)
    name = fields.Nested(NameSchema, required=True)
    type = fields.String(required=True, validate=validate.OneOf(CITY_TYPES))
    mark = fields.String(required=True, allow_none=True, validate=validate.OneOf(CITY_MARKS))
    raid = fields.Integer(required=True, validate=_PEOPLE)
    search = fields.Integer(required=True, validate=_PEOPLE)

    @validates_schema
    def _larger_search(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data["search"] <= data["raid"]:
            raise ValidationError("the search value must be larger than the raid value (TRE-22)",
                                  "search")


class ArmySchema(Schema):
    id = fields.String(required=True, validate=_ID)
    name = fields.Nested(NameSchema, required=True)
    strength = fields.Integer(required=True, validate=validate.Range(min=1, max=40))
    mark = fields.String(required=True, allow_none=True, validate=validate.OneOf(("*",)))


class BonusSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(tuple(BONUSES)))
    amount = fields.Integer(required=True, validate=validate.Range(min=1, max=12))
    city_type = fields.String(validate=validate.OneOf(CITY_TYPES))
    ship_type = fields.String(validate=validate.OneOf(SHIP_TYPES))

    @validates_schema
    def _param(self, data: dict[str, Any], **kwargs: Any) -> None:
        need = BONUSES[data["kind"]].param
        if need not in data:
            raise ValidationError(f"a {data['kind']} bonus needs {need}", need)
        for other in sorted({b.param for b in BONUSES.values()} - {need}):
            if other in data:
                raise ValidationError(f"a {data['kind']} bonus takes no {other}", other)


class ShipSchema(Schema):
    id = fields.String(required=True, validate=_ID)
    name = fields.Nested(NameSchema, required=True)
    type = fields.String(required=True, validate=validate.OneOf(SHIP_TYPES))
    strength = fields.Integer(required=True, validate=validate.Range(min=0, max=20))
    fuel = fields.Integer(required=True, validate=validate.Range(min=0, max=20))
    cost = fields.Integer(required=True, validate=_PEOPLE)
    copies = fields.Integer(load_default=1, validate=validate.Range(min=1, max=35))
    #: TRE-6: one per player at setup, never in the ship deck
    starting = fields.Boolean(load_default=False)
    bonuses = fields.List(fields.Nested(BonusSchema), load_default=list)
    abilities = fields.List(fields.String(validate=validate.OneOf(tuple(ABILITIES))),
                            load_default=list)


class ConditionSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(tuple(CONDITIONS)))
    count = fields.Integer(validate=validate.Range(min=1, max=30))
    city_type = fields.String(validate=validate.OneOf(CITY_TYPES))

    @validates_schema
    def _params(self, data: dict[str, Any], **kwargs: Any) -> None:
        want = CONDITIONS[data["kind"]].params
        have = set(data) - {"kind"}
        for missing in sorted(want - have):
            raise ValidationError(f"a {data['kind']} condition needs {missing}", missing)
        for extra in sorted(have - want):
            raise ValidationError(f"a {data['kind']} condition takes no {extra}", extra)


class MissionSchema(Schema):
    id = fields.String(required=True, validate=_ID)
    name = fields.Nested(NameSchema, required=True)
    condition = fields.Nested(ConditionSchema, required=True)
    bonus = fields.Integer(required=True, validate=_PEOPLE)
    penalty = fields.Integer(required=True, validate=_PEOPLE)
    mark = fields.String(required=True, allow_none=True, validate=validate.OneOf(MISSION_MARKS))


class CreditSchema(Schema):
    id = fields.String(required=True, validate=_ID)
    name = fields.Nested(NameSchema, required=True)
    copies = fields.Integer(load_default=1, validate=validate.Range(min=1, max=5))
    amount = fields.Integer(required=True, validate=_PEOPLE)
    repay = fields.Integer(required=True, validate=_PEOPLE)


class MetaSchema(Schema):
    game = fields.String(required=True, validate=validate.Equal("tremble"))
    set = fields.String(required=True)
    reconstructed = fields.Boolean(required=True)
    note = fields.String(required=True)
    counts = fields.Dict(keys=fields.String(), values=fields.Integer())


class CardSetSchema(Schema):
    meta = fields.Nested(MetaSchema, required=True)
    cities = fields.List(fields.Nested(CitySchema), required=True)
    armies = fields.List(fields.Nested(ArmySchema), required=True)
    ships = fields.List(fields.Nested(ShipSchema), required=True)
    missions = fields.List(fields.Nested(MissionSchema), required=True)
    credits = fields.List(fields.Nested(CreditSchema), required=True)

    @validates_schema
    def _set(self, data: dict[str, Any], **kwargs: Any) -> None:
        ids = [c["id"] for key in TRE1_COUNTS for c in data[key]]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValidationError(f"duplicate card ids: {', '.join(dupes)}", "meta")
        for key, want in TRE1_COUNTS.items():
            have = sum(c.get("copies", 1) for c in data[key])
            if have != want:
                raise ValidationError(f"TRE-1: a set has {want} {key}, this one {have}", key)
        if len([s for s in data["ships"] for _ in range(s["copies"]) if s["starting"]]) < 5:
            raise ValidationError("TRE-6: five starting ships are needed for five players",
                                  "ships")
        if len(data["credits"]) != 1:
            raise ValidationError("one credit design with copies", "credits")
