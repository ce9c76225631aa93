// ascsim: 16-bit floating point storage types with IEEE round-to-nearest-even conversions, and the
// rounding helpers that Cast's round modes need. Arithmetic happens in float; results are rounded back.
#ifndef ASCSIM_ASCSIM_NUMERIC_H_
#define ASCSIM_ASCSIM_NUMERIC_H_
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#if defined(__F16C__)
#include <immintrin.h>
#endif

namespace ascsim {

inline uint32_t f2u(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float u2f(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

// float -> binary16 bits, round to nearest even, overflow to inf, subnormals kept.
inline uint16_t soft_float_to_half_bits(float f) {
    uint32_t x = f2u(f);
    uint16_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xffu;
    uint32_t man = x & 0x7fffffu;
    if (exp == 0xff) return sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0);
    int e = int(exp) - 127 + 15;
    if (e >= 31) return sign | 0x7c00u;
    if (e <= 0) {
        if (e < -10) return sign;
        man |= 0x800000u;
        int shift = 14 - e;
        uint32_t h = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1), halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (h & 1u))) ++h;
        return sign | uint16_t(h);
    }
    uint32_t h = (uint32_t(e) << 10) | (man >> 13);
    uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;   // may carry into the exponent: correct
    return sign | uint16_t(h);
}

inline float soft_half_bits_to_float(uint16_t h) {
    uint32_t sign = uint32_t(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
    if (exp == 0x1f) return u2f(sign | 0x7f800000u | (man << 13));
    if (exp == 0) {
        if (!man) return u2f(sign);
        float v = std::ldexp(float(man), -24);
        return sign ? -v : v;
    }
    return u2f(sign | ((exp + 112u) << 23) | (man << 13));
}

// The x86 F16C instructions give the same IEEE results much faster; the build enables them where the CPU has them.
#if defined(__F16C__)
inline uint16_t float_to_half_bits(float f) { return uint16_t(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT)); }
inline float half_bits_to_float(uint16_t h) { return _cvtsh_ss(h); }
#else
inline uint16_t float_to_half_bits(float f) { return soft_float_to_half_bits(f); }
inline float half_bits_to_float(uint16_t h) { return soft_half_bits_to_float(h); }
#endif

// Bulk conversions (4 lanes at a time with F16C) for the count-form vector loops.
inline void half_bits_to_float_n(const uint16_t* s, float* d, size_t n) {
    size_t i = 0;
#if defined(__F16C__)
    for (; i + 4 <= n; i += 4) _mm_storeu_ps(d + i, _mm_cvtph_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(s + i))));
#endif
    for (; i < n; ++i) d[i] = half_bits_to_float(s[i]);
}
inline void float_to_half_bits_n(const float* s, uint16_t* d, size_t n) {
    size_t i = 0;
#if defined(__F16C__)
    for (; i + 4 <= n; i += 4)
        _mm_storel_epi64(reinterpret_cast<__m128i*>(d + i), _mm_cvtps_ph(_mm_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT));
#endif
    for (; i < n; ++i) d[i] = float_to_half_bits(s[i]);
}

inline uint16_t float_to_bf16_bits(float f) {
    uint32_t x = f2u(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return uint16_t((x >> 16) | 0x40u);
    uint32_t lsb = (x >> 16) & 1u;
    x += 0x7fffu + lsb;
    return uint16_t(x >> 16);
}
inline float bf16_bits_to_float(uint16_t b) { return u2f(uint32_t(b) << 16); }


// Constant-expression conversions: the device compiler accepts `constexpr half k = 1.0;` (half and bfloat16_t are
// literal types there). C++17 has no bit_cast, so these compute the same IEEE round-to-nearest-even results by
// exact power-of-two scaling in double; the constructors use them only during constant evaluation.
constexpr double pow2(int e) {
    double r = 1.0;
    for (; e > 0; --e) r *= 2.0;
    for (; e < 0; ++e) r *= 0.5;
    return r;
}
constexpr uint32_t round_half_even(double m) {   // m >= 0, m < 2^32
    uint32_t fl = uint32_t(m);
    double fr = m - double(fl);
    return (fr > 0.5 || (fr == 0.5 && (fl & 1u))) ? fl + 1 : fl;
}
// |f| -> (biased exponent, rounded mantissa with its hidden bit) for a format with `man` mantissa bits, exponent bias
// `bias` and no exponent above `emax`; returns the bits without sign.
constexpr uint16_t const_encode(double a, int man, int bias, int emax) {
    int emin = 1 - bias;
    if (a < pow2(emin)) return uint16_t(round_half_even(a * pow2(man - emin)));   // subnormal (may round up to min normal)
    int e = emin;
    while (e <= emax && a >= pow2(e + 1)) ++e;
    uint32_t r = round_half_even(a * pow2(man - e));
    if (r == (2u << man)) { r = 1u << man; ++e; }
    if (e > emax) return uint16_t(((2 * bias + 1) << man));                        // overflow -> inf
    return uint16_t(((e + bias) << man) | (r - (1u << man)));
}
constexpr bool const_sign(float f) { return __builtin_copysignf(1.0f, f) < 0; }   // -0 included; clang and g++ fold it
constexpr uint16_t const_float_to_half_bits(float f) {
    if (f != f) return 0x7e00u;
    uint16_t sign = const_sign(f) ? 0x8000u : 0u;
    double a = const_sign(f) ? -double(f) : double(f);
    if (a > 65504.0 * 2) return uint16_t(sign | 0x7c00u);   // inf, and finite values far past the largest half
    return uint16_t(sign | const_encode(a, 10, 15, 15));
}
constexpr uint16_t const_float_to_bf16_bits(float f) {
    if (f != f) return 0x7fc0u;
    uint16_t sign = const_sign(f) ? 0x8000u : 0u;
    double a = const_sign(f) ? -double(f) : double(f);
    if (a > 3.5e38) return uint16_t(sign | 0x7f80u);
    return uint16_t(sign | const_encode(a, 7, 127, 127));
}
constexpr float const_decode(uint16_t b, int man, int bias) {
    int ebits = 15 - man;
    uint32_t e = (b >> man) & ((1u << ebits) - 1), m = b & ((1u << man) - 1);
    double v = e == ((1u << ebits) - 1) ? (m ? double(__builtin_nanf("")) : double(__builtin_huge_valf()))
             : e == 0 ? double(m) * pow2(1 - bias - man) : double((1u << man) | m) * pow2(int(e) - bias - man);
    return float((b & 0x8000u) ? -v : v);
}
constexpr float const_half_bits_to_float(uint16_t b) { return const_decode(b, 10, 15); }
constexpr float const_bf16_bits_to_float(uint16_t b) { return const_decode(b, 7, 127); }
#define ASCSIM_CONSTEVAL __builtin_is_constant_evaluated()

}  // namespace ascsim

// The device's `half` (IEEE binary16). Stored as bits; converts implicitly to and from float.
struct half {
    uint16_t bits_;
    half() = default;
    constexpr half(uint16_t b, int, int) : bits_(b) {}
    constexpr half(float f)
        : bits_(ASCSIM_CONSTEVAL ? ascsim::const_float_to_half_bits(f) : ascsim::float_to_half_bits(f)) {}
    constexpr half(double d) : half(float(d)) {}
    template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
    constexpr half(I v) : half(float(v)) {}
    constexpr operator float() const {
        return ASCSIM_CONSTEVAL ? ascsim::const_half_bits_to_float(bits_) : ascsim::half_bits_to_float(bits_);
    }
    template <class U> half& operator+=(const U& v) { return *this = half(float(*this) + float(v)); }
    template <class U> half& operator-=(const U& v) { return *this = half(float(*this) - float(v)); }
    template <class U> half& operator*=(const U& v) { return *this = half(float(*this) * float(v)); }
    template <class U> half& operator/=(const U& v) { return *this = half(float(*this) / float(v)); }
    static constexpr half from_bits(uint16_t b) { return half(b, 0, 0); }
};

struct bfloat16_t {
    uint16_t bits_;
    bfloat16_t() = default;
    constexpr bfloat16_t(uint16_t b, int, int) : bits_(b) {}
    constexpr bfloat16_t(float f)
        : bits_(ASCSIM_CONSTEVAL ? ascsim::const_float_to_bf16_bits(f) : ascsim::float_to_bf16_bits(f)) {}
    constexpr bfloat16_t(double d) : bfloat16_t(float(d)) {}
    template <class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
    constexpr bfloat16_t(I v) : bfloat16_t(float(v)) {}
    constexpr operator float() const {
        return ASCSIM_CONSTEVAL ? ascsim::const_bf16_bits_to_float(bits_) : ascsim::bf16_bits_to_float(bits_);
    }
    template <class U> bfloat16_t& operator+=(const U& v) { return *this = bfloat16_t(float(*this) + float(v)); }
    template <class U> bfloat16_t& operator-=(const U& v) { return *this = bfloat16_t(float(*this) - float(v)); }
    template <class U> bfloat16_t& operator*=(const U& v) { return *this = bfloat16_t(float(*this) * float(v)); }
    static constexpr bfloat16_t from_bits(uint16_t b) { return bfloat16_t(b, 0, 0); }
};

using float16_t = half;
using float32_t = float;
using bfloat16 = bfloat16_t;

namespace ascsim {

template <class T> inline constexpr bool is_f16_v = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;
template <class T> inline constexpr bool is_float_v = is_f16_v<T> || std::is_floating_point_v<T>;

template <class T> inline double to_double(T v) {
    if constexpr (is_f16_v<T>) return double(float(v));
    else return double(v);
}

// Round modes in the order of AscendC::RoundMode.
enum RoundKind { R_NONE = 0, R_RINT, R_FLOOR, R_CEIL, R_ROUND, R_TRUNC, R_ODD, R_HYBRID };

template <class T> inline T next_toward(T v, bool up) {
    if constexpr (std::is_same_v<T, float>) return std::nextafter(v, up ? INFINITY : -INFINITY);
    else {
        uint16_t b = v.bits_;
        float f = float(v);
        if (f == 0.0f) return T::from_bits(up ? 0x0001 : 0x8001);
        bool pos = f > 0;
        b = (pos == up) ? b + 1 : b - 1;
        return T::from_bits(b);
    }
}

inline bool lsb_odd(float v) { return f2u(v) & 1u; }
inline bool lsb_odd(half v) { return v.bits_ & 1u; }
inline bool lsb_odd(bfloat16_t v) { return v.bits_ & 1u; }

// Round an exact value `d` to a floating type with a given round mode (RINT/NONE = nearest even).
template <class F> inline F round_float(double d, int mode) {
    F r = F(float(d));
    if constexpr (std::is_same_v<F, float>) r = float(d);
    if (std::isnan(d) || std::isinf(d)) return r;
    double rd = double(float(r));
    if (rd == d || mode == R_NONE || mode == R_RINT || mode == R_HYBRID) return r;
    F lo = r, hi = r;
    if (rd < d) hi = next_toward(r, true); else lo = next_toward(r, false);
    double dl = double(float(lo)), dh = double(float(hi));
    switch (mode) {
        case R_FLOOR: return lo;
        case R_CEIL: return hi;
        case R_TRUNC: return d >= 0 ? lo : hi;
        case R_ROUND: {
            double a = d - dl, b = dh - d;
            if (a < b) return lo;
            if (b < a) return hi;
            return d >= 0 ? hi : lo;
        }
        case R_ODD: return lsb_odd(lo) ? lo : hi;
        default: return r;
    }
}

inline double round_integral(double d, int mode) {
    switch (mode) {
        case R_FLOOR: return std::floor(d);
        case R_CEIL: return std::ceil(d);
        case R_TRUNC: return std::trunc(d);
        case R_ROUND: return std::round(d);
        default: return std::nearbyint(d);   // RINT / NONE: nearest even (default FP env)
    }
}

template <class I> inline I saturate_int(double d) {
    constexpr double lo = double(std::numeric_limits<I>::min()), hi = double(std::numeric_limits<I>::max());
    if constexpr (sizeof(I) < 8) {   // limits exact in double: a branch-free clamp (vectorisable), NaN -> 0
        double c = d == d ? d : 0.0;
        c = c < lo ? lo : c;
        return I(c > hi ? hi : c);
    } else {                         // 2^63 / 2^64 do not convert back: saturate before converting
        if (std::isnan(d)) return I(0);
        if (d <= lo) return std::numeric_limits<I>::min();
        if (d >= hi) return std::numeric_limits<I>::max();
        return I(d);
    }
}

// Value conversion used by Cast and by scalar stores.
template <class D, class S> inline D convert(S s, int mode) {
    if constexpr (std::is_same_v<D, S> && !is_float_v<D>) return s;
    else if constexpr (std::is_integral_v<D>) {
        if constexpr (std::is_integral_v<S>) {
            if constexpr (sizeof(D) < sizeof(S) || (std::is_signed_v<S> != std::is_signed_v<D>))
                return saturate_int<D>(double(s));
            else return D(s);
        } else {
            return saturate_int<D>(round_integral(to_double(s), mode));
        }
    } else if constexpr (std::is_same_v<D, float> && std::is_same_v<S, float>) {
        if (mode == R_NONE) return s;
        return float(round_integral(double(s), mode));
    } else if constexpr (std::is_same_v<D, double>) {
        return to_double(s);
    } else {
        return round_float<D>(to_double(s), mode);
    }
}

}  // namespace ascsim
#endif  // ASCSIM_ASCSIM_NUMERIC_H_
