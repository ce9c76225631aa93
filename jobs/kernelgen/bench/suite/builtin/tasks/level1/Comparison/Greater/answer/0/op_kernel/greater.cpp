#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;

template <typename A, typename B> struct IsSame { static constexpr bool value = false; };
template <typename A> struct IsSame<A, A> { static constexpr bool value = true; };

__aicore__ inline uint32_t RoundUp(uint32_t value, uint32_t unit)
{
    return (value + unit - 1) / unit * unit;
}

// Element range [offset, offset + length) owned by this core: whole 32-byte blocks, the first bigCoreNum cores
// take one block more, the last used core stops at total.
__aicore__ inline void CoreRange(uint32_t total, uint32_t bigCoreNum, uint32_t smallLen, uint32_t blockElems,
                                 uint32_t& offset, uint32_t& length)
{
    uint32_t idx = static_cast<uint32_t>(GetBlockIdx());
    uint32_t bigLen = smallLen + blockElems;
    if (idx < bigCoreNum) {
        offset = idx * bigLen;
        length = bigLen;
    } else {
        offset = bigCoreNum * bigLen + (idx - bigCoreNum) * smallLen;
        length = smallLen;
    }
    if (offset >= total) {
        length = 0;
    } else if (offset + length > total) {
        length = total - offset;
    }
}

template <typename T>
class GreaterKernel {
public:
    __aicore__ inline GreaterKernel() {}

    __aicore__ inline void Init(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, uint32_t offset, uint32_t length, uint32_t tileLength)
    {
        length_ = length;
        tileLength_ = tileLength;
        x1Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x1) + offset, length);
        x2Gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x2) + offset, length);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(y) + offset, length);
        pipe_.InitBuffer(x1Que_, BUFFER_NUM, tileLength * sizeof(T));
        pipe_.InitBuffer(x2Que_, BUFFER_NUM, tileLength * sizeof(T));
        pipe_.InitBuffer(outQue_, BUFFER_NUM, tileLength * sizeof(uint8_t));
        pipe_.InitBuffer(mask_, tileLength / 8);
        pipe_.InitBuffer(ones_, tileLength * sizeof(T));
        pipe_.InitBuffer(zeros_, tileLength * sizeof(T));
        pipe_.InitBuffer(staged_, tileLength * sizeof(half));
        if constexpr (IsSame<T, float>::value) {
            pipe_.InitBuffer(wide_, tileLength * sizeof(float));
        }
        Duplicate(ones_.Get<T>(), static_cast<T>(1.0f), static_cast<int32_t>(tileLength));
        Duplicate(zeros_.Get<T>(), static_cast<T>(0.0f), static_cast<int32_t>(tileLength));
    }

    __aicore__ inline void Process()
    {
        if (length_ == 0) {
            return;
        }
        uint32_t tiles = (length_ + tileLength_ - 1) / tileLength_;
        for (uint32_t i = 0; i < tiles; ++i) {
            uint32_t count = (i + 1 == tiles) ? length_ - i * tileLength_ : tileLength_;
            CopyIn(i, count);
            Compute(count);
            CopyOut(i, count);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t tile, uint32_t count)
    {
        uint64_t start = static_cast<uint64_t>(tile) * tileLength_;
        LocalTensor<T> x1 = x1Que_.AllocTensor<T>();
        DataCopyPad(x1, x1Gm_[start], DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        x1Que_.EnQue(x1);
        LocalTensor<T> x2 = x2Que_.AllocTensor<T>();
        DataCopyPad(x2, x2Gm_[start], DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        x2Que_.EnQue(x2);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<T> x1 = x1Que_.DeQue<T>();
        LocalTensor<T> x2 = x2Que_.DeQue<T>();
        LocalTensor<uint8_t> y = outQue_.AllocTensor<uint8_t>();
        // Compare works on whole 256-byte repeats; lanes past count read stale data and are never stored.
        uint32_t lanes = RoundUp(count, 256 / sizeof(T));
        LocalTensor<uint8_t> mask = mask_.Get<uint8_t>();
        LocalTensor<half> staged = staged_.Get<half>();
        Compare(mask, x1, x2, CMPMODE::GT, lanes);
        if constexpr (IsSame<T, float>::value) {
            LocalTensor<float> wide = wide_.Get<float>();
            Select(wide, mask, ones_.Get<float>(), zeros_.Get<float>(), SELMODE::VSEL_TENSOR_TENSOR_MODE, lanes);
            Cast(staged, wide, RoundMode::CAST_NONE, lanes);
        } else {
            Select(staged, mask, ones_.Get<half>(), zeros_.Get<half>(), SELMODE::VSEL_TENSOR_TENSOR_MODE, lanes);
        }
        Cast(y, staged, RoundMode::CAST_NONE, lanes);
        outQue_.EnQue(y);
        x1Que_.FreeTensor(x1);
        x2Que_.FreeTensor(x2);
    }

    __aicore__ inline void CopyOut(uint32_t tile, uint32_t count)
    {
        uint64_t start = static_cast<uint64_t>(tile) * tileLength_;
        LocalTensor<uint8_t> y = outQue_.DeQue<uint8_t>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(uint8_t)), 0, 0, 0};
        DataCopyPad(yGm_[start], y, copyParams);
        outQue_.FreeTensor(y);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> x1Que_;
    GlobalTensor<T> x1Gm_;
    TQue<QuePosition::VECIN, BUFFER_NUM> x2Que_;
    GlobalTensor<T> x2Gm_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue_;
    GlobalTensor<uint8_t> yGm_;
    TBuf<QuePosition::VECCALC> mask_;
    TBuf<QuePosition::VECCALC> ones_;
    TBuf<QuePosition::VECCALC> zeros_;
    TBuf<QuePosition::VECCALC> staged_;
    TBuf<QuePosition::VECCALC> wide_;
    uint32_t length_ = 0;
    uint32_t tileLength_ = 0;
};
} // namespace

extern "C" __global__ __aicore__ void greater(GM_ADDR x1, GM_ADDR x2, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    uint32_t offset = 0;
    uint32_t length = 0;
    CoreRange(tilingData.totalLength, tilingData.bigCoreNum, tilingData.smallCoreLength, tilingData.blockElems,
              offset, length);
    GreaterKernel<DTYPE_X1> op;
    op.Init(x1, x2, y, offset, length, tilingData.tileLength);
    op.Process();
}
