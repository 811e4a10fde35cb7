"""Every limit of the service, defined once: the caps on what a request may hold and on the
work it may ask for.  The request declarations (``schemas``, the evaluation kinds), the
engines' common shapes, the HTTP layer and the document all import them from here, so a
bound and the document's ``maximum``/``maxItems`` of it cannot drift apart.

The bottom layer: this module imports nothing, and any module may import it.  A game's
own sizes (a hand of five, four sectors, a card id of 40 characters) are its rules and stay
in its package; tests/shared/test_limits.py fails when a value below is written again
as a literal elsewhere.

>>> MAX_SEAT == MAX_SEATS - 1 and MAX_STATES == MAX_REPLAY_ACTIONS + 1
True
>>> MAX_SEED == 2 ** 53 - 1 < MAX_STATE_SEED
True
"""

from __future__ import annotations

# ----------------------------------------------------------------------- seats, players
#: the most seats at one table: a game's players (no game seats more than 6: room for a
#: future one) and a tournament table; every per-seat list (pending decisions, winners,
#: bots, a setup's players) is bounded by it
MAX_SEATS = 16
#: the highest seat number (seats count from 0)
MAX_SEAT = MAX_SEATS - 1
#: the fewest seats at a table: no game is played alone
MIN_SEATS = 2
#: a player's name in a setup or a state (printed on a table card, not an essay)
MAX_NAME_LENGTH = 64
#: the most options a state carries (a game declares a few)
MAX_OPTIONS = 64
#: an identifier a request names: an action type, a card set, a rules version, a card id
#: in an evaluation's parameters (the games' own ids are 40 to 64 characters)
MAX_ID_LENGTH = 64

# ------------------------------------------------------------------------------ seeds
#: the largest seed a request may name and the service draws: 2^53 - 1, the largest integer a
#: JSON number keeps exactly in every client (JavaScript's Number.MAX_SAFE_INTEGER), so a seed
#: survives ``JSON.parse`` (issue 23)
MAX_SEED = (1 << 53) - 1
#: the largest seed a state may carry: builds before 1.0.0 drew 63-bit seeds, and their
#: states are still read (a JavaScript client must not have parsed one with ``JSON.parse``)
MAX_STATE_SEED = (1 << 63) - 1
#: ``secrets.randbits(SEED_BITS)`` draws a seed (at most ``MAX_SEED``)
SEED_BITS = 53

# ------------------------------------------------------------------ replays, transcripts
#: the most actions a replay takes (``replay``, a tournament game's replay): one bound
#: for the request declarations and the document
MAX_REPLAY_ACTIONS = 20_000
#: the most states per ``transcripts/verify`` call: a replay-length game and its first state
MAX_STATES = MAX_REPLAY_ACTIONS + 1
#: the most outcomes per ``apply-chance`` call (a six-player double-deck deal is 36)
MAX_OUTCOMES = 200

# ---------------------------------------------------------------------- HTTP, documents
#: the largest request body by default, 1 MiB (the ``MAX_CONTENT_LENGTH`` setting sets
#: another); a state's ``sealed`` string, sent back in a body, is documented as no longer
MAX_BODY_BYTES = 1 << 20
#: a spec nested deeper than this refuses every value there (no real spec is near it),
#: and a body nested deeper is refused before it is parsed (``service.http.body``)
MAX_DEPTH = 32
#: the most field paths one problem lists, so a body with 100 000 bad keys gets a short
#: answer (``service.problem_types.capped``)
MAX_ERRORS = 50
#: a state's ``signature``: ``hmac-sha256:`` and 64 hex digits, with room for a longer scheme
MAX_SIGNATURE_LENGTH = 200
#: an ``Idempotency-Key``: 1 to 255 visible ASCII characters; the header may hold 2 more,
#: the quotes of a structured-field string
MAX_IDEMPOTENCY_KEY = 255

# ----------------------------------------------------------------- batches, previews
#: the most items one ``POST /v1/games/{game}/batch`` holds (each is one contract call)
MAX_BATCH_ITEMS = 128
#: the most items of one batch that ask for a preview (``legal-actions`` with ``preview``):
#: each may apply up to ``MAX_PREVIEW_ACTIONS`` actions, the work cap of a batch
MAX_BATCH_PREVIEWS = 8
#: the most listed actions one preview applies (the games list at most ~220 today)
MAX_PREVIEW_ACTIONS = 512

# ------------------------------------------------------------------------- evaluations
#: documented caps on one playouts job
MAX_PLAYOUTS = 20_000
#: the most steps one playout runs before it is scored as unfinished
MAX_PLAYOUT_STEPS = 20_000
#: the most turns a playout's ``turn_limit`` may set
MAX_TURN_LIMIT = 1000
#: the most search iterations one suggestion job runs
MAX_ITERATIONS = 100_000
#: the synchronous suggestion: at most this long, this many iterations (it answers now)
SYNC_MAX_MILLISECONDS = 200
SYNC_MAX_ITERATIONS = 2000
#: a suggestion's tuning: the deepest rollout, the most progressive widening, the largest
#: UCB exploration constant
MAX_ROLLOUT_DEPTH = 200
MAX_WIDENING = 10
MAX_EXPLORATION = 10
#: at most this much estimated CPU work per job (seconds, one core), playouts or suggestion
MAX_WORK_SECONDS = 1800
#: the most chunks a job is split into (each is a queue entry and a stored partial)
MAX_CHUNKS = 64
#: the documented most CPU seconds of one chunk (a plan whose chunk is estimated
#: past ``MAX_CHUNK_CPU_SECONDS / CPU_MARGIN`` is refused: fewer per chunk)
MAX_CHUNK_CPU_SECONDS = 120.0
#: an RQ chunk job's timeout (seconds) lies between these: 20 × its chunk's estimate,
#: never longer than a whole job's work
MIN_JOB_TIMEOUT = 60
MAX_JOB_TIMEOUT = MAX_WORK_SECONDS

# ------------------------------------------------------------------------- tournaments
#: the most players of a tournament (``/standings``, ``/events``)
MAX_ENTRANTS = 512
#: the most rounds of a tournament (Swiss needs 9 for ``MAX_ENTRANTS``; room for leagues)
MAX_ROUNDS = 30
#: the most games at one table (or match) in one round: a best-of-nine at most
MAX_GAMES = 9
#: a tournament player's name (a game's setup names are ``MAX_NAME_LENGTH``)
MAX_ENTRANT_NAME = 100
#: the most points a place or a bye may be worth
MAX_POINTS = 1000
#: an ``/events`` answer's explanation (why players sit together, why a bye)
MAX_EXPLANATION_LENGTH = 10_000

# ---------------------------------------------------------------------- game operations
#: a deck sent to Kozyablo's ``decks/validate``: its sector and card lists, bounded as 1.0.0
#: bounded them (well past the rules' 3 sectors and 15–25 cards: the answer names the excess)
MAX_DECK_SECTORS = 10
MAX_DECK_CARDS = 100
