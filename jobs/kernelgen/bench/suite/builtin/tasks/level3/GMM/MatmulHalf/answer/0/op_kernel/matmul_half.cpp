#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t FRACTAL = 16;             // 16 x 16 half elements = one 512-byte fractal
constexpr uint32_t FRACTAL_ELEMS = FRACTAL * FRACTAL;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b)
{
    return (a + b - 1) / b;
}

// Cube-only GEMM: GM (ND) -> L1 (Nz, via Nd2Nz) -> L0A (Zz) / L0B (Zn, per-fractal transpose) -> Mmad into L0C
// -> Fixpipe (Nz -> ND) straight to GM. Queue hand-offs give the MTE2 -> MTE1 -> M -> FIX ordering.
template <typename T>
class MatmulHalfKernel {
public:
    __aicore__ inline MatmulHalfKernel() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t k, uint32_t n,
                                uint32_t baseM, uint32_t baseN, uint32_t baseK)
    {
        m_ = m;
        k_ = k;
        n_ = n;
        baseM_ = baseM;
        baseN_ = baseN;
        baseK_ = baseK;
        aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a), static_cast<uint64_t>(m) * k);
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b), static_cast<uint64_t>(k) * n);
        cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), static_cast<uint64_t>(m) * n);
        pipe_.InitBuffer(a1Que_, 2, baseM * baseK * sizeof(T));
        pipe_.InitBuffer(b1Que_, 2, baseK * baseN * sizeof(T));
        pipe_.InitBuffer(a2Que_, 1, baseM * baseK * sizeof(T));
        pipe_.InitBuffer(b2Que_, 1, baseK * baseN * sizeof(T));
        pipe_.InitBuffer(c1Que_, 1, baseM * baseN * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        uint32_t nTiles = CeilDiv(n_, baseN_);
        uint32_t tiles = CeilDiv(m_, baseM_) * nTiles;
        for (uint32_t t = static_cast<uint32_t>(GetBlockIdx()); t < tiles; t += static_cast<uint32_t>(GetBlockNum())) {
            uint32_t row0 = (t / nTiles) * baseM_;
            uint32_t col0 = (t % nTiles) * baseN_;
            uint32_t mCur = m_ - row0 < baseM_ ? m_ - row0 : baseM_;
            uint32_t nCur = n_ - col0 < baseN_ ? n_ - col0 : baseN_;
            ComputeTile(row0, col0, mCur, nCur);
        }
    }

private:
    __aicore__ inline void ComputeTile(uint32_t row0, uint32_t col0, uint32_t mCur, uint32_t nCur)
    {
        uint32_t mAligned = CeilDiv(mCur, FRACTAL) * FRACTAL;
        uint32_t nAligned = CeilDiv(nCur, FRACTAL) * FRACTAL;
        LocalTensor<float> c1 = c1Que_.AllocTensor<float>();
        for (uint32_t k0 = 0; k0 < k_; k0 += baseK_) {
            uint32_t kCur = k_ - k0 < baseK_ ? k_ - k0 : baseK_;
            uint32_t kAligned = CeilDiv(kCur, FRACTAL) * FRACTAL;
            LoadA(row0, k0, mCur, kCur, mAligned);
            LoadB(k0, col0, kCur, nCur, kAligned);
            SplitA(mAligned, kAligned);
            SplitB(kAligned, nAligned);
            LocalTensor<T> a2 = a2Que_.DeQue<T>();
            LocalTensor<T> b2 = b2Que_.DeQue<T>();
            MmadParams params;
            // m == 1 would switch the cube to GEMV mode, which reads L0A as a plain row; keep the Zz reading
            // and drop the padding rows at Fixpipe instead.
            params.m = static_cast<uint16_t>(mCur == 1 ? FRACTAL : mCur);
            params.n = static_cast<uint16_t>(nCur);
            params.k = static_cast<uint16_t>(kCur);
            params.cmatrixInitVal = (k0 == 0);
            Mmad(c1, a2, b2, params);
            if ((mAligned / FRACTAL) * (nAligned / FRACTAL) < 10) {
                // Small results: back-to-back accumulations into the same L0C need an explicit M barrier.
                PipeBarrier<PIPE_M>();
            }
            a2Que_.FreeTensor(a2);
            b2Que_.FreeTensor(b2);
        }
        c1Que_.EnQue(c1);
        c1 = c1Que_.DeQue<float>();
        FixpipeParamsV220 fix;
        fix.nSize = static_cast<uint16_t>(nCur);
        fix.mSize = static_cast<uint16_t>(mCur);
        fix.srcStride = static_cast<uint16_t>(mAligned);
        fix.dstStride = n_;
        fix.ndNum = 1;
        fix.srcNdStride = 0;
        fix.dstNdStride = 0;
        fix.quantPre = QuantMode_t::NoQuant;
        Fixpipe<float, float, CFG_ROW_MAJOR>(cGm_[static_cast<uint64_t>(row0) * n_ + col0], c1, fix);
        c1Que_.FreeTensor(c1);
    }

    // A[row0 : row0+mCur, k0 : k0+kCur] into L1 as Nz: column blocks of 16 elements, each mAligned rows tall.
    __aicore__ inline void LoadA(uint32_t row0, uint32_t k0, uint32_t mCur, uint32_t kCur, uint32_t mAligned)
    {
        LocalTensor<T> a1 = a1Que_.AllocTensor<T>();
        Nd2NzParams params;
        params.ndNum = 1;
        params.nValue = static_cast<uint16_t>(mCur);
        params.dValue = static_cast<uint16_t>(kCur);
        params.srcNdMatrixStride = 0;
        params.srcDValue = static_cast<uint16_t>(k_);
        params.dstNzC0Stride = static_cast<uint16_t>(mAligned);
        params.dstNzNStride = 1;
        params.dstNzMatrixStride = 0;
        DataCopy(a1, aGm_[static_cast<uint64_t>(row0) * k_ + k0], params);
        a1Que_.EnQue(a1);
    }

    // B[k0 : k0+kCur, col0 : col0+nCur] into L1 as Nz: column blocks of 16 elements, each kAligned rows tall.
    __aicore__ inline void LoadB(uint32_t k0, uint32_t col0, uint32_t kCur, uint32_t nCur, uint32_t kAligned)
    {
        LocalTensor<T> b1 = b1Que_.AllocTensor<T>();
        Nd2NzParams params;
        params.ndNum = 1;
        params.nValue = static_cast<uint16_t>(kCur);
        params.dValue = static_cast<uint16_t>(nCur);
        params.srcNdMatrixStride = 0;
        params.srcDValue = static_cast<uint16_t>(n_);
        params.dstNzC0Stride = static_cast<uint16_t>(kAligned);
        params.dstNzNStride = 1;
        params.dstNzMatrixStride = 0;
        DataCopy(b1, bGm_[static_cast<uint64_t>(k0) * n_ + col0], params);
        b1Que_.EnQue(b1);
    }

    // L1 Nz -> L0A Zz: for every row of fractals, gather its fractals (one per column block) in order.
    __aicore__ inline void SplitA(uint32_t mAligned, uint32_t kAligned)
    {
        LocalTensor<T> a1 = a1Que_.DeQue<T>();
        LocalTensor<T> a2 = a2Que_.AllocTensor<T>();
        uint32_t mFrac = mAligned / FRACTAL;
        uint32_t kFrac = kAligned / FRACTAL;
        for (uint32_t i = 0; i < mFrac; ++i) {
            LoadData2DParams params;
            params.startIndex = static_cast<uint16_t>(i);
            params.repeatTimes = static_cast<uint8_t>(kFrac);
            params.srcStride = static_cast<uint16_t>(mFrac);
            params.sid = 0;
            params.dstGap = 0;
            params.ifTranspose = false;
            params.addrMode = 0;
            LoadData(a2[i * kFrac * FRACTAL_ELEMS], a1, params);
        }
        a2Que_.EnQue(a2);
        a1Que_.FreeTensor(a1);
    }

    // L1 Nz -> L0B Zn: fractal rows follow K, and each fractal is transposed to column-major on the way.
    __aicore__ inline void SplitB(uint32_t kAligned, uint32_t nAligned)
    {
        LocalTensor<T> b1 = b1Que_.DeQue<T>();
        LocalTensor<T> b2 = b2Que_.AllocTensor<T>();
        uint32_t kFrac = kAligned / FRACTAL;
        uint32_t nFrac = nAligned / FRACTAL;
        for (uint32_t i = 0; i < kFrac; ++i) {
            LoadData2DParams params;
            params.startIndex = static_cast<uint16_t>(i);
            params.repeatTimes = static_cast<uint8_t>(nFrac);
            params.srcStride = static_cast<uint16_t>(kFrac);
            params.sid = 0;
            params.dstGap = 0;
            params.ifTranspose = true;
            params.addrMode = 0;
            LoadData(b2[i * nFrac * FRACTAL_ELEMS], b1, params);
        }
        b2Que_.EnQue(b2);
        b1Que_.FreeTensor(b1);
    }

    TPipe pipe_;
    TQue<QuePosition::A1, 2> a1Que_;
    TQue<QuePosition::B1, 2> b1Que_;
    TQue<QuePosition::A2, 1> a2Que_;
    TQue<QuePosition::B2, 1> b2Que_;
    TQue<QuePosition::CO1, 1> c1Que_;
    GlobalTensor<T> aGm_;
    GlobalTensor<T> bGm_;
    GlobalTensor<float> cGm_;
    uint32_t m_ = 0;
    uint32_t k_ = 0;
    uint32_t n_ = 0;
    uint32_t baseM_ = 0;
    uint32_t baseN_ = 0;
    uint32_t baseK_ = 0;
};
} // namespace

extern "C" __global__ __aicore__ void matmul_half(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                  GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GET_TILING_DATA(tilingData, tiling);
    MatmulHalfKernel<DTYPE_A> op;
    op.Init(a, b, c, tilingData.m, tilingData.k, tilingData.n, tilingData.baseM, tilingData.baseN,
            tilingData.baseK);
    op.Process();
}
