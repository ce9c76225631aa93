#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_K = 64;

// Unsigned integer of the same width as the element, for raw-bit access.
template <uint32_t BYTES> struct BitsOf;
template <> struct BitsOf<2> { using Type = uint16_t; };
template <> struct BitsOf<4> { using Type = uint32_t; };

// Selection by repeated arg-max: k rounds of ReduceMax(calIndex) over the row in UB, each round knocking the
// winner out with -inf. O(k * N) vector work per row, which suits the small k this task allows.
template <typename T>
class TopKKernel {
public:
    using Bits = typename BitsOf<sizeof(T)>::Type;

    __aicore__ inline TopKKernel() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR values, GM_ADDR indices, uint32_t rows, uint32_t cols,
                                uint32_t k, uint32_t bigCoreNum, uint32_t smallCoreRows)
    {
        uint32_t idx = static_cast<uint32_t>(GetBlockIdx());
        uint32_t rowBegin = idx * smallCoreRows + (idx < bigCoreNum ? idx : bigCoreNum);
        rowCount_ = rowBegin < rows ? smallCoreRows + (idx < bigCoreNum ? 1 : 0) : 0;
        cols_ = cols;
        k_ = k;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x) + static_cast<uint64_t>(rowBegin) * cols,
                             static_cast<uint64_t>(rowCount_) * cols);
        valuesGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(values) + static_cast<uint64_t>(rowBegin) * k,
                                  static_cast<uint64_t>(rowCount_) * k);
        indicesGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(indices) + static_cast<uint64_t>(rowBegin) * k,
                                   static_cast<uint64_t>(rowCount_) * k);
        uint32_t blockElems = 32 / sizeof(T);
        uint32_t alignedCols = (cols + blockElems - 1) / blockElems * blockElems;
        pipe_.InitBuffer(inQue_, BUFFER_NUM, alignedCols * sizeof(T));
        pipe_.InitBuffer(valueQue_, BUFFER_NUM, MAX_K * sizeof(T));
        pipe_.InitBuffer(indexQue_, BUFFER_NUM, MAX_K * sizeof(int32_t));
        pipe_.InitBuffer(reduceTmp_, alignedCols * sizeof(T));
        pipe_.InitBuffer(reduceOut_, 32);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount_; ++r) {
            CopyIn(r);
            Compute();
            CopyOut(r);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t r)
    {
        LocalTensor<T> x = inQue_.AllocTensor<T>();
        DataCopyExtParams params{1, static_cast<uint32_t>(cols_ * sizeof(T)), 0, 0, 0};
        DataCopyPad(x, xGm_[static_cast<uint64_t>(r) * cols_], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        inQue_.EnQue(x);
    }

    __aicore__ inline void Compute()
    {
        LocalTensor<T> x = inQue_.DeQue<T>();
        LocalTensor<T> values = valueQue_.AllocTensor<T>();
        LocalTensor<int32_t> indices = indexQue_.AllocTensor<int32_t>();
        LocalTensor<T> result = reduceOut_.Get<T>();
        LocalTensor<Bits> resultBits = result.template ReinterpretCast<Bits>();
        LocalTensor<Bits> xBits = x.template ReinterpretCast<Bits>();
        const Bits negInf = sizeof(T) == 2 ? static_cast<Bits>(0xFC00u) : static_cast<Bits>(0xFF800000u);
        for (uint32_t j = 0; j < k_; ++j) {
            // result[0] = max, result[1] = its position (stored as raw bits in a T slot).
            ReduceMax(result, x, reduceTmp_.Get<T>(), static_cast<int32_t>(cols_), true);
            uint32_t pos = static_cast<uint32_t>(resultBits.GetValue(1));
            values.SetValue(j, result.GetValue(0));
            indices.SetValue(j, static_cast<int32_t>(pos));
            xBits.SetValue(pos, negInf);
        }
        valueQue_.EnQue(values);
        indexQue_.EnQue(indices);
        inQue_.FreeTensor(x);
    }

    __aicore__ inline void CopyOut(uint32_t r)
    {
        LocalTensor<T> values = valueQue_.DeQue<T>();
        LocalTensor<int32_t> indices = indexQue_.DeQue<int32_t>();
        uint64_t offset = static_cast<uint64_t>(r) * k_;
        DataCopyPad(valuesGm_[offset], values, DataCopyExtParams{1, static_cast<uint32_t>(k_ * sizeof(T)), 0, 0, 0});
        DataCopyPad(indicesGm_[offset], indices,
                    DataCopyExtParams{1, static_cast<uint32_t>(k_ * sizeof(int32_t)), 0, 0, 0});
        valueQue_.FreeTensor(values);
        indexQue_.FreeTensor(indices);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> valueQue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> indexQue_;
    TBuf<QuePosition::VECCALC> reduceTmp_;
    TBuf<QuePosition::VECCALC> reduceOut_;
    GlobalTensor<T> xGm_;
    GlobalTensor<T> valuesGm_;
    GlobalTensor<int32_t> indicesGm_;
    uint32_t rowCount_ = 0;
    uint32_t cols_ = 0;
    uint32_t k_ = 1;
};
} // namespace

extern "C" __global__ __aicore__ void top_k(GM_ADDR x, GM_ADDR values, GM_ADDR indices, GM_ADDR workspace,
                                            GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    TopKKernel<DTYPE_X> op;
    op.Init(x, values, indices, tilingData.rows, tilingData.cols, tilingData.k, tilingData.bigCoreNum,
            tilingData.smallCoreRows);
    op.Process();
}
