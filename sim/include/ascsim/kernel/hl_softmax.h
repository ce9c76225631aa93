// ascsim: SoftMax / SimpleSoftMax / SoftmaxGrad on ND tiles (reference §2.9). src is [M, K] with K 32-byte aligned
// (the rows' valid length is oriSrcK of SoftMaxShapeInfo when given); sum and max are [M, 32 B] with each row's
// value repeated across its block. Math in float, rounded to T once. The tiling argument is the kernel-side struct
// the build generates from optiling::SoftMaxTiling (ascsim/host/softmax_tiling.h); its srcM/srcK are used when no
// SoftMaxShapeInfo is given. Temp model as in the host helpers: >= 2 float rows of K.
// SoftmaxFlashV2 (FlashAttention-2 online softmax, ND only) is at the end of the file.
#ifndef ASCSIM_KERNEL_HL_SOFTMAX_H_
#define ASCSIM_KERNEL_HL_SOFTMAX_H_
#include <cmath>
#include <string>
#include <vector>
#include "hl_math.h"

namespace AscendC {
struct SoftMaxShapeInfo { uint32_t srcM = 0; uint32_t srcK = 0; uint32_t oriSrcM = 0; uint32_t oriSrcK = 0; };
// SoftmaxMode: SOFTMAX_NORMAL broadcasts every per-row statistic over one 32 B block; SOFTMAX_OUTPUT_WITHOUT_BRC
// keeps one element per row (SoftmaxFlashV2 only in this simulator).
enum SoftmaxMode : uint8_t { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };
struct SoftmaxConfig {
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};
}  // namespace AscendC

#include "../softmax_common.h"

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
        sync_v_write(api, tmp->addr_, tmp->GetSize());   // scratch of PIPE_V
    } else {
        auto* pipe = AscendC::GetTPipePtr();
        uint32_t used = pipe ? pipe->UsedBytes() : 0;
        if (core().ub_size < used + need)
            fail(api, "no UB left for the API's temporary buffer", "needs " + std::to_string(need) + " B after the last InitBuffer");
    }
}
// sum / mx: the per-row statistics (type S: T, or float for half data), absent (null) in SoftMax's forms without them.
template <class T, class S, class Tiling>
inline void softmax_impl(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<S>* sum,
                         const AscendC::LocalTensor<S>* mx, const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                         const Tiling& tiling, const AscendC::SoftMaxShapeInfo& si, bool simple) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "SoftMax supports half and float");
    uint32_t m, k, ok;
    softmax_dims<T>(api, tiling, si, m, k, ok);
    if (m == 0 || k == 0) return;
    static_assert(std::is_same_v<S, T> || (std::is_same_v<T, half> && std::is_same_v<S, float>),
                  "SoftMax: sum / max have the data's type, or float for half data");
    constexpr uint32_t blk = 32 / sizeof(S);
    const bool stats = sum && mx;
    // missing-sync roles: src (and SimpleSoftMax's inSum/inMax) are read, dst (and SoftMax's sum/max) written
    check_src(api, src, uint64_t(m) * k);
    if (simple) { check_src(api, *sum, uint64_t(m) * blk); check_src(api, *mx, uint64_t(m) * blk); }
    check_dst(api, dst, uint64_t(m) * k);
    if (!simple && stats) { check_dst(api, *sum, uint64_t(m) * blk); check_dst(api, *mx, uint64_t(m) * blk); }
    softmax_tmp<T>(api, tmp, k);
    std::vector<float> row(k);
    for (uint32_t r = 0; r < m; ++r) {
        const T* s = src.addr_ + size_t(r) * k;
        float vmax, vsum = 0;
        if (simple) {
            vmax = float(mx->addr_[size_t(r) * blk]);
            vsum = float(sum->addr_[size_t(r) * blk]);
            for (uint32_t i = 0; i < k; ++i) row[i] = std::exp(float(s[i]) - vmax);
        } else {
            vmax = -INFINITY;
            for (uint32_t i = 0; i < ok; ++i) vmax = std::max(vmax, float(s[i]));
            for (uint32_t i = 0; i < k; ++i) { row[i] = std::exp(float(s[i]) - vmax); if (i < ok) vsum += row[i]; }
        }
        T* d = dst.addr_ + size_t(r) * k;
        for (uint32_t i = 0; i < k; ++i) d[i] = T(row[i] / vsum);
        if (!simple && stats)
            for (uint32_t j = 0; j < blk; ++j) { mx->addr_[size_t(r) * blk + j] = S(vmax); sum->addr_[size_t(r) * blk + j] = S(vsum); }
    }
}
}  // namespace ascsim

namespace AscendC {
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename Tiling>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                               const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const Tiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "ascsim: SoftMax with isDataFormatNZ = true (NZ format) is not simulated; only ND is");
    ::ascsim::softmax_impl("SoftMax", dstTensor, &sumTensor, &maxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, false);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename Tiling>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                               const LocalTensor<T>& srcTensor, const Tiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "ascsim: SoftMax with isDataFormatNZ = true (NZ format) is not simulated; only ND is");
    ::ascsim::softmax_impl("SoftMax", dstTensor, &sumTensor, &maxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo, false);
}
// Without sum / max (the documented forms that return only the result).
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG,
          typename Tiling>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const Tiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ::ascsim::softmax_impl<T, T>("SoftMax", dstTensor, nullptr, nullptr, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, false);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG,
          typename Tiling>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const Tiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ::ascsim::softmax_impl<T, T>("SoftMax", dstTensor, nullptr, nullptr, srcTensor, nullptr, tiling, softmaxShapeInfo, false);
}
// half data with float sum / max (each row's statistic repeated over one 32 B block: 8 floats).
template <typename T = half, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename Tiling>
__aicore__ inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor, const LocalTensor<float>& maxTensor,
                               const LocalTensor<half>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const Tiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "ascsim: SoftMax with isDataFormatNZ = true (NZ format) is not simulated; only ND is");
    ::ascsim::softmax_impl("SoftMax", dstTensor, &sumTensor, &maxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, false);
}
template <typename T = half, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename Tiling>
__aicore__ inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor, const LocalTensor<float>& maxTensor,
                               const LocalTensor<half>& srcTensor, const Tiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "ascsim: SoftMax with isDataFormatNZ = true (NZ format) is not simulated; only ND is");
    ::ascsim::softmax_impl("SoftMax", dstTensor, &sumTensor, &maxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo, false);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename Tiling>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor,
                                     const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer, const Tiling& tiling,
                                     const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "ascsim: SimpleSoftMax with isDataFormatNZ = true (NZ format) is not simulated; only ND is");
    ::ascsim::softmax_impl("SimpleSoftMax", dstTensor, &inSumTensor, &inMaxTensor, srcTensor, &sharedTmpBuffer, tiling, softmaxShapeInfo, true);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename Tiling>
__aicore__ inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor, const LocalTensor<T>& inMaxTensor,
                                     const LocalTensor<T>& srcTensor, const Tiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "ascsim: SimpleSoftMax with isDataFormatNZ = true (NZ format) is not simulated; only ND is");
    ::ascsim::softmax_impl("SimpleSoftMax", dstTensor, &inSumTensor, &inMaxTensor, srcTensor, nullptr, tiling, softmaxShapeInfo, true);
}
// SoftmaxGrad: dst = (grad - rowsum(grad * src)) * src; isFront: dst = rowsum(grad * src) repeated over a 32 B block.
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false, typename Tiling>
__aicore__ inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const Tiling& tiling, bool isFront = false,
                                   const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(!isDataFormatNZ, "ascsim: SoftmaxGrad with isDataFormatNZ = true (NZ format) is not simulated; only ND is");
    const char* api = "SoftmaxGrad";
    uint32_t m, k, ok;
    ::ascsim::softmax_dims<T>(api, tiling, softmaxShapeInfo, m, k, ok);
    if (m == 0 || k == 0) return;
    constexpr uint32_t blk = 32 / sizeof(T);
    ::ascsim::check_src(api, gradTensor, uint64_t(m) * k);
    ::ascsim::check_src(api, srcTensor, uint64_t(m) * k);
    ::ascsim::check_dst(api, dstTensor, uint64_t(m) * (isFront ? blk : k));
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
// ---------------------------------------------------------------------------------------------------------------
// SoftmaxFlashV2 (FlashAttention-2 online softmax), ND only. Per row of src [m, k] (valid columns oriSrcK):
//   isUpdate = false: max = rowmax(x); dst = exp(x - max); expSum = rowsum(dst)        (dst is NOT normalised;
//                     expMax, inExpSum and inMax are not touched)
//   isUpdate = true:  max = max(inMax, rowmax(x)); dst = exp(x - max); expMax = exp(inMax - max);
//                     expSum = expMax * inExpSum + rowsum(dst); outReduceMax (that overload) = rowmax(x)
// Stats are one 32 B block per row of their own type (SOFTMAX_NORMAL) or one element per row
// (SOFTMAX_OUTPUT_WITHOUT_BRC). Same-type (half/float) and half data with float max/sum. Math in float, each
// output rounded once. Temp model: ascsim_softmax::flashv2_tmp (shared with the host helpers).
namespace ascsim {
template <class S, class = void> struct sm_has_split : std::false_type {};
template <class S> struct sm_has_split<S, std::void_t<decltype(std::declval<const S&>().splitM)>> : std::true_type {};
template <class X> struct sm_is_local : std::false_type {};
template <class X> struct sm_is_local<AscendC::LocalTensor<X>> : std::true_type {};
template <class X> constexpr bool sm_not_local_v = !sm_is_local<std::decay_t<X>>::value;

template <bool isUpdate, bool isBasicBlock, bool isDataFormatNZ, const AscendC::SoftmaxConfig& config, class T, class U,
          class E, class Tiling>
inline void flashv2_impl(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>* outReduceMax,
                         const AscendC::LocalTensor<U>& sum, const AscendC::LocalTensor<U>& mx, const AscendC::LocalTensor<T>& src,
                         const AscendC::LocalTensor<E>& expMax, const AscendC::LocalTensor<U>& inSum,
                         const AscendC::LocalTensor<U>& inMax, const AscendC::LocalTensor<uint8_t>* tmp, const Tiling& tiling,
                         const AscendC::SoftMaxShapeInfo& si) {
    static_assert(!isDataFormatNZ, "ascsim: SoftmaxFlashV2 with isDataFormatNZ = true (NZ format) is not simulated; only ND is");
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "SoftmaxFlashV2 supports half and float");
    static_assert(std::is_same_v<U, half> || std::is_same_v<U, float>, "SoftmaxFlashV2 supports half and float");
    // shape: constant shape of the config, else softmaxShapeInfo, else the tiling
    uint32_t m = config.oriSrcM ? config.oriSrcM : (si.srcM ? si.srcM : uint32_t(tiling.srcM));
    uint32_t k, ok;
    if (config.oriSrcK) {
        ok = config.oriSrcK;
        k = (ok * uint32_t(sizeof(T)) + 31u) / 32u * 32u / uint32_t(sizeof(T));
    } else {
        k = si.srcK ? si.srcK : uint32_t(tiling.srcK);
        ok = si.oriSrcK ? si.oriSrcK : k;
    }
    if ((uint64_t(k) * sizeof(T)) % 32)
        fail(api, "Failed to check shape", "the last axis srcK = " + std::to_string(k) + " must be 32-byte aligned");
    if (ok > k) fail(api, "Failed to check shape", "oriSrcK = " + std::to_string(ok) + " > srcK = " + std::to_string(k));
    if (m == 0 || k == 0) return;
    const bool tiling_matches = uint32_t(tiling.srcM) == m && uint32_t(tiling.srcK) == k;
    if (!config.isCheckTiling && !tiling_matches)
        warn(api, "config.isCheckTiling is false but the tiling was computed for [" + std::to_string(uint32_t(tiling.srcM)) + ", " +
                      std::to_string(uint32_t(tiling.srcK)) + "] and the call computes [" + std::to_string(m) + ", " +
                      std::to_string(k) + "]: the device uses the stale tiling");
    if (isBasicBlock && !config.oriSrcM && !config.oriSrcK &&
        (k % 64 || k >= 2048 || k < 256 / sizeof(T) || m % 8))
        fail(api, "Failed to check shape",
             "isBasicBlock = true needs srcK a multiple of 64 in [" + std::to_string(256 / sizeof(T)) + ", 2048) and srcM a multiple of 8, got [" +
                 std::to_string(m) + ", " + std::to_string(k) + "] (IsBasicBlockInSoftMax)");
    const bool brc = config.mode == AscendC::SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC;
    const uint32_t sbU = brc ? 1u : 32u / sizeof(U), sbE = brc ? 1u : 32u / sizeof(E);
    // missing-sync roles: inputs (src, inExpSum, inMax) read first, then the outputs written (they may alias)
    check_src(api, src, uint64_t(m) * k);
    if (isUpdate) {
        check_src(api, inSum, uint64_t(m) * sbU);
        check_src(api, inMax, uint64_t(m) * sbU);
    }
    check_dst(api, dst, uint64_t(m) * k);
    check_dst(api, sum, uint64_t(m) * sbU);
    check_dst(api, mx, uint64_t(m) * sbU);
    if (isUpdate) {
        check_dst(api, expMax, uint64_t(m) * sbE);
        if (outReduceMax) check_dst(api, *outReduceMax, uint64_t(m) * sbU);
    }
    // temporary buffer: one row group at least; the tiling's splitM rows when the tiling is for this shape
    const auto model = ascsim_softmax::flashv2_tmp(m, k, sizeof(T), sizeof(U), isBasicBlock, brc);
    uint32_t need = ascsim_softmax::flashv2_bytes(model, 1);
    std::string why = "needs at least " + std::to_string(need) + " B (GetSoftMaxFlashV2MinTmpSize)";
    if constexpr (sm_has_split<Tiling>::value) {
        uint32_t split = uint32_t(tiling.splitM);
        if (tiling_matches && split) {
            uint32_t split_need = ascsim_softmax::flashv2_bytes(model, std::min(split, m));
            if (split_need > need) {
                need = split_need;
                why = "the tiling's splitM = " + std::to_string(split) + " rows need " + std::to_string(need) +
                      " B (SoftMaxFlashV2TilingFunc was given a larger localWorkSpaceSize)";
            }
        }
    }
    if (tmp) {
        check_ub_aligned(api, tmp->addr_);
        if (tmp->GetSize() < need) fail(api, "sharedTmpBuffer is too small", why + ", got " + std::to_string(tmp->GetSize()) + " B");
        check_ub(api, tmp->addr_, tmp->GetSize());
        auto overlaps = [&](const void* p, uint64_t bytes) {
            const uint8_t* a = static_cast<const uint8_t*>(p);
            return a < tmp->addr_ + tmp->GetSize() && tmp->addr_ < a + bytes;
        };
        const uint64_t mk = uint64_t(m) * k, ms = uint64_t(m) * sbU * sizeof(U);
        bool ov = overlaps(src.addr_, mk * sizeof(T)) || overlaps(dst.addr_, mk * sizeof(T)) || overlaps(sum.addr_, ms) ||
                  overlaps(mx.addr_, ms);
        if (isUpdate)
            ov = ov || overlaps(expMax.addr_, uint64_t(m) * sbE * sizeof(E)) || overlaps(inSum.addr_, ms) || overlaps(inMax.addr_, ms) ||
                 (outReduceMax && overlaps(outReduceMax->addr_, ms));
        if (ov) fail(api, "sharedTmpBuffer overlaps an operand", "the temporary buffer must not share UB with src/dst/statistics");
        sync_v_write(api, tmp->addr_, tmp->GetSize());   // scratch of PIPE_V
    } else {
        auto* pipe = AscendC::GetTPipePtr();
        uint32_t used = pipe ? pipe->UsedBytes() : 0;
        if (core().ub_size < used + need)
            fail(api, "no UB left for the API's temporary buffer",
                 "without sharedTmpBuffer the API uses the UB after the last InitBuffer (" +
                     std::to_string(core().ub_size - std::min(used, core().ub_size)) + " B free); it " + why);
    }
    static thread_local std::vector<float> row;
    row.resize(k);
    for (uint32_t r = 0; r < m; ++r) {
        const T* s = src.addr_ + size_t(r) * k;
        float rmax = -INFINITY;
        for (uint32_t i = 0; i < ok; ++i) rmax = std::max(rmax, float(s[i]));
        float in_m = 0, in_s = 0, nmax = rmax;
        if (isUpdate) {   // read the inputs before any output of the row (max/inMax and sum/inExpSum may alias)
            in_m = float(inMax.addr_[size_t(r) * sbU]);
            in_s = float(inSum.addr_[size_t(r) * sbU]);
            nmax = std::max(in_m, rmax);
        }
        float rsum = 0;
        for (uint32_t i = 0; i < k; ++i) {
            row[i] = std::exp(float(s[i]) - nmax);
            if (i < ok) rsum += row[i];
        }
        T* d = dst.addr_ + size_t(r) * k;
        for (uint32_t i = 0; i < k; ++i) d[i] = T(row[i]);
        float em = 1.0f, vsum = rsum;
        if (isUpdate) {
            em = std::exp(in_m - nmax);
            vsum = em * in_s + rsum;
        }
        for (uint32_t j = 0; j < sbU; ++j) {
            mx.addr_[size_t(r) * sbU + j] = U(nmax);
            sum.addr_[size_t(r) * sbU + j] = U(vsum);
            if (isUpdate && outReduceMax) outReduceMax->addr_[size_t(r) * sbU + j] = U(rmax);
        }
        if (isUpdate)
            for (uint32_t j = 0; j < sbE; ++j) expMax.addr_[size_t(r) * sbE + j] = E(em);
    }
}
}  // namespace ascsim

namespace AscendC {
#define ASCSIM_FLASHV2_TPL                                                                                           \
    template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,             \
              bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG, typename Tiling,      \
              typename = std::enable_if_t<::ascsim::sm_not_local_v<Tiling>>>
#define ASCSIM_FLASHV2_RUN(DST, RMAX, SUM, MAX, SRC, EMAX, ISUM, IMAX, TMP)                                          \
    ::ascsim::flashv2_impl<isUpdate, isBasicBlock, isDataFormatNZ, config>("SoftmaxFlashV2", DST, RMAX, SUM, MAX, SRC, \
                                                                           EMAX, ISUM, IMAX, TMP, tiling, softmaxShapeInfo)
// the outReduceMax overloads work only with config.mode = SOFTMAX_OUTPUT_WITHOUT_BRC; otherwise the API does nothing
#define ASCSIM_FLASHV2_RMAX_MODE                                                                                     \
    if constexpr (config.mode != SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC) {                                         \
        ::ascsim::warn("SoftmaxFlashV2", "the overload with outReduceMax needs config.mode = SOFTMAX_OUTPUT_WITHOUT_BRC; " \
                                         "with SOFTMAX_NORMAL the API does nothing and writes no output");           \
        return;                                                                                                      \
    }

// same types, temporary space from the UB tail
ASCSIM_FLASHV2_TPL
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor, const LocalTensor<T>& maxTensor,
                                      const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                                      const LocalTensor<T>& inExpSumTensor, const LocalTensor<T>& inMaxTensor, const Tiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ASCSIM_FLASHV2_RUN(dstTensor, static_cast<const LocalTensor<T>*>(nullptr), expSumTensor, maxTensor, srcTensor, expMaxTensor,
                       inExpSumTensor, inMaxTensor, nullptr);
}
// same types, also outputs the row max of src (outReduceMax), temporary space from the UB tail
ASCSIM_FLASHV2_TPL
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax, const LocalTensor<T>& outExpSum,
                                      const LocalTensor<T>& outMax, const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax,
                                      const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax, const Tiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ASCSIM_FLASHV2_RMAX_MODE
    ASCSIM_FLASHV2_RUN(dstTensor, &outReduceMax, outExpSum, outMax, srcTensor, outExpMax, inExpSum, inMax, nullptr);
}
// half data with float max/sum, temporary space from the UB tail
ASCSIM_FLASHV2_TPL
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                                      const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                      const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                                      const LocalTensor<float>& inMaxTensor, const Tiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ASCSIM_FLASHV2_RUN(dstTensor, static_cast<const LocalTensor<float>*>(nullptr), expSumTensor, maxTensor, srcTensor, expMaxTensor,
                       inExpSumTensor, inMaxTensor, nullptr);
}
// same types, sharedTmpBuffer
ASCSIM_FLASHV2_TPL
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outExpSum, const LocalTensor<T>& outMax,
                                      const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax, const LocalTensor<T>& inExpSum,
                                      const LocalTensor<T>& inMax, const LocalTensor<uint8_t>& sharedTmpBuffer, const Tiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ASCSIM_FLASHV2_RUN(dstTensor, static_cast<const LocalTensor<T>*>(nullptr), outExpSum, outMax, srcTensor, outExpMax, inExpSum, inMax,
                       &sharedTmpBuffer);
}
// same types with outReduceMax, sharedTmpBuffer
ASCSIM_FLASHV2_TPL
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax, const LocalTensor<T>& expSumTensor,
                                      const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                                      const LocalTensor<T>& inExpSumTensor, const LocalTensor<T>& inMaxTensor,
                                      const LocalTensor<uint8_t>& sharedTmpBuffer, const Tiling& tiling,
                                      const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ASCSIM_FLASHV2_RMAX_MODE
    ASCSIM_FLASHV2_RUN(dstTensor, &outReduceMax, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
                       &sharedTmpBuffer);
}
// half data with float max/sum, sharedTmpBuffer
ASCSIM_FLASHV2_TPL
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                                      const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                                      const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                                      const LocalTensor<float>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                      const Tiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    ASCSIM_FLASHV2_RUN(dstTensor, static_cast<const LocalTensor<float>*>(nullptr), expSumTensor, maxTensor, srcTensor, expMaxTensor,
                       inExpSumTensor, inMaxTensor, &sharedTmpBuffer);
}
#undef ASCSIM_FLASHV2_TPL
#undef ASCSIM_FLASHV2_RUN
#undef ASCSIM_FLASHV2_RMAX_MODE

// kernel-side tiling calculation (when the kernel's shape differs from the host's); same model as the host's. The
// toolkit layers it as SoftMaxFlashV2TilingFunc (workspace in bytes) over SoftMaxFlashV2TilingFuncImpl (in float
// elements), and kernels call either.
__aicore__ inline constexpr tiling::SoftMaxTiling SoftMaxFlashV2TilingFuncImpl(const uint32_t srcM, const uint32_t srcK,
                                                                              const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                                                              const uint32_t localWorkSpaceSize,
                                                                              const bool isUpdate = false, const bool isBasicBlock = false,
                                                                              const bool isDataFormatNZ = false,
                                                                              const bool isFlashOutputBrc = false) {
    (void)isUpdate; (void)isDataFormatNZ;
    return ascsim_softmax::flashv2_tiling(srcM, srcK, dataTypeSize1, dataTypeSize2, localWorkSpaceSize * 4u, isBasicBlock,
                                          isFlashOutputBrc);
}
__aicore__ inline constexpr tiling::SoftMaxTiling SoftMaxFlashV2TilingFunc(const SoftMaxShapeInfo& shapeInfo, const uint32_t dataTypeSize1,
                                                                          const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                                                          const bool isUpdate = false, const bool isBasicBlock = false,
                                                                          const bool isDataFormatNZ = false,
                                                                          const bool isFlashOutputBrc = false) {
    return SoftMaxFlashV2TilingFuncImpl(shapeInfo.srcM, shapeInfo.srcK, dataTypeSize1, dataTypeSize2, localWorkSpaceSize / 4u,
                                        isUpdate, isBasicBlock, isDataFormatNZ, isFlashOutputBrc);
}
}  // namespace AscendC
#endif  // ASCSIM_KERNEL_HL_SOFTMAX_H_
