#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;

template <typename A, typename B> struct IsSame { static constexpr bool value = false; };
template <typename A> struct IsSame<A, A> { static constexpr bool value = true; };

template <typename T>
class ReduceSumLastDimKernel {
public:
    __aicore__ inline ReduceSumLastDimKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t alignedCols,
                                uint32_t bigCoreNum, uint32_t smallCoreRows, uint32_t tileLength,
                                uint32_t rowsPerTile, uint32_t outBatch)
    {
        uint32_t idx = static_cast<uint32_t>(GetBlockIdx());
        uint32_t rowBegin = idx * smallCoreRows + (idx < bigCoreNum ? idx : bigCoreNum);
        rowCount_ = rowBegin < rows ? smallCoreRows + (idx < bigCoreNum ? 1 : 0) : 0;
        cols_ = cols;
        alignedCols_ = alignedCols;
        tileLength_ = tileLength;
        rowsPerTile_ = rowsPerTile;
        outBatch_ = outBatch;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + static_cast<uint64_t>(rowBegin) * cols,
                             static_cast<uint64_t>(rowCount_) * cols);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + rowBegin, rowCount_);
        pipe_.InitBuffer(inQue_, BUFFER_NUM, tileLength * sizeof(T));
        pipe_.InitBuffer(outQue_, 1, outBatch * sizeof(T));
        pipe_.InitBuffer(sums_, outBatch * sizeof(float));
        if constexpr (!IsSame<T, float>::value) {
            pipe_.InitBuffer(wide_, tileLength * sizeof(float));
        }
        pipe_.InitBuffer(reduceTmp_, tileLength * sizeof(float));
        pipe_.InitBuffer(reduceOut_, 32);
    }

    __aicore__ inline void Process()
    {
        LocalTensor<float> sums = sums_.Get<float>();
        uint32_t pending = 0;      // sums held in UB, not yet stored
        uint32_t flushed = 0;      // rows already stored
        uint32_t row = 0;
        while (row < rowCount_) {
            uint32_t n = 1;
            if (cols_ <= tileLength_) {
                n = rowCount_ - row < rowsPerTile_ ? rowCount_ - row : rowsPerTile_;
                n = n < outBatch_ - pending ? n : outBatch_ - pending;
                CopyIn(static_cast<uint64_t>(row) * cols_, static_cast<uint16_t>(n), cols_);
                LocalTensor<T> x = inQue_.DeQue<T>();
                for (uint32_t r = 0; r < n; ++r) {
                    sums.SetValue(pending + r, SumOf(x[r * alignedCols_], cols_));
                }
                inQue_.FreeTensor(x);
            } else {
                float acc = 0.0f;
                for (uint32_t col = 0; col < cols_; col += tileLength_) {
                    uint32_t count = cols_ - col < tileLength_ ? cols_ - col : tileLength_;
                    CopyIn(static_cast<uint64_t>(row) * cols_ + col, 1, count);
                    LocalTensor<T> x = inQue_.DeQue<T>();
                    acc += SumOf(x, count);
                    inQue_.FreeTensor(x);
                }
                sums.SetValue(pending, acc);
            }
            pending += n;
            row += n;
            if (pending == outBatch_ || row == rowCount_) {
                Store(flushed, pending);
                flushed += pending;
                pending = 0;
            }
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t offset, uint16_t blocks, uint32_t count)
    {
        LocalTensor<T> x = inQue_.AllocTensor<T>();
        DataCopyExtParams params{blocks, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPad(x, xGm_[offset], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQue_.EnQue(x);
    }

    __aicore__ inline float SumOf(const LocalTensor<T>& src, uint32_t count)
    {
        LocalTensor<float> tmp = reduceTmp_.Get<float>();
        LocalTensor<float> result = reduceOut_.Get<float>();
        if constexpr (IsSame<T, float>::value) {
            ReduceSum(result, src, tmp, static_cast<int32_t>(count));
        } else {
            LocalTensor<float> wide = wide_.Get<float>();
            Cast(wide, src, RoundMode::CAST_NONE, count);
            ReduceSum(result, wide, tmp, static_cast<int32_t>(count));
        }
        return result.GetValue(0);
    }

    __aicore__ inline void Store(uint32_t first, uint32_t count)
    {
        LocalTensor<float> sums = sums_.Get<float>();
        LocalTensor<T> out = outQue_.AllocTensor<T>();
        if constexpr (IsSame<T, float>::value) {
            Adds(out, sums, 0.0f, count);
        } else {
            Cast(out, sums, RoundMode::CAST_RINT, count);
        }
        outQue_.EnQue(out);
        out = outQue_.DeQue<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[first], out, params);
        outQue_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue_;
    TQue<QuePosition::VECOUT, 1> outQue_;
    TBuf<QuePosition::VECCALC> sums_;
    TBuf<QuePosition::VECCALC> wide_;
    TBuf<QuePosition::VECCALC> reduceTmp_;
    TBuf<QuePosition::VECCALC> reduceOut_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;
    uint32_t rowCount_ = 0;
    uint32_t cols_ = 0;
    uint32_t alignedCols_ = 0;
    uint32_t tileLength_ = 0;
    uint32_t rowsPerTile_ = 1;
    uint32_t outBatch_ = 1;
};
} // namespace

extern "C" __global__ __aicore__ void reduce_sum_last_dim(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    ReduceSumLastDimKernel<DTYPE_X> op;
    op.Init(x, y, tilingData.rows, tilingData.cols, tilingData.alignedCols, tilingData.bigCoreNum,
            tilingData.smallCoreRows, tilingData.tileLength, tilingData.rowsPerTile, tilingData.outBatch);
    op.Process();
}
