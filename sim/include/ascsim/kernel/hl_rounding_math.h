// ascsim: more high-level math APIs of the AscendC math library, as documented for Atlas A2 (docs
// SIMD-API/高阶API/数学计算): Floor, Ceil, Round, Trunc, Acosh, Asinh, Atanh, ClampMax, ClampMin, Xor, Lgamma,
// Digamma, and the high-level overloads of Exp (Taylor-expansion level) and Axpy (with a temporary buffer) that the
// basic APIs of the same names lack.
//
// Each API keeps exactly the overload shapes its page lists (Floor has no (dst, src) form, Trunc has four, ...).
// Results are computed in double from the documented definition and rounded to T once. The temporary buffer follows
// the temp model of hl_math.h (`live` float vectors: at least live * 256 B); host/math_tiling.h reports the same
// live counts through GetXxxMaxMinTmpSize, so the two must be changed together.
//
// Overlap rules from the docs: every API here forbids a sharedTmpBuffer that overlaps src/dst (hl_check). All but
// Trunc (explicitly allowed) and Round (its page does not forbid it) also forbid src and dst to overlap, in-place
// included; those fail here. Values outside an API's documented input range (Acosh [1, 65504], Asinh
// [-65504, 65504], Atanh 0.001 < |x| < 0.99) give the mathematical value: the docs call the device's result
// invalid there without saying what it is, and their own examples show exact values at 0 and poles.
#ifndef ASCSIM_KERNEL_HL_ROUNDING_MATH_H_
#define ASCSIM_KERNEL_HL_ROUNDING_MATH_H_
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>
#include "hl_math.h"

namespace ascsim {

// hl_check_tmp names the host function after the API; ClampMax/ClampMin size theirs with GetClampMaxMinTmpSize,
// so the size check runs here first with the right name (`host`), ahead of the overlap and operand checks.
inline void hl_tmp_min(const char* api, const char* host, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t live) {
    hl_check_tmp_size(api, tmp, hl_min_tmp(live), host);
}

// For the APIs whose docs say source and destination must not overlap (a same-address in-place call included).
template <class T, class U>
inline void hl_forbid_overlap(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& src,
                              uint32_t count, const char* srcName) {
    const uint8_t* d = reinterpret_cast<const uint8_t*>(dst.addr_);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.addr_);
    if (d < s + size_t(count) * sizeof(U) && s < d + size_t(count) * sizeof(T))
        fail(api, "src and dst overlap",
             std::string(api) + " does not support " + srcName + " and dstTensor sharing UB addresses (in-place "
             "included); write the result to a separate tensor");
}

// isReuseSource = true lets the API keep intermediates in the source (the docs: only float honours it, and the
// source no longer holds its values afterwards). The simulator leaves NaN there so a kernel that reads it again
// shows the fault, and records the write for the missing-sync detector.
template <class T>
inline void hl_clobber_src(const char* api, const AscendC::LocalTensor<T>& src, uint32_t count) {
    sync_v_write(api, src.addr_, size_t(count) * sizeof(T));
    std::memset(static_cast<void*>(src.addr_), kPoisonByte, size_t(count) * sizeof(T));
}

// The element-wise driver: checks, then the whole result is computed before dst is written (so an allowed in-place
// call reads only original values), each value rounded to T once.
template <class T, class F>
inline void hl_elementwise(const char* api, const char* host, const AscendC::LocalTensor<T>& dst,
                           const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count,
                           uint32_t live, bool inPlaceOk, bool clobberSrc, F f) {
    if (count == 0) return;
    hl_tmp_min(api, host, tmp, live);
    if (!inPlaceOk) hl_forbid_overlap(api, dst, src, count, "srcTensor");
    hl_check(api, dst, &src, count, tmp, live);
    std::vector<double> v(count);
    for (uint32_t i = 0; i < count; ++i) v[i] = f(double(float(src.addr_[i])));
    for (uint32_t i = 0; i < count; ++i) dst.addr_[i] = T(float(v[i]));
    if (clobberSrc) hl_clobber_src(api, src, count);
}

// The isReuseSource bookkeeping of the half / float APIs: `clobber` is the API's isReuseSource where the API honours
// it; only float does (one live vector fewer, the source overwritten).
template <class T> inline constexpr bool hl_half_or_float = std::is_same_v<T, half> || std::is_same_v<T, float>;

template <class T, bool clobber, class F>
inline void hl_rounding_math_call(const char* api, const char* host, const AscendC::LocalTensor<T>& dst,
                                  const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                                  uint32_t count, uint32_t live, bool inPlaceOk, F f) {
    constexpr bool reuse = clobber && std::is_same_v<T, float>;
    hl_elementwise(api, host, dst, src, tmp, count, reuse ? live - 1 : live, inPlaceOk, reuse, f);
}

// Round: to the nearest integer, a tie (fraction exactly .5) to the even neighbour (Round's constraints section).
// Written out so that it does not depend on the floating-point environment's rounding mode; zero keeps x's sign.
inline double hl_round_half_even(double x) {
    if (!std::isfinite(x)) return x;
    const double lo = std::floor(x), frac = x - lo;   // exact for float inputs
    double r = lo;
    if (frac > 0.5 || (frac == 0.5 && std::fmod(lo, 2.0) != 0.0)) r = lo + 1.0;
    return r == 0.0 ? std::copysign(0.0, x) : r;
}

// Digamma psi(x) = d/dx ln Gamma(x) (Digamma's description; its formula is an image). Shifted up to x >= 6 with
// psi(x) = psi(x + 1) - 1/x, then the asymptotic series; below 0.5 the reflection psi(x) = psi(1 - x) - pi / tan(pi x).
// The poles are not covered by the docs: 0 gives -inf and a negative integer NaN (the common library convention).
inline double hl_digamma(double x) {
    if (std::isnan(x) || x == std::numeric_limits<double>::infinity()) return x;
    if (x == -std::numeric_limits<double>::infinity()) return std::numeric_limits<double>::quiet_NaN();
    if (x <= 0.0 && x == std::floor(x)) return x == 0.0 ? -std::numeric_limits<double>::infinity()
                                                        : std::numeric_limits<double>::quiet_NaN();
    const double pi = 3.14159265358979323846;
    if (x < 0.5) return hl_digamma(1.0 - x) - pi / std::tan(pi * (x - std::floor(x)));   // tan has period pi
    double acc = 0.0;
    for (; x < 6.0; x += 1.0) acc -= 1.0 / x;
    const double f = 1.0 / (x * x);
    // Bernoulli terms B2k / (2k x^2k) for k = 1..5
    const double tail = f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f * (1.0 / 132)))));
    return acc + std::log(x) - 0.5 / x - tail;
}

// Exp with taylorExpandLevel n (Exp's description): level 0 is plain e^x; otherwise x splits into its integer part
// floor(x) and fraction, e^x = e^floor(x) * e^frac, and e^frac is the Taylor polynomial. The polynomial's formula is
// an image; "taylorExpandLevel: Taylor expansion order" (the contributing guide) is read as terms up to frac^n / n!.
inline double hl_exp_taylor(double x, unsigned level) {
    if (level == 0 || !std::isfinite(x)) return std::exp(x);
    const double whole = std::floor(x), frac = x - whole;
    double term = 1.0, sum = 1.0;
    for (unsigned k = 1; k <= level; ++k) sum += (term *= frac / double(k));
    return std::exp(whole) * sum;
}

// Xor: bitwise exclusive or of two int16_t / uint16_t tensors. The docs' rules: calCount within all three tensors,
// neither source overlapping dst, a temporary buffer apart from all of them.
template <class T>
inline void hl_xor(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                   const AscendC::LocalTensor<T>& src1, const AscendC::LocalTensor<uint8_t>* tmp, uint32_t count) {
    static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t>,
                  "Xor supports int16_t and uint16_t on Atlas A2");
    if (count == 0) return;
    if (count > dst.GetSize() || count > src0.GetSize() || count > src1.GetSize())
        fail("Xor", "Failed to check params",
             "calCount " + std::to_string(count) + " must not exceed the elements of src0Tensor (" +
                 std::to_string(src0.GetSize()) + "), src1Tensor (" + std::to_string(src1.GetSize()) +
                 ") and dstTensor (" + std::to_string(dst.GetSize()) + ")");
    hl_tmp_min("Xor", "GetXorMaxMinTmpSize", tmp, 1);
    hl_forbid_overlap("Xor", dst, src0, count, "src0Tensor");
    hl_forbid_overlap("Xor", dst, src1, count, "src1Tensor");
    hl_check("Xor", dst, &src0, count, tmp, 1, &src1);
    for (uint32_t i = 0; i < count; ++i) dst.addr_[i] = T(uint16_t(src0.addr_[i]) ^ uint16_t(src1.addr_[i]));
}
// The whole-tensor Xor forms: the docs require the two sources to be the same size.
template <class T>
inline uint32_t hl_xor_whole(const AscendC::LocalTensor<T>& src0, const AscendC::LocalTensor<T>& src1) {
    if (src0.GetSize() != src1.GetSize())
        fail("Xor", "Failed to check params",
             "without calCount src0Tensor and src1Tensor must have the same size (" + std::to_string(src0.GetSize()) +
                 " vs " + std::to_string(src1.GetSize()) + ")");
    return src0.GetSize();
}

// The ClampMax / ClampMin body: values beyond `scalar` on the clamped side become `scalar` (NaN passes through).
template <class T, bool upper>
inline void hl_clamp(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                     const AscendC::LocalTensor<uint8_t>* tmp, T scalar, uint32_t count) {
    const double s = double(float(scalar));
    hl_elementwise(api, "GetClampMaxMinTmpSize", dst, src, tmp, count, 1, false, false,
                   [s](double x) { return upper ? (x > s ? s : x) : (x < s ? s : x); });
}
}  // namespace ascsim

// NAME with its two documented shapes: (dst, src, sharedTmpBuffer, calCount) and (dst, src, calCount).
// LIVE: temp-model float vectors (host/math_tiling.h); INPLACE: whether src may overlap dst; REUSE: whether
// isReuseSource = true on float lets the API overwrite the source (one live vector fewer).
#define ASCSIM_HL_MATH2(NAME, LIVE, INPLACE, REUSE, EXPR)                                                              \
    template <typename T, bool isReuseSource = false>                                                                  \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                      \
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {                \
        static_assert(::ascsim::hl_half_or_float<T>, #NAME " supports half and float on Atlas A2");                    \
        ::ascsim::hl_rounding_math_call<T, isReuseSource && REUSE>(#NAME, "Get" #NAME "MaxMinTmpSize", dstTensor,      \
            srcTensor, &sharedTmpBuffer, calCount, LIVE, INPLACE, [](double x) { return EXPR; });                      \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false>                                                                  \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                      \
                                const uint32_t calCount) {                                                             \
        static_assert(::ascsim::hl_half_or_float<T>, #NAME " supports half and float on Atlas A2");                    \
        ::ascsim::hl_rounding_math_call<T, isReuseSource && REUSE>(#NAME, "Get" #NAME "MaxMinTmpSize", dstTensor,      \
            srcTensor, nullptr, calCount, LIVE, INPLACE, [](double x) { return EXPR; });                               \
    }

// NAME with the four documented shapes: the two above plus (dst, src, sharedTmpBuffer) and (dst, src), which take
// the whole source tensor.
#define ASCSIM_HL_MATH4(NAME, LIVE, INPLACE, REUSE, EXPR)                                                              \
    ASCSIM_HL_MATH2(NAME, LIVE, INPLACE, REUSE, EXPR)                                                                  \
    template <typename T, bool isReuseSource = false>                                                                  \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,                      \
                                const LocalTensor<uint8_t>& sharedTmpBuffer) {                                         \
        NAME<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, srcTensor.GetSize());                            \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false>                                                                  \
    __aicore__ inline void NAME(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor) {                    \
        NAME<T, isReuseSource>(dstTensor, srcTensor, srcTensor.GetSize());                                             \
    }

namespace AscendC {

// Floor: toward -inf (Floor(-3.9) = -4). Ceil: toward +inf (Ceil(-3.9) = -3). Trunc: toward zero (Trunc(-3.9) = -3).
// Round: nearest, ties to even (Round's constraints; its Round(3.5) = 4 agrees, while one example array prints
// 6.5 -> 7.0, taken as a display of an input that was not exactly 6.5). All exact in float, so exact in T.
ASCSIM_HL_MATH2(Floor, 1, false, false, std::floor(x))
ASCSIM_HL_MATH2(Ceil, 1, false, false, std::ceil(x))
ASCSIM_HL_MATH2(Round, 1, true, false, ::ascsim::hl_round_half_even(x))
ASCSIM_HL_MATH4(Trunc, 1, true, false, std::trunc(x))
// The inverse hyperbolic functions (formulas are images; the worked examples match the standard definitions:
// Acosh(2) = 1.316958, Asinh(0.1) = 0.099834, Atanh(0.99) = 2.646650, Atanh(1) = inf).
ASCSIM_HL_MATH4(Acosh, 2, false, false, std::acosh(x))
ASCSIM_HL_MATH4(Asinh, 2, false, false, std::asinh(x))
ASCSIM_HL_MATH4(Atanh, 2, false, false, std::atanh(x))
// Lgamma: ln |Gamma(x)| (its description; Lgamma(0) = inf in the example). Digamma: see hl_digamma. Both honour
// isReuseSource for float. The docs spell Digamma's sharedTmpBuffer without const; a const reference accepts every
// call that compiles against that spelling.
ASCSIM_HL_MATH2(Lgamma, 4, false, true, std::lgamma(x))
ASCSIM_HL_MATH2(Digamma, 4, false, true, ::ascsim::hl_digamma(x))
#undef ASCSIM_HL_MATH4
#undef ASCSIM_HL_MATH2

// ClampMax / ClampMin: two shapes each, the scalar after the temporary buffer; GetClampMaxMinTmpSize sizes both.
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount) {
    static_assert(::ascsim::hl_half_or_float<T>, "ClampMax supports half and float on Atlas A2");
    ::ascsim::hl_clamp<T, true>("ClampMax", dstTensor, srcTensor, &sharedTmpBuffer, scalar, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
                                const uint32_t calCount) {
    static_assert(::ascsim::hl_half_or_float<T>, "ClampMax supports half and float on Atlas A2");
    ::ascsim::hl_clamp<T, true>("ClampMax", dstTensor, srcTensor, nullptr, scalar, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                                const LocalTensor<uint8_t>& sharedTmpBuffer, const T scalar, const uint32_t calCount) {
    static_assert(::ascsim::hl_half_or_float<T>, "ClampMin supports half and float on Atlas A2");
    ::ascsim::hl_clamp<T, false>("ClampMin", dstTensor, srcTensor, &sharedTmpBuffer, scalar, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void ClampMin(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const T scalar,
                                const uint32_t calCount) {
    static_assert(::ascsim::hl_half_or_float<T>, "ClampMin supports half and float on Atlas A2");
    ::ascsim::hl_clamp<T, false>("ClampMin", dstTensor, srcTensor, nullptr, scalar, calCount);
}

// Xor: four shapes.
template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const uint32_t calCount) {
    ::ascsim::hl_xor(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, const LocalTensor<uint8_t>& sharedTmpBuffer) {
    const uint32_t count = ::ascsim::hl_xor_whole(src0Tensor, src1Tensor);
    ::ascsim::hl_xor(dstTensor, src0Tensor, src1Tensor, &sharedTmpBuffer, count);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor, const uint32_t calCount) {
    ::ascsim::hl_xor(dstTensor, src0Tensor, src1Tensor, nullptr, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void Xor(const LocalTensor<T>& dstTensor, const LocalTensor<T>& src0Tensor,
                           const LocalTensor<T>& src1Tensor) {
    ::ascsim::hl_xor(dstTensor, src0Tensor, src1Tensor, nullptr, ::ascsim::hl_xor_whole(src0Tensor, src1Tensor));
}

// High-level Exp<T, taylorExpandLevel, isReuseSource>: only these two shapes. The basic Exp<T>(dst, src, count)
// (vec_arith.h) takes one template argument, so a call that spells the level always selects one of these.
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    static_assert(::ascsim::hl_half_or_float<T>, "Exp supports half and float on Atlas A2");
    ::ascsim::hl_rounding_math_call<T, isReuseSource>("Exp", "GetExpMaxMinTmpSize", dstLocal, srcLocal,
        &sharedTmpBuffer, calCount, 3, false, [](double x) { return ::ascsim::hl_exp_taylor(x, taylorExpandLevel); });
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
__aicore__ inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t calCount) {
    static_assert(::ascsim::hl_half_or_float<T>, "Exp supports half and float on Atlas A2");
    ::ascsim::hl_rounding_math_call<T, isReuseSource>("Exp", "GetExpMaxMinTmpSize", dstLocal, srcLocal, nullptr,
        calCount, 3, false, [](double x) { return ::ascsim::hl_exp_taylor(x, taylorExpandLevel); });
}

// High-level Axpy: dst += src * scalarValue as a Muls then an Add (its description), with a caller-provided
// temporary buffer (the only shape). Combinations: half/half (both steps in half, each rounded: 128 per repeat),
// float/float, and a half source into a float dst; that one runs 64 per repeat like float, so the half source is
// taken to float first and both steps round to float.
template <typename T, typename U, bool isReuseSource = false>
__aicore__ inline void Axpy(const LocalTensor<T>& dstTensor, const LocalTensor<U>& srcTensor, const U scalarValue,
                            const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount) {
    static_assert((std::is_same_v<T, half> && std::is_same_v<U, half>) ||
                      (std::is_same_v<T, float> && std::is_same_v<U, float>) ||
                      (std::is_same_v<T, float> && std::is_same_v<U, half>),
                  "high-level Axpy supports (dst, src) = (half, half), (float, float) and (float, half) on Atlas A2");
    if (calCount == 0) return;
    ::ascsim::hl_tmp_min("Axpy", "GetAxpyMaxMinTmpSize", &sharedTmpBuffer, 1);
    ::ascsim::hl_forbid_overlap("Axpy", dstTensor, srcTensor, calCount, "srcTensor");
    ::ascsim::check_src("Axpy", dstTensor, calCount);   // dst is an addend: read before it is written
    ::ascsim::hl_check("Axpy", dstTensor, &srcTensor, calCount, &sharedTmpBuffer, 1);
    const float s = float(scalarValue);
    for (uint32_t i = 0; i < calCount; ++i) {
        const float product = float(T(float(srcTensor.addr_[i]) * s));   // Muls rounds to the compute type (dst's)
        dstTensor.addr_[i] = T(product + float(dstTensor.addr_[i]));
    }
}

}  // namespace AscendC
#endif  // ASCSIM_KERNEL_HL_ROUNDING_MATH_H_
