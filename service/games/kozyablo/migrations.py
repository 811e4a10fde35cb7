"""Kozyablo states of an older rules version carried over to this one (``Game.rules_history``).

``kozyablo/2`` → ``kozyablo/3`` (docs/kozyablo.md, CHANGELOG.md):

- The reference card set gained a ``name`` for each activated ability (``use_ability``
  names it, KOZ-16) and nothing else: a ``kozyablo/2`` state of the ``reference`` set
  with that set's hash then (``REFERENCE_HASHES``) gets today's hash.  A state of
  another card set keeps its hash: it is served if that set still has it.
- RULINGs KOZ-51..53 (3-4 players) add ``players[p].out`` (a fallen capital: in a
  two-player game, exactly a capital at 12 damage) and ``responder`` (whose response
  window is open: the player a ``response`` decision is pending for).
- RULING KOZ-18a, squad magic: a lasting card laid on a squad (a ``lasting`` entry
  naming a ``seat``) is no card in the sector any more and leaves with its squad: a
  state holding one is refused naming KOZ-18a.
- RULING KOZ-36a, Weapon protection limits targets: a state in a combat where a creature
  with Weapon protection stands in the combat's sector is refused naming KOZ-36a (the
  strikes already made there may not be legal under ``kozyablo/3``).
- ``reveal.face``, named abilities, ``passed``/``window_closed``, ``damage.amount``
  change actions and events, not states.  A replay recorded under ``kozyablo/2``
  (``rules_version`` in the request) has its actions reworded by ``action_from_2``:
  ``reveal.card`` becomes ``reveal.face``, and ``use_ability.ability`` given as the
  index of the card's activated ability (``"0"``) becomes that ability's name.

``kozyablo/3`` → ``kozyablo/4`` (issue 25; the card set and its hash do not change):

- RULING KOZ-41a, the shadow: declaring an attack brings no creature out of the shadow,
  and a hidden creature waits its turn to strike by its speed like any other.  Under
  ``kozyablo/3`` the declarer's hidden creatures were brought out when the attack was
  declared, and the state keeps no record of which were: a state in a combat (an
  attack) where one of the declarer's creatures in the combat's sector could have been
  in the shadow (it has Shadow) is refused naming KOZ-41a and KOZ-25a.  In any other
  combat in progress, the hidden creatures in the sector were never waiting: each whose
  speed is strictly below the current striker's (and, in a retreat attack, that is a
  striker of it) now waits its turn; the others' turn has passed and they stayed hidden.
  ``combat.turn`` names whose turn it is while a strike decision waits and nothing is
  being resolved (the engine's own ``combat.step``, which moves nothing in such a state).
  RULING KOZ-25a: the strikes already made were compulsory; they stand, and every strike
  from now on may be held.
- RULING KOZ-53a, fallen capitals: an out player's capital still names them as
  ``controller`` in a ``kozyablo/3`` state (in a game in progress, or one that ended
  another way); it is an ordinary sector now, so its control is re-derived by KOZ-11
  (the one player whose creatures stand there, else nobody).  A finished game won by a
  fall (``capture``/``destruction``) marks its last loser out as the engine does now
  (``damage.knock_out``: their units, buildings and lasting magic to their discard, the
  sectors they controlled cleared, their capital's control by KOZ-11); the winners do
  not change.
- RULING KOZ-45a (a Defender takes the strike whatever the striker's targeting limits,
  one in the shadow too) and KOZ-16 ``per_turn`` (card data; 1 when absent, so the
  reference set's hash is the same) change no state; the capital events' shape (KOZ-48,
  KOZ-49: ``player`` is the victim, both carry ``capital`` and ``by``) changes events
  only.  ``pending`` is derived again from the carried-over state.
- A replay recorded under ``kozyablo/3`` has its actions carried over by
  ``action_from_3``: a hidden creature of a player other than the declarer, whose turn
  to strike now comes (it was no part of a ``kozyablo/3`` combat), holds (stays hidden);
  so does one whose Defender decision is new (a hidden Defender, KOZ-45a: the recorded
  game had no such decision, so it is declined).  A recorded ``attack`` in a sector where
  the declarer has a hidden creature is refused naming KOZ-41a: ``kozyablo/3`` brought
  it out and let it be struck before its turn, which ``kozyablo/4`` does not; so is one
  on a fallen capital with no opposing card there (KOZ-53a: an ordinary sector now,
  nothing to attack).  Every other recorded action stands as it was: a strike is still a
  strike (``hold`` is only new, never required).

``kozyablo/4`` → ``kozyablo/5`` (issue 35; the card set and its hash do not change):

- RULING KOZ-25a (with KOZ-32): each of Two attacks is a right of its own, so holding
  the first leaves the second to strike or hold; ``kozyablo/4`` took both with the
  first ``hold``.  A ``kozyablo/4`` state keeps no record of which strikes were held: a
  combat (an attack) in progress where one of the declarer's Two-attacks creatures in
  the sector has had its turn (it is neither waiting nor the current striker, and did
  not stay hidden) may have lost a second strike that ``kozyablo/5`` would still ask
  for, and is refused naming KOZ-25a.  Any other state is the same position (a first
  strike made and the second to come is held the same way by both).
- RULING KOZ-39a: Armor reduces damage from creatures only; a building's strike is not
  reduced by it.  Damage dealt stays as it was dealt (KOZ-27).  A state in which a
  building's strike is being resolved (its hits wait for an Evasion or Defender
  decision) against a card whose Armor ``kozyablo/4`` would have applied is refused
  naming KOZ-39a: its controller chose the target, and the reacting player decides,
  under the old amount.  Magic, events and abilities never met Armor in ``kozyablo/4``
  either (``effect_damage``, the capital effects), so nothing else changes.
- A replay recorded under ``kozyablo/4`` has its actions carried over by
  ``action_from_4``: after a held first strike of Two attacks, ``kozyablo/5`` asks for
  the second, which ``kozyablo/4`` never did, so it is held too and the recorded action
  follows; a recorded strike of a building at a card whose Armor would have cut it (the
  target or a Defender that may take it) is refused naming KOZ-39a, since the game
  would go on with other damage than the one recorded.

>>> REFERENCE_HASHES["sha256:ccc50c2b479a5a1d1c4ef68ea86d28ea"]
'reference'
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any, cast

import card_db
from service.games.draft import Draft
from service.games.kozyablo import combat as fights
from service.games.kozyablo.cards import Catalogue, face
from service.games.kozyablo.damage import (
    CAPITAL_ARMOR,
    CAPITAL_LIFE,
    armor_reduced,
    knock_out,
    strike_damage,
    striker_stats,
)
from service.games.kozyablo.sectors import is_fallen_capital, update_control
from service.games.kozyablo.state_types import Combat, KozyabloState
from service.games.kozyablo.stats import building_stats, unit_stats
from service.games.messages import N_
from service.games.objects import ActionObject, Entry, Event, JsonObject
from service.games.versions import NotUpgradable

#: the hash of the ``reference`` card set as ``kozyablo/2`` states carry it → its id
REFERENCE_HASHES = {"sha256:ccc50c2b479a5a1d1c4ef68ea86d28ea": "reference"}


@lru_cache(maxsize=8)
def _weapon_protected(set_id: str) -> frozenset[str]:
    """The cards of a set with Weapon protection, their own or granted (artifacts)."""
    found = set()
    for group in card_db.get("kozyablo", set_id).data.values():
        for card in group if isinstance(group, list) else []:
            if not isinstance(card, dict):
                continue
            granted = (card.get("modify") or {}).get("grant") or []
            if any(a.get("type") == "weapon_protection"
                   for a in [*(card.get("abilities") or []), *granted]):
                found.add(card["id"])
    return frozenset(found)


def from_2(state: JsonObject) -> JsonObject:
    """A ``kozyablo/2`` state as a ``kozyablo/3`` one (the module docstring)."""
    if any("seat" in lasting for lasting in state["lasting"].values()):
        raise NotUpgradable(["KOZ-18a"], N_(
            "squad magic is on the table, which rules 3 treat as no card in the sector"))
    card_set = state["card_set"]
    if REFERENCE_HASHES.get(card_set["hash"]) == card_set["id"]:
        card_set = card_db.get("kozyablo", card_set["id"]).ref()
    combat = state["combat"]
    if combat is not None:
        protected = _weapon_protected(card_set["id"])
        if any(unit["sector"] == combat["sector"]
               and ({face(uid)} | {face(a) for a in unit["artifacts"]}) & protected
               for uid, unit in state["units"].items()):
            raise NotUpgradable(["KOZ-36a"], N_(
                "a combat is under way beside a creature with Weapon protection, whose "
                "targets rules 3 limit"))
    responder = next((entry["player"] for entry in state["pending"]
                      if entry.get("decision") == "response"), None)
    players = [{**p, "out": p["capital_damage"] >= CAPITAL_LIFE} for p in state["players"]]
    return {**state, "card_set": card_set, "players": players, "responder": responder}


def action_from_2(state: Mapping[str, Any], action: ActionObject) -> list[ActionObject]:
    """A ``kozyablo/2`` action as a ``kozyablo/3`` one (the module docstring).

    >>> action_from_2({}, {"type": "reveal", "player": "chance", "seat": 0, "card": "pz_spark"})
    [{'type': 'reveal', 'player': 'chance', 'seat': 0, 'face': 'pz_spark'}]
    """
    if action.get("type") == "reveal" and "card" in action and "face" not in action:
        out = {k: v for k, v in action.items() if k != "card"}
        return [{**out, "face": action["card"]}]
    ability = action.get("ability")
    if action.get("type") == "use_ability" and isinstance(ability, str) and ability.isdigit():
        card = _cards(state["card_set"]["id"]).get(face(str(action["source"])), {})
        activated = card.get("activated") or []
        if int(ability) < len(activated):
            return [{**action, "ability": activated[int(ability)]["name"]}]
    return [action]


@lru_cache(maxsize=8)
def _cards(set_id: str) -> dict[str, JsonObject]:
    """The cards of a set by id."""
    return {card["id"]: card for group in card_db.get("kozyablo", set_id).data.values()
            if isinstance(group, list) for card in group if isinstance(card, dict) and "id" in card}


def from_3(state: JsonObject) -> JsonObject:
    """A ``kozyablo/3`` state as a ``kozyablo/4`` one (the module docstring).

    The engine's own steps run on a state not yet validated: one they find broken is
    not a state of that version (``ValueError``, which the caller answers as such)."""
    try:
        return _from_3(state)
    except (AssertionError, StopIteration) as exc:  # "cannot happen" in a state no engine wrote
        raise ValueError(f"not a kozyablo/3 state: {exc}") from None


def _from_3(state: JsonObject) -> JsonObject:
    cat = Catalogue.of_state(state)
    # read as a kozyablo/4 state: the steps below read only parts both versions share
    draft = Draft(cast(KozyabloState, state))
    root = draft.root
    dropped: list[JsonObject] = []  # the events of the carry-over: no answer shows them
    if root["result"] is None and root["combat"] is not None:
        _combat_from_3(draft, cat)
    result = root["result"]
    if result is not None and result.get("reason") in ("capture", "destruction"):
        for seat, player in enumerate(root["players"]):  # the last to fall (KOZ-53a)
            if not player["out"] and seat not in result["winners"]:
                knock_out(draft, cat, seat, result["reason"], dropped)
        root["result"] = result  # the winners do not change
    for sid, sec in root["sectors"].items():  # a fallen capital is nobody's (KOZ-53a) ...
        if sec["controller"] is not None and root["players"][sec["controller"]]["out"]:
            draft.at("sectors", sid)["controller"] = None
    update_control(draft, dropped)  # ... then held by KOZ-11 (RULING KOZ-53a)
    return {**root, "pending": _pending(root)}


def _combat_from_3(draft: Draft[KozyabloState], cat: Catalogue) -> None:
    """RULINGS KOZ-41a and KOZ-25a in a combat in progress (the module docstring)."""
    root = draft.root
    c = root["combat"]
    assert c is not None
    sector = c["sector"]
    if c["kind"] == "attack" and any(
            d["sector"] == sector and d["owner"] == c["attacker"]
            and "shadow" in unit_stats(root, cat, uid).abilities
            for uid, d in root["units"].items()):
        raise NotUpgradable(["KOZ-41a", "KOZ-25a"], N_(
            "a combat is under way where the declarer's creatures may have been brought out of "
            "the shadow, which rules 4 leave hidden until their turn (the state does not say "
            "which were)"))
    now = c["current"] or next(iter(fights.candidates(root, cat)[1]), None)
    if now is not None:
        speed = striker_stats(root, cat, now).speed
        hidden = [uid for uid, d in root["units"].items()
                  if d["sector"] == sector and d["shadow"] and uid not in c["waiting"]
                  and uid != c["current"]
                  and (c["kind"] == "attack" or d["owner"] != c["attacker"]
                       and unit_stats(root, cat, uid).attack > 0)
                  and unit_stats(root, cat, uid).speed < speed]
        if hidden:  # sorted, as the engine lists a combat's strikers (``combat.start``)
            draft.at("combat")["waiting"] = sorted([*c["waiting"], *hidden])
    events: list[Event] = []
    if fights.step(draft, cat, events) or events:
        raise NotUpgradable(["KOZ-41a"], N_(  # not a state a combat waits in: never written
            "the combat does not wait for a decision under rules 4"))


def _pending(state: KozyabloState) -> list[Entry]:
    """``pending`` derived from the carried-over state, as the engine derives it."""
    from service.games import registry  # the engine imports this module

    return [] if state["result"] is not None else registry.get_game("kozyablo").compute_pending(state)


def action_from_3(state: Mapping[str, Any], action: ActionObject) -> list[ActionObject]:
    """A ``kozyablo/3`` action as ``kozyablo/4`` actions (the module docstring).

    >>> action_from_3({"phase": "main"}, {"type": "skip", "player": 0})
    [{'type': 'skip', 'player': 0}]
    """
    if state.get("phase") == "combat" and state.get("result") is None:
        cat = Catalogue.of_state(state)
        root = cast(KozyabloState, state)  # its combat, as both versions hold it
        c = root["combat"]
        assert c is not None
        reaction = fights.reaction(root, cat)
        if reaction is None and c["current"] is None:
            seat, group = fights.candidates(root, cat)
            new = [u for u in group if u in root["units"] and root["units"][u]["shadow"]
                   and (c["kind"] == "retreat" or seat != c["attacker"])]
            if new and action.get("unit") not in group:
                return [{"type": "hold", "player": seat, "unit": new[0]}, action]
        elif reaction is not None and reaction["kind"] == "defend" \
                and action.get("type") not in ("defend", "decline"):
            return [{"type": "decline", "player": reaction["player"]}, action]
    if action.get("type") == "attack" and state.get("phase") == "main":
        sector, seat = action.get("sector"), action.get("player")
        units = state["units"]
        if any(d["sector"] == sector and d["owner"] == seat and d["shadow"]
               for d in units.values()):
            raise NotUpgradable(["KOZ-41a"], N_(
                "the attack brought the declarer's hidden creatures out of the shadow, which "
                "rules 4 leave hidden until their turn"))
        if isinstance(sector, str) and sector in state["sectors"] \
                and is_fallen_capital(cast(KozyabloState, state), sector) and not any(
                    d["sector"] == sector and d["owner"] != seat
                    for pool in ("units", "buildings") for d in state[pool].values()):
            raise NotUpgradable(["KOZ-53a"], N_(
                "the attack was declared on a fallen capital, which rules 4 make an ordinary "
                "sector with no opposing cards there"))
    return [action]


def from_4(state: JsonObject) -> JsonObject:
    """A ``kozyablo/4`` state as a ``kozyablo/5`` one (the module docstring): the same
    state, unless it is in the middle of KOZ-25a's Two attacks or KOZ-39a's Armor."""
    try:
        root = cast(KozyabloState, state)  # its combat, as both versions hold it
        c = root["combat"]
        if root["result"] is None and c is not None:
            cat = Catalogue.of_state(state)
            _combat_from_4(root, cat, c)
    except (AssertionError, StopIteration) as exc:  # "cannot happen" in a state no engine wrote
        raise ValueError(f"not a kozyablo/4 state: {exc}") from None
    return {**state}


def _combat_from_4(root: KozyabloState, cat: Catalogue, c: Combat) -> None:
    sector = c["sector"]
    if c["kind"] == "attack" and any(
            d["sector"] == sector and d["owner"] == c["attacker"] and not d["shadow"]
            and uid not in c["waiting"] and uid != c["current"]
            and "two_attacks" in unit_stats(root, cat, uid).abilities
            for uid, d in root["units"].items()):
        raise NotUpgradable(["KOZ-25a"], N_(
            "a combat is under way where a creature with Two attacks has had its turn, and "
            "rules 4 took its second strike when it held the first, which rules 5 leave it "
            "(the state does not say which strikes were held)"))
    striker = c["current"]
    if striker is not None and any(_armor_cut(root, cat, striker, hit["target"])
                                   for hit in c["hits"]):
        raise NotUpgradable(["KOZ-39a"], N_(
            "a building's strike is being resolved against Armor, which rules 5 no longer "
            "apply to a building's strike"))


def _armor_cut(state: KozyabloState, cat: Catalogue, striker: str, target: str) -> bool:
    """Whether ``kozyablo/4`` cut ``striker``'s strike at ``target``, or at a Defender that
    may take it in ``target``'s place, by Armor where RULING KOZ-39a does not: a
    building's strike that ``kozyablo/5`` deals whole."""
    if striker not in state["buildings"] or "magic_attack" in building_stats(cat, striker).abilities:
        return False
    for taker in [target, *fights.defenders(state, cat, target)]:
        if taker in state["units"]:
            armor = unit_stats(state, cat, taker).armor
        elif taker in state["buildings"]:
            armor = building_stats(cat, taker).armor
        else:
            armor = CAPITAL_ARMOR
        dealt = strike_damage(state, cat, striker, taker)
        if armor_reduced(dealt, armor) != dealt:
            return True
    return False


def action_from_4(state: Mapping[str, Any], action: ActionObject) -> list[ActionObject]:
    """A ``kozyablo/4`` action as ``kozyablo/5`` actions (the module docstring).

    >>> action_from_4({"phase": "main"}, {"type": "skip", "player": 0})
    [{'type': 'skip', 'player': 0}]
    """
    if state.get("phase") != "combat" or state.get("result") is not None:
        return [action]
    cat = Catalogue.of_state(state)
    root = cast(KozyabloState, state)  # its combat, as both versions hold it
    c = root["combat"]
    assert c is not None
    current = c["current"]
    if current is not None and not c["hits"] and c["strikes_left"] > 0 and not (
            action.get("type") in ("strike", "hold") and action.get("unit") == current):
        # kozyablo/4's hold of the first strike took the second too (RULING KOZ-25a)
        return [{"type": "hold", "player": fights.owner_of(root, current), "unit": current},
                action]
    unit, targets = action.get("unit"), action.get("targets")
    if action.get("type") == "strike" and unit in root["buildings"] \
            and isinstance(targets, list) and any(
                _armor_cut(root, cat, str(unit), str(t)) for t in targets):
        raise NotUpgradable(["KOZ-39a"], N_(
            "a building struck a card with Armor, which rules 5 no longer apply to a "
            "building's strike"))
    return [action]
