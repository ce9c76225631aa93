"""A launch runs one thread per simulated core (a mixed AIC+AIV launch of 24 AI cores: 72). They must fit a case's
memory limit whatever the host's CPU count (glibc would give each its own 64 MiB malloc arena, up to 8 per CPU), and
when they cannot start the verdict says so at once instead of the case hanging until its timeout."""
import pytest

from kernelgen.bench.model import Verdict

from .conftest import DATA_TASKS, Runner, answer_files, load

TASK = DATA_TASKS / "level3" / "Mix" / "MatmulRelu"
CASE = 2   # blockDim 24: 24 AIC + 48 AIV core threads


@pytest.mark.parametrize("memory_mib, expect", [(1024, Verdict.OK), (384, Verdict.MEMORY_EXCEEDED)])
def test_mixed_launch_core_threads_and_the_memory_limit(backend, tmp_path, memory_mib, expect):
    task = load(TASK)
    runner = Runner(backend, tmp_path, timeout_s=120, memory_mib=memory_mib)
    res, rt = runner.build(task, answer_files(task))
    assert res.ok, res.log[-3000:]
    r = runner.run(task, rt, [CASE])[CASE]
    assert r.verdict == expect, (r.verdict, r.message[-600:])
    if expect == Verdict.MEMORY_EXCEEDED:   # 72 stacks of 8 MiB cannot fit 384 MiB: reported, not hung
        assert "cannot start core thread" in r.message and r.seconds < 60, (r.seconds, r.message[-600:])
