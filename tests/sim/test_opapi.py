"""A candidate that ships its own aclnn L2/L0 host code (the opapi target of its CMakeLists.txt), built and judged by
the sim backend like any candidate: its aclnnXxx entry is the one the binding's EXEC_NPU_CMD reaches (as torch_npu
finds it by name), its launches run the build's own op, and host code cannot write a result on the host."""
from __future__ import annotations

import pytest

from kernelgen.bench.model import Verdict

from .conftest import BUILTIN_TASKS, answer_files, load

TASK = BUILTIN_TASKS / "level1" / "Math" / "Absolute"

L2 = r"""
#include "opdev/op_executor.h"
#include "opdev/make_op_executor.h"
#include "aclnn_kernels/contiguous.h"
#include "aclnn_kernels/cast.h"

namespace l0op {
OP_TYPE_REGISTER(Absolute);
static const aclTensor* Absolute(const aclTensor* x, aclOpExecutor* executor) {
    aclTensor* y = executor->AllocTensor(x->GetViewShape(), x->GetDataType());
    auto ret = ADD_TO_LAUNCHER_LIST_AICORE(Absolute, OP_INPUT(x), OP_OUTPUT(y));
    return ret == ACLNN_SUCCESS ? y : nullptr;
}
}  // namespace l0op

extern "C" aclnnStatus aclnnAbsoluteGetWorkspaceSize(const aclTensor* x, aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
    OP_CHECK_COMM_INPUT(workspaceSize, executor);
    auto unique = CREATE_EXECUTOR();
    auto xc = l0op::Contiguous(x, unique.get());
    auto y = l0op::Absolute(xc, unique.get());
    CHECK_RET(y != nullptr, ACLNN_ERR_INNER_NULLPTR);
    COPY_OUT
    *workspaceSize = unique->GetWorkspaceSize();
    unique.ReleaseTo(executor);
    return ACLNN_SUCCESS;
}

extern "C" aclnnStatus aclnnAbsolute(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream) {
    return CommonOpExecutorRun(workspace, workspaceSize, executor, stream);
}
"""
VIEW_COPY = "CHECK_RET(l0op::ViewCopy(y, out, unique.get()) != nullptr, ACLNN_ERR_INNER_NULLPTR);"
# what a model might learn to do: the result computed on the host, straight into the output's memory
HOST_WRITE = ("{ auto* o = static_cast<unsigned char*>(out->GetData()); for (int64_t i = 0; i < out->Numel(); ++i) o[i] = 0; }"
              "CHECK_RET(l0op::ViewCopy(y, out, unique.get()) != nullptr, ACLNN_ERR_INNER_NULLPTR);")


# the same through the simulator's own accessor: rejected before it builds (the device toolkit has no such thing)
INTERNAL_WRITE = ("{ auto* o = static_cast<unsigned char*>(ascsim::opapi::Access::data(out)); o[0] = 0; }"
                  "CHECK_RET(l0op::ViewCopy(y, out, unique.get()) != nullptr, ACLNN_ERR_INNER_NULLPTR);")


def _files(task, copy_out: str) -> dict[str, str]:
    files = answer_files(task)
    files["op_host/aclnn_absolute.cpp"] = L2.replace("COPY_OUT", copy_out)
    files["CMakeLists.txt"] += "\ntarget_sources(opapi PRIVATE\n    op_host/aclnn_absolute.cpp\n)\n"
    return files


def test_own_l2_must_launch_a_kernel_of_the_build(runner):
    """The toolkit's data-movement l0 ops run on the host: an L2 that makes its result with them alone (here a copy of
    the input, right wherever x >= 0) launches no kernel of the candidate's and must not pass."""
    task = load(TASK)
    files = _files(task, VIEW_COPY)
    files["op_host/aclnn_absolute.cpp"] = files["op_host/aclnn_absolute.cpp"].replace(
        "auto y = l0op::Absolute(xc, unique.get());", "auto y = xc;")
    res, rt = runner.build(task, files, tag="opapi-no-launch")
    assert res.ok, res.log[-3000:]
    results = runner.run(task, rt, [0, 1])
    assert all(r.verdict == Verdict.RUNTIME_ERROR and "launched none of the build's kernels" in r.message
               for r in results.values()), {c: (r.verdict, r.message[-400:]) for c, r in results.items()}


def test_own_l2_cannot_reach_the_host_memory_through_the_simulator(runner):
    task = load(TASK)
    res, _ = runner.build(task, _files(task, INTERNAL_WRITE), tag="opapi-internal")
    assert not res.ok and res.verdict == Verdict.COMPILE_ERROR and "simulator's internals" in res.log, res.log[-2000:]


@pytest.mark.parametrize("variant, expect_ok", [("view_copy", True), ("no_copy", False), ("host_write", False)])
def test_own_l2_entry_is_the_one_that_runs(runner, variant, expect_ok):
    task = load(TASK)
    copy_out = {"view_copy": VIEW_COPY, "no_copy": "", "host_write": HOST_WRITE}[variant]
    res, rt = runner.build(task, _files(task, copy_out), tag=f"opapi-{variant}")
    assert res.ok, res.log[-3000:]
    results = runner.run(task, rt, [0, 1, 2])
    verdicts = {cid: r.verdict for cid, r in results.items()}
    if expect_ok:
        assert set(verdicts.values()) == {Verdict.OK}, {c: r.message[-800:] for c, r in results.items()}
    elif variant == "no_copy":   # the result stays in the executor's tensor: the output is never written
        assert Verdict.OK not in verdicts.values(), verdicts
    else:                        # a device address dereferenced on the host faults
        assert all(v == Verdict.RUNTIME_ERROR for v in verdicts.values()), {c: (r.verdict, r.message[-400:]) for c, r in results.items()}
