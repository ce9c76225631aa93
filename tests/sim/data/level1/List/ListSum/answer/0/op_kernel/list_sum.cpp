#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void list_sum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    ListTensorDesc list(x);
    uint64_t shape[8];
    TensorDesc<float> first;
    first.SetShapeAddr(shape);
    list.GetDesc(first, 0);
    uint64_t total = 1;
    for (uint64_t d = 0; d < first.GetDim(); ++d) total *= first.GetShape(d);
    uint64_t start = GetBlockIdx() * t.perCore;
    uint64_t count = start >= total ? 0 : Std::min(total - start, uint64_t(t.perCore));
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y + start, count);
    InitGlobalMemory(yGm, count, 0.0f);
    for (uint32_t k = 0; k < list.GetSize(); ++k) {
        GlobalTensor<float> xGm;
        xGm.SetGlobalBuffer(list.GetDataPtr<float>(k) + start, count);
        for (uint64_t i = 0; i < count; ++i) yGm.SetValue(i, yGm.GetValue(i) + xGm.GetValue(i));
    }
}
