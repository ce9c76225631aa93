#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;

template <typename A, typename B> struct IsSame { static constexpr bool value = false; };
template <typename A> struct IsSame<A, A> { static constexpr bool value = true; };

template <typename T>
class SoftmaxKernel {
public:
    __aicore__ inline SoftmaxKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t rows, uint32_t cols, uint32_t alignedCols,
                                uint32_t bigCoreNum, uint32_t smallCoreRows, uint32_t rowsPerTile)
    {
        uint32_t idx = static_cast<uint32_t>(GetBlockIdx());
        uint32_t rowBegin = idx * smallCoreRows + (idx < bigCoreNum ? idx : bigCoreNum);
        rowCount_ = rowBegin < rows ? smallCoreRows + (idx < bigCoreNum ? 1 : 0) : 0;
        cols_ = cols;
        alignedCols_ = alignedCols;
        rowsPerTile_ = rowsPerTile;
        uint64_t base = static_cast<uint64_t>(rowBegin) * cols;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + base, static_cast<uint64_t>(rowCount_) * cols);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + base, static_cast<uint64_t>(rowCount_) * cols);
        pipe_.InitBuffer(inQue_, BUFFER_NUM, rowsPerTile * alignedCols * sizeof(T));
        pipe_.InitBuffer(outQue_, BUFFER_NUM, rowsPerTile * alignedCols * sizeof(T));
        uint32_t colsF = (cols + 7) / 8 * 8;
        if constexpr (!IsSame<T, float>::value) {
            pipe_.InitBuffer(wide_, colsF * sizeof(float));
        }
        pipe_.InitBuffer(reduceTmp_, colsF * sizeof(float));
        pipe_.InitBuffer(reduceOut_, 32);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t row = 0; row < rowCount_; row += rowsPerTile_) {
            uint32_t n = rowCount_ - row < rowsPerTile_ ? rowCount_ - row : rowsPerTile_;
            CopyIn(row, n);
            Compute(n);
            CopyOut(row, n);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t row, uint32_t n)
    {
        LocalTensor<T> x = inQue_.AllocTensor<T>();
        // n rows in one transfer; each row lands on a 32-byte boundary in UB.
        DataCopyExtParams params{static_cast<uint16_t>(n), static_cast<uint32_t>(cols_ * sizeof(T)), 0, 0, 0};
        DataCopyPad(x, xGm_[static_cast<uint64_t>(row) * cols_], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQue_.EnQue(x);
    }

    // In place on a float32 row: row = exp(row - max) / sum(exp(row - max)).
    __aicore__ inline void SoftmaxRow(const LocalTensor<float>& row)
    {
        LocalTensor<float> tmp = reduceTmp_.Get<float>();
        LocalTensor<float> result = reduceOut_.Get<float>();
        ReduceMax(result, row, tmp, static_cast<int32_t>(cols_), false);
        float rowMax = result.GetValue(0);
        Adds(row, row, -rowMax, cols_);
        Exp(row, row, cols_);
        ReduceSum(result, row, tmp, static_cast<int32_t>(cols_));
        float rowSum = result.GetValue(0);
        Muls(row, row, 1.0f / rowSum, cols_);
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> x = inQue_.DeQue<T>();
        LocalTensor<T> y = outQue_.AllocTensor<T>();
        for (uint32_t r = 0; r < n; ++r) {
            uint32_t off = r * alignedCols_;
            if constexpr (IsSame<T, float>::value) {
                Adds(y[off], x[off], 0.0f, cols_);
                SoftmaxRow(y[off]);
            } else {
                LocalTensor<float> wide = wide_.Get<float>();
                Cast(wide, x[off], RoundMode::CAST_NONE, cols_);
                SoftmaxRow(wide);
                Cast(y[off], wide, RoundMode::CAST_RINT, cols_);
            }
        }
        outQue_.EnQue(y);
        inQue_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t row, uint32_t n)
    {
        LocalTensor<T> y = outQue_.DeQue<T>();
        DataCopyExtParams params{static_cast<uint16_t>(n), static_cast<uint32_t>(cols_ * sizeof(T)), 0, 0, 0};
        DataCopyPad(yGm_[static_cast<uint64_t>(row) * cols_], y, params);
        outQue_.FreeTensor(y);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue_;
    TBuf<QuePosition::VECCALC> wide_;
    TBuf<QuePosition::VECCALC> reduceTmp_;
    TBuf<QuePosition::VECCALC> reduceOut_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;
    uint32_t rowCount_ = 0;
    uint32_t cols_ = 0;
    uint32_t alignedCols_ = 0;
    uint32_t rowsPerTile_ = 1;
};
} // namespace

extern "C" __global__ __aicore__ void softmax(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    SoftmaxKernel<DTYPE_X> op;
    op.Init(x, y, tilingData.rows, tilingData.cols, tilingData.alignedCols, tilingData.bigCoreNum,
            tilingData.smallCoreRows, tilingData.rowsPerTile);
    op.Process();
}
