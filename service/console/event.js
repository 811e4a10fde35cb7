// 4. Run an event: its players (added, dropped, late), its settings, each round's
// tables from POST /v1/tournaments/events, each table's result (a game recorded
// here, a verified game file, or places entered by hand: unverified), the standings
// with their tie-breakers, exports and print.  The event lives in localStorage: a
// reload loses nothing.  Only tables with a result are sent: the round being played
// stays here until every table has one.
import { parse, post } from "/console/api.js";
import { $, clear, download, downloadText, el, games, say } from "/console/core.js";
import { language, t } from "/console/i18n.js";

const KEY = "referee-console-event";
//: the standings' columns: the answer's field, its heading, and how it reads
const COLUMNS = [
  ["rank", "ev.col.rank"], ["player", "ev.col.player"], ["points", "ev.col.points"], ["possible", "ev.col.possible"],
  ["tables", "ev.col.tables"], ["byes", "ev.col.byes"], ["opponents_share", "ev.col.opp"],
  ["game_share", "ev.col.game"], ["opponents_game_share", "ev.col.oppgame"], ["unverified_tables", "ev.col.unverified"],
];
const SHARES = new Set(["opponents_share", "game_share", "opponents_game_share"]);

let event = blank();
let answer = null;          // the last answer of the service for `event`
/** @type {(ticket: {round: number, table: number}, game: string, names: string[]) => void} */
let toRecord = () => {};    // (ticket, game, names): the record tab takes the table's game

function blank(game = "raiders") { return { players: [], settings: { game, table_size: 4 }, rounds: [] }; }

const nameOf = (entry) => (typeof entry === "string" ? entry : entry.name);
const hasResult = (table) => Boolean(table.games || table.placements);
const same = (a, b) => a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();

// The round being played: the last one while a table of it has no result.
function playing() {
  const last = event.rounds[event.rounds.length - 1];
  return last && last.tables.some((table) => !hasResult(table)) ? last : null;
}

function dropped(name) { return event.rounds.some((r) => r.drops.some((d) => same(d, name))); }

// The request the service takes: the tables with a result only (and where each sits
// in the console's rounds, to name a refused one as the scorekeeper sees it).
function request() {
  const where = [];
  const rounds = event.rounds.map((round, r) => {
    const kept = [];
    round.tables.forEach((table, i) => {
      if (!hasResult(table)) return;
      kept.push(table.games ? { players: table.players, games: table.games }
        : { players: table.players, placements: table.placements });
      where.push([r, kept.length - 1, i]);
    });
    return { tables: kept, byes: round.byes, drops: round.drops };
  });
  return { body: { players: event.players, settings: event.settings, rounds }, where };
}

// A refusal in the scorekeeper's words: round and table as shown, then the service's
// reasons (already in the console's language: the requests carry Accept-Language).
function refusal(answered, where, focus) {
  const b = answered.body || {};
  const lines = Object.entries(b.errors || {}).map(([path, reasons]) => {
    const found = /^rounds\.(\d+)\.tables\.(\d+)(?:\.(.*))?$/.exec(path);
    let place = path;
    if (found) {
      const [r, kept] = [Number(found[1]), Number(found[2])];
      const at = where.find(([wr, wk]) => wr === r && wk === kept);
      place = t("ev.at.table", { round: r + 1, table: (at ? at[2] : kept) + 1 });
      if (found[3]) place += ` (${found[3]})`;
    } else if (/^rounds\.(\d+)\.(byes|drops)/.test(path)) {
      place = t("ev.at.round", { round: Number(path.split(".")[1]) + 1 });
    }
    return `${place}: ${[].concat(reasons).join("; ")}`;
  });
  const head = [b.title, lines.length ? "" : b.detail, b.rule && `(${b.rule})`].filter(Boolean).join(": ");
  // a refusal naming no table (an altered signed state, an illegal step) is about the table just changed
  const named = lines.length && Object.keys(b.errors).some((path) => path.startsWith("rounds."));
  const said = [head, ...lines].filter(Boolean).join(" — ");
  return focus && !named ? `${t("ev.at.table", { round: focus[0] + 1, table: focus[1] + 1 })}: ${said}` : said;
}

function save() {
  try {
    localStorage.setItem(KEY, JSON.stringify(event));
  } catch {  // the browser's storage is full: say so, the event stays on the page
    say(t("ev.storage.full"));
  }
}

// Ask the service about the event; false (and the refusal said) when it refuses.
async function refresh(focus = null) {
  if (event.players.length < 2) {
    answer = null;
    return true;
  }
  const { body, where } = request();
  const answered = await post("/v1/tournaments/events", body);
  if (!answered.ok) {
    say(refusal(answered, where, focus));
    return false;
  }
  answer = answered.body;
  return true;
}

// A change to the event, kept only when the service accepts the event it makes.
// Changes run one at a time, in the order made (a refused one is undone alone).
/** @type {Promise<unknown>} */
let queue = Promise.resolve();
let queued = 0;

function change(mutate, focus = null) {
  queued += 1;
  $("event").dataset.busy = "true";
  const run = queue.then(async () => {
    const before = JSON.stringify(event);
    say();
    mutate(event);
    const ok = await refresh(focus);
    if (!ok) {
      event = JSON.parse(before);
      await refresh();
    }
    save();
    render();
    return ok;
  }).finally(() => {
    queued -= 1;
    if (!queued) $("event").dataset.busy = "false";
  });
  queue = run.catch(() => false);
  return run;
}

// ------------------------------------------------------------------ actions
function addPlayer() {
  const input = $("ev-name");
  const name = input.value.trim();
  if (!name) return;
  if (event.players.some((p) => same(nameOf(p), name))) return say(t("ev.twice", { name }));
  input.value = "";
  // after a round's tables are made a newcomer is seated from the next round
  change((e) => e.players.push(e.rounds.length ? { name, joins: e.rounds.length + 1 } : name));
}

// Before the first round a drop takes the name off the list; after, the player
// leaves after the round last made (still in the standings, never seated again).
function dropPlayer(name) {
  change((e) => {
    if (!e.rounds.length) e.players = e.players.filter((p) => nameOf(p) !== name);
    else e.rounds[e.rounds.length - 1].drops.push(name);
  });
}

// A drop made by mistake, taken back while its round is the last one.
function undoDrop(name) {
  change((e) => {
    const last = e.rounds[e.rounds.length - 1];
    last.drops = last.drops.filter((d) => d !== name);
  });
}

function makeRound() {
  change((e) => {
    const next = answer && answer.next_round;
    if (!next || playing()) return;
    e.rounds.push({
      tables: next.tables.map((table) => ({ players: table.players, explanation: table.explanation })),
      byes: next.byes.map((b) => b.player), drops: [] });
  });
}

function setResult(r, i, result) {
  return change((e) => {
    const table = e.rounds[r].tables[i];
    delete table.games;
    delete table.placements;
    Object.assign(table, result);
  }, [r, i]);
}

// A file as one game: a replay ({game, setup, actions}), the console's exported
// result (the same, with its outcome and signed state), or a signed final state.
function gameOf(data) {
  if (!data || typeof data !== "object") return null;
  const game = data.game || event.settings.game;
  if (data.setup && Array.isArray(data.actions)) return { game, setup: data.setup, actions: data.actions };
  if (data.state && typeof data.state === "object") return { game, state: data.state };
  return null;
}

async function upload(r, i, input) {
  const file = input.files[0];
  if (!file) return;
  let data;
  try {
    data = parse(await file.text());
  } catch {
    input.value = "";
    return say(t("bad.file", { name: file.name }));
  }
  input.value = "";
  const game = gameOf(data);
  if (!game) return say(t("ev.not.game", { name: file.name }));
  await setResult(r, i, { games: [game] });
}

// Places typed per player (1 best; equal numbers share a place) as the service's
// placements: the players grouped by place, best first.
function savePlacements(r, i, box) {
  const table = event.rounds[r].tables[i];
  const places = table.players.map((p, n) => Number(box.querySelector(`[data-seat="${n}"]`).value));
  if (places.some((p) => !Number.isInteger(p) || p < 1 || p > table.players.length)) {
    return say(t("ev.bad.places", { n: table.players.length }));
  }
  const order = [...new Set(places)].sort((a, b) => a - b);
  const placements = order.map((place) => table.players.filter((_, n) => places[n] === place));
  setResult(r, i, { placements });
}

// A game recorded in the record tab comes back to its table.
export function attach(ticket, replay) {
  const round = event.rounds[ticket.round];
  const table = round && round.tables[ticket.table];
  if (!table || hasResult(table)) {  // the table has its result already, or is gone
    say(t("ev.has.result", { round: ticket.round + 1, table: ticket.table + 1 }));
    return Promise.resolve(false);
  }
  return setResult(ticket.round, ticket.table, { games: [replay] });
}

async function importEvent() {
  const file = $("ev-import").files[0];
  $("ev-import").value = "";
  if (!file) return;
  let data;
  try {
    data = parse(await file.text());
  } catch {
    return say(t("bad.file", { name: file.name }));
  }
  if (!data || !Array.isArray(data.players) || !data.settings || !Array.isArray(data.rounds)) {
    return say(t("ev.not.event", { name: file.name }));
  }
  const rounds = data.rounds.map((r) => ({ tables: (r.tables || []).map((tb) => ({ ...tb })),
                                           byes: r.byes || [], drops: r.drops || [] }));
  await change((e) => Object.assign(e, { players: data.players, settings: data.settings, rounds }));
}

function exportEvent() {
  const rounds = event.rounds.map((r) => ({
    tables: r.tables.map(({ explanation, ...table }) => table), byes: r.byes, drops: r.drops }));
  download("event.json", { players: event.players, settings: event.settings, rounds });
}

function newEvent() {
  if (!window.confirm(t("ev.new.sure"))) return;
  event = blank(event.settings.game);
  answer = null;
  save();
  render();
}

// ------------------------------------------------------------------ exports
// A cell as text; a name a spreadsheet would run as a formula (`=…`, `+…`, `-…`, `@…`) starts with `'`.
function csvCell(value) {
  let text = String(value);
  if (typeof value === "string" && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\n\r;]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
const csv = (rows) => `${rows.map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`;

// The pairings of the round last made: each table's players, and the byes.
function pairings() {
  const r = event.rounds.length - 1;
  if (r < 0) return null;
  const round = event.rounds[r];
  return { round: r + 1, tables: round.tables.map((table, i) => ({ table: i + 1, players: table.players })),
           byes: round.byes };
}

function exportPairings(kind) {
  const shown = pairings();
  if (!shown) return;
  if (kind === "json") return download(`round-${shown.round}-pairings.json`, shown);
  const rows = [["round", "table", "player"]];
  for (const table of shown.tables) for (const p of table.players) rows.push([shown.round, table.table, p]);
  for (const p of shown.byes) rows.push([shown.round, "bye", p]);
  downloadText(`round-${shown.round}-pairings.csv`, csv(rows), "text/csv");
}

function exportStandings(kind) {
  if (!answer) return;
  if (kind === "json") return download("standings.json", { standings: answer.standings, settings: answer.settings });
  const fields = [...COLUMNS.map(([f]) => f), "dropped"];
  const rows = [fields, ...answer.standings.map((line) => fields.map((f) => line[f]))];
  downloadText("standings.csv", csv(rows), "text/csv");
}

// ------------------------------------------------------------------ view
function roundsLabel(rounds) { return t(rounds.length > 1 ? "ev.rounds" : "ev.round", { n: rounds.join(", ") }); }

// Why these players sit together, in the console's language from the explanation's data.
function explain(ex) {
  if (!ex) return "";
  const first = ex.places[0];
  const last = ex.places[ex.places.length - 1];
  let text = ex.seated === "standing"
    ? t("ev.why.standing", { n: ex.places.length, from: first, to: last })
    : t("ev.why.swapped", { places: ex.places.join(", ") });
  if (ex.repeats.length) {
    text += `; ${ex.repeats.map((rp) => t("ev.why.met", { a: rp.players[0], b: rp.players[1],
                                                          rounds: roundsLabel(rp.rounds) })).join("; ")}`;
    text += `: ${t("ev.why.least")}`;
  }
  return text;
}

// Why a player of round `r` has a bye (the service says it in English only): no mix of the
// sizes seats everyone, and the bye goes to the lowest-ranked without one yet.
function byeWhy(r, player) {
  const round = event.rounds[r];
  const count = round.tables.reduce((n, table) => n + table.players.length, round.byes.length);
  const sizes = answer ? answer.settings.table_sizes.join(", ") : String(event.settings.table_size);
  const again = event.rounds.slice(0, r).some((earlier) => earlier.byes.includes(player));
  return t(again ? "ev.bye.again" : "ev.bye.why", { sizes, n: count });
}

function renderPlayers() {
  const list = clear($("ev-players"));
  event.players.forEach((entry) => {
    const name = nameOf(entry);
    const gone = dropped(name);
    const item = el("li", { dataset: { player: name }, className: gone ? "dropped" : "" }, el("span", {}, name));
    if (typeof entry === "object" && entry.joins) item.append(" ", el("small", {}, t("ev.joins", { n: entry.joins })));
    const last = event.rounds[event.rounds.length - 1];
    if (gone) {
      item.append(" ", el("small", {}, t("dropped")));
      if (last.drops.includes(name)) {
        const back = el("button", { type: "button", className: "ev-undrop no-print" }, t("ev.undrop"));
        back.addEventListener("click", () => undoDrop(name));
        item.append(" ", back);
      }
    } else {
      const drop = el("button", { type: "button", className: "ev-drop no-print" }, t("ev.drop"));
      drop.addEventListener("click", () => dropPlayer(name));
      item.append(" ", drop);
    }
    list.append(item);
  });
  $("ev-count").textContent = t("ev.count", { n: event.players.length });
}

function renderSettings() {
  const select = $("ev-game");
  if (!select.options.length) {
    for (const game of Object.values(games)) select.append(el("option", { value: game.id }, game.id));
  }
  for (const option of select.options) {
    const game = games[option.value];
    option.textContent = game.title[language()] || game.title.en || game.id;
  }
  select.value = event.settings.game;
  $("ev-size").value = String(event.settings.table_size);
  const locked = event.rounds.length > 0;
  select.disabled = locked;
  $("ev-size").disabled = locked;
  const points = clear($("ev-points"));
  if (!answer) return;
  points.append(el("tr", {}, el("th", {}, t("ev.seats")), el("th", {}, t("ev.points.places"))));
  for (const [size, list] of Object.entries(answer.settings.points)) {
    points.append(el("tr", { dataset: { size } }, el("td", {}, size), el("td", {}, list.join(" · "))));
  }
  points.append(el("tr", {}, el("td", {}, t("bye")), el("td", {}, String(answer.settings.bye))),
                el("tr", {}, el("td", {}, t("ev.draw")), el("td", {}, String(answer.settings.draw))));
}

// A table with its result: each player's place and points, verified or entered by hand.
function resultLine(r, table) {
  const done = answer && answer.rounds[r];
  const key = [...table.players].sort().join("\n");
  const found = done && done.tables.find((tb) => [...tb.players].sort().join("\n") === key);
  if (!found) return el("p", {});
  const line = el("p", { className: found.verified ? "result" : "result unverified",
                         dataset: { verified: String(found.verified) } });
  line.append(found.players.map((p, n) => t("ev.placed", { player: p, place: found.places[n],
                                                           points: found.points[n] })).join(", "));
  line.append(" — ", el("b", {}, found.verified ? t("ev.verified") : t("ev.unverified")));
  return line;
}

function tableBox(r, i, table, current) {
  const box = el("div", { className: "ev-table", dataset: { round: String(r + 1), table: String(i + 1) } });
  box.append(el("h4", {}, t("ev.table", { n: i + 1 }), " ", el("span", { className: "ev-seats" }, table.players.join(", "))));
  if (table.explanation) box.append(el("p", { className: "why" }, explain(table.explanation)));
  if (hasResult(table)) {
    box.append(resultLine(r, table));
    if (current) {
      const undo = el("button", { type: "button", className: "ev-clear no-print" }, t("ev.clear"));
      undo.addEventListener("click", () => change((e) => {
        delete e.rounds[r].tables[i].games;
        delete e.rounds[r].tables[i].placements;
      }));
      box.append(undo);
    }
    return box;
  }
  const tools = el("div", { className: "tools no-print" });
  const recordIt = el("button", { type: "button", className: "ev-record" }, t("ev.record"));
  recordIt.addEventListener("click", () => toRecord({ round: r, table: i }, event.settings.game, table.players));
  const file = el("input", { type: "file", className: "ev-upload", accept: "application/json,.json" });
  file.addEventListener("change", () => upload(r, i, file));
  const hand = el("button", { type: "button", className: "ev-hand" }, t("ev.hand"));
  const form = el("div", { className: "ev-places", hidden: "" });
  table.players.forEach((p, n) => {
    const place = el("input", { type: "number", min: "1", max: String(table.players.length), dataset: { seat: String(n) } });
    form.append(el("label", {}, el("span", {}, `${p} `), place));
  });
  const keep = el("button", { type: "button", className: "ev-places-save" }, t("ev.places.save"));
  keep.addEventListener("click", () => savePlacements(r, i, form));
  form.append(keep, el("small", {}, t("ev.places.help")));
  hand.addEventListener("click", () => { form.hidden = !form.hidden; });
  tools.append(recordIt, " ", el("label", {}, el("span", {}, `${t("ev.upload")} `), file), " ", hand, form);
  box.append(tools);
  return box;
}

function renderRounds() {
  const box = clear($("ev-rounds"));
  const current = playing();
  event.rounds.forEach((round, r) => {
    const part = el("div", { className: "ev-round", dataset: { round: String(r + 1),
                                                               playing: String(round === current) } });
    part.append(el("h3", {}, t("ev.round.title", { n: r + 1 })));
    round.tables.forEach((table, i) => part.append(tableBox(r, i, table, r === event.rounds.length - 1)));
    for (const p of round.byes) {
      part.append(el("p", { className: "bye" }, t("ev.bye", { player: p }), el("span", { className: "why" }, ` — ${byeWhy(r, p)}`)));
    }
    if (round.drops.length) part.append(el("p", { className: "drops" }, t("ev.drops", { players: round.drops.join(", ") })));
    box.append(part);
  });
  const next = answer && !current ? answer.next_round : null;
  const make = $("ev-make");
  make.hidden = !next;
  if (next) make.textContent = t("ev.make", { n: next.round });
  $("ev-status").textContent = current ? t("ev.playing", { n: event.rounds.indexOf(current) + 1,
                                                           left: current.tables.filter((tb) => !hasResult(tb)).length })
    : (event.players.length < 2 ? t("ev.need.players") : (next ? "" : t("ev.no.round")));
}

function renderStandings() {
  const table = clear($("ev-standings"));
  if (!answer) return;
  table.append(el("tr", {}, ...COLUMNS.map(([field, key]) => el("th", { title: t(`${key}.help`), dataset: { field } }, t(key)))));
  for (const line of answer.standings) {
    const row = el("tr", { className: line.dropped ? "dropped" : "", dataset: { player: line.player } });
    for (const [field] of COLUMNS) {
      let value = line[field];
      if (SHARES.has(field)) value = `${(value * 100).toFixed(2)}%`;
      if (field === "player" && line.dropped) value = `${value} (${t("dropped")})`;
      row.append(el("td", { dataset: { field } }, String(value)));
    }
    table.append(row);
  }
  const legend = clear($("ev-legend"));
  for (const [, key] of COLUMNS.slice(2)) legend.append(el("dt", {}, t(key)), el("dd", {}, t(`${key}.help`)));
}

function render() {
  renderPlayers();
  renderSettings();
  renderRounds();
  renderStandings();
  $("event").dataset.rounds = String(event.rounds.length);
  $("event").dataset.results = String(event.rounds.flatMap((r) => r.tables).filter(hasResult).length);
}

// ------------------------------------------------------------------ module
// `record(ticket, game, names)` opens the record tab for a table's game.
export async function setup(record) {
  toRecord = record;
  const saved = localStorage.getItem(KEY);
  if (saved) {
    try { event = JSON.parse(saved); } catch { event = blank(); }
    if (!event || !Array.isArray(event.players) || !event.settings || !Array.isArray(event.rounds)) event = blank();
  }
  if (!games[event.settings.game]) event.settings.game = Object.keys(games)[0];
  $("ev-add").addEventListener("click", addPlayer);
  $("ev-name").addEventListener("keydown", (e) => { if (e.key === "Enter") addPlayer(); });
  $("ev-game").addEventListener("change", () => change((e) => { e.settings.game = $("ev-game").value; }));
  $("ev-size").addEventListener("change", () => change((e) => { e.settings.table_size = Number($("ev-size").value); }));
  $("ev-make").addEventListener("click", makeRound);
  $("ev-export").addEventListener("click", exportEvent);
  $("ev-import").addEventListener("change", importEvent);
  $("ev-new").addEventListener("click", newEvent);
  $("ev-print").addEventListener("click", () => window.print());
  /** @type {[string, () => void][]} */
  const exports = [["ev-pairings-csv", () => exportPairings("csv")], ["ev-pairings-json", () => exportPairings("json")],
                   ["ev-standings-csv", () => exportStandings("csv")], ["ev-standings-json", () => exportStandings("json")]];
  for (const [id, run] of exports) {
    $(id).addEventListener("click", run);
  }
  await refresh();
  render();
  $("event").dataset.busy = "false";
}

// Everything in words again, in the language just chosen (the service's too).
export async function relabel() {
  await refresh();
  render();
}
