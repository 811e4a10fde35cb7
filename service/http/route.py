"""Every HTTP operation declared once: a ``Route`` holds its method and path, its body and
answers, its examples, the problem statuses it may answer and its handler.

A blueprint of ``Routes`` adds the Flask rule of each route it declares; ``service.openapi``
documents the same records (``ROUTES``: every blueprint, in the document's order) and the
batch answers ``Route.answer`` item by item.  A new operation is one ``Routes.declare``
decoration of its handler; a new operation of the game contract (``contract=…``) is then
also documented once per game with that game's types.

>>> bp = Routes("example", __name__)
>>> @bp.declare("get", "/v1/example/{game}", operation_id="get_example", summary="An example",
...           tags=("games",), parameters=(GAME,), answers={200: Success("It.", schema="GameInfo")})
... def example(game_id: str) -> str:
...     return game_id
>>> [(r.method, r.path, r.rule) for r in bp.routes]
[('get', '/v1/example/{game}', '/v1/example/<game_id>')]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from flask import Blueprint
from flask.blueprints import BlueprintSetupState

from service.games.base import AnyGame, GameState
from service.games.objects import ActionObject
from service.middleware import CACHEABLE_ROUTES

Method = Literal["get", "post", "delete"]
#: an OpenAPI object (a parameter, a media type…), as the document holds it
Doc = Mapping[str, Any]
F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Param:
    """A parameter of a route: documented by ``doc`` (an OpenAPI parameter object, or a
    ``$ref`` by ``ref``), and for a path parameter the piece of the werkzeug rule."""

    name: str
    doc: Doc | None = None
    #: a component of ``#/components/parameters``, written as its name (``GAME``)
    ref: str | None = None
    #: the werkzeug piece a path parameter stands for (``<game_id>``)
    rule: str | None = None

    def documented(self) -> str | Doc:
        return self.ref if self.ref is not None else dict(self.doc or {})


@dataclass(frozen=True)
class Success:
    """A success answer of a route: a JSON component (``schema``) or other ``content``;
    headers; an example (a value, or a function giving it when the document is built)."""

    description: str
    schema: str | None = None
    content: Doc | None = None
    headers: Doc | None = None
    example: object = None


@dataclass(frozen=True)
class Contract:
    """What a route of the game contract (``/v1/games/{game}/<verb>``) adds: its twin per
    game, ``/v1/games/<id>/<verb>``, with that game's types (``service.openapi.typed_game``).

    ``example(game, mid)`` gives the request and its answer on the document's seeded
    mid-game (``MidGame``); ``counts``: where the request holds its player count, its seat
    fields and its options (``service.openapi.per_count_rules``)."""

    summary: str
    ok_text: str
    example: Callable[[AnyGame, MidGame], tuple[dict[str, Any], dict[str, Any]]]
    counts: tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[str, ...] | None] | None = None
    #: the game serves this verb (``suggest``: only a game with ``determinize``)
    served: Callable[[AnyGame], bool] = lambda game: True
    #: the game takes a player's view in place of the state here
    takes_view: Callable[[AnyGame], bool] = lambda game: game.takes_views
    #: the answer does not depend on the game (one component for every game)
    shared_response: bool = False


@dataclass(frozen=True)
class MidGame:
    """The document's seeded example game: its setup, the random legal actions taken,
    every state on the way (the last one still has a decision to show) and ``action``,
    the first decision of the last state (``service.openapi.mid_game``)."""

    setup: dict[str, Any]
    actions: list[ActionObject]
    states: list[GameState]
    action: ActionObject

    @property
    def state(self) -> GameState:
        return self.states[-1]


@dataclass(frozen=True)
class Route:
    """An HTTP operation, declared once (``Routes.declare``).  ``view`` is the Flask view;
    a route of the game contract also has ``answer``: the same answer of a checked body
    for a game, without the HTTP around it (what a batch item calls)."""

    method: Method
    #: the OpenAPI path template (``/v1/games/{game}/apply``)
    path: str
    operation_id: str
    summary: str
    tags: tuple[str, ...]
    view: Callable[..., Any]
    description: str | None = None
    parameters: tuple[Param, ...] = ()
    #: the JSON body's component (``schemas.envelopes``), or ``None``: no body
    request: str | None = None
    #: the body also comes as a player's view (``<Name>ViewRequest``)
    takes_view: bool = False
    request_example: Callable[[], object] | object = None
    answers: Mapping[int, Success] = field(default_factory=dict)
    #: the problem statuses it may answer (each a ``#/components/responses/<status>``)
    errors: tuple[int, ...] = ()
    contract: Contract | None = None
    answer: Callable[[AnyGame, dict[str, Any]], dict[str, Any]] | None = None
    #: ``answer``'s messages (``check``'s ``reason``) are put in the request's language
    localized: bool = False
    #: an item of ``POST /v1/games/{game}/batch`` may call it (``op``: its verb); a contract
    #: route joins unless it says otherwise (``service.http.batch``)
    batched: bool = False
    #: a GET whose 200 carries ``ETag``/``Cache-Control`` (``service.middleware``)
    cacheable: bool = False

    @property
    def rule(self) -> str:
        """The werkzeug rule: each ``{name}`` replaced by its parameter's ``rule``."""
        pieces = {p.name: p.rule for p in self.parameters if p.rule is not None}
        return re.sub(r"\{(\w+)\}", lambda m: pieces.get(m.group(1)) or f"<{m.group(1)}>",
                      self.path)


class Routes(Blueprint):
    """A blueprint whose routes are ``Route`` records (``routes``), in declaration order."""

    def __init__(self, name: str, import_name: str) -> None:
        super().__init__(name, import_name)
        self.declared: list[Route] = []
        self.makers: list[Callable[[], list[Route]]] = []
        self.record(self._add_made)
        self.record(self._cacheable)

    @property
    def routes(self) -> list[Route]:
        """The declared routes, then those the makers make now (``made_by``)."""
        return [*self.declared, *(r for make in self.makers for r in make())]

    def made_by(self, make: Callable[[], list[Route]]) -> Callable[[], list[Route]]:
        """Routes made when the app is built (or the document), not at import: those of
        the games the registry holds then (``service.http.game_operations``)."""
        self.makers.append(make)
        return make

    def _add_made(self, setup: BlueprintSetupState) -> None:
        for made in (r for make in self.makers for r in make()):
            setup.add_url_rule(made.rule, endpoint=made.view.__name__, view_func=made.view,
                               methods=[made.method.upper()])

    def declare(self, method: Method, path: str, **declared: Any) -> Callable[[F], F]:
        """Declare ``Route(method, path, view=<the function>, **declared)`` and add its rule."""
        def decorate(view: F) -> F:
            self.add(Route(method=method, path=path, view=view, **declared))
            return view
        return decorate

    def add(self, declared: Route) -> None:
        """Add ``declared`` and its rule (the Flask endpoint: the view's name)."""
        self.declared.append(declared)
        self.add_url_rule(declared.rule, endpoint=declared.view.__name__,
                          view_func=declared.view, methods=[declared.method.upper()])

    def _cacheable(self, setup: BlueprintSetupState) -> None:
        marked = setup.app.extensions.setdefault(CACHEABLE_ROUTES, set())
        marked.update(f"{self.name}.{r.view.__name__}" for r in self.routes if r.cacheable)



#: the game in the path of every ``/v1/games/{game}/…`` route
GAME = Param("game", ref="game", rule="<game_id>")
#: routes that take a state: a bad signature → 403 (``service.signing``)
STATE_ERRORS = (403,)
REQUIRE_SIGNED = Param("Referee-Require-Signed", {
    "name": "Referee-Require-Signed", "in": "header", "required": False,
    "schema": {"type": "string", "pattern": "^[ \t]*([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])[ \t]*$"},
    "example": "false",
    "description": "`true` (any case): refuse the state unless it carries a valid `signature` "
                   "(400 `unsigned-state`); `false`: the server's own setting "
                   "(`REFEREE_REQUIRE_SIGNED=1` requires signatures on every request, and "
                   "`false` does not lower it). Sent once: any other value, or the header "
                   "twice, is a 400 `malformed-request` naming `headers.Referee-Require-Signed`."})
SEAT_TOKEN = Param("Referee-Seat-Token", {
    "name": "Referee-Seat-Token", "in": "header", "required": False,
    "schema": {"type": "string"}, "example": "seat:0:0123456789abcdef:Zt0r",
    "description": "On a sealed state: the seat token `new` or `replay` answered for the seat "
                   "this request speaks for (`seat_tokens`), or every seat's, comma-separated "
                   "(the host). Without it the caller is a spectator: what reveals a seat's "
                   "hidden information → 403 `seat-token-required`. Ignored on other states."})
ACCEPT_LANGUAGE = Param("Accept-Language", {
    "name": "Accept-Language", "in": "header", "required": False,
    "schema": {"type": "string", "example": "ru"},
    "description": "`en` (default) or `ru`; the answer says which in `Content-Language`."})
#: every POST of the game contract may answer these
POST_ERRORS = (400, 404, 405, 413, 415, 429, 500)


def statuses(*groups: int | tuple[int, ...]) -> tuple[int, ...]:
    """The sorted statuses of ``groups``.

    >>> statuses(POST_ERRORS, 422, STATE_ERRORS)
    (400, 403, 404, 405, 413, 415, 422, 429, 500)
    """
    flat = {s for g in groups for s in ((g,) if isinstance(g, int) else g)}
    return tuple(sorted(flat))


def paragraph(doc: str | None, index: int = 1) -> str:
    """Paragraph ``index`` of a docstring, as written: a route's description is the text its
    module's docstring already says, declared once.

    >>> paragraph('''Title.
    ...
    ... First line,
    ... second line.
    ...
    ... More.''')
    'First line,\\nsecond line.'
    """
    return (doc or "").strip().split("\n\n")[index].strip()
