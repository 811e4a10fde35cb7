// What every tab of the console shares: DOM helpers, the message line, the games
// and their card names, and how actions, events, values and clause texts read.
import { get } from "/console/api.js";
import { language, t } from "/console/i18n.js";
import { word } from "/console/words.js";

/** @typedef {HTMLInputElement & Pick<HTMLSelectElement, "options"> & Pick<HTMLAnchorElement, "href">} Control */
// An element of the page by id, typed as the controls the tabs read and set (an input, a
// select, a button, a link): the ids are the page's own (index.html).
/** @type {(id: string) => Control} */
export const $ = (id) => /** @type {Control} */ (document.getElementById(id));
// The controls under `node` that `selector` finds (the seats' inputs, the options…).
/** @type {(node: ParentNode, selector: string) => Control[]} */
export const $$ = (node, selector) => /** @type {Control[]} */ ([...node.querySelectorAll(selector)]);
// The first of them, or null.
/** @type {(node: ParentNode, selector: string) => Control | null} */
export const $1 = (node, selector) => /** @type {Control | null} */ (node.querySelector(selector));
export const games = {};       // id -> GET /v1/games/{id}
export const cardNames = {};   // game -> {card id -> name in the current language}
export const tables = {};      // game -> the card set's other data (Kozyablo's reference decks)
const NOT_FIELDS = new Set(["type", "player", "probability"]);
//: fields and view keys that hold a seat number
const SEAT_KEYS = new Set(["seat", "first", "active", "responder", "first_player", "controller", "owner",
                           "player", "by", "from_player", "to_player", "attacker", "order", "winners", "squad"]);

export function say(text = "") { $("message").textContent = text; }

export function problemText(answer) {
  const b = answer.body || {};
  return [b.title, b.detail, b.rule && `(${b.rule})`].filter(Boolean).join(": ");
}

export function el(name, attributes = {}, ...children) {
  const node = document.createElement(name);
  for (const [k, v] of Object.entries(attributes)) {
    if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "className") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) node.append(child);
  return node;
}

export function clear(node) { node.replaceChildren(); return node; }

// A word of the games' vocabulary in the current language, else the key itself (an id).
export function says(kind, key, game = "") { return word(kind, key, language(), game) ?? key; }

// Seat `n` by the name the setup gave it ("Seat 2" when it has none); chance is "Chance".
export function seatName(n, names = []) {
  if (n === "chance") return t("chance.who");
  if (n === null || n === undefined) return t("spectator");
  return names[n] || t("seat", { n });
}

// The players' names of a setup (`players: [{name}, …]`), or none.
export function setupNames(setup) {
  return Array.isArray(setup && setup.players) ? setup.players.map((p) => p.name || "") : [];
}

export async function loadCards(game) {
  const answer = await get(`/v1/games/${game}/cards`);
  if (!answer.ok) return;
  const names = {};
  for (const group of Object.values(answer.body.cards)) {
    for (const card of group) if (card.display_name) names[card.id] = card.display_name;
  }
  cardNames[game] = names;
  tables[game] = answer.body.tables;
}

// A card id's name: Tremble copies `S-SAUCER#2` after their design, Kozyablo
// instances `0.kz_guard#2` after their card; null when it names no card.
export function cardName(game, id) {
  if (typeof id !== "string") return null;
  const names = cardNames[game] || {};
  if (names[id]) return names[id];
  const [design, copy] = id.replace(/^\d+\./, "").split("#");
  if (!names[design]) return null;
  return copy ? `${names[design]} #${copy}` : names[design];
}

// The word before a field's value ("with", "target"), none for the fields that speak for themselves.
function fieldLabel(key) { return word("field", key, language()) || ""; }

// A Tremble slot with its city, when the state has one there.
function slotText(slot, context) {
  const city = context.slots && context.slots[slot - 1];
  const name = city && cardName(context.game, city);
  return name ? t("slot.city", { n: slot, city: name }) : t("slot", { n: slot });
}

// How a field's value reads: cards by name (and id), seats by name, words in the
// scorekeeper's language; null when there is nothing to say.
export function valueText(key, value, context) {
  const game = context.game;
  if (value === null || value === undefined) return null;
  if (key === "slot" && typeof value === "number") return slotText(value, context);
  if (SEAT_KEYS.has(key) && typeof value === "number") return seatName(value, context.names);
  if (Array.isArray(value)) {
    const items = value.map((v) => valueText(key, v, context)).filter((v) => v !== null);
    return items.length ? items.join(", ") : t("none");
  }
  if (typeof value === "object") {  // an order {ship, slot}, a move…
    return Object.entries(value).map(([k, v]) => {
      const text = valueText(k, v, context);
      if (text === null) return null;
      const label = k === "slot" ? "" : fieldLabel(k);
      return label ? `${label} ${text}` : text;
    }).filter(Boolean).join(" → ");
  }
  if (typeof value === "boolean") return says("value", String(value));
  const name = cardName(game, value);
  if (name) return `${name} (${value})`;
  return typeof value === "string" ? says("value", value) : String(value);
}

// How an action reads: the verb in words, then its fields, cards by name; a chance
// outcome says whose it is (`context.to`, the pending entry's seat, or the action's).
export function describe(action, context) {
  const game = context.game;
  const verb = says("action", action.type, game);
  const chanceSeat = action.player === "chance" ? (action.seat ?? context.to) : undefined;
  const fields = Object.entries(action).filter(([k]) => !NOT_FIELDS.has(k)
                                                   && !(k === "seat" && chanceSeat !== undefined));
  const empty = (v) => v === null || (Array.isArray(v) && !v.length);
  if (fields.length && fields.every(([, v]) => empty(v))) {
    const none = word("action", `${action.type}.none`, language(), game);
    if (none) return none;
  }
  const parts = fields.map(([k, v]) => {
    const text = valueText(k, v, context);
    if (text === null) return null;
    const label = fieldLabel(k);
    return label ? `${label} ${text}` : text;
  }).filter(Boolean);
  const head = typeof chanceSeat === "number" ? `${verb} → ${seatName(chanceSeat, context.names)}` : verb;
  return parts.length ? `${head}: ${parts.join(", ")}` : head;
}

// A step's events in words, with the seat and the card when they have them.
export function eventsText(events, context) {
  return events.map((e) => {
    const bits = [says("event", e.type, context.game)];
    if (typeof e.player === "number") bits.push(seatName(e.player, context.names));
    const card = cardName(context.game, e.card || e.property || e.city);
    if (card) bits.push(card);
    return bits.join(" · ");
  }).join("; ");
}

// Who took a step: the seat that acted, or the chance and the seat it served.
export function actor(action, events, context) {
  if (action.player !== "chance") return seatName(action.player, context.names);
  const seat = action.seat ?? context.to ?? (events || []).map((e) => e.player)
    .find((p) => typeof p === "number");
  return typeof seat === "number" ? `${t("chance.who")} → ${seatName(seat, context.names)}` : t("chance.who");
}

export function download(name, data) { downloadText(name, JSON.stringify(data, null, 2), "application/json"); }

export function downloadText(name, text, type) {
  const blob = new Blob([text], { type });
  const link = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(link);
  link.click();
  link.remove();
}

// ------------------------------------------------------------------ markdown
// The subset of markdown the rules reference uses, built as DOM nodes (text is
// never parsed as HTML): paragraphs, `> ` quotes, `- ` lists, `code`, **bold**,
// *italic*, [links](/v1/…) to this service or https only.
const INLINE = /(`[^`]+`|\*\*[^*]+\*\*|\*[^*]+\*|\[[^\]]+\]\([^)\s]+\))/;

function inline(text) {
  const out = document.createDocumentFragment();
  for (const piece of text.split(INLINE)) {
    if (!piece) continue;
    let m;
    if (piece.startsWith("`") && piece.endsWith("`") && piece.length > 1) out.append(el("code", {}, piece.slice(1, -1)));
    else if ((m = piece.match(/^\*\*([^*]+)\*\*$/))) out.append(el("strong", {}, m[1]));
    else if ((m = piece.match(/^\*([^*]+)\*$/))) out.append(el("em", {}, m[1]));
    else if ((m = piece.match(/^\[([^\]]+)\]\(([^)\s]+)\)$/)) && /^(\/|https:\/\/)/.test(m[2])) {
      out.append(el("a", { href: m[2], target: "_blank", rel: "noopener" }, m[1]));
    } else out.append(piece);
  }
  return out;
}

export function markdown(text) {
  const out = document.createDocumentFragment();
  for (const block of String(text).split(/\n\s*\n/)) {
    const lines = block.split("\n");
    if (lines.every((l) => l.startsWith(">"))) {
      out.append(el("blockquote", {}, markdown(lines.map((l) => l.replace(/^> ?/, "")).join("\n"))));
    } else if (lines.every((l) => /^\s*[-*] /.test(l) || /^\s{2,}\S/.test(l))) {
      const list = el("ul");
      for (const line of lines) {
        if (/^\s*[-*] /.test(line)) list.append(el("li", {}, inline(line.replace(/^\s*[-*] /, ""))));
        else if (list.lastChild) list.lastChild.append(" ", inline(line.trim()));
      }
      out.append(list);
    } else if (block.trim()) {
      out.append(el("p", {}, inline(lines.join(" "))));
    }
  }
  return out;
}
