"""What the HTTP layer costs per request (kept for old commands).

Run: ``.venv/bin/python bench/http_overhead.py`` — prints, for the middle
state of every game, the time of one ``apply`` and one ``legal-actions``
request through the Flask app in process and the share spent in JSON
decode/encode, the envelope (``schemas.envelopes``: its compiled schema;
the state inside passes through as any object), ``validate_state`` and the
engine (``bench.request_costs``).  Under gunicorn, against the floor:
``make bench``.
"""

import json
import sys
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench import request_costs
    from bench.states import SETUPS, representative_cases
    from service.app import create_app

    app = create_app({"TESTING": True})
    for game in SETUPS:
        middle = next(c for c in representative_cases(game) if c.stage == "middle")
        print(game, json.dumps(request_costs.measure(app, middle), indent=1))
