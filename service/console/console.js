// The scorekeeper's console: record a table game, verify a reported one, export it,
// chart playouts, tournament standings.  Public API only (openapi.yaml).
import { evaluate, get, parse, post } from "/console/api.js";
import { COLOURS, histogram, winRates } from "/console/chart.js";
import { LANGUAGES, language, setLanguage, t } from "/console/i18n.js";

const $ = (id) => document.getElementById(id);
const NOT_FIELDS = new Set(["type", "player", "probability"]);

const games = {};          // id -> GET /v1/games/{id}
const cardNames = {};      // game -> {card id -> name in the current language}
const record = { game: null, setup: null, history: [] };  // history: [{state, actions, steps}]
let verified = null;       // the last verified result, for export

// ------------------------------------------------------------------ helpers
function say(text = "") { $("message").textContent = text; }

function problemText(answer) {
  const b = answer.body || {};
  return [b.title, b.detail, b.rule && `(${b.rule})`].filter(Boolean).join(": ");
}

function el(name, attributes = {}, ...children) {
  const node = document.createElement(name);
  for (const [k, v] of Object.entries(attributes)) {
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "className") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child);
  return node;
}

function clear(node) { node.replaceChildren(); return node; }

// A card id's name (Tremble copies `S-SAUCER#2` are named after their design).
function cardName(game, id) {
  if (typeof id !== "string") return null;
  const names = cardNames[game] || {};
  if (names[id]) return names[id];
  const [design, copy] = id.split("#");
  return copy && names[design] ? `${names[design]} #${copy}` : null;
}

function valueText(game, value) {
  if (Array.isArray(value)) return value.map((v) => valueText(game, v)).join(", ");
  if (value && typeof value === "object") return JSON.stringify(value);
  const name = cardName(game, value);
  return name ? `${name} (${value})` : String(value);
}

// How an action reads on a button: its type and fields, cards by name.
function describe(game, action) {
  const bare = (k, v) => v !== null && ["total", "card", "ship"].includes(k);  // speak for themselves
  const fields = Object.entries(action).filter(([k]) => !NOT_FIELDS.has(k))
    .map(([k, v]) => (bare(k, v) ? valueText(game, v) : `${k}: ${valueText(game, v)}`));
  return [action.type, ...fields].join(" · ");
}

function seatName(n) { return n === "chance" ? t("chance") : t("seat", { n }); }

function bare(action) {
  const out = { ...action };
  delete out.probability;
  return out;
}

function eventsText(events) { return events.map((e) => e.type).join(", "); }

async function loadCards(game) {
  const answer = await get(`/v1/games/${game}/cards`);
  if (!answer.ok) return;
  const names = {};
  for (const group of Object.values(answer.body.cards)) {
    for (const card of group) if (card.display_name) names[card.id] = card.display_name;
  }
  cardNames[game] = names;
}

function download(name, data) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

// --------------------------------------------------------------- 1. record
function optionInput(option) {
  const id = `opt-${option.name}`;
  let input;
  if (option.choices) {
    input = el("select", { id });
    for (const choice of option.choices) input.append(el("option", { value: choice }, choice));
    input.value = option.name === "chance" ? "table" : option.default;
  } else if (option.type === "boolean") {
    input = el("input", { id, type: "checkbox" });
    input.checked = Boolean(option.default);
  } else {
    input = el("input", { id, type: option.type === "integer" ? "number" : "text" });
    if (option.default !== null && option.default !== undefined) input.value = option.default;
  }
  input.dataset.option = option.name;
  input.dataset.kind = option.type;
  return el("label", { title: option.description || "" }, `${option.name} `, input);
}

function showOptions() {
  const game = games[$("rec-game").value];
  const box = $("rec-options");
  box.querySelectorAll("label").forEach((n) => n.remove());
  for (const option of game.options) box.append(optionInput(option));
  $("rec-players").min = game.players.min;
  $("rec-players").max = game.players.max;
}

function chosenOptions() {
  const options = {};
  for (const input of $("rec-options").querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    if (input.type === "checkbox") options[name] = input.checked;
    else if (input.value === "") continue;
    else options[name] = input.dataset.kind === "integer" ? Number(input.value) : input.value;
  }
  return options;
}

async function startRecord(event) {
  event.preventDefault();
  const game = $("rec-game").value;
  const setup = { players: Number($("rec-players").value), options: chosenOptions() };
  if ($("rec-seed").value !== "") setup.seed = Number($("rec-seed").value);
  const answer = await post(`/v1/games/${game}/new`, setup);
  if (!answer.ok) return say(problemText(answer));
  say();
  await loadCards(game);
  Object.assign(record, { game, setup, history: [] });
  record.start = { state: answer.body.state, events: answer.body.events };
  const seats = clear($("rec-view-seat"));
  for (let n = 0; n < setup.players; n++) seats.append(el("option", { value: n }, seatName(n)));
  seats.append(el("option", { value: "null" }, t("spectator")));
  $("rec-board").hidden = false;
  await showTurn();
}

function currentState() {
  const last = record.history[record.history.length - 1];
  return last ? last.state : record.start.state;
}

function recordedActions() { return record.history.flatMap((step) => step.actions); }

async function showTurn() {
  const state = currentState();
  const [listed, score] = await Promise.all([
    post(`/v1/games/${record.game}/legal-actions`, { state }),
    post(`/v1/games/${record.game}/score`, { state }),
  ]);
  if (!listed.ok) return say(problemText(listed));
  $("rec-pending").textContent = listed.body.pending
    .map((p) => `${seatName(p.player)}: ${p.decision}`).join("; ") || "—";
  const box = clear($("rec-actions"));
  const bySeat = new Map();
  for (const action of listed.body.actions) {
    if (!bySeat.has(action.player)) bySeat.set(action.player, []);
    bySeat.get(action.player).push(action);
  }
  for (const [seat, actions] of bySeat) {
    const group = el("div", { className: "group", dataset: { player: String(seat) } },
                     el("h3", {}, seatName(seat)));
    for (const action of actions) {
      const label = [describe(record.game, action)];
      const button = el("button", { type: "button", className: seat === "chance" ? "chance" : "",
                                    dataset: { type: action.type, player: String(seat),
                                               action: JSON.stringify(bare(action)) } },
                        ...label);
      if (action.probability) button.append(" ", el("small", {}, action.probability));
      button.addEventListener("click", () => applyActions([bare(action)]));
      group.append(button);
    }
    box.append(group);
  }
  $("rec-hand").hidden = !bySeat.has("chance");
  record.chanceTemplate = bySeat.has("chance") ? bySeat.get("chance")[0] : null;
  showScore(score.body);
  box.dataset.finished = String(Boolean(score.body && score.body.finished));
  box.dataset.steps = String(recordedActions().length);  // what a test waits for
}

// A score's breakdown, whatever its game's shape: a list of rows or an object of parts.
function breakdownParts(breakdown) {
  const row = (item) => (item && typeof item === "object"
    ? Object.entries(item).map(([k, v]) => (k === "kind" ? v : `${k} ${valueText(record.game, v)}`)).join(" ")
    : String(item));
  if (Array.isArray(breakdown)) return breakdown.map(row);
  if (breakdown && typeof breakdown === "object") {
    return Object.entries(breakdown).map(([k, v]) => `${k}: ${valueText(record.game, v)}`);
  }
  return [];
}

function showScore(outcome) {
  if (!outcome) return;
  $("rec-status").textContent = outcome.finished
    ? t("finished", { winners: outcome.winners.map(seatName).join(", ") || t("nobody") })
    : t("running");
  const table = clear($("rec-score"));
  table.append(el("tr", {}, el("th", {}, t("player")), el("th", {}, t("total")),
                  el("th", {}, t("breakdown"))));
  for (const line of outcome.scores) {
    const parts = breakdownParts(line.breakdown);
    table.append(el("tr", { dataset: { player: String(line.player) } },
                    el("td", {}, seatName(line.player)), el("td", { className: "total" }, String(line.total)),
                    el("td", {}, parts.join("; "))));
  }
}

// Apply one action (`apply`) or a batch of chance outcomes (`apply-chance`).
async function applyActions(actions) {
  const state = currentState();
  const batch = actions.length > 1;
  const answer = batch
    ? await post(`/v1/games/${record.game}/apply-chance`, { state, outcomes: actions })
    : await post(`/v1/games/${record.game}/apply`, { state, action: actions[0] });
  if (!answer.ok) return say(problemText(answer));
  say();
  const steps = batch ? answer.body.events.map((s) => s.events) : [answer.body.events];
  record.history.push({ state: answer.body.state, actions, steps });
  logSteps();
  await showTurn();
}

function logSteps() {
  const log = clear($("rec-log"));
  record.history.forEach((entry) => entry.actions.forEach((action, i) => {
    log.append(el("li", {}, describe(record.game, action), " → ",
                  el("span", { className: "events" }, eventsText(entry.steps[i]))));
  }));
  log.scrollTop = log.scrollHeight;
}

// The hand typed at once: one chance outcome per card, shaped like the listed ones.
async function applyHand() {
  const template = record.chanceTemplate;
  if (!template) return say(t("no.chance"));
  const field = Object.keys(template).find((k) => !NOT_FIELDS.has(k));
  const byName = {};
  for (const [id, name] of Object.entries(cardNames[record.game] || {})) byName[name.toLowerCase()] = id;
  const words = $("rec-hand-input").value.split(/[,;\n]+/).map((w) => w.trim()).filter(Boolean);
  const outcomes = [];
  for (const word of words) {
    const id = byName[word.toLowerCase()] || word;  // a name, else the id as typed
    outcomes.push({ type: template.type, player: "chance", [field]: field === "total" ? Number(id) : id });
  }
  if (!outcomes.length) return;
  $("rec-hand-input").value = "";
  await applyActions(outcomes);
}

async function undo() {
  if (!record.history.length) return;
  record.history.pop();
  logSteps();
  await showTurn();
}

async function showView() {
  const seat = $("rec-view-seat").value;
  const answer = await post(`/v1/games/${record.game}/view`,
                            { state: currentState(), player: seat === "null" ? null : Number(seat) });
  $("rec-view-out").textContent = JSON.stringify(answer.ok ? answer.body.view : answer.body, null, 2);
}

async function showPlayouts() {
  const box = clear($("rec-chart"));
  box.append(t("working"));
  const params = { playouts: 40, seed: 1 };
  if (games[record.game].options.some((o) => o.name === "turn_limit")) params.turn_limit = 20;
  const answer = await evaluate({ kind: "playouts", game: record.game, state: currentState(), params });
  clear(box);
  if (!answer.ok || answer.body.status !== "finished") {
    return say(problemText(answer.ok ? { body: answer.body.error || {} } : answer));
  }
  const result = answer.body.result;
  box.append(winRates(result, t("win.rates", { n: result.playouts }), seatName));
  result.scores.forEach((score, i) => {
    box.append(histogram(score, t("histogram", { n: score.player }), COLOURS[i % COLOURS.length]));
  });
}

function toVerify() {
  $("ver-input").value = JSON.stringify({ game: record.game, setup: record.setup,
                                          actions: recordedActions() }, null, 1);
  $("ver-game").value = record.game;
  showTab("verify");
}

// ------------------------------------------------------ 2. verify, 3. export
function readReport() {
  let report;
  try {
    report = parse($("ver-input").value);
  } catch (error) {
    say(t("bad.json", { error: error.message }));
    return null;
  }
  if (report.game) $("ver-game").value = report.game;
  return { game: report.game || $("ver-game").value, setup: report.setup, actions: report.actions };
}

function stepItem(game, index, action, events, bad = false) {
  const head = index === null ? t("setup") : `#${index} ${describe(game, action)}`;
  return el("li", { className: bad ? "bad" : "", dataset: { index: String(index) } }, head, " → ",
            el("span", { className: "events" }, events ? eventsText(events) : ""));
}

async function verify() {
  const report = readReport();
  if (!report) return;
  say();
  verified = null;
  $("ver-export").disabled = true;
  $("ver-export-out").hidden = true;
  $("ver-illegal").hidden = true;
  const steps = clear($("ver-steps"));
  const verdict = $("ver-verdict");
  verdict.className = "";
  verdict.dataset.done = "";
  verdict.textContent = t("working");
  await loadCards(report.game);
  const path = `/v1/games/${report.game}/replay`;
  const answer = await post(path, { setup: report.setup, actions: report.actions });
  if (answer.ok) {
    for (const step of answer.body.events) {
      steps.append(stepItem(report.game, step.index, report.actions[step.index], step.events));
    }
    const outcome = answer.body.outcome;
    const result = outcome.finished
      ? t("finished", { winners: outcome.winners.map(seatName).join(", ") || t("nobody") })
      : t("running");
    verdict.className = "ok";
    verdict.textContent = t("verdict.ok", { steps: report.actions.length, result });
    verified = { game: report.game, setup: report.setup, actions: report.actions, outcome,
                 state: answer.body.state, signed: Boolean(answer.body.state.signature) };
    $("ver-export").disabled = false;
    verdict.dataset.done = "ok";
    return;
  }
  const problem = answer.body || {};
  if (answer.status !== 422 || problem.index === undefined) {
    verdict.className = "illegal";
    verdict.textContent = problemText(answer);
    verdict.dataset.done = "refused";
    return;
  }
  // the steps before the illegal one, with their events: the same replay, cut there
  const before = await post(path, { setup: report.setup, actions: report.actions.slice(0, problem.index) });
  if (before.ok) {
    for (const step of before.body.events) {
      steps.append(stepItem(report.game, step.index, report.actions[step.index], step.events));
    }
  }
  steps.append(stepItem(report.game, problem.index, report.actions[problem.index], null, true));
  verdict.className = "illegal";
  verdict.textContent = t("verdict.illegal", { index: problem.index });
  $("ver-index").textContent = `#${problem.index}`;
  $("ver-action").textContent = JSON.stringify(report.actions[problem.index]);
  $("ver-rule").textContent = problem.rule;
  $("ver-rule").href = problem.rule_url || "#";
  $("ver-detail").textContent = problem.detail;
  $("ver-rule-text").textContent = problem.rule_text || "";
  $("ver-illegal").hidden = false;
  if (problem.rule_url) {  // the whole clause, as the rules reference has it
    const clause = await get(problem.rule_url);
    if (clause.ok) $("ver-rule-text").textContent = clause.body.text;
  }
  verdict.dataset.done = "illegal";
}

function exportResult() {
  if (!verified) return;
  const result = { ...verified, verified_by: window.location.origin,
                   verified_at: new Date().toISOString() };
  const out = $("ver-export-out");
  out.textContent = `${verified.signed ? t("signed") : t("unsigned")}\n${JSON.stringify(result, null, 1)}`;
  out.hidden = false;
  out.dataset.signed = String(verified.signed);
  download(`${verified.game}-result.json`, result);
}

async function readFile() {
  const file = $("ver-file").files[0];
  if (file) $("ver-input").value = await file.text();
}

// ------------------------------------------------------------- standings
async function computeStandings() {
  let tournament;
  try {
    tournament = parse($("st-input").value);
  } catch (error) {
    return say(t("bad.json", { error: error.message }));
  }
  say(t("working"));
  const answer = await post("/v1/tournaments/standings", tournament);
  if (!answer.ok) return say(problemText(answer));
  say();
  const pct = (x) => `${(x * 100).toFixed(2)}`;
  const table = clear($("st-table"));
  table.dataset.done = "";
  table.append(el("tr", {}, ...["rank", "player", "mp", "wdl", "byes", "omw", "gw", "ogw"]
    .map((k) => el("th", {}, t(k)))));
  for (const line of answer.body.standings) {
    const name = line.dropped ? `${line.player} (${t("dropped")})` : line.player;
    table.append(el("tr", { className: line.dropped ? "dropped" : "", dataset: { player: line.player } },
      ...[line.rank, name, line.match_points, `${line.wins}-${line.draws}-${line.losses}`,
          line.byes, pct(line.omw), pct(line.gw), pct(line.ogw)].map((v) => el("td", {}, String(v)))));
  }
  const next = clear($("st-next"));
  const round = answer.body.next_round;
  if (!round) next.append(el("li", {}, t("no.pairing")));
  for (const [a, b] of round ? round.pairings : []) next.append(el("li", {}, `${a} — ${b}`));
  if (round && round.bye) next.append(el("li", { className: "bye" }, `${round.bye}: ${t("bye")}`));
  table.dataset.done = "true";
}

// A match added to the tournament's JSON: its two players and its exported results
// (each file one game), in the round given; players and rounds are added as needed.
async function addMatch() {
  const [a, b] = [$("st-a").value.trim(), $("st-b").value.trim()];
  const files = [...$("st-files").files];
  if (!a || !b || !files.length) return say(t("need.match"));
  let tournament = { players: [], rounds: [] };
  if ($("st-input").value.trim()) {
    try {
      tournament = parse($("st-input").value);
    } catch (error) {
      return say(t("bad.json", { error: error.message }));
    }
  }
  const games = [];
  for (const file of files) games.push(parse(await file.text()));
  for (const name of [a, b]) if (!tournament.players.includes(name)) tournament.players.push(name);
  const index = Math.max(1, Number($("st-round").value)) - 1;
  while (tournament.rounds.length <= index) tournament.rounds.push({ matches: [], byes: [], drops: [] });
  tournament.rounds[index].matches.push({ players: [a, b], games });
  $("st-input").value = JSON.stringify(tournament, null, 1);
  $("st-input").dataset.matches = String(tournament.rounds.reduce((n, r) => n + r.matches.length, 0));
  $("st-files").value = "";
  say();
}

// ------------------------------------------------------------------ start
function showTab(name) {
  for (const section of document.querySelectorAll("section.tab")) section.hidden = section.id !== name;
  for (const button of document.querySelectorAll("#tabs button")) {
    button.classList.toggle("active", button.dataset.tab === name);
  }
}

async function chooseLanguage(lang) {
  setLanguage(lang);
  localStorage.setItem("referee-console-language", lang);
  for (const button of document.querySelectorAll("#lang button")) {
    button.classList.toggle("active", button.dataset.lang === lang);
  }
  for (const option of document.querySelectorAll("#rec-game option, #ver-game option")) {
    const game = games[option.value];
    if (game) option.textContent = game.title[lang] || game.title.en || game.id;
  }
  if (record.game && !$("rec-board").hidden) {  // cards named in the new language
    await loadCards(record.game);
    await showTurn();
    logSteps();
  }
}

async function main() {
  const saved = localStorage.getItem("referee-console-language");
  const browser = (navigator.language || "en").slice(0, 2);
  chooseLanguage(saved || (LANGUAGES.includes(browser) ? browser : "en"));
  const listed = await get("/v1/games");
  for (const game of listed.body.games) {
    games[game.id] = game;
    for (const select of [$("rec-game"), $("ver-game")]) {
      select.append(el("option", { value: game.id }, game.title[language()] || game.title.en));
    }
  }
  showOptions();
  $("rec-game").addEventListener("change", showOptions);
  $("rec-setup").addEventListener("submit", startRecord);
  $("rec-hand-apply").addEventListener("click", applyHand);
  $("rec-undo").addEventListener("click", undo);
  $("rec-view").addEventListener("click", showView);
  $("rec-odds").addEventListener("click", showPlayouts);
  $("rec-to-verify").addEventListener("click", toVerify);
  $("ver-run").addEventListener("click", verify);
  $("ver-export").addEventListener("click", exportResult);
  $("ver-file").addEventListener("change", readFile);
  $("st-run").addEventListener("click", computeStandings);
  $("st-add-match").addEventListener("click", addMatch);
  for (const button of document.querySelectorAll("#tabs button")) {
    button.addEventListener("click", () => showTab(button.dataset.tab));
  }
  for (const button of document.querySelectorAll("#lang button")) {
    button.addEventListener("click", () => chooseLanguage(button.dataset.lang));
  }
  showTab("record");
  document.body.dataset.ready = "true";
}

main();
