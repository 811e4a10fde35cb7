"""Targets of issue 7, the Markdown table, and the results files.

``targets(results)`` checks every target on the figures of one run;
``markdown(results)`` renders the tables (README's Performance section is a
copy of ``bench/results/latest.md``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"

#: at least this share of the floor's requests/s, every endpoint and stage of every game, as
#: benched (no keys, no limit, known states; issue 13 asked 0.75 of the middle states)
MIN_RATIO_TO_FLOOR = 0.80
#: ... and of these games
MIN_RATIO_BY_GAME = {"raiders": 0.85, "tremble": 0.85}
#: as operators run it (``bench.operators``): every endpoint of every game
MIN_OPERATORS_RATIO = 0.65
#: shares of an operators' request's instructions (``bench.request_instructions``)
MAX_SHARES = {"rate_limit": 0.10, "signing": 0.15}
MAX_APPLY_MEDIAN_US = 50.0
MIN_PLAYOUTS_PER_S = {"raiders": 100, "tremble": 100, "kozyablo": 30}
MAX_ODDS_5_MS = 1.0
MIN_WORKER_SCALING = 1.8


def _target(name: str, value: object, goal: str, ok: object, unit: str = "") -> dict[str, Any]:
    return {"target": name, "value": value, "goal": goal, "unit": unit, "pass": bool(ok)}


def targets(results: dict[Any, Any]) -> list[dict[Any, Any]]:
    out = []
    for row in results.get("http", {}).get("rows", []):
        if row["endpoint"] == "floor":
            continue
        if row.get("config") == "operators":
            goal, name = MIN_OPERATORS_RATIO, f"operators: {row['game']} {row['endpoint']} / floor"
        else:
            goal = MIN_RATIO_BY_GAME.get(row["game"], MIN_RATIO_TO_FLOOR)
            name = f"{row['game']} {row['endpoint']} ({row['stage']}) / floor"
        out.append(_target(name, row["ratio_to_floor"], f">= {goal}",
                           row["ratio_to_floor"] >= goal, "×"))
    for key, shares in results.get("request_instructions", {}).get("shares", {}).items():
        for part, most in MAX_SHARES.items():
            out.append(_target(f"operators: {part.replace('_', ' ')} share of {key}",
                               shares[part], f"<= {most:g}", shares[part] <= most))
    for game, fig in results.get("engine", {}).items():
        med = fig["apply"]["median_us"]
        out.append(_target(f"{game} engine apply median", med, f"<= {MAX_APPLY_MEDIAN_US:g}",
                           med <= MAX_APPLY_MEDIAN_US, "µs"))
        rate = fig["playouts_per_s"]
        out.append(_target(f"{game} random playouts", rate, f">= {MIN_PLAYOUTS_PER_S[game]}",
                           rate >= MIN_PLAYOUTS_PER_S[game], "games/s"))
    koz = results.get("engine_steps", {}).get("kozyablo")
    if koz:  # the Kozyablo engine's speed: per step against Raiders, playouts per core
        from bench.engine_steps import MAX_STEP_INSTRUCTIONS_TO_RAIDERS, MIN_PLAYOUT_STEPS_PER_S

        if "instructions_to_raiders" in koz:
            ratio = koz["instructions_to_raiders"]
            out.append(_target("kozyablo instructions per step / raiders", ratio,
                               f"<= {MAX_STEP_INSTRUCTIONS_TO_RAIDERS:g}",
                               ratio <= MAX_STEP_INSTRUCTIONS_TO_RAIDERS, "×"))
        out.append(_target("kozyablo random-playout steps", koz["steps_per_s"],
                           f">= {MIN_PLAYOUT_STEPS_PER_S}",
                           koz["steps_per_s"] >= MIN_PLAYOUT_STEPS_PER_S, "steps/s"))
    ev = results.get("evaluations")
    if ev:
        five = ev["odds"]["fighters"]["5"]["median_ms"]
        out.append(_target("exact odds, 5 fighters (median query)", five, f"< {MAX_ODDS_5_MS:g}",
                           five < MAX_ODDS_5_MS, "ms"))
        ratio = ev["playouts"]["ratio_2_to_1"]
        out.append(_target("playouts, 2 RQ workers / 1", ratio, f">= {MIN_WORKER_SCALING}",
                           ratio >= MIN_WORKER_SCALING, "×"))
    for row in results.get("library", {}).get("rows", []):  # issue 38
        goal = results["library"]["min_ratio"]
        out.append(_target(f"{row['game']} library steps/s / single HTTP calls", row["ratio"],
                           f">= {goal:g}", row["ratio"] >= goal, "×"))
    found = results.get("batch")
    if found:  # issue 38: batches against the single calls they stand for
        from bench.batch import targets as batch_targets

        out += [_target(*row) for row in batch_targets(found)]
    st = results.get("strength")
    if st:  # issue 15: the suggestion bot at the fixed budget against the greedy bot
        for game, per in st["games"].items():
            rate = per[str(st["fixed_budget"])]["rate"]
            out.append(_target(f"{game} suggestions ({st['fixed_budget']} iterations) vs greedy",
                               round(rate, 3), f">= {st['goal']:g}", rate >= st["goal"],
                               "win rate"))
    return out


def _pct(x: float) -> str:
    return f"{x * 100:.0f} %"


def _http_table(rows: list[dict[Any, Any]]) -> list[str]:
    lines = ["| game | stage | body | floor req/s | legal-actions req/s (× floor) | p50 / p99 ms "
             "| apply req/s (× floor) | p50 / p99 ms |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for floor in (r for r in rows if r["endpoint"] == "floor"):
        la, ap = (next(r for r in rows if r["game"] == floor["game"]
                       and r["stage"] == floor["stage"] and r["endpoint"] == e)
                  for e in ("legal-actions", "apply"))
        lines.append(
            f"| {floor['game']} | {floor['stage']} | {floor['body_bytes'] / 1024:.1f} KB "
            f"| {floor['rps']:.0f} | {la['rps']:.0f} ({la['ratio_to_floor']:.2f}) "
            f"| {la['p50_us'] / 1e3:.1f} / {la['p99_us'] / 1e3:.1f} "
            f"| {ap['rps']:.0f} ({ap['ratio_to_floor']:.2f}) "
            f"| {ap['p50_us'] / 1e3:.1f} / {ap['p99_us'] / 1e3:.1f} |")
    return lines


def markdown(results: dict[Any, Any]) -> str:
    meta = results["meta"]
    lines = [f"Measured {meta['date']} on {meta['cpus']} cores (shared), Python {meta['python']}, "
             f"commit `{meta['commit']}`; `{meta['command']}`"
             + (f"; load average {meta['loadavg']['start'][0]:g} at the start, "
                f"{meta['loadavg']['end'][0]:g} at the end" if "loadavg" in meta else "") + "."]
    http = results.get("http")
    if http:
        lines += ["", "HTTP under gunicorn (the Procfile's web line: 2 gthread workers, "
                      f"service.gunicorn_conf), loader `{http['loader']}` "
                      f"with {http['connections']} connections, {http['seconds_per_measurement']:g} s "
                      "per figure; ratio = requests/s over the floor's on the same body.", "",
                  *_http_table([r for r in http["rows"] if r.get("config") != "operators"])]
        ops = http.get("operators")
        if ops:
            lines += ["", "As operators run it (`bench.operators`): signing keys, the rate limit "
                          f"`{ops['rate_limit']}` counted in a private redis-server, the same 2 "
                          f"workers, {ops['pool']:,} distinct signed states of a bot's games per "
                          f"endpoint, each sent {ops['repeats']} times in a row "
                          f"({ops['new_share']:.0%} of the requests reach a worker that has not "
                          "validated the state); the floor on the same bodies.", "",
                      *_http_table([r for r in http["rows"] if r.get("config") == "operators"])]
    instr = results.get("request_instructions")
    if instr:
        from bench.request_instructions import markdown as instructions_markdown

        lines += ["", "Instructions per request in process (`bench.request_instructions`, "
                      "valgrind; each configuration's own row, then the rate limiter's and "
                      "signing's shares of an operators' request, what a state new to the "
                      "worker adds, and the floor over the request):", "",
                  *instructions_markdown(instr)]
    found = results.get("batch")
    if found:
        from bench.batch import markdown as batch_markdown

        lines += ["", "Batches (`bench.batch`: 64 questions one call at a time and in one "
                      "`batch`, CPU time in process and valgrind instructions):", "",
                  *batch_markdown(found)]
    steps = results.get("spent_steps")
    if steps:
        from bench.spent_steps import markdown as steps_markdown

        lines += ["", "The register of spent steps (`bench.spent_steps`: valgrind instructions "
                      "per sealed apply; the register's size):", "", *steps_markdown(steps)]
    engine = results.get("engine")
    if engine:
        costs = results.get("request_costs", {})
        lines += ["", "Engines in process (one core); request shares: the piece's time over one "
                      "whole request through the Flask app in process (middle state; the floor "
                      "app on the same body in brackets).", "",
                  "| game | apply median / p99 µs | legal_actions median / p99 µs | playouts/s "
                  "| apply request: JSON / validation / engine | legal-actions request: "
                  "JSON / validation / engine |",
                  "|---|---:|---:|---:|---:|---:|"]
        for game, fig in engine.items():
            shares = []
            for endpoint in ("apply", "legal-actions"):
                c = costs.get(game, {}).get(endpoint)
                shares.append(f"{_pct(c['json_share'])} / {_pct(c['validation_share'])} / "
                              f"{_pct(c['engine_share'])} of {c['request_us']:.0f} µs "
                              f"(floor {c['floor_us']:.0f})" if c else "—")
            lines.append(f"| {game} | {fig['apply']['median_us']:.1f} / {fig['apply']['p99_us']:.0f} "
                         f"| {fig['legal_actions']['median_us']:.1f} / "
                         f"{fig['legal_actions']['p99_us']:.0f} | {fig['playouts_per_s']:.0f} "
                         f"| {shares[0]} | {shares[1]} |")
    per_step = results.get("engine_steps")
    if per_step:
        from bench.engine_steps import markdown as engine_steps_markdown

        lines += ["", "A playout step (`legal_actions` + `apply`) per engine (`bench.engine_steps`:"
                      " valgrind instructions over the seeded pairs, random-playout steps per CPU "
                      "second, best of 3), with the ratio to Raiders':", "",
                  *engine_steps_markdown(per_step)]
    if results.get("validation"):
        from bench.validation import markdown as validation_markdown

        lines += validation_markdown(results["validation"])
    ev = results.get("evaluations")
    if ev:
        o, p = ev["odds"], ev["playouts"]
        per_n = ", ".join(f"{n}: {f['median_ms'] * 1e3:.1f} µs (max {f['max_ms'] * 1e3:.0f})"
                          for n, f in o["fighters"].items())
        lines += ["", f"Exact odds per query, by fighters — {per_n}; import-time precompute "
                      f"{o['precompute_ms']:.0f} ms; a cold 5-fighter query "
                      f"{o['cold_5_fighters_ms']:.1f} ms.",
                  f"Playouts ({p['playouts']} Tremble games, {p['chunks']} chunks): in process "
                  f"{p['in_process_per_s']:.0f}/s; 1 RQ worker {p['workers_1_per_s']:.0f}/s; "
                  f"2 workers {p['workers_2_per_s']:.0f}/s (× {p['ratio_2_to_1']:.2f}, best of "
                  f"{len(p['workers_1_wall_s'])} runs each; load average "
                  f"{p.get('loadavg_1min_after', '?')} after); "
                  f"no-op RQ job round trip {ev['queue']['noop_round_trip_ms']:.1f} ms."]
    st = results.get("strength")
    if st:
        from bench.strength import markdown as strength_markdown

        lines += ["", "Suggestion bot against the greedy bot, 2 players, seats swapped "
                      f"({st['seconds']:.0f} s; also `bench/results/strength.md`):", "",
                  strength_markdown(st)]
    if results.get("library"):
        from bench.library import markdown as library_markdown

        lines += library_markdown(results["library"])
    lines += ["", "| target (issues 7, 13, 15, 38) | measured | goal | |", "|---|---:|---:|---|"]
    for t in results["targets"]:
        lines.append(f"| {t['target']} | {t['value']:g} {t['unit']} | {t['goal']} "
                     f"| {'pass' if t['pass'] else '**FAIL**'} |")
    return "\n".join(lines) + "\n"


def write(results: dict[Any, Any], directory: Path = RESULTS) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "latest.json").write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    (directory / "latest.md").write_text(markdown(results))
