// ascsim kernel side: element-wise vector APIs (binary, unary, tensor-scalar, Duplicate, Axpy, Brcb,
// CreateVecIndex) in both overload families: count form and level-0 (mask, repeatTime, repeat params).
#ifndef ASCSIM_ASCSIM_KERNEL_VEC_ARITH_H_
#define ASCSIM_ASCSIM_KERNEL_VEC_ARITH_H_
#include <cmath>
#include "dtype_check.h"
#include "engine.h"

namespace ascsim {
template <class T> using calc_t = std::conditional_t<is_float_v<T>, std::conditional_t<std::is_same_v<T, double>, double, float>,
                                                     std::conditional_t<std::is_unsigned_v<T>, uint64_t, int64_t>>;
template <class T> inline calc_t<T> up(T v) { return calc_t<T>(v); }
template <class T, class C> inline T down(C v) {
    if constexpr (is_float_v<T>) return T(v);
    else return T(v);   // integers wrap like the hardware's modular arithmetic
}

// half count forms: widen a chunk to float, compute (vectorisable), narrow with round-to-nearest-even. Same results
// as the element loop; the chunk is read completely before dst is written, as one repeat is on hardware.
constexpr int32_t kChunk = 128;
inline const uint16_t* hbits(const half* p) { return reinterpret_cast<const uint16_t*>(p); }
inline uint16_t* hbits(half* p) { return reinterpret_cast<uint16_t*>(p); }

template <class T, class F>
inline void binary_count(const char* api, const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& a,
                         const AscendC::LocalTensor<T>& b, int32_t count, F f) {
    if (!check_dst(api, d, count)) return;
    check_src(api, a, count);
    check_src(api, b, count);
    T* pd = d.addr_;
    const T* pa = a.addr_;
    const T* pb = b.addr_;
    if constexpr (std::is_same_v<T, half>) {
        float fa[kChunk], fb[kChunk], fr[kChunk];
        for (int32_t base = 0; base < count; base += kChunk) {
            int32_t n = count - base < kChunk ? count - base : kChunk;
            half_bits_to_float_n(hbits(pa + base), fa, size_t(n));
            half_bits_to_float_n(hbits(pb + base), fb, size_t(n));
            for (int32_t i = 0; i < n; ++i) fr[i] = f(fa[i], fb[i]);
            float_to_half_bits_n(fr, hbits(pd + base), size_t(n));
        }
        return;
    }
    for (int32_t i = 0; i < count; ++i) pd[i] = down<T>(f(up(pa[i]), up(pb[i])));
}
template <class T, class M, class F>
inline void binary_rep(const char* api, const AscendC::LocalTensor<T>& d, const AscendC::LocalTensor<T>& a,
                       const AscendC::LocalTensor<T>& b, M mask, bool isSetMask, uint8_t repeat,
                       const AscendC::BinaryRepeatParams& p, F f) {
    constexpr uint32_t epr = elems_per_repeat<T>();
    Mask m = mask_from(mask, epr, isSetMask);
    Opnd ops[3] = {{(uint8_t*)d.addr_, sizeof(T), p.dstBlkStride, p.dstRepStride},
                   {(uint8_t*)a.addr_, sizeof(T), p.src0BlkStride, p.src0RepStride},
                   {(uint8_t*)b.addr_, sizeof(T), p.src1BlkStride, p.src1RepStride}};
    for_each_active(api, m, repeat, epr, ops, [&](uint32_t r, uint32_t i) {
        T* pd = (T*)ops[0].at(r, i);
        *pd = down<T>(f(up(*(T*)ops[1].at(r, i)), up(*(T*)ops[2].at(r, i))));
    });
}
template <class D, class S, class F>
inline void unary_count(const char* api, const AscendC::LocalTensor<D>& d, const AscendC::LocalTensor<S>& s,
                        int32_t count, F f) {
    if (!check_dst(api, d, count)) return;
    check_src(api, s, count);
    D* pd = d.addr_;
    const S* ps = s.addr_;
    if constexpr (std::is_same_v<D, half> && std::is_same_v<S, half>) {
        float fa[kChunk], fr[kChunk];
        for (int32_t base = 0; base < count; base += kChunk) {
            int32_t n = count - base < kChunk ? count - base : kChunk;
            half_bits_to_float_n(hbits(ps + base), fa, size_t(n));
            for (int32_t i = 0; i < n; ++i) fr[i] = float(f(fa[i]));
            float_to_half_bits_n(fr, hbits(pd + base), size_t(n));
        }
        return;
    }
    for (int32_t i = 0; i < count; ++i) pd[i] = down<D>(f(up(ps[i])));
}
template <class D, class S, class M, class F>
inline void unary_rep(const char* api, const AscendC::LocalTensor<D>& d, const AscendC::LocalTensor<S>& s, M mask,
                      bool isSetMask, uint8_t repeat, const AscendC::UnaryRepeatParams& p, F f) {
    constexpr uint32_t epr = 256u / (sizeof(D) > sizeof(S) ? sizeof(D) : sizeof(S));
    Mask m = mask_from(mask, epr, isSetMask);
    Opnd ops[2] = {{(uint8_t*)d.addr_, sizeof(D), p.dstBlkStride, p.dstRepStride},
                   {(uint8_t*)s.addr_, sizeof(S), p.srcBlkStride, p.srcRepStride}};
    for_each_active(api, m, repeat, epr, ops, [&](uint32_t r, uint32_t i) {
        *(D*)ops[0].at(r, i) = down<D>(f(up(*(S*)ops[1].at(r, i))));
    });
}
}  // namespace ascsim

// Binary API: count form + two level-0 forms.
#define ASCSIM_BINARY_API(NAME, SUPPORTED, EXPR, ...)                                                          \
    template <typename T>                                                                                       \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                const int32_t& count) {                                                         \
        ASCSIM_DTYPE_CHECK(#NAME, T, SUPPORTED, __VA_ARGS__);                                                   \
        ::ascsim::binary_count(#NAME, dst, src0, src1, count, [](auto a, auto b) { return EXPR; });            \
    }                                                                                                           \
    template <typename T, bool isSetMask = true>                                                                \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                uint64_t mask[], const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) { \
        ASCSIM_DTYPE_CHECK(#NAME, T, SUPPORTED, __VA_ARGS__);                                                   \
        ::ascsim::binary_rep(#NAME, dst, src0, src1, (const uint64_t*)mask, isSetMask, repeatTime, repeatParams, \
                             [](auto a, auto b) { return EXPR; });                                             \
    }                                                                                                           \
    template <typename T, bool isSetMask = true>                                                                \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams) { \
        ASCSIM_DTYPE_CHECK(#NAME, T, SUPPORTED, __VA_ARGS__);                                                   \
        ::ascsim::binary_rep(#NAME, dst, src0, src1, mask, isSetMask, repeatTime, repeatParams,                \
                             [](auto a, auto b) { return EXPR; });                                             \
    }

#define ASCSIM_UNARY_API(NAME, SUPPORTED, EXPR, ...)                                                           \
    template <typename T>                                                                                       \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count) {   \
        ASCSIM_DTYPE_CHECK(#NAME, T, SUPPORTED, __VA_ARGS__);                                                   \
        ::ascsim::unary_count(#NAME, dst, src, count, [](auto a) { return EXPR; });                            \
    }                                                                                                           \
    template <typename T, bool isSetMask = true>                                                                \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask[],          \
                                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {              \
        ASCSIM_DTYPE_CHECK(#NAME, T, SUPPORTED, __VA_ARGS__);                                                   \
        ::ascsim::unary_rep(#NAME, dst, src, (const uint64_t*)mask, isSetMask, repeatTime, repeatParams,       \
                            [](auto a) { return EXPR; });                                                      \
    }                                                                                                           \
    template <typename T, bool isSetMask = true>                                                                \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t mask,            \
                                const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {              \
        ASCSIM_DTYPE_CHECK(#NAME, T, SUPPORTED, __VA_ARGS__);                                                   \
        ::ascsim::unary_rep(#NAME, dst, src, mask, isSetMask, repeatTime, repeatParams,                        \
                            [](auto a) { return EXPR; });                                                      \
    }

// Tensor-scalar API: the scalar is converted once to the compute type.
#define ASCSIM_SCALAR_API(NAME, SUPPORTED, EXPR, ...)                                                          \
    template <typename T>                                                                                       \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,     \
                                const int32_t& count) {                                                         \
        ASCSIM_DTYPE_CHECK(#NAME, T, SUPPORTED, __VA_ARGS__);                                                   \
        auto s = ::ascsim::up(scalarValue);                                                                     \
        ::ascsim::unary_count(#NAME, dst, src, count, [s](auto a) { return EXPR; });                           \
    }                                                                                                           \
    template <typename T, bool isSetMask = true>                                                                \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,     \
                                uint64_t mask[], const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) { \
        ASCSIM_DTYPE_CHECK(#NAME, T, SUPPORTED, __VA_ARGS__);                                                   \
        auto s = ::ascsim::up(scalarValue);                                                                     \
        ::ascsim::unary_rep(#NAME, dst, src, (const uint64_t*)mask, isSetMask, repeatTime, repeatParams,       \
                            [s](auto a) { return EXPR; });                                                     \
    }                                                                                                           \
    template <typename T, bool isSetMask = true>                                                                \
    __aicore__ inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue,     \
                                uint64_t mask, const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) { \
        ASCSIM_DTYPE_CHECK(#NAME, T, SUPPORTED, __VA_ARGS__);                                                   \
        auto s = ::ascsim::up(scalarValue);                                                                     \
        ::ascsim::unary_rep(#NAME, dst, src, mask, isSetMask, repeatTime, repeatParams,                        \
                            [s](auto a) { return EXPR; });                                                     \
    }

namespace AscendC {

#define ASCSIM_ARITH_TYPES "half / float / int16_t / int32_t"
ASCSIM_BINARY_API(Add, ASCSIM_ARITH_TYPES, a + b, half, float, int16_t, int32_t)
ASCSIM_BINARY_API(Sub, ASCSIM_ARITH_TYPES, a - b, half, float, int16_t, int32_t)
ASCSIM_BINARY_API(Mul, ASCSIM_ARITH_TYPES, a * b, half, float, int16_t, int32_t)
ASCSIM_BINARY_API(Max, ASCSIM_ARITH_TYPES, (a > b ? a : b), half, float, int16_t, int32_t)
ASCSIM_BINARY_API(Min, ASCSIM_ARITH_TYPES, (a < b ? a : b), half, float, int16_t, int32_t)
ASCSIM_BINARY_API(Div, "half / float", a / b, half, float)
ASCSIM_BINARY_API(AddRelu, "half / float / int16_t", (a + b > 0 ? a + b : decltype(a + b)(0)), half, float, int16_t)
ASCSIM_BINARY_API(SubRelu, "half / float / int16_t", (a - b > 0 ? a - b : decltype(a - b)(0)), half, float, int16_t)
ASCSIM_BINARY_API(And, "int16_t / uint16_t", (a & b), int16_t, uint16_t)
ASCSIM_BINARY_API(Or, "int16_t / uint16_t", (a | b), int16_t, uint16_t)

ASCSIM_UNARY_API(Exp, "half / float", std::exp(a), half, float)
ASCSIM_UNARY_API(Ln, "half / float", std::log(a), half, float)
ASCSIM_UNARY_API(Abs, "half / float", std::fabs(a), half, float)
ASCSIM_UNARY_API(Sqrt, "half / float", std::sqrt(a), half, float)
ASCSIM_UNARY_API(Rsqrt, "half / float", 1.0f / std::sqrt(a), half, float)
ASCSIM_UNARY_API(Reciprocal, "half / float", 1.0f / a, half, float)
ASCSIM_UNARY_API(Relu, "half / float / int32_t", (a > 0 ? a : decltype(a)(0)), half, float, int32_t)
ASCSIM_UNARY_API(Not, "int16_t / uint16_t", (~a), int16_t, uint16_t)

ASCSIM_SCALAR_API(Adds, ASCSIM_ARITH_TYPES, a + s, half, float, int16_t, int32_t)
ASCSIM_SCALAR_API(Muls, ASCSIM_ARITH_TYPES, a * s, half, float, int16_t, int32_t)
ASCSIM_SCALAR_API(Maxs, ASCSIM_ARITH_TYPES, (a > s ? a : s), half, float, int16_t, int32_t)
ASCSIM_SCALAR_API(Mins, ASCSIM_ARITH_TYPES, (a < s ? a : s), half, float, int16_t, int32_t)
ASCSIM_SCALAR_API(LeakyRelu, "half / float", (a >= 0 ? a : a * s), half, float)
ASCSIM_SCALAR_API(ShiftLeft, "int16_t / uint16_t / int32_t / uint32_t", (a << s), int16_t, uint16_t, int32_t, uint32_t)
ASCSIM_SCALAR_API(ShiftRight, "int16_t / uint16_t / int32_t / uint32_t", (a >> s), int16_t, uint16_t, int32_t, uint32_t)

// Binary ops that also read dst.
template <typename T>
__aicore__ inline void FusedMulAdd(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                                   const int32_t& count) {
    ASCSIM_DTYPE_CHECK("FusedMulAdd", T, "half / float", half, float);
    if (!::ascsim::check_dst("FusedMulAdd", dst, count)) return;
    ::ascsim::check_src("FusedMulAdd", src0, count);
    ::ascsim::check_src("FusedMulAdd", src1, count);
    for (int32_t i = 0; i < count; ++i) dst.addr_[i] = T(float(src0.addr_[i]) * float(dst.addr_[i]) + float(src1.addr_[i]));
}
template <typename T>
__aicore__ inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                                 const int32_t& count) {
    ASCSIM_DTYPE_CHECK("MulAddDst", T, "half / float", half, float);
    if (!::ascsim::check_dst("MulAddDst", dst, count)) return;
    ::ascsim::check_src("MulAddDst", src0, count);
    ::ascsim::check_src("MulAddDst", src1, count);
    for (int32_t i = 0; i < count; ++i) dst.addr_[i] = T(float(src0.addr_[i]) * float(src1.addr_[i]) + float(dst.addr_[i]));
}
template <typename T, typename U>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U& scalarValue, const int32_t& count) {
    static_assert((std::is_same_v<T, half> && std::is_same_v<U, half>) || (std::is_same_v<T, float> && std::is_same_v<U, float>) ||
                  (std::is_same_v<T, float> && std::is_same_v<U, half>),
                  "Failed to check dtype in Axpy, current api support dtype combination is src: half, dst: half / src: float, dst: float / src: half, dst: float.");
    if (!::ascsim::check_dst("Axpy", dst, count)) return;
    ::ascsim::check_src("Axpy", src, count);
    float s = float(scalarValue);
    if constexpr (std::is_same_v<T, half> && std::is_same_v<U, half>) {
        // half in, half out: the product is rounded to half before the add (two roundings, as a Muls then an Add).
        // Answers that pass on the device at a 1e-4 tolerance against torch's half `a + b * s` need exactly that.
        for (int32_t i = 0; i < count; ++i) dst.addr_[i] = T(float(half(float(src.addr_[i]) * s)) + float(dst.addr_[i]));
    } else {
        for (int32_t i = 0; i < count; ++i) dst.addr_[i] = T(float(src.addr_[i]) * s + float(dst.addr_[i]));
    }
}

// Duplicate: count form, tensor-source form, level-0 forms.
template <typename T>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, const int32_t& count) {
    ASCSIM_DTYPE_CHECK("Duplicate", T, "half / bfloat16_t / float / int16_t / uint16_t / int32_t / uint32_t",
                       half, bfloat16_t, float, int16_t, uint16_t, int32_t, uint32_t);
    if (!::ascsim::check_dst("Duplicate", dst, count)) return;
    for (int32_t i = 0; i < count; ++i) dst.addr_[i] = scalarValue;
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask[], const uint8_t repeatTime,
                                 const uint16_t dstBlockStride, const uint8_t dstRepeatStride) {
    ASCSIM_DTYPE_CHECK("Duplicate", T, "half / bfloat16_t / float / int16_t / uint16_t / int32_t / uint32_t",
                       half, bfloat16_t, float, int16_t, uint16_t, int32_t, uint32_t);
    constexpr uint32_t epr = ::ascsim::elems_per_repeat<T>();
    ::ascsim::Mask m = ::ascsim::mask_from((const uint64_t*)mask, epr, isSetMask);
    ::ascsim::Opnd ops[1] = {{(uint8_t*)dst.addr_, sizeof(T), dstBlockStride, dstRepeatStride}};
    ::ascsim::for_each_active("Duplicate", m, repeatTime, epr, ops, [&](uint32_t r, uint32_t i) { *(T*)ops[0].at(r, i) = scalarValue; });
}
template <typename T, bool isSetMask = true>
__aicore__ inline void Duplicate(const LocalTensor<T>& dst, const T& scalarValue, uint64_t mask, const uint8_t repeatTime,
                                 const uint16_t dstBlockStride, const uint8_t dstRepeatStride) {
    ASCSIM_DTYPE_CHECK("Duplicate", T, "half / bfloat16_t / float / int16_t / uint16_t / int32_t / uint32_t",
                       half, bfloat16_t, float, int16_t, uint16_t, int32_t, uint32_t);
    constexpr uint32_t epr = ::ascsim::elems_per_repeat<T>();
    ::ascsim::Mask m = ::ascsim::mask_from(mask, epr, isSetMask);
    ::ascsim::Opnd ops[1] = {{(uint8_t*)dst.addr_, sizeof(T), dstBlockStride, dstRepeatStride}};
    ::ascsim::for_each_active("Duplicate", m, repeatTime, epr, ops, [&](uint32_t r, uint32_t i) { *(T*)ops[0].at(r, i) = scalarValue; });
}

template <typename T>
__aicore__ inline void CreateVecIndex(const LocalTensor<T>& dst, const T& firstValue, uint32_t count) {
    ASCSIM_DTYPE_CHECK("CreateVecIndex", T, "half / float / int16_t / int32_t", half, float, int16_t, int32_t);
    if (!::ascsim::check_dst("CreateVecIndex", dst, count)) return;
    for (uint32_t i = 0; i < count; ++i) dst.addr_[i] = T(::ascsim::up(firstValue) + ::ascsim::calc_t<T>(i));
}

// Brcb: every repeat reads 8 consecutive elements and fills one 32-byte block of dst with each.
template <typename T>
__aicore__ inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t repeatTime,
                            const BrcbRepeatParams& repeatParams) {
    ASCSIM_DTYPE_CHECK("Brcb", T, "half / bfloat16_t / float / int16_t / uint16_t / int32_t / uint32_t",
                       half, bfloat16_t, float, int16_t, uint16_t, int32_t, uint32_t);
    if (repeatTime == 0) return;
    ::ascsim::check_ub_aligned("Brcb", dst.addr_);
    ::ascsim::check_ub_aligned("Brcb", src0.addr_);
    ::ascsim::check_ub("Brcb", src0.addr_, size_t(repeatTime) * 8 * sizeof(T));
    ::ascsim::sync_v_read("Brcb", src0.addr_, size_t(repeatTime) * 8 * sizeof(T));
    constexpr uint32_t epb = 32 / sizeof(T);
    for (uint32_t r = 0; r < repeatTime; ++r)
        for (uint32_t b = 0; b < 8; ++b) {
            T* blk = (T*)((uint8_t*)dst.addr_ + (size_t(r) * repeatParams.dstRepStride + size_t(b) * repeatParams.dstBlkStride) * 32);
            ::ascsim::check_ub("Brcb", blk, 32);
            ::ascsim::sync_v_write("Brcb", blk, 32);
            T v = src0.addr_[r * 8 + b];
            for (uint32_t k = 0; k < epb; ++k) blk[k] = v;
        }
}

}  // namespace AscendC
#endif  // ASCSIM_ASCSIM_KERNEL_VEC_ARITH_H_
