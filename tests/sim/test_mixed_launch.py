"""Mixed AIC+AIV launches (tests/sim/data's MatmulRelu, 1 AIC + 2 AIV per AI core).

A launch runs one thread per simulated core (24 AI cores: 72). They must fit a case's memory limit whatever the host's
CPU count (glibc would give each its own 64 MiB malloc arena, up to 8 per CPU), and when they cannot start the verdict
says so at once instead of the case hanging until its timeout. A cross-core flag's counter takes at most 16 sets
(docs of CrossCoreSetFlag / CrossCoreWaitFlag): the 17th without a wait in between is an error."""
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


KERNEL = "op_kernel/matmul_relu.cpp"
PROCESS = "    __aicore__ inline void Process()\n    {\n"


@pytest.mark.parametrize("sets, expect", [(16, Verdict.OK), (17, Verdict.RUNTIME_ERROR)])
def test_cross_core_flag_counter_takes_16_sets(runner, sets, expect):
    task = load(TASK)
    files = answer_files(task)
    assert PROCESS in files[KERNEL]
    # before its work the AIC raises a spare flag `sets` times; the AIVs (they run first) wait for it as often
    extra = (f"        if ASCEND_IS_AIC {{ for (int i = 0; i < {sets}; ++i) CrossCoreSetFlag<2, PIPE_FIX>(5); }}\n"
             f"        if ASCEND_IS_AIV {{ for (int i = 0; i < {sets}; ++i) CrossCoreWaitFlag(5); }}\n")
    files[KERNEL] = files[KERNEL].replace(PROCESS, PROCESS + extra)
    res, rt = runner.build(task, files, tag=f"flag-sets-{sets}")
    assert res.ok, res.log[-3000:]
    r = runner.run(task, rt, [0])[0]
    assert r.verdict == expect, (r.verdict, r.message[-600:])
    if expect != Verdict.OK:
        assert "cross-core flag counter overflow" in r.message, r.message[-600:]
