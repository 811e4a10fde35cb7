"""How ``make test`` shares the tests among its pytest-xdist workers (a plugin: ``-p``).

xdist's ``--dist load`` hands out tests one by one, so a module whose fixtures start
servers (gunicorn, Chromium, RQ workers, a generated client) starts them on every
worker that gets one of its tests.  ``--dist loadfile`` keeps a module on one worker,
but it keys tests by node id, and the in-process schemathesis tests of all operations
share one, so all but one of them would silently not run.

``ModuleScheduling`` hands out whole modules, by position in the collection (not by
node id), so nothing is lost; the modules in ``SPREAD`` — many independent tests and
no costly fixture — are handed out test by test after every other module, and fill
whichever worker is free at the end.  A worker that dies gives its unrun tests back,
first in line.

The modules in ``WAITING`` spend most of their time waiting on real processes (RQ
workers killed, paused or left without Redis, heartbeats lapsing, slow clients):
``-n auto`` starts one worker more than the machine has cores; that last worker takes
the ``WAITING`` modules while the others compute, and stops when they are done (one
more process computing on every core would only slow the others).  The computing
workers take whatever ``WAITING`` modules are left once their own run out.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from xdist.scheduler import LoadScheduling

#: modules handed out test by test, last (each test stands alone and costs seconds)
SPREAD = ("tests/hardening/test_schemathesis.py", "tests/parity/test_parity.py")
#: modules that mostly wait on real processes and timeouts (wall time 2-10 times their
#: CPU time): the extra worker's
WAITING = ("tests/evaluations/test_api.py", "tests/evaluations/test_embedded.py",
           "tests/evaluations/test_fanout.py", "tests/evaluations/test_redis_outage.py",
           "tests/evaluations/test_reliability.py", "tests/hardening/test_redis_stall.py",
           "tests/hardening/test_web_faults.py")


def units_of(collection: list[str]) -> tuple[list[list[int]], list[list[int]]]:
    """The collection's indices as units of work: one per module, in collection order,
    then one per test of the ``SPREAD`` modules; and apart, one per ``WAITING`` module.

    >>> units_of(["a.py::x", "a.py::y", SPREAD[0] + "::t", SPREAD[0] + "::t", "b.py::z",
    ...           WAITING[0] + "::w"])
    ([[0, 1], [4], [2], [3]], [[5]])
    """
    modules: dict[str, list[int]] = {}
    waiting: dict[str, list[int]] = {}
    spread: list[list[int]] = []
    for index, nodeid in enumerate(collection):
        module = nodeid.split("::", 1)[0]
        if module in SPREAD:
            spread.append([index])
        else:
            (waiting if module in WAITING else modules).setdefault(module, []).append(index)
    return [*modules.values(), *spread], list(waiting.values())


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0))


class ModuleScheduling(LoadScheduling):
    """``LoadScheduling`` with a module as the unit handed out (see the module)."""

    def __init__(self, config: pytest.Config, log: Any = None) -> None:
        super().__init__(config, log)
        self.units: list[list[int]] = []
        self.waiting: list[list[int]] = []

    def schedule(self) -> None:
        assert self.collection_is_completed
        if self.collection is None:
            if not self._check_nodes_have_same_collection():
                self.log("**Different tests collected, aborting run**")
                return
            self.collection = next(iter(self.node2collection.values()))
            self.units, self.waiting = units_of(self.collection)
            if self._waiter() is None:  # no worker to spare: they go first, like any module
                self.units[:0], self.waiting = self.waiting, []
            self._sync()
        for node in self.nodes:
            self.check_schedule(node)

    def _waiter(self) -> Any:
        """The worker for the ``WAITING`` modules: the last, when there are more than cores."""
        nodes = sorted(self.nodes, key=lambda node: int(node.gateway.id.removeprefix("gw")))
        return nodes[-1] if len(nodes) > cores() else None

    def check_schedule(self, node: Any, duration: float = 0) -> None:
        if node.shutting_down:
            return
        queues = (self.waiting,) if node is self._waiter() else (self.units, self.waiting)
        # a worker keeps two tests in hand: it runs one knowing the next (for teardown)
        while len(self.node2pending[node]) < 2 and (queue := next(filter(None, queues), None)):
            unit = queue.pop(0)
            self.node2pending[node].extend(unit)
            node.send_runtest_some(unit)
            self._sync()
        if not any(queues):
            node.shutdown()

    def mark_test_pending(self, item: str) -> None:
        assert self.collection is not None
        self.units.insert(0, [self.collection.index(item)])
        self._sync()
        for node in self.nodes:
            self.check_schedule(node)

    def remove_node(self, node: Any) -> str | None:
        pending = self.node2pending.pop(node)
        if not pending:
            return None
        assert self.collection is not None
        crashed = self.collection[pending.pop(0)]
        if pending:
            self.units.insert(0, pending)
            self._sync()
        for other in self.nodes:
            self.check_schedule(other)
        return crashed

    def _sync(self) -> None:
        """``pending`` (what the base class reports on) is what the units still hold."""
        self.pending[:] = [index for unit in (*self.units, *self.waiting) for index in unit]


@pytest.hookimpl(optionalhook=True)  # xdist's hooks: nothing to do without it
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: a worker per core, and one for the ``WAITING`` modules."""
    return cores() + 1


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> LoadScheduling | None:
    return ModuleScheduling(config, log) if config.getoption("dist") == "load" else None
