"""The project's own rules reference: ``docs/rules/<game>.md`` (en) and ``<game>.ru.md`` (ru).

Each file is markdown in one fixed shape (``docs/rules/raiders.md`` is the
example): a ``#`` title, an introduction, ``##`` sections for grouping, and
one ``###`` entry per clause whose heading reads exactly
``### <ID> · <title>``.  The entry's first paragraph is the clause's *short
text* (what an error quotes); a ruling's first paragraph starts with
``**Ruling.**`` (ru: ``**Решение.**``).  A malformed file raises
``RulesFileError`` naming the file and line.

Where the files are found, first match wins:

1. ``REFEREE_RULES_PATH`` (a directory), for an operator's own texts;
2. ``docs/rules/`` of the source tree this module sits in (a checkout, or an
   editable install: ``pip install -e .``);
3. ``<sys.prefix>/share/referee/rules/``, where a wheel installs them
   (``[tool.setuptools.data-files]`` in ``pyproject.toml``).

No Flask here: ``service.http.rules`` serves the clauses and
``service.problems`` quotes them in errors.

>>> ref = parse(SAMPLE, "sample.md", "en")
>>> ref.title, list(ref.clauses)
('Sample — rules reference', ['RAI-1', 'RAI-5a'])
>>> c = ref.clauses["RAI-5a"]
>>> c.title, c.ruling, c.short, c.section
('Seat 0 starts', True, 'Seat 0 takes the first turn.', 'Setup')
>>> ref.clauses["RAI-1"].short
'Two decks that never mix: fighters and property.'
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

#: the languages every game's reference is written in; the first is the default
LANGUAGES = ("en", "ru")
DEFAULT_LANGUAGE = LANGUAGES[0]
#: the marker that opens a ruling's first paragraph, per language
RULING_MARKERS = {"en": "**Ruling.**", "ru": "**Решение.**"}
#: a trailing "(ruling)" in a heading is dropped from the title (``ruling`` says it)
_RULING_SUFFIX = re.compile(r"\s*\((?:ruling|решение)\)\s*$", re.IGNORECASE)
HEADING = re.compile(r"^### (?P<id>[A-Z]+-\d+[a-z]?) · (?P<title>\S.*)$")
MAX_TITLE = 60
ENV_PATH = "REFEREE_RULES_PATH"

SAMPLE = """\
# Sample — rules reference

Intro.

## Components

### RAI-1 · Two decks
Two decks that never *mix*: fighters
and property.

> «quote»

## Setup

### RAI-5a · Seat 0 starts (ruling)
**Ruling.** Seat 0 takes the first turn.

*Why:* the original is silent.
"""


class RulesFileError(ValueError):
    """A reference file that does not have the documented shape.

    >>> str(RulesFileError("docs/rules/x.md", 7, "bad heading"))
    'docs/rules/x.md:7: bad heading'
    """

    def __init__(self, path: str | os.PathLike[str], line: int, message: str):
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = str(path), line, message


class MissingReference(LookupError):
    """No reference file for that game and language."""


@dataclass(frozen=True)
class Clause:
    """One clause of a game's reference, in one language."""

    id: str
    title: str
    short: str        # first paragraph, plain text, without the ruling marker
    text: str         # the whole entry, markdown
    ruling: bool      # the whole clause is a ruling (its first paragraph says so)
    section: str      # the ``##`` heading it sits under ("" if none)
    has_ruling: bool = False  # a ruling, or a rule with a ruling paragraph in it
    line: int = field(default=0, compare=False)

    def to_json(self, game: str) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "short": self.short, "text": self.text,
                "ruling": self.ruling, "has_ruling": self.has_ruling, "section": self.section,
                "url": clause_url(game, self.id)}


@dataclass(frozen=True)
class Reference:
    """A game's whole reference in one language; ``clauses`` in file order."""

    title: str
    language: str
    clauses: dict[str, Clause]
    path: str = ""


def clause_url(game: str, clause_id: str) -> str:
    """Where the service serves a clause.

    >>> clause_url("raiders", "RAI-12")
    '/v1/games/raiders/rules/RAI-12'
    """
    return f"/v1/games/{game}/rules/{clause_id}"


def prefixes() -> dict[str, str]:
    """The clause-id prefix of each game served, as the game declares it.

    >>> prefixes()["raiders"]
    'RAI'
    """
    from service.games.registry import all_games

    return {game.id: game.clause_prefix for game in all_games()}


def clause_pattern() -> re.Pattern[str]:
    """Any clause id of a game served (``RAI-12``, ``KOZ-16a``).

    >>> clause_pattern().findall("see RAI-12 and KOZ-16a, not SHA-256")
    ['RAI-12', 'KOZ-16a']
    """
    return _pattern(tuple(sorted(prefixes().values())))


@lru_cache(maxsize=8)
def _pattern(known: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(map(re.escape, known)) + r")-\d+[a-z]?\b")


def game_of(clause_id: str) -> str | None:
    """The game a clause id belongs to, by its prefix.

    >>> game_of("KOZ-16a"), game_of("PEB-3")
    ('kozyablo', None)
    """
    prefix = clause_id.split("-", 1)[0]
    return next((g for g, p in prefixes().items() if p == prefix), None)


def plain(markdown: str) -> str:
    """One paragraph of markdown as plain text: emphasis, code and links unwrapped.

    >>> plain("**Ruling.** Option `short_game`: see [RAI-7](#rai-7), *not*\\n**this** `2*3`.")
    'Ruling. Option short_game: see RAI-7, not this 2*3.'
    """
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    parts = text.split("`")  # odd parts are code spans: kept as they are
    text = "".join(p if i % 2 else p.replace("**", "").replace("*", "")
                   for i, p in enumerate(parts))
    return " ".join(text.split())


def parse(text: str, path: str | os.PathLike[str] = "<string>", language: str = DEFAULT_LANGUAGE,
          prefix: str | None = None) -> Reference:
    """Parse one reference file; raise ``RulesFileError`` (file and line) if malformed.

    ``prefix`` (``RAI``) makes a clause id of another game an error.
    """
    if language not in RULING_MARKERS:
        raise RulesFileError(path, 0,
                             f"unknown language {language!r}; known: {', '.join(LANGUAGES)}")
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None or not lines[first].startswith("# "):
        raise RulesFileError(path, (first or 0) + 1, "the file must open with a '# ' title")
    title = lines[first][2:].strip()

    clauses: dict[str, Clause] = {}
    section = ""
    current: dict[str, Any] | None = None  # {id, title, line, body: [lines]}

    def close() -> None:
        if current is None:
            return
        clauses[current["id"]] = _clause(current, section_of_current, language, path)

    section_of_current = ""
    for number, line in enumerate(lines[first + 1:], start=first + 2):
        if line.startswith("# "):
            raise RulesFileError(path, number, "a second '# ' title; use '## ' for a section")
        if line.startswith("## "):
            close()
            current = None
            section = line[3:].strip()
            continue
        if line.startswith("###"):
            close()
            match = HEADING.match(line)
            if not match:
                raise RulesFileError(path, number, "a clause heading must read "
                                     "'### <ID> · <title>', e.g. '### RAI-1 · Two decks'")
            clause_id = match["id"]
            if prefix and not clause_id.startswith(prefix + "-"):
                raise RulesFileError(path, number, f"{clause_id} is not a {prefix}- clause")
            if clause_id in clauses:
                raise RulesFileError(path, number, f"{clause_id} again (first at line "
                                     f"{clauses[clause_id].line})")
            current = {"id": clause_id, "title": match["title"].strip(), "line": number, "body": []}
            section_of_current = section
            continue
        if current is not None:
            current["body"].append(line)
    close()
    if not clauses:
        raise RulesFileError(path, len(lines), "no clause ('### <ID> · <title>') in the file")
    return Reference(title=title, language=language, clauses=clauses, path=str(path))


def _clause(entry: dict[str, Any], section: str, language: str,
            path: str | os.PathLike[str]) -> Clause:
    body = "\n".join(entry["body"]).strip()
    if not body:
        raise RulesFileError(path, entry["line"], f"{entry['id']} has no text")
    first = re.split(r"\n\s*\n", body, maxsplit=1)[0]
    if first.lstrip().startswith((">", "#", "-", "*Why")):
        raise RulesFileError(path, entry["line"] + 1, f"{entry['id']}: the first paragraph "
                             "must be the clause's short text, not a quote or a list")
    marker = RULING_MARKERS[language]
    ruling = first.startswith(marker)
    if ruling:
        first = first[len(marker):]
    short = plain(first)
    if not short:
        raise RulesFileError(path, entry["line"] + 1, f"{entry['id']}: empty short text")
    title = _RULING_SUFFIX.sub("", entry["title"])
    if len(title) > MAX_TITLE:
        raise RulesFileError(path, entry["line"], f"{entry['id']}: title longer than "
                             f"{MAX_TITLE} characters")
    has_ruling = ruling or any(p.lstrip().startswith(marker) for p in re.split(r"\n\s*\n", body))
    return Clause(id=entry["id"], title=title, short=short, text=body, ruling=ruling,
                  section=section, has_ruling=has_ruling, line=entry["line"])


# ------------------------------------------------------------------ files
#: ``docs/rules/`` of the source tree this module sits in
SOURCE_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"


def search_path() -> list[Path]:
    """The directories searched for ``<game>.md``, in order."""
    dirs = [Path(os.environ[ENV_PATH])] if os.environ.get(ENV_PATH) else []
    return dirs + [SOURCE_DIR, Path(sys.prefix) / "share" / "referee" / "rules"]


def file_name(game: str, language: str) -> str:
    """The file of a game's reference in one language.

    >>> file_name("raiders", "en"), file_name("raiders", "ru")
    ('raiders.md', 'raiders.ru.md')
    """
    return f"{game}.md" if language == DEFAULT_LANGUAGE else f"{game}.{language}.md"


def find(game: str, language: str) -> Path | None:
    name = file_name(game, language)
    return next((d / name for d in search_path() if (d / name).is_file()), None)


def reference(game: str, language: str = DEFAULT_LANGUAGE) -> Reference:
    """The game's reference in that language, parsed once per process.

    Raises ``MissingReference`` if no file is found, ``RulesFileError`` if it
    is malformed.  (``clear_cache`` forgets what was read.)
    """
    return _reference(game, language, os.environ.get(ENV_PATH))


@lru_cache(maxsize=64)
def _reference(game: str, language: str, env_path: str | None) -> Reference:
    path = find(game, language)
    if path is None:
        raise MissingReference(f"no {file_name(game, language)} in "
                               + ", ".join(str(d) for d in search_path()))
    return parse(path.read_text(encoding="utf-8"), path, language, prefixes().get(game))


def clear_cache() -> None:
    _reference.cache_clear()


def available(game: str) -> bool:
    """Whether the game has a reference file (in the default language)."""
    return find(game, DEFAULT_LANGUAGE) is not None


def short_text(clause_id: str, language: str = DEFAULT_LANGUAGE) -> tuple[str, str] | None:
    """``(short text, url)`` of a clause, or ``None`` when no reference has it.

    Never raises: an error answer must not fail because of the reference.
    A language without its file falls back to the default language.
    """
    game = game_of(clause_id)
    if game is None:
        return None
    for lang in dict.fromkeys((language, DEFAULT_LANGUAGE)):
        try:
            found = reference(game, lang).clauses.get(clause_id)
        except (MissingReference, RulesFileError, OSError):
            continue
        if found is not None:
            return found.short, clause_url(game, clause_id)
    return None


def check_all(games: Iterable[str]) -> list[str]:
    """Parse every existing file of ``games``; the paths checked (raises on the first broken)."""
    checked = []
    for game in games:
        for language in LANGUAGES:
            path = find(game, language)
            if path is not None:
                reference(game, language)
                checked.append(str(path))
    return checked
