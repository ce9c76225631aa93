#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t REDUCTION_NONE = 0;
constexpr uint32_t REDUCTION_MEAN = 2;

template <typename A, typename B> struct IsSame { static constexpr bool value = false; };
template <typename A> struct IsSame<A, A> { static constexpr bool value = true; };

template <typename T>
class SmoothL1LossKernel {
public:
    __aicore__ inline SmoothL1LossKernel() {}

    __aicore__ inline void Init(GM_ADDR predict, GM_ADDR label, GM_ADDR y, GM_ADDR userWorkspace,
                                uint32_t total, uint32_t bigCoreNum, uint32_t smallLen, uint32_t blockElems,
                                uint32_t tileLength, uint32_t usedCoreNum, uint32_t reduction, float beta)
    {
        uint32_t idx = static_cast<uint32_t>(GetBlockIdx());
        uint32_t bigLen = smallLen + blockElems;
        uint32_t offset = idx < bigCoreNum ? idx * bigLen : bigCoreNum * bigLen + (idx - bigCoreNum) * smallLen;
        length_ = idx < bigCoreNum ? bigLen : smallLen;
        length_ = offset >= total ? 0 : (offset + length_ > total ? total - offset : length_);
        total_ = total;
        tileLength_ = tileLength;
        usedCoreNum_ = usedCoreNum;
        reduction_ = reduction;
        beta_ = beta;
        predictGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(predict) + offset, length_);
        labelGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(label) + offset, length_);
        if (reduction == REDUCTION_NONE) {
            yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y) + offset, length_);
        } else {
            yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), 1);
        }
        partialGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(userWorkspace), usedCoreNum);
        pipe_.InitBuffer(predictQue_, BUFFER_NUM, tileLength * sizeof(T));
        pipe_.InitBuffer(labelQue_, BUFFER_NUM, tileLength * sizeof(T));
        pipe_.InitBuffer(outQue_, BUFFER_NUM, tileLength * sizeof(T));
        pipe_.InitBuffer(diff_, tileLength * sizeof(float));
        pipe_.InitBuffer(absDiff_, tileLength * sizeof(float));
        pipe_.InitBuffer(clipped_, tileLength * sizeof(float));
        pipe_.InitBuffer(reduceTmp_, tileLength * sizeof(float));
        pipe_.InitBuffer(reduceOut_, 32);
        pipe_.InitBuffer(partialQue_, 1, (usedCoreNum + 63) / 64 * 64 * sizeof(float));
        pipe_.InitBuffer(gatherQue_, 1, (usedCoreNum + 63) / 64 * 64 * sizeof(float));
    }

    __aicore__ inline void Process()
    {
        float partial = 0.0f;
        uint32_t tiles = (length_ + tileLength_ - 1) / tileLength_;
        for (uint32_t i = 0; i < tiles; ++i) {
            uint32_t count = (i + 1 == tiles) ? length_ - i * tileLength_ : tileLength_;
            uint64_t start = static_cast<uint64_t>(i) * tileLength_;
            CopyIn(start, count);
            partial += Compute(start, count);
        }
        if (reduction_ == REDUCTION_NONE) {
            return;
        }
        StorePartial(partial);
        SyncAll();
        if (GetBlockIdx() == 0) {
            Finish();
        }
    }

private:
    __aicore__ inline void CopyIn(uint64_t start, uint32_t count)
    {
        DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        LocalTensor<T> p = predictQue_.AllocTensor<T>();
        LocalTensor<T> l = labelQue_.AllocTensor<T>();
        DataCopyPad(p, predictGm_[start], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        DataCopyPad(l, labelGm_[start], params, DataCopyPadExtParams<T>{false, 0, 0, 0});
        predictQue_.EnQue(p);
        labelQue_.EnQue(l);
    }

    // loss = q * (|d| - q / 2) / beta with q = min(|d|, beta): the quadratic branch below beta, linear above.
    __aicore__ inline float Compute(uint64_t start, uint32_t count)
    {
        LocalTensor<T> p = predictQue_.DeQue<T>();
        LocalTensor<T> l = labelQue_.DeQue<T>();
        LocalTensor<float> d = diff_.Get<float>();
        LocalTensor<float> a = absDiff_.Get<float>();
        LocalTensor<float> q = clipped_.Get<float>();
        if constexpr (IsSame<T, float>::value) {
            Sub(d, p, l, count);
        } else {
            Cast(d, p, RoundMode::CAST_NONE, count);
            Cast(a, l, RoundMode::CAST_NONE, count);
            Sub(d, d, a, count);
        }
        predictQue_.FreeTensor(p);
        labelQue_.FreeTensor(l);
        Abs(a, d, count);
        Mins(q, a, beta_, count);
        Muls(d, q, -0.5f, count);
        Add(d, d, a, count);
        Mul(d, d, q, count);
        Muls(d, d, 1.0f / beta_, count);

        if (reduction_ != REDUCTION_NONE) {
            LocalTensor<float> result = reduceOut_.Get<float>();
            ReduceSum(result, d, reduceTmp_.Get<float>(), static_cast<int32_t>(count));
            return result.GetValue(0);
        }
        LocalTensor<T> out = outQue_.AllocTensor<T>();
        if constexpr (IsSame<T, float>::value) {
            Adds(out, d, 0.0f, count);
        } else {
            Cast(out, d, RoundMode::CAST_RINT, count);
        }
        outQue_.EnQue(out);
        out = outQue_.DeQue<T>();
        DataCopyPad(yGm_[start], out, DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0});
        outQue_.FreeTensor(out);
        return 0.0f;
    }

    __aicore__ inline void StorePartial(float partial)
    {
        LocalTensor<float> buf = partialQue_.AllocTensor<float>();
        Duplicate(buf, partial, 8);
        partialQue_.EnQue(buf);
        buf = partialQue_.DeQue<float>();
        // Only 4 bytes land in GM, so neighbouring cores' slots are untouched.
        DataCopyPad(partialGm_[GetBlockIdx()], buf, DataCopyExtParams{1, sizeof(float), 0, 0, 0});
        partialQue_.FreeTensor(buf);
    }

    __aicore__ inline void Finish()
    {
        // Copy-in goes through a VECIN queue: its EnQue/DeQue is what orders MTE2 before the vector reduction.
        LocalTensor<float> buf = gatherQue_.AllocTensor<float>();
        DataCopyPad(buf, partialGm_, DataCopyExtParams{1, static_cast<uint32_t>(usedCoreNum_ * sizeof(float)), 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0});
        gatherQue_.EnQue(buf);
        buf = gatherQue_.DeQue<float>();
        LocalTensor<float> result = reduceOut_.Get<float>();
        ReduceSum(result, buf, reduceTmp_.Get<float>(), static_cast<int32_t>(usedCoreNum_));
        float sum = result.GetValue(0);
        gatherQue_.FreeTensor(buf);
        if (reduction_ == REDUCTION_MEAN) {
            sum = sum / static_cast<float>(total_);
        }
        LocalTensor<float> wide = diff_.Get<float>();
        Duplicate(wide, sum, 8);
        LocalTensor<T> out = outQue_.AllocTensor<T>();
        if constexpr (IsSame<T, float>::value) {
            Adds(out, wide, 0.0f, 8);
        } else {
            Cast(out, wide, RoundMode::CAST_RINT, 8);
        }
        outQue_.EnQue(out);
        out = outQue_.DeQue<T>();
        DataCopyPad(yGm_, out, DataCopyExtParams{1, sizeof(T), 0, 0, 0});
        outQue_.FreeTensor(out);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> predictQue_;
    TQue<QuePosition::VECIN, BUFFER_NUM> labelQue_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQue_;
    TQue<QuePosition::VECOUT, 1> partialQue_;
    TQue<QuePosition::VECIN, 1> gatherQue_;
    TBuf<QuePosition::VECCALC> diff_;
    TBuf<QuePosition::VECCALC> absDiff_;
    TBuf<QuePosition::VECCALC> clipped_;
    TBuf<QuePosition::VECCALC> reduceTmp_;
    TBuf<QuePosition::VECCALC> reduceOut_;
    GlobalTensor<T> predictGm_;
    GlobalTensor<T> labelGm_;
    GlobalTensor<T> yGm_;
    GlobalTensor<float> partialGm_;
    uint32_t length_ = 0;
    uint32_t total_ = 0;
    uint32_t tileLength_ = 0;
    uint32_t usedCoreNum_ = 1;
    uint32_t reduction_ = 0;
    float beta_ = 1.0f;
};
} // namespace

extern "C" __global__ __aicore__ void smooth_l1_loss(GM_ADDR predict, GM_ADDR label, GM_ADDR y, GM_ADDR workspace,
                                                     GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR userWorkspace = GetUserWorkspace(workspace);
    SmoothL1LossKernel<DTYPE_PREDICT> op;
    op.Init(predict, label, y, userWorkspace, tilingData.totalLength, tilingData.bigCoreNum,
            tilingData.smallCoreLength, tilingData.blockElems, tilingData.tileLength, tilingData.usedCoreNum,
            tilingData.reduction, tilingData.beta);
    op.Process();
}
