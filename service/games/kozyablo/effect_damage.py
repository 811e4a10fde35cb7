"""Damage of an effect, offered to Defenders before it lands (KOZ-45).

A Defender "may take onto itself damage dealt to allied creatures in its
sector; damage is moved only whole" — strikes (``combat``) and the damage of
magic cards, events, abilities and triggers alike.  The effect engine hands
its damage here as a list of *hits*, one per creature reached, in creature-id
order (fixed and public).  Each hit in turn: when the creature has an ally in
its sector with Defender that may legally take this damage, the effect waits
(``phase`` = ``"effect"``) for that creature's controller to ``defend {unit}``
or ``decline``; then the hit lands on whoever took it and the next hit comes.

A Defender may take the damage only if the effect could reach it itself: not
in the shadow (KOZ-41); not with Magic protection against a magic card
(KOZ-38, unless the card pierces it); not an Undead against a spell Undead
are immune to.  The damage moved is the effect's own amount, resolved against
the one who takes it: an Undead Defender takes +1 from a magic card (KOZ-43);
Armor does not apply, it reduces only creature damage (KOZ-39).

``state["effect"]`` while it waits::

    {"player": seat using the effect, "source": card or source id | None,
     "magic": bool, "pierces": bool, "undead_immune": bool,
     "hits": [{"target": unit id, "amount": n}, ...],   # hits[0] is offered
     "then": "main" | "response" | "end_turn" | "start" | "end",
     "triggers": [{"source": id, "index": n}, ...]}       # start/end only

``then`` says how the interrupted step goes on (``turn.resume_effect``).
"""

from __future__ import annotations

from service.games.draft import Draft
from service.games.kozyablo.cards import Catalogue
from service.games.kozyablo.damage import magic_damage, wound
from service.games.kozyablo.state import waiting_effect
from service.games.kozyablo.state_types import KozyabloState, PendingEffect
from service.games.kozyablo.stats import magic_shielded, undead_spared, unit_stats
from service.games.objects import Event, JsonObject


def may_take(state: KozyabloState, cat: Catalogue, uid: str, pending: PendingEffect) -> bool:
    """Could the pending effect reach creature ``uid`` itself (KOZ-38, KOZ-41, KOZ-43)?"""
    if state["units"][uid]["shadow"]:
        return False
    ab = unit_stats(state, cat, uid).abilities
    return not (magic_shielded(ab, pending["magic"], pending["pierces"])
                or undead_spared(ab, pending["undead_immune"]))


def defenders(state: KozyabloState, cat: Catalogue, target: str,
              pending: PendingEffect) -> list[str]:
    """KOZ-45: allies in ``target``'s sector with Defender that may take its damage."""
    d = state["units"].get(target)
    if d is None:
        return []
    return sorted(u for u, o in state["units"].items()
                  if u != target and o["owner"] == d["owner"] and o["sector"] == d["sector"]
                  and "defender" in unit_stats(state, cat, u).abilities
                  and may_take(state, cat, u, pending))


def reaction(state: KozyabloState, cat: Catalogue) -> JsonObject:
    """The offer now: ``{"kind": "defend", "player", "target", "options"}``."""
    pending = waiting_effect(state)
    target = pending["hits"][0]["target"]
    return {"kind": "defend", "player": state["units"][target]["owner"], "target": target,
            "options": defenders(state, cat, target, pending)}


def deal(draft: Draft[KozyabloState], cat: Catalogue, seat: int, effect: JsonObject, units: list[str],
         events: list[Event],
         *, from_magic: bool, source: str | None) -> bool:
    """Deal ``effect``'s damage to ``units``; False when it waits for a Defender decision.

    Then ``state["effect"]`` holds the hits left; the caller says how to go on
    (``then``) and puts the phase to ``"effect"``.
    """
    draft.root["effect"] = {
        "player": seat, "source": source, "magic": from_magic,
        "pierces": bool(effect.get("pierces_magic_protection")),
        "undead_immune": bool(effect.get("undead_immune")),
        "hits": [{"target": u, "amount": effect["amount"]} for u in sorted(units)],
        "then": "main"}
    return run(draft, cat, events)


def run(draft: Draft[KozyabloState], cat: Catalogue, events: list[Event]) -> bool:
    """Land hits until one must be offered to a Defender; True (and no ``effect``) when done."""
    root = draft.root
    while waiting_effect(root)["hits"] and root["result"] is None:
        hit = waiting_effect(root)["hits"][0]
        if hit["target"] not in root["units"]:
            draft.at("effect", "hits").pop(0)  # died from an earlier hit
            continue
        if defenders(root, cat, hit["target"], waiting_effect(root)):
            return False
        draft.at("effect", "hits").pop(0)
        _land(draft, cat, hit["target"], hit["amount"], events)
    root["effect"] = None
    return True


def _land(draft: Draft[KozyabloState], cat: Catalogue, uid: str, amount: int, events: list[Event]) -> None:
    pending = waiting_effect(draft.root)
    wound(draft, cat, uid, magic_damage(draft.root, cat, uid, amount, pending["magic"]),
          events, source=pending["source"])


def defend(draft: Draft[KozyabloState], cat: Catalogue, defender: str, events: list[Event]) -> None:
    """KOZ-45: ``defender`` takes the whole damage of the offered hit instead."""
    hit = draft.at("effect", "hits").pop(0)
    events.append({"type": "defended", "unit": defender, "instead_of": hit["target"],
                   "rule": "KOZ-45"})
    _land(draft, cat, defender, hit["amount"], events)


def decline(draft: Draft[KozyabloState], cat: Catalogue, events: list[Event]) -> None:
    """No Defender takes it: the offered creature takes the damage."""
    hit = draft.at("effect", "hits").pop(0)
    _land(draft, cat, hit["target"], hit["amount"], events)
