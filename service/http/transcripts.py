"""``POST /v1/transcripts/verify``: do these states form one unbroken game?

With signing or sealing keys configured, every state the service returns
carries a `chain` (`{game, step, prev}`, `service.transcripts`) that its
signature or seal covers.  Send the states of one game that you collected
(``{"states": [...]}``, as the service returned them, signed or sealed): each
is authenticated first (unsigned → 400 `unsigned-state`, altered → 403
`bad-signature` / `bad-seal`, with the state's `index`), then the answer
says whether they are one line (`valid`), and names the `forks` (two
different states at one step: someone applied two actions to one state, or
went back to an old one) and the `breaks` (a state that follows none of the
others, or of another game).  The service keeps nothing: it checks only the
states sent.

The request is ``schemas.envelopes.VERIFY_TRANSCRIPT``; the document shows the paragraph
above and a real example (``verify_transcript_example``).
"""

from __future__ import annotations

from typing import Any

from flask import Response

from schemas.envelopes import VERIFY_TRANSCRIPT
from service import signing, transcripts
from service.games import registry
from service.http.body import json_response, read_envelope
from service.http.route import Routes, Success, paragraph
from service.problems import ProblemError

bp = Routes("transcripts", __name__)


def verify_transcript_example() -> dict[str, Any] | None:
    """A ``transcripts/verify`` request: a new Raiders game and the state after its first
    action, signed under the key ``example-key`` (``None`` when Raiders is not served).

    >>> [s["chain"]["step"] for s in verify_transcript_example()["states"]]
    [0, 1]
    """
    if "raiders" not in registry.GAME_IDS:
        return None
    game, keys = registry.get_game("raiders"), signing.parse_keys("example-key")
    state, _ = game.new_game(2, {}, 7, "reference")
    first = signing.signed({**state, transcripts.FIELD: transcripts.start("0" * 32)}, keys)
    state, _ = game.apply(state, game.legal_actions(state, None)[0])
    second = signing.signed({**state, transcripts.FIELD: transcripts.follow(first)}, keys)
    return {"states": [first, second]}


@bp.declare("post", "/v1/transcripts/verify", operation_id="transcript_verify",
            summary="Check that signed or sealed states form one unbroken game",
            description=paragraph(__doc__), tags=("games",),
            request="VerifyTranscriptRequest", request_example=verify_transcript_example,
            answers={200: Success("Whether the states are one line, their forks and breaks.",
                                 schema="VerifyTranscriptResponse")},
            errors=(400, 403, 405, 413, 415, 429, 500))
def verify() -> Response:
    """``{states}`` → ``{valid, game, steps, forks, breaks}`` (module docstring)."""
    body = read_envelope(VERIFY_TRANSCRIPT)
    for index, state in enumerate(body["states"]):
        try:
            signing.accept(state, required=True)
        except ProblemError as exc:
            exc.extra = {**exc.extra, "index": index}
            raise
    return json_response(transcripts.verify(body["states"]))
