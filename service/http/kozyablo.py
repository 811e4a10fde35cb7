"""Kozyablo-only route: ``POST /v1/games/kozyablo/decks/validate``.

Every deck-building violation (KOZ-1 … KOZ-6) at once, each with its clause
id and the cards concerned; a capital that lifts KOZ-3/KOZ-4 does so through
its card data.  A deck with problems is still a well-formed request: the
answer is ``200`` with ``valid: false``.  Each ``reason`` comes in the
request's ``Accept-Language`` (``Content-Language`` says which).  A body that is not a deck → 400,
an unknown card set → 404.
"""

from __future__ import annotations

from flask import Blueprint

import card_db
from schemas.cards_kozyablo import DeckValidateRequest, DeckValidateResponse
from service.games.kozyablo.cards import Catalogue
from service.games.kozyablo.deck import validate_deck
from service.games.messages import N_, joined
from service.http.body import read_envelope
from service.http.games import localized_json
from service.problems import ProblemError

bp = Blueprint("kozyablo", __name__, url_prefix="/v1/games/kozyablo")

REQUEST = DeckValidateRequest()

EXAMPLE = {"deck": {"capital": "kz_capital",
                    "sectors": ["gold_mine", "gold_mine", "energy_source"],
                    "cards": ["kz_scout"] * 4 + ["zh_brute"] + ["kz_guard"] * 3}}


@bp.post("/decks/validate")
def validate():
    body = read_envelope(REQUEST)
    try:
        cards = card_db.get("kozyablo", body["card_set"])
    except card_db.UnknownCardSet:
        raise ProblemError(404, "unknown-card-set", "Unknown card set",
                           N_("{game} has no card set {card_set!r}; sets: {items}",
                              game="kozyablo", card_set=body["card_set"],
                              items=joined(card_db.available("kozyablo")))) from None
    cat = Catalogue.of(cards)
    deck = body["deck"]
    violations = validate_deck(cat, deck)
    capital = cat.capitals.get(deck["capital"])
    return localized_json({"valid": not violations, "violations": violations,
                           "card_count": len(deck["cards"]),
                           "race": capital["race"] if capital else None})


def document(spec) -> None:
    """Document the route in ``openapi.yaml``."""
    from service.openapi import body, error, ok

    spec.components.schema("KozyabloDeckValidateRequest", schema=DeckValidateRequest)
    spec.components.schema("KozyabloDeckValidateResponse", schema=DeckValidateResponse)
    spec.path("/v1/games/kozyablo/decks/validate", operations={"post": {
        "summary": "Validate a Kozyablo deck (KOZ-1 … KOZ-6)",
        "description": __doc__.split("\n\n", 1)[1].strip(),
        "tags": ["kozyablo"],
        "requestBody": body("KozyabloDeckValidateRequest", EXAMPLE),
        "responses": {"200": ok("KozyabloDeckValidateResponse",
                                "Every violation at once (`valid` false if any)."),
                      **{str(s): error(s) for s in (400, 404, 405, 413, 415, 429, 500)}}}})
