// 1. Record a game played at a table: the setup (seats by name, Kozyablo decks or
// races), the pending decision as buttons (subsets as a picker), the steps, the
// score, a player's view, playouts.
import { evaluate, parse, post } from "/console/api.js";
import { histogram, winRates, COLOURS } from "/console/chart.js";
import { t } from "/console/i18n.js";
import { $, $$, $1, actor, cardName, cardNames, clear, describe, el, eventsText, games, loadCards, problemText, say, says,
         seatName, tables, valueText } from "/console/core.js";
import { renderView } from "/console/view.js";

// history: [{state, actions, steps, to}]; `table`: the event's table the game is for ({round, table, players})
const record = { game: null, setup: null, names: [], start: null, history: [], table: null };
const SAVED = "referee-console-recording";   // the game being recorded, kept over a reload
let forTable = null;                         // the event's table the next game started is for
/** @type {(table: object, replay: object) => Promise<boolean>} */
let toEvent = async () => false;            // (table, replay): the finished game back to its table
const OWN_DECK = "own";
//: a listed group this big that differs only in one list field is shown as a picker
const PICKER_AT = 4;

// ------------------------------------------------------------------ setup
function optionInput(option) {
  const id = `opt-${option.name}`;
  let input;
  if (option.choices) {
    input = el("select", { id });
    for (const choice of option.choices) input.append(el("option", { value: choice }, says("choice", choice)));
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
  return el("label", {}, el("span", {}, `${says("option", option.name)} `), input);
}

function showOptions() {
  const game = games[$("rec-game").value];
  const box = $("rec-options");
  $$(box, "label").forEach((n) => n.remove());
  for (const option of game.options) box.append(optionInput(option));
  box.dataset.game = game.id;
  $("rec-players").min = game.players.min;
  $("rec-players").max = game.players.max;
  showSeats();
}

// One row per seat: its name, and for Kozyablo its deck (a race's reference deck or its own).
function showSeats() {
  const game = $("rec-game").value;
  const box = $("rec-seats");
  const count = Math.max(1, Math.min(16, Number($("rec-players").value) || 1));
  const old = [...$$(box, ".seat")].map((row) => ({
    name: $1(row, ".seat-name").value,
    deck: $1(row, ".seat-deck") && $1(row, ".seat-deck").value,
    own: $1(row, ".seat-own") && $1(row, ".seat-own").value }));
  clear(box);
  const races = Object.keys((tables[game] || {}).reference_decks || {});
  for (let n = 0; n < count; n++) {
    const name = el("input", { type: "text", id: `seat-name-${n}`, className: "seat-name", maxlength: "64",
                                autocomplete: "off" });
    name.value = old[n] ? old[n].name : "";
    const row = el("div", { className: "seat", dataset: { seat: String(n) } },
                   el("label", {}, el("span", {}, `${t("seat", { n })} `), name));
    if (races.length) {
      const deck = el("select", { id: `seat-deck-${n}`, className: "seat-deck" });
      for (const race of races) deck.append(el("option", { value: race }, t("race.deck", { race: says("value", race) })));
      deck.append(el("option", { value: OWN_DECK }, t("own.deck")));
      deck.value = old[n] && old[n].deck ? old[n].deck : races[n % races.length];
      const own = el("textarea", { id: `seat-own-${n}`, className: "seat-own", rows: "3", spellcheck: "false",
                                   placeholder: t("own.deck.help") });
      own.value = old[n] && old[n].own ? old[n].own : "";
      own.hidden = deck.value !== OWN_DECK;
      deck.addEventListener("change", () => { own.hidden = deck.value !== OWN_DECK; });
      row.append(el("label", {}, el("span", {}, `${t("deck")} `), deck), own);
    }
    box.append(row);
  }
}

function chosenOptions() {
  const options = {};
  for (const input of $$($("rec-options"), "[data-option]")) {
    const name = input.dataset.option;
    if (input.type === "checkbox") options[name] = input.checked;
    else if (input.value === "") continue;
    else options[name] = input.dataset.kind === "integer" ? Number(input.value) : input.value;
  }
  return options;
}

// The seats' setups, or a message saying what is missing.
function chosenPlayers() {
  const players = [];
  for (const row of $$($("rec-seats"), ".seat")) {
    const n = Number(row.dataset.seat);
    const name = $1(row, ".seat-name").value.trim();
    if (!name) return t("need.name", { n });
    const player = { name };
    const deck = $1(row, ".seat-deck");
    if (deck && deck.value === OWN_DECK) {
      try {
        player.deck = JSON.parse($1(row, ".seat-own").value);
      } catch {
        return t("bad.deck", { n });
      }
    } else if (deck) player.race = deck.value;
    players.push(player);
  }
  return players;
}

// Every panel of the last game, emptied: a new game starts on a clean board.
function resetBoard() {
  for (const id of ["rec-pending", "rec-actions", "rec-status", "rec-score", "rec-view-out", "rec-chart", "rec-log"]) {
    clear($(id));
  }
  $("rec-hand-input").value = "";
  $("rec-hand").hidden = true;
  delete $("rec-actions").dataset.finished;
  delete $("rec-actions").dataset.steps;
  say();
}

async function startRecord(event) {
  event.preventDefault();
  const game = $("rec-game").value;
  // a game chosen a moment ago whose options are still loading: its own, not the last game's
  if ($("rec-options").dataset.game !== game) await showSetup();
  const players = chosenPlayers();
  if (typeof players === "string") return say(players);
  const setup = { players, options: chosenOptions() };
  // a seed always: the recording is replayed (verified, sent to the event, brought back after
  // a reload) from its setup, and a server-dealt game replays only from the seed it was dealt by
  setup.seed = $("rec-seed").value !== "" ? Number($("rec-seed").value) : Math.floor(Math.random() * 2 ** 31);
  const answer = await post(`/v1/games/${game}/new`, setup);
  if (!answer.ok) return say(problemText(answer));
  resetBoard();
  await loadCards(game);
  Object.assign(record, { game, setup, names: players.map((p) => p.name), history: [], table: forTable,
                          start: { state: answer.body.state, events: answer.body.events } });
  forTable = null;
  showFor();
  keep();
  showBoard();
  await showTurn();
}

// The board for `record`: its seats to view from.
function showBoard() {
  const players = record.names;
  const seats = clear($("rec-view-seat"));
  players.forEach((p, n) => seats.append(el("option", { value: n }, seatName(n, record.names))));
  seats.append(el("option", { value: "null" }, t("spectator")));
  $("rec-board").hidden = false;
}

// What a reload needs to bring the game back: its setup and its steps (the states
// are replayed by the service), and the event's table it is for.
function keep() {
  localStorage.setItem(SAVED, JSON.stringify({ game: record.game, setup: record.setup, table: record.table,
                                               steps: record.history.map((h) => ({ actions: h.actions, to: h.to })) }));
}

// The state after the first `count` steps of the history, replayed by the service.
async function replayed(count) {
  const actions = record.history.slice(0, count).flatMap((h) => h.actions);
  const answer = await post(`/v1/games/${record.game}/replay`, { setup: record.setup, actions });
  if (!answer.ok) return null;
  return answer.body;
}

// The game being recorded before a reload, back on the board (its states replayed).
async function restore() {
  let saved;
  try { saved = parse(localStorage.getItem(SAVED) || "null"); } catch { saved = null; }
  if (!saved || !games[saved.game]) return;
  Object.assign(record, { game: saved.game, setup: saved.setup, names: saved.setup.players.map((p) => p.name),
                          table: saved.table || null, start: { state: null, events: [] },
                          history: saved.steps.map((s) => ({ state: null, actions: s.actions, steps: [], to: s.to })) });
  const answer = await replayed(record.history.length);
  if (!answer) { localStorage.removeItem(SAVED); return; }
  // each step's events, batch by batch (the setup's events are index null)
  const events = answer.events.filter((e) => e.index !== null).map((e) => e.events);
  let at = 0;
  for (const entry of record.history) {
    entry.steps = events.slice(at, at + entry.actions.length);
    at += entry.actions.length;
  }
  if (record.history.length) record.history[record.history.length - 1].state = answer.state;
  else record.start.state = answer.state;
  $("rec-game").value = record.game;
  await showSetup();
  $("rec-players").value = String(record.names.length);
  showSeats();
  record.names.forEach((name, n) => { $(`seat-name-${n}`).value = name; });
  for (const input of $$($("rec-options"), "[data-option]")) {
    const value = (record.setup.options || {})[input.dataset.option];
    if (value === undefined) continue;
    if (input.type === "checkbox") input.checked = Boolean(value); else input.value = String(value);
  }
  record.setup.players.forEach((player, n) => {  // Kozyablo: each seat's race or own deck
    const deck = $(`seat-deck-${n}`);
    if (!deck) return;
    deck.value = player.deck ? OWN_DECK : player.race || deck.value;
    $(`seat-own-${n}`).hidden = deck.value !== OWN_DECK;
    if (player.deck) $(`seat-own-${n}`).value = JSON.stringify(player.deck);
  });
  if (record.setup.seed !== undefined) $("rec-seed").value = String(record.setup.seed);
  await loadCards(record.game);
  showFor();
  showBoard();
  logSteps();
  await showTurn();
}

// The event's table this game is for, said above the board.
function showFor() {
  const ticket = record.table || forTable;
  $("rec-for").hidden = !ticket;
  if (ticket) {
    $("rec-for").textContent = t("rec.for", { round: ticket.round + 1, table: ticket.table + 1,
                                              players: ticket.players.join(", ") });
  }
}

// The event's table `ticket` plays its game here: the game and the seats named from it.
export async function recordFor(ticket, game, names) {
  forTable = { ...ticket, players: names };
  $("rec-game").value = game;
  await showSetup();
  $("rec-players").value = String(names.length);
  showSeats();
  names.forEach((name, n) => { $(`seat-name-${n}`).value = name; });
  showFor();
}

// ------------------------------------------------------------------ a turn
function currentState() {
  const last = record.history[record.history.length - 1];
  return last ? last.state : record.start.state;
}

export function recordedActions() { return record.history.flatMap((step) => step.actions); }

function context(extra = {}) {
  const state = currentState();
  return { game: record.game, names: record.names, slots: state && state.slots, ...extra };
}

function bare(action) {
  const out = { ...action };
  delete out.probability;
  return out;
}

// The one list field a group of actions differs in (all else equal), or null.
function subsetField(actions) {
  if (actions.length < PICKER_AT) return null;
  const lists = Object.keys(actions[0]).filter((k) => Array.isArray(actions[0][k]));
  if (lists.length !== 1) return null;
  const field = lists[0];
  const rest = (a) => JSON.stringify(Object.entries(a).filter(([k]) => k !== field && k !== "probability"));
  return actions.every((a) => Array.isArray(a[field]) && rest(a) === rest(actions[0])) ? field : null;
}

// A group as checkboxes (one per item the actions choose from) and one button: the
// listed action whose list holds exactly the checked items.
function picker(actions, field, ctx) {
  const key = (item) => JSON.stringify(item);
  const items = new Map();
  for (const action of actions) for (const item of action[field]) items.set(key(item), item);
  const box = el("div", { className: "picker", dataset: { type: actions[0].type, field } });
  for (const [k, item] of items) {
    const check = el("input", { type: "checkbox", value: k });
    box.append(el("label", { className: "pick" }, check, " ", valueText(field, item, ctx)));
  }
  const apply = el("button", { type: "button", className: "pick-apply",
                                dataset: { type: actions[0].type, player: String(actions[0].player) } },
                   `${says("action", actions[0].type, record.game)} ✓`);
  apply.addEventListener("click", () => {
    const chosen = new Set([...$$(box, "input:checked")].map((c) => c.value));
    const match = actions.find((a) => a[field].length === chosen.size && a[field].every((i) => chosen.has(key(i))));
    if (!match) return say(t("no.such.choice"));
    applyActions([bare(match)]);
  });
  box.append(apply);
  return box;
}

async function showTurn() {
  const state = currentState();
  const [listed, score] = await Promise.all([
    post(`/v1/games/${record.game}/legal-actions`, { state }),
    post(`/v1/games/${record.game}/score`, { state }),
  ]);
  if (!listed.ok) return say(problemText(listed));
  const pending = listed.body.pending;
  const chanceEntry = pending.find((p) => p.player === "chance");
  const to = chanceEntry ? (chanceEntry.to ?? chanceEntry.for ?? chanceEntry.seat) : undefined;
  record.to = to;
  const ctx = context({ to });
  $("rec-pending").textContent = pending.map((p) => {
    const seat = p.player === "chance" && typeof to === "number" ? `${seatName("chance")} → ${seatName(to, record.names)}`
      : seatName(p.player, record.names);
    return `${seat}: ${says("decision", p.decision)}`;
  }).join("; ") || "—";
  const box = clear($("rec-actions"));
  const bySeat = new Map();
  for (const action of listed.body.actions) {
    if (!bySeat.has(action.player)) bySeat.set(action.player, []);
    bySeat.get(action.player).push(action);
  }
  for (const [seat, actions] of bySeat) {
    const head = seat === "chance" && typeof to === "number"
      ? `${t("chance")} → ${seatName(to, record.names)}` : seat === "chance" ? t("chance") : seatName(seat, record.names);
    const group = el("div", { className: "group", dataset: { player: String(seat) } }, el("h3", {}, head));
    const byType = new Map();
    for (const action of actions) {
      if (!byType.has(action.type)) byType.set(action.type, []);
      byType.get(action.type).push(action);
    }
    for (const [, same] of byType) {
      const field = seat === "chance" ? null : subsetField(same);
      if (field) { group.append(picker(same, field, ctx)); continue; }
      for (const action of same) {
        const target = action.player === "chance" ? (action.seat ?? to) : undefined;
        const button = el("button", { type: "button", className: seat === "chance" ? "chance" : "",
                                      dataset: { type: action.type, player: String(seat),
                                                 action: JSON.stringify(bare(action)) } },
                          describe(action, ctx));
        if (typeof target === "number") button.dataset.seat = String(target);
        if (action.probability) button.append(" ", el("small", {}, action.probability));
        button.addEventListener("click", () => applyActions([bare(action)]));
        group.append(button);
      }
    }
    box.append(group);
  }
  $("rec-hand").hidden = !bySeat.has("chance");
  record.chanceTemplate = bySeat.has("chance") ? bySeat.get("chance")[0] : null;
  showScore(score.body);
  box.dataset.finished = String(Boolean(score.body && score.body.finished));
  const back = $("rec-to-event");
  back.hidden = !(record.table && box.dataset.finished === "true");
  back.textContent = t("rec.to.event");
  box.dataset.pending = JSON.stringify(pending);  // what a test reads
  box.dataset.steps = String(recordedActions().length);  // what a test waits for
}

// A score's breakdown, whatever its game's shape: a list of rows or an object of parts.
function breakdownParts(breakdown) {
  const ctx = context();
  const part = (k, v) => (Array.isArray(v) && v.every((x) => x && typeof x === "object")
    ? `${says("breakdown", k)}: ${v.map(row).join(", ")}` : `${says("breakdown", k)} ${valueText(k, v, ctx)}`);
  const row = (item) => {  // Raiders: {kind: a property, count, money, bonus}
    if (!item || typeof item !== "object") return String(item);
    const kind = "kind" in item ? (cardName(record.game, item.kind) || says("breakdown", item.kind)) : null;
    const rest = Object.entries(item).filter(([k]) => k !== "kind").map(([k, v]) => part(k, v)).join(", ");
    return kind ? `${kind}: ${rest}` : rest;
  };
  if (Array.isArray(breakdown)) return breakdown.map(row);  // one row per property kind
  if (breakdown && typeof breakdown === "object") return Object.entries(breakdown).map(([k, v]) => part(k, v));
  return [];
}

export function winnersText(outcome, names) {
  return outcome.finished
    ? t("finished", { winners: outcome.winners.map((w) => seatName(w, names)).join(", ") || t("nobody") })
    : t("running");
}

function showScore(outcome) {
  if (!outcome) return;
  $("rec-status").textContent = winnersText(outcome, record.names);
  const table = clear($("rec-score"));
  table.append(el("tr", {}, el("th", {}, t("player")), el("th", {}, t("total")), el("th", {}, t("breakdown"))));
  for (const line of outcome.scores) {
    table.append(el("tr", { dataset: { player: String(line.player) } },
                    el("td", {}, seatName(line.player, record.names)),
                    el("td", { className: "total" }, String(line.total)),
                    el("td", {}, breakdownParts(line.breakdown).join("; "))));
  }
}

// Apply one action (`apply`) or a batch of chance outcomes (`apply-chance`).
async function applyActions(actions) {
  const state = currentState();
  const batch = actions.length > 1;
  const to = record.to;
  const answer = batch
    ? await post(`/v1/games/${record.game}/apply-chance`, { state, outcomes: actions })
    : await post(`/v1/games/${record.game}/apply`, { state, action: actions[0] });
  if (!answer.ok) return say(problemText(answer));
  say();
  const steps = batch ? answer.body.events.map((s) => s.events) : [answer.body.events];
  record.history.push({ state: answer.body.state, actions, steps, to, slots: (state || {}).slots });
  keep();
  logSteps();
  await showTurn();
}

// Every step: who acted, what, and what came of it.
function logSteps() {
  const log = clear($("rec-log"));
  record.history.forEach((entry) => entry.actions.forEach((action, i) => {
    const events = entry.steps[i] || [];
    // in a batch each outcome names its seat by its own events (a hand dealt to one seat)
    const to = entry.actions.length > 1 ? undefined : entry.to;
    const ctx = { game: record.game, names: record.names, slots: entry.slots, to };
    log.append(el("li", { dataset: { player: String(action.player) } },
                  el("b", { className: "who" }, actor(action, events, ctx)), " ", describe(action, ctx), " → ",
                  el("span", { className: "events" }, eventsText(events, ctx))));
  }));
  log.scrollTop = log.scrollHeight;
}

// The hand typed at once: one chance outcome per card, shaped like the listed ones
// (the same seat, the card by id or by name).
async function applyHand() {
  const template = record.chanceTemplate;
  if (!template) return say(t("no.chance"));
  const field = Object.keys(template).find((k) => !["type", "player", "probability", "seat"].includes(k));
  const byName = {};
  for (const [id, name] of Object.entries(cardNames[record.game] || {})) byName[name.toLowerCase()] = id;
  const words = $("rec-hand-input").value.split(/[,;\n]+/).map((w) => w.trim()).filter(Boolean);
  const outcomes = words.map((word) => {
    const id = byName[word.toLowerCase()] || word;  // a name, else the id as typed
    return { ...bare(template), [field]: field === "total" ? Number(id) : id };
  });
  if (!outcomes.length) return;
  $("rec-hand-input").value = "";
  await applyActions(outcomes);
}

async function undo() {
  if (!record.history.length) return;
  record.history.pop();
  if (!currentState()) {  // a step restored after a reload: its state replayed again
    const answer = await replayed(record.history.length);
    if (!answer) return;
    if (record.history.length) record.history[record.history.length - 1].state = answer.state;
    else record.start.state = answer.state;
  }
  keep();
  logSteps();
  await showTurn();
}

async function showView() {
  const seat = $("rec-view-seat").value;
  const out = clear($("rec-view-out"));
  const answer = await post(`/v1/games/${record.game}/view`,
                            { state: currentState(), player: seat === "null" ? null : Number(seat) });
  if (!answer.ok) return say(problemText(answer));
  const view = answer.body.view;
  out.append(renderView(view, { game: record.game, names: record.names, slots: view.slots }));
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
  const name = (n) => seatName(n, record.names);
  box.append(winRates(result, t("win.rates", { n: result.playouts }), name));
  result.scores.forEach((score, i) => {
    box.append(histogram(score, t("histogram", { name: name(score.player) }), COLOURS[i % COLOURS.length]));
  });
}

// ------------------------------------------------------------------ module
// The tab's wiring; `toVerify(report)` hands the recording to the verification tab.
export async function setup(toVerify, backToEvent) {
  toEvent = backToEvent;
  $("rec-game").addEventListener("change", showSetup);
  $("rec-players").addEventListener("input", showSeats);
  $("rec-setup").addEventListener("submit", startRecord);
  $("rec-hand-apply").addEventListener("click", applyHand);
  $("rec-undo").addEventListener("click", undo);
  $("rec-view").addEventListener("click", showView);
  $("rec-odds").addEventListener("click", showPlayouts);
  $("rec-to-verify").addEventListener("click", () => toVerify({
    game: record.game, setup: record.setup, actions: recordedActions() }));
  $("rec-to-event").addEventListener("click", async () => {
    const table = record.table;
    if (!table) return;
    if (await toEvent(table, { game: record.game, setup: record.setup, actions: recordedActions() })) {
      record.table = null;
      keep();
      showFor();
      $("rec-to-event").hidden = true;
    }
  });
  await restore();
}

// The form for the chosen game (its options, its seats); Kozyablo's decks need its card data.
export async function showSetup() {
  const game = $("rec-game").value;
  if (!tables[game]) await loadCards(game);
  showOptions();
}

// Everything in words again, in the language just chosen.
export async function relabel() {
  const names = [...$$($("rec-seats"), ".seat-name")].map((i) => i.value);
  const box = $("rec-options");
  const values = [...$$(box, "[data-option]")].map((i) => (i.type === "checkbox" ? i.checked : i.value));
  await showSetup();
  [...$$(box, "[data-option]")].forEach((input, i) => {
    if (input.type === "checkbox") input.checked = Boolean(values[i]); else input.value = String(values[i]);
  });
  [...$$($("rec-seats"), ".seat-name")].forEach((input, i) => { input.value = names[i] || ""; });
  showFor();
  if (record.game && !$("rec-board").hidden) {
    await loadCards(record.game);
    const seats = $("rec-view-seat");
    for (const option of seats.options) {
      option.textContent = option.value === "null" ? t("spectator") : seatName(Number(option.value), record.names);
    }
    await showTurn();
    logSteps();
    if ($("rec-view-out").childElementCount) await showView();
  }
}
