"""Every recipe in README.md and docs/*.md, run against a live server (issues 14, 36).

A walk-through is a ```console block preceded by an HTML comment naming it::

    <!-- walkthrough: raiders-capture -->
    ```console
    $ echo '{"players": 2, "seed": 15}' | post new > game.json
    $ show 'd["state"]["pending"]' < game.json
    [{"player": 0, "decision": "turn"}]
    ```

The format:

- A line starting with ``$ `` is a command; a command line ending with ``\\``
  continues on the next line (verbatim, as in a shell).  Every other line is
  output: what the command before it prints (stdout and stderr), exactly.
- Blocks with the same name, in one file, are one session: they run in order
  in one ``bash`` process (variables and functions carry over), in a fresh
  temporary directory (files such as ``game.json`` stay between blocks).
- ``http://127.0.0.1:8000`` in a command (or a file block) is replaced by the
  test server's base URL, which is also exported as ``$REFEREE_URL`` (what the
  README tells a reader to export: every recipe names the service by it) and
  ``$BASE``.
- ``<!-- walkthrough: NAME (in a checkout) -->`` runs the session as a reader
  does in this checkout after ``make venv`` and ``npm ci`` (the README's
  client recipes): its temporary directory is a git repository with the
  checkout's ``.gitignore`` and a link to each of its other top-level entries
  (``openapi.yaml``, ``.venv``, ``node_modules``, ``tests``…), so what the
  commands write lands in the temporary directory while tools that read git's
  ignore rules (poetry-core building a wheel) see what they would see here.
- ``<!-- walkthrough: NAME (in a copy) -->`` runs it in a copy of the checkout's
  files (tracked and not ignored, committed in a fresh git repository; links to
  ``.venv`` and ``node_modules``): for a recipe that rewrites files of the
  checkout (``make openapi``, ``pybabel update``), which then must leave
  ``git status`` as the docs say.
- ``<!-- walkthrough: NAME file: PATH -->`` before any fenced block (a ```ts
  one, say) writes the block's text to ``PATH`` in the session's directory
  before its first command: code a recipe compiles or runs, shown as code.
- A marker and its block may be indented alike (a recipe inside a list item).
- Placeholders in the expected output, for values that legitimately vary:
  ``…`` inside a line matches any run of characters on that line (request
  ids, evaluation ids, timestamps); a line that is only ``…`` matches any
  number of whole lines (zero included).  Nothing else is loose: a changed
  word, number or line fails the test.

**Every shell block is run.**  A ```console, ```sh, ```bash or ```shell block
of README.md and docs/*.md is a walk-through, or it carries, on the line
before, ``<!-- not run: REASON -->``: the few that cannot run in the suite (a
server in the foreground, minutes of CPU), each saying why and what runs
instead.  ``test_every_shell_block_runs_or_says_why`` holds both, and that the
marked ones stay few (``MOST_NOT_RUN``).

The server is the Procfile's ``web`` command (gunicorn) on a free loopback
port, with no ``REDIS_URL`` (evaluations run embedded, with a private store)
and none of the ``REFEREE_*`` options set, so the answers are the defaults'.

``python -m tests.docs.test_walkthroughs [--write] [--base=URL] FILE…`` runs
the walk-throughs of the given files (against a server of its own, or the one
at ``URL``) and prints the actual output of the steps that differ; with
``--write`` it rewrites their expected output in place (placeholders are lost:
put them back by hand).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
DOC_ADDRESS = "http://127.0.0.1:8000"
MARK = re.compile(r"^<!--\s*walkthrough:\s*([\w.-]+)"
                  r"(?:\s+\((in a checkout|in a copy)\)|\s+file:\s*(\S+))?\s*-->\s*$")
#: the marker of a shell block the suite does not run, with its reason
NOT_RUN = re.compile(r"^<!--\s*not run:\s*(.*?)\s*-->\s*$")
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
#: the fenced blocks that are shell: each a walk-through or marked NOT_RUN
SHELL = {"console", "sh", "bash", "shell"}
#: at most this many shell blocks of the docs are marked not run
MOST_NOT_RUN = 4
ANY = "…"
STEP_MARK = "@@walkthrough-step-{}@@"
SECONDS = 300
#: ``python3`` in a walk-through is the interpreter the suite runs on (its base, not
#: the venv): a version manager's shim first on ``PATH`` (pyenv's) resolves to the same
#: interpreter but costs 0.2 s a call, and the walk-throughs call it about 70 times
PYTHON_FIRST = [d for d in [str(Path(sys.base_prefix) / "bin")]
                if (Path(d) / "python3").exists()]


@dataclass
class Step:
    command: str            # the command as written (continuation lines included)
    expected: list[str]     # the printed output, line by line
    line: int               # 1-based line of the command in its file


@dataclass
class Walkthrough:
    path: Path
    name: str
    steps: list[Step] = field(default_factory=list)
    blocks: list[tuple[int, int]] = field(default_factory=list)  # (first, last) body line indexes
    checkout: bool = False  # run in a stand-in of the checkout (the module docstring)
    copy: bool = False      # run in a copy of the checkout's files
    files: dict[str, str] = field(default_factory=dict)  # file blocks: path → text
    indents: dict[int, int] = field(default_factory=dict)  # a block's first line → its indent
    file_blocks: set[int] = field(default_factory=set)  # first lines of the file blocks

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(REPO)}::{self.name}"


def doc_files() -> list[Path]:
    return [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def parse(path: Path) -> list[Walkthrough]:
    """The walk-throughs of one markdown file, in order of first appearance.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp(), "x.md")
    >>> _ = p.write_text("<!-- walkthrough: w -->\\n```console\\n$ echo a \\\\\\n  b\\na b\\n$ true\\n```\\n")
    >>> [(s.command, s.expected) for s in parse(p)[0].steps]
    [('echo a \\\\\\n  b', ['a b']), ('true', [])]
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    found: dict[str, Walkthrough] = {}
    i = 0
    while i < len(lines):
        mark = MARK.match(lines[i].strip())
        if not mark:
            i += 1
            continue
        name, mode, file = mark.groups()
        indent = len(lines[i]) - len(lines[i].lstrip())
        fence = FENCE.match(lines[i + 1]) if i + 1 < len(lines) else None
        if not fence or len(fence.group(1)) != indent or (not file and fence.group(2) != "console"):
            raise ValueError(f"{path}:{i + 1}: walkthrough {name!r} must be followed by "
                             f"{'a fenced block' if file else '```console'} at its indent")
        walk = found.setdefault(name, Walkthrough(path, name))
        walk.checkout = walk.checkout or mode == "in a checkout"
        walk.copy = walk.copy or mode == "in a copy"
        j = i + 2
        first = j
        body: list[str] = []
        while j < len(lines) and lines[j].strip() != "```":
            body.append(lines[j][indent:])
            j += 1
        if j >= len(lines):
            raise ValueError(f"{path}:{i + 1}: walkthrough {name!r} is not closed")
        walk.blocks.append((first, j))
        walk.indents[first] = indent
        i = j + 1
        if file:
            walk.files[file] = "\n".join(body) + "\n"
            walk.file_blocks.add(first)
            continue
        k = 0
        while k < len(body):
            line = body[k]
            if line.startswith("$ "):
                command, start = [line[2:]], k
                while command[-1].endswith("\\") and k + 1 < len(body):
                    k += 1
                    command.append(body[k])
                walk.steps.append(Step("\n".join(command), [], first + start + 1))
            else:
                if not walk.steps:
                    raise ValueError(f"{path}:{first + k + 1}: output before any command in {name!r}")
                walk.steps[-1].expected.append(line)
            k += 1
    return list(found.values())


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether ``actual`` lines match ``expected`` with its ``…`` placeholders.

    >>> matches(["a", "id …", "z"], ["a", "id 42", "z"])
    True
    >>> matches(["a", "…", "z"], ["a", "b", "c", "z"]), matches(["a", "…"], ["a"])
    (True, True)
    >>> matches(["a", "b"], ["a", "c"]), matches(["a"], ["a", "b"])
    (False, False)
    """
    def line_ok(pattern: str, text: str) -> bool:
        if ANY not in pattern:
            return pattern == text
        regex = ".*".join(re.escape(part) for part in pattern.split(ANY))
        return re.fullmatch(regex, text, re.DOTALL) is not None

    memo: dict[tuple[int, int], bool] = {}

    def at(e: int, a: int) -> bool:
        if (e, a) not in memo:
            if e == len(expected):
                ok = a == len(actual)
            elif expected[e] == ANY:
                ok = at(e + 1, a) or (a < len(actual) and at(e, a + 1))
            else:
                ok = a < len(actual) and line_ok(expected[e], actual[a]) and at(e + 1, a + 1)
            memo[e, a] = ok
        return memo[e, a]

    return at(0, 0)


def as_checkout(workdir: Path) -> None:
    """Make ``workdir`` stand in for this checkout: a git repository with its ``.gitignore``
    (copied: git ignores a linked one) and a link to each other top-level entry."""
    subprocess.run(["git", "init", "-q", str(workdir)], check=True, capture_output=True)
    for entry in REPO.iterdir():
        if entry.name == ".git" or (workdir / entry.name).exists():
            continue
        if entry.name == ".gitignore":
            (workdir / entry.name).write_bytes(entry.read_bytes())
        else:
            (workdir / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())


def as_copy(workdir: Path) -> None:
    """Copy the checkout's files (tracked, or new and not ignored; as they are now, times
    kept, so make sees its stamps current) into ``workdir``, commit them in a new git
    repository and link ``.venv`` and ``node_modules``: what a recipe rewrites is a diff."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=REPO, check=True, capture_output=True).stdout
    for name in filter(None, listed.split(b"\0")):
        source = REPO / os.fsdecode(name)
        if source.is_file() and not source.is_symlink():  # a file deleted here is not listed
            (workdir / os.fsdecode(name)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, workdir / os.fsdecode(name))
    git = ["git", "-c", "user.name=walkthrough", "-c", "user.email=walkthrough@localhost"]
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the checkout"]):
        subprocess.run([*git, *command], cwd=workdir, check=True, capture_output=True)
    for link in (".venv", "node_modules"):  # links: .gitignore's "name/" misses them
        if (REPO / link).exists():
            (workdir / link).symlink_to(REPO / link, target_is_directory=True)
            with open(workdir / ".git" / "info" / "exclude", "a") as exclude:
                exclude.write(f"/{link}\n")


def run(walk: Walkthrough, base: str, workdir: Path) -> list[list[str]]:
    """Run every step of ``walk`` in one bash process; each step's output lines."""
    if walk.checkout:
        as_checkout(workdir)
    if walk.copy:
        as_copy(workdir)
    for name, text in walk.files.items():
        (workdir / name).parent.mkdir(parents=True, exist_ok=True)
        (workdir / name).write_text(text.replace(DOC_ADDRESS, base), encoding="utf-8")
    script = ["set +e", "exec 2>&1"]
    for n, step in enumerate(walk.steps):
        script.append(f"printf '\\n%s\\n' {STEP_MARK.format(n)}")  # also ends an unfinished line
        script.append(step.command.replace(DOC_ADDRESS, base))
    script.append(f"printf '\\n%s\\n' {STEP_MARK.format(len(walk.steps))}")
    # none of the service's settings, nor the make of `make test` (a make in a recipe
    # would print "Entering directory" as a sub-make)
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("REFEREE_", "MAKE")) and k not in ("REDIS_URL", "MFLAGS")}
    env["BASE"] = env["REFEREE_URL"] = base
    env["PATH"] = os.pathsep.join([*PYTHON_FIRST, env.get("PATH", "")])
    done = subprocess.run(["bash", "--noprofile", "--norc"], input="\n".join(script) + "\n",
                          cwd=workdir, env=env, capture_output=True, text=True,
                          timeout=SECONDS)
    outputs: list[list[str]] = []
    current: list[str] | None = None
    for line in done.stdout.splitlines():
        if re.fullmatch(STEP_MARK.format(r"\d+"), line):
            if current is not None:
                outputs.append(current)
            current = []
        elif current is not None:
            current.append(line)
    while len(outputs) < len(walk.steps):
        outputs.append(["(the script stopped before this step)", *done.stdout.splitlines()[-20:]])
    return [trim(o) for o in outputs]


def trim(lines: list[str]) -> list[str]:
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def live_server(tmp: Path):
    """The Procfile's gunicorn on a free loopback port, embedded evaluations; its base URL."""
    from bench import servers

    return servers.gunicorn(servers.SERVICE_APP, tmp / "gunicorn.log", {
        "REFEREE_EVALUATION_STORE": str(tmp / "evaluations.sqlite3"), "REFEREE_ACCESS_LOG": "0"})


def all_walkthroughs() -> list[Walkthrough]:
    return [w for path in doc_files() for w in parse(path)]


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[str]:
    with live_server(tmp_path_factory.mktemp("walkthrough_server")) as url:
        yield url


WALKTHROUGHS = all_walkthroughs()


@pytest.mark.parametrize("walk", WALKTHROUGHS, ids=[w.id for w in WALKTHROUGHS])
def test_walkthrough_prints_what_the_docs_say(walk: Walkthrough, server: str, tmp_path: Path):
    """Each command of the walk-through prints exactly its documented output."""
    outputs = run(walk, server, tmp_path)
    wrong = []
    for step, actual in zip(walk.steps, outputs):
        if not matches(trim(step.expected), actual):
            wrong.append(f"{walk.path.name}:{step.line}: $ {step.command}\n"
                         "--- documented\n" + "\n".join(step.expected) +
                         "\n--- printed now\n" + "\n".join(actual))
    assert not wrong, "\n\n".join(wrong)


def test_the_docs_have_walkthroughs_and_the_readme_one():
    """README.md has its short walk-through; every docs page that promises one has it."""
    names = {(w.path.name, w.name) for w in WALKTHROUGHS}
    files = {p for p, _ in names}
    for page in ("README.md", "raiders.md", "kozyablo.md", "tremble.md", "evaluations.md"):
        assert page in files, f"{page} has no marked walk-through"
    assert all(w.steps for w in WALKTHROUGHS)


@dataclass
class Block:
    path: Path
    line: int               # 1-based line of its opening fence
    lang: str
    text: list[str]
    before: str             # the line above the fence, stripped

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


def fenced_blocks(path: Path) -> list[Block]:
    """Every fenced block of a markdown file, indented ones included."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks, i = [], 0
    while i < len(lines):
        fence = FENCE.match(lines[i])
        if not fence:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        blocks.append(Block(path, i + 1, fence.group(2), lines[i + 1:j],
                            lines[i - 1].strip() if i else ""))
        i = j + 1
    return blocks


def test_every_shell_block_runs_or_says_why():
    """Each shell block of README.md and docs/*.md is a walk-through (run above), or is
    marked ``not run`` with its reason; those stay few; no untagged block hides a prompt."""
    unmarked, marked, odd = [], [], []
    for path in doc_files():
        for block in fenced_blocks(path):
            if block.lang not in SHELL:
                if block.lang == "" and any(line.lstrip().startswith("$ ") for line in block.text):
                    odd.append(f"{block.where}: a block of commands without a language")
                continue
            reason = NOT_RUN.match(block.before)
            if reason:
                marked.append((block.where, reason.group(1)))
            elif not MARK.match(block.before):
                unmarked.append(block.where)
    assert not unmarked, ("shell blocks neither run (<!-- walkthrough: … -->) nor marked "
                          f"<!-- not run: REASON -->: {unmarked}")
    assert not odd, odd
    assert 0 < len(marked) <= MOST_NOT_RUN, marked
    vague = [where for where, reason in marked if len(reason.split()) < 6]
    assert not vague, f"a not-run mark must say why (and what runs instead): {vague}"


def test_the_docs_write_the_default_address_in_few_places():
    """Recipes name the service ``$REFEREE_URL``; the default port is written out only where
    it is the default (README's first line, the one ``export REFEREE_URL``, its configuration;
    operations.md's table), in code a generated client is given (clients.md, twice), the
    console's link and example (console.md) and a raw ``nc`` (operations.md): 9 (19 before)."""
    found = [f"{path.relative_to(REPO)}:{n}" for path in doc_files()
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\b8000\b", line)]
    assert len(found) <= 9, found


def test_a_stale_line_fails():
    """The comparison is exact: one changed output line of a real walk-through fails it."""
    walk = next(w for w in WALKTHROUGHS if any(s.expected for s in w.steps))
    step = next(s for s in walk.steps if s.expected)
    stale = step.expected[:-1] + [step.expected[-1] + " (stale)"]
    assert matches(step.expected, step.expected)
    assert not matches(stale, step.expected)


#: how the README names the variable parts of the app's routes
ROUTE_PARTS = {"game_id": "game", "clause_id": "clause", "eval_id": "id", "slug": "slug", "name": "name"}


def readme_route(rule: str) -> str:
    """``/v1/games/<game_id>/rules/<clause_id>`` → ``/v1/games/{game}/rules/{clause}``.

    >>> readme_route("/v1/evaluations/<evaluation_id:eval_id>")
    '/v1/evaluations/{id}'
    """
    return re.sub(r"<(?:[^:>]+:)?([^>]+)>", lambda m: "{" + ROUTE_PARTS[m.group(1)] + "}", rule)


def test_the_readme_lists_every_route():
    """The README's API table names every method and path the app serves (its url_map)."""
    from service.app import create_app

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    missing = [f"{method} {readme_route(rule.rule)}"
               for rule in create_app({"TESTING": True}).url_map.iter_rules()
               for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})
               if f"`{method} {readme_route(rule.rule)}`" not in readme
               and rule.endpoint != "static"]
    assert not missing, f"routes missing from the README's API table: {missing}"


def test_the_readme_is_short_and_starts_with_the_two_commands():
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, f"README.md has {len(lines)} lines (at most 200)"
    assert lines[:4] == ["```", "make run     # the service under gunicorn on http://127.0.0.1:8000 "
                         "(PORT=… to change)", "make test    # the whole test suite (starts its own "
                         "redis-server)", "```"]


LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_the_docs_point_only_inside_the_repository():
    """No path outside the checkout (``../shared``, the rule-coverage tool); every relative
    link of README.md and docs/*.md names a file or directory that exists."""
    broken = []
    for path in doc_files():
        text = path.read_text(encoding="utf-8")
        for word in ("../shared", "shared/rules", "rule-coverage"):
            if word in text:
                broken.append(f"{path.name}: mentions {word}")
        for target in LINK.findall(text):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            where = (path.parent / target.split("#")[0]).resolve()
            if not where.is_relative_to(REPO) or not where.exists():
                broken.append(f"{path.name}: link {target}")
    assert not broken, broken


def _rewrite(walk: Walkthrough, outputs: list[list[str]]) -> None:
    """Replace the expected output of ``walk``'s steps in its file by ``outputs``."""
    walk = next(w for w in parse(walk.path) if w.name == walk.name)  # lines may have moved
    lines = walk.path.read_text(encoding="utf-8").splitlines()
    by_line = {step.line: out for step, out in zip(walk.steps, outputs)}
    new: list[str] = []
    i = 0
    indent = {k: walk.indents[first] for first, last in walk.blocks
              if first not in walk.file_blocks for k in range(first, last)}
    inside = set(indent)
    while i < len(lines):
        if i in inside and lines[i][indent[i]:].startswith("$ "):
            new.append(lines[i])
            out = by_line.get(i + 1)
            while lines[i].endswith("\\"):
                i += 1
                new.append(lines[i])
            i += 1
            while i in inside and not lines[i][indent[i]:].startswith("$ "):
                i += 1
            new.extend(" " * indent[i - 1] + line if line else line for line in out or [])
            continue
        new.append(lines[i])
        i += 1
    walk.path.write_text("\n".join(new) + "\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    write = "--write" in argv
    base = next((a.split("=", 1)[1] for a in argv if a.startswith("--base=")), None)
    paths = [Path(a).resolve() for a in argv if not a.startswith("--")] or doc_files()
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        with (nullcontext(base) if base else live_server(Path(tmp))) as url:
            for path in paths:
                for walk in parse(path):
                    work = Path(tempfile.mkdtemp(dir=tmp))
                    outputs = run(walk, url, work)
                    for step, actual in zip(walk.steps, outputs):
                        ok = matches(trim(step.expected), actual)
                        failed += not ok
                        print(f"{'ok ' if ok else 'NEW'} {path.name}:{step.line}: $ {step.command}")
                        if not ok:
                            print("\n".join("    " + line for line in actual))
                    if write:
                        _rewrite(walk, outputs)
    return 1 if failed and not write else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
