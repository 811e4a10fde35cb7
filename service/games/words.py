"""The games' words for the scorekeeper's console: each game declares its own
(``Game.words``, in its package's ``words.py``), and these are the words of what every
game shares (the ``chance`` option, yes and no, the common state fields).

The console's ``game-words.js`` is built from them (``service.http.console``); a word
is looked up in its game's own words, then in ``COMMON``; a key found in neither shows
as itself (an id), and the Russian console test catches it.

>>> label("Pass", "Пас")
{'en': 'Pass', 'ru': 'Пас'}
>>> sorted(COMMON)[:3]
['action', 'breakdown', 'choice']
"""

from __future__ import annotations

from typing import TypedDict


class Label(TypedDict):
    """One word in the console's two languages."""

    en: str
    ru: str


#: the kinds of word (``action``, ``event``, ``zone``…) → key → its label
Words = dict[str, dict[str, Label]]


def label(en: str, ru: str) -> Label:
    return {"en": en, "ru": ru}


#: the short name the games' word tables use
L = label
COMMON: Words = {
    "action": {
        "defend": L("Defend", "Защитить"), "draw": L("Draw", "Взять карту"),
        "evade": L("Evade", "Уклониться"), "roll": L("Dice (2d6)", "Кубики (2к6)"),
        "strike": L("Strike", "Удар"),
    },
    "decision": {
        "action": L("action", "действие"), "defend": L("defend", "защита"),
        "evade": L("evade", "уклонение"), "roll": L("roll the dice", "бросок кубиков"),
        "strike": L("strike", "удар"), "turn": L("turn", "ход"),
    },
    "event": {
        "chance": L("chance resolved", "случай"), "draw": L("drew", "взята карта"),
        "setup": L("set up", "расстановка"), "strike": L("strike", "удар"),
        "turn": L("new turn", "новый ход"), "turn_limit": L("turn limit", "предел ходов"),
    },
    "option": {
        "chance": L("chance", "случай"), "turn_limit": L("turn limit", "предел ходов"),
    },
    "choice": {
        "server": L("server (seeded)", "сервер (по зерну)"),
        "table": L("table (entered here)", "стол (вводится здесь)"),
    },
    "field": {
        "from": L("from", "из"), "name": L("", ""), "seat": L("for", "кому"),
        "target": L("target", "цель"), "to": L("to", "в"), "total": L("", ""),
    },
    "value": {
        "defend": L("defence", "защита"), "draw": L("draw", "взять"),
        "evade": L("evasion", "уклонение"), "false": L("no", "нет"), "hand": L("hand", "рука"),
        "roll": L("roll", "бросок"), "setup": L("setup", "расстановка"), "true": L("yes", "да"),
        "turn": L("turn", "ход"),
    },
    "breakdown": {
        "kind": L("kind", "вид"), "properties": L("properties", "имущество"),
        "total": L("total", "итого"),
    },
    "zone": {
        "choices": L("choices", "выборы"), "current": L("striking", "бьёт"),
        "deck": L("deck", "колода"), "finished": L("finished", "окончена"),
        "hand": L("hand", "рука"), "index": L("number", "номер"), "kind": L("kind", "вид"),
        "mark": L("mark", "метка"), "name": L("name", "имя"), "phase": L("phase", "фаза"),
        "player": L("player", "игрок"), "players": L("players", "игроки"),
        "reason": L("reason", "причина"), "result": L("result", "итог"),
        "seat": L("seat", "место"), "to": L("to", "куда"), "total": L("total", "сумма"),
        "turn": L("turn", "ход"), "type": L("type", "тип"), "winner": L("winner", "победитель"),
        "winners": L("winners", "победители"),
    },
}
