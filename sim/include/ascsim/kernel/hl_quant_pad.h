// ascsim: the quantisation, padding and filtering high-level APIs of Atlas A2, from their docs (量化操作/AscendQuant,
// AscendDequant, AscendAntiQuant; 张量变换/Pad, UnPad; 数据过滤/DropOut):
//   AscendQuant      int8 = round(half(src) * half(scale) + half(offset)), per tensor (scalars) or per channel
//   AscendDequant    dstT = float(int32 src) * float(deqScale), rows [m, n] of which the first calCount are scaled
//   AscendAntiQuant  dst = scale * (int8 / int4 src + offset), per tensor or per channel (groups of rows / columns)
//   Pad / UnPad      a [height, width] tile padded to (or cut back from) a 32-byte-aligned width
//   DropOut          dst = mask ? src / keepProb : 0, with a byte mask or a bit mask, with or without padded rows
// Quantize / Dequantize / AntiQuantize are not here: their docs list no Atlas A2 support. The PER_TOKEN / PER_GROUP
// forms and the free-dstT forms are Ascend 950 only (docs), so they are not declared either.
// Arithmetic follows the docs' stage descriptions ("实现原理"), each stage rounded as the vector unit rounds (nearest
// even); the temporary-buffer model is in ../quant_pad_common.h (shared with host/quant_pad_tiling.h).
#ifndef ASCSIM_KERNEL_HL_QUANT_PAD_H_
#define ASCSIM_KERNEL_HL_QUANT_PAD_H_
#include <cstring>
#include <string>
#include <vector>
#include "hl_math.h"
#include "../quant_pad_common.h"

namespace AscendC {
// AscendQuant's constant parameters (docs, AscendQuant 表1): when calcCount and workLocalSize (and, for the forms with
// a scaleCount argument, scaleCount) are non-zero, the API uses these compile-time values instead of its arguments.
struct AscendQuantConfig {
    uint32_t calcCount = 0;
    uint32_t offsetCount = 0;
    uint32_t scaleCount = 0;
    uint32_t workLocalSize = 0;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

struct DequantParams {
    uint32_t m;
    uint32_t n;
    uint32_t calCount;
};
// DEQUANT_WITH_SINGLE_ROW: {1, n, calCount} with calCount a multiple of 32 / sizeof(dstT) and n % calCount == 0 runs
// as {n / calCount, calCount, calCount}; DEQUANT_WITH_MULTI_ROW keeps it one row.
enum DeQuantMode : uint8_t { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW = 1 };

struct AntiQuantShapeInfo {
    uint32_t offsetHeight{0};
    uint32_t offsetWidth{0};
    uint32_t scaleHeight{0};
    uint32_t scaleWidth{0};
};

struct PadParams {
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
    int32_t padValue = 0;
};
struct UnPadParams {
    uint16_t leftPad = 0;
    uint16_t rightPad = 0;
};

struct DropOutShapeInfo {
    __aicore__ DropOutShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};
}  // namespace AscendC

namespace ascsim {
template <class T> using QpLocal = AscendC::LocalTensor<T>;
using QpTmp = AscendC::LocalTensor<uint8_t>;
using QpSpan = std::pair<const void*, size_t>;   // an operand's UB footprint (address, bytes)

inline std::string qp_str(uint64_t v) { return std::to_string(v); }
// the documented-rule failures, by kind
[[noreturn]] inline void qp_param(const char* api, const std::string& d) { fail(api, "Failed to check params", d); }
[[noreturn]] inline void qp_shape(const char* api, const std::string& d) { fail(api, "Failed to check shape", d); }
[[noreturn]] inline void qp_tiling(const char* api, const std::string& d) { fail(api, "Failed to check tiling", d); }

// A correctly rounded half of an exact double (the vector unit's half Mul / Add round once to nearest even): round to
// odd into float first, which keeps enough bits that the final rounding to half cannot round twice.
inline half qp_half(double d) { return half(round_float<float>(d, R_ODD)); }

inline bool qp_overlap(const void* a, size_t na, const void* b, size_t nb) {
    const uint8_t *pa = static_cast<const uint8_t*>(a), *pb = static_cast<const uint8_t*>(b);
    return na && nb && pa < pb + nb && pb < pa + na;
}
// AscendDequant / AscendAntiQuant docs: source and destination must not overlap.
inline void qp_no_overlap(const char* api, const void* dst, size_t dst_bytes, const void* src, size_t src_bytes) {
    if (qp_overlap(dst, dst_bytes, src, src_bytes))
        qp_param(api, "the source and destination operands must not overlap");
}

// A temporary buffer of a fixed byte need (Pad / UnPad: what their tiling was built for): the sharedTmpBuffer (or the
// UB after the last InitBuffer) must hold it and must not overlap the operands. The API works in those `need` bytes
// only, so only that part of a larger buffer is checked against the operands (and recorded as written by PIPE_V).
inline void qp_tmp_bytes(const char* api, const QpTmp* tmp, uint32_t need, const char* sizer,
                         std::initializer_list<HlSpan> spans) {
    QpTmp part;   // the first `need` bytes (all of a smaller buffer, which then fails the size check)
    if (tmp) {
        part = *tmp;
        part.SetSize(std::min(tmp->GetSize(), need));
    }
    hl_check_tmp_bytes(api, tmp ? &part : nullptr, need, need, spans,
                       std::string("what its tiling was built for, ") + sizer, "");
}

// ---- AscendQuant (docs: AscendQuant, 实现原理 图1-3) ----
// Stages, all on half: float src / scale / offset are first converted to half; Tmp1 = src * scale (Mul / Muls),
// Tmp2 = Tmp1 + offset (Add / Adds); Tmp2 -> int8 rounding half to even (the docs' rounding rule) and saturating at
// [-128, 127] (the A2 Cast of half to int8). scale_at(i) / offset_at(i) give element i's parameters as half.
template <class T, class S, class O>
inline void quant_impl(const QpLocal<int8_t>& dst, const QpLocal<T>& src, const QpTmp* tmp, uint32_t count,
                       S scale_at, O offset_at, QpSpan p0, QpSpan p1) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "AscendQuant supports half and float sources on Atlas A2 (the int8_t destination form)");
    const char* api = "AscendQuant";
    if (count == 0) return;
    if (count > src.GetSize())
        qp_param(api, "calCount (" + qp_str(count) + ") exceeds srcTensor.GetSize() (" + qp_str(src.GetSize()) + ")");
    check_src(api, src, count);
    check_dst(api, dst, count);
    hl_check_tmp(api, tmp, count, ascsim_qp::kQuantLive,
                 {{dst.addr_, size_t(count)}, {src.addr_, size_t(count) * sizeof(T)}, p0, p1});
    // the docs allow dst to reuse src: every source element is read before dst is written
    std::vector<half> v(count);
    for (uint32_t i = 0; i < count; ++i) {
        const half x = half(float(src.addr_[i]));
        const half tmp1 = qp_half(double(float(x)) * double(float(scale_at(i))));
        v[i] = qp_half(double(float(tmp1)) + double(float(offset_at(i))));
    }
    for (uint32_t i = 0; i < count; ++i) dst.addr_[i] = convert<int8_t>(v[i], R_RINT);
}

// Applies AscendQuantConfig (docs, 表1): its constant parameters replace the arguments when switched on; workLocalSize
// must not exceed the sharedTmpBuffer. has_scale: the form takes scaleCount; offsetCount: set when it takes one.
inline void quant_config(const AscendC::AscendQuantConfig& cfg, const QpTmp* tmp, bool has_scale, uint32_t& calCount,
                         uint32_t& scaleCount, uint32_t* offsetCount) {
    const char* api = "AscendQuant";
    if (cfg.workLocalSize && tmp && cfg.workLocalSize > tmp->GetSize())
        fail(api, "Failed to check config",
             "AscendQuantConfig.workLocalSize (" + qp_str(cfg.workLocalSize) +
                 " B) must not exceed the sharedTmpBuffer (" + qp_str(tmp->GetSize()) + " B)");
    if (!(cfg.calcCount && cfg.workLocalSize && (!has_scale || cfg.scaleCount))) return;
    if (cfg.calcCount != calCount)
        warn(api, "AscendQuantConfig's constant calcCount " + qp_str(cfg.calcCount) +
                      " replaces the calCount argument " + qp_str(calCount));
    calCount = cfg.calcCount;
    if (has_scale) scaleCount = cfg.scaleCount;
    if (offsetCount) *offsetCount = cfg.offsetCount;
}

// PER_CHANNEL rules (docs, 表6 and 表1): scaleCount a positive multiple of 32 within min(scaleTensor, dstTensor)
// sizes; offsetCount equal to it and within min(offsetTensor, dstTensor); calCount a multiple of scaleCount.
inline void quant_channel_checks(uint32_t calCount, uint32_t scaleCount, uint32_t scaleSize, uint32_t dstSize,
                                 const uint32_t* offsetCount, uint32_t offsetSize) {
    const char* api = "AscendQuant";
    if (calCount == 0) return;
    if (scaleCount == 0 || scaleCount % 32)
        qp_param(api, "scaleCount must be a positive multiple of 32, got " + qp_str(scaleCount));
    if (scaleCount > std::min(scaleSize, dstSize))
        qp_param(api, "scaleCount (" + qp_str(scaleCount) + ") exceeds min(scaleTensor.GetSize(), " +
                          "dstTensor.GetSize()) = " + qp_str(std::min(scaleSize, dstSize)));
    if (offsetCount && *offsetCount != scaleCount)
        qp_param(api, "offsetCount (" + qp_str(*offsetCount) + ") must equal scaleCount (" + qp_str(scaleCount) + ")");
    if (offsetCount && *offsetCount > std::min(offsetSize, dstSize))
        qp_param(api, "offsetCount (" + qp_str(*offsetCount) +
                          ") exceeds min(offsetTensor.GetSize(), dstTensor.GetSize())");
    if (calCount % scaleCount)
        qp_param(api, "calCount (" + qp_str(calCount) + ") must be a multiple of scaleCount (" + qp_str(scaleCount) +
                          ")");
}

template <class T>
inline void quant_tensor(const AscendC::AscendQuantConfig& cfg, const QpLocal<int8_t>& dst, const QpLocal<T>& src,
                         const QpTmp* tmp, float scale, float offset, uint32_t calCount) {
    uint32_t unused = 0;
    quant_config(cfg, tmp, false, calCount, unused, nullptr);
    const half s = half(scale), o = half(offset);
    quant_impl(dst, src, tmp, calCount, [&](uint32_t) { return s; }, [&](uint32_t) { return o; }, {nullptr, 0},
               {nullptr, 0});
}

// PER_CHANNEL: element i uses scale[i % scaleCount] and offset[i % scaleCount] (or the scalar offset).
template <class T>
inline void quant_channel(const AscendC::AscendQuantConfig& cfg, const QpLocal<int8_t>& dst, const QpLocal<T>& src,
                          const QpTmp* tmp, const QpLocal<T>& scale, const QpLocal<T>* offsetT, T offset,
                          uint32_t scaleCount, uint32_t offsetCount, uint32_t calCount) {
    quant_config(cfg, tmp, true, calCount, scaleCount, offsetT ? &offsetCount : nullptr);
    quant_channel_checks(calCount, scaleCount, scale.GetSize(), dst.GetSize(), offsetT ? &offsetCount : nullptr,
                         offsetT ? offsetT->GetSize() : 0);
    if (calCount == 0) return;
    check_src("AscendQuant", scale, scaleCount);
    if (offsetT) check_src("AscendQuant", *offsetT, scaleCount);
    const half o = half(float(offset));
    const size_t param_bytes = size_t(scaleCount) * sizeof(T);
    quant_impl(
        dst, src, tmp, calCount, [&](uint32_t i) { return half(float(scale.addr_[i % scaleCount])); },
        [&](uint32_t i) { return offsetT ? half(float(offsetT->addr_[i % scaleCount])) : o; },
        {scale.addr_, param_bytes}, {offsetT ? offsetT->addr_ : nullptr, param_bytes});
}

// ---- AscendDequant (docs: AscendDequant, 实现原理 图1) ----
// src and deqScale to float, Mul in float on the first calCount columns of each row, the result to dstT (nearest
// even). The docs call dst columns calCount .. n_dst undetermined; their worked example shows columns calCount .. n - 1
// as the unscaled source converted to dstT, which is what is written here; the row padding n .. n_dst stays untouched.
template <class T> inline constexpr bool qp_f32_or_bf16 = std::is_same_v<T, float> || std::is_same_v<T, bfloat16_t>;
template <class D, class S>
inline constexpr bool dequant_vector_ok =
    (std::is_same_v<D, half> && std::is_same_v<S, uint64_t>) || (qp_f32_or_bf16<D> && qp_f32_or_bf16<S>);
template <class D, class S> inline constexpr bool dequant_scalar_ok = qp_f32_or_bf16<D> && qp_f32_or_bf16<S>;

// deqScale element as float: uint64_t carries the float in its low 32 bits (the high bits are control fields the
// API ignores, docs 表5).
template <class S> inline float dequant_scale(S v) {
    if constexpr (std::is_same_v<S, uint64_t>) {
        const uint32_t lo = uint32_t(v & 0xffffffffu);
        float f;
        std::memcpy(&f, &lo, sizeof f);
        return f;
    } else {
        return float(v);
    }
}

template <class D, AscendC::DeQuantMode mode, class F>
inline void dequant_impl(const QpLocal<D>& dst, const QpLocal<int32_t>& src, F scale_at, uint32_t scale_size,
                         QpSpan scale_span, const QpTmp* tmp, AscendC::DequantParams p) {
    const char* api = "AscendDequant";
    if ((uint64_t(p.n) * sizeof(int32_t)) % 32)
        qp_param(api, "DequantParams.n * sizeof(int32_t) must be a multiple of 32 bytes, got n = " + qp_str(p.n));
    if (p.calCount < 1 || p.calCount > p.n)
        qp_param(api, "DequantParams needs 1 <= calCount <= n, got calCount = " + qp_str(p.calCount) + ", n = " +
                          qp_str(p.n));
    if (p.calCount > scale_size)
        qp_param(api, "calCount (" + qp_str(p.calCount) + ") exceeds deqScale's element count (" + qp_str(scale_size) +
                          ")");
    constexpr uint32_t blk = 32u / sizeof(D);
    if (mode == AscendC::DEQUANT_WITH_SINGLE_ROW && p.m == 1 && p.calCount % blk == 0 && p.n % p.calCount == 0) {
        p.m = p.n / p.calCount;
        p.n = p.calCount;
    }
    if (p.m == 0) return;
    const uint64_t nd = (uint64_t(p.n) + blk - 1) / blk * blk;   // dst rows padded to 32 bytes
    const uint64_t src_n = uint64_t(p.m) * p.n, dst_n = uint64_t(p.m - 1) * nd + p.n;
    qp_no_overlap(api, dst.addr_, dst_n * sizeof(D), src.addr_, src_n * sizeof(int32_t));
    check_src(api, src, int64_t(src_n));
    check_dst(api, dst, int64_t(dst_n));
    hl_check_tmp(api, tmp, uint32_t(src_n), ascsim_qp::kDequantLive,
                 {{dst.addr_, dst_n * sizeof(D)}, {src.addr_, src_n * sizeof(int32_t)}, scale_span});
    for (uint64_t r = 0; r < p.m; ++r)
        for (uint32_t c = 0; c < p.n; ++c) {
            const float x = float(src.addr_[r * p.n + c]);
            const float y = c < p.calCount ? x * scale_at(c) : x;
            dst.addr_[r * nd + c] = D(y);
        }
}
template <class D, class S, AscendC::DeQuantMode mode>
inline void dequant_vector(const QpLocal<D>& dst, const QpLocal<int32_t>& src, const QpLocal<S>& scale,
                           const QpTmp* tmp, AscendC::DequantParams p) {
    static_assert(dequant_vector_ok<D, S>,
                  "AscendDequant with a deqScale tensor supports (dstT, scaleT) = (half, uint64_t), (float, float), "
                  "(float, bfloat16_t), (bfloat16_t, bfloat16_t), (bfloat16_t, float) on Atlas A2");
    if (p.calCount >= 1 && p.calCount <= scale.GetSize()) check_src("AscendDequant", scale, p.calCount);
    dequant_impl<D, mode>(dst, src, [&](uint32_t c) { return dequant_scale(scale.addr_[c]); }, scale.GetSize(),
                          {scale.addr_, size_t(p.calCount) * sizeof(S)}, tmp, p);
}
template <class D, class S, AscendC::DeQuantMode mode>
inline void dequant_scalar(const QpLocal<D>& dst, const QpLocal<int32_t>& src, S scale, const QpTmp* tmp,
                           AscendC::DequantParams p) {
    static_assert(dequant_scalar_ok<D, S>, "AscendDequant with a scalar deqScale supports dstT float / bfloat16_t and "
                                           "scaleT float / bfloat16_t on Atlas A2");
    const float s = float(scale);
    dequant_impl<D, mode>(dst, src, [&](uint32_t) { return s; }, ~0u, {nullptr, 0}, tmp, p);
}

// ---- AscendAntiQuant (docs: AscendAntiQuant, 功能说明 formulas and 实现原理 图1 / 图2) ----
// half output: src to half, Add(s) offset, Mul(s) scale, each on half. bfloat16 output (图2): src to half to float,
// offset and scale to float, Add then Mul in float, the result to bfloat16 (nearest even).
// PER_CHANNEL, src [K, N] (isTranspose: [N, K]), offset / scale [K / g, N] (isTranspose: [N, K / g]), g = groupSize:
//   dst[i][j] = scale[i / g][j] * (src[i][j] + offset[i / g][j])   (isTranspose: scale[i][j / g], offset[i][j / g])
template <class In, class Out> inline void antiquant_types() {
    static_assert(std::is_same_v<In, int8_t> || is_int4_v<In>, "AscendAntiQuant supports int8_t and int4b_t sources on Atlas A2");
    static_assert(std::is_same_v<Out, half> || std::is_same_v<Out, bfloat16_t>,
                  "AscendAntiQuant supports half and bfloat16_t outputs (and offset / scale) on Atlas A2");
}

// params_at(e, offset, scale, has_offset) gives element e's parameters.
template <class In, class Out, class F>
inline void antiquant_run(const QpLocal<Out>& dst, const QpLocal<In>& src, uint64_t total, bool transpose, uint32_t k,
                          const QpTmp* tmp, QpSpan p0, QpSpan p1, F params_at) {
    const char* api = "AscendAntiQuant";
    if (k == 0) qp_param(api, "k must be greater than 0");
    // the 32-byte rules count bytes: an int4b_t source needs 64 elements per 32 B
    if (transpose && (bytes_of<In>(k) % 32 || (is_int4_v<In> && k % 2)))
        qp_param(api, "with isTranspose the K axis must be 32-byte aligned, got k = " +
                          qp_str(k) + (is_int4_v<In> ? " int4b_t elements" : ""));
    if (bytes_of<In>(total) % 32 || (is_int4_v<In> && total % 2))
        qp_param(api, "the source length (" + qp_str(bytes_of<In>(total)) + " B) must be 32-byte aligned");
    if (total == 0) return;
    qp_no_overlap(api, dst.addr_, total * sizeof(Out), src.addr_, bytes_of<In>(total));
    check_src(api, src, int64_t(total));
    check_dst(api, dst, int64_t(total));
    hl_check_tmp(api, tmp, uint32_t(total), ascsim_qp::antiquant_live(std::is_same_v<Out, bfloat16_t>),
                 {{dst.addr_, total * sizeof(Out)}, {src.addr_, bytes_of<In>(total)}, p0, p1});
    for (uint64_t e = 0; e < total; ++e) {
        Out off, sc;
        bool has_off;
        params_at(e, off, sc, has_off);
        float x;
        if constexpr (is_int4_v<In>) x = float(nibble_get(src.addr_, e));
        else x = float(half(float(src.addr_[e])));
        if constexpr (std::is_same_v<Out, half>) {
            const half t = has_off ? qp_half(double(x) + double(float(off))) : half(x);
            dst.addr_[e] = qp_half(double(float(t)) * double(float(sc)));
        } else {
            const float t = has_off ? x + float(off) : x;
            dst.addr_[e] = bfloat16_t(t * float(sc));
        }
    }
}

// The [height, width] of a PER_CHANNEL parameter: AntiQuantShapeInfo's when set, else the tensor's ShapeInfo (docs).
template <class Out>
inline void antiquant_param_shape(const QpLocal<Out>& t, uint32_t h, uint32_t w, const char* name, uint32_t& oh,
                                  uint32_t& ow) {
    if (h && w) {
        oh = h;
        ow = w;
        return;
    }
    const AscendC::ShapeInfo si = t.GetShapeInfo();
    if (si.shapeDim != 2)
        qp_param("AscendAntiQuant", std::string("the ") + name + " shape is unknown: pass it in AntiQuantShapeInfo or "
                                    "SetShapeInfo a 2-D shape on the tensor (got a " + qp_str(si.shapeDim) + "-D one)");
    oh = si.shape[0];
    ow = si.shape[1];
}

template <class In, class Out, bool isTranspose>
inline void antiquant_channel(const QpLocal<Out>& dst, const QpLocal<In>& src, const QpLocal<Out>* offset,
                              const QpLocal<Out>& scale, const QpTmp* tmp, uint32_t k,
                              const AscendC::AntiQuantShapeInfo& si) {
    antiquant_types<In, Out>();
    const char* api = "AscendAntiQuant";
    uint32_t sh, sw, ph, pw;
    antiquant_param_shape(scale, si.scaleHeight, si.scaleWidth, "scale", sh, sw);
    ph = sh;
    pw = sw;
    if (offset) {
        antiquant_param_shape(*offset, si.offsetHeight, si.offsetWidth, "offset", ph, pw);
        if (ph != sh || pw != sw)
            qp_param(api, "offset [" + qp_str(ph) + ", " + qp_str(pw) + "] and scale [" + qp_str(sh) + ", " +
                              qp_str(sw) + "] must have the same shape");
    }
    if (ph == 0 || pw == 0) qp_param(api, "offset / scale have an empty shape");
    // groupSize = K / (the parameter's extent along K); N is the parameter's other extent
    const uint32_t groups = isTranspose ? pw : ph, n = isTranspose ? ph : pw;
    if (k % groups)
        qp_param(api, "k (" + qp_str(k) + ") must be a multiple of the parameter's " +
                          (isTranspose ? "width " : "height ") + qp_str(groups) + " (groupSize = k / it)");
    const uint32_t g = k ? k / groups : 1;
    const uint64_t params = uint64_t(ph) * pw;
    check_src(api, scale, int64_t(params));
    if (offset) check_src(api, *offset, int64_t(params));
    auto params_at = [&](uint64_t e, Out& o, Out& s, bool& has) {
        uint64_t p;
        if (isTranspose) p = (e / k) * pw + (e % k) / g;   // src [N, K]: row e / k, column e % k along K
        else p = (e / n) / g * pw + e % n;                 // src [K, N]: row e / n along K, column e % n
        s = scale.addr_[p];
        has = offset != nullptr;
        if (has) o = offset->addr_[p];
    };
    antiquant_run(dst, src, uint64_t(k) * n, isTranspose, k, tmp, {scale.addr_, params * sizeof(Out)},
                  {offset ? offset->addr_ : nullptr, params * sizeof(Out)}, params_at);
}

// PER_TENSOR: the whole source, [K, N] (isTranspose: [N, K]) with N = srcTensor.GetSize() / k.
template <class In, class Out, bool isTranspose>
inline void antiquant_tensor(const QpLocal<Out>& dst, const QpLocal<In>& src, const Out* offset, Out scale,
                             const QpTmp* tmp, uint32_t k) {
    antiquant_types<In, Out>();
    const uint64_t total = src.GetSize();
    if (k && total % k)
        qp_param("AscendAntiQuant", "srcTensor.GetSize() (" + qp_str(total) + ") must be k (" + qp_str(k) +
                                        ") times N: the source is [K, N] (isTranspose: [N, K])");
    const Out o = offset ? *offset : Out(0.0f);
    auto params_at = [&](uint64_t, Out& oo, Out& s, bool& has) {
        oo = o;
        s = scale;
        has = offset != nullptr;
    };
    antiquant_run(dst, src, total, isTranspose, k, tmp, {nullptr, 0}, {nullptr, 0}, params_at);
}

// ---- Pad / UnPad (docs: 张量变换/Pad, UnPad) ----
template <class T>
inline constexpr bool pad_type_ok = std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
                                    std::is_same_v<T, half> || std::is_same_v<T, int32_t> ||
                                    std::is_same_v<T, uint32_t> || std::is_same_v<T, float>;

// Pad of a [h, w] source with oriW valid columns. Scenario 1 (w * sizeof(T) not 32-byte aligned): dst is
// [h, align32(w)], each row leftPad padValues, the w source values, rightPad padValues (left + w + right within the
// aligned width; any columns after that are not written). Scenario 2 (w aligned, oriW < w): dst is [h, w], a copy of
// src with columns oriW .. oriW + rightPad - 1 set to padValue (right pad only).
template <class T, class Tiling>
inline void pad_impl(const QpLocal<T>& dst, const QpLocal<T>& src, const AscendC::PadParams& pp, const QpTmp* tmp,
                     const Tiling& tiling) {
    static_assert(pad_type_ok<T>, "Pad supports int16_t, uint16_t, half, int32_t, uint32_t and float on Atlas A2");
    const char* api = "Pad";
    const uint32_t h = tiling.srcHeight, w = tiling.srcWidth, ow = tiling.srcOriWidth;
    if (h == 0 || w == 0)
        qp_tiling(api, "the PadTiling holds an empty shape (PadTilingFunc not called, or not with a 2-D srcShape)");
    if (tiling.typeSize != sizeof(T))
        qp_tiling(api, "the PadTiling was built for typeSize " + qp_str(tiling.typeSize) + " but T has " +
                           qp_str(sizeof(T)) + " bytes");
    const uint32_t aw = ascsim_qp::pad_row_bytes(w, sizeof(T)) / sizeof(T);
    const bool aligned = aw == w;
    if (ow > w) qp_shape(api, "oriSrcShape's width (" + qp_str(ow) + ") exceeds srcShape's (" + qp_str(w) + ")");
    if (aligned && ow == w)
        qp_shape(api, "the width is already 32-byte aligned and all valid: Pad does not support it");
    if (!aligned && ow != w)
        qp_shape(api, "ascsim: an unaligned width (" + qp_str(w) + ") with fewer valid columns (" + qp_str(ow) +
                          ") is not simulated: the docs' unaligned case pads full rows");
    if ((uint64_t(h) * w * sizeof(T)) % 32)
        qp_shape(api, "the source data (" + qp_str(uint64_t(h) * w * sizeof(T)) + " B) must be 32-byte aligned");
    if (aligned && pp.leftPad)
        qp_param(api, "with a 32-byte-aligned width only the right side can be padded (leftPad = " +
                          qp_str(pp.leftPad) + ")");
    const uint64_t used = aligned ? uint64_t(ow) + pp.rightPad : uint64_t(pp.leftPad) + w + pp.rightPad;
    if (used > aw)
        qp_param(api, "the padded width (" + qp_str(used) + ") exceeds the source width aligned to 32 bytes (" +
                          qp_str(aw) + ")");
    if (tiling.dstWidth != aw)
        qp_tiling(api, "the PadTiling's aligned width " + qp_str(tiling.dstWidth) + " does not match " + qp_str(aw));
    if (tiling.rowsPerLoop == 0)
        qp_tiling(api, "PadTilingFunc got a stackBufferSize below GetPadMaxMinTmpSize's minValue (" +
                           qp_str(ascsim_qp::pad_row_bytes(w, sizeof(T))) + " B)");
    const uint64_t n_src = uint64_t(h) * w, n_dst = uint64_t(h) * aw;
    check_src(api, src, int64_t(n_src));
    check_dst(api, dst, int64_t(n_dst));
    qp_tmp_bytes(api, tmp, tiling.tmpBufferSize, "PadTilingFunc's stackBufferSize",
                 {{dst.addr_, n_dst * sizeof(T)}, {src.addr_, n_src * sizeof(T)}});
    const std::vector<T> s(src.addr_, src.addr_ + n_src);   // the source is read completely before dst is written
    const T pv = T(pp.padValue);
    for (uint64_t r = 0; r < h; ++r) {
        T* d = dst.addr_ + r * aw;
        const T* x = s.data() + r * w;
        if (aligned) {
            for (uint32_t c = 0; c < w; ++c) d[c] = c >= ow && c < ow + pp.rightPad ? pv : x[c];
        } else {
            for (uint32_t c = 0; c < pp.leftPad; ++c) d[c] = pv;
            for (uint32_t c = 0; c < w; ++c) d[pp.leftPad + c] = x[c];
            for (uint32_t c = 0; c < pp.rightPad; ++c) d[pp.leftPad + w + c] = pv;
        }
    }
}

// UnPad of a [h, w] source (w * sizeof(T) 32-byte aligned) to [h, w - rightPad], rows packed. leftPad is not in
// effect (docs: not in effect yet) but must stay below 32 bytes; rightPad must be positive and below 32 bytes.
template <class T, class Tiling>
inline void unpad_impl(const QpLocal<T>& dst, const QpLocal<T>& src, const AscendC::UnPadParams& up, const QpTmp* tmp,
                       const Tiling& tiling) {
    static_assert(pad_type_ok<T>, "UnPad supports int16_t, uint16_t, half, int32_t, uint32_t and float on Atlas A2");
    const char* api = "UnPad";
    const uint32_t h = tiling.srcHeight, w = tiling.srcWidth;
    if (h == 0 || w == 0)
        qp_tiling(api, "the UnPadTiling holds an empty shape (UnPadTilingFunc not called, or not with a 2-D srcShape)");
    if (tiling.typeSize != sizeof(T))
        qp_tiling(api, "the UnPadTiling was built for typeSize " + qp_str(tiling.typeSize) + " but T has " +
                           qp_str(sizeof(T)) + " bytes");
    if ((uint64_t(w) * sizeof(T)) % 32)
        qp_shape(api, "the width (" + qp_str(w) + ") must be 32-byte aligned for UnPad");
    if (up.rightPad == 0 || uint32_t(up.rightPad) * sizeof(T) >= 32)
        qp_param(api, "rightPad must be greater than 0 and below 32 bytes (" + qp_str(32 / sizeof(T)) +
                          " elements), got " + qp_str(up.rightPad));
    if (uint32_t(up.leftPad) * sizeof(T) >= 32)
        qp_param(api, "leftPad must be below 32 bytes, got " + qp_str(up.leftPad));
    if (up.leftPad) warn(api, "leftPad " + qp_str(up.leftPad) + " is ignored: the docs say it is not in effect yet");
    if (tiling.rowsPerLoop == 0)
        qp_tiling(api, "UnPadTilingFunc got a stackBufferSize below GetUnPadMaxMinTmpSize's minValue (" +
                           qp_str(ascsim_qp::pad_row_bytes(w, sizeof(T))) + " B)");
    const uint32_t dw = w - up.rightPad;
    const uint64_t n_src = uint64_t(h) * w, n_dst = uint64_t(h) * dw;
    check_src(api, src, int64_t(n_src));
    check_dst(api, dst, int64_t(n_dst));
    qp_tmp_bytes(api, tmp, tiling.tmpBufferSize, "UnPadTilingFunc's stackBufferSize",
                 {{dst.addr_, n_dst * sizeof(T)}, {src.addr_, n_src * sizeof(T)}});
    const std::vector<T> s(src.addr_, src.addr_ + n_src);
    for (uint64_t r = 0; r < h; ++r)
        for (uint32_t c = 0; c < dw; ++c) dst.addr_[r * dw + c] = s[r * w + c];
}

// ---- DropOut (docs: 数据过滤/DropOut) ----
// dropOutMode 1: byte mask, rows of maskLastAxis bytes of which the first srcLastAxis are valid; 2: byte mask, one
// byte per element, dense; 3: bit mask, one bit per element, dense; 4: bit mask, rows of maskLastAxis bytes of which
// the first srcLastAxis / 8 are valid. 0 infers it (the docs leave the rule open; this one is ascsim's):
// maskLastAxis == srcLastAxis -> 2, maskLastAxis * 8 == srcLastAxis -> 3, maskLastAxis > srcLastAxis -> 1,
// maskLastAxis * 8 > srcLastAxis -> 4.
// Bits are taken least significant first, as the vector Select the docs name as its step reads a bit mask (element i
// is bit i % 8 of byte i / 8). NOTE: the DropOut page's own bit example (mask 169 = 1010 1001 keeping elements
// 0, 2, 4, 7) reads the bits most significant first; it contradicts Select's documented bit order and is not followed.
// A non-zero mask byte keeps its element. Kept elements are multiplied by the scalar 1 / keepProb rounded to T (the
// docs' Muls step), dropped ones become 0. Modes with padded rows compact the mask in place (docs: the mask may be
// modified), so the mask's valid data ends up dense at its start.
inline uint32_t dropout_mode(uint32_t mode, const AscendC::DropOutShapeInfo& info) {
    if (mode != 0) return mode;
    const uint64_t w = info.srcLastAxis, mw = info.maskLastAxis;
    if (mw == w) return 2;
    if (mw * 8 == w) return 3;
    if (mw > w) return 1;
    if (mw * 8 > w) return 4;
    qp_param("DropOut", "cannot infer the mask layout: maskLastAxis " + qp_str(mw) + " holds fewer than srcLastAxis " +
                            qp_str(w) + " bits; set dropOutMode");
}

template <class T, uint32_t dropOutMode>
inline void dropout_impl(const QpLocal<T>& dst, const QpLocal<T>& src, const QpLocal<uint8_t>& mask, const QpTmp* tmp,
                         float keepProb, const AscendC::DropOutShapeInfo& info) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "DropOut supports half and float on Atlas A2");
    static_assert(dropOutMode <= 4, "DropOut: dropOutMode is 0 (infer), 1, 2, 3 or 4");
    const char* api = "DropOut";
    if (!(keepProb > 0.0f && keepProb < 1.0f))
        qp_param(api, "keepProb must lie in (0, 1), got " + std::to_string(keepProb));
    if (info.maskLastAxis == 0) qp_param(api, "DropOutShapeInfo.maskLastAxis must be greater than 0");
    const uint32_t h = info.firstAxis, w = info.srcLastAxis, mw = info.maskLastAxis;
    if (h == 0 || w == 0) return;
    const uint32_t mode = dropout_mode(dropOutMode, info);
    const uint64_t n = uint64_t(h) * w;
    std::vector<uint8_t> keep(n);
    uint64_t mask_bytes = 0;
    auto bit_of = [&](uint64_t byte, uint32_t b) { return uint8_t((mask.addr_[byte] >> b) & 1u); };
    if (mode == 2) {
        mask_bytes = n;
        check_src(api, mask, int64_t(mask_bytes));
        for (uint64_t i = 0; i < n; ++i) keep[i] = mask.addr_[i] != 0;
    } else if (mode == 3) {
        mask_bytes = (n + 7) / 8;
        check_src(api, mask, int64_t(mask_bytes));
        for (uint64_t i = 0; i < n; ++i) keep[i] = bit_of(i / 8, uint32_t(i % 8));
    } else {
        // padded rows: `valid` bytes of each mask row of mw bytes (docs: their count must be even)
        if (mode == 4 && w % 8) qp_param(api, "in bit mode srcLastAxis must be a multiple of 8, got " + qp_str(w));
        if (mode == 4 && (uint64_t(w) * sizeof(T)) % 32)
            qp_param(api, "with a padded bit mask the source rows must be 32-byte aligned, srcLastAxis = " + qp_str(w));
        const uint32_t valid = mode == 1 ? w : w / 8;
        if (valid > mw)
            qp_param(api, "maskLastAxis (" + qp_str(mw) + ") is below the " + qp_str(valid) +
                              " valid mask bytes per row");
        if (valid % 2)
            qp_param(api, "with a padded mask the valid mask values per row must be even, got " + qp_str(valid));
        mask_bytes = uint64_t(h) * mw;
        check_src(api, mask, int64_t(mask_bytes));
        check_dst(api, mask, int64_t(uint64_t(h) * valid));   // compacted in place below
        for (uint64_t r = 0; r < h; ++r)
            for (uint32_t c = 0; c < w; ++c)
                keep[r * w + c] = mode == 1 ? mask.addr_[r * mw + c] != 0 : bit_of(r * mw + c / 8, c % 8);
        for (uint64_t r = 0; r < h; ++r) std::memmove(mask.addr_ + r * valid, mask.addr_ + r * mw, valid);
    }
    check_src(api, src, int64_t(n));
    check_dst(api, dst, int64_t(n));
    hl_check_tmp(api, tmp, uint32_t(n), ascsim_qp::kDropOutLive,
                 {{dst.addr_, n * sizeof(T)}, {src.addr_, n * sizeof(T)}, {mask.addr_, mask_bytes}});
    const T factor = T(1.0f / keepProb);
    for (uint64_t i = 0; i < n; ++i) {   // element-wise: dst may be src (docs)
        const T x = src.addr_[i];
        if (!keep[i]) dst.addr_[i] = T(0.0f);
        else if constexpr (std::is_same_v<T, half>) dst.addr_[i] = qp_half(double(float(x)) * double(float(factor)));
        else dst.addr_[i] = x * factor;
    }
}
}  // namespace ascsim

namespace AscendC {
// ---------------- AscendQuant (int8_t destination; Atlas A2: T = half / float) ----------------
// PER_TENSOR
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                                   const uint32_t calCount) {
    ::ascsim::quant_tensor(config, dstTensor, srcTensor, &sharedTmpBuffer, scale, offset, calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset) {
    ::ascsim::quant_tensor(config, dstTensor, srcTensor, &sharedTmpBuffer, scale, offset, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const float scale, const float offset, const uint32_t calCount) {
    ::ascsim::quant_tensor(config, dstTensor, srcTensor, nullptr, scale, offset, calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const float scale, const float offset) {
    ::ascsim::quant_tensor(config, dstTensor, srcTensor, nullptr, scale, offset, srcTensor.GetSize());
}
// PER_CHANNEL, sharedTmpBuffer
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const T offset, const uint32_t scaleCount, const uint32_t calCount) {
    ::ascsim::quant_channel<T>(config, dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, nullptr, offset,
                               scaleCount, 0, calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const LocalTensor<T>& offsetTensor, const uint32_t scaleCount,
                                   const uint32_t offsetCount, const uint32_t calCount) {
    ::ascsim::quant_channel<T>(config, dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, &offsetTensor, T(0.0f),
                               scaleCount, offsetCount, calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const T offset) {
    ::ascsim::quant_channel<T>(config, dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, nullptr, offset,
                               scaleTensor.GetSize(), 0, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                                   const LocalTensor<T>& offsetTensor) {
    ::ascsim::quant_channel<T>(config, dstTensor, srcTensor, &sharedTmpBuffer, scaleTensor, &offsetTensor, T(0.0f),
                               scaleTensor.GetSize(), offsetTensor.GetSize(), srcTensor.GetSize());
}
// PER_CHANNEL, framework temporary buffer
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const T offset, const uint32_t scaleCount,
                                   const uint32_t calCount) {
    ::ascsim::quant_channel<T>(config, dstTensor, srcTensor, nullptr, scaleTensor, nullptr, offset, scaleCount, 0,
                               calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
                                   const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount) {
    ::ascsim::quant_channel<T>(config, dstTensor, srcTensor, nullptr, scaleTensor, &offsetTensor, T(0.0f), scaleCount,
                               offsetCount, calCount);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const T offset) {
    ::ascsim::quant_channel<T>(config, dstTensor, srcTensor, nullptr, scaleTensor, nullptr, offset,
                               scaleTensor.GetSize(), 0, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor) {
    ::ascsim::quant_channel<T>(config, dstTensor, srcTensor, nullptr, scaleTensor, &offsetTensor, T(0.0f),
                               scaleTensor.GetSize(), offsetTensor.GetSize(), srcTensor.GetSize());
}

// ---------------- AscendDequant (Atlas A2: src int32_t; dstT half / bfloat16_t / float) ----------------
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     DequantParams params) {
    ::ascsim::dequant_vector<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, &sharedTmpBuffer, params);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, DequantParams params) {
    ::ascsim::dequant_vector<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, nullptr, params);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const scaleT deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     DequantParams params) {
    ::ascsim::dequant_scalar<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, &sharedTmpBuffer, params);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const scaleT deqScale, DequantParams params) {
    ::ascsim::dequant_scalar<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, nullptr, params);
}
// The deprecated forms (docs: not recommended) without DequantParams. Their row shape is not documented; ascsim runs them
// as one row of calCount elements each scaled by its own deqScale element ({1, calCount, calCount}), so deqScale
// must hold calCount values (a shorter, per-channel deqScale fails rather than being guessed at).
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     const uint32_t calCount) {
    const DequantParams p = {1, calCount, calCount};
    ::ascsim::dequant_vector<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, &sharedTmpBuffer, p);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer) {
    const DequantParams p = {1, srcTensor.GetSize(), srcTensor.GetSize()};
    ::ascsim::dequant_vector<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, &sharedTmpBuffer, p);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const uint32_t calCount) {
    const DequantParams p = {1, calCount, calCount};
    ::ascsim::dequant_vector<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, nullptr, p);
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale) {
    const DequantParams p = {1, srcTensor.GetSize(), srcTensor.GetSize()};
    ::ascsim::dequant_vector<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, nullptr, p);
}

// ---------------- AscendAntiQuant (Atlas A2: int8_t / int4b_t -> half / bfloat16_t) ----------------
// PER_CHANNEL (with and without offset), sharedTmpBuffer
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& offset,
                                       const LocalTensor<OutputDataType>& scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
    ::ascsim::antiquant_channel<InputDataType, OutputDataType, isTranspose>(dst, src, &offset, scale,
                                                                             &sharedTmpBuffer, k, shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
    ::ascsim::antiquant_channel<InputDataType, OutputDataType, isTranspose>(dst, src, nullptr, scale,
                                                                             &sharedTmpBuffer, k, shapeInfo);
}
// PER_TENSOR (with and without offset), sharedTmpBuffer; shapeInfo is only read in the PER_CHANNEL forms
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const OutputDataType offset, const OutputDataType scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
    (void)shapeInfo;
    ::ascsim::antiquant_tensor<InputDataType, OutputDataType, isTranspose>(dst, src, &offset, scale,
                                                                            &sharedTmpBuffer, k);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const OutputDataType scale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                       const uint32_t k, const AntiQuantShapeInfo& shapeInfo = {}) {
    (void)shapeInfo;
    ::ascsim::antiquant_tensor<InputDataType, OutputDataType, isTranspose>(dst, src, nullptr, scale,
                                                                            &sharedTmpBuffer, k);
}
// PER_CHANNEL and PER_TENSOR, framework temporary buffer
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& offset,
                                       const LocalTensor<OutputDataType>& scale, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
    ::ascsim::antiquant_channel<InputDataType, OutputDataType, isTranspose>(dst, src, &offset, scale, nullptr, k,
                                                                             shapeInfo);
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const OutputDataType offset, const OutputDataType scale, const uint32_t k,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
    (void)shapeInfo;
    ::ascsim::antiquant_tensor<InputDataType, OutputDataType, isTranspose>(dst, src, &offset, scale, nullptr, k);
}

// ---------------- Pad / UnPad (int16_t, uint16_t, half, int32_t, uint32_t, float) ----------------
// `tiling` is the struct the build generates from optiling::PadTiling / UnPadTiling (or AscendC::tiling::PadTiling).
template <typename T, typename PadTilingT>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, PadTilingT& tiling) {
    ::ascsim::pad_impl(dstTensor, srcTensor, padParams, &sharedTmpBuffer, tiling);
}
template <typename T, typename PadTilingT>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                           PadTilingT& tiling) {
    ::ascsim::pad_impl(dstTensor, srcTensor, padParams, nullptr, tiling);
}
template <typename T, typename UnPadTilingT>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                             LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTilingT& tiling) {
    ::ascsim::unpad_impl(dstTensor, srcTensor, unPadParams, &sharedTmpBuffer, tiling);
}
template <typename T, typename UnPadTilingT>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, UnPadParams& unPadParams,
                             UnPadTilingT& tiling) {
    ::ascsim::unpad_impl(dstTensor, srcTensor, unPadParams, nullptr, tiling);
}

// ---------------- DropOut (half / float) ----------------
// isInitBitMode (whether the API initialises the bit-mode select state itself) has no effect on the result.
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
__aicore__ inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<uint8_t>& maskLocal, const float keepProb,
                               const DropOutShapeInfo& info) {
    ::ascsim::dropout_impl<T, dropOutMode>(dstLocal, srcLocal, maskLocal, nullptr, keepProb, info);
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
__aicore__ inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<uint8_t>& maskLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const float keepProb, const DropOutShapeInfo& info) {
    ::ascsim::dropout_impl<T, dropOutMode>(dstLocal, srcLocal, maskLocal, &sharedTmpBuffer, keepProb, info);
}
}  // namespace AscendC
#endif  // ASCSIM_KERNEL_HL_QUANT_PAD_H_
