// ascsim: the high-level normalization APIs (Atlas A2): LayerNorm ([B,S,H] with mean/variance, and [A,R] with
// mean/rstd), Normalize, RmsNorm, GroupNorm, BatchNorm, DeepNorm, WelfordUpdate and WelfordFinalize.
//
// Math: statistics in double from the inputs, every output rounded to its type once (the device works in float; the
// docs' worked examples agree to the last printed float digit). Variances are biased (divided by the count). The tiling
// argument is any struct with the documented field names: the one the build generates from the optiling class
// (host/norm_tiling.h), or AscendC::tiling::XxxTiling (norm_common.h). The fields read here are listed per API; they
// are the ones the host tiling functions write. Temporary buffer: checked against the model in norm_common.h for the
// rows the tiling plans per pass (sharedTmpBuffer, or the UB after the last InitBuffer without one).
#ifndef ASCSIM_KERNEL_HL_NORM_H_
#define ASCSIM_KERNEL_HL_NORM_H_
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>
#include "hl_math.h"
#include "../norm_common.h"

namespace AscendC {
// Normalize's config names the reduced axis by ReducePattern (hl_common.h, shared with the host side).

// LayerNorm on [A, R]. isOutputRstd = false (variance output) and isOnlyOutput = true are not available on Atlas A2.
struct LayerNormConfig {
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
    bool isOutputRstd = true;
};
constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};
struct LayerNormPara {
    uint32_t aLength = 0;
    uint32_t rLength = 0;
    uint32_t rLengthWithPadding = 0;
    constexpr LayerNormPara() = default;
    constexpr LayerNormPara(uint32_t a, uint32_t r, uint32_t rPadded)
        : aLength(a), rLength(r), rLengthWithPadding(rPadded) {}
    // the two-value form the tiling docs' kernel uses (aLength, rLengthWithPadding): R is then unpadded
    constexpr LayerNormPara(uint32_t a, uint32_t rPadded) : aLength(a), rLength(rPadded), rLengthWithPadding(rPadded) {}
};

// Normalize: aLength -1 takes para.aLength; any other value must equal it. NLCFG_* are the names the docs' example
// uses; their values follow the names.
struct NormalizeConfig {
    ReducePattern reducePattern = ReducePattern::AR;
    int32_t aLength = -1;
    bool isNoBeta = false;
    bool isNoGamma = false;
    bool isOnlyOutput = false;
};
constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false, false, false};
constexpr NormalizeConfig NLCFG_NOBETA = {ReducePattern::AR, -1, true, false, false};
constexpr NormalizeConfig NLCFG_NOGAMMA = {ReducePattern::AR, -1, false, true, false};
constexpr NormalizeConfig NLCFG_NOOPT = {ReducePattern::AR, -1, true, true, false};
struct NormalizePara {
    uint32_t aLength = 0;
    uint32_t rLength = 0;
    uint32_t rLengthWithPadding = 0;
    constexpr NormalizePara() = default;
    constexpr NormalizePara(uint32_t a, uint32_t r, uint32_t rPadded)
        : aLength(a), rLength(r), rLengthWithPadding(rPadded) {}
};

// Welford. WELFORD_UPDATE_ENABLE_INPLACE_CFG is the name the WelfordUpdate example uses (value from its name).
struct WelfordUpdateConfig { bool isInplace = false; };
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};
constexpr WelfordUpdateConfig WELFORD_UPDATE_ENABLE_INPLACE_CFG = {true};
struct WelfordUpdateParam {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t abComputeLength;
    float nRec;
};
struct WelfordFinalizeConfig { bool isCorrection = false; };
constexpr WelfordFinalizeConfig WFFINALIZE_DEFAULT_CFG = {false};
struct WelfordFinalizePara {
    uint32_t rnLength;
    uint32_t abLength;
    uint32_t headCount;
    uint32_t headCountLength;
    uint32_t tailCount;
    uint32_t tailCountLength;
    float abRec;
    float rRec;
    float rRecWithCorrection;
};
}  // namespace AscendC

namespace ascsim {
namespace norm {
template <class T> using LT = AscendC::LocalTensor<T>;
using Tmp = AscendC::LocalTensor<uint8_t>;
template <class T> constexpr bool is_hf() { return std::is_same_v<T, half> || std::is_same_v<T, float>; }
template <class T> constexpr const char* tname() { return std::is_same_v<T, half> ? "half" : "float"; }
// The APIs documented with a non-const `XxxTiling& tiling` parameter do not accept a const tiling on the device.
template <class Tiling> constexpr bool mutable_tiling() { return !std::is_const_v<Tiling>; }

[[noreturn]] inline void bad(const char* api, const std::string& rule) { fail(api, "Failed to check params", rule); }
inline std::string num(uint64_t v) { return std::to_string(v); }

// One operand's footprint, for the overlap rules (the temporary-buffer check of hl_math.h names it too).
using Span = HlSpan;
template <class T> Span span(const LT<T>& t, uint64_t count, const char* name) {
    return {t.addr_, size_t(count * sizeof(T)), name};
}
inline bool overlaps(const Span& a, const Span& b) {
    const uint8_t *x = static_cast<const uint8_t*>(a.p), *y = static_cast<const uint8_t*>(b.p);
    return a.bytes && b.bytes && x < y + b.bytes && y < x + a.bytes;
}
// Fails when any of `outs` shares UB with any of `ins` (`rule` is the documented constraint).
inline void no_overlap(const char* api, std::initializer_list<Span> outs, std::initializer_list<Span> ins,
                       const char* rule) {
    for (const Span& o : outs)
        for (const Span& i : ins)
            if (o.p != nullptr && i.p != nullptr && overlaps(o, i))
                fail(api, "Failed to check params", std::string(o.name) + " overlaps " + i.name + ": " + rule);
}

// The temporary buffer: a sharedTmpBuffer must hold `need` bytes (what the rows the tiling processes per pass take)
// and not overlap an operand; without one the API takes the UB after the last InitBuffer. The `need` bytes count as
// written by PIPE_V for the missing-sync detector. The failures name `query` and the operand overlapped.
inline void tmp_check(const char* api, const char* query, const Tmp* tmp, uint64_t need,
                      std::initializer_list<Span> operands) {
    hl_check_tmp_bytes(api, tmp, need, need, operands, query, ", for the rows the tiling processes per pass", true);
}

template <class T> std::vector<double> load(const LT<T>& t, uint64_t n) {
    std::vector<double> v(n);
    for (uint64_t i = 0; i < n; ++i) v[i] = double(float(t.addr_[i]));
    return v;
}
template <class T> void store(const LT<T>& t, uint64_t i, double v) { t.addr_[i] = T(float(v)); }

// Mean and biased variance of n values `stride` apart (two passes).
inline void stats(const double* x, uint64_t n, uint64_t stride, double& mean, double& var) {
    double s = 0;
    for (uint64_t i = 0; i < n; ++i) s += x[i * stride];
    mean = s / double(n);
    double q = 0;
    for (uint64_t i = 0; i < n; ++i) q += (x[i * stride] - mean) * (x[i * stride] - mean);
    var = q / double(n);
}
inline uint64_t smaller(uint64_t a, uint64_t b) { return a < b ? a : b; }

// ---- LayerNorm on [B, S, H]. Tiling fields read: bLength, sLength, hLength, originalHLength, bsCurLength ----
template <class T, bool reuse, class Tiling>
void layernorm_bsh(const LT<T>& out, const LT<T>& mean, const LT<T>& var, const LT<T>& x, const LT<T>& gamma,
                   const LT<T>& beta, const Tmp* tmp, T epsilon, const Tiling& t) {
    static_assert(is_hf<T>(), "LayerNorm supports half and float on Atlas A2");
    const char* api = "LayerNorm";
    const uint64_t rows = uint64_t(t.bLength) * t.sLength, h = t.hLength;
    if (reuse && std::is_same_v<T, half>) bad(api, "isReuseSource = true is supported for float inputs only, not half");
    if (rows == 0 || h == 0)
        bad(api, "tiling bLength, sLength and hLength must be larger than 0 (fill it with GetLayerNormNDTilingInfo)");
    if (h * sizeof(T) % 32) bad(api, "the last axis H (" + num(h) + ") of inputX must be 32-byte aligned; pad it");
    if (t.originalHLength != h)
        bad(api, "originHLength (" + num(t.originalHLength) + ") must equal storageHLength (" + num(h) +
                     "): the API supports only that case; pad H with 0 and pass the padded length as both");
    if (t.bsCurLength == 0)
        bad(api, "tiling bsCurLength is 0: GetLayerNormNDTilingInfo got a stackBufferSize below "
                 "GetLayerNormMaxMinTmpSize's minValue");
    const uint64_t n = rows * h;
    check_src(api, x, n); check_src(api, gamma, h); check_src(api, beta, h);
    check_dst(api, out, n); check_dst(api, mean, rows); check_dst(api, var, rows);
    const Span so = span(out, n, "output"), sm = span(mean, rows, "outputMean"), sv = span(var, rows, "outputVariance");
    const Span sx = span(x, n, "inputX"), sg = span(gamma, h, "gamma"), sb = span(beta, h, "beta");
    no_overlap(api, {sm, sv}, {sx, sg, sb, so}, "only output and inputX may share memory");
    no_overlap(api, {sm}, {sv}, "the outputs must not share memory");
    no_overlap(api, {so}, {sg, sb}, "only output and inputX may share memory");
    const uint64_t need = ascsim_norm::ln_bytes(sizeof(T), reuse, 0, h, smaller(t.bsCurLength, rows));
    tmp_check(api, "GetLayerNormMaxMinTmpSize", tmp, need, {so, sm, sv, sx, sg, sb});
    // everything is read before anything is written: output may be inputX
    const std::vector<double> xv = load(x, n), g = load(gamma, h), b = load(beta, h);
    const double eps = double(float(epsilon));
    for (uint64_t r = 0; r < rows; ++r) {
        double mu, v;
        stats(&xv[r * h], h, 1, mu, v);
        const double rstd = 1.0 / std::sqrt(v + eps);
        for (uint64_t j = 0; j < h; ++j) store(out, r * h + j, (xv[r * h + j] - mu) * rstd * g[j] + b[j]);
        store(mean, r, mu);
        store(var, r, v);
    }
}

// ---- LayerNorm on [A, R] (mean and rstd). Tiling fields read: aLength, rLength, aCurLength ----
template <class U, class T, const AscendC::LayerNormConfig& cfg, class Tiling>
void layernorm_ar(const LT<T>& out, const LT<float>& mean, const LT<float>& rstd, const LT<T>& x, const LT<U>& gamma,
                  const LT<U>& beta, float epsilon, const Tmp* tmp, const AscendC::LayerNormPara& para,
                  const Tiling& t) {
    static_assert(is_hf<T>() && is_hf<U>(), "LayerNorm supports half and float on Atlas A2");
    static_assert(!(std::is_same_v<T, float> && std::is_same_v<U, half>),
                  "LayerNorm: gamma/beta (U) must be at least as precise as inputX (T): float inputX needs float U");
    static_assert(cfg.isOutputRstd, "LayerNorm: isOutputRstd = false (variance output) is for Ascend 950 only");
    static_assert(!cfg.isOnlyOutput, "LayerNorm: isOnlyOutput supports only false");
    const char* api = "LayerNorm";
    const uint64_t a = para.aLength, r = para.rLength, rp = para.rLengthWithPadding;
    if (a == 0 || r == 0) bad(api, "para.aLength and para.rLength must be larger than 0");
    if (rp * sizeof(T) % 32) bad(api, "para.rLengthWithPadding (" + num(rp) + ") must be 32-byte aligned");
    if (r > rp) bad(api, "para.rLength (" + num(r) + ") must not exceed rLengthWithPadding (" + num(rp) + ")");
    if (a > t.aLength)
        bad(api, "para.aLength (" + num(a) + ") must not exceed the A of the tiling's srcShape (" + num(t.aLength) +
                     ")");
    if (ascsim_norm::align_elems(t.rLength, sizeof(T)) != rp)
        bad(api, "the R axis cannot be split: para.rLengthWithPadding (" + num(rp) + ") must be the tiling's R (" +
                     num(t.rLength) + ") padded to 32 bytes");
    if (t.aCurLength == 0)
        bad(api, "tiling aCurLength is 0: GetLayerNormNDTilingInfo got a stackBufferSize below "
                 "GetLayerNormMaxMinTmpSize's minValue");
    const uint64_t n = a * rp, ng = cfg.isNoGamma ? 0 : r, nb = cfg.isNoBeta ? 0 : r;
    check_src(api, x, n);
    if (ng) check_src(api, gamma, ng);
    if (nb) check_src(api, beta, nb);
    check_dst(api, out, n); check_dst(api, mean, a); check_dst(api, rstd, a);
    const Span so = span(out, n, "output"), sm = span(mean, a, "outputMean"), sr = span(rstd, a, "outputRstd");
    const Span sx = span(x, n, "inputX"), sg = span(gamma, ng, "gamma"), sb = span(beta, nb, "beta");
    no_overlap(api, {so, sm, sr}, {sx, sg, sb}, "src and dst tensors must not share memory");
    no_overlap(api, {so, sm}, {sr}, "the outputs must not share memory");
    no_overlap(api, {so}, {sm}, "the outputs must not share memory");
    const uint64_t need = ascsim_norm::sep_bytes(sizeof(T), t.rLength, smaller(t.aCurLength, a));
    tmp_check(api, "GetLayerNormMaxMinTmpSize", tmp, need, {so, sm, sr, sx, sg, sb});
    const std::vector<double> xv = load(x, n), g = load(gamma, ng), b = load(beta, nb);
    for (uint64_t i = 0; i < a; ++i) {
        double mu, v;
        stats(&xv[i * rp], r, 1, mu, v);
        const double rs = 1.0 / std::sqrt(v + double(epsilon));
        for (uint64_t j = 0; j < r; ++j)   // the padded columns are left as they are
            store(out, i * rp + j, (xv[i * rp + j] - mu) * rs * (ng ? g[j] : 1.0) + (nb ? b[j] : 0.0));
        store(mean, i, mu);
        store(rstd, i, rs);
    }
}

// ---- Normalize on [A, R] with the caller's mean and variance (no tiling struct) ----
template <class U, class T, const AscendC::NormalizeConfig& cfg>
void normalize(const LT<T>& out, const LT<float>& rstd, const LT<float>& mean, const LT<float>& var, const LT<T>& x,
               const LT<U>& gamma, const LT<U>& beta, const Tmp* tmp, float epsilon,
               const AscendC::NormalizePara& para) {
    static_assert(is_hf<T>() && is_hf<U>(), "Normalize supports half and float on Atlas A2");
    static_assert(!(std::is_same_v<T, float> && std::is_same_v<U, half>),
                  "Normalize: gamma/beta (U) must be at least as precise as inputX (T): float inputX needs float U");
    static_assert(cfg.reducePattern == AscendC::ReducePattern::AR, "Normalize supports only ReducePattern::AR");
    static_assert(!cfg.isOnlyOutput, "Normalize: isOnlyOutput supports only false");
    const char* api = "Normalize";
    const uint64_t a = para.aLength, r = para.rLength, rp = para.rLengthWithPadding;
    if (cfg.aLength != -1 && uint64_t(cfg.aLength) != a)
        bad(api, "config.aLength (" + std::to_string(cfg.aLength) + ") must be -1 or equal para.aLength (" + num(a) +
                     ")");
    if (a == 0 || r == 0) bad(api, "para.aLength and para.rLength must be larger than 0");
    if (rp * sizeof(T) % 32) bad(api, "para.rLengthWithPadding (" + num(rp) + ") must be 32-byte aligned");
    if (r > rp) bad(api, "para.rLength (" + num(r) + ") must not exceed rLengthWithPadding (" + num(rp) + ")");
    const uint64_t n = a * rp, ng = cfg.isNoGamma ? 0 : r, nb = cfg.isNoBeta ? 0 : r;
    check_src(api, x, n); check_src(api, mean, a); check_src(api, var, a);
    if (ng) check_src(api, gamma, ng);
    if (nb) check_src(api, beta, nb);
    check_dst(api, out, n); check_dst(api, rstd, a);
    const Span so = span(out, n, "output"), sr = span(rstd, a, "outputRstd"), sx = span(x, n, "inputX");
    const Span sm = span(mean, a, "inputMean"), sv = span(var, a, "inputVariance"), sg = span(gamma, ng, "gamma"),
               sb = span(beta, nb, "beta");
    no_overlap(api, {so, sr}, {sx, sm, sv, sg, sb}, "src and dst tensors must not share memory");
    no_overlap(api, {so}, {sr}, "the outputs must not share memory");
    const uint64_t need = ascsim_norm::normalize_bytes(sizeof(U), sizeof(T), r, 1);
    tmp_check(api, "GetNormalizeMaxMinTmpSize", tmp, need, {so, sr, sx, sm, sv, sg, sb});
    const std::vector<double> xv = load(x, n), mv = load(mean, a), vv = load(var, a), g = load(gamma, ng),
                              b = load(beta, nb);
    for (uint64_t i = 0; i < a; ++i) {
        const double rs = 1.0 / std::sqrt(vv[i] + double(epsilon));
        for (uint64_t j = 0; j < r; ++j)
            store(out, i * rp + j, (xv[i * rp + j] - mv[i]) * rs * (ng ? g[j] : 1.0) + (nb ? b[j] : 0.0));
        store(rstd, i, rs);
    }
}

// ---- RmsNorm on [B, S, H]. Tiling fields read: bLength, sLength, hLength, originalHLength, mainBsLength ----
template <class T, bool basic, class Tiling>
void rmsnorm(const LT<T>& dst, const LT<T>& src, const LT<T>& gamma, const Tmp* tmp, T epsilon, const Tiling& t) {
    static_assert(is_hf<T>(), "RmsNorm supports half and float on Atlas A2");
    const char* api = "RmsNorm";
    const uint64_t rows = uint64_t(t.bLength) * t.sLength, h = t.hLength, oh = t.originalHLength;
    if (rows == 0 || h == 0)
        bad(api, "tiling bLength, sLength and hLength must be larger than 0 (fill it with GetRmsNormTilingInfo)");
    if (h * sizeof(T) % 32) bad(api, "the last axis H (" + num(h) + ") of srcLocal must be 32-byte aligned; pad it");
    if (oh == 0 || oh > h) bad(api, "the original H (" + num(oh) + ") must be in (0, H = " + num(h) + "]");
    if (basic && !(h % 64 == 0 && h < 2048 && rows % 8 == 0 && oh * sizeof(T) % 32 == 0))
        bad(api, "isBasicBlock needs H a multiple of 64 below 2048 (got " + num(h) + "), B*S a multiple of 8 (got " +
                     num(rows) + ") and a 32-byte aligned original H");
    if (t.mainBsLength == 0)
        bad(api, "tiling mainBsLength is 0: GetRmsNormTilingInfo got a stackBufferByteSize below "
                 "GetRmsNormMaxMinTmpSize's minValue");
    const uint64_t n = rows * h;
    check_src(api, src, n); check_src(api, gamma, h); check_dst(api, dst, n);
    const Span sd = span(dst, n, "dstLocal"), ss = span(src, n, "srcLocal"), sg = span(gamma, h, "gammaLocal");
    no_overlap(api, {sd}, {sg}, "dstLocal and gammaLocal must not share memory");
    const uint64_t need = ascsim_norm::rms_bytes(sizeof(T), h, smaller(t.mainBsLength, rows));
    tmp_check(api, "GetRmsNormMaxMinTmpSize", tmp, need, {sd, ss, sg});
    const std::vector<double> xv = load(src, n), g = load(gamma, h);
    const double eps = double(float(epsilon));
    for (uint64_t r = 0; r < rows; ++r) {
        double q = 0;   // the mean square over the original H only
        for (uint64_t j = 0; j < oh; ++j) q += xv[r * h + j] * xv[r * h + j];
        const double rs = 1.0 / std::sqrt(q / double(oh) + eps);
        // the padded columns are overwritten too (documented), with the same formula
        for (uint64_t j = 0; j < h; ++j) store(dst, r * h + j, xv[r * h + j] * rs * g[j]);
    }
}

// ---- GroupNorm on a dense [N, C, H, W]. Tiling fields read: n, c, hw, g, bsCurLength ----
template <class T, bool reuse, class Tiling>
void groupnorm(const LT<T>& out, const LT<T>& mean, const LT<T>& var, const LT<T>& x, const LT<T>& gamma,
               const LT<T>& beta, const Tmp* tmp, T epsilon, const Tiling& t) {
    static_assert(is_hf<T>(), "GroupNorm supports half and float on Atlas A2");
    const char* api = "GroupNorm";
    const uint64_t nb = t.n, c = t.c, hw = t.hw, g = t.g;
    if (reuse && std::is_same_v<T, half>) bad(api, "isReuseSource = true is supported for float inputs only, not half");
    if (nb == 0 || c == 0 || hw == 0 || g == 0)
        bad(api, "tiling n, c, hw and g must be larger than 0 (fill it with GetGroupNormNDTilingInfo)");
    if (c % g) bad(api, "C (" + num(c) + ") must be a multiple of groupNum (" + num(g) + ")");
    if (t.bsCurLength == 0)
        bad(api, "tiling bsCurLength is 0: GetGroupNormNDTilingInfo got a stackBufferSize below "
                 "GetGroupNormMaxMinTmpSize's minValue");
    const uint64_t d = c / g, n = nb * c * hw, groups = nb * g;
    check_src(api, x, n); check_src(api, gamma, c); check_src(api, beta, c);
    check_dst(api, out, n); check_dst(api, mean, groups); check_dst(api, var, groups);
    const Span so = span(out, n, "output"), sm = span(mean, groups, "outputMean");
    const Span sv = span(var, groups, "outputVariance"), sx = span(x, n, "inputX"), sg = span(gamma, c, "gamma"),
               sb = span(beta, c, "beta");
    no_overlap(api, {sm, sv}, {sx, sg, sb, so}, "mean and variance must not share memory with other operands");
    no_overlap(api, {sm}, {sv}, "the outputs must not share memory");
    const uint64_t need = ascsim_norm::gn_bytes(sizeof(T), reuse, d, hw, smaller(t.bsCurLength, groups));
    tmp_check(api, "GetGroupNormMaxMinTmpSize", tmp, need, {so, sm, sv, sx, sg, sb});
    const std::vector<double> xv = load(x, n), gv = load(gamma, c), bv = load(beta, c);
    const double eps = double(float(epsilon));
    const uint64_t m = d * hw;   // one group: d consecutive channels of one sample
    for (uint64_t k = 0; k < groups; ++k) {
        double mu, v;
        stats(&xv[k * m], m, 1, mu, v);
        const double rs = 1.0 / std::sqrt(v + eps);
        for (uint64_t i = 0; i < m; ++i) {
            const uint64_t ch = (k % g) * d + i / hw;
            store(out, k * m + i, (xv[k * m + i] - mu) * rs * gv[ch] + bv[ch]);
        }
        store(mean, k, mu);
        store(var, k, v);
    }
}

// ---- BatchNorm on [B, S, H] over B. Tiling fields read: originalBLength, meanVarSize (S*H), shCurLength ----
template <class T, bool basic, class Tiling>
void batchnorm(const LT<T>& out, const LT<T>& mean, const LT<T>& var, const LT<T>& x, const LT<T>& gamma,
               const LT<T>& beta, const Tmp* tmp, T epsilon, const Tiling& t) {
    static_assert(is_hf<T>(), "BatchNorm supports half and float on Atlas A2");
    const char* api = "BatchNorm";
    const uint64_t ob = t.originalBLength, sh = t.meanVarSize;
    if (ob == 0 || sh == 0)
        bad(api, "tiling originalBLength and S*H must be larger than 0 (fill it with GetBatchNormNDTilingInfo)");
    if (sh * sizeof(T) % 32) bad(api, "S*H (" + num(sh) + ") of inputX must be 32-byte aligned");
    if (basic && !(ob % 8 == 0 && sh % 64 == 0 && sh < 2048))
        bad(api, "isBasicBlock needs originB a multiple of 8 (got " + num(ob) +
                     ") and S*H a multiple of 64 below 2048 (got " + num(sh) + ")");
    if (t.shCurLength == 0)
        bad(api, "tiling shCurLength is 0: GetBatchNormNDTilingInfo got a stackBufferByteSize below "
                 "GetBatchNormMaxMinTmpSize's minValue");
    const uint64_t n = ob * sh;
    check_src(api, x, n); check_src(api, gamma, ob); check_src(api, beta, ob);
    check_dst(api, out, n); check_dst(api, mean, sh); check_dst(api, var, sh);
    const Span so = span(out, n, "output"), sm = span(mean, sh, "outputMean"), sv = span(var, sh, "outputVariance");
    const Span sx = span(x, n, "inputX"), sg = span(gamma, ob, "gamm"), sb = span(beta, ob, "beta");
    no_overlap(api, {sm, sv}, {sx, sg, sb, so}, "only output and inputX may share memory");
    no_overlap(api, {sm}, {sv}, "the outputs must not share memory");
    no_overlap(api, {so}, {sg, sb}, "only output and inputX may share memory");
    const uint64_t need = ascsim_norm::bn_bytes(ob, smaller(t.shCurLength, sh));
    tmp_check(api, "GetBatchNormMaxMinTmpSize", tmp, need, {so, sm, sv, sx, sg, sb});
    const std::vector<double> xv = load(x, n), gv = load(gamma, ob), bv = load(beta, ob);
    const double eps = double(float(epsilon));
    for (uint64_t j = 0; j < sh; ++j) {   // rows past originalBLength (the padding of B) are left alone
        double mu, v;
        stats(&xv[j], ob, sh, mu, v);
        const double rs = 1.0 / std::sqrt(v + eps);
        for (uint64_t b = 0; b < ob; ++b) store(out, b * sh + j, (xv[b * sh + j] - mu) * rs * gv[b] + bv[b]);
        store(mean, j, mu);
        store(var, j, v);
    }
}

// ---- DeepNorm: LayerNorm of alpha * src + gx over the original H. Tiling fields read: bLength, sLength, hLength,
// originalHLength, bsCurLength. rstdLocal receives the variance: the API text calls it rstd, but the docs' worked
// example prints the biased variance there (106.3125 for rows whose variance is 106.3125 and rstd 0.0039). ----
template <class T, bool reuse, bool basic, class Tiling>
void deepnorm(const LT<T>& dst, const LT<T>& mean, const LT<T>& rstd, const LT<T>& src, const LT<T>& gx,
              const LT<T>& beta, const LT<T>& gamma, const Tmp* tmp, T alpha, T epsilon, const Tiling& t) {
    static_assert(is_hf<T>(), "DeepNorm supports half and float on Atlas A2");
    const char* api = "DeepNorm";
    const uint64_t rows = uint64_t(t.bLength) * t.sLength, h = t.hLength, oh = t.originalHLength;
    if (reuse && std::is_same_v<T, half>) bad(api, "isReuseSrc = true is supported for float inputs only, not half");
    if (rows == 0 || h == 0)
        bad(api, "tiling bLength, sLength and hLength must be larger than 0 (fill it with GetDeepNormTilingInfo)");
    if (h * sizeof(T) % 32) bad(api, "the last axis H (" + num(h) + ") must be 32-byte aligned; pad it with 0");
    if (h > 2040) bad(api, "H (" + num(h) + ") must not exceed 2040");
    if (oh == 0 || oh > h) bad(api, "originH (" + num(oh) + ") must be in (0, H = " + num(h) + "]");
    if (basic && !(h % 64 == 0 && rows % 8 == 0 && oh == h))
        bad(api, "isBasicBlock needs H a multiple of 64 (got " + num(h) + "), B*S a multiple of 8 (got " + num(rows) +
                     ") and originH equal to H");
    if (t.bsCurLength == 0)
        bad(api, "tiling bsCurLength is 0: GetDeepNormTilingInfo got a stackBufferSize below "
                 "GetDeepNormMaxMinTmpSize's minValue");
    const uint64_t n = rows * h;
    check_src(api, src, n); check_src(api, gx, n); check_src(api, beta, h); check_src(api, gamma, h);
    check_dst(api, dst, n); check_dst(api, mean, rows); check_dst(api, rstd, rows);
    const Span sd = span(dst, n, "dstLocal"), sm = span(mean, rows, "meanLocal"), sr = span(rstd, rows, "rstdLocal");
    const Span ss = span(src, n, "srcLocal"), sx = span(gx, n, "gxLocal"), sb = span(beta, h, "betaLocal"),
               sg = span(gamma, h, "gammaLocal");
    if (!reuse) no_overlap(api, {sd}, {ss}, "with isReuseSrc = false srcLocal and dstLocal must not share memory");
    no_overlap(api, {sm, sr}, {ss, sx, sb, sg, sd}, "mean and rstd must not share memory with other operands");
    no_overlap(api, {sm}, {sr}, "the outputs must not share memory");
    const uint64_t need = ascsim_norm::ln_bytes(sizeof(T), reuse, 1, h, smaller(t.bsCurLength, rows));
    tmp_check(api, "GetDeepNormMaxMinTmpSize", tmp, need, {sd, sm, sr, ss, sx, sb, sg});
    const std::vector<double> xv = load(src, n), gv = load(gx, n), g = load(gamma, h), b = load(beta, h);
    const double al = double(float(alpha)), eps = double(float(epsilon));
    std::vector<double> v(h);
    for (uint64_t r = 0; r < rows; ++r) {
        for (uint64_t j = 0; j < h; ++j) v[j] = al * xv[r * h + j] + gv[r * h + j];
        double mu, var;
        stats(v.data(), oh, 1, mu, var);
        const double rs = 1.0 / std::sqrt(var + eps);
        for (uint64_t j = 0; j < h; ++j) store(dst, r * h + j, (v[j] - mu) * rs * g[j] + b[j]);
        store(mean, r, mu);
        store(rstd, r, var);
    }
}

// ---- WelfordUpdate: one Welford step per column, in float as the device does (the docs' example is exact) ----
template <class T, class U, bool reuse, const AscendC::WelfordUpdateConfig& cfg>
void welford_update(const LT<U>& outMean, const LT<U>& outVar, const LT<U>& inMean, const LT<U>& inVar, const LT<T>& x,
                    const Tmp* tmp, const AscendC::WelfordUpdateParam& para) {
    static_assert(is_hf<T>(), "WelfordUpdate: inputX supports half and float on Atlas A2");
    static_assert(std::is_same_v<U, float>, "WelfordUpdate: the mean/variance tensors (U) support float only");
    const char* api = "WelfordUpdate";
    const uint64_t ab = para.abLength, k = para.abComputeLength;
    if (para.rnLength != 1) bad(api, "para.rnLength is reserved and must be 1, got " + num(para.rnLength));
    if (ab == 0 || ab * sizeof(T) % 32)
        bad(api, "para.abLength (" + num(ab) + ") must be a positive multiple of " + num(32 / sizeof(T)) +
                     " (32 B of " + tname<T>() + ")");
    if (k == 0 || k > ab) bad(api, "para.abComputeLength (" + num(k) + ") must be in (0, abLength = " + num(ab) + "]");
    check_src(api, inMean, ab); check_src(api, inVar, ab); check_src(api, x, ab);
    check_dst(api, outMean, ab); check_dst(api, outVar, ab);
    const Span om = span(outMean, ab, "outputMean"), ov = span(outVar, ab, "outputVariance");
    const Span im = span(inMean, ab, "inputMean"), iv = span(inVar, ab, "inputVariance"), sx = span(x, ab, "inputX");
    no_overlap(api, {om, ov}, {im, iv, sx}, "source and destination operands must not share memory");
    no_overlap(api, {om}, {ov}, "the outputs must not share memory");
    const uint64_t need = ascsim_norm::welford_min(ascsim_norm::welford_live(true, sizeof(T), reuse), ab);
    tmp_check(api, "GetWelfordUpdateMaxMinTmpSize", tmp, need, {om, ov, im, iv, sx});
    const float nrec = para.nRec;
    for (uint64_t j = 0; j < k; ++j) {
        const float xj = float(x.addr_[j]), m0 = inMean.addr_[j];
        const float delta = xj - m0;
        const float m1 = m0 + delta * nrec;
        outMean.addr_[j] = m1;
        outVar.addr_[j] = inVar.addr_[j] + delta * (xj - m1);
    }
    if (cfg.isInplace)   // the columns past abComputeLength take the inputs' values; otherwise they are not written
        for (uint64_t j = k; j < ab; ++j) { outMean.addr_[j] = inMean.addr_[j]; outVar.addr_[j] = inVar.addr_[j]; }
}

// ---- WelfordFinalize: abLength column statistics combined into one mean and variance (element 0 of each) ----
template <const AscendC::WelfordFinalizeConfig& cfg>
void welford_finalize(const LT<float>& outMean, const LT<float>& outVar, const LT<float>& inMean,
                      const LT<float>& inVar, const LT<int32_t>* counts, const Tmp* tmp,
                      const AscendC::WelfordFinalizePara& para) {
    static_assert(!cfg.isCorrection, "WelfordFinalize: isCorrection is supported on Ascend 950 only");
    const char* api = "WelfordFinalize";
    const uint64_t ab = para.abLength;
    if (ab == 0 || ab % 8) bad(api, "para.abLength (" + num(ab) + ") must be a positive multiple of 8 (32 B of float)");
    if (!counts) {
        const uint64_t lens = uint64_t(para.headCountLength) + para.tailCountLength;
        if (lens != ab)
            bad(api, "para.headCountLength + tailCountLength (" + num(lens) + ") must equal abLength (" + num(ab) +
                         ")");
        if (para.tailCount == 0 && para.tailCountLength != 0)
            bad(api, "with para.tailCount = 0, tailCountLength must be 0 too");
    }
    check_src(api, inMean, ab); check_src(api, inVar, ab);
    if (counts) check_src(api, *counts, ab);
    check_dst(api, outMean, 1); check_dst(api, outVar, 1);
    const Span om = span(outMean, 8, "outputMean"), ov = span(outVar, 8, "outputVariance");
    const Span im = span(inMean, ab, "inputMean"), iv = span(inVar, ab, "inputVariance");
    const Span sc = counts ? span(*counts, ab, "counts") : Span{nullptr, 0, "counts"};
    no_overlap(api, {om, ov}, {im, iv, sc}, "source and destination operands must not share memory");
    no_overlap(api, {om}, {ov}, "the outputs must not share memory");
    const uint64_t need = ascsim_norm::welford_min(ascsim_norm::welford_live(false, 4, false), ab);
    tmp_check(api, "GetWelfordFinalizeMaxMinTmpSize", tmp, need, {om, ov, im, iv, sc});
    // each column's weight: its count, or headCount / tailCount for the head / tail columns
    std::vector<double> c(ab);
    for (uint64_t i = 0; i < ab; ++i)
        c[i] = counts ? double(counts->addr_[i]) : double(i < para.headCountLength ? para.headCount : para.tailCount);
    const double rrec = double(para.rRec);
    double mu = 0;
    if (!counts && para.tailCountLength == 0) {   // no tail: the plain average of the column means
        for (uint64_t i = 0; i < ab; ++i) mu += double(inMean.addr_[i]);
        mu *= double(para.abRec);
    } else {
        for (uint64_t i = 0; i < ab; ++i) mu += c[i] * double(inMean.addr_[i]);
        mu *= rrec;
    }
    double v = 0;
    for (uint64_t i = 0; i < ab; ++i) {
        const double dm = double(inMean.addr_[i]) - mu;
        v += double(inVar.addr_[i]) + c[i] * dm * dm;
    }
    outMean.addr_[0] = float(mu);
    outVar.addr_[0] = float(v * rrec);
}
}  // namespace norm
}  // namespace ascsim

namespace AscendC {
// LayerNorm, [B, S, H] -> output, mean [B, S], variance [B, S].
template <typename T, bool isReuseSource = false, typename Tiling>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, Tiling& tiling) {
    static_assert(::ascsim::norm::mutable_tiling<Tiling>(), "the documented tiling parameter is a non-const reference");
    ::ascsim::norm::layernorm_bsh<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
                                                    &sharedTmpBuffer, epsilon, tiling);
}
template <typename T, bool isReuseSource = false, typename Tiling>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
                                 Tiling& tiling) {
    static_assert(::ascsim::norm::mutable_tiling<Tiling>(), "the documented tiling parameter is a non-const reference");
    ::ascsim::norm::layernorm_bsh<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta, nullptr,
                                                    epsilon, tiling);
}
// LayerNorm, [A, R] -> output, mean [A], rstd [A] (float statistics).
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM,
          typename Tiling>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormPara& para,
                                 const Tiling& tiling) {
    ::ascsim::norm::layernorm_ar<U, T, config>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon,
                                               &sharedTmpBuffer, para, tiling);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM,
          typename Tiling>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                                 const LayerNormPara& para, const Tiling& tiling) {
    ::ascsim::norm::layernorm_ar<U, T, config>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon, nullptr,
                                               para, tiling);
}

template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float epsilon,
                                 const NormalizePara& para) {
    ::ascsim::norm::normalize<U, T, config>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta,
                                            &sharedTmpBuffer, epsilon, para);
}
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                                 const float epsilon, const NormalizePara& para) {
    ::ascsim::norm::normalize<U, T, config>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta, nullptr,
                                            epsilon, para);
}

template <typename T, bool isBasicBlock = false, typename Tiling>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const T epsilon, const Tiling& tiling) {
    ::ascsim::norm::rmsnorm<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, &sharedTmpBuffer, epsilon, tiling);
}
template <typename T, bool isBasicBlock = false, typename Tiling>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<T>& gammaLocal, const T epsilon, const Tiling& tiling) {
    ::ascsim::norm::rmsnorm<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, nullptr, epsilon, tiling);
}

// GroupNorm: the user-buffer form takes sharedTmpBuffer before epsilon (documented order).
template <typename T, bool isReuseSource = false, typename Tiling>
__aicore__ inline void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
                                 Tiling& tiling) {
    static_assert(::ascsim::norm::mutable_tiling<Tiling>(), "the documented tiling parameter is a non-const reference");
    ::ascsim::norm::groupnorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta, nullptr,
                                                epsilon, tiling);
}
template <typename T, bool isReuseSource = false, typename Tiling>
__aicore__ inline void GroupNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, Tiling& tiling) {
    static_assert(::ascsim::norm::mutable_tiling<Tiling>(), "the documented tiling parameter is a non-const reference");
    ::ascsim::norm::groupnorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta,
                                                &sharedTmpBuffer, epsilon, tiling);
}

// BatchNorm (isReuseSource is reserved). The scale parameter is spelled `gamm` in the docs.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, typename Tiling>
__aicore__ inline void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamm, const LocalTensor<T>& beta, const T epsilon,
                                 Tiling& tiling) {
    static_assert(::ascsim::norm::mutable_tiling<Tiling>(), "the documented tiling parameter is a non-const reference");
    ::ascsim::norm::batchnorm<T, isBasicBlock>(output, outputMean, outputVariance, inputX, gamm, beta, nullptr,
                                               epsilon, tiling);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, typename Tiling>
__aicore__ inline void BatchNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamm, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon, Tiling& tiling) {
    static_assert(::ascsim::norm::mutable_tiling<Tiling>(), "the documented tiling parameter is a non-const reference");
    ::ascsim::norm::batchnorm<T, isBasicBlock>(output, outputMean, outputVariance, inputX, gamm, beta,
                                               &sharedTmpBuffer, epsilon, tiling);
}

// DeepNorm: note the documented order, beta before gamma.
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false, typename Tiling>
__aicore__ inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
                                const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
                                const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                                const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                const T alpha, const T epsilon, Tiling& tiling) {
    static_assert(::ascsim::norm::mutable_tiling<Tiling>(), "the documented tiling parameter is a non-const reference");
    ::ascsim::norm::deepnorm<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal,
                                                          gammaLocal, &sharedTmpBuffer, alpha, epsilon, tiling);
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false, typename Tiling>
__aicore__ inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
                                const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
                                const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                                const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon, Tiling& tiling) {
    static_assert(::ascsim::norm::mutable_tiling<Tiling>(), "the documented tiling parameter is a non-const reference");
    ::ascsim::norm::deepnorm<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal,
                                                          gammaLocal, nullptr, alpha, epsilon, tiling);
}

template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                                     const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                                     const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     const WelfordUpdateParam& para) {
    ::ascsim::norm::welford_update<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                                                inputX, &sharedTmpBuffer, para);
}
template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                                     const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                                     const LocalTensor<T>& inputX, const WelfordUpdateParam& para) {
    ::ascsim::norm::welford_update<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance,
                                                                inputX, nullptr, para);
}

// WelfordFinalize (isReuseSource is reserved); `para` is a non-const reference as documented.
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para) {
    ::ascsim::norm::welford_finalize<config>(outputMean, outputVariance, inputMean, inputVariance, nullptr,
                                             &sharedTmpBuffer, para);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<int32_t>& counts, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                       WelfordFinalizePara& para) {
    ::ascsim::norm::welford_finalize<config>(outputMean, outputVariance, inputMean, inputVariance, &counts,
                                             &sharedTmpBuffer, para);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       WelfordFinalizePara& para) {
    ::ascsim::norm::welford_finalize<config>(outputMean, outputVariance, inputMean, inputVariance, nullptr, nullptr,
                                             para);
}
template <bool isReuseSource = false, const WelfordFinalizeConfig& config = WFFINALIZE_DEFAULT_CFG>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<int32_t>& counts, WelfordFinalizePara& para) {
    ::ascsim::norm::welford_finalize<config>(outputMean, outputVariance, inputMean, inputVariance, &counts, nullptr,
                                             para);
}
}  // namespace AscendC
#endif  // ASCSIM_KERNEL_HL_NORM_H_
