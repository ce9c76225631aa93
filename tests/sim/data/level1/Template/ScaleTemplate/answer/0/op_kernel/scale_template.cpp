#include "kernel_operator.h"
#include "scale_template_tiling.h"
#include "scale_template_tiling_key.h"
using namespace AscendC;

template <typename T, int MODE, int NEGATE>
__global__ __aicore__ void scale_template(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(ScaleTemplateTilingData);
    GET_TILING_DATA(t, tiling);
    uint32_t start = GetBlockIdx() * t.perCore;
    uint32_t count = start >= t.total ? 0 : (t.total - start < t.perCore ? t.total - start : t.perCore);
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T*)x + start, count);
    yGm.SetGlobalBuffer((__gm__ T*)y + start, count);
    float sign = NEGATE ? -1.0f : 1.0f;
    for (uint32_t i = 0; i < count; ++i) {
        float v = static_cast<float>(xGm.GetValue(i)) * t.scale;
        if constexpr (MODE == 1) {
            v += t.shift;
        }
        yGm.SetValue(i, static_cast<T>(sign * v));
    }
}
