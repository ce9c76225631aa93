#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class EmbeddingKernel {
public:
    __aicore__ inline EmbeddingKernel() {}

    __aicore__ inline void Init(GM_ADDR weight, GM_ADDR indices, GM_ADDR y, uint32_t numIndices, uint32_t dim,
                                uint32_t numEmbeddings, uint32_t bigCoreNum, uint32_t smallCoreRows,
                                uint32_t tileLength)
    {
        uint32_t idx = static_cast<uint32_t>(GetBlockIdx());
        rowBegin_ = idx * smallCoreRows + (idx < bigCoreNum ? idx : bigCoreNum);
        rowCount_ = smallCoreRows + (idx < bigCoreNum ? 1 : 0);
        if (rowBegin_ >= numIndices) {
            rowCount_ = 0;
        }
        dim_ = dim;
        tileLength_ = tileLength;
        weightGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(weight),
                                  static_cast<uint64_t>(numEmbeddings) * dim);
        indexGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(indices), numIndices);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), static_cast<uint64_t>(numIndices) * dim);
        // GM -> UB -> GM with no vector work in between: one bound queue gives the MTE2 -> MTE3 ordering.
        pipe_.InitBuffer(stage_, BUFFER_NUM, tileLength * sizeof(T));
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = 0; r < rowCount_; ++r) {
            uint64_t outRow = rowBegin_ + r;
            uint64_t srcRow = static_cast<uint64_t>(indexGm_.GetValue(outRow));
            for (uint32_t col = 0; col < dim_; col += tileLength_) {
                uint32_t count = dim_ - col < tileLength_ ? dim_ - col : tileLength_;
                MoveChunk(srcRow * dim_ + col, outRow * dim_ + col, count);
            }
        }
    }

private:
    __aicore__ inline void MoveChunk(uint64_t src, uint64_t dst, uint32_t count)
    {
        DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        LocalTensor<T> buf = stage_.AllocTensor<T>();
        DataCopyPad(buf, weightGm_[src], copyParams, DataCopyPadExtParams<T>{false, 0, 0, 0});
        stage_.EnQue(buf);
        buf = stage_.DeQue<T>();
        DataCopyPad(yGm_[dst], buf, copyParams);
        stage_.FreeTensor(buf);
    }

    TPipe pipe_;
    TQueBind<QuePosition::VECIN, QuePosition::VECOUT, BUFFER_NUM> stage_;
    GlobalTensor<T> weightGm_;
    GlobalTensor<int32_t> indexGm_;
    GlobalTensor<T> yGm_;
    uint32_t rowBegin_ = 0;
    uint32_t rowCount_ = 0;
    uint32_t dim_ = 0;
    uint32_t tileLength_ = 0;
};
} // namespace

extern "C" __global__ __aicore__ void embedding(GM_ADDR weight, GM_ADDR indices, GM_ADDR y, GM_ADDR workspace,
                                                GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    EmbeddingKernel<DTYPE_WEIGHT> op;
    op.Init(weight, indices, y, tilingData.numIndices, tilingData.embeddingDim, tilingData.numEmbeddings,
            tilingData.bigCoreNum, tilingData.smallCoreRows, tilingData.tileLength);
    op.Process();
}
