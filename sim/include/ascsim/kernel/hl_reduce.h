// ascsim: high-level row reductions Sum / Mean (reference §2.9). src is outter rows of `inner` elements (inner =
// n padded to 32 bytes); row i's first n elements reduce into dst[i]. Accumulation in float, rounded to T once.
// Temp model as in hl_math.h (2 live float vectors).
#ifndef ASCSIM_KERNEL_HL_REDUCE_H_
#define ASCSIM_KERNEL_HL_REDUCE_H_
#include <string>
#include "hl_math.h"
#include "vec_reduce.h"
#include "../hl_common.h"

namespace AscendC {
struct SumParams { uint32_t outter = 1; uint32_t inner = 0; uint32_t n = 0; };
struct MeanParams { uint32_t outter = 1; uint32_t inner = 0; uint32_t n = 0; };
}  // namespace AscendC

namespace ascsim {
template <class T, class Acc, class P>
inline void hl_row_reduce(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                          const AscendC::LocalTensor<uint8_t>* tmp, const P& p, bool mean) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Sum/Mean support half and float");
    if (p.outter == 0 || p.n == 0) return;
    uint32_t want = (p.n * sizeof(T) + 31) / 32 * 32 / sizeof(T);
    if (p.inner != want)
        fail(api, "Failed to check params", "inner must be n padded to 32 bytes: n " + std::to_string(p.n) + " -> inner " +
                                               std::to_string(want) + ", got " + std::to_string(p.inner));
    const uint32_t n = p.outter * p.inner;
    check_src(api, src, n);          // read only (no write-after-read against another pipe reading it)
    check_dst(api, dst, p.outter);
    hl_check_tmp(api, tmp, n, 2, {{src.addr_, size_t(n) * sizeof(T)}});
    std::vector<T> out(p.outter);
    for (uint32_t r = 0; r < p.outter; ++r) {
        Acc s = 0;
        for (uint32_t i = 0; i < p.n; ++i) s += Acc(float(src.addr_[size_t(r) * p.inner + i]));
        out[r] = T(float(mean ? s / Acc(p.n) : s));
    }
    std::memcpy(static_cast<void*>(dst.addr_), out.data(), out.size() * sizeof(T));
}
}  // namespace ascsim

namespace AscendC {
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const SumParams& sumParams) {
    ::ascsim::hl_row_reduce<T, float>("Sum", dstTensor, srcTensor, &sharedTmpBuffer, sumParams, false);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
__aicore__ inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SumParams& sumParams) {
    ::ascsim::hl_row_reduce<T, float>("Sum", dstTensor, srcTensor, nullptr, sumParams, false);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false, int32_t reduceDim = -1>
__aicore__ inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                            const MeanParams& meanParams) {
    ::ascsim::hl_row_reduce<T, float>("Mean", dstTensor, srcTensor, &sharedTmpBuffer, meanParams, true);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false, int32_t reduceDim = -1>
__aicore__ inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const MeanParams& meanParams) {
    ::ascsim::hl_row_reduce<T, float>("Mean", dstTensor, srcTensor, nullptr, meanParams, true);
}
}  // namespace AscendC

// The pattern reductions ReduceSum/Mean/Max/Min/Prod/Any/All<T, pattern, isReuseSource>(dst, src[, tmp], srcShape,
// srcInnerPad) (high-level API, reduction docs). srcShape = {first, last}, the real sizes; each row of src holds
// `last` elements padded to 32 bytes (srcInnerPad, which Atlas A2 requires true). Pattern AR reduces the last axis
// (`first` results), RA the first (`last` results); the other Pattern::Reduce types exist but A2 rejects them.
// Sums and products fold halves in float (rows [k, n) onto [0, n - k) with k the largest power of two below n, then
// halving), the vector unit's order; Mean is that sum divided by n. Max/Min pick by vec_reduce.h's max/min rule
// (extreme_beats: a NaN in the reduced elements gives NaN). Their pages say nothing about inf/NaN; that rule is the
// one the appendix gives every basic max/min these APIs are built from (Max/Min, ReduceRepeat, ReduceDataBlock,
// ReduceMax/Min), and no page says what saturation mode does to them, so the mode is not applied here. The
// temporary buffer must hold what GetReduceXxxMaxMinTmpSize reports (host/hl_tiling.h); without one the
// API takes the UB after the last InitBuffer.
namespace AscendC {
namespace Pattern {
namespace Reduce {
struct R {}; struct AR {}; struct RA {}; struct ARA {}; struct ARAR {}; struct ARARA {}; struct ARARAR {};
struct ARARARA {}; struct ARARARAR {}; struct ARARARARA {}; struct RAR {}; struct RARA {}; struct RARAR {};
struct RARARA {}; struct RARARAR {}; struct RARARARA {};
}  // namespace Reduce
}  // namespace Pattern
}  // namespace AscendC

namespace ascsim {
inline float hl_fold(float* v, uint32_t n, HlReduce op) {
    auto combine = [op](float a, float b) { return op == HlReduce::PROD ? a * b : a + b; };
    if (n == 0) return 0.0f;
    uint32_t k = 1;
    while (k * 2 <= n) k *= 2;
    for (uint32_t i = 0; i + k < n; ++i) v[i] = combine(v[i], v[i + k]);
    for (uint32_t h = k / 2; h >= 1; h /= 2)
        for (uint32_t i = 0; i < h; ++i) v[i] = combine(v[i], v[i + h]);
    return v[0];
}

template <class T>
inline float hl_reduce_values(std::vector<float>& v, HlReduce op) {
    const uint32_t n = uint32_t(v.size());
    switch (op) {
        case HlReduce::SUM: return hl_fold(v.data(), n, op);
        case HlReduce::PROD: return hl_fold(v.data(), n, op);
        case HlReduce::MEAN: return hl_fold(v.data(), n, HlReduce::SUM) / float(n);
        default: break;
    }
    float best = v[0];
    if (op == HlReduce::MAX || op == HlReduce::MIN) {
        for (uint32_t i = 1; i < n; ++i)
            if (extreme_beats(op == HlReduce::MAX, v[i], best)) best = v[i];
        return best;
    }
    const bool want_max = op == HlReduce::ANY;   // Any / All: the largest / smallest value
    for (uint32_t i = 1; i < n; ++i)
        if (want_max ? v[i] > best : v[i] < best) best = v[i];
    return best;
}

template <class T, class pattern, HlReduce op>
inline void hl_pattern_reduce(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                              const AscendC::LocalTensor<uint8_t>* tmp, const uint32_t srcShape[], bool srcInnerPad,
                              bool reuse) {
    namespace PR = AscendC::Pattern::Reduce;
    static_assert(std::is_same_v<pattern, PR::AR> || std::is_same_v<pattern, PR::RA>,
                  "ascsim: the pattern reductions support Pattern::Reduce::AR and Pattern::Reduce::RA on Atlas A2");
    if constexpr (op == HlReduce::SUM || op == HlReduce::MEAN || op == HlReduce::PROD)
        static_assert(std::is_same_v<T, float>, "ReduceSum/ReduceMean/ReduceProd support float on Atlas A2");
    else if constexpr (op == HlReduce::MAX || op == HlReduce::MIN)
        static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "ReduceMax/ReduceMin support half and float on Atlas A2");
    else
        static_assert(std::is_same_v<T, uint8_t> || std::is_same_v<T, float>, "ReduceAny/ReduceAll support uint8_t and float on Atlas A2");
    constexpr bool ar = std::is_same_v<pattern, PR::AR>;
    if (!srcInnerPad) fail(api, "Failed to check params", "srcInnerPad must be true on Atlas A2 (pad each row to 32 bytes)");
    const uint32_t first = srcShape[0], last = srcShape[1];
    if (first == 0 || last == 0)
        fail(api, "Failed to check params", "srcShape must be positive, got {" + std::to_string(first) + ", " + std::to_string(last) + "}");
    const uint32_t stride = uint32_t((uint64_t(last) * sizeof(T) + 31) / 32 * 32 / sizeof(T));
    const uint64_t n_src = uint64_t(first) * stride, n_dst = ar ? first : last;
    check_src(api, src, int64_t(n_src));
    const uint8_t* s0 = reinterpret_cast<const uint8_t*>(src.addr_);
    const uint8_t* d0 = reinterpret_cast<const uint8_t*>(dst.addr_);
    if (d0 < s0 + n_src * sizeof(T) && s0 < d0 + n_dst * sizeof(T))
        fail(api, "Failed to check params", "dst must not overlap src");
    check_dst(api, dst, int64_t(n_dst));
    const uint32_t need = hl_reduce_min_tmp(op, uint32_t(sizeof(T)), ar, first, last, reuse);
    hl_check_tmp_bytes(api, tmp, need, tmp ? tmp->GetSize() : 0, {{s0, n_src * sizeof(T)}, {d0, n_dst * sizeof(T)}},
                       "Get" + std::string(api) + "MaxMinTmpSize");
    std::vector<float> v, out(n_dst);
    for (uint64_t o = 0; o < n_dst; ++o) {
        const uint32_t len = ar ? last : first;
        v.resize(len);
        for (uint32_t i = 0; i < len; ++i) v[i] = float(src.addr_[ar ? o * stride + i : uint64_t(i) * stride + o]);
        out[o] = hl_reduce_values<T>(v, op);
    }
    for (uint64_t o = 0; o < n_dst; ++o) dst.addr_[o] = T(out[o]);
}
}  // namespace ascsim

namespace AscendC {
#define ASCSIM_PATTERN_REDUCE(NAME, OP)                                                                                 \
    template <class T, class pattern, bool isReuseSource = false>                                                      \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                       \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[], bool srcInnerPad) { \
        ::ascsim::hl_pattern_reduce<T, pattern, OP>(#NAME, dstTensor, srcTensor, &sharedTmpBuffer, srcShape, srcInnerPad, \
                                                    isReuseSource);                                                    \
    }                                                                                                                  \
    template <class T, class pattern, bool isReuseSource = false>                                                      \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const uint32_t srcShape[], \
                                bool srcInnerPad) {                                                                    \
        ::ascsim::hl_pattern_reduce<T, pattern, OP>(#NAME, dstTensor, srcTensor, nullptr, srcShape, srcInnerPad, isReuseSource); \
    }
ASCSIM_PATTERN_REDUCE(ReduceSum, ::ascsim::HlReduce::SUM)
ASCSIM_PATTERN_REDUCE(ReduceMean, ::ascsim::HlReduce::MEAN)
ASCSIM_PATTERN_REDUCE(ReduceMax, ::ascsim::HlReduce::MAX)
ASCSIM_PATTERN_REDUCE(ReduceMin, ::ascsim::HlReduce::MIN)
ASCSIM_PATTERN_REDUCE(ReduceProd, ::ascsim::HlReduce::PROD)
ASCSIM_PATTERN_REDUCE(ReduceAny, ::ascsim::HlReduce::ANY)
ASCSIM_PATTERN_REDUCE(ReduceAll, ::ascsim::HlReduce::ALL)
#undef ASCSIM_PATTERN_REDUCE

// CumSum<T, config>(dst, lastRow, src[, tmp], {outter, inner}) (high-level math): prefix sums of a row-major
// [outter, inner] tensor along the last axis (config.isLastAxis, each row left to right) or down the rows. Half runs
// in float, each output rounded once; sums are sequential. With config.outputLastRow the last row of the result
// (inner elements) also goes to lastRow. Atlas A2: half and float, inner * sizeof(T) a multiple of 32 bytes.
enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };
struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
    CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
struct CumSumInfo {
    uint32_t outter{0};
    uint32_t inner{0};
};
constexpr CumSumConfig defaultCumSumConfig = {true, false, true};
}  // namespace AscendC

namespace ascsim {
template <class T>
inline void hl_cumsum(const AscendC::CumSumConfig& cfg, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& last_row,
                      const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp, const AscendC::CumSumInfo& info) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "CumSum supports half and float");
    const char* api = "CumSum";
    const uint32_t rows = info.outter, inner = info.inner;
    if (rows == 0 || inner == 0) fail(api, "Failed to check params", "outter and inner must be larger than 0");
    if ((uint64_t(inner) * sizeof(T)) % 32)
        fail(api, "Failed to check params", "inner * sizeof(T) must be a multiple of 32 bytes, got " + std::to_string(uint64_t(inner) * sizeof(T)));
    const uint64_t n = uint64_t(rows) * inner;
    if (n > src.GetSize()) fail(api, "Failed to check params", "outter * inner is larger than srcTensor");
    if (n > dst.GetSize()) fail(api, "Failed to check params", "outter * inner is larger than dstTensor");
    if (cfg.outputLastRow && inner > last_row.GetSize())
        fail(api, "Failed to check params", "inner is larger than lastRowTensor with config.outputLastRow");
    check_src(api, src, int64_t(n));
    const uint32_t need = cumsum_min_tmp(uint32_t(sizeof(T)), cfg.isLastAxis, rows, inner);
    hl_check_tmp_bytes(api, tmp, need, tmp ? tmp->GetSize() : 0, {}, "GetCumSumMaxMinTmpSize");
    std::vector<float> acc(n);
    for (uint64_t i = 0; i < n; ++i) acc[i] = float(src.addr_[i]);
    for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < inner; ++c) {
            const uint64_t i = uint64_t(r) * inner + c;
            if (cfg.isLastAxis ? c > 0 : r > 0) acc[i] += acc[cfg.isLastAxis ? i - 1 : i - inner];
        }
    check_dst(api, dst, int64_t(n));
    for (uint64_t i = 0; i < n; ++i) dst.addr_[i] = T(acc[i]);
    if (cfg.outputLastRow) {
        check_dst(api, last_row, inner);
        for (uint32_t c = 0; c < inner; ++c) last_row.addr_[c] = T(acc[uint64_t(rows - 1) * inner + c]);
    }
}
}  // namespace ascsim

namespace AscendC {
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                              LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo) {
    ::ascsim::hl_cumsum(config, dstTensor, lastRowTensor, srcTensor, &sharedTmpBuffer, cumSumInfo);
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                              const CumSumInfo& cumSumInfo) {
    ::ascsim::hl_cumsum(config, dstTensor, lastRowTensor, srcTensor, nullptr, cumSumInfo);
}
}  // namespace AscendC
#endif  // ASCSIM_KERNEL_HL_REDUCE_H_
