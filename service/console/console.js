// The scorekeeper's console: the tabs (each its own module: record.js, verify.js,
// event.js, on the shared core.js) and the language.  Public API only (openapi.yaml).
import { get } from "/console/api.js";
import { $, $$, el, games } from "/console/core.js";
import { LANGUAGES, language, setLanguage } from "/console/i18n.js";
import * as record from "/console/record.js";
import * as event from "/console/event.js";
import * as verify from "/console/verify.js";

function showTab(name) {
  if (!document.getElementById(name)) name = "record";
  localStorage.setItem("referee-console-tab", name);
  for (const section of $$(document, "section.tab")) section.hidden = section.id !== name;
  for (const button of $$(document, "#tabs button")) {
    button.classList.toggle("active", button.dataset.tab === name);
  }
}

async function chooseLanguage(lang) {
  setLanguage(lang);
  localStorage.setItem("referee-console-language", lang);
  for (const button of $$(document, "#lang button")) {
    button.classList.toggle("active", button.dataset.lang === lang);
  }
  for (const option of $$(document, "#rec-game option, #ver-game option")) {
    const game = games[option.value];
    if (game) option.textContent = game.title[lang] || game.title.en || game.id;
  }
  if (Object.keys(games).length) await Promise.all([record.relabel(), verify.relabel(), event.relabel()]);
}

async function main() {
  const saved = localStorage.getItem("referee-console-language");
  const browser = (navigator.language || "en").slice(0, 2);
  setLanguage(saved || (LANGUAGES.includes(browser) ? browser : "en"));
  const listed = await get("/v1/games");
  for (const game of listed.body.games) {
    games[game.id] = game;
    for (const select of [$("rec-game"), $("ver-game")]) {
      select.append(el("option", { value: game.id }, game.title[language()] || game.title.en));
    }
  }
  await record.setup((report) => { verify.load(report); showTab("verify"); }, async (table, replay) => {
    showTab("event");
    return event.attach(table, replay);
  });
  verify.setup();
  await event.setup(async (table, game, names) => { await record.recordFor(table, game, names); showTab("record"); });
  for (const button of $$(document, "#tabs button")) {
    button.addEventListener("click", () => showTab(button.dataset.tab));
  }
  for (const button of $$(document, "#lang button")) {
    button.addEventListener("click", async () => {
      document.body.dataset.ready = "false";
      await chooseLanguage(button.dataset.lang);
      document.body.dataset.ready = "true";
    });
  }
  await chooseLanguage(language());
  showTab(localStorage.getItem("referee-console-tab") || "record");
  document.body.dataset.ready = "true";
}

main();
