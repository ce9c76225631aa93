#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;

template <typename A, typename B> struct IsSame { static constexpr bool value = false; };
template <typename A> struct IsSame<A, A> { static constexpr bool value = true; };

template <typename T>
class LayerNormKernel {
public:
    __aicore__ inline LayerNormKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, uint32_t rows, uint32_t cols,
                                uint32_t alignedCols, uint32_t bigCoreNum, uint32_t smallCoreRows,
                                uint32_t rowsPerTile, float epsilon, float invCols)
    {
        uint32_t idx = static_cast<uint32_t>(GetBlockIdx());
        uint32_t rowBegin = idx * smallCoreRows + (idx < bigCoreNum ? idx : bigCoreNum);
        rowCount_ = rowBegin < rows ? smallCoreRows + (idx < bigCoreNum ? 1 : 0) : 0;
        cols_ = cols;
        alignedCols_ = alignedCols;
        rowsPerTile_ = rowsPerTile;
        epsilon_ = epsilon;
        invCols_ = invCols;
        uint64_t base = static_cast<uint64_t>(rowBegin) * cols;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + base, static_cast<uint64_t>(rowCount_) * cols);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + base, static_cast<uint64_t>(rowCount_) * cols);
        gammaGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gamma), cols);
        betaGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(beta), cols);

        uint32_t colsF = (cols + 7) / 8 * 8;
        pipe_.InitBuffer(inQue_, BUFFER_NUM, rowsPerTile * alignedCols * sizeof(T));
        pipe_.InitBuffer(outQue_, BUFFER_NUM, rowsPerTile * alignedCols * sizeof(T));
        pipe_.InitBuffer(paramQue_, 1, alignedCols * sizeof(T));
        pipe_.InitBuffer(gammaF_, colsF * sizeof(float));
        pipe_.InitBuffer(betaF_, colsF * sizeof(float));
        pipe_.InitBuffer(work_, colsF * sizeof(float));
        pipe_.InitBuffer(square_, colsF * sizeof(float));
        pipe_.InitBuffer(reduceTmp_, colsF * sizeof(float));
        pipe_.InitBuffer(reduceOut_, 32);
    }

    __aicore__ inline void Process()
    {
        if (rowCount_ == 0) {
            return;
        }
        LoadParam(gammaGm_, gammaF_.Get<float>());
        LoadParam(betaGm_, betaF_.Get<float>());
        for (uint32_t row = 0; row < rowCount_; row += rowsPerTile_) {
            uint32_t n = rowCount_ - row < rowsPerTile_ ? rowCount_ - row : rowsPerTile_;
            CopyIn(row, n);
            Compute(n);
            CopyOut(row, n);
        }
    }

private:
    __aicore__ inline void LoadParam(GlobalTensor<T>& src, const LocalTensor<float>& dst)
    {
        LocalTensor<T> staged = paramQue_.AllocTensor<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(cols_ * sizeof(T)), 0, 0, 0};
        DataCopyPad(staged, src, params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        paramQue_.EnQue(staged);
        staged = paramQue_.DeQue<T>();
        if constexpr (IsSame<T, float>::value) {
            Adds(dst, staged, 0.0f, cols_);
        } else {
            Cast(dst, staged, RoundMode::CAST_NONE, cols_);
        }
        paramQue_.FreeTensor(staged);
    }

    __aicore__ inline void CopyIn(uint32_t row, uint32_t n)
    {
        LocalTensor<T> x = inQue_.AllocTensor<T>();
        DataCopyExtParams params{static_cast<uint16_t>(n), static_cast<uint32_t>(cols_ * sizeof(T)), 0, 0, 0};
        DataCopyPad(x, xGm_[static_cast<uint64_t>(row) * cols_], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQue_.EnQue(x);
    }

    __aicore__ inline void NormalizeRow(const LocalTensor<T>& src, const LocalTensor<T>& dst)
    {
        LocalTensor<float> w = work_.Get<float>();
        LocalTensor<float> sq = square_.Get<float>();
        LocalTensor<float> tmp = reduceTmp_.Get<float>();
        LocalTensor<float> result = reduceOut_.Get<float>();
        if constexpr (IsSame<T, float>::value) {
            Adds(w, src, 0.0f, cols_);
        } else {
            Cast(w, src, RoundMode::CAST_NONE, cols_);
        }
        ReduceSum(result, w, tmp, static_cast<int32_t>(cols_));
        float mean = result.GetValue(0) * invCols_;
        Adds(w, w, -mean, cols_);
        Mul(sq, w, w, cols_);
        ReduceSum(result, sq, tmp, static_cast<int32_t>(cols_));
        // 1 / sqrt(var + eps) on the vector unit: the scalar unit has no square root.
        float varEps = result.GetValue(0) * invCols_ + epsilon_;
        Duplicate(result, varEps, 8);
        Sqrt(result, result, 8);
        float invStd = 1.0f / result.GetValue(0);
        Muls(w, w, invStd, cols_);
        Mul(w, w, gammaF_.Get<float>(), cols_);
        Add(w, w, betaF_.Get<float>(), cols_);
        if constexpr (IsSame<T, float>::value) {
            Adds(dst, w, 0.0f, cols_);
        } else {
            Cast(dst, w, RoundMode::CAST_RINT, cols_);
        }
    }

    __aicore__ inline void Compute(uint32_t n)
    {
        LocalTensor<T> x = inQue_.DeQue<T>();
        LocalTensor<T> y = outQue_.AllocTensor<T>();
        for (uint32_t r = 0; r < n; ++r) {
            NormalizeRow(x[r * alignedCols_], y[r * alignedCols_]);
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
    TQue<QuePosition::VECIN, 1> paramQue_;
    TBuf<QuePosition::VECCALC> gammaF_;
    TBuf<QuePosition::VECCALC> betaF_;
    TBuf<QuePosition::VECCALC> work_;
    TBuf<QuePosition::VECCALC> square_;
    TBuf<QuePosition::VECCALC> reduceTmp_;
    TBuf<QuePosition::VECCALC> reduceOut_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> yGm_;
    GlobalTensor<T> gammaGm_;
    GlobalTensor<T> betaGm_;
    uint32_t rowCount_ = 0;
    uint32_t cols_ = 0;
    uint32_t alignedCols_ = 0;
    uint32_t rowsPerTile_ = 1;
    float epsilon_ = 0.0f;
    float invCols_ = 0.0f;
};
} // namespace

extern "C" __global__ __aicore__ void layer_norm(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    LayerNormKernel<DTYPE_X> op;
    op.Init(x, gamma, beta, y, tilingData.rows, tilingData.cols, tilingData.alignedCols, tilingData.bigCoreNum,
            tilingData.smallCoreRows, tilingData.rowsPerTile, tilingData.epsilon, tilingData.invCols);
    op.Process();
}
