"""Every level-2 and level-3 reference answer (NPUKernelBench sample under ../shared, and the built-in suite) passes
every one of its cases in the simulator."""
from __future__ import annotations

import pytest

from kernelgen.bench.model import Verdict

from .conftest import BUILTIN_TASKS, DATA_TASKS, FIXTURE_TASKS, answer_files, level_tasks, load

TASKS = ([("fixture", p) for p in level_tasks(FIXTURE_TASKS)] + [("builtin", p) for p in level_tasks(BUILTIN_TASKS)] +
         [("data", p) for p in level_tasks(DATA_TASKS)])


def test_both_suites_have_level_2_and_3_tasks():
    assert any(p.parent.parent.name == "level3" for s, p in TASKS if s == "builtin")
    assert any(p.parent.parent.name == "level2" for s, p in TASKS if s == "builtin")




def _fixture_params():
    for s, p in TASKS:
        if s != "fixture":
            continue
        yield pytest.param(p, id=f"{p.parent.parent.name}/{p.name}")


@pytest.mark.slow
@pytest.mark.skipif(not FIXTURE_TASKS.is_dir(), reason="../shared NPUKernelBench sample not present")
@pytest.mark.parametrize("path", list(_fixture_params()))
def test_fixture_answer_passes(runner, path):
    _check(runner, path)


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for s, p in TASKS if s == "builtin"], ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_builtin_answer_passes(runner, path):
    _check(runner, path)


def _check(runner, path):
    task = load(path)
    res, rt = runner.build(task, answer_files(task))
    assert res.ok, f"{task.task_id}: reference answer failed to build:\n{res.log[-4000:]}"
    results = runner.run(task, rt)
    bad = [f"case {cid}: {r.verdict.value}: {r.message[:600]}" for cid, r in sorted(results.items()) if r.verdict != Verdict.OK]
    assert not bad, f"{task.task_id}:\n" + "\n".join(bad)


@pytest.mark.slow
@pytest.mark.parametrize("path", [p for s, p in TASKS if s == "data"], ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_mixed_kernel_task_passes(runner, path):
    """tests/sim_l23/data: a 1 AIC + 2 AIV kernel handing tiles over through cross-core flags."""
    _check(runner, path)
