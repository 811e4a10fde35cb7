"""What one playout step costs in each engine, as a ratio to Raiders.

``python -m bench.engine_steps [--games g,...] [--no-valgrind]`` (part of ``make bench``:
the ``engine`` part)

A step of a random playout is one ``legal_actions`` and one ``apply``.  Per game:

* **instructions per step** — ``bench.instructions``' count (valgrind, so load
  cannot move it) of ``legal_actions`` plus that of ``apply``, over the same seeded
  ``(state, action)`` pairs; skipped without ``valgrind``;
* **random-playout steps/s** — decisions per CPU second of ``bench.engine.playouts``
  (the bench setup's new games played to the end, chance by the server), the best of
  ``REPEATS`` runs: a run slowed by a neighbour on a shared core is not the engine.

Each figure comes with its ratio to Raiders' in the same run.  The Kozyablo engine's
targets: at most ``MAX_STEP_INSTRUCTIONS_TO_RAIDERS`` × Raiders' instructions per step,
at least ``MIN_PLAYOUT_STEPS_PER_S`` steps/s (``bench.report.targets``).
"""

from __future__ import annotations

import argparse
import shutil
import sys

from bench import engine, instructions

GAMES = instructions.GAMES
BASELINE = "raiders"
REPEATS = 3
MAX_STEP_INSTRUCTIONS_TO_RAIDERS = 2.0
MIN_PLAYOUT_STEPS_PER_S = 20_000


def steps_per_s(game_id: str, playouts: int) -> float:
    """The best of ``REPEATS`` runs of ``playouts`` random playouts, in decisions/s."""
    return max(steps / seconds for steps, seconds in
               (engine.playouts(game_id, playouts) for _ in range(REPEATS)))


def measure(games: list[str], valgrind: bool, quick: bool = False) -> dict:
    """``{game: {steps_per_s, steps_to_raiders, instructions?, instructions_to_raiders?}}``
    (Raiders is measured too when it is not asked for: the ratios need it)."""
    asked = games if BASELINE in games else [BASELINE, *games]
    out: dict[str, dict] = {}
    for g in asked:
        out[g] = {"steps_per_s": round(steps_per_s(
            g, engine.PLAYOUTS[g] // (2 if quick else 1)))}
    if valgrind:
        counts = instructions.measure(instructions.REPO, asked, list(instructions.CALLS))
        for g in asked:
            out[g]["instructions"] = sum(counts[f"{g} {c}"] for c in instructions.CALLS)
    base = out[BASELINE]
    for fig in out.values():
        fig["steps_to_raiders"] = round(fig["steps_per_s"] / base["steps_per_s"], 3)
        if "instructions" in fig:
            fig["instructions_to_raiders"] = round(fig["instructions"] / base["instructions"], 3)
    return out


def markdown(figures: dict) -> list[str]:
    """The table rows of ``measure``'s figures."""
    lines = ["| game | instructions per step (× Raiders) | random-playout steps/s (× Raiders) |",
             "|---|---:|---:|"]
    for g, fig in figures.items():
        ins = (f"{fig['instructions']:,} ({fig['instructions_to_raiders']:.2f})"
               if "instructions" in fig else "— (no valgrind)")
        lines.append(f"| {g} | {ins} | {fig['steps_per_s']:,} ({fig['steps_to_raiders']:.2f}) |")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.engine_steps", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--no-valgrind", action="store_true", help="the steps/s figures only")
    args = ap.parse_args(argv)
    valgrind = not args.no_valgrind
    if valgrind and shutil.which("valgrind") is None:
        ap.error("valgrind is not installed (apt-get install valgrind), or pass --no-valgrind")
    print("\n".join(markdown(measure(args.games.split(","), valgrind))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
