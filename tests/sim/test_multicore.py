"""The multi-core runner: SyncAll orders cross-core GM traffic, a SyncAll that not every core reaches is reported
as the hardware's hang, and SyncAll with more blocks than physical cores (waves) is rejected; a SyncAll under
`#ifndef __CCE_KT_TEST__` runs (kernels compile as NPU code).
Uses a small test-only task (tests/sim/data/level1/Sync/SyncRoll) written for this purpose."""
import pytest

from kernelgen.bench.model import Verdict

from .conftest import REPO, answer_files, load

TASK = REPO / "tests" / "sim" / "data" / "level1" / "Sync" / "SyncRoll"


@pytest.fixture(scope="module")
def outcomes(runner):
    task = load(TASK)
    res, rt = runner.build(task, answer_files(task))
    assert res.ok, res.log[-3000:]
    return runner.run(task, rt)


@pytest.mark.slow
def test_syncall_orders_cross_core_traffic(outcomes):
    assert outcomes[0].verdict == Verdict.OK, outcomes[0].message
    assert outcomes[1].verdict == Verdict.OK, outcomes[1].message


@pytest.mark.slow
def test_syncall_beyond_physical_cores_is_a_hang(outcomes):
    r = outcomes[2]
    assert r.verdict == Verdict.RUNTIME_ERROR, r.message
    assert "physical cores" in r.message


@pytest.mark.slow
def test_partial_syncall_is_a_deadlock(outcomes):
    r = outcomes[3]
    assert r.verdict == Verdict.RUNTIME_ERROR, r.message
    assert "deadlock" in r.message and "507014" in r.message


@pytest.mark.slow
def test_npu_only_syncall_is_compiled(outcomes):
    # kernels are built as NPU code (__CCE_KT_TEST__ undefined): a SyncAll kept out of CANN's CPU-debug build still
    # orders the cross-core traffic; compiled out, the zig-zag core order would read unpublished elements
    assert outcomes[4].verdict == Verdict.OK, outcomes[4].message
