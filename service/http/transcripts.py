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

The request is ``schemas.envelopes.VERIFY_TRANSCRIPT``; the document
(``service.openapi``) shows this text and a real example.
"""

from __future__ import annotations

from flask import Blueprint, Response

from schemas.envelopes import VERIFY_TRANSCRIPT
from service import signing, transcripts
from service.http.body import json_response, read_envelope
from service.problems import ProblemError

bp = Blueprint("transcripts", __name__, url_prefix="/v1/transcripts")


@bp.post("/verify")
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
