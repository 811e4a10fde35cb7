"""Raiders' words for the scorekeeper's console, English and Russian, by kind (``service.games.words``):
its action, decision and event types, options, action fields and their values, score
breakdown keys, a view's zones.  The service describes types in English only
(``GET /v1/games/{game}``); the console says them in the scorekeeper's language.

>>> WORDS["action"]["capture"]["en"] != ""
True
"""

from __future__ import annotations

from service.games.words import L, Words

WORDS: Words = {
    "action": {
        "capture": L("Capture", "Захват"), "deal": L("Deal", "Раздача"),
        "end_turn": L("End the turn", "Конец хода"), "pass": L("Pass", "Пас"),
        "play_trick": L("Play a trick", "Приём"),
        "reveal": L("Property revealed", "Открыто имущество"),
        "reveal_trump": L("Trump turned up", "Козырь"),
    },
    "decision": {
        "deal_fighter": L("deal a fighter", "раздача бойца"),
        "draw_fighter": L("draw a fighter", "взять бойца"), "respond": L("response", "ответ"),
        "reveal": L("reveal a card", "открыть карту"),
        "reveal_property": L("reveal a property", "открыть имущество"),
        "reveal_trump": L("turn up the trump", "открыть козырь"),
    },
    "event": {
        "capture_declared": L("capture declared", "объявлен захват"),
        "capture_ended": L("capture ended", "захват окончен"),
        "captured": L("captured", "захвачено"), "combat": L("combat", "схватка"),
        "cost_paid": L("cost paid", "оплачена цена"), "dealt": L("dealt", "сдана карта"),
        "draws_owed": L("draws owed", "карты в долг"), "drew": L("drew", "взята карта"),
        "fighter_died": L("fighter died", "боец погиб"),
        "fighter_returned": L("fighter returned", "боец вернулся"),
        "fizzled": L("fizzled", "без эффекта"), "game_won": L("game won", "победа"),
        "guard_stolen": L("guard stolen", "охрана переманена"),
        "modifiers_expired": L("modifiers expired", "поправки истекли"),
        "passed": L("passed", "пас"), "power_modified": L("power changed", "крутизна изменена"),
        "property_freed": L("property freed", "имущество освобождено"),
        "property_revealed": L("property revealed", "открыто имущество"),
        "reshuffled": L("reshuffled", "перетасовано"),
        "trick_played": L("trick played", "сыгран приём"),
        "trump_revealed": L("trump turned up", "открыт козырь"),
        "turn_ended": L("turn ended", "ход окончен"),
        "turn_started": L("turn started", "начался ход"),
    },
    "option": {
        "double_deck": L("double deck", "двойная колода"),
        "first_player": L("first player", "первый игрок"),
        "illegal_play": L("illegal play", "неверный ход"),
        "short_game": L("short game", "короткая игра"), "teams": L("teams", "команды"),
    },
    "choice": {
        "fizzle": L("fizzles", "без эффекта"), "reject": L("refused", "отклонить"),
    },
    "field": {
        "card": L("", ""), "cards": L("cards", "карты"), "cost_card": L("paying with", "оплата"),
        "discard": L("discarding", "сбросив"), "fighter": L("with", "боец"),
        "property": L("on", "имущество"), "targets": L("targets", "цели"),
    },
    "value": {
        "attacker": L("attacker", "атакующий"), "capture": L("capture", "захват"),
        "discard": L("discard", "сброс"), "end_turn": L("end of turn", "конец хода"),
        "guard": L("guard", "охрана"), "main": L("main", "основная"),
        "over": L("over", "окончена"),
    },
    "breakdown": {
        "bonus": L("set bonus", "бонус за набор"),
        "captured": L("cities captured", "захвачено городов"), "count": L("count", "число"),
        "money": L("money", "деньги"), "property": L("property", "имущество"),
        "team": L("team", "команда"),
    },
    "zone": {
        "active": L("active seat", "ходит"), "amount": L("amount", "величина"),
        "attacker": L("attacker", "атакующий"), "bottom": L("bottom card", "нижняя карта"),
        "capture": L("capture", "захват"), "capture_used": L("capture used", "захват сделан"),
        "captured": L("captured cities", "захваченные города"), "card": L("card", "карта"),
        "cards": L("cards", "карты"), "centre": L("centre", "центр"), "combat": L("combat", "бой"),
        "count": L("cards", "карт"), "discard": L("discard", "сброс"),
        "effect": L("effect", "эффект"), "fighter": L("fighter", "боец"),
        "fighter_deck": L("fighter deck", "колода бойцов"), "fighters": L("fighters", "бойцы"),
        "fighters_in_play": L("fighters in play", "бойцы в игре"),
        "first_player": L("first player", "первый игрок"), "guard": L("guard", "охрана"),
        "holdings": L("holdings", "владения"), "modifiers": L("modifiers", "поправки"),
        "owed_draws": L("draws owed", "карты в долг"), "passes": L("passes", "пасов"),
        "power": L("power", "крутизна"), "printed_power": L("printed power", "крутизна на карте"),
        "priority": L("priority", "приоритет"), "property": L("property", "имущество"),
        "property_deck": L("property deck", "колода имущества"), "role": L("role", "роль"),
        "suit": L("suit", "масть"), "trump": L("trump", "козырь"), "until": L("until", "до"),
    },
}
