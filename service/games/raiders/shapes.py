"""Declared shapes of the Raiders state, action fields and events (checked
on input, exported to OpenAPI); the actions themselves are declared in
``game.ACTIONS``."""

from __future__ import annotations

from service.games import shape
from service.limits import MAX_NAME_LENGTH, MAX_SEAT

CARD = shape.Str(max_length=48, description="a card instance id, e.g. S-Q or club#2")
SEAT = shape.Int(minimum=0, maximum=MAX_SEAT)

STATE_FIELDS = {
    "players": shape.ListOf(shape.Obj({
        "name": shape.Str(max_length=MAX_NAME_LENGTH),
        "hand": shape.ListOf(CARD, max_items=500),
        "holdings": shape.MapOf(CARD, max_items=500,
                                description="property id -> the fighter guarding it"),
    }, name="Player"), min_items=2, max_items=6),
    "first_player": SEAT,
    "active": SEAT,
    "fighter_deck": shape.ListOf(CARD, max_items=500,
                                 description="unordered multiset (sorted) of undrawn cards"),
    "bottom": shape.Nullable(CARD, description="the face-up trump card under the deck (RAI-5)"),
    "trump": shape.Nullable(shape.Obj({"card": CARD, "suit": shape.Str(max_length=40)}, name="Trump")),
    "property_deck": shape.ListOf(CARD, max_items=500),
    "centre": shape.ListOf(CARD, max_items=500, description="unguarded, ownerless properties"),
    "discard": shape.ListOf(CARD, max_items=500),
    "capture": shape.Nullable(shape.Obj({
        "attacker": SEAT, "fighter": CARD, "property": CARD, "priority": SEAT,
        "passes": shape.Int(minimum=0, maximum=MAX_SEAT)}, name="Capture"),
        description="the capture in progress and its response window (RAI-26)"),
    "capture_used": shape.Bool(description="the turn's capture attempt is spent (RAI-12)"),
    "modifiers": shape.ListOf(shape.Obj({
        "card": CARD, "amount": shape.Int(minimum=-1000, maximum=1000),
        "until": shape.Enum("capture", "turn")}, name="Modifier"), max_items=500,
        description="live power changes (RAI-25)"),
    "owed_draws": shape.Nullable(shape.Obj({"player": SEAT,
                                            "count": shape.Int(minimum=1, maximum=20)},
                                           name="OwedDraws")),
}

#: the fields of every chance outcome (deal, reveal_trump, draw, reveal)
CHANCE_CARD = {"card": shape.Str(max_length=48, description="the face that came up")}

EVENT_TYPES = {
    "dealt": "a fighter card was dealt (RAI-4)",
    "trump_revealed": "the trump card lies face up under the deck (RAI-5)",
    "turn_started": "a player's turn began",
    "drew": "a player drew a fighter card (RAI-10)",
    "reshuffled": "the discard became the new fighter deck (RAI-14)",
    "property_revealed": "a property came into the centre (RAI-11)",
    "capture_declared": "a capture attempt began; the response window opens (RAI-15, RAI-26)",
    "passed": "a player passed in the response window (RAI-26)",
    "trick_played": "a trick resolved (RAI-22, RAI-27)",
    "cost_paid": "a card was discarded to pay a trick's cost",
    "fizzled": "an illegal trick or capture: its card went to the discard with no effect "
               "(RAI-30, fizzle)",
    "power_modified": "a fighter's power changed until the capture/turn ends (RAI-25)",
    "modifiers_expired": "power changes ended (RAI-25)",
    "fighter_died": "a fighter went to the discard (RAI-16, RAI-17, or a trick)",
    "fighter_returned": "a fighter returned to its owner's hand (RAI-27; an attacker whose "
                        "capture ended without a fight, RAI-17a, RAI-6a)",
    "guard_stolen": "a guard and its property changed sides (RAI-24)",
    "draws_owed": "a trick lets a player draw fighter cards",
    "combat": "attacker and guard compared their power (RAI-17)",
    "property_freed": "a property lost its guard and went to the centre (RAI-19)",
    "captured": "the attacker now guards and owns the property (RAI-18)",
    "capture_ended": "the capture attempt is over: captured, failed, or without a fight: "
                     "unopposed (RAI-17a) or game_won (RAI-6a)",
    "turn_ended": "a player ended their turn (RAI-13)",
    "game_won": "the game is over: target reached (RAI-6) or turn limit (RAI-31)",
    "chance": "a chance node resolved by the server (its outcome action)",
}
