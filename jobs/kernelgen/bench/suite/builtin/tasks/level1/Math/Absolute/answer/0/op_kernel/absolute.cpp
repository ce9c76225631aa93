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
class AbsoluteKernel {
public:
    __aicore__ inline AbsoluteKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t offset, uint32_t length, uint32_t tileLength)
    {
        length_ = length;
        tileLength_ = tileLength;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + offset, length);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + offset, length);
        pipe_.InitBuffer(xQue_, BUFFER_NUM, tileLength * sizeof(T));
        pipe_.InitBuffer(outQue_, BUFFER_NUM, tileLength * sizeof(T));
        if constexpr (IsSame<T, bfloat16_t>::value) {
            pipe_.InitBuffer(signMask_, tileLength * sizeof(uint16_t));
        }
        if constexpr (IsSame<T, bfloat16_t>::value) {
            LocalTensor<uint16_t> mask = signMask_.Get<uint16_t>();
            Duplicate(mask, static_cast<uint16_t>(0x7FFF), static_cast<int32_t>(tileLength));
        }
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
        LocalTensor<T> x = xQue_.AllocTensor<T>();
        DataCopyPad(x, xGm_[start], DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        xQue_.EnQue(x);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<T> x = xQue_.DeQue<T>();
        LocalTensor<T> y = outQue_.AllocTensor<T>();
        if constexpr (IsSame<T, bfloat16_t>::value) {
            // bf16 has no vector Abs on A2; clearing the sign bit is exact for every value, NaN included.
            LocalTensor<uint16_t> mask = signMask_.Get<uint16_t>();
            LocalTensor<uint16_t> xBits = x.template ReinterpretCast<uint16_t>();
            LocalTensor<uint16_t> yBits = y.template ReinterpretCast<uint16_t>();
            And(yBits, xBits, mask, static_cast<int32_t>(count));
        } else {
            Abs(y, x, count);
        }
        outQue_.EnQue(y);
        xQue_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t tile, uint32_t count)
    {
        uint64_t start = static_cast<uint64_t>(tile) * tileLength_;
        LocalTensor<T> y = outQue_.DeQue<T>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[start], y, copyParams);
        outQue_.FreeTensor(y);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue_;
    GlobalTensor<T> xGm_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue_;
    GlobalTensor<T> yGm_;
    TBuf<QuePosition::VECCALC> signMask_;
    uint32_t length_ = 0;
    uint32_t tileLength_ = 0;
};
} // namespace

extern "C" __global__ __aicore__ void absolute(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    uint32_t offset = 0;
    uint32_t length = 0;
    CoreRange(tilingData.totalLength, tilingData.bigCoreNum, tilingData.smallCoreLength, tilingData.blockElems,
              offset, length);
    AbsoluteKernel<DTYPE_X> op;
    op.Init(x, y, offset, length, tilingData.tileLength);
    op.Process();
}
