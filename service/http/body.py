"""Reading requests and writing JSON replies on the hot path.

Bodies are parsed with orjson (not ``request.get_json``): a few µs for a
typical state where the stdlib parser takes several times longer.  The
envelope (``{state, action}`` and the like) is checked by its one
declaration (``schemas.envelopes.load``: a shape spec, compiled); the
state passes through untouched and the engine's ``validate_state`` then
checks the state itself.

Numbers follow JSON Schema: ``1.0`` is the integer ``1`` (``shape.field_errors``
makes it an ``int`` wherever a check refused it, so the engines only see ``1``).

Every failure here is a problem+json answer: a body that is not JSON → 400,
not an object → 400, a wrong ``Content-Type`` → 415, too large → 413
(``MAX_CONTENT_LENGTH``: werkzeug refuses a ``Content-Length`` over it;
``read_body`` refuses a chunked body over it instead of cutting it).  The body
is UTF-8 JSON as sent (RFC 8259): a ``charset`` other than ``utf-8`` or a
``Content-Encoding`` other than ``identity`` is a 415 rather than bytes misread
as UTF-8; a body shorter than its ``Content-Length`` (the client stopped or
half-closed) is a 400 rather than a parse of its first part.  ``Content-Type``,
``Content-Encoding`` and ``Content-Length`` are read strictly (``service.headers``).

>>> from flask import Flask
>>> app = Flask(__name__)
>>> with app.test_request_context(data=b'{"players": 2}', content_type="application/json"):
...     read_json()
{'players': 2}
"""

from __future__ import annotations

import re
from typing import Any

import orjson
from flask import Response, request
from werkzeug.exceptions import (
    BadRequest,
    RequestEntityTooLarge,
    UnsupportedMediaType,
)
from werkzeug.http import parse_options_header

from schemas import envelopes
from service.games.errors import MalformedInput
from service.games.messages import N_
from service.headers import checked
from service.limits import MAX_DEPTH
from service.problems import ProblemError


def is_json_mimetype(mimetype: str) -> bool:
    """``application/json`` or any ``application/*+json``."""
    return mimetype == "application/json" or (
        mimetype.startswith("application/") and mimetype.endswith("+json"))


#: bytes asked of the server per read of a body without Content-Length
READ_STEP = 64 * 1024


def read_body() -> bytes:
    """The raw body; 413 when it is over ``MAX_CONTENT_LENGTH``, chunked or not.

    A body with a ``Content-Length`` is refused over the limit before reading, then
    read at once (``_read_declared``); a body without one (``Transfer-Encoding: chunked``) it reads only up to
    the limit and hands over cut, so such a body is read here, at most one
    byte past the limit: that byte means too large.  A chunk the server
    cannot parse is 400, not a 500 from deep in the server's reader.
    """
    environ = request.environ
    declared = checked("Content-Length", environ.get("CONTENT_LENGTH"))
    if declared or "wsgi.input_terminated" not in environ:
        length = declared.strip(" \t") if declared else ""
        if declared and not (length.isascii() and length.isdigit()):  # gunicorn refuses it first
            raise MalformedInput({"headers.Content-Length": [N_("must be a number of bytes")]})
        if length:  # the common body: its bytes straight from the server, no wrapping stream
            return _read_declared(environ, int(length), request.max_content_length)
        return request.get_data(cache=False)  # no length, an unended stream: werkzeug reads none
    limit = request.max_content_length
    if limit is None:
        return request.get_data(cache=False)
    stream, parts, size = environ["wsgi.input"], [], 0
    while size <= limit:
        try:
            part = stream.read(min(READ_STEP, limit + 1 - size))
        except Exception as exc:  # the server's parse error of a bad chunk, or a cut connection
            raise BadRequest(N_("the chunked request body could not be read: {error}",
                                 error=str(exc))) from None
        if not part:
            break
        parts.append(part)
        size += len(part)
    if size > limit:
        raise RequestEntityTooLarge()
    return b"".join(parts)


def _read_declared(environ: dict[str, Any], length: int, limit: int | None) -> bytes:
    """The ``length`` bytes a ``Content-Length`` announced, read from ``wsgi.input`` at once
    (werkzeug's bounded stream cost three times as much); 413 over ``limit`` before any is
    read, 400 when fewer arrive (the client stopped, or was silent past the read timeout)."""
    if limit is not None and length > limit:
        raise RequestEntityTooLarge()
    try:
        raw: bytes = environ["wsgi.input"].read(length)
    except (OSError, ValueError):  # silent past the read timeout, or reset
        raise BadRequest(N_("the body stopped arriving before the {length} bytes its "
                            "`Content-Length` announced", length=length)) from None
    if len(raw) < length:  # gunicorn ends the body where the client stopped: a cut body
        raise BadRequest(N_("the body ended after {got} of the {length} bytes its "
                            "`Content-Length` announced (the client stopped sending)",
                            got=len(raw), length=length))
    return raw


def media_type(header: str) -> None:
    """Refuse a ``Content-Type`` other than JSON in UTF-8 (415).

    >>> media_type('application/json; charset="UTF-8"'), media_type("application/merge-patch+json")
    (None, None)
    >>> try:
    ...     media_type("application/json; charset=utf-16")
    ... except ProblemError as exc:
    ...     print(exc.status, exc.extra["errors"])
    415 {'headers.Content-Type': ['a JSON body is UTF-8: charset=utf-8, or no charset']}
    """
    mimetype, params = parse_options_header(header)
    mimetype = mimetype.lower()
    if not is_json_mimetype(mimetype):
        raise UnsupportedMediaType(N_("send the body as application/json (got {mimetype})",
                                      mimetype=mimetype or N_("no Content-Type")))
    charset = params.get("charset")
    if charset is not None and charset.strip().lower() != "utf-8":
        raise ProblemError.of("unsupported-media-type", N_(
            "the body must be UTF-8 JSON (RFC 8259), not charset={charset}", charset=charset),
            errors={"headers.Content-Type": [N_("a JSON body is UTF-8: charset=utf-8, or "
                                                "no charset")]})


def read_json() -> dict[str, Any]:
    """The request body as a JSON object, or a problem (400, 413, 415)."""
    environ = request.environ
    if environ.get("CONTENT_TYPE") != "application/json":  # the common header needs no parsing
        media_type(checked("Content-Type", environ.get("CONTENT_TYPE")) or "")
    coding = checked("Content-Encoding", environ.get("HTTP_CONTENT_ENCODING"))
    if coding and any(c.strip(" \t").lower() not in ("identity", "") for c in coding.split(",")):
        raise ProblemError.of("unsupported-media-type", N_(
            "the body must be sent as is: this service does not decode `Content-Encoding: "
            "{coding}` (send it uncompressed, or `identity`)", coding=coding),
            errors={"headers.Content-Encoding": [N_("must be `identity`, or left out")]})
    raw = read_body()
    if not raw:
        raise MalformedInput({"body": [N_("empty; send a JSON object")]})
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        if ("depth" in str(exc) or "recursion" in str(exc)) \
                and raw.lstrip()[:1] == b"{":  # orjson reads 1,024 levels; name the field
            path = too_deep(raw, MAX_DEPTH)
            if path:
                raise MalformedInput({path: [N_("nested deeper than {max_depth} levels",
                                                max_depth=MAX_DEPTH)]}) from None
        raise MalformedInput({"body": [N_("not valid JSON: {error}", error=str(exc))]}) from None
    if not isinstance(body, dict):
        raise MalformedInput({"body": [N_("must be a JSON object")]})
    return body


_TOKENS = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{},]')


def too_deep(raw: bytes, limit: int) -> str | None:
    """The field path (``players.0.0…``, ``limit`` levels) where the JSON text
    ``raw`` nests deeper than ``limit``, or ``None``: for a body too deep for
    the parser, the same place the shape check names in one it could read.

    >>> too_deep(b'{"a": 1, "players": [[[1]]]}', 2)
    'players.0'
    >>> too_deep(b'{"a": [1, {"b": [[2]]}]}', 3), too_deep(b'{"a": [[1]]}', 3)
    ('a.1.b', None)
    """
    stack: list[list[Any]] = []  # per open container: [is_object, key or index]
    for match in _TOKENS.finditer(raw):
        token = match.group()
        if token in (b"{", b"["):
            if len(stack) >= limit:
                return ".".join(str(seg) for _, seg in stack[:limit]) or "body"
            stack.append([token == b"{", None if token == b"{" else 0])
        elif token in (b"}", b"]"):
            if stack:
                stack.pop()
        elif token == b",":
            if stack:
                top = stack[-1]
                top[1] = None if top[0] else top[1] + 1
        elif stack and stack[-1][0] and stack[-1][1] is None:  # a key
            try:
                stack[-1][1] = orjson.loads(token)
            except orjson.JSONDecodeError:
                stack[-1][1] = token.decode("utf-8", "replace")
    return None


#: the one check of a request body (``schemas.envelopes.load``)
load_envelope = envelopes.load


def read_envelope(request: envelopes.Request) -> dict[str, Any]:
    """Read the JSON body and check it against its declaration (``load_envelope``)."""
    return load_envelope(request, read_json())


def json_response(payload: Any, status: int = 200, headers: dict[str, Any] | None = None) -> Response:
    """A JSON reply encoded with orjson."""
    return Response(orjson.dumps(payload), status=status, headers=headers,
                    content_type="application/json")  # as is: no mimetype parsing per reply
