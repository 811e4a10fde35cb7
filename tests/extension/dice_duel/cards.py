"""The schema of Dice Duel's card files: the dice and the target."""

from __future__ import annotations

from marshmallow import Schema, fields, validate


class Name(Schema):
    en = fields.String(required=True)
    ru = fields.String(required=True)


class Die(Schema):
    id = fields.String(required=True)
    faces = fields.List(fields.Integer(strict=True, validate=validate.Range(min=1, max=100)),
                        required=True, validate=validate.Length(min=1, max=20))
    name = fields.Nested(Name, required=True)


class Meta(Schema):
    title = fields.String(required=True)
    reconstructed = fields.Boolean(required=True)


class CardSetSchema(Schema):
    meta = fields.Nested(Meta, required=True)
    dice = fields.List(fields.Nested(Die), required=True, validate=validate.Length(equal=2))
    target = fields.Integer(required=True, strict=True, validate=validate.Range(min=1))
