#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void sync_roll(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GlobalTensor<float> xGm, yGm, ws;
    xGm.SetGlobalBuffer((__gm__ float*)x, t.n);
    yGm.SetGlobalBuffer((__gm__ float*)y, t.n);
    ws.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), t.n * 8);
    uint32_t i = static_cast<uint32_t>(GetBlockIdx());
    ws.SetValue(i * 8, xGm.GetValue(i));
    if (t.mode == 2) {
        // the barrier as device-only code, the way answers guard it: CANN's CPU-debug build defines the macro
#ifndef __CCE_KT_TEST__
        SyncAll();
#endif
    } else if (t.mode == 0 || i % 2 == 0) {
        SyncAll();
    }
    yGm.SetValue(i, ws.GetValue(((i + 1) % t.n) * 8));
}
