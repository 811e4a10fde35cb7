"""The PNG chart: requests/s per endpoint beside the floor, per game and stage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.report import MIN_RATIO_TO_FLOOR


def draw(results: dict[Any, Any], path: Path) -> bool:
    """Write the chart; ``False`` (and nothing written) without matplotlib."""
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = results["http"]["rows"]
    groups = [(r["game"], r["stage"]) for r in rows if r["endpoint"] == "floor"]
    series = (("floor", "#9e9e9e"), ("legal-actions", "#1f77b4"), ("apply", "#ff7f0e"))
    width = 0.27
    fig, ax = plt.subplots(figsize=(11, 4.8), dpi=110)
    for k, (endpoint, colour) in enumerate(series):
        values = [next(r["rps"] for r in rows if (r["game"], r["stage"]) == g
                       and r["endpoint"] == endpoint) for g in groups]
        xs = [i + (k - 1) * width for i in range(len(groups))]
        bars = ax.bar(xs, values, width, label=endpoint, color=colour)
        if endpoint != "floor":
            ratios = [next(r["ratio_to_floor"] for r in rows if (r["game"], r["stage"]) == g
                           and r["endpoint"] == endpoint) for g in groups]
            for bar, ratio in zip(bars, ratios, strict=True):
                ax.annotate(f"{ratio:.2f}", (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                            ha="center", va="bottom", fontsize=7)
    for i, g in enumerate(groups):
        floor = next(r["rps"] for r in rows if (r["game"], r["stage"]) == g
                     and r["endpoint"] == "floor")
        ax.hlines(floor * MIN_RATIO_TO_FLOOR, i - 1.5 * width, i + 1.5 * width, colors="#d62728",
                  linestyles="dotted", linewidth=1)
    ax.set_xticks(range(len(groups)), [f"{g}\n{s}" for g, s in groups], fontsize=8)
    ax.set_ylabel("requests/s")
    meta = results["meta"]
    ax.set_title(f"referee under gunicorn (2 gthread workers), {results['http']['loader']} loader: "
                 f"requests/s beside the no-op floor (labels: × floor; dotted: the target, "
                 f"{MIN_RATIO_TO_FLOOR:g} × floor)\n"
                 f"{meta['date']}, {meta['cpus']} shared cores, commit {meta['commit']}", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return True
