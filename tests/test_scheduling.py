"""``tests/scheduling.py`` hands every collected test out exactly once.

The failure this guards against is silent: ``--dist loadfile`` keyed tests by node id
and ran one of the 63 schemathesis tests that share one, and the run still passed.
Here fake workers take what the scheduler sends, finish it test by test, and one
dies with tests in hand; every index must be run once, whole modules must stay on
one worker, and the schemathesis tests must all be sent, last.  With a worker more
than cores, the last one runs the ``WAITING`` modules and nothing else.
"""

from __future__ import annotations

import pathlib
import random
import types
from typing import cast

import pytest

from tests import scheduling
from tests.scheduling import SPREAD, WAITING, ModuleScheduling, units_of


class FakeNode:
    def __init__(self, name: str) -> None:
        self.gateway = types.SimpleNamespace(id=name)
        self.shutting_down = False
        self.received: list[int] = []

    def send_runtest_some(self, indices) -> None:
        assert not self.shutting_down, "tests sent after shutdown"
        self.received.extend(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def collection() -> list[str]:
    tests = [f"tests/a.py::t{i}" for i in range(5)] + [f"{SPREAD[0]}::test_every_operation_conforms"] * 63
    tests += [f"tests/b.py::t{i}" for i in range(7)] + ["service/x.py::service.x.f"]
    tests += [f"{WAITING[0]}::w{i}" for i in range(3)] + [f"{WAITING[-1]}::w{i}" for i in range(2)]
    return tests


class FakeConfig:
    def __init__(self, workers: int = 2) -> None:
        self.options = {"tx": [f"{workers}*popen"], "maxschedchunk": None, "dist": "load"}

    def getvalue(self, name: str):
        return self.options[name]

    getoption = getvalue


def fake_config(workers: int = 2) -> pytest.Config:
    # the two options the scheduler reads stand in for a whole pytest configuration
    return cast(pytest.Config, FakeConfig(workers))


def run(seed: int, kill: bool, workers: int = 2) -> dict[str, list[int]]:
    """Play a scheduled run to its end, ``workers`` finishing tests in a random interleaving
    (``kill``: one dies with tests in hand and a new one joins); what each one ran."""
    sched = ModuleScheduling(fake_config(workers),
                             log=types.SimpleNamespace(loadsched=lambda *a: None))
    for node in [FakeNode(f"gw{n}") for n in range(workers)]:
        sched.add_node(node)
        sched.add_node_collection(node, collection())
    sched.schedule()
    rng, killed = random.Random(seed), False
    ran: dict[str, list[int]] = {f"gw{n}": [] for n in range(workers + 1)}
    while sched.has_pending:
        node = rng.choice([n for n in sched.nodes if sched.node2pending[n]])
        index = sched.node2pending[node][0]
        ran[node.gateway.id].append(index)
        if kill and not killed and len(ran[node.gateway.id]) >= 3:
            killed = True
            assert sched.remove_node(node) == collection()[index]  # the test it died in
            spare = FakeNode(f"gw{workers}")
            sched.add_node(spare)
            sched.check_schedule(spare)
            continue
        sched.mark_test_complete(node, index)
    assert sched.tests_finished and (killed or not kill)
    return ran


@pytest.fixture(autouse=True)
def two_cores(monkeypatch):
    monkeypatch.setattr(scheduling, "cores", lambda: 2)


def modules_of(indices: list[int]) -> set[str]:
    return {collection()[i].split("::")[0] for i in indices}


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("workers", [2, 3])
def test_every_test_is_run_once_and_a_module_stays_on_one_worker(seed, workers):
    ran = run(seed, kill=False, workers=workers)
    every = sorted(i for indices in ran.values() for i in indices)
    assert every == list(range(len(collection())))
    for module in ("tests/a.py", "tests/b.py", WAITING[0], WAITING[-1]):
        holders = {w for w, indices in ran.items()
                   if any(collection()[i].startswith(module) for i in indices)}
        assert len(holders) == 1, (module, holders)


@pytest.mark.parametrize("seed", range(5))
def test_the_worker_beyond_the_cores_runs_the_waiting_modules_only(seed):
    ran = run(seed, kill=False, workers=3)
    assert modules_of(ran["gw2"]) == {WAITING[0], WAITING[-1]}
    assert not modules_of(ran["gw0"] + ran["gw1"]) & set(WAITING)


def test_without_a_worker_to_spare_the_waiting_modules_go_first():
    sched = ModuleScheduling(fake_config(), log=types.SimpleNamespace(loadsched=lambda *a: None))
    nodes = [FakeNode("gw0"), FakeNode("gw1")]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, collection())
    sched.schedule()
    assert [modules_of(node.received) for node in nodes] == [{WAITING[0]}, {WAITING[-1]}]


def test_the_spread_module_goes_test_by_test_after_the_others():
    units, waiting = units_of(collection())
    assert sorted(i for unit in waiting for i in unit) == [
        i for i, nodeid in enumerate(collection()) if nodeid.split("::")[0] in WAITING]
    spread = [i for i, nodeid in enumerate(collection()) if nodeid.startswith(SPREAD[0])]
    assert len(spread) == 63 and units[-63:] == [[i] for i in spread]
    assert sorted(i for unit in (*units, *waiting) for i in unit) == list(range(len(collection())))


@pytest.mark.parametrize("seed", range(5))
def test_a_worker_that_dies_gives_its_unrun_tests_back(seed):
    ran = run(seed, kill=True)
    assert sorted(i for indices in ran.values() for i in indices) == list(range(len(collection())))
    assert ran["gw2"], "the new worker got the dead one's tests or later ones"


def test_the_modules_named_exist():
    """A renamed module would silently leave the waiting worker idle and the spread whole."""
    repo = pathlib.Path(__file__).resolve().parents[1]
    assert [m for m in (*SPREAD, *WAITING) if not (repo / m).is_file()] == []
