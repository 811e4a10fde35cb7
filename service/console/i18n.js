// The console's texts in English and Russian; API answers come in the same
// language (the requests carry Accept-Language).
const TEXTS = {
  en: {
    "title": "Scorekeeper console",
    "tab.record": "Record a game", "tab.verify": "Verify a game", "tab.standings": "Standings",
    "game": "Game", "players": "Players", "seed": "Seed", "options": "Options", "start": "Start",
    "pending": "Pending decision", "score": "Score", "view": "Player's view", "show": "Show",
    "log": "Steps", "undo": "Undo last step", "to.verify": "Verify this game",
    "odds": "Playouts chart", "hand.label": "Enter a hand at once (cards by id or name, comma-separated)",
    "hand.apply": "Apply the hand", "chance": "Chance (what came up at the table)",
    "seat": "Seat {n}", "spectator": "Spectator", "setup": "setup",
    "finished": "Finished. Winners: {winners}", "running": "In progress", "nobody": "nobody",
    "total": "Total", "breakdown": "Breakdown", "player": "Player",
    "verify.help": "Paste or upload the setup and the actions: {\"game\", \"setup\", \"actions\"}.",
    "verify.run": "Verify", "export": "Export the result (JSON)",
    "verdict.ok": "Legal: {steps} steps. {result}", "verdict.illegal": "Illegal at step {index}",
    "illegal.step": "Illegal step", "illegal.clause": "Clause",
    "signed": "signed by the server", "unsigned": "unsigned (the server has no state keys)",
    "standings.help": "The tournament so far: {\"players\": [...], \"rounds\": [{\"matches\": [{\"players\": [a, b], \"games\": [result…]}], \"byes\": [], \"drops\": []}]}; each game a replay or an exported result.",
    "standings.run": "Compute standings", "next.round": "Next round",
    "rank": "Rank", "mp": "Points", "wdl": "W-D-L", "byes": "Byes", "omw": "OMW%", "gw": "GW%", "ogw": "OGW%",
    "dropped": "dropped", "bye": "bye", "no.pairing": "No pairing without a rematch is left.",
    "win.rates": "Win rate (95% interval), {n} playouts", "histogram": "Scores of {name}",
    "working": "Working…", "bad.json": "Not valid JSON.",
    "no.chance": "No chance outcome is pending.",
    "add.match": "Add a match", "round": "Round", "seat0": "Seat 0", "seat1": "Seat 1",
    "results": "Exported results", "add": "Add", "need.match": "Name both players and choose the result files.",
    "seats": "Seats", "chance.who": "Chance", "slot": "slot {n}", "slot.city": "slot {n} ({city})", "none": "none",
    "cards.count": "{n} cards", "table.zones": "On the table", "race.deck": "reference deck: {race}",
    "own.deck": "own deck (JSON)", "own.deck.help": "{\"capital\": …, \"sectors\": […], \"cards\": […]}", "deck": "Deck",
    "need.name": "Name seat {n}: the standings take only games whose seats have names.",
    "bad.deck": "The deck of seat {n} is not valid JSON.", "no.such.choice": "No listed action keeps exactly these: choose again.",
    "bad.file": "{name} is not valid JSON.", "timed.out": "No answer in time.",
    "no.server": "The service does not answer: is it running, is the network up?",
  },
  ru: {
    "title": "Пульт судьи-секретаря",
    "tab.record": "Запись партии", "tab.verify": "Проверка партии", "tab.standings": "Турнирная таблица",
    "game": "Игра", "players": "Игроков", "seed": "Зерно", "options": "Опции", "start": "Начать",
    "pending": "Ожидается решение", "score": "Счёт", "view": "Что видит игрок", "show": "Показать",
    "log": "Ходы", "undo": "Отменить последний шаг", "to.verify": "Проверить эту партию",
    "odds": "График розыгрышей", "hand.label": "Ввести руку целиком (карты через запятую: код или название)",
    "hand.apply": "Внести руку", "chance": "Случай (что выпало за столом)",
    "seat": "Место {n}", "spectator": "Зритель", "setup": "расстановка",
    "finished": "Партия окончена. Победители: {winners}", "running": "Идёт игра", "nobody": "никто",
    "total": "Итого", "breakdown": "Из чего", "player": "Игрок",
    "verify.help": "Вставьте или загрузите расстановку и ходы: {\"game\", \"setup\", \"actions\"}.",
    "verify.run": "Проверить", "export": "Выгрузить результат (JSON)",
    "verdict.ok": "Всё по правилам: {steps} шагов. {result}", "verdict.illegal": "Нарушение на шаге {index}",
    "illegal.step": "Недопустимый шаг", "illegal.clause": "Пункт правил",
    "signed": "подписан сервером", "unsigned": "без подписи (у сервера нет ключей)",
    "standings.help": "Турнир на сегодня: {\"players\": [...], \"rounds\": [{\"matches\": [{\"players\": [a, b], \"games\": [результат…]}], \"byes\": [], \"drops\": []}]}; каждая партия — запись или выгруженный результат.",
    "standings.run": "Посчитать таблицу", "next.round": "Следующий тур",
    "rank": "Место", "mp": "Очки", "wdl": "В-Н-П", "byes": "Без пары", "omw": "OMW%", "gw": "GW%", "ogw": "OGW%",
    "dropped": "выбыл", "bye": "без пары", "no.pairing": "Пар без повторных встреч не осталось.",
    "win.rates": "Доля побед (95% интервал), {n} розыгрышей", "histogram": "Очки: {name}",
    "working": "Считаю…", "bad.json": "Это не JSON.",
    "no.chance": "Сейчас не ждут исхода случая.",
    "add.match": "Добавить матч", "round": "Тур", "seat0": "Место 0", "seat1": "Место 1",
    "results": "Выгруженные результаты", "add": "Добавить", "need.match": "Назовите обоих игроков и выберите файлы результатов.",
    "seats": "Места", "chance.who": "Случай", "slot": "ячейка {n}", "slot.city": "ячейка {n} ({city})", "none": "ничего",
    "cards.count": "карт: {n}", "table.zones": "На столе", "race.deck": "колода расы: {race}",
    "own.deck": "своя колода (JSON)", "own.deck.help": "{\"capital\": …, \"sectors\": […], \"cards\": […]}", "deck": "Колода",
    "need.name": "Назовите место {n}: в турнирную таблицу идут только партии с именами игроков.",
    "bad.deck": "Колода места {n} — не JSON.", "no.such.choice": "Такого выбора в списке нет: выберите заново.",
    "bad.file": "{name} — не JSON.", "timed.out": "Ответа нет слишком долго.",
    "no.server": "Сервис не отвечает: запущен ли он, есть ли сеть?",
  },
};

export const LANGUAGES = Object.keys(TEXTS);
let current = "en";

export function language() { return current; }

export function setLanguage(lang) {
  current = TEXTS[lang] ? lang : "en";
  document.documentElement.lang = current;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
}

// The text of `key` in the current language, `{name}` filled from `params`.
export function t(key, params = {}) {
  const text = TEXTS[current][key] ?? TEXTS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in params ? String(params[name]) : all));
}
