// Simulator test kernel: each used core takes one singleCoreM x singleCoreN block of c through matmul::Matmul.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void matmul_api(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
    GET_TILING_DATA(tilingData, tiling);
    const auto& t = tilingData.cubeTiling;
    TPipe pipe;
    using AType = matmul::MatmulType<TPosition::GM, matmul::CubeFormat::ND, half>;
    using CType = matmul::MatmulType<TPosition::GM, matmul::CubeFormat::ND, float>;
    matmul::Matmul<AType, AType, CType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    int32_t idx = static_cast<int32_t>(GetBlockIdx());
    if (idx >= t.usedCoreNum) {
        return;
    }
    int32_t nBlocks = (t.N + t.singleCoreN - 1) / t.singleCoreN;
    int32_t mIdx = idx / nBlocks;
    int32_t nIdx = idx % nBlocks;
    int32_t tailM = t.M - mIdx * t.singleCoreM < t.singleCoreM ? t.M - mIdx * t.singleCoreM : t.singleCoreM;
    int32_t tailN = t.N - nIdx * t.singleCoreN < t.singleCoreN ? t.N - nIdx * t.singleCoreN : t.singleCoreN;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), static_cast<uint64_t>(t.M) * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), static_cast<uint64_t>(t.Kb) * t.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), static_cast<uint64_t>(t.M) * t.N);
    mm.SetTensorA(aGm[static_cast<uint64_t>(mIdx) * t.singleCoreM * t.Ka]);
    mm.SetTensorB(bGm[static_cast<uint64_t>(nIdx) * t.singleCoreN]);
    mm.SetTail(tailM, tailN);
    mm.IterateAll(cGm[static_cast<uint64_t>(mIdx) * t.singleCoreM * t.N + nIdx * t.singleCoreN]);
    mm.End();
}
