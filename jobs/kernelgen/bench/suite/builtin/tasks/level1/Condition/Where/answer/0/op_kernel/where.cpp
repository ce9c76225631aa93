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
class WhereKernel {
public:
    __aicore__ inline WhereKernel() {}

    __aicore__ inline void Init(GM_ADDR condition, GM_ADDR x, GM_ADDR y, GM_ADDR out, uint32_t offset, uint32_t length, uint32_t tileLength)
    {
        length_ = length;
        tileLength_ = tileLength;
        conditionGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(condition) + offset, length);
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + offset, length);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + offset, length);
        outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(out) + offset, length);
        pipe_.InitBuffer(conditionQue_, BUFFER_NUM, tileLength * sizeof(uint8_t));
        pipe_.InitBuffer(xQue_, BUFFER_NUM, tileLength * sizeof(T));
        pipe_.InitBuffer(yQue_, BUFFER_NUM, tileLength * sizeof(T));
        pipe_.InitBuffer(outQue_, BUFFER_NUM, tileLength * sizeof(T));
        pipe_.InitBuffer(condHalf_, tileLength * sizeof(half));
        pipe_.InitBuffer(mask_, tileLength / 8);
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
        LocalTensor<uint8_t> condition = conditionQue_.AllocTensor<uint8_t>();
        DataCopyPad(condition, conditionGm_[start], DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(uint8_t)), 0, 0, 0},
                    DataCopyPadExtParams<uint8_t>{false, 0, 0, 0});
        conditionQue_.EnQue(condition);
        LocalTensor<T> x = xQue_.AllocTensor<T>();
        DataCopyPad(x, xGm_[start], DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        xQue_.EnQue(x);
        LocalTensor<T> y = yQue_.AllocTensor<T>();
        DataCopyPad(y, yGm_[start], DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, 0});
        yQue_.EnQue(y);
    }

    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<uint8_t> condition = conditionQue_.DeQue<uint8_t>();
        LocalTensor<T> x = xQue_.DeQue<T>();
        LocalTensor<T> y = yQue_.DeQue<T>();
        LocalTensor<T> out = outQue_.AllocTensor<T>();
        // The bool bytes become a bit mask (half compare against 0), then Select picks x where the bit is set.
        uint32_t lanes = RoundUp(count, 256 / sizeof(half));
        LocalTensor<half> condHalf = condHalf_.Get<half>();
        LocalTensor<uint8_t> mask = mask_.Get<uint8_t>();
        Cast(condHalf, condition, RoundMode::CAST_NONE, lanes);
        CompareScalar(mask, condHalf, static_cast<half>(0.0f), CMPMODE::NE, lanes);
        Select(out, mask, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, lanes);
        outQue_.EnQue(out);
        conditionQue_.FreeTensor(condition);
        xQue_.FreeTensor(x);
        yQue_.FreeTensor(y);
    }

    __aicore__ inline void CopyOut(uint32_t tile, uint32_t count)
    {
        uint64_t start = static_cast<uint64_t>(tile) * tileLength_;
        LocalTensor<T> out = outQue_.DeQue<T>();
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPad(outGm_[start], out, copyParams);
        outQue_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> conditionQue_;
    GlobalTensor<uint8_t> conditionGm_;
    TQue<QuePosition::VECIN, BUFFER_NUM> xQue_;
    GlobalTensor<T> xGm_;
    TQue<QuePosition::VECIN, BUFFER_NUM> yQue_;
    GlobalTensor<T> yGm_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue_;
    GlobalTensor<T> outGm_;
    TBuf<QuePosition::VECCALC> condHalf_;
    TBuf<QuePosition::VECCALC> mask_;
    uint32_t length_ = 0;
    uint32_t tileLength_ = 0;
};
} // namespace

extern "C" __global__ __aicore__ void where(GM_ADDR condition, GM_ADDR x, GM_ADDR y, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    uint32_t offset = 0;
    uint32_t length = 0;
    CoreRange(tilingData.totalLength, tilingData.bigCoreNum, tilingData.smallCoreLength, tilingData.blockElems,
              offset, length);
    WhereKernel<DTYPE_X> op;
    op.Init(condition, x, y, out, offset, length, tilingData.tileLength);
    op.Process();
}
