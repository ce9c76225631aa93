"""Host-side compute through the tiling function (issue 15, class 6), against the real `sim` backend and judge.

The candidate keeps the built-in Absolute task's interface but moves all the work to the host: its tiling function
reads the input's data, computes |x| there and ships the answer in the tiling data; the kernel never reads x and
only copies the tiling bytes to y. It WOULD pass if the tiling function saw the input's data. On CANN it does not
(an input not declared data-dependent hands host code a tensor with shape and dtype but a null data address), and
neither does the simulator; declaring the device tensor `ValueDepend` does not help either (only host-side values
are data).
"""
from __future__ import annotations

import pytest

from kernelgen.bench.model import Candidate, Verdict
from kernelgen.bench.sandbox import run_case
from kernelgen.bench.tasks import load_suite

ABSOLUTE = next(t for t in load_suite("builtin").tasks if t.op_name == "Absolute")

TILING = r"""
#include <cstring>
#include "register/op_def_registry.h"

namespace optiling {
// The answer, computed on the host: |x| is x with its sign bit cleared. Layout: uint32 byte count, then the bytes.
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::Tensor* x = context->GetInputTensor(0);
    auto* raw = static_cast<uint8_t*>(context->GetRawTilingData()->GetData());
    uint32_t bytes = static_cast<uint32_t>(x->GetSize());
    if (bytes + 4 > context->GetRawTilingData()->GetCapacity()) return ge::GRAPH_FAILED;
    std::memcpy(raw, &bytes, 4);
    const uint8_t* data = x->GetData<uint8_t>();
    uint32_t width = x->GetDataType() == ge::DT_FLOAT ? 4 : 2;
    for (uint32_t i = 0; i < bytes; ++i) {
        uint8_t b = data ? data[i] : 0;                     // no data: the cheat has nothing to send
        raw[4 + i] = (i % width == width - 1) ? (b & 0x7F) : b;   // little endian: the sign is in the top byte
    }
    context->GetRawTilingData()->SetDataSize(4 + bytes);
    context->SetBlockDim(1);
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 0;
    return ge::GRAPH_SUCCESS;
}
} // namespace optiling

namespace ops {
class Absolute : public OpDef {
public:
    explicit Absolute(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED)VALUE_DEPEND
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Absolute);
} // namespace ops
"""

KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void absolute(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<uint8_t> answer;
    answer.SetGlobalBuffer((__gm__ uint8_t*)tiling, 65536);
    GlobalTensor<uint8_t> out;
    out.SetGlobalBuffer((__gm__ uint8_t*)y, 65536);
    uint32_t bytes = 0;
    for (uint32_t i = 0; i < 4; ++i) bytes |= uint32_t(answer.GetValue(i)) << (8 * i);
    for (uint32_t i = 0; i < bytes; ++i) out.SetValue(i, answer.GetValue(4 + i));
}
"""


def _candidate(value_depend: bool) -> Candidate:
    files = {k: p.read_text() for k, p in ((p.relative_to(ABSOLUTE.answer_dir).as_posix(), p)
                                            for p in ABSOLUTE.answer_dir.rglob("*") if p.is_file())
             if k == "CMakeLists.txt"}
    files["op_host/absolute.cpp"] = TILING.replace("VALUE_DEPEND", "\n            .ValueDepend(REQUIRED)" if value_depend else "")
    files["op_kernel/absolute.cpp"] = KERNEL
    return Candidate(task_id=ABSOLUTE.task_id, sample=0, files=files, origin="test:cheat")


@pytest.fixture(scope="module")
def sim():
    from kernelgen.bench.backends.sim import SimBackend
    backend = SimBackend()
    ok, why = backend.available()
    if not ok:
        pytest.skip(f"sim backend unavailable: {why}")
    return backend


@pytest.mark.slow
@pytest.mark.parametrize("value_depend", [False, True], ids=["plain-input", "device-tensor-declared-value-depend"])
def test_tiling_cannot_compute_the_answer_from_input_data(sim, tmp_path, value_depend):
    ws = sim.prepare(ABSOLUTE, _candidate(value_depend), tmp_path / "ws")
    res = sim.compile(ws, 900)
    assert res.ok, res.log[-2000:]          # it builds and runs: only the data it hoped for is missing
    rt = sim.runtime_env(ws)
    for case in ABSOLUTE.cases[:3]:
        r = run_case(ABSOLUTE, case, rt, seed=99, timeout_s=120, memory_mib=4096, scratch=tmp_path / "scratch")
        assert r.verdict != Verdict.OK, (case.case_id, r.verdict, r.message)
        assert r.verdict == Verdict.VALUE_MISMATCH, (case.case_id, r.verdict, r.message, r.diagnostics[-5:])
