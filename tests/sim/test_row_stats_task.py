"""The shape-driven high-level APIs and the pool / sync / debug APIs in a whole kernel (tests/sim/data's RowStats, our
own task): y = cumsum(x, -1) - mean(x, -1) with CumSum, ReduceMean<AR> and Broadcast on buffers carved from a TBufPool,
pipes synchronised with TQueSync, a printf on core 0, and a temporary buffer the host sizes with the APIs'
GetXxxMaxMinTmpSize functions. The APIs' semantics against their docs are checked in tests/sim/cpp/hl_shape_api_test.cpp
and pool_sync_debug_test.cpp; here they have to build (kernel symbol check included) and run as a kernel uses them."""
from kernelgen.bench.model import Verdict

from .conftest import DATA_TASKS, answer_files, load

TASK = DATA_TASKS / "level1" / "Reduce" / "RowStats"
KERNEL = "op_kernel/row_stats.cpp"


def test_a_kernel_built_on_the_shape_driven_apis_passes(runner):
    task = load(TASK)
    res, rt = runner.build(task, answer_files(task))
    assert res.ok, res.log[-3000:]
    results = runner.run(task, rt, [0, 1, 2])
    assert all(r.verdict == Verdict.OK for r in results.values()), {k: r.message[-400:] for k, r in results.items()}


def test_the_wrong_reduction_is_caught(runner):
    task = load(TASK)
    files = answer_files(task)
    files[KERNEL] = files[KERNEL].replace("ReduceMean<float, Pattern::Reduce::AR>", "ReduceSum<float, Pattern::Reduce::AR>")
    res, rt = runner.build(task, files, tag="sum-not-mean")
    assert res.ok, res.log[-3000:]
    r = runner.run(task, rt, [1])[1]
    assert r.verdict == Verdict.VALUE_MISMATCH, r.message[-600:]


def test_format_macros_reach_the_kernel(runner):
    """The build defines FORMAT_<ARG> from the OpDef's Format list (ND here): a kernel's `#if` on it takes the branch
    the device would, and FORMAT_FRACTAL_NZ is a different number."""
    task = load(TASK)
    files = answer_files(task)
    guard = ("#if FORMAT_X != FORMAT_ND || FORMAT_Y != FORMAT_ND || FORMAT_X == FORMAT_FRACTAL_NZ\n"
             "#error the OpDef declares x and y in ND\n#endif\n")
    files[KERNEL] = guard + files[KERNEL]
    res, rt = runner.build(task, files, tag="format-macros")
    assert res.ok, res.log[-3000:]
    files[KERNEL] = files[KERNEL].replace("FORMAT_X != FORMAT_ND ||", "FORMAT_X == FORMAT_ND ||", 1)
    res, _ = runner.build(task, files, tag="format-macros-wrong")
    assert not res.ok and "the OpDef declares x and y in ND" in res.log, res.log[-3000:]
