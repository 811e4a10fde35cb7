"""Marshmallow schema of a Raiders card set (``card_db/raiders/<set>.yaml``).

File layout::

    meta:        {id, title: {en, ru}, reconstructed: bool, note}
    suits:       [{id: S, name: {en, ru}}]               # 4 suits, RAI-2
    fighters:    [{id: S-6, suit: S, rank: "6", name: {en, ru},
                   power: 1 | null, trick: Trick | null}]  # RAI-2
    properties:  [{id: club, name: {en, ru}, money: 2, power: 4, copies: 3,
                   bonuses: [{count: 2, total: 6}]}]      # RAI-3

    Trick: {name: {en, ru}, text: {en, ru}, effect, target?, filters: [],
            timing, cost?, amount?, count?}

A fighter card needs a power, a trick, or both (RAI-2).  A set bonus
``{count: 2, total: 6}`` ("2 clubs = 6") is the money that many cards of the
kind are worth together; further cards add their face value.  Card ids may not
contain ``#`` (the engine names extra copies ``S-6#2``, ``club#3``).  Every
trick word comes from ``service/games/raiders/vocabulary.py``.
"""

from __future__ import annotations

from typing import Any

from marshmallow import EXCLUDE, RAISE, Schema, ValidationError, fields, validate, validates_schema

from service.games.raiders.vocabulary import COSTS, EFFECTS, FILTERS, TARGETS, TIMINGS

RANKS = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")
_ID = validate.Regexp(r"^[A-Za-z0-9_-]{1,40}$", error="letters, digits, '_' or '-' only "
                      "(no '#': the engine numbers extra copies)")


class Names(Schema):
    class Meta:
        unknown = RAISE

    en = fields.String(required=True, validate=validate.Length(min=1, max=80))
    ru = fields.String(required=True, validate=validate.Length(min=1, max=80))


class Texts(Schema):
    class Meta:
        unknown = RAISE

    en = fields.String(required=True, validate=validate.Length(min=1, max=300))
    ru = fields.String(required=True, validate=validate.Length(min=1, max=300))


class TrickSchema(Schema):
    class Meta:
        unknown = RAISE

    name = fields.Nested(Names, required=True)
    text = fields.Nested(Texts, required=True)
    effect = fields.String(required=True, validate=validate.OneOf(sorted(EFFECTS)))
    target = fields.String(load_default=None, allow_none=True,
                           validate=validate.OneOf(sorted(TARGETS)))
    filters = fields.List(fields.String(validate=validate.OneOf(sorted(FILTERS))),
                          load_default=list)
    timing = fields.String(required=True, validate=validate.OneOf(sorted(TIMINGS)))
    cost = fields.String(load_default=None, allow_none=True,
                         validate=validate.OneOf(sorted(COSTS)))
    amount = fields.Integer(load_default=None, allow_none=True,
                            validate=validate.Range(min=-20, max=20))
    count = fields.Integer(load_default=None, allow_none=True,
                           validate=validate.Range(min=1, max=6))

    @validates_schema
    def _parameters(self, data: dict[str, Any], **kwargs: Any) -> None:
        effect = EFFECTS[data["effect"]]
        errors: dict[str, list[str]] = {}
        if effect.target_needed and data["target"] is None:
            errors["target"] = [f"effect {data['effect']!r} needs a target"]
        if not effect.target_needed and (data["target"] is not None or data["filters"]):
            errors["target"] = [f"effect {data['effect']!r} takes no target or filters"]
        for param in ("amount", "count"):
            if param in effect.params and data[param] is None:
                errors[param] = [f"effect {data['effect']!r} needs {param!r}"]
            if param not in effect.params and data[param] is not None:
                errors[param] = [f"effect {data['effect']!r} takes no {param!r}"]
        if data["effect"] == "modify_power" and data["amount"] == 0:
            errors["amount"] = ["a zero change is no effect (RAI-28)"]
        if errors:
            raise ValidationError(errors)


class SuitSchema(Schema):
    class Meta:
        unknown = RAISE

    id = fields.String(required=True, validate=_ID)
    name = fields.Nested(Names, required=True)


class FighterSchema(Schema):
    class Meta:
        unknown = RAISE

    id = fields.String(required=True, validate=_ID)
    suit = fields.String(required=True)
    rank = fields.String(required=True, validate=validate.OneOf(RANKS))
    name = fields.Nested(Names, required=True)
    power = fields.Integer(load_default=None, allow_none=True,
                           validate=validate.Range(min=-20, max=30))
    trick = fields.Nested(TrickSchema, load_default=None, allow_none=True)

    @validates_schema
    def _power_or_trick(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data["power"] is None and data["trick"] is None:
            raise ValidationError("a fighter-deck card needs a power, a trick or both (RAI-2)",
                                  "power")


class BonusSchema(Schema):
    class Meta:
        unknown = RAISE

    count = fields.Integer(required=True, validate=validate.Range(min=2, max=12))
    total = fields.Integer(required=True, validate=validate.Range(min=0, max=200))


class PropertySchema(Schema):
    class Meta:
        unknown = RAISE

    id = fields.String(required=True, validate=_ID)
    name = fields.Nested(Names, required=True)
    money = fields.Integer(required=True, validate=validate.Range(min=0, max=100))
    power = fields.Integer(required=True, validate=validate.Range(min=0, max=30))
    copies = fields.Integer(required=True, validate=validate.Range(min=1, max=12))
    bonuses = fields.List(fields.Nested(BonusSchema), load_default=list)

    @validates_schema
    def _bonuses(self, data: dict[str, Any], **kwargs: Any) -> None:
        counts = [b["count"] for b in data["bonuses"]]
        if len(set(counts)) != len(counts):
            raise ValidationError("two bonuses for the same count", "bonuses")
        for b in data["bonuses"]:
            if b["total"] < b["count"] * data["money"]:
                raise ValidationError(f"bonus for {b['count']} is worth less than the "
                                      "cards' face value", "bonuses")


class MetaSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    id = fields.String(required=True)
    title = fields.Nested(Names, required=True)
    reconstructed = fields.Boolean(required=True)
    note = fields.String(required=True)


class CardSetSchema(Schema):
    """A whole Raiders card set; cross-checks ids, suits and the deck shape."""

    class Meta:
        unknown = RAISE

    meta = fields.Nested(MetaSchema, required=True)
    suits = fields.List(fields.Nested(SuitSchema), required=True,
                        validate=validate.Length(min=1, max=8))
    fighters = fields.List(fields.Nested(FighterSchema), required=True,
                           validate=validate.Length(min=6, max=200))
    properties = fields.List(fields.Nested(PropertySchema), required=True,
                             validate=validate.Length(min=1, max=100))

    @validates_schema
    def _cross_checks(self, data: dict[str, Any], **kwargs: Any) -> None:
        errors: dict[str, Any] = {}
        suit_ids = {s["id"] for s in data["suits"]}
        seen: set[str] = set()
        for key in ("suits", "fighters", "properties"):
            for i, card in enumerate(data[key]):
                if card["id"] in seen:
                    errors.setdefault(key, {}).setdefault(i, {})["id"] = [
                        f"duplicate id {card['id']!r}"]
                seen.add(card["id"])
        for i, card in enumerate(data["fighters"]):
            if card["suit"] not in suit_ids:
                errors.setdefault("fighters", {}).setdefault(i, {})["suit"] = [
                    f"unknown suit {card['suit']!r}; suits: {', '.join(sorted(suit_ids))}"]
        if not any(f["power"] is not None for f in data["fighters"]):
            errors["fighters"] = ["no card has a power: nobody could capture"]
        if errors:
            raise ValidationError(errors)
