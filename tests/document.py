"""``openapi.yaml`` read the quick way: with ``card_db.YAML_LOADER``, libyaml's loader
where PyYAML was built with it (the 0.8 MB document takes seconds with the pure-Python
one), the same data."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from card_db import YAML_LOADER

SPEC = Path(__file__).resolve().parents[1] / "openapi.yaml"


def load(text: str | None = None) -> Any:
    """The YAML ``text`` (by default the committed ``openapi.yaml``) as Python data."""
    return yaml.load(SPEC.read_text(encoding="utf-8") if text is None else text, Loader=YAML_LOADER)
