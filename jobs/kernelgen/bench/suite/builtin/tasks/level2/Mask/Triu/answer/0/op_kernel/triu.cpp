#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;

// Works on the raw bits (uint16 lanes) so every dtype, bf16 included, is copied exactly.
template <typename T>
class TriuKernel {
public:
    __aicore__ inline TriuKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalRows, uint32_t matrixRows, uint32_t cols,
                                uint32_t alignedCols, uint32_t bigCoreNum, uint32_t smallCoreRows,
                                uint32_t rowsPerTile, uint32_t colTile, int64_t diagonal)
    {
        uint32_t idx = static_cast<uint32_t>(GetBlockIdx());
        rowBegin_ = idx * smallCoreRows + (idx < bigCoreNum ? idx : bigCoreNum);
        rowCount_ = rowBegin_ < totalRows ? smallCoreRows + (idx < bigCoreNum ? 1 : 0) : 0;
        matrixRows_ = matrixRows;
        cols_ = cols;
        alignedCols_ = alignedCols;
        rowsPerTile_ = rowsPerTile;
        colTile_ = colTile;
        diagonal_ = diagonal;
        uint64_t total = static_cast<uint64_t>(totalRows) * cols;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), total);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), total);
        // Whole rows when a row fits one buffer, otherwise colTile-element chunks of one row.
        uint32_t bufElems = alignedCols <= colTile ? alignedCols * rowsPerTile : colTile;
        pipe_.InitBuffer(inQue_, BUFFER_NUM, bufElems * sizeof(T));
        pipe_.InitBuffer(outQue_, BUFFER_NUM, bufElems * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        if (rowCount_ == 0 || cols_ == 0) {
            return;
        }
        if (alignedCols_ <= colTile_) {
            for (uint32_t r = 0; r < rowCount_; r += rowsPerTile_) {
                uint32_t n = rowCount_ - r < rowsPerTile_ ? rowCount_ - r : rowsPerTile_;
                MaskRows(rowBegin_ + r, n);
            }
        } else {
            for (uint32_t r = 0; r < rowCount_; ++r) {
                for (uint32_t col = 0; col < cols_; col += colTile_) {
                    MaskChunk(rowBegin_ + r, col, cols_ - col < colTile_ ? cols_ - col : colTile_);
                }
            }
        }
    }

private:
    // Columns [0, ZeroPrefix(row)) of a row are below the diagonal.
    __aicore__ inline uint32_t ZeroPrefix(uint32_t globalRow)
    {
        int64_t keepFrom = static_cast<int64_t>(globalRow % matrixRows_) + diagonal_;
        if (keepFrom <= 0) {
            return 0;
        }
        return keepFrom >= static_cast<int64_t>(cols_) ? cols_ : static_cast<uint32_t>(keepFrom);
    }

    __aicore__ inline void MaskRows(uint32_t firstRow, uint32_t n)
    {
        uint64_t offset = static_cast<uint64_t>(firstRow) * cols_;
        DataCopyExtParams params{static_cast<uint16_t>(n), static_cast<uint32_t>(cols_ * sizeof(T)), 0, 0, 0};
        LocalTensor<T> x = inQue_.AllocTensor<T>();
        DataCopyPad(x, xGm_[offset], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQue_.EnQue(x);
        x = inQue_.DeQue<T>();
        LocalTensor<T> y = outQue_.AllocTensor<T>();
        constexpr uint32_t lanesPerElem = sizeof(T) / sizeof(uint16_t);
        LocalTensor<uint16_t> xBits = x.template ReinterpretCast<uint16_t>();
        LocalTensor<uint16_t> yBits = y.template ReinterpretCast<uint16_t>();
        Or(yBits, xBits, xBits, static_cast<int32_t>(n * alignedCols_ * lanesPerElem));
        for (uint32_t r = 0; r < n; ++r) {
            uint32_t zeros = ZeroPrefix(firstRow + r);
            if (zeros > 0) {
                Duplicate(yBits[r * alignedCols_ * lanesPerElem], static_cast<uint16_t>(0),
                          static_cast<int32_t>(zeros * lanesPerElem));
            }
        }
        outQue_.EnQue(y);
        inQue_.FreeTensor(x);
        y = outQue_.DeQue<T>();
        DataCopyPad(yGm_[offset], y, params);
        outQue_.FreeTensor(y);
    }

    __aicore__ inline void MaskChunk(uint32_t row, uint32_t col, uint32_t count)
    {
        uint64_t offset = static_cast<uint64_t>(row) * cols_ + col;
        DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        LocalTensor<T> x = inQue_.AllocTensor<T>();
        DataCopyPad(x, xGm_[offset], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQue_.EnQue(x);
        x = inQue_.DeQue<T>();
        LocalTensor<T> y = outQue_.AllocTensor<T>();
        constexpr uint32_t lanesPerElem = sizeof(T) / sizeof(uint16_t);
        LocalTensor<uint16_t> xBits = x.template ReinterpretCast<uint16_t>();
        LocalTensor<uint16_t> yBits = y.template ReinterpretCast<uint16_t>();
        Or(yBits, xBits, xBits, static_cast<int32_t>(count * lanesPerElem));
        uint32_t prefix = ZeroPrefix(row);
        uint32_t zeros = prefix <= col ? 0 : (prefix - col < count ? prefix - col : count);
        if (zeros > 0) {
            Duplicate(yBits, static_cast<uint16_t>(0), static_cast<int32_t>(zeros * lanesPerElem));
        }
        outQue_.EnQue(y);
        inQue_.FreeTensor(x);
        y = outQue_.DeQue<T>();
        DataCopyPad(yGm_[offset], y, params);
        outQue_.FreeTensor(y);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;
    uint32_t rowBegin_ = 0;
    uint32_t rowCount_ = 0;
    uint32_t matrixRows_ = 1;
    uint32_t cols_ = 0;
    uint32_t alignedCols_ = 0;
    uint32_t rowsPerTile_ = 1;
    uint32_t colTile_ = 0;
    int64_t diagonal_ = 0;
};
} // namespace

extern "C" __global__ __aicore__ void triu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    TriuKernel<DTYPE_X> op;
    op.Init(x, y, tilingData.totalRows, tilingData.matrixRows, tilingData.cols, tilingData.alignedCols,
            tilingData.bigCoreNum, tilingData.smallCoreRows, tilingData.rowsPerTile, tilingData.colTile,
            tilingData.diagonal);
    op.Process();
}
