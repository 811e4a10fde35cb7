"""Rules versions: each game's semantic version and what changed at each step.

A game's rules have a **semantic version** (``MAJOR.MINOR.PATCH``) beside the id
a state carries (``rules_version``, e.g. ``raiders/2``).  The id names the major
version only: states, actions and events of one major version are read the same
way, so a minor or patch release never changes a state's ``rules_version``.

- **major**: a clause changes what is legal or what happens, or the meaning of a
  field of a state, an action or an event (a renamed or re-meant field, a new
  decision a player must answer, an event that now means something else).  The
  id changes (``raiders/1`` → ``raiders/2``); a state of the previous id is
  upgraded on read by a declared migration or refused naming the changed clauses.
- **minor**: something added that leaves every game of the previous version
  playing as it did (an option whose default keeps the old behaviour, a new
  optional event field).
- **patch**: wording, a clause's text or a cited clause id; no game plays
  differently.

Each game declares its history, oldest first, in ``Game.rules_history``; each
step lists the clauses it changed (``Change``), in English and Russian.
``GET /v1/games/{game}`` shows it (``rules_semver``, ``rules_versions``).  The
list is held by ``tests/versions``: the newest entry is the engine's
``rules_version``, versions only grow, and a step to a new id names at least
one changed clause.

>>> step = RulesVersion("demo/2", "2.0.0", (Change("DEM-1", "rule", "one", "один"),))
>>> step.describe(current=True)["changes"][0]["summary"]["ru"]
'один'
>>> parse_semver("2.10.0") > parse_semver("2.9.1")
True
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from service.games.objects import ActionObject, JsonObject

_SEMVER = re.compile(r"(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)")


def parse_semver(version: str) -> tuple[int, int, int]:
    """``"2.1.0"`` → ``(2, 1, 0)``; anything else raises ``ValueError``."""
    found = _SEMVER.fullmatch(version)
    if found is None:
        raise ValueError(f"not a semantic version (MAJOR.MINOR.PATCH): {version!r}")
    major, minor, patch = (int(part) for part in found.groups())
    return major, minor, patch


@dataclass(frozen=True)
class Change:
    """One clause (or wire element) a rules step changed, said in both languages.

    ``clause`` is a clause id of the rules reference (``RAI-6a``) where there is
    one; ``subject`` says what a client sees change: ``rule`` (what is legal or
    what happens), ``action <type>[.<field>]``, ``event <type>[.<field>]``,
    ``decision <kind>``, ``state <field>``."""

    clause: str | None
    subject: str
    en: str
    ru: str

    def describe(self) -> JsonObject:
        return {"clause": self.clause, "subject": self.subject,
                "summary": {"en": self.en, "ru": self.ru}}


class NotUpgradable(Exception):  # noqa: N818 (what a migration says, not an error of ours)
    """Raised by a migration for a state it cannot carry over honestly: one in the middle
    of a clause that changed.  ``clauses``: those clauses; ``reason``: one sentence (an
    ``N_`` message)."""

    def __init__(self, clauses: Sequence[str], reason: str):
        super().__init__(f"{', '.join(clauses)}: {reason}")
        self.clauses, self.reason = list(clauses), reason


#: a migration: a state of the previous version → the same position under this version's
#: rules (a new dict; ``rules_version`` is set by the caller), or ``NotUpgradable``
Upgrade = Callable[[JsonObject], JsonObject]
#: a replay's migration: (the state under this version's rules, an action recorded under
#: the previous one) → the actions to apply for it (the same one, reworded, or with a new
#: decision's answer before it)
UpgradeAction = Callable[[Mapping[str, Any], ActionObject], list[ActionObject]]


@dataclass(frozen=True)
class RulesVersion:
    """One version of a game's rules: the id states carry, its semantic version, the
    changes from the version before it (empty for the first), and ``upgrade``, the
    declared migration of a state of that previous version (``None``: not upgraded; a
    state of it is refused naming ``changes``' clauses)."""

    id: str
    version: str
    changes: tuple[Change, ...] = ()
    upgrade: Upgrade | None = field(default=None, compare=False, repr=False)
    upgrade_action: UpgradeAction | None = field(default=None, compare=False, repr=False)
    #: the state fields this step added (``responder``, ``players[].out``): a state of an
    #: older version has none, so while one is served the typed state does not require them
    added_state_fields: tuple[str, ...] = ()
    #: card-set hashes the states of the version before carry where this step changed the
    #: set (hash → set id; ``upgrade`` gives them today's): the typed state takes them too
    previous_card_set_hashes: Mapping[str, str] = field(default_factory=dict, compare=False,
                                                        repr=False)

    def __post_init__(self) -> None:
        parse_semver(self.version)

    @property
    def clauses(self) -> list[str]:
        """The clause ids this step changed, each once, in order."""
        return list(dict.fromkeys(c.clause for c in self.changes if c.clause))

    def describe(self, *, current: bool, served: bool | None = None) -> JsonObject:
        return {"id": self.id, "version": self.version, "current": current,
                "served": current if served is None else served,
                "changes": [c.describe() for c in self.changes]}
