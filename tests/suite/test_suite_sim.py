"""Every reference answer of the built-in suite passes every one of its cases in the CPU simulator backend.

This is the end-to-end proof that the suite is solvable: host tiling, kernel and binding of each answer are
compiled by the `sim` backend and each case runs in the harness's sandboxed worker against the CPU reference.
Skipped, with the backend's own reason, only while `kernelgen.bench.backends.sim` cannot run here.
"""
from __future__ import annotations

import pytest

from kernelgen.bench.candidates import reference_candidates
from kernelgen.bench.model import Verdict
from kernelgen.bench.sandbox import run_case
from kernelgen.bench.tasks import load_suite

SUITE = load_suite("builtin")
TASKS = sorted(SUITE.tasks, key=lambda t: t.task_id)
CANDIDATES = {c.task_id: c for c in reference_candidates(TASKS)[0]}


@pytest.fixture(scope="module")
def sim_backend():
    from kernelgen.bench.backends import BackendUnavailable, get_backend

    try:
        backend = get_backend("sim")
    except BackendUnavailable as e:
        pytest.skip(f"sim backend unavailable: {e}")
    ok, why = backend.available()
    if not ok:
        pytest.skip(f"sim backend not available here: {why}")
    return backend


@pytest.mark.slow
@pytest.mark.parametrize("task", TASKS, ids=[t.task_id for t in TASKS])
def test_reference_answer_passes_every_case_in_the_simulator(task, sim_backend, tmp_path):
    cand = CANDIDATES[task.task_id]
    ws = sim_backend.prepare(task, cand, tmp_path / "build")
    built = sim_backend.compile(ws, timeout_s=600)
    assert built.ok, f"{task.task_id}: reference answer failed to build in the simulator:\n{built.log}"
    rt = sim_backend.runtime_env(ws)
    failures = []
    for case in task.cases:
        res = run_case(task, case, rt, seed=1000 + case.case_id, timeout_s=300, memory_mib=4096,
                       scratch=tmp_path / f"case{case.case_id}")
        if res.verdict != Verdict.OK:
            failures.append(f"case {case.case_id} {case.values}: {res.verdict.value}: {res.message} "
                            f"{' | '.join(res.diagnostics[-6:])}")
    assert not failures, f"{task.task_id}:\n" + "\n".join(failures)
