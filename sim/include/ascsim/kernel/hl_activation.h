// ascsim: the high-level activation APIs of Atlas A2 beyond SoftMax/Sigmoid: Gelu, FasterGelu, FasterGeluV2, Silu,
// Swish, SwiGLU, GeGLU, ReGlu and LogSoftMax (the docs' formulas are images, so each formula below says where it was
// taken from: the doc text, or the doc's worked example, which it reproduces).
//
// Precision: half data is computed step by step in half (every vector step rounded to half). That model reproduces
// the docs' half examples of FasterGelu, FasterGeluV2 and GeGLU bit for bit and Gelu's to 3 ulps, where rounding once
// from float misses several by an ulp or more; Silu, Swish and SwiGLU (float examples only) follow it by analogy.
// Gelu/FasterGelu/FasterGeluV2 with highPrecision = true compute half in float and round once (the docs: the mode
// raises half precision, and does nothing for float); float data is float arithmetic either way. ReGlu (one multiply)
// and LogSoftMax (float, rounded once, as SoftMax in hl_softmax.h) round once.
//
// Temporary buffer: the live-float-vector model of hl_math.h (min live * 256 B, max live * align32(count * 4) B),
// reported by host/activation_tiling.h. Silu and Swish take no temporary buffer and the host reports 0 for them.
// Strict checks: a count larger than an operand, an overlap the docs forbid (src/dst for all but the Gelu family,
// sharedTmpBuffer/operands for all), a sharedTmpBuffer below the host's minimum, no UB left for the framework's
// temporary buffer.
#ifndef ASCSIM_KERNEL_HL_ACTIVATION_H_
#define ASCSIM_KERNEL_HL_ACTIVATION_H_
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#include "hl_math.h"
#include "hl_softmax.h"

namespace ascsim {
// Live float vectors of each API's temporary model; host/activation_tiling.h reports the same (the driver test
// checks that the host's minimum passes and 32 B less fails). Gelu, FasterGelu and FasterGeluV2 share one host query.
inline constexpr uint32_t kActLiveGelu = 3, kActLiveSwiGLU = 3, kActLiveGeGLU = 3, kActLiveReGlu = 2;

struct ActRule {
    const char* count_name;   // the documented name of the count argument
    const char* host_fn;      // the host query that sizes the temporary buffer
    uint32_t live;            // 0: the API uses no temporary buffer
    bool in_place;            // whether the docs allow dst to share UB with the sources
};

inline bool act_overlaps(const void* a, size_t an, const void* b, size_t bn) {
    const uint8_t* p = static_cast<const uint8_t*>(a);
    const uint8_t* q = static_cast<const uint8_t*>(b);
    return p && q && an && bn && p < q + bn && q < p + an;
}

template <class T>
inline void act_fits(const char* api, const char* count_name, uint64_t count, const char* name,
                     const AscendC::LocalTensor<T>& t) {
    if (count > t.GetSize())
        fail(api, "Failed to check params", std::string(count_name) + " = " + std::to_string(count) + " exceeds the " +
                                                std::to_string(t.GetSize()) + " elements of " + name);
}

// The temporary buffer (sharedTmpBuffer, or the UB after the last InitBuffer when tmp is null) against the minimum
// of the live model; `spans` are the operands it must not overlap. The part the model uses (`live` vectors of
// `count` floats, or `need` bytes when live is 0) is scratch written by PIPE_V. Both failures name `host_fn`.
inline void act_tmp(const char* api, const char* host_fn, const AscendC::LocalTensor<uint8_t>* tmp, uint64_t count,
                    uint32_t live, uint32_t need, std::initializer_list<HlSpan> spans) {
    const uint64_t most = live ? uint64_t(live) * ((count * 4u + 31u) / 32u * 32u) : uint64_t(need);
    hl_check_tmp_bytes(api, tmp, need, most, spans, host_fn, " minValue", true);
}

// Elementwise activation over `count` elements of one or two sources (src1 null for the unary ones). All sources
// are read into the results before dst is written, so an in-place call (allowed for the Gelu family) is well
// defined; `f` gets the source values as float and returns the value to store.
template <class T, class F>
inline void act_run(const char* api, const ActRule& rule, const AscendC::LocalTensor<T>& dst,
                    const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>* src1,
                    const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count, F f) {
    if (count == 0) return;
    const char* n0 = src1 ? "srcTensor0" : "srcLocal";
    act_fits(api, rule.count_name, count, n0, src0);
    if (src1) act_fits(api, rule.count_name, count, "srcTensor1", *src1);
    act_fits(api, rule.count_name, count, src1 ? "dstTensor" : "dstLocal", dst);
    const size_t bytes = size_t(count) * sizeof(T);
    if (!rule.in_place && (act_overlaps(dst.addr_, bytes, src0.addr_, bytes) ||
                           (src1 && act_overlaps(dst.addr_, bytes, src1->addr_, bytes))))
        fail(api, "dst overlaps a source operand",
             "the docs do not allow the source and destination operands to share UB");
    check_src(api, src0, count);
    if (src1) check_src(api, *src1, count);
    check_dst(api, dst, count);
    if (rule.live)
        act_tmp(api, rule.host_fn, tmp, count, rule.live, hl_min_tmp(rule.live),
                {{dst.addr_, bytes}, {src0.addr_, bytes}, {src1 ? src1->addr_ : nullptr, bytes}});
    static thread_local std::vector<float> v;
    v.resize(count);
    for (uint32_t i = 0; i < count; ++i) v[i] = f(float(src0.addr_[i]), src1 ? float(src1->addr_[i]) : 0.0f);
    for (uint32_t i = 0; i < count; ++i) dst.addr_[i] = T(v[i]);
}

// One vector step's rounding: R is the type the device computes in (half for half data in the default mode).
template <class R> inline float act_rnd(float v) { return float(R(v)); }
template <class T, bool highPrecision> using act_step_t =
    std::conditional_t<std::is_same_v<T, half> && !highPrecision, half, float>;

// GELU in the tanh form (erf replaced by the tanh approximation, as the GeGLU doc states), simplified as that doc
// writes it: x / (1 + exp(a * x * (x^2 + b))), with the doc's a and b (a = -2 * sqrt(2 / pi) * 0.044715, b =
// 1 / 0.044715). Gelu's own doc says the same "simplified" form (its formula is an image); its example agrees to
// 3 half ulps, while the erf form misses it by up to 56.
inline constexpr float kGeluA = -0.0713548162726f, kGeluB = 22.363860002236f;
template <class R> inline float act_gelu(float x) {
    float z = act_rnd<R>(act_rnd<R>(x * act_rnd<R>(kGeluA)) * act_rnd<R>(act_rnd<R>(x * x) + act_rnd<R>(kGeluB)));
    float d = act_rnd<R>(act_rnd<R>(std::exp(z)) + 1.0f);
    return act_rnd<R>(x / d);
}
// FasterGelu: x / (1 + exp(-1.702 x)) (= x * sigmoid(1.702 x)). The formula is an image; the constant and the form
// come from the doc's half example, which this reproduces bit for bit (tanh-GELU misses it by far).
template <class R> inline float act_faster_gelu(float x) {
    float e = act_rnd<R>(std::exp(act_rnd<R>(x * act_rnd<R>(-1.702f))));
    return act_rnd<R>(x / act_rnd<R>(e + 1.0f));
}
// FasterGeluV2 (the FastGeluV2 activation the doc names; its formula is an image): with t = min(|x| / sqrt(2), c),
// y = x * (sgn(x) * (a * (t - c)^2 + 0.5) + 0.5), a = -0.1444, c = 1.769: the published FastGeluV2 definition,
// which reproduces all 32 values of the doc's half example bit for bit (incl. the exact -0 of the saturated tail).
template <class R> inline float act_faster_gelu_v2(float x) {
    float t = std::min(act_rnd<R>(std::fabs(x) * act_rnd<R>(0.70710678f)), act_rnd<R>(1.769f));
    t = act_rnd<R>(t + act_rnd<R>(-1.769f));
    t = act_rnd<R>(act_rnd<R>(t * t) * act_rnd<R>(-0.1444f));
    t = act_rnd<R>(t + 0.5f);
    const float s = x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f);
    return act_rnd<R>(x * act_rnd<R>(s * t + 0.5f));
}
// Silu: x / (1 + exp(-x)) (the doc's example is x * sigmoid(x)).
template <class R> inline float act_silu(float x) {
    return act_rnd<R>(x / act_rnd<R>(act_rnd<R>(std::exp(-x)) + 1.0f));
}
// Swish with scalarValue = beta: x / (1 + exp(beta * x)). The formula is an image; the sign convention comes from
// the doc's example (beta = -1.702 gives x * sigmoid(1.702 x) there), NOT the textbook x * sigmoid(beta * x).
template <class R> inline float act_swish(float x, float beta) {
    float e = act_rnd<R>(std::exp(act_rnd<R>(x * beta)));
    return act_rnd<R>(x / act_rnd<R>(e + 1.0f));
}
// SwiGLU: src0 * Swish(src1), Swish(x) = x / (1 + exp(-beta * x)) = x * sigmoid(beta * x). Which source is
// activated and the sign of beta come from the doc's example (src1 = 0.5, beta = 1: dst = src0 * 0.5 * sigmoid(0.5));
// note the opposite sign convention of the Swish API's example.
template <class R> inline float act_swiglu(float x0, float x1, float beta) {
    float e = act_rnd<R>(std::exp(act_rnd<R>(x1 * act_rnd<R>(-beta))));
    return act_rnd<R>(x0 * act_rnd<R>(x1 / act_rnd<R>(e + 1.0f)));
}

// The API bodies, reached through the documented overloads below (tmp null: the framework's temporary buffer).
template <class T, bool highPrecision, class F>
inline void act_gelu_family(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                            const AscendC::LocalTensor<uint8_t>* tmp, uint32_t dataSize, F fn) {
    static const ActRule rule{"dataSize", "GetGeluMaxMinTmpSize", kActLiveGelu, true};
    act_run(api, rule, dst, src, static_cast<const AscendC::LocalTensor<T>*>(nullptr), tmp, dataSize,
            [fn](float x, float) { return fn(x); });
}
template <class T>
inline void act_swiglu_impl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                            const AscendC::LocalTensor<T>& src1, float beta, const AscendC::LocalTensor<uint8_t>* tmp,
                            uint32_t calCount) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "SwiGLU supports half and float on Atlas A2");
    static const ActRule rule{"calCount", "GetSwiGLUMaxMinTmpSize", kActLiveSwiGLU, false};
    act_run("SwiGLU", rule, dst, src0, &src1, tmp, calCount,
            [beta](float x0, float x1) { return act_swiglu<T>(x0, x1, beta); });
}
template <class T>
inline void act_geglu_impl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                           const AscendC::LocalTensor<T>& src1, const AscendC::LocalTensor<uint8_t>* tmp,
                           uint32_t calCount) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "GeGLU supports half and float on Atlas A2");
    static const ActRule rule{"calCount", "GetGeGLUMaxMinTmpSize", kActLiveGeGLU, false};
    act_run("GeGLU", rule, dst, src0, &src1, tmp, calCount,
            [](float x0, float x1) { return act_rnd<T>(x0 * act_gelu<T>(x1)); });
}
template <class T>
inline void act_reglu_impl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                           const AscendC::LocalTensor<T>& src1, const AscendC::LocalTensor<uint8_t>* tmp,
                           uint32_t calCount) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float>,
                  "ReGlu supports half, bfloat16_t and float on Atlas A2");
    static const ActRule rule{"calCount", "GetReGluMaxMinTmpSize", kActLiveReGlu, false};
    act_run("ReGlu", rule, dst, src0, &src1, tmp, calCount,
            [](float x0, float x1) { return x0 * (x1 > 0.0f ? x1 : 0.0f); });
}
// Swish's beta is documented as `const T`; taking it as a non-deduced T lets the doc's own call
// Swish(dst, src, 32, -1.702) (a double literal) compile, converting it to T as the device's scalar would be.
template <class T> struct act_same { using type = T; };
}  // namespace ascsim

namespace AscendC {
// Gelu, FasterGelu, FasterGeluV2: (dst, src, sharedTmpBuffer, dataSize) and (dst, src, dataSize); half and float;
// dst may be src (the docs allow reuse). highPerformance changes nothing here (it trades device precision for speed).
#define ASCSIM_ACT_GELU(NAME, FN)                                                                                  \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                               \
    __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                   \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize) {           \
        static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, #NAME " supports half and float on A2"); \
        ::ascsim::act_gelu_family<T, highPrecision>(#NAME, dstLocal, srcLocal, &sharedTmpBuffer, dataSize,         \
                                                    FN<::ascsim::act_step_t<T, highPrecision>>);                  \
    }                                                                                                             \
    template <typename T, bool highPrecision = false, bool highPerformance = false>                               \
    __aicore__ inline void NAME(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,                   \
                                const uint32_t dataSize) {                                                        \
        static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, #NAME " supports half and float on A2"); \
        ::ascsim::act_gelu_family<T, highPrecision>(#NAME, dstLocal, srcLocal, nullptr, dataSize,                 \
                                                    FN<::ascsim::act_step_t<T, highPrecision>>);                  \
    }
ASCSIM_ACT_GELU(Gelu, ::ascsim::act_gelu)
ASCSIM_ACT_GELU(FasterGelu, ::ascsim::act_faster_gelu)
ASCSIM_ACT_GELU(FasterGeluV2, ::ascsim::act_faster_gelu_v2)
#undef ASCSIM_ACT_GELU

// Silu(dst, src, dataSize): half and float; no temporary buffer; src and dst must not overlap.
template <typename T, bool isReuseSource = false>
__aicore__ inline void Silu(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Silu supports half and float on Atlas A2");
    static const ::ascsim::ActRule rule{"dataSize", "GetSiluTmpSize", 0, false};
    ::ascsim::act_run("Silu", rule, dstLocal, srcLocal, static_cast<const LocalTensor<T>*>(nullptr), nullptr,
                      dataSize, [](float x, float) { return ::ascsim::act_silu<T>(x); });
}

// Swish(dst, src, dataSize, scalarValue = beta): half and float; no temporary buffer; no src/dst overlap.
template <typename T, bool isReuseSource = false>
__aicore__ inline void Swish(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, uint32_t dataSize,
                             const typename ::ascsim::act_same<T>::type scalarValue) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>, "Swish supports half and float on Atlas A2");
    static const ::ascsim::ActRule rule{"dataSize", "GetSwishTmpSize", 0, false};
    const float beta = float(scalarValue);
    ::ascsim::act_run("Swish", rule, dstLocal, srcLocal, static_cast<const LocalTensor<T>*>(nullptr), nullptr,
                      dataSize, [beta](float x, float) { return ::ascsim::act_swish<T>(x, beta); });
}

// SwiGLU(dst, src0, src1, beta, [sharedTmpBuffer], [calCount]): half and float; beta is a float for both; the
// whole-tensor forms take srcTensor0's size. Spelt as documented: dst is a non-const reference, and so are the
// sources of the framework-buffer whole-tensor form.
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue,
                              const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    ::ascsim::act_swiglu_impl(dstTensor, srcTensor0, srcTensor1, scalarValue, &sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue,
                              const LocalTensor<uint8_t>& sharedTmpBuffer) {
    ::ascsim::act_swiglu_impl(dstTensor, srcTensor0, srcTensor1, scalarValue, &sharedTmpBuffer, srcTensor0.GetSize());
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                              const LocalTensor<T>& srcTensor1, const float& scalarValue, const uint32_t calCount) {
    ::ascsim::act_swiglu_impl(dstTensor, srcTensor0, srcTensor1, scalarValue, nullptr, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void SwiGLU(LocalTensor<T>& dstTensor, LocalTensor<T>& srcTensor0, LocalTensor<T>& srcTensor1,
                              const float& scalarValue) {
    ::ascsim::act_swiglu_impl(dstTensor, srcTensor0, srcTensor1, scalarValue, nullptr, srcTensor0.GetSize());
}

// GeGLU(dst, src0, src1, [sharedTmpBuffer], [calCount]) = src0 * GELU(src1), GELU in the tanh form above (the doc's
// formula text: x1 is activated, x0 gates it; its half example matches bit for bit). half and float.
template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             uint32_t calCount) {
    ::ascsim::act_geglu_impl(dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer) {
    ::ascsim::act_geglu_impl(dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer, srcTensor0.GetSize());
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, uint32_t calCount) {
    ::ascsim::act_geglu_impl(dstTensor, srcTensor0, srcTensor1, nullptr, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void GeGLU(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1) {
    ::ascsim::act_geglu_impl(dstTensor, srcTensor0, srcTensor1, nullptr, srcTensor0.GetSize());
}

// ReGlu(dst, src0, src1, [sharedTmpBuffer], calCount) = src0 * max(src1, 0) (which source is activated: the doc's
// example). half, bfloat16_t and float on Atlas A2; one multiply, so one rounding.
template <typename T, bool isReuseSource = false>
__aicore__ inline void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             const uint32_t calCount) {
    ::ascsim::act_reglu_impl(dstTensor, srcTensor0, srcTensor1, &sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ReGlu(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,
                             const LocalTensor<T>& srcTensor1, const uint32_t calCount) {
    ::ascsim::act_reglu_impl(dstTensor, srcTensor0, srcTensor1, nullptr, calCount);
}

// LogSoftMax on an ND [srcM, srcK] tile (srcK 32-byte aligned; shape from softmaxShapeInfo, else the tiling's
// srcM/srcK, as SoftMax does). Per row, following the doc's steps and its Python reference: max = rowmax(x),
// sum = rowsum(exp(x - max)), dst = log10(exp(x - max) / sum) -- base 10, as the doc's script and example say.
// max and sum fill one 32 B block per row. The row statistics use the valid columns (oriSrcK); dst is written for
// all srcK columns. Math in float, rounded to T once. Temporary model: two float rows of srcK at least
// (GetLogSoftMaxMinTmpSize). The tiling type is the struct the build generates from optiling::LogSoftMaxTiling (or
// AscendC::tiling::LogSoftMaxTiling): srcM / srcK are read when softmaxShapeInfo leaves them 0.
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false, typename Tiling>
__aicore__ inline void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sum, const LocalTensor<T>& max,
                                  const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                  const Tiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "LogSoftMax supports half and float on Atlas A2");
    static_assert(!isDataFormatNZ,
                  "ascsim: LogSoftMax with isDataFormatNZ = true (NZ format) is not simulated; only ND is");
    const char* api = "LogSoftMax";
    uint32_t m, k, ok;
    ::ascsim::softmax_dims<T>(api, tiling, softmaxShapeInfo, m, k, ok);
    if (m == 0 || k == 0) return;
    constexpr uint32_t blk = 32 / sizeof(T);
    const uint64_t mk = uint64_t(m) * k, mb = uint64_t(m) * blk;
    ::ascsim::act_fits(api, "srcM * srcK", mk, "src", src);
    ::ascsim::act_fits(api, "srcM * srcK", mk, "dst", dst);
    ::ascsim::act_fits(api, "srcM * (32 B / sizeof(T))", mb, "sum", sum);
    ::ascsim::act_fits(api, "srcM * (32 B / sizeof(T))", mb, "max", max);
    if (::ascsim::act_overlaps(dst.addr_, mk * sizeof(T), src.addr_, mk * sizeof(T)))
        ::ascsim::fail(api, "dst overlaps a source operand", "the docs do not allow src and dst to share UB");
    ::ascsim::check_src(api, src, mk);
    ::ascsim::check_dst(api, dst, mk);
    ::ascsim::check_dst(api, sum, mb);
    ::ascsim::check_dst(api, max, mb);
    const uint32_t need = 2u * ((k * 4u + 31u) / 32u * 32u);
    ::ascsim::act_tmp(api, "GetLogSoftMaxMinTmpSize", &sharedTmpBuffer, mk, 0, need,
                      {{dst.addr_, mk * sizeof(T)}, {src.addr_, mk * sizeof(T)}, {sum.addr_, mb * sizeof(T)},
                       {max.addr_, mb * sizeof(T)}});
    std::vector<float> row(k);
    bool out_of_range = false;
    for (uint32_t r = 0; r < m; ++r) {
        const T* s = src.addr_ + size_t(r) * k;
        float vmax = -INFINITY, vsum = 0.0f;
        for (uint32_t i = 0; i < ok; ++i) vmax = std::max(vmax, float(s[i]));
        for (uint32_t i = 0; i < k; ++i) {
            const float x = float(s[i]);
            if (i < ok) out_of_range = out_of_range || !(std::fabs(x) <= 2147483647.0f);
            row[i] = std::exp(x - vmax);
            if (i < ok) vsum += row[i];
        }
        T* d = dst.addr_ + size_t(r) * k;
        for (uint32_t i = 0; i < k; ++i) d[i] = T(std::log10(row[i] / vsum));
        for (uint32_t j = 0; j < blk; ++j) {
            max.addr_[size_t(r) * blk + j] = T(vmax);
            sum.addr_[size_t(r) * blk + j] = T(vsum);
        }
    }
    if (out_of_range)
        ::ascsim::warn(api, "an input lies outside [-2147483647, 2147483647]: the docs call the device's results "
                            "invalid");
}
}  // namespace AscendC
#endif  // ASCSIM_KERNEL_HL_ACTIVATION_H_
