"""Which compiled validator checks a state, an action and an envelope fastest.

``shape.field_errors`` answers a valid value with one call of a compiled JSON Schema
(the spec's ``schema()``) and walks ``validate`` only to name what is wrong.
The compiled validator was chosen here, by measurement, on the middle state
of each game (``bench.states``), its ``apply`` action and the ``apply``
envelope, among:

* ``jsonschema_rs`` — jsonschema-rs's ``is_valid`` (Rust; what ``shape.field_errors`` uses,
  compiled as Draft 4 for its strict ``integer``);
* ``fastjsonschema`` — the schema compiled to Python source (optional: the
  ``bench`` extras; skipped when missing);
* ``validate`` — the spec's own Python walk (the detailed path: field paths
  and messages), for scale.

Each figure is µs per call, best of several loops of this process's CPU time.

Run: ``python -m bench validation`` (or ``python -m bench.validation``).
"""

from __future__ import annotations

from typing import Any

import orjson

from bench.request_costs import best_us
from bench.states import Case, representative_cases
from schemas import envelopes
from service.games import shape
from service.games.registry import get_game

VALIDATORS = ("jsonschema_rs", "fastjsonschema", "validate")


def _candidates(spec: shape.Spec) -> dict[Any, Any]:
    out = {"jsonschema_rs": shape.compiled(spec)}
    try:
        import fastjsonschema
    except ImportError:
        pass
    else:
        schema = spec.schema()
        refs = {r.name: r.spec.schema() for r in shape._walk(spec) if isinstance(r, shape.Ref)}
        if refs:
            schema["components"] = {"schemas": refs}
        out["fastjsonschema"] = fastjsonschema.compile(schema)

    def walk(value: object, spec: shape.Spec = spec) -> bool:
        errors: dict[Any, Any] = {}
        spec.validate(value, "", errors, 0)
        return not errors
    out["validate"] = walk
    return out


def measure_one(spec: shape.Spec, value: object, number: int) -> dict[Any, Any]:
    figures = {}
    for name, check in _candidates(spec).items():
        check(value)  # valid: fastjsonschema raises otherwise
        figures[name] = round(best_us(lambda check=check: check(value), number), 2)
    return figures


def measure(cases: list[Case], quick: bool = False) -> dict[Any, Any]:
    number = 200 if quick else 1000
    out = {}
    for case in cases:
        game = get_game(case.game)
        body = case.apply_body()
        out[case.game] = {
            "state_bytes": len(orjson.dumps(case.state)),
            "state": measure_one(game.state_spec, case.state, number),
            "action": measure_one(game.action_specs[case.action["type"]], case.action, number),
            "envelope": measure_one(envelopes.APPLY.spec, body, number),
        }
    return out


def markdown(figures: dict[Any, Any]) -> list[str]:
    lines = ["", "Validation of a valid value, µs per call (middle state, its `apply` action and "
                 "envelope; `shape.field_errors` uses `jsonschema_rs`; `validate` is the detailed "
                 "path, run only on a refusal):", "",
             "| game | state KB | state: " + " / ".join(VALIDATORS) + " | action: "
             + " / ".join(VALIDATORS) + " | envelope: " + " / ".join(VALIDATORS)
             + " |", "|---|---:|---:|---:|---:|"]
    for game, f in figures.items():
        cells = [" / ".join(str(f[part].get(v, "—")) for v in VALIDATORS)
                 for part in ("state", "action", "envelope")]
        lines.append(f"| {game} | {f['state_bytes'] / 1024:.1f} | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    from bench.states import SETUPS

    cases = [next(c for c in representative_cases(g) if c.stage == "middle") for g in SETUPS]
    print("\n".join(markdown(measure(cases))))


if __name__ == "__main__":
    main()
