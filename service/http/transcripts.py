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
"""

from __future__ import annotations

from flask import Blueprint
from marshmallow import Schema, fields, validate

from schemas.envelopes import MAX_REPLAY_ACTIONS, GameStateField
from service import signing, transcripts
from service.games import registry
from service.http.body import json_response, read_envelope
from service.problems import ProblemError

bp = Blueprint("transcripts", __name__, url_prefix="/v1/transcripts")

#: the most states per call: a whole replay-length game and its first state
MAX_STATES = MAX_REPLAY_ACTIONS + 1


class VerifyRequest(Schema):
    states = fields.List(GameStateField(metadata={"ref": "GameState"}), required=True,
                         validate=validate.Length(min=1, max=MAX_STATES), metadata={
                             "description": "States of one game, signed or sealed, as the "
                                            "service returned them, in any order."})


class Fork(Schema):
    step = fields.Integer(required=True)
    states = fields.List(fields.Integer(), required=True, metadata={
        "description": "Indexes (in `states`) of the different states at this step."})


class Break(Schema):
    state = fields.Integer(required=True, allow_none=True, metadata={
        "description": "Index in `states`; `null` when it concerns them all."})
    reason = fields.String(required=True)


class VerifyResponse(Schema):
    valid = fields.Boolean(required=True, metadata={"description": "No fork and no break."})
    game = fields.String(required=True, allow_none=True, metadata={
        "description": "The game id of the chain (`new` drew it)."})
    steps = fields.List(fields.Integer(), required=True, metadata={
        "description": "The steps seen (actions since `new`), ascending."})
    forks = fields.List(fields.Nested(Fork), required=True)
    breaks = fields.List(fields.Nested(Break), required=True)


REQUEST = VerifyRequest()


@bp.post("/verify")
def verify():
    """``{states}`` → ``{valid, game, steps, forks, breaks}`` (module docstring)."""
    body = read_envelope(REQUEST)
    for index, state in enumerate(body["states"]):
        try:
            signing.accept(state, required=True)
        except ProblemError as exc:
            exc.extra = {**exc.extra, "index": index}
            raise
    return json_response(transcripts.verify(body["states"]))


def example() -> dict | None:
    """A request: a new Raiders game and the state after its first action, signed under
    the key ``example-key`` (``None`` when Raiders is not served).

    >>> [s["chain"]["step"] for s in example()["states"]]
    [0, 1]
    """
    if "raiders" not in registry.GAME_IDS:
        return None
    game, keys = registry.get_game("raiders"), signing.parse_keys("example-key")
    state, _ = game.new_game(2, {}, 7, "reference")
    first = signing.seal({**state, transcripts.FIELD: transcripts.start("0" * 32)}, keys)
    state, _ = game.apply(state, game.legal_actions(state, None)[0])
    second = signing.seal({**state, transcripts.FIELD: transcripts.follow(first)}, keys)
    return {"states": [first, second]}


def document(spec) -> None:
    """Document the route in ``openapi.yaml``."""
    from service.openapi import body, error, ok

    spec.components.schema("TranscriptFork", schema=Fork)
    spec.components.schema("TranscriptBreak", schema=Break)
    spec.components.schema("VerifyTranscriptRequest", schema=VerifyRequest)
    spec.components.schema("VerifyTranscriptResponse", schema=VerifyResponse)
    spec.path("/v1/transcripts/verify", operations={"post": {
        "summary": "Check that signed or sealed states form one unbroken game",
        "description": __doc__.split("\n\n", 1)[1].strip(),
        "tags": ["games"], "operationId": "transcript_verify",
        "requestBody": body("VerifyTranscriptRequest", example()),
        "responses": {"200": ok("VerifyTranscriptResponse", "Whether the states are one line, "
                                "their forks and breaks."),
                      **{str(s): error(s) for s in (400, 403, 405, 413, 415, 429, 500)}}}})
