"""Declared shapes of Kozyablo states, events and player setups, and the ids actions carry
(the actions themselves are declared in ``actions``)."""

from __future__ import annotations

from service.games import shape as s
from service.limits import MAX_NAME_LENGTH

ID = s.Str(max_length=64)
SEAT = s.Int(minimum=0, maximum=3)  # 2 to 4 players (RULING KOZ-51)
IDS = s.ListOf(ID, max_items=64)

#: ``aside``: the cards a mulligan shuffles back once its discards are revealed (KOZ-9)
PLAYER = s.Obj({
    "name": s.Str(max_length=MAX_NAME_LENGTH), "race": s.Enum("pozorki", "trutni", "kozly", "zhloby"),
    "capital": ID, "hand": IDS, "deck": IDS, "discard": IDS, "aside": IDS,
    "cards": s.ListOf(ID, max_items=40), "mulligans": s.Int(minimum=0, maximum=3),
    "ready": s.Bool(), "dead_heroes": IDS, "capital_damage": s.Int(minimum=0, maximum=99),
    "out": s.Bool(description="the capital fell: out of the game (RULING KOZ-53)")},
    name="Player")

SECTOR = s.Obj({"kind": s.Enum("capital", "gold_mine", "crystal_mine", "energy_source"),
                "owner": SEAT, "controller": s.Nullable(SEAT)}, name="Sector")
#: ``shadow_number`` (exactly while ``shadow``): the public number of a hidden creature,
#: assigned when it entered the shadow; the opponent sees it as ``hidden-<n>`` (KOZ-41)
UNIT = s.Obj({"owner": SEAT, "sector": ID, "damage": s.Int(minimum=0, maximum=99),
              "shadow": s.Bool(), "artifacts": IDS},
             {"shadow_number": s.Int(minimum=1, maximum=99)}, name="Unit")
BUILDING = s.Obj({"owner": SEAT, "sector": ID, "damage": s.Int(minimum=0, maximum=99)},
                 name="Building")
LASTING = s.Obj({"owner": SEAT, "turns_left": s.Nullable(s.Int(minimum=1, maximum=9)),
                 "cast_turn": s.Int(minimum=0)},
                {"unit": ID, "sector": ID, "seat": SEAT}, name="Lasting")
QUEUED = s.Obj({"seat": SEAT}, {"to": s.Enum("hand", "discard"), "do": s.Enum("back")},
               name="Queued")
HIT = s.Obj({"target": ID, "stage": s.Enum("evade", "defend")}, name="Hit")
COMBAT = s.Nullable(s.Obj(
    {"sector": ID, "attacker": SEAT, "kind": s.Enum("attack", "retreat"), "waiting": IDS,
     "current": s.Nullable(ID), "strikes_left": s.Int(minimum=0, maximum=1),
     "hits": s.ListOf(HIT, max_items=2), "area": s.Bool()},
    {"movers": IDS, "to": ID,
     # whose turn to strike it is, while that decision waits (null once it is taken): the
     # state says it, so that creatures in the shadow keep their speed to themselves
     # (RULING KOZ-41a); every new combat state sets it
     "turn": s.Nullable(s.ListOf(ID, max_items=60))}, name="Combat"))
#: damage of a magic card, event, ability or trigger waiting for a Defender decision (KOZ-45)
EFFECT_HIT = s.Obj({"target": ID, "amount": s.Int(minimum=0, maximum=99)}, name="EffectHit")
EFFECT = s.Nullable(s.Obj(
    {"player": SEAT, "source": s.Nullable(ID), "magic": s.Bool(), "pierces": s.Bool(),
     "undead_immune": s.Bool(), "hits": s.ListOf(EFFECT_HIT, min_items=1, max_items=60),
     "then": s.Enum("main", "response", "end_turn", "start", "end")},
    {"triggers": s.ListOf(s.Obj({"source": ID, "index": s.Int(minimum=0, maximum=9)},
                                name="Trigger"), max_items=80)}, name="PendingEffect"))

STATE_FIELDS = {
    "players": s.ListOf(PLAYER, min_items=2, max_items=4),
    "order": s.ListOf(SEAT, max_items=4),
    "active": s.Nullable(SEAT),
    "sectors": s.MapOf(SECTOR, max_items=16),
    "units": s.MapOf(UNIT, max_items=120),
    "buildings": s.MapOf(BUILDING, max_items=24),
    "lasting": s.MapOf(LASTING, max_items=80),
    "queue": s.ListOf(QUEUED, max_items=80),
    #: the main action waiting for the response window (KOZ-16)
    "declared": s.Nullable(s.Obj({"type": s.Str(), "player": SEAT}, extra=True)),
    #: whose response window is open (KOZ-16; RULING KOZ-52: each other player in turn)
    "responder": s.Nullable(SEAT),
    #: ``"<source>:<ability>"`` of the free abilities used this turn
    "used": s.ListOf(s.Str(max_length=80), max_items=60),
    "combat": COMBAT,
    "effect": EFFECT,
}

CHOICE = {"target": ID, "sector": ID,
          "squad": s.Int(minimum=0, maximum=3,
                         description="whose squad in `sector` (3-4 players, RULING KOZ-51)")}

EVENT_TYPES = {
    "chance": "A chance node resolved by the server.",
    "lot": "Who goes first (KOZ-10).", "drawn": "A card drawn into a hand.",
    "milled": "A card revealed into the discard (KOZ-9).",
    "mulligan": "A mulligan (KOZ-9).", "shuffled_back": "Mulligan cards back into the deck.",
    "turn_started": "A player's turn begins.", "turn_ended": "A player's turn ends.",
    "trigger": "A start/end-of-turn text fired (KOZ-14).",
    "action_declared": "An action waits for the opponent's response (KOZ-16).",
    "passed": "A player passed in the response window (KOZ-16).",
    "window_closed": "The response window closed; the declared action is carried out (KOZ-16).",
    "action_fizzled": "A declared action became illegal.",
    "card_played": "A card was played.", "draw": "A draw action.", "moved": "Creatures moved.",
    "skipped": "The action was skipped.", "ability_used": "An on-table ability was used.",
    "entered_shadow": "A creature hid (KOZ-41).", "left_shadow": "A creature left the shadow.",
    "combat_started": "A combat began (KOZ-24).", "retreat_attack": "A retreat attack (KOZ-16a).",
    "strike": "A strike was made.", "no_target": "A striker had no legal target.",
    "strike_held": "A striker held its strike (RULING KOZ-25a; public).",
    "stayed_hidden": "A creature in the shadow let its turn to strike pass and stays hidden, "
                     "no part of the combat (RULING KOZ-41a).",
    "evaded": "Evasion made a strike miss (KOZ-46).",
    "defended": "A Defender took a strike or an effect's damage (KOZ-45).",
    "damage": "Damage dealt.", "heal": "Life restored.", "vampirism": "Vampirism (KOZ-44).",
    "died": "A creature or building died (KOZ-29).", "destroyed": "A building was destroyed.",
    "combat_ended": "The combat is over.", "magic_laid": "Lasting magic put on the table.",
    "magic_ended": "Lasting magic left the table.", "sector_control": "Control changed (KOZ-11).",
    "capital_captured": "A capital was captured (KOZ-48): `player` is the player whose "
                        "capital fell, `capital` that capital, `by` the capturer.",
    "capital_destroyed": "A capital was destroyed (KOZ-49): `player` is the player whose "
                         "capital fell, `capital` that capital, `by` the player whose card "
                         "dealt the last damage (null when none did).",
    "turn_limit": "The turn limit ended the game (KOZ-50).",
    "card_win": "A card's win condition held: `player` won by `card` (KOZ-47; the result's "
                "`reason` is `card_win`).",
    "player_out": "A player's capital fell: their cards left the table (RULING KOZ-53).",
    "left": "A creature or building left the table with its out player (RULING KOZ-53).",
}

DECK = s.Obj({"capital": ID, "sectors": s.ListOf(ID, max_items=10),
              "cards": s.ListOf(ID, max_items=100)},
             description="A deck: capital, three sectors and 15-25 cards (ids, with repeats).")

PLAYER_SETUP_FIELDS = {
    "name": s.Str(max_length=MAX_NAME_LENGTH),
    "deck": DECK,
    "race": s.Enum("pozorki", "trutni", "kozly", "zhloby",
                   description="play the reference deck of this race"),
}
