// The games' vocabulary in words, English and Russian: action, decision and event
// types, option names and choices, action fields and their word values, score
// breakdown keys, a view's zones.  The service describes types in English only
// (GET /v1/games/{game}); the console says them in the scorekeeper's language.
// A key missing here shows as itself (an id), and the Russian test catches it.

// [en, ru] by key; one table per kind, shared by the three games (where a key
// means different things in two games it is prefixed with the game: "tremble.reveal").
const ACTIONS = {
  // Raiders
  "capture": ["Capture", "Захват"], "play_trick": ["Play a trick", "Приём"],
  "pass": ["Pass", "Пас"], "end_turn": ["End the turn", "Конец хода"],
  "deal": ["Deal", "Раздача"], "reveal_trump": ["Trump turned up", "Козырь"],
  "draw": ["Draw", "Взять карту"], "reveal": ["Property revealed", "Открыто имущество"],
  // Tremble
  "keep_missions": ["Keep missions", "Оставить задания"], "draw_ships": ["Draw two ships", "Взять два корабля"],
  "decline_buy": ["Skip the buy", "Не покупать"], "buy": ["Buy", "Купить"],
  "buy.none": ["Buy nothing", "Ничего не покупать"], "plan": ["Attack orders", "Приказы атаки"],
  "plan.none": ["Attack nothing", "Не атаковать"], "discard_unfueled": ["Discard an unfuelled ship", "Сбросить корабль без топлива"],
  "redeploy": ["Redeploy", "Переброска"], "redeploy.none": ["Keep every order", "Без переброски"],
  "battle_choice": ["Battle", "Бой"], "join_reserve": ["Join from the reserve", "Ввести резерв"],
  "reserve_done": ["No more reserves", "Резерв всё"], "lose_ship": ["Lose a ship", "Потерять корабль"],
  "army_choice": ["Army", "Армия"], "raid": ["Raid", "Набег"], "search": ["Search", "Обыск"],
  "take_credit": ["Take a credit", "Взять кредит"], "repay_credit": ["Repay a credit", "Вернуть кредит"],
  "deal_mission": ["Mission dealt", "Сдано задание"], "draw_ship": ["Ship drawn", "Взят корабль"],
  "tremble.reveal": ["Revealed", "Открыта карта"], "roll": ["Dice (2d6)", "Кубики (2к6)"],
  // Kozyablo
  "lot": ["Lot", "Жребий"], "kozyablo.reveal": ["Card drawn", "Вытянута карта"],
  "keep": ["Keep the hand", "Оставить руку"], "mulligan": ["Mulligan", "Пересдача"],
  "play_card": ["Play", "Сыграть"], "kozyablo.draw": ["Draw a card", "Взять карту"],
  "move": ["Move", "Переместить"], "attack": ["Attack", "Атаковать"],
  "use_ability": ["Use an ability", "Способность"], "skip": ["Skip", "Пропустить"],
  "kozyablo.pass": ["Let it happen", "Пропустить ответ"], "strike": ["Strike", "Удар"],
  "hold": ["Hold the strike", "Не бить"], "evade": ["Evade", "Уклониться"],
  "defend": ["Defend", "Защитить"], "decline": ["No reaction", "Без ответа"],
};

const DECISIONS = {
  "turn": ["turn", "ход"], "respond": ["response", "ответ"], "deal_fighter": ["deal a fighter", "раздача бойца"],
  "reveal_trump": ["turn up the trump", "открыть козырь"], "draw_fighter": ["draw a fighter", "взять бойца"],
  "reveal_property": ["reveal a property", "открыть имущество"],
  "keep_missions": ["keep missions", "оставить задания"], "draw_or_decline": ["draw or skip the buy", "покупка или отказ"],
  "buy": ["buy", "покупка"], "plan": ["attack orders", "приказы атаки"],
  "discard_unfueled": ["discard an unfuelled ship", "сброс корабля без топлива"], "redeploy": ["redeploy", "переброска"],
  "fight_or_retreat": ["fight or retreat", "бой или отступление"], "reserve": ["reserves", "резерв"],
  "lose_ship": ["lose a ship", "потеря корабля"], "army_loss": ["lose a ship to the army", "потеря корабля в бою с армией"],
  "army_choice": ["the army: fight or abandon", "армия: бой или отказ"], "reward": ["raid or search", "набег или обыск"],
  "deal_mission": ["deal a mission", "сдать задание"], "draw_ship": ["draw a ship", "взять корабль"],
  "reveal": ["reveal a card", "открыть карту"], "roll": ["roll the dice", "бросок кубиков"],
  "lot": ["lot", "жребий"], "mulligan": ["keep or mulligan", "оставить или пересдать"],
  "action": ["action", "действие"], "response": ["response", "ответ"], "defend": ["defend", "защита"],
  "strike": ["strike", "удар"], "evade": ["evade", "уклонение"],
};

const EVENTS = {
  // Raiders
  "dealt": ["dealt", "сдана карта"], "trump_revealed": ["trump turned up", "открыт козырь"],
  "turn_started": ["turn started", "начался ход"], "drew": ["drew", "взята карта"],
  "reshuffled": ["reshuffled", "перетасовано"], "property_revealed": ["property revealed", "открыто имущество"],
  "capture_declared": ["capture declared", "объявлен захват"], "passed": ["passed", "пас"],
  "trick_played": ["trick played", "сыгран приём"], "cost_paid": ["cost paid", "оплачена цена"],
  "fizzled": ["fizzled", "без эффекта"], "power_modified": ["power changed", "крутизна изменена"],
  "modifiers_expired": ["modifiers expired", "поправки истекли"], "fighter_died": ["fighter died", "боец погиб"],
  "fighter_returned": ["fighter returned", "боец вернулся"], "guard_stolen": ["guard stolen", "охрана переманена"],
  "draws_owed": ["draws owed", "карты в долг"], "combat": ["combat", "схватка"],
  "property_freed": ["property freed", "имущество освобождено"], "captured": ["captured", "захвачено"],
  "capture_ended": ["capture ended", "захват окончен"], "turn_ended": ["turn ended", "ход окончен"],
  "game_won": ["game won", "победа"], "chance": ["chance resolved", "случай"],
  // Tremble
  "setup": ["set up", "расстановка"], "turn": ["new turn", "новый ход"], "fuel": ["fuel gained", "топливо"],
  "mission_dealt": ["mission dealt", "сдано задание"], "missions_kept": ["missions kept", "задания оставлены"],
  "ship_drawn": ["ship drawn", "взят корабль"], "bought": ["bought", "куплено"],
  "buy_started": ["buy started", "покупка"], "buy_declined": ["buy skipped", "без покупки"],
  "ship_deck_refilled": ["ship deck refilled", "колода кораблей пополнена"], "city_revealed": ["city revealed", "открыт город"],
  "army_revealed": ["army revealed", "открыта армия"], "army_choice": ["army choice", "выбор против армии"],
  "army_fight": ["army fight", "бой с армией"], "search_failed": ["search failed", "обыск сорван"],
  "plan_submitted": ["orders submitted", "приказы отданы"], "orders_revealed": ["orders revealed", "приказы раскрыты"],
  "ship_unfueled": ["ship without fuel", "корабль без топлива"], "fuel_paid": ["fuel paid", "топливо оплачено"],
  "redeploy_submitted": ["redeploy submitted", "переброска отдана"], "redeploy_revealed": ["redeploy revealed", "переброска раскрыта"],
  "city_spared": ["city spared", "город уцелел"], "uncontested": ["uncontested", "без боя"],
  "battle": ["battle", "бой"], "retreat": ["retreat", "отступление"], "fight": ["fight", "бой принят"],
  "others_retreated": ["the others retreated", "остальные отступили"], "reserve_joined": ["reserve joined", "резерв вступил"],
  "battle_roll": ["battle roll", "бросок в бою"], "battle_tie": ["battle tied", "ничья в бою"],
  "battle_won": ["battle won", "бой выигран"], "ship_lost": ["ship lost", "корабль потерян"],
  "raid": ["raid", "набег"], "search_started": ["search started", "обыск начат"],
  "search_paid": ["search paid off", "обыск окупился"], "search_unfinished": ["search unfinished", "обыск не закончен"],
  "credit_taken": ["credit taken", "взят кредит"], "credit_repaid": ["credit repaid", "кредит возвращён"],
  "game_over": ["game over", "конец игры"],
  // Kozyablo
  "lot": ["lot", "жребий"], "drawn": ["drawn", "взята карта"], "milled": ["to the discard", "в сброс"],
  "mulligan": ["mulligan", "пересдача"], "shuffled_back": ["shuffled back", "замешаны обратно"],
  "trigger": ["triggered", "сработало"], "action_declared": ["action declared", "объявлено действие"],
  "window_closed": ["response window closed", "окно ответа закрыто"], "action_fizzled": ["action fizzled", "действие сорвалось"],
  "card_played": ["card played", "сыграна карта"], "draw": ["drew", "взята карта"], "moved": ["moved", "перемещение"],
  "skipped": ["skipped", "пропуск"], "ability_used": ["ability used", "способность"],
  "entered_shadow": ["into the shadow", "в тень"], "left_shadow": ["out of the shadow", "из тени"],
  "combat_started": ["combat started", "бой начат"], "retreat_attack": ["retreat strikes", "удары при отходе"],
  "strike": ["strike", "удар"], "no_target": ["no target", "нет цели"], "strike_held": ["strike held", "удар придержан"],
  "stayed_hidden": ["stayed hidden", "остался в тени"], "evaded": ["evaded", "уклонился"],
  "defended": ["defended", "защитил"], "damage": ["damage", "урон"], "heal": ["healed", "лечение"],
  "vampirism": ["vampirism", "вампиризм"], "died": ["died", "погиб"], "destroyed": ["destroyed", "разрушено"],
  "combat_ended": ["combat ended", "бой окончен"], "magic_laid": ["magic laid", "наложена магия"],
  "magic_ended": ["magic ended", "магия окончена"], "sector_control": ["sector control", "контроль сектора"],
  "capital_captured": ["capital captured", "столица захвачена"], "capital_destroyed": ["capital destroyed", "столица разрушена"],
  "turn_limit": ["turn limit", "предел ходов"], "player_out": ["player out", "игрок выбыл"], "left": ["left play", "ушла из игры"],
};

const OPTIONS = {
  "chance": ["chance", "случай"], "short_game": ["short game", "короткая игра"], "teams": ["teams", "команды"],
  "double_deck": ["double deck", "двойная колода"], "illegal_play": ["illegal play", "неверный ход"],
  "first_player": ["first player", "первый игрок"], "turn_limit": ["turn limit", "предел ходов"],
  "missions": ["missions", "задания"], "response_window": ["response window", "окно ответа"],
};

const CHOICES = {
  "server": ["server (seeded)", "сервер (по зерну)"], "table": ["table (entered here)", "стол (вводится здесь)"],
  "reject": ["refused", "отклонить"], "fizzle": ["fizzles", "без эффекта"],
  "when_able": ["when able", "когда можно ответить"], "always": ["always", "всегда"],
};

const FIELDS = {
  "fighter": ["with", "боец"], "property": ["on", "имущество"], "target": ["target", "цель"],
  "cost_card": ["paying with", "оплата"], "discard": ["discarding", "сбросив"], "orders": ["", ""],
  "moves": ["", ""], "city": ["city", "город"], "ships": ["ships", "корабли"],
  "choice": ["", ""], "slot": ["slot", "ячейка"], "seat": ["for", "кому"], "first": ["first", "первым"],
  "cards": ["cards", "карты"], "missions": ["", ""], "sector": ["to", "в сектор"], "from": ["from", "из"],
  "to": ["to", "в"], "units": ["units", "отряды"], "unit": ["", ""], "targets": ["targets", "цели"],
  "name": ["", ""], "card": ["", ""], "ship": ["", ""], "total": ["", ""], "face": ["", ""],
  "mission": ["", ""], "army": ["army", "армия"], "squad": ["squad of", "отряд игрока"],
};

const VALUES = {
  "fight": ["fight", "в бой"], "retreat": ["retreat", "отступить"], "abandon": ["abandon the search", "бросить обыск"],
  "regeneration": ["regeneration", "регенерация"], "shadow": ["shadow", "тень"],
  "pozorki": ["Pozorki", "Позорки"], "trutni": ["Trutni", "Трутни"], "kozly": ["Kozly", "Козлы"], "zhloby": ["Zhloby", "Жлобы"],
  "true": ["yes", "да"], "false": ["no", "нет"],
  "main": ["main", "основная"], "over": ["over", "окончена"], "setup": ["setup", "расстановка"],
  "capture": ["capture", "захват"], "buy": ["buy", "покупка"], "plan": ["plan", "план"], "reward": ["reward", "награда"],
  "decline": ["declined", "отказ"], "draw": ["draw", "взять"], "won": ["won", "победил"], "lost": ["lost", "проиграл"],
  "capital": ["capital", "столица"], "hand": ["hand", "рука"], "discard": ["discard", "сброс"],
  "mulligan": ["mulligan", "пересдача"], "back": ["shuffle back", "замешать обратно"],
  "attacker": ["attacker", "атакующий"], "guard": ["guard", "охрана"],
  "attacking": ["attacking", "атакует"], "decide": ["deciding", "решение"], "reserve": ["reserves", "резерв"],
  "roll": ["roll", "бросок"], "lose": ["losing a ship", "потеря корабля"], "response": ["response", "ответ"],
  "end_turn": ["end of turn", "конец хода"], "start": ["start", "начало"], "end": ["end", "конец"],
  "turn": ["turn", "ход"], "evade": ["evasion", "уклонение"],
  "defend": ["defence", "защита"], "attack": ["attack", "атака"],
  // Kozyablo abilities
  "archer": ["archer", "лучник"], "area": ["area", "по площади"], "armor": ["armour", "броня"],
  "arrow_protection": ["arrow protection", "защита от стрел"], "defender": ["defender", "защитник"],
  "evasion": ["evasion", "уклонение"], "flying": ["flying", "полёт"], "magic_attack": ["magic attack", "магическая атака"],
  "magic_protection": ["magic protection", "защита от магии"], "magic_weapon": ["magic weapon", "магическое оружие"],
  "scout": ["scout", "разведчик"], "two_attacks": ["two attacks", "две атаки"], "undead": ["undead", "нежить"],
  "vampirism": ["vampirism", "вампиризм"], "weapon_protection": ["weapon protection", "защита от оружия"],
  // activated abilities by name (KOZ-16)
  "volley": ["volley", "залп"], "soothe": ["soothe", "утешение"], "smite": ["smite", "кара"],
};

const BREAKDOWN = {
  "people": ["people", "люди"], "credit_debt": ["credit debt", "долг по кредитам"], "captured": ["cities captured", "захвачено городов"],
  "missions": ["missions", "задания"], "mission": ["mission", "задание"], "met": ["met", "выполнено"], "points": ["points", "очки"],
  "capital_life": ["capital's life", "жизнь столицы"], "creatures": ["creatures", "существа"], "sectors": ["sectors", "сектора"],
  "money": ["money", "деньги"], "property": ["property", "имущество"], "bonus": ["set bonus", "бонус за набор"],
  "kind": ["kind", "вид"], "count": ["count", "число"], "total": ["total", "итого"], "team": ["team", "команда"],
  "properties": ["properties", "имущество"],
};

// A view's zones and the fields of its players, units, searches…
const ZONES = {
  "hand": ["hand", "рука"], "holdings": ["holdings", "владения"], "name": ["name", "имя"],
  "centre": ["centre", "центр"], "discard": ["discard", "сброс"], "fighter_deck": ["fighter deck", "колода бойцов"],
  "property_deck": ["property deck", "колода имущества"], "trump": ["trump", "козырь"], "suit": ["suit", "масть"],
  "card": ["card", "карта"], "turn": ["turn", "ход"], "active": ["active seat", "ходит"], "phase": ["phase", "фаза"],
  "capture": ["capture", "захват"], "capture_used": ["capture used", "захват сделан"], "bottom": ["bottom card", "нижняя карта"],
  "modifiers": ["modifiers", "поправки"], "owed_draws": ["draws owed", "карты в долг"], "first_player": ["first player", "первый игрок"],
  "fighters_in_play": ["fighters in play", "бойцы в игре"], "result": ["result", "итог"], "players": ["players", "игроки"],
  "count": ["cards", "карт"], "guard": ["guard", "охрана"], "fighter": ["fighter", "боец"], "property": ["property", "имущество"],
  "attacker": ["attacker", "атакующий"], "player": ["player", "игрок"], "power": ["power", "крутизна"],
  // Tremble
  "army": ["army", "армия"], "attacks": ["attacks", "атаки"], "battle": ["battle", "бой"], "box": ["box", "коробка"],
  "city_discard": ["city discard", "сброс городов"], "credit_supply": ["credits left", "кредиты в запасе"],
  "credits_returned": ["credits returned", "возвращённые кредиты"], "mission_deck": ["mission deck", "колода заданий"],
  "piles": ["city piles", "стопки городов"], "mark": ["mark", "метка"], "cards_left": ["cards left", "осталось карт"],
  "removed_unseen": ["removed unseen", "убрано не глядя"], "bought": ["bought this turn", "купил в этот ход"],
  "buy_choice": ["buy", "покупка"], "captured": ["captured cities", "захваченные города"], "credits": ["credits", "кредиты"],
  "fuel": ["fuel", "топливо"], "mission_offer": ["missions offered", "предложенные задания"], "missions": ["missions", "задания"],
  "missions_discarded": ["missions discarded", "сброшенные задания"], "missions_kept": ["missions kept", "задания выбраны"],
  "offer": ["ships drawn", "взятые корабли"], "orders": ["orders", "приказы"], "submitted": ["submitted", "отданы"],
  "people": ["people", "люди"], "redeploy": ["redeploy", "переброска"], "stats": ["statistics", "статистика"],
  "armies_beaten": ["armies beaten", "побеждено армий"], "battles_won": ["battles won", "выиграно боёв"],
  "credits_taken": ["credits taken", "взято кредитов"], "raids": ["raids", "набегов"], "searches": ["searches", "обыски"],
  "to_draw": ["to draw", "взять ещё"], "flown": ["flown", "летали"], "sent": ["sent", "отправлены"],
  "ship_deck": ["ship deck", "колода кораблей"], "ship_discard": ["ship discard", "сброс кораблей"],
  "slots": ["city slots", "ячейки городов"], "tokens": ["attack tokens", "жетоны атаки"], "city": ["city", "город"],
  "resolved": ["resolved", "разыграна"], "sides": ["sides", "стороны"], "ships": ["ships", "корабли"],
  "status": ["status", "итог"], "strength": ["strength", "сила"], "slot": ["slot", "ячейка"], "countdown": ["countdown", "осталось ходов"],
  "since": ["since turn", "с хода"], "strengths": ["strengths", "силы"],
  // Kozyablo
  "buildings": ["buildings", "здания"], "damage": ["damage", "урон"], "owner": ["owner", "владелец"], "sector": ["sector", "сектор"],
  "combat": ["combat", "бой"], "declared": ["declared", "объявлено"], "effect": ["effect", "эффект"],
  "lasting": ["lasting effects", "длящиеся эффекты"], "order": ["turn order", "порядок хода"], "queue": ["queue", "очередь"],
  "responder": ["responding", "отвечает"], "sectors": ["sectors", "сектора"], "units": ["units", "отряды"],
  "capital": ["capital", "столица"], "capital_damage": ["capital damage", "урон столице"], "dead_heroes": ["dead heroes", "погибшие герои"],
  "mulligans": ["mulligans", "пересдачи"], "out": ["out", "выбыл"], "race": ["race", "раса"], "ready": ["ready", "готов"],
  "deck_count": ["deck", "колода"], "aside_count": ["set aside", "отложено"], "card_count": ["cards in all", "всего карт"],
  "hand_count": ["hand", "рука"], "deck": ["deck", "колода"], "aside": ["set aside", "отложено"], "cards": ["cards", "карты"],
  "kind": ["kind", "вид"], "controller": ["controlled by", "под контролем"], "life": ["life", "жизнь"],
  "attack": ["attack", "атака"], "speed": ["speed", "скорость"], "shadow": ["in the shadow", "в тени"], "fighters": ["fighters", "бойцы"],
  "finished": ["finished", "окончена"], "priority": ["priority", "приоритет"], "passes": ["passes", "пасов"],
  "role": ["role", "роль"], "printed_power": ["printed power", "крутизна на карте"],
  "amount": ["amount", "величина"], "until": ["until", "до"], "turns_left": ["turns left", "ходов осталось"],
  "cast_turn": ["cast on turn", "наложено на ходу"], "shadow_number": ["shadow number", "номер в тени"],
  "stage": ["stage", "этап"], "waiting": ["waiting", "ждут"], "current": ["striking", "бьёт"],
  "strikes_left": ["strikes left", "ударов осталось"], "hits": ["hits", "попадания"], "area": ["area", "по площади"],
  "movers": ["moving", "отходят"], "source": ["source", "источник"], "magic": ["magic", "магия"],
  "pierces": ["pierces magic protection", "пробивает защиту от магии"], "undead_immune": ["undead immune", "нежить неуязвима"],
  "then": ["then", "затем"], "triggers": ["triggers", "срабатывания"], "index": ["number", "номер"],
  "used": ["used this turn", "использовано в этот ход"], "type": ["type", "тип"],
  "candidates": ["candidates", "возможные карты"], "removed": ["removed unseen", "убрано не глядя"],
  "step": ["step", "шаг"], "next": ["next", "следующий"], "rolls": ["rolls", "броски"], "winner": ["winner", "победитель"],
  "total": ["total", "сумма"], "choices": ["choices", "выборы"], "choice": ["choice", "выбор"], "loser": ["loser", "проигравший"],
  "squad": ["squad of", "отряд игрока"], "seat": ["seat", "место"], "to": ["to", "куда"], "do": ["then", "затем"],
  "derived": ["in effect", "в действии"], "production": ["production", "добыча"], "gold": ["gold", "золото"],
  "crystals": ["crystals", "кристаллы"], "mana": ["mana", "мана"], "artifacts": ["artifacts", "артефакты"],
  "armor": ["armour", "броня"], "regeneration": ["regeneration", "регенерация"], "abilities": ["abilities", "способности"], "reason": ["reason", "причина"], "winners": ["winners", "победители"],
};

const TABLES = { action: ACTIONS, decision: DECISIONS, event: EVENTS, option: OPTIONS, choice: CHOICES,
                 field: FIELDS, value: VALUES, breakdown: BREAKDOWN, zone: ZONES };

// The word for `key` of `kind` in `lang` (index 0 en, 1 ru), the game's own first;
// undefined when the table has none.
export function word(kind, key, lang, game = "") {
  const table = TABLES[kind];
  const pair = table[`${game}.${key}`] || table[key];
  if (!pair) return undefined;
  return pair[lang === "ru" ? 1 : 0];
}
