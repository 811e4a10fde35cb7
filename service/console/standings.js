// Tournament standings: the table and the next round from POST /v1/tournaments/standings.
import { parse, post } from "/console/api.js";
import { t } from "/console/i18n.js";
import { $, clear, el, problemText, say } from "/console/core.js";

async function computeStandings() {
  let tournament;
  try {
    tournament = parse($("st-input").value);
  } catch {
    return say(t("bad.json"));
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
    } catch {
      return say(t("bad.json"));
    }
  }
  const games = [];
  for (const file of files) {
    try {
      games.push(parse(await file.text()));
    } catch {
      return say(t("bad.file", { name: file.name }));
    }
  }
  for (const name of [a, b]) if (!tournament.players.includes(name)) tournament.players.push(name);
  const index = Math.max(1, Number($("st-round").value)) - 1;
  while (tournament.rounds.length <= index) tournament.rounds.push({ matches: [], byes: [], drops: [] });
  tournament.rounds[index].matches.push({ players: [a, b], games });
  $("st-input").value = JSON.stringify(tournament, null, 1);
  $("st-input").dataset.matches = String(tournament.rounds.reduce((n, r) => n + r.matches.length, 0));
  $("st-files").value = "";
  say();
}

export function setup() {
  $("st-run").addEventListener("click", computeStandings);
  $("st-add-match").addEventListener("click", addMatch);
}
