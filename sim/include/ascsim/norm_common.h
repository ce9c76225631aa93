// ascsim: what the kernel-side normalization APIs (kernel/hl_norm.h) and their host tiling (host/norm_tiling.h) share:
// the documented tiling structs as plain structs (AscendC::tiling::LayerNormTiling & co., field names and order as in
// the docs), and the simulator's temporary-buffer model for each API, so host sizes and kernel checks always agree.
//
// The docs give no size formulas and no field meanings, so the temp model is the simulator's own (same spirit as
// kernel/hl_math.h: the API keeps a few float vectors per row it processes at once). Every size is in bytes:
//   LayerNorm [B,S,H] / DeepNorm: rows * nTmp * align8(H) floats (+ float mean and variance per row for half);
//                                nTmp = 3 (2 for float with isReuseSource), DeepNorm one more (alpha * x + gx)
//   LayerNorm [A,R] (rstd):      rows * (2, half: 3) * align8(R) floats + one 256 B reduction repeat
//   Normalize:                   (1, half: 2) * align8(R) floats (+ 2 * align8(R) for half gamma/beta) + 256 B
//   RmsNorm:                     rows * (1, half: 2) * align8(H) floats + align8(rows) floats (one sum per row)
//   GroupNorm:                   groups * nTmp * d * align8(hw) floats + 2 * align8(groups) floats (nTmp as above)
//   BatchNorm:                   cols * (3 * originB + 2) floats, cols a multiple of one 32 B block of T
//   WelfordUpdate / Finalize:    live * min(256 B, align32(abLength * 4)) minimum, live * align32(abLength * 4) max
// min = one row (group, column block), max = all of them; the tiling records how many fit in stackBufferSize and the
// kernel checks the temporary buffer against exactly that.
#ifndef ASCSIM_ASCSIM_NORM_COMMON_H_
#define ASCSIM_ASCSIM_NORM_COMMON_H_
#include <cstdint>
#include <type_traits>
#include <utility>

// Field lists, in documented order: X(type, name). The host side (host/norm_tiling.h) builds the optiling classes
// from the same lists, so the kernel-side struct the build generates from them has these names.
#define ASCSIM_LAYERNORM_TILING_FIELDS(X)                                                                              \
    X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength) X(uint32_t, originalHLength)                        \
    X(uint32_t, inputXSize) X(uint32_t, meanVarSize) X(uint32_t, numberOfTmpBuf) X(uint32_t, meanTmpTensorPos)         \
    X(uint32_t, meanTmpTensorSize) X(uint32_t, varianceTmpTensorPos) X(uint32_t, varianceTmpTensorSize)                \
    X(uint32_t, tmpBufSize) X(uint32_t, oneTmpSize) X(uint32_t, firstTmpStartPos) X(uint32_t, secondTmpStartPos)       \
    X(uint32_t, thirdTmpStartPos) X(uint32_t, loopRound) X(uint32_t, inputRoundSize) X(uint32_t, inputTailSize)        \
    X(uint32_t, inputTailPos) X(uint32_t, meanVarRoundSize) X(uint32_t, meanVarTailSize) X(uint32_t, meanVarTailPos)   \
    X(uint32_t, bshCurLength) X(uint32_t, bsCurLength) X(float, lastDimValueBack)
// DeepNormTiling is documented with exactly LayerNormTiling's fields.
#define ASCSIM_DEEPNORM_TILING_FIELDS(X) ASCSIM_LAYERNORM_TILING_FIELDS(X)
#define ASCSIM_LAYERNORM_SEPARATE_TILING_FIELDS(X)                                                                     \
    X(uint32_t, aLength) X(uint32_t, rLength) X(uint32_t, halfAddRepeatTimes) X(uint32_t, rHeadLength)                 \
    X(float, k2Rec) X(float, k2RRec) X(uint32_t, inputXSize) X(uint32_t, meanVarSize) X(uint32_t, numberOfTmpBuf)      \
    X(uint32_t, varianceTmpTensorPos) X(uint32_t, varianceTmpTensorSize) X(uint32_t, tmpBufSize)                       \
    X(uint32_t, oneTmpSize) X(uint32_t, firstTmpStartPos) X(uint32_t, secondTmpStartPos) X(uint32_t, thirdTmpStartPos) \
    X(uint32_t, loopRound) X(uint32_t, inputRoundSize) X(uint32_t, inputTailSize) X(uint32_t, inputTailPos)            \
    X(uint32_t, meanVarRoundSize) X(uint32_t, meanVarTailSize) X(uint32_t, meanVarTailPos) X(uint32_t, arCurLength)    \
    X(uint32_t, aCurLength) X(float, rValueBack)
#define ASCSIM_RMSNORM_TILING_FIELDS(X)                                                                                \
    X(uint32_t, bLength) X(uint32_t, sLength) X(uint32_t, hLength) X(uint32_t, originalHLength)                        \
    X(float, reciprocalOfHLength) X(uint32_t, mainBshLength) X(uint32_t, mainBsLength) X(uint32_t, mainBsLengthAlign)  \
    X(uint32_t, loopRound) X(uint32_t, inputTailPos) X(uint32_t, tailBshLength) X(uint32_t, tailBsLength)
#define ASCSIM_GROUPNORM_TILING_FIELDS(X)                                                                              \
    X(uint32_t, n) X(uint32_t, c) X(uint32_t, hw) X(uint32_t, g) X(uint32_t, d) X(uint32_t, hwAlignSize)               \
    X(uint32_t, dhwAlignSize) X(uint32_t, inputXSize) X(uint32_t, meanVarSize) X(uint32_t, numberOfTmpBuf)             \
    X(uint32_t, meanTmpTensorPos) X(uint32_t, meanTmpTensorSize) X(uint32_t, varianceTmpTensorPos)                     \
    X(uint32_t, varianceTmpTensorSize) X(uint32_t, tmpBufSize) X(uint32_t, oneTmpSize) X(uint32_t, firstTmpStartPos)   \
    X(uint32_t, secondTmpStartPos) X(uint32_t, thirdTmpStartPos) X(uint32_t, loopRound) X(uint32_t, inputRoundSize)    \
    X(uint32_t, inputTailSize) X(uint32_t, inputTailPos) X(uint32_t, meanVarRoundSize) X(uint32_t, meanVarTailSize)    \
    X(uint32_t, meanVarTailPos) X(uint32_t, bshCurLength) X(uint32_t, bsCurLength) X(float, factor) X(bool, smallShape)
#define ASCSIM_BATCHNORM_TILING_FIELDS(X)                                                                              \
    X(uint32_t, originalBLength) X(uint32_t, meanVarSize) X(uint32_t, meanTmpTensorPos)                                \
    X(uint32_t, varianceTmpTensorPos) X(uint32_t, tmpBufSize) X(uint32_t, oneTmpSize) X(uint32_t, firstTmpStartPos)    \
    X(uint32_t, secondTmpStartPos) X(uint32_t, thirdTmpStartPos) X(uint32_t, loopRound) X(uint32_t, inputTailSize)     \
    X(uint32_t, inputTailPos) X(uint32_t, meanVarTailSize) X(uint32_t, meanVarTailPos) X(uint32_t, bshCurLength)       \
    X(uint32_t, shCurLength) X(float, firstDimValueBack) X(uint32_t, castHalfRepStride)                                \
    X(uint32_t, shCurLengthBlockNum) X(uint32_t, castHalfOutRepStride)

#define ASCSIM_NORM_DECL(type, name) type name = 0;
#define ASCSIM_NORM_COPY(type, name) s.name = name;
// A plain struct that converts to any struct with the same field names (the one the build generates from the
// optiling class), as AscendC::tiling::SoftMaxTiling does.
#define ASCSIM_NORM_PLAIN_STRUCT(NAME, FIELDS, LAST)                                                                   \
    struct NAME {                                                                                                      \
        FIELDS(ASCSIM_NORM_DECL)                                                                                       \
        template <class S, class = std::enable_if_t<!std::is_same_v<S, NAME> &&                                       \
                                                    !std::is_same_v<decltype(std::declval<S&>().LAST), void>>>         \
        constexpr operator S() const {                                                                                 \
            S s{};                                                                                                     \
            FIELDS(ASCSIM_NORM_COPY)                                                                                   \
            return s;                                                                                                  \
        }                                                                                                              \
    };

namespace AscendC {
namespace tiling {
ASCSIM_NORM_PLAIN_STRUCT(LayerNormTiling, ASCSIM_LAYERNORM_TILING_FIELDS, lastDimValueBack)
ASCSIM_NORM_PLAIN_STRUCT(LayerNormSeparateTiling, ASCSIM_LAYERNORM_SEPARATE_TILING_FIELDS, rValueBack)
ASCSIM_NORM_PLAIN_STRUCT(RmsNormTiling, ASCSIM_RMSNORM_TILING_FIELDS, tailBsLength)
ASCSIM_NORM_PLAIN_STRUCT(GroupNormTiling, ASCSIM_GROUPNORM_TILING_FIELDS, smallShape)
ASCSIM_NORM_PLAIN_STRUCT(BatchNormTiling, ASCSIM_BATCHNORM_TILING_FIELDS, castHalfOutRepStride)
ASCSIM_NORM_PLAIN_STRUCT(DeepNormTiling, ASCSIM_DEEPNORM_TILING_FIELDS, lastDimValueBack)
}  // namespace tiling
}  // namespace AscendC
#undef ASCSIM_NORM_PLAIN_STRUCT

namespace ascsim_norm {
constexpr uint64_t a8(uint64_t n) { return (n + 7) / 8 * 8; }   // floats rounded up to a 32-byte multiple
constexpr uint64_t align_elems(uint64_t n, uint32_t ts) {   // elements rounded up to a 32-byte multiple
    const uint64_t b = 32 / (ts ? ts : 4);
    return (n + b - 1) / b * b;
}
constexpr uint64_t pow2_floor(uint64_t n) { uint64_t k = 1; while (k * 2 <= n) k *= 2; return n ? k : 0; }

// Temp model per API (bytes for `rows` rows processed at once; see the header comment).
constexpr uint32_t ln_vectors(uint32_t ts, bool reuse, uint32_t extra) { return (ts == 4 && reuse ? 2u : 3u) + extra; }
constexpr uint64_t ln_bytes(uint32_t ts, bool reuse, uint32_t extra, uint64_t h, uint64_t rows) {
    return (rows * ln_vectors(ts, reuse, extra) * a8(h) + (ts == 2 ? 2 * a8(rows) : 0)) * 4;
}
constexpr uint32_t sep_vectors(uint32_t ts) { return ts == 2 ? 3u : 2u; }
// R is taken padded to a 32 B block of T first, so the host (R as given) and the kernel (rLengthWithPadding) agree.
constexpr uint64_t sep_bytes(uint32_t ts, uint64_t r, uint64_t rows) {
    return (rows * sep_vectors(ts) * a8(align_elems(r, ts)) + 64) * 4;
}
constexpr uint64_t normalize_bytes(uint32_t tsU, uint32_t tsT, uint64_t r, uint64_t rows) {
    return (rows * ((tsT == 2 ? 2 : 1) + (tsU == 2 ? 2 : 0)) * a8(align_elems(r, tsT)) + 64) * 4;
}
constexpr uint64_t rms_bytes(uint32_t ts, uint64_t h, uint64_t rows) {
    return (rows * (ts == 2 ? 2 : 1) * a8(h) + a8(rows)) * 4;
}
constexpr uint64_t gn_bytes(uint32_t ts, bool reuse, uint64_t d, uint64_t hw, uint64_t groups) {
    return (groups * ln_vectors(ts, reuse, 0) * d * a8(hw) + 2 * a8(groups)) * 4;
}
constexpr uint64_t bn_bytes(uint64_t orib, uint64_t cols) { return cols * (3 * orib + 2) * 4; }
constexpr uint32_t welford_live(bool update, uint32_t tsT, bool reuse) {
    return update ? (tsT == 2 ? 2u : (reuse ? 0u : 1u)) : 2u;
}
constexpr uint64_t welford_min(uint32_t live, uint64_t ab) {
    const uint64_t v = (ab * 4 + 31) / 32 * 32;
    return live * (v < 256 ? v : 256);
}
constexpr uint64_t welford_max(uint32_t live, uint64_t ab) { return live * ((ab * 4 + 31) / 32 * 32); }

// The largest count <= total (a multiple of `step`) whose bytes fit in `stack`; 0 when not even `step` fits.
template <class F>
constexpr uint64_t fit(uint64_t total, uint64_t step, uint64_t stack, F bytes) {
    if (total == 0 || bytes(step < total ? step : total) > stack) return 0;
    uint64_t lo = 1, hi = (total + step - 1) / step;   // in steps
    while (lo < hi) {
        uint64_t mid = (lo + hi + 1) / 2, n = mid * step < total ? mid * step : total;
        if (bytes(n) <= stack) lo = mid; else hi = mid - 1;
    }
    return lo * step < total ? lo * step : total;
}

// Tiling builders (host writes them; the kernel reads the fields named in kernel/hl_norm.h).
// LayerNorm [B,S,H] and DeepNorm (extra = 1: the kernel also keeps alpha * x + gx).
template <class Tl>
constexpr Tl ln_tiling(uint32_t b, uint32_t s, uint32_t h, uint32_t orih, uint32_t ts, bool reuse, uint32_t extra,
                       uint32_t stack) {
    Tl t{};
    const uint64_t total = uint64_t(b) * s;
    const uint64_t rows = fit(total, 1, stack, [&](uint64_t r) { return ln_bytes(ts, reuse, extra, h, r); });
    const uint32_t nt = ln_vectors(ts, reuse, extra), one = uint32_t(rows * a8(h));
    t.bLength = b; t.sLength = s; t.hLength = h; t.originalHLength = orih;
    t.inputXSize = uint32_t(total * h); t.meanVarSize = uint32_t(total); t.numberOfTmpBuf = nt;
    t.oneTmpSize = one; t.firstTmpStartPos = 0; t.secondTmpStartPos = one; t.thirdTmpStartPos = 2 * one;
    t.meanTmpTensorPos = nt * one; t.meanTmpTensorSize = ts == 2 ? uint32_t(a8(rows)) : 0;
    t.varianceTmpTensorPos = t.meanTmpTensorPos + t.meanTmpTensorSize; t.varianceTmpTensorSize = t.meanTmpTensorSize;
    t.tmpBufSize = stack / 4;
    const uint64_t loops = rows ? total / rows : 0, tail = rows ? total % rows : total;
    t.loopRound = uint32_t(loops); t.inputRoundSize = uint32_t(rows * h); t.inputTailSize = uint32_t(tail * h);
    t.inputTailPos = uint32_t(loops * rows * h); t.meanVarRoundSize = uint32_t(rows);
    t.meanVarTailSize = uint32_t(tail);
    t.meanVarTailPos = uint32_t(loops * rows); t.bshCurLength = uint32_t(rows * h); t.bsCurLength = uint32_t(rows);
    t.lastDimValueBack = orih ? 1.0f / float(orih) : 0.0f;
    return t;
}
// LayerNorm [A,R] (rstd output). rHeadLength / k2Rec / k2RRec / halfAddRepeatTimes describe the docs' two-part
// (2^k head plus tail) summation; the values are the simulator's reading of it and nothing reads them.
constexpr AscendC::tiling::LayerNormSeparateTiling sep_tiling(uint32_t a, uint32_t r, uint32_t ts, uint32_t stack) {
    AscendC::tiling::LayerNormSeparateTiling t{};
    const uint64_t rows = fit(a, 1, stack, [&](uint64_t n) { return sep_bytes(ts, r, n); });
    const uint32_t one = uint32_t(rows * a8(align_elems(r, ts))), head = uint32_t(pow2_floor(r));
    t.aLength = a; t.rLength = r; t.rHeadLength = head;
    t.halfAddRepeatTimes = uint32_t((uint64_t(r - head) + 63) / 64);
    t.k2Rec = head ? 1.0f / float(head) : 0.0f; t.k2RRec = r ? float(head) / float(r) : 0.0f;
    t.inputXSize = uint32_t(uint64_t(a) * align_elems(r, ts)); t.meanVarSize = a; t.numberOfTmpBuf = sep_vectors(ts);
    t.varianceTmpTensorPos = sep_vectors(ts) * one; t.varianceTmpTensorSize = uint32_t(a8(rows));
    t.tmpBufSize = stack / 4; t.oneTmpSize = one;
    t.firstTmpStartPos = 0; t.secondTmpStartPos = one; t.thirdTmpStartPos = ts == 2 ? 2 * one : 0;
    const uint64_t loops = rows ? a / rows : 0, tail = rows ? a % rows : a;
    t.loopRound = uint32_t(loops); t.inputRoundSize = uint32_t(rows * r); t.inputTailSize = uint32_t(tail * r);
    t.inputTailPos = uint32_t(loops * rows * r); t.meanVarRoundSize = uint32_t(rows);
    t.meanVarTailSize = uint32_t(tail);
    t.meanVarTailPos = uint32_t(loops * rows); t.arCurLength = uint32_t(rows * r); t.aCurLength = uint32_t(rows);
    t.rValueBack = r ? 1.0f / float(r) : 0.0f;
    return t;
}
// RmsNorm: basic blocks process rows in groups of 8.
constexpr AscendC::tiling::RmsNormTiling rms_tiling(uint32_t b, uint32_t s, uint32_t h, uint32_t orih, uint32_t ts,
                                                    bool basic, uint32_t stack) {
    AscendC::tiling::RmsNormTiling t{};
    const uint64_t total = uint64_t(b) * s;
    const uint64_t rows = fit(total, basic ? 8 : 1, stack, [&](uint64_t n) { return rms_bytes(ts, h, n); });
    t.bLength = b; t.sLength = s; t.hLength = h; t.originalHLength = orih;
    t.reciprocalOfHLength = orih ? 1.0f / float(orih) : 0.0f;
    t.mainBshLength = uint32_t(rows * h); t.mainBsLength = uint32_t(rows); t.mainBsLengthAlign = uint32_t(a8(rows));
    const uint64_t loops = rows ? total / rows : 0, tail = rows ? total % rows : total;
    t.loopRound = uint32_t(loops); t.inputTailPos = uint32_t(loops * rows * h);
    t.tailBshLength = uint32_t(tail * h); t.tailBsLength = uint32_t(tail);
    return t;
}
// GroupNorm: whole groups (d channels of hw elements) at a time.
constexpr AscendC::tiling::GroupNormTiling gn_tiling(uint32_t n, uint32_t c, uint32_t hw, uint32_t g, uint32_t ts,
                                                     bool reuse, uint32_t stack) {
    AscendC::tiling::GroupNormTiling t{};
    const uint32_t d = g ? c / g : 0;
    const uint64_t total = uint64_t(n) * g;
    const uint64_t groups = fit(total, 1, stack, [&](uint64_t k) { return gn_bytes(ts, reuse, d, hw, k); });
    const uint32_t nt = ln_vectors(ts, reuse, 0), one = uint32_t(groups * d * a8(hw));
    t.n = n; t.c = c; t.hw = hw; t.g = g; t.d = d;
    t.hwAlignSize = uint32_t(align_elems(hw, ts)); t.dhwAlignSize = d * t.hwAlignSize;
    t.inputXSize = uint32_t(uint64_t(n) * c * hw); t.meanVarSize = uint32_t(total); t.numberOfTmpBuf = nt;
    t.tmpBufSize = stack / 4; t.oneTmpSize = one;
    t.firstTmpStartPos = 0; t.secondTmpStartPos = one; t.thirdTmpStartPos = 2 * one;
    t.meanTmpTensorPos = nt * one; t.meanTmpTensorSize = uint32_t(a8(groups));
    t.varianceTmpTensorPos = t.meanTmpTensorPos + t.meanTmpTensorSize; t.varianceTmpTensorSize = t.meanTmpTensorSize;
    const uint64_t loops = groups ? total / groups : 0, tail = groups ? total % groups : total, dhw = uint64_t(d) * hw;
    t.loopRound = uint32_t(loops); t.inputRoundSize = uint32_t(groups * dhw); t.inputTailSize = uint32_t(tail * dhw);
    t.inputTailPos = uint32_t(loops * groups * dhw); t.meanVarRoundSize = uint32_t(groups);
    t.meanVarTailSize = uint32_t(tail); t.meanVarTailPos = uint32_t(loops * groups);
    t.bshCurLength = uint32_t(groups * dhw); t.bsCurLength = uint32_t(groups);
    t.factor = dhw ? 1.0f / float(dhw) : 0.0f; t.smallShape = groups == total && total != 0;
    return t;
}
// BatchNorm: blocks of the S*H columns (one 32 B block of T at a time, 64 columns for basic blocks), all originB rows.
constexpr AscendC::tiling::BatchNormTiling bn_tiling(uint32_t orib, uint32_t sh, uint32_t ts, bool basic,
                                                     uint32_t stack) {
    AscendC::tiling::BatchNormTiling t{};
    const uint64_t step = basic ? 64 : 32 / (ts ? ts : 4);
    const uint64_t cols = fit(sh, step, stack, [&](uint64_t k) { return bn_bytes(orib, k); });
    const uint32_t one = uint32_t(cols * orib);
    t.originalBLength = orib; t.meanVarSize = sh;
    t.tmpBufSize = stack / 4; t.oneTmpSize = one;
    t.firstTmpStartPos = 0; t.secondTmpStartPos = one; t.thirdTmpStartPos = 2 * one;
    t.meanTmpTensorPos = 3 * one; t.varianceTmpTensorPos = 3 * one + uint32_t(cols);
    const uint64_t loops = cols ? sh / cols : 0, tail = cols ? sh % cols : sh;
    t.loopRound = uint32_t(loops); t.inputTailSize = uint32_t(tail * orib); t.inputTailPos = uint32_t(loops * cols);
    t.meanVarTailSize = uint32_t(tail); t.meanVarTailPos = uint32_t(loops * cols);
    t.bshCurLength = one; t.shCurLength = uint32_t(cols);
    t.firstDimValueBack = orib ? 1.0f / float(orib) : 0.0f;
    t.shCurLengthBlockNum = uint32_t(cols * ts / 32);
    t.castHalfRepStride = ts == 2 ? uint32_t(cols * 2 / 32) : 0; t.castHalfOutRepStride = t.castHalfRepStride;
    return t;
}
}  // namespace ascsim_norm
#endif  // ASCSIM_ASCSIM_NORM_COMMON_H_
