"""The rules reference and the problem-type pages.

* ``GET /v1/games/{game}/rules``: every clause of the game's rules reference
  (``docs/rules/<game>.md``, ``service.rules_reference``) — id, title, short
  text, whole text (markdown), whether it is a ruling;
* ``GET /v1/games/{game}/rules/{clause}``: one clause (``RAI-12``).

Both answer in the language of ``Accept-Language`` (``en`` by default, or
``ru``) and say which in ``Content-Language``.  An unknown game, a game
without a reference, or an unknown clause → 404 problem naming it.

* ``GET /problems``: every problem type the service answers with;
* ``GET /problems/{slug}``: one of them, the page a problem's ``type``
  (``/problems/illegal-action``) resolves to.

Both are a small HTML page, or JSON when the client asks for
``application/json`` first; a page loads nothing but its own inline style and
is never shown in another site's frame (``PAGE_CSP``).
"""

from __future__ import annotations

import re
from typing import Any

from flask import Response, request
from flask.blueprints import BlueprintSetupState
from markupsafe import escape

from service import rules_reference
from service.games import registry
from service.games.messages import N_, joined
from service.http.body import json_response
from service.http.games import game_or_404
from service.http.route import ACCEPT_LANGUAGE, GAME, Param, Routes, Success
from service.i18n import gettext, mark_language, request_language, translate
from service.problem_types import PROBLEM_TYPES
from service.problems import ProblemError

bp = Routes("rules", __name__)
_ERRORS = (404, 405, 500)
CONTENT_LANGUAGE = {"description": "The language of the texts: `en` or `ru`.",
                    "schema": {"type": "string", "enum": list(rules_reference.LANGUAGES)}}
CLAUSE_EXAMPLE = {
    "game": "raiders", "language": "en", "id": "RAI-12", "title": "One capture attempt per turn",
    "short": "In your own turn you have exactly one capture attempt, and you may decline it. "
             "One turn, one fighter, one attempt: a failed capture uses it up too.",
    "text": "In your own turn you have exactly one capture attempt, …", "ruling": False,
    "has_ruling": False, "section": "Turn", "url": "/v1/games/raiders/rules/RAI-12"}


def _in_language(schema: str, description: str, example: dict[str, Any]) -> Success:
    """A JSON answer whose texts are in the request's language (``Content-Language``)."""
    return Success(description, schema=schema, example=example,
                  headers={"Content-Language": CONTENT_LANGUAGE})


def _page(schema: str, description: str) -> Success:
    """An HTML page, or the JSON ``schema`` with ``Accept: application/json``."""
    return Success(description, content={
        "text/html": {"schema": {"type": "string"}},
        "application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}})


@bp.record_once
def _check_references(state: BlueprintSetupState) -> None:
    """At start: a malformed reference file stops the service, naming file and line."""
    rules_reference.check_all(registry.GAME_IDS)

_LOOSE_ID = re.compile(r"^([A-Za-z]+)-(\d+)([A-Za-z]?)$")


def _reference(game_id: str, language: str) -> tuple[str, rules_reference.Reference]:
    """The game's reference in ``language`` (or the default one if that file is missing)."""
    game = game_or_404(game_id).id
    for lang in dict.fromkeys((language, rules_reference.DEFAULT_LANGUAGE)):
        try:
            return game, rules_reference.reference(game, lang)
        except rules_reference.MissingReference:
            continue
    raise ProblemError(404, "not-found", "Not found",
                       N_("no rules reference for {game!r} is installed", game=game))


def _answer(body: dict[str, Any], language: str) -> Response:
    return mark_language(json_response(body), language)


def canonical_id(clause_id: str) -> str:
    """``rai-5A`` → ``RAI-5a`` (ids are upper-case, a ruling's letter lower-case).

    >>> canonical_id("rai-5A"), canonical_id("KOZ-16a"), canonical_id("x")
    ('RAI-5a', 'KOZ-16a', 'x')
    """
    m = _LOOSE_ID.match(clause_id)
    return f"{m[1].upper()}-{m[2]}{m[3].lower()}" if m else clause_id


@bp.declare("get", "/v1/games/{game}/rules", operation_id="get_rules",
            summary="The game's rules reference", tags=("rules",), cacheable=True,
            description="Every clause the service cites (`rule` in errors and events), written "
                        "from the original rulebook; rulings marked. 404 for a game without a "
                        "reference.",
            parameters=(GAME, ACCEPT_LANGUAGE),
            answers={200: _in_language("RulesReference", "Every clause, in file order.", {
                "game": "raiders", "language": "en",
                "title": "Raiders (Рейдеры) — rules reference",
                "clauses": [{k: v for k, v in CLAUSE_EXAMPLE.items()
                             if k not in ("game", "language")}]})}, errors=_ERRORS)
def rules(game_id: str) -> Response:
    """Every clause of the game's rules reference, in the requested language."""
    game, ref = _reference(game_id, request_language())
    return _answer({"game": game, "language": ref.language, "title": ref.title,
                    "clauses": [c.to_json(game) for c in ref.clauses.values()]}, ref.language)


@bp.declare("get", "/v1/games/{game}/rules/{clause}", operation_id="get_rule",
            summary="One clause of the rules reference", tags=("rules",), cacheable=True,
            description="The clause a problem's `rule_url` links to. An unknown clause → 404 "
                        "`unknown-clause`.",
            parameters=(GAME, ACCEPT_LANGUAGE, Param("clause", {
                "name": "clause", "in": "path", "required": True,
                "schema": {"type": "string", "example": "RAI-12"},
                "description": "Clause id, e.g. `RAI-12`, `KOZ-16a`."}, rule="<clause_id>")),
            answers={200: _in_language("RuleClause", "The clause.", CLAUSE_EXAMPLE)},
            errors=_ERRORS)
def rule(game_id: str, clause_id: str) -> Response:
    """One clause (``RAI-12``), in the requested language."""
    game, ref = _reference(game_id, request_language())
    found = ref.clauses.get(clause_id) or ref.clauses.get(canonical_id(clause_id))
    if found is None:
        raise ProblemError(404, "unknown-clause", "Unknown clause",
                           N_("{game} has no clause {clause!r}; its clauses: {first} … {last} "
                              "(GET /v1/games/{game}/rules)", game=game, clause=clause_id,
                              first=joined(list(ref.clauses)[:3]), last=list(ref.clauses)[-1]))
    return _answer({"game": game, "language": ref.language, **found.to_json(game)}, ref.language)


# ------------------------------------------------------------ problem types
def _wants_json() -> bool:
    best = request.accept_mimetypes.best_match(["text/html", "application/json"],
                                               default="text/html")
    return best == "application/json"


def _inline(text: str) -> str:
    """Escaped text with `code` spans as <code> and **bold** as <b>."""
    html = re.sub(r"`([^`]+)`", r"<code>\1</code>", str(escape(text)))
    return re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", html)


PAGE = """<!doctype html>
<html lang="{language}"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem}}
code{{background:#f3f3f3;padding:0 .2em}}dt{{font-weight:600;margin-top:1rem}}</style>
</head><body>
{body}
</body></html>
"""


def _page_csp() -> str:
    """The pages' policy: their one inline ``<style>`` (by its hash), nothing else loads,
    no site frames them."""
    import base64
    import hashlib

    style = re.search(r"<style>(.*?)</style>", PAGE.format(title="", body="", language=""), re.S)
    assert style is not None
    digest = base64.b64encode(hashlib.sha256(style.group(1).encode()).digest()).decode()
    return (f"default-src 'none'; style-src 'sha256-{digest}'; base-uri 'none'; "
            "form-action 'none'; frame-ancestors 'none'")


#: ``Content-Security-Policy`` of every page here
PAGE_CSP = _page_csp()


def _html(title: str, body: str, language: str) -> Response:
    page = PAGE.format(title=escape(title), body=body, language=language)
    return mark_language(Response(page, mimetype="text/html", headers={
        "Content-Security-Policy": PAGE_CSP, "X-Frame-Options": "DENY"}), language)


#: the fixed texts of the problem-type pages
PAGE_TEXTS = (N_("Problem types"),
              N_("Every error of this service is `application/problem+json` (RFC 9457); its "
                 "`type` is one of these pages."))
PAGE_HEADINGS = (N_("When"), N_("What to do"), N_("All problem types"))
STATUS_VARIES = N_("HTTP status: as the problem's `status` says.")


@bp.declare("get", "/problems", operation_id="list_problem_types",
            summary="Every problem type", tags=("operations",), cacheable=True,
            description="An HTML page, or JSON with `Accept: application/json`.",
            answers={200: _page("ProblemTypeList", "The problem types.")}, errors=(405, 500))
def problem_types() -> Response:
    """Every problem type, as a page (or JSON)."""
    language = request_language()
    types = [t.to_json(language) for t in PROBLEM_TYPES.values()]
    if _wants_json():
        return mark_language(json_response({"problem_types": types}), language)
    items = "\n".join(
        f'<dt><a href="{escape(t["type"])}">{escape(t["slug"])}</a> — {escape(t["title"])}'
        + (f' ({t["status"]})' if t["status"] else "") + f'</dt><dd>{_inline(t["when"])}</dd>'
        for t in types)
    heading, intro = (gettext(text, language) for text in PAGE_TEXTS)
    return _html(f"referee: {heading}", f"<h1>{heading}</h1>\n<p>{_inline(intro)}</p>\n"
                 "<dl>\n" + items + "\n</dl>", language)


@bp.declare("get", "/problems/{slug}", operation_id="get_problem_type",
            summary="One problem type (what a problem's `type` resolves to)",
            tags=("operations",), cacheable=True,
            description="When it happens and what to do. An HTML page, or JSON with "
                        "`Accept: application/json`.",
            parameters=(Param("slug", {"name": "slug", "in": "path", "required": True,
                                       "schema": {"type": "string", "example": "illegal-action"}}),),
            answers={200: _page("ProblemTypeInfo", "The problem type.")}, errors=_ERRORS)
def problem_type_page(slug: str) -> Response:
    """The page a problem's ``type`` resolves to."""
    found = PROBLEM_TYPES.get(slug)
    if found is None:
        raise ProblemError(404, "not-found", "Not found",
                           N_("no problem type {slug!r} (GET /problems lists them)", slug=slug))
    language = request_language()
    shown = found.to_json(language)
    if _wants_json():
        return mark_language(json_response(shown), language)
    status = _inline(translate(N_("HTTP status: **{status}**", status=found.status), language)
                     if found.status else gettext(STATUS_VARIES, language))
    when, what_to_do, all_types = (gettext(text, language) for text in PAGE_HEADINGS)
    return _html(f"referee: {shown['title']}",
                 f"<h1>{escape(shown['title'])}</h1>\n<p><code>{escape(found.uri)}</code></p>\n"
                 f"<p>{status}</p>\n<h2>{when}</h2>\n<p>{_inline(shown['when'])}</p>\n"
                 f"<h2>{what_to_do}</h2>\n<p>{_inline(shown['fix'])}</p>\n"
                 f'<p><a href="/problems">{all_types}</a></p>', language)
