"""The sort family of ascsim (sim/include/ascsim/kernel/vec_sort.h): the C++ driver tests/sim/cpp/sort_test.cpp
checks Sort32 / Sort / Concat / Extract / MrgSort (both shapes) / GetMrgSortResult / GetSortLen / GetSortOffset, TopK
(Normal and Small modes), the host tmp-size and TopK tiling helpers and the region-proposal APIs against std::sort
references, plus their strict checks; the dtype tables are compile-time errors, and the proposal APIs warn that
Atlas A2 does not support them."""
import shutil
import subprocess

import pytest

from .conftest import REPO, run_cpp_driver

SRC = REPO / "tests" / "sim" / "cpp" / "sort_test.cpp"
INCLUDE = REPO / "sim" / "include"


def test_sort_api_semantics():
    r = run_cpp_driver(SRC)
    # the proposal APIs run, with the documented-unsupported warning (one message per API kind)
    for api in ("RpSort16", "MrgSort4", "ProposalConcat", "ProposalExtract"):
        assert f"[ascsim] warning: {api}: documented as not supported on Atlas A2" in r.stderr
    assert "Sort32:" not in r.stderr and "MrgSort:" not in r.stderr   # the A2 APIs are not warned about


@pytest.mark.parametrize("call,api", [
    ("AscendC::Sort32(d, s, i, 1);", "Sort32"),
    ("AscendC::Sort<int32_t, true>(d, s, i, d, 1);", "Sort"),
    ("AscendC::Extract(d, i, s, 1);", "Extract"),
    ("uint16_t l[4] = {1, 1, 0, 0}; uint32_t n[4]; AscendC::MrgSortSrcList<int32_t> L(s, s, s, s);"
     " AscendC::MrgSort<int32_t>(d, L, l, n, 3, 1);", "MrgSort"),
    ("AscendC::RpSort16(d, s, 1);", "RpSort16"),
    ("(void)AscendC::GetSortLen<int32_t>(4);", "GetSortLen"),
    ("AscendC::tiling::TopkTiling t; AscendC::TopK<int32_t>(d, d, s, d, AscendC::LocalTensor<bool>(), 1, t,"
     " AscendC::TopKInfo{1, 32, 32});", "TopK"),
])
def test_sort_dtype_tables_are_compile_errors(tmp_path, call, api):
    cxx = shutil.which("g++")
    if cxx is None:
        pytest.skip("g++ not installed")
    src = tmp_path / "bad.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   "void f(AscendC::LocalTensor<int32_t>& d, AscendC::LocalTensor<int32_t>& s, "
                   "AscendC::LocalTensor<uint32_t>& i) { " + call + " }\n")
    r = subprocess.run([cxx, "-std=c++17", "-fsyntax-only", f"-I{INCLUDE}", str(src)], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode != 0
    assert f"Failed to check dtype in {api}," in r.stderr, r.stderr[-2000:]


# --- end to end: the built-in TopK task with two kernels of its own, one on the high-level TopK API (TopkTiling nested
# in the tiling data, TopKTilingFunc / GetTopKMaxMinTmpSize on the host) and one on Concat + Sort<T, true> + Extract.
# Rows hold distinct values, so values and indices must match torch.topk bit for bit.
_TILING_H = r'''
#ifndef TOP_K_TILING_H
#define TOP_K_TILING_H
#include "register/tilingdata_base.h"
#include "tiling/tiling_api.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(TopKTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, rows);
    TILING_DATA_FIELD_DEF(uint32_t, cols);
    TILING_DATA_FIELD_DEF(uint32_t, inner);
    TILING_DATA_FIELD_DEF(uint32_t, k);
    TILING_DATA_FIELD_DEF(uint32_t, bigCoreNum);
    TILING_DATA_FIELD_DEF(uint32_t, smallCoreRows);
    TILING_DATA_FIELD_DEF(uint32_t, tmpSize);
    TILING_DATA_FIELD_DEF_STRUCT(TopkTiling, topkTiling);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TopK, TopKTilingData)
}  // namespace optiling
#endif
'''

_TILING_FUNC = r'''
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    size_t rank = shape.GetDimNum();
    uint32_t cols = static_cast<uint32_t>(shape.GetDim(rank - 1));
    const int64_t* k = context->GetAttrs()->GetAttrPointer<int64_t>(0);
    uint32_t inner = (cols + 31) / 32 * 32;
    if (inner > 4096 || *k < 1 || *k > cols) return ge::GRAPH_FAILED;
    uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
    uint32_t usedCores = std::max<uint32_t>(1, std::min(platform.GetCoreNumAiv(), rows));
    TopKTilingData tiling;
    tiling.set_rows(rows);
    tiling.set_cols(cols);
    tiling.set_inner(inner);
    tiling.set_k(static_cast<uint32_t>(*k));
    tiling.set_bigCoreNum(rows % usedCores);
    tiling.set_smallCoreRows(rows / usedCores);
    uint32_t maxTmp = 0, minTmp = 0;
    if (!AscendC::GetTopKMaxMinTmpSize(platform, inner, 1, false, false, AscendC::TopKMode::TOPK_NORMAL, true, 4, maxTmp, minTmp) ||
        !AscendC::TopKTilingFunc(platform, inner, 1, static_cast<int32_t>(*k), 4, false, AscendC::TopKMode::TOPK_NORMAL, true,
                                 tiling.topkTiling))
        return ge::GRAPH_FAILED;
    uint32_t sortTmp = AscendC::GetSortTmpSize(platform, inner, 4);
    tiling.set_tmpSize(std::max(minTmp, sortTmp));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    context->SetBlockDim(usedCores);
    size_t* workspaces = context->GetWorkspaceSizes(1);
    workspaces[0] = 0;
    return ge::GRAPH_SUCCESS;
}
'''

_KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;

template <typename T>
class TopKKernel {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, GM_ADDR indices, const TopKTilingData& t)
    {
        uint32_t idx = static_cast<uint32_t>(GetBlockIdx());
        uint32_t rowBegin = idx * t.smallCoreRows + (idx < t.bigCoreNum ? idx : t.bigCoreNum);
        rowCount_ = t.smallCoreRows + (idx < t.bigCoreNum ? 1 : 0);
        cols_ = t.cols; inner_ = t.inner; k_ = t.k;
        topk_ = &t.topkTiling;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + static_cast<uint64_t>(rowBegin) * cols_);
        vGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(values) + static_cast<uint64_t>(rowBegin) * k_);
        iGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(indices) + static_cast<uint64_t>(rowBegin) * k_);
        pipe_.InitBuffer(inQue_, 1, inner_ * sizeof(T));
        pipe_.InitBuffer(vQue_, 1, inner_ * sizeof(T));
        pipe_.InitBuffer(iQue_, 1, inner_ * sizeof(int32_t));
        pipe_.InitBuffer(idxBuf_, inner_ * sizeof(int32_t));
        pipe_.InitBuffer(sortedBuf_, inner_ * 8);
        pipe_.InitBuffer(tmpBuf_, t.tmpSize);
    }
    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount_; ++r) {
            LocalTensor<T> x = inQue_.AllocTensor<T>();
            DataCopyPad(x, xGm_[static_cast<uint64_t>(r) * cols_], DataCopyExtParams{1, cols_ * (uint32_t)sizeof(T), 0, 0, 0},
                        DataCopyPadExtParams<T>{false, 0, 0, 0});
            inQue_.EnQue(x);
            x = inQue_.DeQue<T>();
            for (uint32_t i = cols_; i < inner_; ++i) x.SetValue(i, static_cast<T>(-INFINITY));
            LocalTensor<T> v = vQue_.AllocTensor<T>();
            LocalTensor<int32_t> ix = iQue_.AllocTensor<int32_t>();
            Select(v, ix, x);
            vQue_.EnQue(v); iQue_.EnQue(ix);
            inQue_.FreeTensor(x);
            v = vQue_.DeQue<T>(); ix = iQue_.DeQue<int32_t>();
            DataCopyPad(vGm_[static_cast<uint64_t>(r) * k_], v, DataCopyExtParams{1, k_ * (uint32_t)sizeof(T), 0, 0, 0});
            DataCopyPad(iGm_[static_cast<uint64_t>(r) * k_], ix, DataCopyExtParams{1, k_ * 4u, 0, 0, 0});
            vQue_.FreeTensor(v); iQue_.FreeTensor(ix);
        }
    }
private:
    __aicore__ inline void Select(LocalTensor<T>& v, LocalTensor<int32_t>& ix, LocalTensor<T>& x)
    {
#ifdef USE_TOPK_API
        LocalTensor<int32_t> srcIndex;
        LocalTensor<bool> finish;
        TopKInfo info{1, static_cast<int32_t>(inner_), static_cast<int32_t>(cols_)};
        TopK<T, false, false, false, TopKMode::TOPK_NORMAL>(v, ix, x, srcIndex, finish, tmpBuf_.Get<uint8_t>(),
                                                             static_cast<int32_t>(k_), *topk_, info, true);
#else
        LocalTensor<int32_t> idx = idxBuf_.Get<int32_t>();
        CreateVecIndex(idx, (int32_t)0, inner_);
        LocalTensor<T> tmp = tmpBuf_.Get<T>();
        LocalTensor<T> sorted = sortedBuf_.Get<T>(GetSortLen<T>(inner_));
        LocalTensor<T> concat;
        Concat(concat, x, tmp, inner_ / 16);
        LocalTensor<uint32_t> idxU = idx.ReinterpretCast<uint32_t>();
        Sort<T, true>(sorted, concat, idxU, tmp, inner_ / 32);
        LocalTensor<uint32_t> ixU = ix.ReinterpretCast<uint32_t>();
        Extract(v, ixU, sorted, inner_ / 32);
#endif
    }
    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> inQue_;
    TQue<QuePosition::VECOUT, 1> vQue_, iQue_;
    TBuf<QuePosition::VECCALC> idxBuf_, sortedBuf_, tmpBuf_;
    GlobalTensor<T> xGm_, vGm_;
    GlobalTensor<int32_t> iGm_;
    const TopkTiling* topk_ = nullptr;
    uint32_t rowCount_ = 0, cols_ = 0, inner_ = 0, k_ = 1;
};

extern "C" __global__ __aicore__ void top_k(GM_ADDR x, GM_ADDR values, GM_ADDR indices, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    TopKKernel<DTYPE_X> op;
    op.Init(x, values, indices, tilingData);
    op.Process();
}
'''


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["topk_api", "sort_concat_extract"])
def test_builtin_topk_task_through_sort_apis(runner, variant):
    import re

    from kernelgen.bench.model import Verdict

    from .conftest import BUILTIN_TASKS, answer_files, load
    task = load(BUILTIN_TASKS / "level3" / "Sort" / "TopK")
    files = dict(answer_files(task))
    kernel = [p for p in files if p.startswith("op_kernel/")][0]
    host = [p for p in files if p.startswith("op_host/") and p.endswith(".cpp")][0]
    tiling_h = [p for p in files if p.startswith("op_host/") and p.endswith(".h")][0]
    files[kernel] = ("#define USE_TOPK_API\n" if variant == "topk_api" else "") + _KERNEL
    files[tiling_h] = _TILING_H
    # keep the answer's OpDef; swap its TilingFunc for one that also fills the TopK tiling
    src = files[host]
    start = src.index("static ge::graphStatus TilingFunc")
    end = src.index("} // namespace optiling")
    files[host] = src[:start] + _TILING_FUNC + src[end:]
    assert re.search(r"namespace optiling", files[host])
    res, rt = runner.build(task, files, tag=f"sortapi-{variant}")
    assert res.ok, res.log[-4000:]
    results = runner.run(task, rt)
    bad = [f"case {cid}: {r.verdict.value}: {r.message[:400]}" for cid, r in sorted(results.items()) if r.verdict != Verdict.OK]
    assert not bad, "\n".join(bad)
