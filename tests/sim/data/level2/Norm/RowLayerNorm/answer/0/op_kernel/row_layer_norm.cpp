#include "kernel_operator.h"
#include "lib/normalization/layernorm.h"
using namespace AscendC;

// y = LayerNorm(x) over the last axis with the high-level API: its LayerNormTiling comes nested in the op's tiling,
// filled on the host by GetLayerNormNDTilingInfo.
extern "C" __global__ __aicore__ void row_layer_norm(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                     GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    uint32_t n = t.rows * t.hidden;
    uint32_t statBytes = (t.rows * sizeof(float) + 31) / 32 * 32;
    GlobalTensor<float> xGm, gGm, bGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, n);
    gGm.SetGlobalBuffer((__gm__ float*)gamma, t.hidden);
    bGm.SetGlobalBuffer((__gm__ float*)beta, t.hidden);
    yGm.SetGlobalBuffer((__gm__ float*)y, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, gb, bb, yb, mb, vb, tb;
    pipe.InitBuffer(xb, n * sizeof(float));
    pipe.InitBuffer(gb, t.hidden * sizeof(float));
    pipe.InitBuffer(bb, t.hidden * sizeof(float));
    pipe.InitBuffer(yb, n * sizeof(float));
    pipe.InitBuffer(mb, statBytes);
    pipe.InitBuffer(vb, statBytes);
    pipe.InitBuffer(tb, t.tmpBytes);
    LocalTensor<float> xL = xb.Get<float>(), gL = gb.Get<float>(), bL = bb.Get<float>(), yL = yb.Get<float>();
    LocalTensor<float> meanL = mb.Get<float>(), varL = vb.Get<float>();
    LocalTensor<uint8_t> tmpL = tb.Get<uint8_t>();
    DataCopy(xL, xGm, n);
    DataCopy(gL, gGm, t.hidden);
    DataCopy(bL, bGm, t.hidden);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    LayerNorm<float, false>(yL, meanL, varL, xL, gL, bL, tmpL, t.epsilon, t.ln);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(yGm, yL, n);
}
