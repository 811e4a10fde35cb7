// 2. Verify a reported game (its replay), 3. export the verified result.
import { get, parse, post } from "/console/api.js";
import { t } from "/console/i18n.js";
import { $, actor, clear, describe, download, el, eventsText, loadCards, markdown, problemText, say,
         setupNames } from "/console/core.js";
import { winnersText } from "/console/record.js";

let verified = null;       // the last verified result, for export
let shown = null;          // the last report verified, said again in another language
let run = 0;               // the latest verification: an older one still answering writes nothing

function readReport() {
  let report;
  try {
    report = parse($("ver-input").value);
  } catch {
    say(t("bad.json"));
    return null;
  }
  if (!report || typeof report !== "object") {
    say(t("bad.json"));
    return null;
  }
  if (report.game) $("ver-game").value = report.game;
  return { game: report.game || $("ver-game").value, setup: report.setup, actions: report.actions };
}

function stepItem(report, index, events, bad = false) {
  const context = { game: report.game, names: setupNames(report.setup) };
  const item = el("li", { className: bad ? "bad" : "", dataset: { index: String(index) } });
  if (index === null) item.append(t("setup"));
  else {
    const action = report.actions[index];
    item.append(`#${index} `, el("b", { className: "who" }, actor(action, events, context)), " ",
                describe(action, context));
  }
  item.append(" → ", el("span", { className: "events" }, events ? eventsText(events, context) : ""));
  return item;
}

async function verify(again = null) {
  const report = again || readReport();
  if (!report) return;
  shown = report;
  const mine = ++run;
  const stale = () => mine !== run;
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
  if (stale()) return;
  const names = setupNames(report.setup);
  if (answer.ok) {
    for (const step of answer.body.events) steps.append(stepItem(report, step.index, step.events));
    const outcome = answer.body.outcome;
    verdict.className = "ok";
    verdict.textContent = t("verdict.ok", { steps: report.actions.length, result: winnersText(outcome, names) });
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
  if (stale()) return;
  if (before.ok) {
    for (const step of before.body.events) steps.append(stepItem(report, step.index, step.events));
  }
  steps.append(stepItem(report, problem.index, null, true));
  verdict.className = "illegal";
  verdict.textContent = t("verdict.illegal", { index: problem.index });
  $("ver-index").textContent = `#${problem.index}`;
  $("ver-action").textContent = describe(report.actions[problem.index], { game: report.game, names });
  $("ver-action").title = JSON.stringify(report.actions[problem.index]);
  $("ver-rule").textContent = problem.rule;
  $("ver-rule").href = problem.rule_url || "#";
  $("ver-detail").textContent = problem.detail;
  const text = clear($("ver-rule-text"));
  text.append(markdown(problem.rule_text || ""));
  $("ver-illegal").hidden = false;
  if (problem.rule_url) {  // the whole clause, as the rules reference has it
    const clause = await get(problem.rule_url);
    if (stale()) return;
    if (clause.ok) {
      clear(text).append(markdown(clause.body.text));
      text.dataset.clause = clause.body.id;
    }
  }
  verdict.dataset.done = "illegal";
}

function exportResult() {
  if (!verified) return;
  const result = { ...verified, verified_by: window.location.origin, verified_at: new Date().toISOString() };
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

// A recording handed over from the record tab.
export function load(report) {
  $("ver-input").value = JSON.stringify(report, null, 1);
  $("ver-game").value = report.game;
}

export function setup() {
  $("ver-run").addEventListener("click", () => verify());
  $("ver-export").addEventListener("click", exportResult);
  $("ver-file").addEventListener("change", readFile);
}

// The last verification again, in the language just chosen (the service's reasons too).
export async function relabel() {
  if (shown && $("ver-verdict").dataset.done) await verify(shown);
}
