"""NPUKernelBench fixture tasks through the real worker: their module.py imports torch_npu (CPU stand-in shim),
their checkers call framework.utils.check_precision (our re-implementation). The kernels are Python stand-ins
(test-only backend double)."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from kernelgen.bench.model import Verdict
from kernelgen.bench.sandbox import run_case
from kernelgen.bench.tasks import load_suite

from .helpers import FIXTURE_TASKS, PyStandInBackend, candidate, stand_in

pytestmark = pytest.mark.skipif(not FIXTURE_TASKS.is_dir(), reason=f"shared fixtures absent: {FIXTURE_TASKS}")

RUNS = [
    ("level2/Activation/Gelu", 1, stand_in("gelu", "torch.nn.functional.gelu(args[0])"), Verdict.OK),
    ("level2/Activation/Gelu", 0, stand_in("gelu", "torch.nn.functional.gelu(args[0]) * 1.05"), Verdict.VALUE_MISMATCH),
    ("level3/GMM/BasicMatmul", 1, stand_in("basic_matmul", "(args[0].float() @ args[1].float()).half()"), Verdict.OK),
    ("level1/Math/Sqrt", 0, stand_in("sqrt", "torch.sqrt(args[0])"), Verdict.OK),
]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    root = tmp_path_factory.mktemp("fx")
    tasks = load_suite(FIXTURE_TASKS).by_id()
    be = PyStandInBackend()

    def one(i):
        task_id, case_id, body, _ = RUNS[i]
        t = tasks[task_id]
        ws = be.prepare(t, candidate(t, 0, body), root / str(i))
        case = next(c for c in t.cases if c.case_id == case_id)
        return run_case(t, case, be.runtime_env(ws), seed=1, timeout_s=120, memory_mib=2048, scratch=root / f"s{i}")

    with ThreadPoolExecutor(max_workers=4) as pool:
        return list(pool.map(one, range(len(RUNS))))


@pytest.mark.parametrize("i", range(len(RUNS)))
def test_fixture_case(results, i):
    task_id, case_id, _, verdict = RUNS[i]
    assert results[i].verdict == verdict, (task_id, results[i].message, results[i].diagnostics[-3:])
