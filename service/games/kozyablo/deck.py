"""Deck building, KOZ-1 … KOZ-6: every violation at once.

``validate_deck`` is a pure function over card data: it never stops at the
first problem, and what a capital lifts (KOZ-6) is read from the capital's
``max_heroes`` and ``extra_races``, never from code.

>>> import card_db
>>> from service.games.kozyablo.cards import Catalogue
>>> cat = Catalogue.of(card_db.get("kozyablo"))
>>> validate_deck(cat, cat.decks["kozly"])
[]
>>> bad = {"capital": "kz_capital", "sectors": ["gold_mine", "gold_mine", "energy_source"],
...        "cards": ["kz_scout"] * 4 + ["pz_archer"] * 10}
>>> [v["rule"] for v in validate_deck(cat, bad)]
['KOZ-1', 'KOZ-2', 'KOZ-4', 'KOZ-5']
"""

from __future__ import annotations

from collections import Counter

from service.games.kozyablo.cards import Catalogue
from service.games.kozyablo.sectors import RESOURCE_OF
from service.games.messages import N_, joined
from service.games.objects import JsonObject

MIN_CARDS, MAX_CARDS, MAX_COPIES = 15, 25, 3
#: the three sector cards of a deck (KOZ-5), one of each kind
SECTOR_KINDS = tuple(RESOURCE_OF)


def _v(rule: str, reason: str, cards: list[str]) -> JsonObject:
    return {"rule": rule, "reason": reason, "cards": cards}


def validate_deck(cat: Catalogue, deck: JsonObject) -> list[JsonObject]:
    """Every violation of KOZ-1 … KOZ-6 as ``{rule, reason, cards}``.

    ``deck`` is ``{"capital": id, "sectors": [3 ids], "cards": [ids, repeats]}``
    (already shaped: strings in lists).
    """
    out: list[JsonObject] = []
    capital = cat.capitals.get(deck["capital"])
    cards = deck["cards"]
    if capital is None:
        out.append(_v("KOZ-1", N_("{capital!r} is not a capital card; a deck has exactly one "
                                  "capital", capital=deck['capital']), [deck["capital"]]))
    unknown = sorted({c for c in cards if c not in cat.faces})
    if unknown:
        out.append(_v("KOZ-1", N_("not playable cards of this set (capitals and sectors are "
                                  "listed separately): {items}", items=joined(unknown)), unknown))
    if not MIN_CARDS <= len(cards) <= MAX_CARDS:
        out.append(_v("KOZ-1", N_("the deck has {count} cards; it needs {min_cards} to "
                                  "{max_cards}",
                                  count=len(cards), min_cards=MIN_CARDS, max_cards=MAX_CARDS), []))
    counts: Counter[str] = Counter(cards)
    over = sorted(c for c, n in counts.items() if n > MAX_COPIES)
    if over:
        out.append(_v("KOZ-2", N_("more than 3 copies of: {items}",
                                  items=joined(f"{c} ×{counts[c]}" for c in over)), over))
    known = [c for c in counts if c in cat.faces]
    heroes = sorted(c for c in known if cat.faces[c].type == "hero")
    max_heroes = capital["max_heroes"] if capital else 1
    if len(heroes) > max_heroes:
        out.append(_v("KOZ-3", N_("{count} different heroes; the capital allows {max_heroes} "
                                  "(KOZ-6 lifts this only through a capital's property)",
                                  count=len(heroes), max_heroes=max_heroes),
                      heroes))
    if capital is not None:
        allowed = {capital["race"], *capital["extra_races"]}
        foreign = sorted(c for c in known if cat.faces[c].race not in allowed)
        if foreign:
            out.append(_v("KOZ-4", N_("cards of another race than the capital's ({race}; "
                                      "allowed: {allowed}): {items}", race=capital["race"],
                                      allowed=joined(sorted(allowed)), items=joined(foreign)),
                          foreign))
    sectors = deck["sectors"]
    if sorted(sectors) != sorted(SECTOR_KINDS):
        out.append(_v("KOZ-5", N_("the three sectors must be one gold_mine, one crystal_mine and "
                                  "one energy_source, not {value}",
                                  value=joined(sectors) or N_("none")),
                      list(sectors)))
    return out
