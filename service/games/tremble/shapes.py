"""Declarative shapes of a Tremble state and its events (also exported to OpenAPI);
the fields of each action are declared with the action, in ``actions.py``."""

from __future__ import annotations

from service.games import shape as s
from service.games.tremble.setup import MISSIONS_DEALT
from service.limits import MAX_NAME_LENGTH

ID = s.Str(max_length=40)
IDS = s.ListOf(ID, max_items=120)
SEAT = s.Int(minimum=0, maximum=4)
SLOT = s.Int(minimum=1, maximum=6)
ORDER = s.Obj({"ship": ID, "slot": SLOT}, name="Order")
ORDERS = s.ListOf(ORDER, max_items=5)

PLAYER = s.Obj({
    "name": s.Str(max_length=MAX_NAME_LENGTH), "people": s.Int(), "fuel": s.Int(minimum=0, maximum=20),
    "hand": s.ListOf(ID, max_items=5), "offer": s.ListOf(ID, max_items=2),
    "to_draw": s.Int(minimum=0, maximum=2), "bought": s.Bool(),
    "buy_choice": s.Nullable(s.Enum("draw", "decline"),
                             description="this turn's buy step: drawing or declined "
                                         "(RULING TRE-12a); null: not said yet"),
    "missions": s.ListOf(ID, max_items=3), "mission_offer": s.ListOf(ID, max_items=MISSIONS_DEALT),
    "missions_discarded": s.ListOf(ID, max_items=MISSIONS_DEALT), "missions_kept": s.Bool(),
    "credits": s.ListOf(ID, max_items=5), "captured": IDS,
    "orders": s.Nullable(ORDERS, description="hidden from the others until revealed (TRE-14)"),
    "redeploy": s.Nullable(ORDERS, description="hidden until revealed (TRE-32)"),
    "stats": s.Obj({k: s.Int(minimum=0) for k in
                    ("raids", "searches", "battles_won", "armies_beaten", "credits_taken")},
                   name="Stats"),
}, name="Player")
PILE = s.Obj({"mark": s.Nullable(s.Enum("*")), "candidates": IDS,
              "removed": s.Int(minimum=0, maximum=6)},
             description="a pile as the multiset of its candidate cards plus the number "
                         "removed unseen (TRE-3/TRE-4)", name="Pile")
SIDE = s.Obj({"player": SEAT, "ships": s.ListOf(ID, max_items=5),
              "status": s.Enum("attacking", "fight", "lost", "won"),
              "strength": s.Int(minimum=0)}, name="Side")
ATTACK = s.Obj({"slot": SLOT, "city": ID, "sides": s.ListOf(SIDE, max_items=5),
                "resolved": s.Bool()}, name="Attack")
BATTLE = s.Obj({"slot": SLOT, "step": s.Enum("decide", "reserve", "roll", "lose"),
                "order": s.ListOf(SEAT, max_items=5), "next": s.Int(minimum=0, maximum=5),
                "rolls": s.ListOf(s.Obj({"player": SEAT, "total": s.Nullable(s.Int())},
                                        name="Roll"), max_items=5)},
               {"winner": SEAT}, name="Battle")
SEARCH = s.Obj({"player": SEAT, "city": ID, "ships": s.ListOf(ID, max_items=5, min_items=1),
                "countdown": s.Int(minimum=1, maximum=2), "since": s.Int(minimum=0)},
               name="Search")
ARMY = s.Obj({"card": ID, "strength": s.Int(minimum=0),
              "choices": s.ListOf(s.Obj({"player": SEAT, "city": ID,
                                         "choice": s.Nullable(s.Enum("fight"))},
                                        name="ArmyChoice"), max_items=60),
              "loser": s.Nullable(s.Obj({"player": SEAT, "city": ID}, name="Loser"))},
             name="Army")

STATE_FIELDS = {
    "players": s.ListOf(PLAYER, min_items=2, max_items=5),
    "tokens": s.Int(minimum=4, maximum=6),
    "piles": s.ListOf(PILE, min_items=2, max_items=2),
    "slots": s.ListOf(s.Nullable(ID), min_items=4, max_items=6),
    "city_discard": IDS, "ship_deck": IDS, "ship_discard": IDS, "mission_deck": IDS,
    "credit_supply": s.ListOf(ID, max_items=5), "credits_returned": s.ListOf(ID, max_items=5),
    "box": IDS, "sent": s.ListOf(ID, max_items=35),
    "attacks": s.ListOf(ATTACK, max_items=6), "battle": s.Nullable(BATTLE),
    "searches": s.ListOf(SEARCH, max_items=90), "army": s.Nullable(ARMY),
}

EVENT_TYPES = {
    "setup": "TRE-2 … TRE-10 done", "turn": "a new turn", "fuel": "TRE-11 fuel gained",
    "mission_dealt": "TRE-10", "missions_kept": "TRE-10 (counts only)",
    "ship_drawn": "TRE-12 (to the drawer)", "bought": "TRE-12 (purchase stays secret)",
    "buy_started": "RULING TRE-12a: the player draws", "buy_declined": "RULING TRE-12a",
    "ship_deck_refilled": "TRE-12 RULING", "city_revealed": "TRE-13",
    "army_revealed": "TRE-24", "army_choice": "TRE-24", "army_fight": "TRE-24",
    "search_failed": "TRE-24", "plan_submitted": "TRE-14 (who, not what)",
    "orders_revealed": "TRE-14", "ship_unfueled": "TRE-15", "fuel_paid": "TRE-15",
    "redeploy_submitted": "TRE-32", "redeploy_revealed": "TRE-32", "city_spared": "TRE-23",
    "uncontested": "TRE-18", "battle": "TRE-19 strengths", "retreat": "TRE-19",
    "fight": "TRE-19", "others_retreated": "TRE-19", "reserve_joined": "TRE-31",
    "battle_roll": "TRE-20", "battle_tie": "TRE-20", "battle_won": "TRE-21",
    "ship_lost": "TRE-21", "raid": "TRE-22", "search_started": "TRE-22 / TRE-30",
    "search_paid": "TRE-22", "search_unfinished": "TRE-28", "credit_taken": "TRE-26",
    "credit_repaid": "TRE-26", "game_over": "TRE-28", "chance": "a chance outcome (server)",
}
