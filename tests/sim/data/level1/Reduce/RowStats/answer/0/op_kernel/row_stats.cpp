#include "kernel_operator.h"
using namespace AscendC;

// y = cumsum(x, -1) - mean(x, -1): each core takes rowsPerCore rows of `cols` floats (cols a multiple of 8, so rows
// are 32-byte aligned) and carves its buffers from one TBufPool.
extern "C" __global__ __aicore__ void row_stats(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    uint32_t row0 = GetBlockIdx() * t.rowsPerCore;
    if (row0 >= t.rows) return;
    uint32_t rows = t.rows - row0 < t.rowsPerCore ? t.rows - row0 : t.rowsPerCore;
    uint32_t cols = t.cols;
    uint32_t n = rows * cols;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x + row0 * cols, n);
    yGm.SetGlobalBuffer((__gm__ float*)y + row0 * cols, n);
    if (GetBlockIdx() == 0) printf("row_stats: %u rows of %u columns per core\n", rows, cols);

    TPipe pipe;
    TBufPool<TPosition::VECCALC, 8> pool;
    uint32_t block = GetDataBlockSizeInBytes();
    uint32_t tileBytes = (n * sizeof(float) + block - 1) / block * block;
    uint32_t meanBytes = (rows * sizeof(float) + block - 1) / block * block;
    pipe.InitBufPool(pool, 3 * tileBytes + meanBytes + t.tmpBytes);
    TBuf<TPosition::VECCALC> xBuf, sumBuf, meanBuf, wideBuf, tmpBuf;
    pool.InitBuffer(xBuf, tileBytes);
    pool.InitBuffer(sumBuf, tileBytes);
    pool.InitBuffer(meanBuf, meanBytes);
    pool.InitBuffer(wideBuf, tileBytes);
    pool.InitBuffer(tmpBuf, t.tmpBytes);
    LocalTensor<float> xL = xBuf.Get<float>(), sumL = sumBuf.Get<float>(), meanL = meanBuf.Get<float>(), wideL = wideBuf.Get<float>();
    LocalTensor<uint8_t> tmpL = tmpBuf.Get<uint8_t>();

    TQueSync<PIPE_MTE2, PIPE_V> loaded;
    TQueSync<PIPE_V, PIPE_MTE3> computed;
    DataCopy(xL, xGm, n);
    loaded.SetFlag(0);
    loaded.WaitFlag(0);
    static constexpr CumSumConfig alongRows = {true, false, false};
    CumSum<float, alongRows>(sumL, meanL, xL, tmpL, CumSumInfo{rows, cols});
    const uint32_t shape[2] = {rows, cols};
    ReduceMean<float, Pattern::Reduce::AR>(meanL, xL, tmpL, shape, true);
    const uint32_t colShape[2] = {rows, 1}, tileShape[2] = {rows, cols};
    Broadcast<float, 2, 1>(wideL, meanL, tileShape, colShape, tmpL);
    Sub(sumL, sumL, wideL, n);
    computed.SetFlag(0);
    computed.WaitFlag(0);
    DataCopy(yGm, sumL, n);
}
