// ascsim: the remaining SoftMax-family high-level APIs, ND only, as documented for Atlas A2:
//   SoftmaxFlash (deprecated by the vendor in favour of SoftmaxFlashV2), per row of src [m, k] (valid columns oriSrcK):
//     isUpdate = false: max = rowmax(x); sum = rowsum(exp(x - max)); dst = exp(x - max) / sum   (= SoftMax;
//                       expMax is not written)
//     isUpdate = true:  max = max(inMax, rowmax(x)); e = exp(inMax - max); sum = e * inSum + rowsum(exp(x - max));
//                       expMax = e * inSum / sum; dst = exp(x - max) / sum
//     T = half or float for everything, or half data with float sum/max/inSum/inMax (expMax half).
//   SoftmaxGradFront: dst = rowsum(grad * src) repeated over one 32 B block per row (T = half or float).
//   SoftmaxFlashV3 (T = half data, U = float statistics; k >= 512, k % 64 == 0, m % 8 == 0, splitMeanCnt == 8):
//     s = alpha / (1 - alpha); the row is split into splitMeanCnt contiguous chunks of k / splitMeanCnt;
//     A2 = row mean, A1[c] = chunk mean, x' = x - (A2 - A1[chunk]) * s, M1 = rowmax(x')
//     isUpdate = false: mean = A2; max = M1; dst = exp(x' - M1); sum = rowsum(dst)   (expMax not written)
//     isUpdate = true:  mean = (A2 + inMean * (loopCnt - 1)) / loopCnt; C = (A2 - mean) * s; P = (inMean - mean) * s;
//                       max = max(C + M1, P + inMax); dst = exp(x' - (max - C)); expMax = exp(inMax - max + P);
//                       sum = rowsum(dst) + expMax * inExpSum
// Statistics: one 32 B block per row, the row's value repeated. Math in float, each output rounded once.
// Temporary-buffer models: ascsim/softmax_more_common.h (shared with ascsim/host/softmax_more_tiling.h).
#ifndef ASCSIM_KERNEL_HL_SOFTMAX_MORE_H_
#define ASCSIM_KERNEL_HL_SOFTMAX_MORE_H_
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>
#include "hl_softmax.h"
#include "../softmax_more_common.h"

namespace AscendC {
struct SoftMaxParams {
    uint32_t srcM = 0;
    uint32_t srcK = 0;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    uint32_t loopCnt = 1;
    uint32_t splitMeanCnt = 8;
    float alpha = 0.0f;
    constexpr SoftMaxParams() = default;
    constexpr SoftMaxParams(uint32_t m, uint32_t k, uint32_t om, uint32_t ok, uint32_t loop, uint32_t split, float a)
        : srcM(m), srcK(k), oriSrcM(om), oriSrcK(ok), loopCnt(loop), splitMeanCnt(split), alpha(a) {}
};
}  // namespace AscendC

namespace ascsim {
// temporary buffer (or the UB tail when tmp == nullptr) of at least `need` bytes, not overlapping any of `spans`;
// all of a sharedTmpBuffer is PIPE_V scratch. Both failures name `query`.
inline void smx_tmp(const char* api, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t need, const char* query,
                    std::initializer_list<HlSpan> spans) {
    hl_check_tmp_bytes(api, tmp, need, tmp ? tmp->GetSize() : 0, spans, query, "", true);
}
template <class X> inline std::pair<const void*, size_t> smx_span(const AscendC::LocalTensor<X>& t, uint64_t n) {
    return {static_cast<const void*>(t.addr_), size_t(n * sizeof(X))};
}
template <class T>
inline void smx_basic_block(const char* api, uint32_t m, uint32_t k) {
    if (k % 64 || k >= 2048 || k < 256 / sizeof(T) || m % 8)
        fail(api, "Failed to check shape",
             "isBasicBlock = true needs the last axis a multiple of 64 in [" + std::to_string(256 / sizeof(T)) +
                 ", 2048) and the row count a multiple of 8, got [" + std::to_string(m) + ", " + std::to_string(k) +
                 "] (IsBasicBlockInSoftMax)");
}

// ---- SoftmaxFlash ----
template <bool isBasicBlock, class T, class U, class Tiling>
inline void softmax_flash_impl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& sum,
                               const AscendC::LocalTensor<U>& mx, const AscendC::LocalTensor<T>& src,
                               const AscendC::LocalTensor<T>& expMax, const AscendC::LocalTensor<U>& inSum,
                               const AscendC::LocalTensor<U>& inMax, const AscendC::LocalTensor<uint8_t>* tmp,
                               const Tiling& tiling, bool isUpdate, const AscendC::SoftMaxShapeInfo& si) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "SoftmaxFlash supports half and float");
    static_assert(std::is_same_v<U, T> || (std::is_same_v<T, half> && std::is_same_v<U, float>),
                  "SoftmaxFlash: sum/max are of the data type, or float for half data");
    const char* api = "SoftmaxFlash";
    uint32_t m, k, ok;
    softmax_dims<T>(api, tiling, si, m, k, ok);
    if (m == 0 || k == 0) return;
    if (isBasicBlock) smx_basic_block<T>(api, m, k);
    constexpr uint32_t sbU = 32 / sizeof(U), sbT = 32 / sizeof(T);
    check_src(api, src, uint64_t(m) * k);
    if (isUpdate) { check_src(api, inSum, uint64_t(m) * sbU); check_src(api, inMax, uint64_t(m) * sbU); }
    check_dst(api, dst, uint64_t(m) * k);
    check_dst(api, sum, uint64_t(m) * sbU);
    check_dst(api, mx, uint64_t(m) * sbU);
    if (isUpdate) check_dst(api, expMax, uint64_t(m) * sbT);
    smx_tmp(api, tmp, ascsim_softmax_more::flash_min(m, k), "GetSoftMaxFlashMinTmpSize",
            {smx_span(dst, uint64_t(m) * k), smx_span(src, uint64_t(m) * k), smx_span(sum, uint64_t(m) * sbU),
             smx_span(mx, uint64_t(m) * sbU), smx_span(expMax, isUpdate ? uint64_t(m) * sbT : 0),
             smx_span(inSum, isUpdate ? uint64_t(m) * sbU : 0), smx_span(inMax, isUpdate ? uint64_t(m) * sbU : 0)});
    std::vector<float> row(k);
    for (uint32_t r = 0; r < m; ++r) {
        const T* s = src.addr_ + size_t(r) * k;
        float rmax = -INFINITY;
        for (uint32_t i = 0; i < ok; ++i) rmax = std::max(rmax, float(s[i]));
        float in_m = 0, in_s = 0, nmax = rmax;
        if (isUpdate) {   // inputs first: max/inMax and sum/inSum may share UB
            in_m = float(inMax.addr_[size_t(r) * sbU]);
            in_s = float(inSum.addr_[size_t(r) * sbU]);
            nmax = std::max(in_m, rmax);
        }
        float rsum = 0;
        for (uint32_t i = 0; i < k; ++i) { row[i] = std::exp(float(s[i]) - nmax); if (i < ok) rsum += row[i]; }
        float vsum = rsum, em = 0;
        if (isUpdate) {
            float e = std::exp(in_m - nmax);
            vsum = e * in_s + rsum;
            em = e * in_s / vsum;
        }
        T* d = dst.addr_ + size_t(r) * k;
        for (uint32_t i = 0; i < k; ++i) d[i] = T(row[i] / vsum);
        for (uint32_t j = 0; j < sbU; ++j) { mx.addr_[size_t(r) * sbU + j] = U(nmax); sum.addr_[size_t(r) * sbU + j] = U(vsum); }
        if (isUpdate)
            for (uint32_t j = 0; j < sbT; ++j) expMax.addr_[size_t(r) * sbT + j] = T(em);
    }
}

// ---- SoftmaxGradFront ----
template <bool isBasicBlock, class T, class Tiling>
inline void softmax_grad_front_impl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& grad,
                                    const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                                    const Tiling& tiling, const AscendC::SoftMaxShapeInfo& si) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "SoftmaxGradFront supports half and float");
    const char* api = "SoftmaxGradFront";
    uint32_t m, k, ok;
    softmax_dims<T>(api, tiling, si, m, k, ok);
    if (m == 0 || k == 0) return;
    if (isBasicBlock) smx_basic_block<T>(api, m, k);
    constexpr uint32_t blk = 32 / sizeof(T);
    check_src(api, grad, uint64_t(m) * k);
    check_src(api, src, uint64_t(m) * k);
    check_dst(api, dst, uint64_t(m) * blk);
    smx_tmp(api, tmp, ascsim_softmax_more::grad_min(m, k), "GetSoftMaxGradMinTmpSize",
            {smx_span(dst, uint64_t(m) * blk), smx_span(grad, uint64_t(m) * k), smx_span(src, uint64_t(m) * k)});
    std::vector<float> out(m);
    for (uint32_t r = 0; r < m; ++r) {   // all reads before any write: dst may share UB with an input
        const T* g = grad.addr_ + size_t(r) * k;
        const T* s = src.addr_ + size_t(r) * k;
        float dot = 0;
        for (uint32_t i = 0; i < ok; ++i) dot += float(g[i]) * float(s[i]);
        out[r] = dot;
    }
    for (uint32_t r = 0; r < m; ++r)
        for (uint32_t j = 0; j < blk; ++j) dst.addr_[size_t(r) * blk + j] = T(out[r]);
}

// ---- SoftmaxFlashV3 ----
template <bool isUpdate, class T, class U, class Tiling>
inline void softmax_flash_v3_impl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& mean,
                                  const AscendC::LocalTensor<U>& sum, const AscendC::LocalTensor<U>& mx,
                                  const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& expMax,
                                  const AscendC::LocalTensor<U>& inMean, const AscendC::LocalTensor<U>& inSum,
                                  const AscendC::LocalTensor<U>& inMax, const AscendC::LocalTensor<uint8_t>* tmp,
                                  const Tiling& tiling, const AscendC::SoftMaxParams& p) {
    (void)tiling;
    const char* api = "SoftmaxFlashV3";
    const uint32_t m = p.srcM, k = p.srcK;
    if (p.oriSrcM != m || p.oriSrcK != k)
        fail(api, "Failed to check params",
             "unaligned shapes are not supported: params must have oriSrcM == srcM and oriSrcK == srcK, got srcM = " +
                 std::to_string(m) + ", oriSrcM = " + std::to_string(p.oriSrcM) + ", srcK = " + std::to_string(k) +
                 ", oriSrcK = " + std::to_string(p.oriSrcK));
    if (k < 512 || k % 64)
        fail(api, "Failed to check shape",
             "the last axis n = " + std::to_string(k) + " must be at least 512 and a multiple of 64");
    if (m == 0 || m % 8)
        fail(api, "Failed to check shape", "the row count m = " + std::to_string(m) + " must be a non-zero multiple of 8");
    if (p.splitMeanCnt != 8)
        fail(api, "Failed to check params", "splitMeanCnt = " + std::to_string(p.splitMeanCnt) + " but only 8 is supported");
    if (isUpdate && p.loopCnt < 1) fail(api, "Failed to check params", "loopCnt must be at least 1 when isUpdate is true");
    if (!(p.alpha < 1.0f) || std::isnan(p.alpha))
        fail(api, "Failed to check params", "alpha must be below 1 (alpha / (1 - alpha) is the shift scale)");
    constexpr uint32_t sbU = 32 / sizeof(U), sbT = 32 / sizeof(T);
    check_src(api, src, uint64_t(m) * k);
    if (isUpdate) {
        check_src(api, inMean, uint64_t(m) * sbU);
        check_src(api, inSum, uint64_t(m) * sbU);
        check_src(api, inMax, uint64_t(m) * sbU);
    }
    check_dst(api, dst, uint64_t(m) * k);
    check_dst(api, mean, uint64_t(m) * sbU);
    check_dst(api, sum, uint64_t(m) * sbU);
    check_dst(api, mx, uint64_t(m) * sbU);
    if (isUpdate) check_dst(api, expMax, uint64_t(m) * sbT);
    const uint64_t st = uint64_t(m) * sbU, in_st = isUpdate ? st : 0;
    smx_tmp(api, tmp, ascsim_softmax_more::v3_min(m, k), "GetSoftMaxFlashV3MaxMinTmpSize minValue",
            {smx_span(dst, uint64_t(m) * k), smx_span(src, uint64_t(m) * k), smx_span(mean, st), smx_span(sum, st),
             smx_span(mx, st), smx_span(expMax, isUpdate ? uint64_t(m) * sbT : 0), smx_span(inMean, in_st),
             smx_span(inSum, in_st), smx_span(inMax, in_st)});
    const uint32_t cnt = p.splitMeanCnt, baseK = k / cnt;
    const float scale = p.alpha / (1.0f - p.alpha);
    std::vector<float> xs(k);
    for (uint32_t r = 0; r < m; ++r) {
        const T* s = src.addr_ + size_t(r) * k;
        float total = 0;
        float local[8];
        for (uint32_t c = 0; c < cnt; ++c) {
            float cs = 0;
            for (uint32_t i = 0; i < baseK; ++i) cs += float(s[c * baseK + i]);
            local[c] = cs / float(baseK);
            total += cs;
        }
        const float a2 = total / float(k);
        float m1 = -INFINITY;
        for (uint32_t c = 0; c < cnt; ++c) {
            const float shift = (a2 - local[c]) * scale;
            for (uint32_t i = 0; i < baseK; ++i) {
                float v = float(s[c * baseK + i]) - shift;
                xs[c * baseK + i] = v;
                m1 = std::max(m1, v);
            }
        }
        float a = a2, nmax = m1, ref = m1, em = 0, in_s = 0;
        if (isUpdate) {   // inputs first: mean/inMean, max/inMax and sum/inExpSum may share UB
            const float in_a = float(inMean.addr_[size_t(r) * sbU]);
            const float in_m = float(inMax.addr_[size_t(r) * sbU]);
            in_s = float(inSum.addr_[size_t(r) * sbU]);
            a = (a2 + in_a * float(p.loopCnt - 1)) / float(p.loopCnt);
            const float cur = (a2 - a) * scale, prev = (in_a - a) * scale;
            nmax = std::max(cur + m1, prev + in_m);
            ref = nmax - cur;
            em = std::exp(in_m - nmax + prev);
        }
        float rsum = 0;
        T* d = dst.addr_ + size_t(r) * k;
        for (uint32_t i = 0; i < k; ++i) {
            const float e = std::exp(xs[i] - ref);
            rsum += e;
            d[i] = T(e);
        }
        const float vsum = isUpdate ? rsum + em * in_s : rsum;
        for (uint32_t j = 0; j < sbU; ++j) {
            mean.addr_[size_t(r) * sbU + j] = U(a);
            sum.addr_[size_t(r) * sbU + j] = U(vsum);
            mx.addr_[size_t(r) * sbU + j] = U(nmax);
        }
        if (isUpdate)
            for (uint32_t j = 0; j < sbT; ++j) expMax.addr_[size_t(r) * sbT + j] = T(em);
    }
}
}  // namespace ascsim

namespace AscendC {
// SoftmaxFlash: same data type for everything (half or float), or half data with float sum/max
#define ASCSIM_SMX_FLASH_TPL                                                                                          \
    template <typename T, bool isReuseSource = false, bool isBasicBlock = false, typename Tiling,                    \
              typename = std::enable_if_t<::ascsim::sm_not_local_v<Tiling>>>
ASCSIM_SMX_FLASH_TPL
__aicore__ inline void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                                    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
                                    const LocalTensor<T>& inMaxTensor, const Tiling& tiling, bool isUpdate = false,
                                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ::ascsim::softmax_flash_impl<isBasicBlock>(dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor,
                                               nullptr, tiling, isUpdate, softmaxShapeInfo);
}
ASCSIM_SMX_FLASH_TPL
__aicore__ inline void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                                    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                    const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inSumTensor,
                                    const LocalTensor<float>& inMaxTensor, const Tiling& tiling, bool isUpdate = false,
                                    const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ::ascsim::softmax_flash_impl<isBasicBlock>(dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor,
                                               nullptr, tiling, isUpdate, softmaxShapeInfo);
}
ASCSIM_SMX_FLASH_TPL
__aicore__ inline void SoftmaxFlash(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                                    const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inSumTensor,
                                    const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const Tiling& tiling,
                                    bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ::ascsim::softmax_flash_impl<isBasicBlock>(dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor,
                                               &sharedTmpBuffer, tiling, isUpdate, softmaxShapeInfo);
}
ASCSIM_SMX_FLASH_TPL
__aicore__ inline void SoftmaxFlash(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                                    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                    const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inSumTensor,
                                    const LocalTensor<float>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                    const Tiling& tiling, bool isUpdate = false, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ::ascsim::softmax_flash_impl<isBasicBlock>(dstTensor, sumTensor, maxTensor, srcTensor, expMaxTensor, inSumTensor, inMaxTensor,
                                               &sharedTmpBuffer, tiling, isUpdate, softmaxShapeInfo);
}
#undef ASCSIM_SMX_FLASH_TPL

// SoftmaxGradFront: dst [m, 32 B] = rowsum(grad * src)
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false, typename Tiling,
          typename = std::enable_if_t<::ascsim::sm_not_local_v<Tiling>>>
__aicore__ inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                                        const Tiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "ascsim: SoftmaxGradFront with isDataFormatNZ = true (NZ format) is not simulated; only ND is");
    ::ascsim::softmax_grad_front_impl<isBasicBlock>(dstTensor, gradTensor, srcTensor, nullptr, tiling, softmaxShapeInfo);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false, typename Tiling,
          typename = std::enable_if_t<::ascsim::sm_not_local_v<Tiling>>>
__aicore__ inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                                        const LocalTensor<uint8_t>& sharedTmpBuffer, const Tiling& tiling,
                                        const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "ascsim: SoftmaxGradFront with isDataFormatNZ = true (NZ format) is not simulated; only ND is");
    ::ascsim::softmax_grad_front_impl<isBasicBlock>(dstTensor, gradTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo);
}

// SoftmaxFlashV3: T = half (src, dst, expMax), U = float (mean, expSum, max and their inputs)
#define ASCSIM_SMX_V3_TPL                                                                                             \
    template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,  \
              bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename Tiling,      \
              typename = std::enable_if_t<::ascsim::sm_not_local_v<Tiling>>>
#define ASCSIM_SMX_V3_ASSERTS                                                                                         \
    static_assert(std::is_same_v<T, half>, "SoftmaxFlashV3 (Atlas A2): T (src/dst/expMax) must be half");            \
    static_assert(std::is_same_v<U, float>, "SoftmaxFlashV3 (Atlas A2): U (mean/expSum/max) must be float");         \
    static_assert(!isBasicBlock, "SoftmaxFlashV3: isBasicBlock is reserved; pass false");                           \
    static_assert(!isDataFormatNZ, "SoftmaxFlashV3: isDataFormatNZ is reserved (ND only); pass false");             \
    static_assert(config.mode == SoftmaxMode::SOFTMAX_NORMAL && config.oriSrcM == 0 && config.oriSrcK == 0,          \
                  "SoftmaxFlashV3: config is reserved; pass SOFTMAX_DEFAULT_CFG");
ASCSIM_SMX_V3_TPL
__aicore__ inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor, const LocalTensor<U>& expSumTensor,
                                      const LocalTensor<U>& maxTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                                      const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                                      const LocalTensor<U>& inMaxTensor, const Tiling& tiling, const SoftMaxParams& params) {
    ASCSIM_SMX_V3_ASSERTS
    ::ascsim::softmax_flash_v3_impl<isUpdate>(dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inMeanTensor,
                                              inExpSumTensor, inMaxTensor, nullptr, tiling, params);
}
ASCSIM_SMX_V3_TPL
__aicore__ inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor, const LocalTensor<U>& expSumTensor,
                                      const LocalTensor<U>& maxTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                                      const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                                      const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const Tiling& tiling,
                                      const SoftMaxParams& params) {
    ASCSIM_SMX_V3_ASSERTS
    ::ascsim::softmax_flash_v3_impl<isUpdate>(dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inMeanTensor,
                                              inExpSumTensor, inMaxTensor, &sharedTmpBuffer, tiling, params);
}
#undef ASCSIM_SMX_V3_TPL
#undef ASCSIM_SMX_V3_ASSERTS
}  // namespace AscendC
#endif  // ASCSIM_KERNEL_HL_SOFTMAX_MORE_H_
