"""Kozyablo's own question: ``POST /v1/games/kozyablo/decks/validate``.

Every deck-building violation (KOZ-1 … KOZ-6) at once, each with its clause
id and the cards concerned; a capital that lifts KOZ-3/KOZ-4 does so through
its card data.  A deck with problems is still a well-formed request: the
answer is ``200`` with ``valid: false``.  Each ``reason`` comes in the
request's ``Accept-Language`` (``Content-Language`` says which).  A body that is not a deck → 400,
an unknown card set → 404.
"""

from __future__ import annotations

import card_db
from service.games import shape
from service.games.base import Operation
from service.games.kozyablo.cards import Catalogue
from service.games.kozyablo.deck import validate_deck
from service.games.objects import JsonObject
from service.games.shape_1_0 import Items, Record, Text
from service.limits import MAX_DECK_CARDS, MAX_DECK_SECTORS, MAX_ID_LENGTH

#: the deck of the request, refused as 1.0.0 refused it (``shape_1_0``); the card files'
#: reference decks are read by ``card_schema.DeckSchema``, the card data's own format
DECK = Record({"capital": Text(max_length=MAX_ID_LENGTH),
               "sectors": Items(Text(max_length=MAX_ID_LENGTH), max_items=MAX_DECK_SECTORS),
               "cards": Items(Text(max_length=MAX_ID_LENGTH), max_items=MAX_DECK_CARDS)},
              required=("capital", "sectors", "cards"))
REQUEST = Record({"deck": shape.Ref("Deck", DECK),
                  "card_set": Text(max_length=MAX_ID_LENGTH, default="reference",
                                   description="card set id (default: reference)")},
                 required=("deck",))
VIOLATION = Record({"rule": Text(description="KOZ-1 … KOZ-6"), "reason": Text(),
                    "cards": Items(Text(), description="the cards concerned")},
                   required=("rule", "reason", "cards"))
RESPONSE = Record({"valid": shape.Bool(),
                   "violations": Items(shape.Ref("DeckViolation", VIOLATION),
                                       description="every violation at once"),
                   "card_count": shape.Int(),
                   "race": shape.Nullable(Text(), description="the capital's race")},
                  required=("valid", "violations", "card_count"))


def validate(body: JsonObject) -> JsonObject:
    """Every violation of ``body["deck"]`` in ``body["card_set"]`` (``valid`` false if any)."""
    cat = Catalogue.of(card_db.get("kozyablo", body["card_set"]))
    deck = body["deck"]
    violations = validate_deck(cat, deck)
    capital = cat.capitals.get(deck["capital"])
    return {"valid": not violations, "violations": violations,
            "card_count": len(deck["cards"]), "race": capital["race"] if capital else None}


VALIDATE_DECK = Operation(
    path="decks/validate", operation_id="kozyablo_validate_deck",
    summary="Validate a Kozyablo deck (KOZ-1 … KOZ-6)",
    description=__doc__.split("\n\n", 1)[1].strip(),
    request=REQUEST, request_name="KozyabloDeckValidateRequest",
    response=RESPONSE, response_name="KozyabloDeckValidateResponse",
    handler=validate, localized=True,
    example={"deck": {"capital": "kz_capital",
                      "sectors": ["gold_mine", "gold_mine", "energy_source"],
                      "cards": ["kz_scout"] * 4 + ["zh_brute"] + ["kz_guard"] * 3}},
    ok_text="Every violation at once (`valid` false if any).",
    errors=(400, 404, 405, 413, 415, 429, 500))
