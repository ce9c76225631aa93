// ascsim: SoftMax / SimpleSoftMax / SoftmaxGrad on ND tiles (reference §2.9). src is [M, K] with K 32-byte aligned
// (the rows' valid length is oriSrcK of SoftMaxShapeInfo when given); sum and max are [M, 32 B] with each row's
// value repeated across its block. Math in float, rounded to T once. The tiling argument is the kernel-side struct
// the build generates from optiling::SoftMaxTiling (ascsim/host/softmax_tiling.h); its srcM/srcK are used when no
// SoftMaxShapeInfo is given. Temp model as in the host helpers: >= 2 float rows of K.
#ifndef ASCSIM_KERNEL_HL_SOFTMAX_H_
#define ASCSIM_KERNEL_HL_SOFTMAX_H_
#include <cmath>
#include <string>
#include <vector>
#include "hl_math.h"

namespace AscendC {
struct SoftMaxShapeInfo { uint32_t srcM = 0; uint32_t srcK = 0; uint32_t oriSrcM = 0; uint32_t oriSrcK = 0; };
struct SoftmaxConfig { bool isCheckTiling = true; uint32_t oriSrcM = 0; uint32_t oriSrcK = 0; };
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0};
}  // namespace AscendC

namespace ascsim {
template <class T, class Tiling>
inline void softmax_dims(const char* api, const Tiling& tiling, const AscendC::SoftMaxShapeInfo& si, uint32_t& m, uint32_t& k, uint32_t& ok) {
    m = si.srcM ? si.srcM : tiling.srcM;
    k = si.srcK ? si.srcK : tiling.srcK;
    ok = si.oriSrcK ? si.oriSrcK : k;
    if ((uint64_t(k) * sizeof(T)) % 32)
        fail(api, "Failed to check shape", "the last axis srcK = " + std::to_string(k) + " must be 32-byte aligned");
    if (ok > k) fail(api, "Failed to check shape", "oriSrcK > srcK");
}
template <class T>
inline void softmax_tmp(const char* api, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t k) {
    uint32_t need = 2u * ((k * 4u + 31u) / 32u * 32u);
    if (tmp) {
        check_ub_aligned(api, tmp->addr_);
        if (tmp->GetSize() < need)
            fail(api, "sharedTmpBuffer is too small", "needs at least " + std::to_string(need) + " B (GetSoftMaxMinTmpSize), got " +
                                                          std::to_string(tmp->GetSize()));
    } else {
        auto* pipe = AscendC::GetTPipePtr();
        uint32_t used = pipe ? pipe->UsedBytes() : 0;
        if (core().ub_size < used + need)
            fail(api, "no UB left for the API's temporary buffer", "needs " + std::to_string(need) + " B after the last InitBuffer");
    }
}
template <class T, class Tiling>
inline void softmax_impl(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& sum,
                         const AscendC::LocalTensor<T>& mx, const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                         const Tiling& tiling, const AscendC::SoftMaxShapeInfo& si, bool simple) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "SoftMax supports half and float");
    uint32_t m, k, ok;
    softmax_dims<T>(api, tiling, si, m, k, ok);
    if (m == 0 || k == 0) return;
    constexpr uint32_t blk = 32 / sizeof(T);
    check_count(api, src, uint64_t(m) * k);
    check_count(api, dst, uint64_t(m) * k);
    check_count(api, sum, uint64_t(m) * blk);
    check_count(api, mx, uint64_t(m) * blk);
    softmax_tmp<T>(api, tmp, k);
    std::vector<float> row(k);
    for (uint32_t r = 0; r < m; ++r) {
        const T* s = src.addr_ + size_t(r) * k;
        float vmax, vsum = 0;
        if (simple) {
            vmax = float(mx.addr_[size_t(r) * blk]);
            vsum = float(sum.addr_[size_t(r) * blk]);
            for (uint32_t i = 0; i < k; ++i) row[i] = std::exp(float(s[i]) - vmax);
        } else {
            vmax = -INFINITY;
            for (uint32_t i = 0; i < ok; ++i) vmax = std::max(vmax, float(s[i]));
            for (uint32_t i = 0; i < k; ++i) { row[i] = std::exp(float(s[i]) - vmax); if (i < ok) vsum += row[i]; }
        }
        T* d = dst.addr_ + size_t(r) * k;
        for (uint32_t i = 0; i < k; ++i) d[i] = T(row[i] / vsum);
        if (!simple)
            for (uint32_t j = 0; j < blk; ++j) { mx.addr_[size_t(r) * blk + j] = T(vmax); sum.addr_[size_t(r) * blk + j] = T(vsum); }
    }
}
}  // namespace ascsim

namespace AscendC {
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename Tiling>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                               const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const Tiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ::ascsim::softmax_impl("SoftMax", dstTensor, sumTensor, maxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, false);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename Tiling>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                               const LocalTensor<T>& srcTensor, const Tiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ::ascsim::softmax_impl("SoftMax", dstTensor, sumTensor, maxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo, false);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename Tiling>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor,
                                     const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const Tiling& tiling,
                                     const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ::ascsim::softmax_impl("SimpleSoftMax", dstTensor, inSumTensor, inMaxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, true);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename Tiling>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor,
                                     const LocalTensor<T>& srcTensor, const Tiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ::ascsim::softmax_impl("SimpleSoftMax", dstTensor, inSumTensor, inMaxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo, true);
}
// SoftmaxGrad: dst = (grad - rowsum(grad * src)) * src; isFront: dst = rowsum(grad * src) repeated over a 32 B block.
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false, typename Tiling>
__aicore__ inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const Tiling& tiling, bool isFront = false,
                                   const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    const char* api = "SoftmaxGrad";
    uint32_t m, k, ok;
    ::ascsim::softmax_dims<T>(api, tiling, softmaxShapeInfo, m, k, ok);
    if (m == 0 || k == 0) return;
    constexpr uint32_t blk = 32 / sizeof(T);
    ::ascsim::check_count(api, gradTensor, uint64_t(m) * k);
    ::ascsim::check_count(api, srcTensor, uint64_t(m) * k);
    ::ascsim::check_count(api, dstTensor, uint64_t(m) * (isFront ? blk : k));
    ::ascsim::softmax_tmp<T>(api, &sharedTmpBuffer, k);
    std::vector<float> out(size_t(m) * (isFront ? blk : k));
    for (uint32_t r = 0; r < m; ++r) {
        const T* g = gradTensor.addr_ + size_t(r) * k;
        const T* s = srcTensor.addr_ + size_t(r) * k;
        float dot = 0;
        for (uint32_t i = 0; i < ok; ++i) dot += float(g[i]) * float(s[i]);
        if (isFront) { for (uint32_t j = 0; j < blk; ++j) out[size_t(r) * blk + j] = dot; continue; }
        for (uint32_t i = 0; i < k; ++i) out[size_t(r) * k + i] = (float(g[i]) - dot) * float(s[i]);
    }
    for (size_t i = 0; i < out.size(); ++i) dstTensor.addr_[i] = T(out[i]);
}
}  // namespace AscendC
#endif  // ASCSIM_KERNEL_HL_SOFTMAX_H_
