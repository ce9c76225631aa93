// Mixed (1 AIC + 2 AIV per AI core) test kernel of the simulator: the AIC computes each 128 x 128 tile of a @ b
// into its GM workspace slot and raises FLAG_READY (mode 2); the two AIVs of that AI core wait for it, apply
// ReLU to half of the rows each, write c and raise FLAG_FREE, which the AIC waits for before reusing the slot.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t FRACTAL = 16;
constexpr uint32_t FRACTAL_ELEMS = FRACTAL * FRACTAL;
constexpr uint16_t FLAG_READY = 1;
constexpr uint16_t FLAG_FREE = 2;

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

template <typename T>
class MatmulReluKernel {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR ws, uint32_t m, uint32_t k, uint32_t n,
                                uint32_t baseM, uint32_t baseN, uint32_t baseK)
    {
        m_ = m; k_ = k; n_ = n; baseM_ = baseM; baseN_ = baseN; baseK_ = baseK;
        aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(a), static_cast<uint64_t>(m) * k);
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(b), static_cast<uint64_t>(k) * n);
        cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), static_cast<uint64_t>(m) * n);
        wsGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(ws), static_cast<uint64_t>(GetBlockNum()) * baseM * baseN);
        if ASCEND_IS_AIC {
            pipe_.InitBuffer(a1Buf_, baseM * baseK * sizeof(T));
            pipe_.InitBuffer(b1Buf_, baseK * baseN * sizeof(T));
            pipe_.InitBuffer(a2Buf_, baseM * baseK * sizeof(T));
            pipe_.InitBuffer(b2Buf_, baseK * baseN * sizeof(T));
            pipe_.InitBuffer(c1Buf_, baseM * baseN * sizeof(float));
        }
        if ASCEND_IS_AIV {
            pipe_.InitBuffer(rowBuf_, baseN * sizeof(float));
        }
    }

    __aicore__ inline void Process()
    {
        uint32_t nTiles = CeilDiv(n_, baseN_);
        uint32_t tiles = CeilDiv(m_, baseM_) * nTiles;
        uint32_t aiCore = static_cast<uint32_t>(GetBlockIdx());
        if ASCEND_IS_AIV {
            aiCore = static_cast<uint32_t>(GetBlockIdx() / GetSubBlockNum());
        }
        float* slotOffset = nullptr;
        (void)slotOffset;
        bool first = true;
        for (uint32_t t = aiCore; t < tiles; t += static_cast<uint32_t>(GetBlockNum())) {
            uint32_t row0 = (t / nTiles) * baseM_;
            uint32_t col0 = (t % nTiles) * baseN_;
            uint32_t mCur = m_ - row0 < baseM_ ? m_ - row0 : baseM_;
            uint32_t nCur = n_ - col0 < baseN_ ? n_ - col0 : baseN_;
            if ASCEND_IS_AIC {
                if (!first) {
                    CrossCoreWaitFlag(FLAG_FREE);
                }
                ComputeTile(row0, col0, mCur, nCur, aiCore);
                CrossCoreSetFlag<2, PIPE_FIX>(FLAG_READY);
            }
            if ASCEND_IS_AIV {
                CrossCoreWaitFlag(FLAG_READY);
                ReluRows(row0, col0, mCur, nCur, aiCore);
                CrossCoreSetFlag<2, PIPE_MTE3>(FLAG_FREE);
            }
            first = false;
        }
        if ASCEND_IS_AIC {
            if (!first) {
                CrossCoreWaitFlag(FLAG_FREE);
            }
        }
    }

private:
    __aicore__ inline void ReluRows(uint32_t row0, uint32_t col0, uint32_t mCur, uint32_t nCur, uint32_t aiCore)
    {
        uint32_t half = CeilDiv(mCur, 2);
        uint32_t rBegin = static_cast<uint32_t>(GetSubBlockIdx()) * half;
        uint32_t rEnd = rBegin + half < mCur ? rBegin + half : mCur;
        LocalTensor<float> row = rowBuf_.Get<float>();
        for (uint32_t r = rBegin; r < rEnd; ++r) {
            DataCopyExtParams in{1, static_cast<uint32_t>(nCur * sizeof(float)), 0, 0, 0};
            DataCopyPad(row, wsGm_[static_cast<uint64_t>(aiCore) * baseM_ * baseN_ + r * baseN_], in,
                        DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
            PipeBarrier<PIPE_ALL>();
            Maxs(row, row, 0.0f, static_cast<int32_t>(nCur));
            PipeBarrier<PIPE_ALL>();
            DataCopyPad(cGm_[static_cast<uint64_t>(row0 + r) * n_ + col0], row, in);
            PipeBarrier<PIPE_ALL>();
        }
    }

    __aicore__ inline void ComputeTile(uint32_t row0, uint32_t col0, uint32_t mCur, uint32_t nCur, uint32_t aiCore)
    {
        uint32_t mAligned = CeilDiv(mCur, FRACTAL) * FRACTAL;
        uint32_t nAligned = CeilDiv(nCur, FRACTAL) * FRACTAL;
        LocalTensor<float> c1 = c1Buf_.Get<float>();
        for (uint32_t k0 = 0; k0 < k_; k0 += baseK_) {
            uint32_t kCur = k_ - k0 < baseK_ ? k_ - k0 : baseK_;
            uint32_t kAligned = CeilDiv(kCur, FRACTAL) * FRACTAL;
            LocalTensor<T> a1 = a1Buf_.Get<T>();
            LocalTensor<T> b1 = b1Buf_.Get<T>();
            LocalTensor<T> a2 = a2Buf_.Get<T>();
            LocalTensor<T> b2 = b2Buf_.Get<T>();
            DataCopy(a1, aGm_[static_cast<uint64_t>(row0) * k_ + k0],
                     Nd2NzParams(1, static_cast<uint16_t>(mCur), static_cast<uint16_t>(kCur), 0, static_cast<uint16_t>(k_),
                                 static_cast<uint16_t>(mAligned), 1, 0));
            DataCopy(b1, bGm_[static_cast<uint64_t>(k0) * n_ + col0],
                     Nd2NzParams(1, static_cast<uint16_t>(kCur), static_cast<uint16_t>(nCur), 0, static_cast<uint16_t>(n_),
                                 static_cast<uint16_t>(kAligned), 1, 0));
            PipeBarrier<PIPE_ALL>();
            uint32_t mFrac = mAligned / FRACTAL, kFrac = kAligned / FRACTAL, nFrac = nAligned / FRACTAL;
            for (uint32_t i = 0; i < mFrac; ++i) {
                LoadData(a2[i * kFrac * FRACTAL_ELEMS], a1,
                         LoadData2DParams(static_cast<uint16_t>(i), static_cast<uint8_t>(kFrac), static_cast<uint16_t>(mFrac), 0, 0, false, 0));
            }
            for (uint32_t i = 0; i < kFrac; ++i) {
                LoadData(b2[i * nFrac * FRACTAL_ELEMS], b1,
                         LoadData2DParams(static_cast<uint16_t>(i), static_cast<uint8_t>(nFrac), static_cast<uint16_t>(kFrac), 0, 0, true, 0));
            }
            PipeBarrier<PIPE_ALL>();
            MmadParams params;
            params.m = static_cast<uint16_t>(mCur == 1 ? FRACTAL : mCur);
            params.n = static_cast<uint16_t>(nCur);
            params.k = static_cast<uint16_t>(kCur);
            params.cmatrixInitVal = (k0 == 0);
            Mmad(c1, a2, b2, params);
            PipeBarrier<PIPE_ALL>();
        }
        FixpipeParamsV220 fix;
        fix.nSize = static_cast<uint16_t>(nCur);
        fix.mSize = static_cast<uint16_t>(mCur);
        fix.srcStride = static_cast<uint16_t>(mAligned);
        fix.dstStride = baseN_;
        fix.quantPre = QuantMode_t::NoQuant;
        Fixpipe<float, float, CFG_ROW_MAJOR>(wsGm_[static_cast<uint64_t>(aiCore) * baseM_ * baseN_], c1, fix);
    }

    TPipe pipe_;
    TBuf<TPosition::A1> a1Buf_;
    TBuf<TPosition::B1> b1Buf_;
    TBuf<TPosition::A2> a2Buf_;
    TBuf<TPosition::B2> b2Buf_;
    TBuf<TPosition::CO1> c1Buf_;
    TBuf<TPosition::VECCALC> rowBuf_;
    GlobalTensor<T> aGm_;
    GlobalTensor<T> bGm_;
    GlobalTensor<float> cGm_;
    GlobalTensor<float> wsGm_;
    uint32_t m_ = 0, k_ = 0, n_ = 0, baseM_ = 0, baseN_ = 0, baseK_ = 0;
};
} // namespace

extern "C" __global__ __aicore__ void matmul_relu(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    MatmulReluKernel<DTYPE_A> op;
    op.Init(a, b, c, GetUserWorkspace(workspace), tilingData.m, tilingData.k, tilingData.n, tilingData.baseM,
            tilingData.baseN, tilingData.baseK);
    op.Process();
}
