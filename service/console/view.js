// A player's view (POST /v1/games/{game}/view) as zones: the table's public zones,
// then each seat's hand, holdings, decks (as counts)… with cards by name.
import { cardName, el, says, seatName, valueText } from "/console/core.js";
import { t } from "/console/i18n.js";

//: the view's bookkeeping, not the table
const META = new Set(["game", "rules_version", "card_set", "options", "chance", "pending", "view", "players", "name"]);

const isCount = (v) => v && typeof v === "object" && !Array.isArray(v) && typeof v.count === "number";
const blank = (v) => v === null || v === undefined || v === false || v === ""
  || (Array.isArray(v) && !v.length) || (typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length);

// One value as nodes: a list of cards as named chips, a count as "n cards", an
// object as its own small list of fields.
function show(key, value, context) {
  if (isCount(value)) {
    const rest = Object.entries(value).filter(([k, v]) => k !== "count" && !blank(v));
    const text = t("cards.count", { n: value.count });
    if (!rest.length) return el("span", { className: "count" }, text);
    return el("span", {}, text, " ", fields(Object.fromEntries(rest), context));
  }
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
    const chips = el("span", { className: "cards" });
    for (const id of value) {
      const name = cardName(context.game, id);
      chips.append(el("span", { className: name ? "card" : "word", title: id, dataset: { id } },
                      name || valueText(key, id, context)));
    }
    return chips;
  }
  if (Array.isArray(value)) {
    const list = el("ul");
    for (const item of value) list.append(el("li", {}, show(key, item, context)));
    return list;
  }
  if (value && typeof value === "object") {
    const named = Object.keys(value).every((k) => cardName(context.game, k));
    if (!named) return fields(value, context);
    const list = el("ul");  // a map by card id: units, sectors, buildings
    for (const [id, inner] of Object.entries(value)) {
      list.append(el("li", {}, el("span", { className: "card", title: id, dataset: { id } }, cardName(context.game, id)),
                     ": ", show(id, inner, context)));
    }
    return list;
  }
  return el("span", {}, valueText(key, value, context) ?? "—");
}

function fields(object, context) {
  const list = el("dl");
  for (const [key, value] of Object.entries(object)) {
    if (META.has(key) || blank(value)) continue;
    list.append(el("dt", {}, says("zone", key)), el("dd", { dataset: { zone: key } }, show(key, value, context)));
  }
  return list;
}

export function renderView(view, context) {
  const box = el("div", { className: "view" });
  box.append(el("h3", {}, t("table.zones")), fields(view, context));
  (view.players || []).forEach((player, seat) => {
    box.append(el("h3", { dataset: { seat: String(seat) } }, seatName(seat, context.names)),
               fields(player, context));
  });
  return box;
}
